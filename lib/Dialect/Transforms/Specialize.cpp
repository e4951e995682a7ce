//===- Specialize.cpp - Specialize kernels on runtime constants -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kernel specialization in MLIR, the idea of LLNL's Proteus (which specializes
// LLVM IR at launch): a kernel is cloned for known values of the arguments it
// marks as runtime constants and for known launch sizes, the values are
// substituted, and the clone is folded (canonicalization, sparse conditional
// constant propagation, full unrolling of loops whose trip count became
// constant). Working before lowering keeps loop structure and memref shapes
// visible to the folding, and one implementation serves every target.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/Specialize.h"
#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadDialect/Transforms/Passes.h"
#include "OffloadSupport/KernelNames.h"
#include "SpecializeCostModel.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADSPECIALIZE
#include "OffloadDialect/Transforms/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

/// The runtime-constant ops of \p kernel whose operand is kernel argument
/// \p index.
static SmallVector<RuntimeConstantOp> getRuntimeConstants(gpu::GPUFuncOp kernel,
                                                          unsigned index) {
  SmallVector<RuntimeConstantOp> result;
  if (kernel.getBody().empty())
    return result;
  for (Operation *user : kernel.getArgument(index).getUsers())
    if (auto op = dyn_cast<RuntimeConstantOp>(user))
      result.push_back(op);
  return result;
}

/// Whether kernel argument \p index is a scalar (integer, index or float) that
/// a value of \p value's type can stand for without a runtime-constant mark.
static bool isSubstitutableScalar(gpu::GPUFuncOp kernel, unsigned index,
                                  Attribute value) {
  Type type = kernel.getArgumentTypes()[index];
  auto typed = dyn_cast_or_null<TypedAttr>(value);
  return typed && isa<IntegerAttr, FloatAttr>(value) &&
         typed.getType() == type && type.isIntOrIndexOrFloat();
}

bool mlir::offload::isUseful(gpu::GPUFuncOp kernel,
                             const KernelSpecialization &spec) {
  for (auto [index, value] : llvm::enumerate(spec.argumentValues)) {
    if (!value || index >= kernel.getNumArguments())
      continue;
    if (!getRuntimeConstants(kernel, index).empty())
      return true;
    if (!kernel.getBody().empty() &&
        isSubstitutableScalar(kernel, index, value) &&
        !kernel.getArgument(index).use_empty())
      return true;
  }
  auto differs = [](DenseI32ArrayAttr known,
                    const std::optional<std::array<int32_t, 3>> &size) {
    return size && (!known || known.asArrayRef() != ArrayRef<int32_t>(*size));
  };
  return differs(kernel.getKnownBlockSizeAttr(), spec.blockSize) ||
         differs(kernel.getKnownGridSizeAttr(), spec.gridSize);
}

std::string
mlir::offload::getSpecializedName(gpu::GPUFuncOp kernel,
                                  const KernelSpecialization &spec) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << kernel.getName() << ';';
  for (auto [index, value] : llvm::enumerate(spec.argumentValues)) {
    if (!value)
      continue;
    os << index << '=';
    value.print(os);
    os << ';';
  }
  auto printSize = [&](StringRef name,
                       const std::optional<std::array<int32_t, 3>> &size) {
    if (size)
      os << name << '=' << (*size)[0] << ',' << (*size)[1] << ',' << (*size)[2]
         << ';';
  };
  printSize("block", spec.blockSize);
  printSize("grid", spec.gridSize);
  std::string name;
  llvm::raw_string_ostream nameStream(name);
  nameStream << kernel.getName() << ::offload::SpecializedNameSeparator
             << llvm::format_hex_no_prefix(
                    llvm::xxh3_64bits(key),
                    ::offload::SpecializedNameHashDigits);
  return name;
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

namespace {
/// memref.load %g[constant indices] where %g = memref.get_global of a
/// constant memref.global with an initial value -> the element.
struct FoldConstantGlobalLoad : OpRewritePattern<memref::LoadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::LoadOp load,
                                PatternRewriter &rewriter) const override {
    auto getGlobal = load.getMemRef().getDefiningOp<memref::GetGlobalOp>();
    if (!getGlobal)
      return rewriter.notifyMatchFailure(load, "not a load from a global");
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        getGlobal, getGlobal.getNameAttr());
    if (!global || !global.getConstant())
      return rewriter.notifyMatchFailure(load, "global is not constant");
    auto value = dyn_cast_or_null<DenseElementsAttr>(
        global.getInitialValue().value_or(Attribute()));
    if (!value)
      return rewriter.notifyMatchFailure(load, "global has no dense value");
    SmallVector<uint64_t> indices;
    for (Value index : load.getIndices()) {
      APInt constant;
      if (!matchPattern(index, m_ConstantInt(&constant)))
        return rewriter.notifyMatchFailure(load, "index is not a constant");
      indices.push_back(constant.getZExtValue());
    }
    if (!ElementsAttr::isValidIndex(value, indices))
      return rewriter.notifyMatchFailure(load, "index out of bounds");
    auto element = cast<TypedAttr>(
        value.getValues<Attribute>()[ElementsAttr::getFlattenedIndex(value,
                                                                     indices)]);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(load, element);
    return success();
  }
};
} // namespace

void mlir::offload::populateFoldConstantGlobalLoadPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldConstantGlobalLoad>(patterns.getContext());
}

/// Canonicalization patterns of every loaded dialect and registered op, plus
/// constant-global load folding and, with \p mathSimplification, upstream's
/// math algebraic simplification (powf(x, c) for c in {+-0.5, 0.75, +-1, +-2,
/// 3} and fpowi with a constant exponent as multiplications and square roots,
/// mlir/lib/Dialect/Math/Transforms/AlgebraicSimplification.cpp).
static FrozenRewritePatternSet getFoldingPatterns(MLIRContext *context,
                                                  bool mathSimplification) {
  RewritePatternSet patterns(context);
  if (mathSimplification)
    populateMathAlgebraicSimplificationPatterns(patterns);
  for (Dialect *dialect : context->getLoadedDialects())
    dialect->getCanonicalizationPatterns(patterns);
  for (RegisteredOperationName op : context->getRegisteredOperations())
    op.getCanonicalizationPatterns(patterns, context);
  populateFoldConstantGlobalLoadPatterns(patterns);
  return FrozenRewritePatternSet(std::move(patterns));
}

/// Sparse conditional constant propagation over \p root (the upstream SCCP
/// analysis): values proven constant, including through branches and block
/// arguments that canonicalization cannot see through, become constants.
static void propagateConstants(Operation *root) {
  DataFlowSolver solver;
  dataflow::loadBaselineAnalyses(solver);
  if (failed(solver.initializeAndRun(root)))
    return;
  OpBuilder builder(root->getContext());
  auto replace = [&](Value value) {
    if (value.use_empty())
      return;
    auto *lattice =
        solver.lookupState<dataflow::Lattice<dataflow::ConstantValue>>(value);
    if (!lattice || lattice->getValue().isUninitialized())
      return;
    Attribute constant = lattice->getValue().getConstantValue();
    Dialect *dialect = lattice->getValue().getConstantDialect();
    if (!constant || !dialect)
      return;
    if (matchPattern(value, m_Constant()))
      return;
    if (auto arg = dyn_cast<BlockArgument>(value))
      builder.setInsertionPointToStart(arg.getOwner());
    else
      builder.setInsertionPointAfterValue(value);
    Operation *materialized = dialect->materializeConstant(
        builder, constant, value.getType(), value.getLoc());
    if (!materialized)
      return;
    value.replaceAllUsesWith(materialized->getResult(0));
  };
  root->walk([&](Block *block) {
    for (BlockArgument arg : block->getArguments())
      replace(arg);
  });
  root->walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::ConstantLike>())
      return;
    for (Value result : op->getResults())
      replace(result);
  });
}

/// Fully unrolls the innermost-first scf.for loops of \p root whose trip count
/// is a constant no larger than \p maxTripCount.
static void unrollConstantLoops(Operation *root, unsigned maxTripCount) {
  if (maxTripCount == 0)
    return;
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    std::optional<APInt> tripCount = loop.getStaticTripCount();
    if (!tripCount || tripCount->ugt(maxTripCount))
      continue;
    (void)loopUnrollFull(loop);
  }
}

/// Folds the clone \p kernel after substitution. Without the cost model:
/// canonicalize, SCCP, unroll every loop up to the fixed bound, canonicalize.
/// With it (docs/JIT.md, "The cost model"): the canonicalization also
/// strength-reduces powf/fpowi with constant exponents (upstream's math
/// algebraic simplification), loops are unrolled where the model shows a
/// gain (two rounds, as folding after one unrolling shrinks the next loop
/// out), math calls on the induction variable alone of the loops left rolled
/// become table loads, and loop-invariant code leaves the loops.
static void foldSpecialization(gpu::GPUFuncOp kernel, SymbolTable &symbols,
                               const SpecializationOptions &options) {
  FrozenRewritePatternSet patterns =
      getFoldingPatterns(kernel.getContext(), options.costModel);
  (void)applyPatternsGreedily(kernel.getOperation(), patterns);
  propagateConstants(kernel);
  (void)applyPatternsGreedily(kernel.getOperation(), patterns);
  if (!options.costModel) {
    unrollConstantLoops(kernel, options.unrollMaxTripCount);
    (void)applyPatternsGreedily(kernel.getOperation(), patterns);
    return;
  }
  for (int round = 0; round < 2; ++round) {
    if (unrollLoopsByCost(kernel, options) == 0)
      break;
    (void)applyPatternsGreedily(kernel.getOperation(), patterns);
  }
  if (tabulateInductionFunctions(kernel, symbols, kernel.getName(), options))
    (void)applyPatternsGreedily(kernel.getOperation(), patterns);
  kernel.walk([](LoopLikeOpInterface loop) { moveLoopInvariantCode(loop); });
  (void)applyPatternsGreedily(kernel.getOperation(), patterns);
}

std::string SpecializationOptions::getKey() const {
  std::string key = "unroll=" + std::to_string(unrollMaxTripCount);
  if (costModel)
    key += ";cost=" + std::to_string(unrollThreshold) + "," +
           std::to_string(unrollMaxPercentThresholdBoost) + "," +
           std::to_string(maxTableBytes);
  return key;
}

//===----------------------------------------------------------------------===//
// Substitution
//===----------------------------------------------------------------------===//

/// Checks that \p value can stand for kernel argument \p index of type
/// \p type.
static LogicalResult checkValue(gpu::GPUFuncOp kernel, unsigned index,
                                Type type, Attribute value, bool contents) {
  auto fail = [&]() {
    return kernel.emitOpError("cannot specialize argument #")
           << index << " of type " << type << " on " << value;
  };
  if (contents) {
    auto memrefType = dyn_cast<MemRefType>(type);
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (!memrefType || !dense ||
        dense.getElementType() != memrefType.getElementType() ||
        dense.getNumElements() != memrefType.getNumElements())
      return fail();
    return success();
  }
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type || !isa<IntegerAttr, FloatAttr>(value))
    return fail();
  return success();
}

namespace {
/// A global that holds the contents of a memref of a strided layout at the
/// positions the layout gives them.
struct StridedContents {
  /// memref<footprint x element> in the memref's memory space.
  MemRefType globalType;
  DenseElementsAttr initialValue;
  /// The layout's offset and strides, with row-major strides (and offset 0)
  /// where the layout's are dynamic.
  int64_t offset = 0;
  SmallVector<int64_t> strides;
};
} // namespace

/// Lays out \p value (the row-major elements of a memref of type \p type,
/// whose layout is not the identity) as a global of \p type's footprint.
/// std::nullopt when the layout is not strided, has negative strides, or the
/// footprint is more than 16 times the elements (and 4096): such an argument
/// is not worth a global and is not specialized.
static std::optional<StridedContents>
getStridedContents(MemRefType type, DenseElementsAttr value) {
  StridedContents result;
  if (failed(type.getStridesAndOffset(result.strides, result.offset)))
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rowMajor = 1, footprint = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    int64_t &stride = result.strides[d];
    if (ShapedType::isDynamic(stride))
      stride = rowMajor;
    if (stride < 0)
      return std::nullopt;
    rowMajor *= shape[d];
    footprint += (shape[d] - 1) * stride;
  }
  if (ShapedType::isDynamic(result.offset))
    result.offset = 0;
  footprint += result.offset;
  int64_t numElements = type.getNumElements();
  if (numElements == 0 || footprint > 16 * numElements + 4096)
    return std::nullopt;

  Type elementType = type.getElementType();
  Attribute zero = isa<FloatType>(elementType)
                       ? Attribute(FloatAttr::get(elementType, 0.0))
                       : Attribute(IntegerAttr::get(elementType, 0));
  SmallVector<Attribute> elements(footprint, zero);
  for (auto [linear, element] : llvm::enumerate(value.getValues<Attribute>())) {
    int64_t position = result.offset, rest = linear;
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      position += (rest % shape[d]) * result.strides[d];
      rest /= shape[d];
    }
    elements[position] = element;
  }
  result.globalType = MemRefType::get({footprint}, elementType, AffineMap(),
                                      type.getMemorySpace());
  result.initialValue = DenseElementsAttr::get(
      RankedTensorType::get({footprint}, elementType), elements);
  return result;
}

/// A view of type \p type on \p global (a get_global of \p contents's
/// global): memref.reinterpret_cast with the layout's offset and strides.
static Value castToLayout(OpBuilder &builder, Location loc, Value global,
                          MemRefType type, const StridedContents &contents) {
  SmallVector<int64_t> typeStrides;
  int64_t typeOffset;
  (void)type.getStridesAndOffset(typeStrides, typeOffset);
  // Dynamic positions of the type take SSA values, static ones attributes.
  auto get = [&](int64_t ofType, int64_t value) -> OpFoldResult {
    if (ShapedType::isDynamic(ofType))
      return arith::ConstantIndexOp::create(builder, loc, value).getResult();
    return builder.getIndexAttr(value);
  };
  SmallVector<OpFoldResult> sizes, strides;
  for (auto [d, size] : llvm::enumerate(type.getShape())) {
    sizes.push_back(builder.getIndexAttr(size));
    strides.push_back(get(typeStrides[d], contents.strides[d]));
  }
  return memref::ReinterpretCastOp::create(builder, loc, type, global,
                                           get(typeOffset, contents.offset),
                                           sizes, strides);
}

FailureOr<gpu::GPUFuncOp>
mlir::offload::getOrCreateSpecialization(gpu::GPUFuncOp kernel,
                                         const KernelSpecialization &spec,
                                         const SpecializationOptions &options) {
  auto module = kernel->getParentOfType<gpu::GPUModuleOp>();
  if (!module)
    return kernel.emitOpError("kernel is not inside a gpu.module");
  if (spec.argumentValues.size() > kernel.getNumArguments())
    return kernel.emitOpError("specialization has ")
           << spec.argumentValues.size() << " argument values but the kernel "
           << kernel.getNumArguments() << " arguments";
  std::string name = getSpecializedName(kernel, spec);
  SymbolTable symbols(module);
  if (auto existing = symbols.lookup<gpu::GPUFuncOp>(name))
    return existing;

  auto clone = cast<gpu::GPUFuncOp>(kernel->clone());
  clone.setName(name);
  // The kernel's own name, for messages (device-side asserts).
  // The name of the kernel a specialization was made from.
  OffloadDialect::SpecializationOfAttrHelper specializationOf(
      clone->getContext());
  if (!specializationOf.isAttrPresent(clone))
    specializationOf.setAttr(clone, kernel.getNameAttr());
  symbols.insert(clone, std::next(Block::iterator(kernel)));
  MLIRContext *context = kernel.getContext();
  OpBuilder builder(context);

  for (auto [index, value] : llvm::enumerate(spec.argumentValues)) {
    if (!value)
      continue;
    SmallVector<RuntimeConstantOp> marks = getRuntimeConstants(clone, index);
    if (marks.empty()) {
      // An unmarked scalar: its uses take the constant directly.
      if (!isSubstitutableScalar(clone, index, value) ||
          clone.getBody().empty())
        continue;
      BlockArgument argument = clone.getArgument(index);
      builder.setInsertionPointToStart(&clone.getBody().front());
      argument.replaceAllUsesWith(arith::ConstantOp::create(
          builder, argument.getLoc(), cast<TypedAttr>(value)));
      continue;
    }
    for (RuntimeConstantOp op : marks) {
      Type type = op.getType();
      if (failed(checkValue(kernel, index, type, value, op.getContents()))) {
        clone.erase();
        return failure();
      }
      builder.setInsertionPoint(op);
      Value replacement;
      if (op.getContents()) {
        // The contents become a private constant global of the module.
        // The symbol table renames it if the name is taken.
        auto memrefType = cast<MemRefType>(type);
        std::optional<StridedContents> strided;
        if (!memrefType.getLayout().isIdentity()) {
          strided =
              getStridedContents(memrefType, cast<DenseElementsAttr>(value));
          if (!strided)
            continue; // stays an argument: the op is dropped later
        }
        MemRefType globalType = strided ? strided->globalType : memrefType;
        std::string globalName = (name + ".arg" + Twine(index)).str();
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(clone);
        auto global = memref::GlobalOp::create(
            builder, op.getLoc(), globalName, builder.getStringAttr("private"),
            globalType, strided ? strided->initialValue : value,
            /*constant=*/true, /*alignment=*/IntegerAttr());
        symbols.insert(global);
        builder.setInsertionPoint(op);
        replacement = memref::GetGlobalOp::create(
            builder, op.getLoc(), globalType, global.getSymName());
        if (strided)
          replacement = castToLayout(builder, op.getLoc(), replacement,
                                     memrefType, *strided);
      } else {
        replacement = arith::ConstantOp::create(builder, op.getLoc(),
                                                cast<TypedAttr>(value));
      }
      op.replaceAllUsesWith(replacement);
      op.erase();
    }
  }

  auto setSize = [&](const std::optional<std::array<int32_t, 3>> &size,
                     bool isBlock) {
    if (!size)
      return;
    auto attr = DenseI32ArrayAttr::get(context, *size);
    if (isBlock)
      clone.setKnownBlockSizeAttr(attr);
    else
      clone.setKnownGridSizeAttr(attr);
    clone.walk([&](Operation *op) {
      std::optional<gpu::Dimension> dim;
      if (auto blockDim = dyn_cast<gpu::BlockDimOp>(op); blockDim && isBlock)
        dim = blockDim.getDimension();
      if (auto gridDim = dyn_cast<gpu::GridDimOp>(op); gridDim && !isBlock)
        dim = gridDim.getDimension();
      if (!dim)
        return;
      builder.setInsertionPoint(op);
      op->getResult(0).replaceAllUsesWith(arith::ConstantIndexOp::create(
          builder, op->getLoc(), (*size)[static_cast<unsigned>(*dim)]));
      op->erase();
    });
  };
  setSize(spec.blockSize, /*isBlock=*/true);
  setSize(spec.gridSize, /*isBlock=*/false);

  foldSpecialization(clone, symbols, options);
  return clone;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

/// The constant value of launch operand \p operand for a kernel argument
/// marked by \p op, or null.
static Attribute getLaunchValue(Value operand, RuntimeConstantOp op) {
  if (op.getContents()) {
    auto getGlobal = operand.getDefiningOp<memref::GetGlobalOp>();
    if (!getGlobal)
      return {};
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        getGlobal, getGlobal.getNameAttr());
    if (!global || !global.getConstant())
      return {};
    return dyn_cast_or_null<DenseElementsAttr>(
        global.getInitialValue().value_or(Attribute()));
  }
  Attribute value;
  if (!matchPattern(operand, m_Constant(&value)))
    return {};
  return value;
}

static std::optional<std::array<int32_t, 3>> getConstantSize(ValueRange dims) {
  std::array<int32_t, 3> size;
  for (auto [i, dim] : llvm::enumerate(dims)) {
    APInt value;
    if (!matchPattern(dim, m_ConstantInt(&value)) || value.isZero() ||
        value.getActiveBits() > 31)
      return std::nullopt;
    size[i] = static_cast<int32_t>(value.getZExtValue());
  }
  return size;
}

namespace {
/// What the pass needs from a launch op of either dialect.
struct LaunchView {
  Operation *op;
  SymbolRefAttr kernel;
  SmallVector<Value, 3> grid, block;
  ValueRange operands;
};

struct SpecializePass
    : public mlir::offload::impl::OffloadSpecializeBase<SpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<LaunchView> launches;
    getOperation().walk([&](Operation *op) {
      // Both launch ops name their operands alike.
      auto view = [&](auto launch) {
        launches.push_back({op,
                            launch.getKernel(),
                            {launch.getGridSizeX(), launch.getGridSizeY(),
                             launch.getGridSizeZ()},
                            {launch.getBlockSizeX(), launch.getBlockSizeY(),
                             launch.getBlockSizeZ()},
                            launch.getKernelOperands()});
      };
      if (auto launch = dyn_cast<LaunchOp>(op))
        view(launch);
      else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op))
        view(launch);
    });

    SpecializationOptions options;
    options.unrollMaxTripCount = unrollMaxTripCount;
    options.costModel = costModel;
    options.unrollThreshold = unrollThreshold;
    options.unrollMaxPercentThresholdBoost = unrollMaxPercentThresholdBoost;
    options.maxTableBytes = maxTableBytes;
    SymbolTableCollection symbolTables;
    // Kernels whose launches moved to a clone (erase-replaced-kernels).
    SetVector<gpu::GPUFuncOp> replaced;
    for (LaunchView &launch : launches) {
      auto kernel = dyn_cast_or_null<gpu::GPUFuncOp>(
          symbolTables.lookupNearestSymbolFrom(launch.op, launch.kernel));
      if (!kernel || !kernel.isKernel() ||
          kernel.getNumArguments() != launch.operands.size())
        continue;
      KernelSpecialization spec;
      spec.argumentValues.resize(kernel.getNumArguments());
      for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
        SmallVector<RuntimeConstantOp> marks = getRuntimeConstants(kernel, i);
        if (!marks.empty()) {
          spec.argumentValues[i] = getLaunchValue(launch.operands[i], marks[0]);
          continue;
        }
        // Unmarked scalars constant at the launch site: this launch passes
        // the same value every time it runs.
        Attribute value;
        if (foldUnannotatedScalars &&
            matchPattern(launch.operands[i], m_Constant(&value)) &&
            isSubstitutableScalar(kernel, i, value))
          spec.argumentValues[i] = value;
      }
      spec.blockSize = getConstantSize(launch.block);
      if (foldGridSize)
        spec.gridSize = getConstantSize(launch.grid);
      if (!isUseful(kernel, spec))
        continue;
      FailureOr<gpu::GPUFuncOp> specialized =
          getOrCreateSpecialization(kernel, spec, options);
      if (failed(specialized))
        return signalPassFailure();
      // The clone lives next to the kernel: same root, new leaf.
      auto target = SymbolRefAttr::get(
          launch.kernel.getRootReference(),
          {FlatSymbolRefAttr::get(specialized->getNameAttr())});
      if (auto offloadLaunch = dyn_cast<LaunchOp>(launch.op))
        offloadLaunch.setKernelAttr(target);
      else
        cast<gpu::LaunchFuncOp>(launch.op).setKernelAttr(target);
      symbolTables.invalidateSymbolTable(
          (*specialized)->getParentOfType<gpu::GPUModuleOp>());
      if (*specialized != kernel)
        replaced.insert(kernel);
    }
    if (!eraseReplacedKernels)
      return;
    for (gpu::GPUFuncOp kernel : replaced)
      if (SymbolTable::symbolKnownUseEmpty(kernel, getOperation()))
        kernel.erase();
  }
};
} // namespace
