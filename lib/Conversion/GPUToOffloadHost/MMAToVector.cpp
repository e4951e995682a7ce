//===- MMAToVector.cpp - gpu.subgroup_mma_* on the host -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Lowers the subgroup matrix ops of the gpu dialect for the host target
// (see MMAToVector.h for the mechanism). The rewrite of each op follows
// upstream's GPU lowerings, with a vector in the place of the lane-distributed
// fragment:
//   - mlir/lib/Conversion/GPUToNVVM/WmmaOpsToNvvm.cpp: the address of a
//     fragment is the element at the op's indices (getStridedElementPtr), row
//     r starts `leadDimension * r` elements further; `transpose` loads and
//     stores a column-major matrix; elementwise MAXF/MINF propagate NaNs;
//   - mlir/lib/Conversion/GPUToSPIRV/WmmaOpsToSPIRV.cpp: the elementwise ops
//     on integers (ADDI ... NEGATES) and EXTF, the signedness of integer A/B
//     operands, which the signless accumulator does not have.
// The matrix product is a sequence of K outer products (upstream's
// vector.contract lowering to vector.outerproduct), each one FMA per row of
// the accumulator: vectorized along N. `a_transpose` and `b_transpose` change
// nothing: the vector holds the matrix in its logical layout once loaded
// (GPUOps.td: the attributes "do not affect correctness ... given that the
// operands were loaded correctly").
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/MMAToVector.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTLOWERMMA
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

/// The signless type of \p type (si8 and ui8 become i8).
static Type getSignless(Type type) {
  if (auto intType = dyn_cast<IntegerType>(type))
    return IntegerType::get(type.getContext(), intType.getWidth());
  return type;
}

static VectorType getVectorType(gpu::MMAMatrixType type) {
  return VectorType::get(type.getShape(), getSignless(type.getElementType()));
}

void mlir::offload::populateHostMMATypeConversion(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion(
      [](gpu::MMAMatrixType type) -> Type { return getVectorType(type); });
}

//===----------------------------------------------------------------------===//
// What the host target supports
//===----------------------------------------------------------------------===//

static bool isUnaryElementwise(gpu::MMAElementwiseOp kind) {
  switch (kind) {
  case gpu::MMAElementwiseOp::NEGATEF:
  case gpu::MMAElementwiseOp::NEGATES:
  case gpu::MMAElementwiseOp::EXTF:
    return true;
  case gpu::MMAElementwiseOp::ADDF:
  case gpu::MMAElementwiseOp::MULF:
  case gpu::MMAElementwiseOp::SUBF:
  case gpu::MMAElementwiseOp::MAXF:
  case gpu::MMAElementwiseOp::MINF:
  case gpu::MMAElementwiseOp::DIVF:
  case gpu::MMAElementwiseOp::ADDI:
  case gpu::MMAElementwiseOp::MULI:
  case gpu::MMAElementwiseOp::SUBI:
  case gpu::MMAElementwiseOp::DIVS:
  case gpu::MMAElementwiseOp::DIVU:
    return false;
  }
  llvm_unreachable("unknown mma elementwise op");
}

static bool isFloatElementwise(gpu::MMAElementwiseOp kind) {
  switch (kind) {
  case gpu::MMAElementwiseOp::ADDF:
  case gpu::MMAElementwiseOp::MULF:
  case gpu::MMAElementwiseOp::SUBF:
  case gpu::MMAElementwiseOp::MAXF:
  case gpu::MMAElementwiseOp::MINF:
  case gpu::MMAElementwiseOp::DIVF:
  case gpu::MMAElementwiseOp::NEGATEF:
  case gpu::MMAElementwiseOp::EXTF:
    return true;
  case gpu::MMAElementwiseOp::ADDI:
  case gpu::MMAElementwiseOp::MULI:
  case gpu::MMAElementwiseOp::SUBI:
  case gpu::MMAElementwiseOp::DIVS:
  case gpu::MMAElementwiseOp::DIVU:
  case gpu::MMAElementwiseOp::NEGATES:
    return false;
  }
  llvm_unreachable("unknown mma elementwise op");
}

/// Emits an error on \p op and fails unless every fragment type it uses is
/// one the host target supports.
static LogicalResult checkMatrixTypes(Operation *op) {
  auto check = [&](Type type) -> LogicalResult {
    auto matrix = dyn_cast<gpu::MMAMatrixType>(type);
    if (!matrix)
      return success();
    Type element = matrix.getElementType();
    if (!element.isF16() && !element.isF32() && !element.isF64() &&
        !element.isInteger(8) && !element.isInteger(32))
      return op->emitOpError("host target supports !gpu.mma_matrix of f16, "
                             "f32, f64, i8 and i32 elements, got ")
             << type;
    if (ShapedType::getNumElements(matrix.getShape()) > kHostMaxMMAElements)
      return op->emitOpError("host target supports !gpu.mma_matrix of at "
                             "most ")
             << kHostMaxMMAElements << " elements, got " << type;
    return success();
  };
  for (Type type : op->getOperandTypes())
    if (failed(check(type)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(check(type)))
      return failure();
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (BlockArgument arg : block.getArguments())
        if (failed(check(arg.getType())))
          return failure();
  return success();
}

static LogicalResult checkMemRefElement(Operation *op, MemRefType memref,
                                        gpu::MMAMatrixType matrix) {
  if (memref.getElementType() != getSignless(matrix.getElementType()))
    return op->emitOpError("host target needs the memref element type to be "
                           "the fragment's, got ")
           << memref << " for " << matrix;
  return success();
}

static LogicalResult checkCompute(gpu::SubgroupMmaComputeOp op) {
  auto a = cast<gpu::MMAMatrixType>(op.getOpA().getType());
  auto b = cast<gpu::MMAMatrixType>(op.getOpB().getType());
  auto c = cast<gpu::MMAMatrixType>(op.getOpC().getType());
  Type accumulator = c.getElementType();
  if (isa<FloatType>(accumulator)) {
    // f16 accumulators are computed in f32.
    unsigned width = std::max(32u, accumulator.getIntOrFloatBitWidth());
    for (gpu::MMAMatrixType operand : {a, b})
      if (!isa<FloatType>(operand.getElementType()) ||
          operand.getElementType().getIntOrFloatBitWidth() > width)
        return op.emitOpError("host target needs floating-point A and B "
                              "operands no wider than the accumulator, got ")
               << operand << " with " << c;
    return success();
  }
  if (!accumulator.isInteger(32))
    return op.emitOpError("host target supports f16, f32, f64 and i32 "
                          "accumulators, got ")
           << c;
  for (gpu::MMAMatrixType operand : {a, b})
    if (!operand.getElementType().isInteger(8))
      return op.emitOpError("host target needs si8 or ui8 A and B operands "
                            "for an i32 accumulator, got ")
             << operand;
  return success();
}

static LogicalResult checkElementwise(gpu::SubgroupMmaElementwiseOp op) {
  gpu::MMAElementwiseOp kind = op.getOpType();
  unsigned arity = isUnaryElementwise(kind) ? 1 : 2;
  if (op.getArgs().size() != arity)
    return op.emitOpError("'")
           << gpu::stringifyMMAElementwiseOp(kind) << "' takes " << arity
           << " operand(s), got " << op.getArgs().size();
  Type element =
      cast<gpu::MMAMatrixType>(op.getArgs()[0].getType()).getElementType();
  Type result = op.getType().getElementType();
  bool isFloat = isa<FloatType>(element);
  if (isFloat != isFloatElementwise(kind))
    return op.emitOpError("'")
           << gpu::stringifyMMAElementwiseOp(kind) << "' does not apply to "
           << op.getArgs()[0].getType();
  if (op.getType().getShape() !=
      cast<gpu::MMAMatrixType>(op.getArgs()[0].getType()).getShape())
    return op.emitOpError("host target needs the result shape to be the "
                          "operands'");
  if (kind == gpu::MMAElementwiseOp::EXTF) {
    if (!isa<FloatType>(result) ||
        result.getIntOrFloatBitWidth() <= element.getIntOrFloatBitWidth())
      return op.emitOpError("'extf' needs a wider floating-point result, got ")
             << op.getType();
  } else if (getSignless(result) != getSignless(element)) {
    return op.emitOpError("host target needs the result element type to be "
                          "the operands', got ")
           << op.getType();
  }
  return success();
}

/// Checks every op under \p root that uses a fragment.
static LogicalResult checkSupported(Operation *root) {
  WalkResult result = root->walk([&](Operation *op) -> WalkResult {
    if (failed(checkMatrixTypes(op)))
      return WalkResult::interrupt();
    LogicalResult checked =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([](gpu::SubgroupMmaLoadMatrixOp op) {
              return checkMemRefElement(
                  op, op.getSrcMemref().getType(),
                  cast<gpu::MMAMatrixType>(op.getRes().getType()));
            })
            .Case([](gpu::SubgroupMmaStoreMatrixOp op) {
              return checkMemRefElement(
                  op, op.getDstMemref().getType(),
                  cast<gpu::MMAMatrixType>(op.getSrc().getType()));
            })
            .Case([](gpu::SubgroupMmaComputeOp op) { return checkCompute(op); })
            .Case([](gpu::SubgroupMmaElementwiseOp op) {
              return checkElementwise(op);
            })
            .Case([](gpu::SubgroupMmaConstantMatrixOp op) -> LogicalResult {
              if (!op.getValue().getType().isSignlessIntOrFloat())
                return op.emitOpError("host target needs a signless or "
                                      "floating-point value, got ")
                       << op.getValue().getType();
              return success();
            })
            .Case<gpu::SubgroupMmaExtractThreadLocalOp,
                  gpu::SubgroupMmaInsertThreadLocalOp>(
                [](Operation *op) -> LogicalResult {
                  return op->emitOpError(
                      "is not supported by the host target: the first lane "
                      "of a subgroup holds the whole fragment, and a lane's "
                      "share of it is not defined there");
                })
            .Default([](Operation *) { return success(); });
    return failed(checked) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Builds `scf.if (gpu.lane_id == 0)` around what \p body builds: the first
/// lane of the subgroup does the work, the others yield zeros of \p
/// resultType (or nothing without one).
static Value buildOnFirstLane(OpBuilder &b, Location loc, Type resultType,
                              function_ref<Value(OpBuilder &, Location)> body) {
  Value lane = gpu::LaneIdOp::create(b, loc, /*upperBound=*/nullptr);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, zero);
  if (!resultType) {
    scf::IfOp::create(b, loc, isFirst, [&](OpBuilder &tb, Location tl) {
      body(tb, tl);
      scf::YieldOp::create(tb, tl);
    });
    return Value();
  }
  auto ifOp = scf::IfOp::create(
      b, loc, isFirst,
      [&](OpBuilder &tb, Location tl) {
        scf::YieldOp::create(tb, tl, body(tb, tl));
      },
      [&](OpBuilder &eb, Location el) {
        Value zeros =
            arith::ConstantOp::create(eb, el, eb.getZeroAttr(resultType));
        scf::YieldOp::create(eb, el, zeros);
      });
  return ifOp.getResult(0);
}

/// A 2-D view `memref<rows x cols, strided<[leadDimension, 1], offset: ?>>` of
/// \p memref whose element (0, 0) is the one at \p indices: the rows of a
/// fragment in memory (getStridedElementPtr in WmmaOpsToNvvm.cpp).
static Value buildTileView(OpBuilder &b, Location loc, Value memref,
                           ValueRange indices, int64_t leadDimension,
                           int64_t rows, int64_t cols) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides()))
    offset = arith::AddIOp::create(
        b, loc, offset, arith::MulIOp::create(b, loc, index, stride));
  auto layout = StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                                       {leadDimension, 1});
  auto viewType = MemRefType::get({rows, cols}, type.getElementType(), layout,
                                  type.getMemorySpace());
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(), OpFoldResult(offset),
      ArrayRef<OpFoldResult>{b.getIndexAttr(rows), b.getIndexAttr(cols)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(leadDimension), b.getIndexAttr(1)});
}

static Value transpose(OpBuilder &b, Location loc, Value vector) {
  return vector::TransposeOp::create(b, loc, vector, ArrayRef<int64_t>{1, 0});
}

namespace {
/// `gpu.subgroup_mma_load_matrix`: the first lane loads the rows of the tile
/// (the columns with `transpose`) with one vector load each.
struct LoadMatrixLowering
    : public OpConversionPattern<gpu::SubgroupMmaLoadMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaLoadMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto matrixType = cast<gpu::MMAMatrixType>(op.getRes().getType());
    VectorType type = getVectorType(matrixType);
    bool isTransposed = op.getTranspose().has_value();
    int64_t rows = type.getDimSize(isTransposed ? 1 : 0);
    int64_t cols = type.getDimSize(isTransposed ? 0 : 1);
    int64_t leadDimension = op.getLeadDimension().getSExtValue();
    Value result = buildOnFirstLane(
        rewriter, op.getLoc(), type, [&](OpBuilder &b, Location loc) {
          Value view =
              buildTileView(b, loc, adaptor.getSrcMemref(),
                            adaptor.getIndices(), leadDimension, rows, cols);
          auto stored = VectorType::get({rows, cols}, type.getElementType());
          Value tile = arith::ConstantOp::create(b, loc, b.getZeroAttr(stored));
          auto rowType = VectorType::get({cols}, type.getElementType());
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          for (int64_t r = 0; r < rows; ++r) {
            Value rowIndex = arith::ConstantIndexOp::create(b, loc, r);
            Value row = vector::LoadOp::create(b, loc, rowType, view,
                                               ValueRange{rowIndex, zero});
            tile = vector::InsertOp::create(b, loc, row, tile,
                                            ArrayRef<int64_t>{r});
          }
          return isTransposed ? transpose(b, loc, tile) : tile;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `gpu.subgroup_mma_store_matrix`: the first lane stores the rows (the
/// columns with `transpose`).
struct StoreMatrixLowering
    : public OpConversionPattern<gpu::SubgroupMmaStoreMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaStoreMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<VectorType>(adaptor.getSrc().getType());
    bool isTransposed = op.getTranspose().has_value();
    int64_t rows = type.getDimSize(isTransposed ? 1 : 0);
    int64_t cols = type.getDimSize(isTransposed ? 0 : 1);
    int64_t leadDimension = op.getLeadDimension().getSExtValue();
    buildOnFirstLane(
        rewriter, op.getLoc(), Type(), [&](OpBuilder &b, Location loc) {
          Value view =
              buildTileView(b, loc, adaptor.getDstMemref(),
                            adaptor.getIndices(), leadDimension, rows, cols);
          Value tile = adaptor.getSrc();
          if (isTransposed)
            tile = transpose(b, loc, tile);
          Value zero = arith::ConstantIndexOp::create(b, loc, 0);
          for (int64_t r = 0; r < rows; ++r) {
            Value row =
                vector::ExtractOp::create(b, loc, tile, ArrayRef<int64_t>{r});
            Value rowIndex = arith::ConstantIndexOp::create(b, loc, r);
            vector::StoreOp::create(b, loc, row, view,
                                    ValueRange{rowIndex, zero});
          }
          return Value();
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// `gpu.subgroup_mma_constant_matrix`: a splat, in every lane (it costs
/// nothing and needs no guard).
struct ConstantMatrixLowering
    : public OpConversionPattern<gpu::SubgroupMmaConstantMatrixOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaConstantMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        op, getVectorType(op.getType()), adaptor.getValue());
    return success();
  }
};

/// Extends \p value (a vector of \p from elements) to \p to elements: floats
/// with extf, integers by the signedness of \p from.
static Value extendTo(OpBuilder &b, Location loc, Value value, Type from,
                      Type to) {
  if (from == to)
    return value;
  auto type = cast<VectorType>(value.getType()).clone(to);
  if (isa<FloatType>(to))
    return arith::ExtFOp::create(b, loc, type, value);
  if (from.isUnsignedInteger())
    return arith::ExtUIOp::create(b, loc, type, value);
  return arith::ExtSIOp::create(b, loc, type, value);
}

/// How many k of the product an f16 accumulator takes in f32 before it is
/// rounded to f16: the products of a pair of k are added exactly, as the
/// matrix units of AMD GPUs do for WMMA with an f16 accumulator (upstream's
/// ROCm WMMA integration tests check these roundings; for NVIDIA's tensor
/// cores the exact values of upstream's CUDA tests are the same either way).
static constexpr int64_t kF16AccumulatorKStep = 2;

/// `gpu.subgroup_mma_compute`: C + A * B as K outer products of the columns
/// of A with the rows of B, accumulated in f32 for f16 accumulators (rounded
/// to f16 every kF16AccumulatorKStep k), in i32 (wrapping, from sign- or
/// zero-extended i8) for integers.
struct ComputeLowering : public OpConversionPattern<gpu::SubgroupMmaComputeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type aElement =
        cast<gpu::MMAMatrixType>(op.getOpA().getType()).getElementType();
    Type bElement =
        cast<gpu::MMAMatrixType>(op.getOpB().getType()).getElementType();
    Type cElement =
        cast<gpu::MMAMatrixType>(op.getOpC().getType()).getElementType();
    Type computeElement = cElement.isF16() ? rewriter.getF32Type() : cElement;
    auto resultType = cast<VectorType>(adaptor.getOpC().getType());
    int64_t k = cast<VectorType>(adaptor.getOpA().getType()).getDimSize(1);
    Value result = buildOnFirstLane(
        rewriter, op.getLoc(), resultType, [&](OpBuilder &b, Location loc) {
          Value a =
              extendTo(b, loc, adaptor.getOpA(), aElement, computeElement);
          Value bv =
              extendTo(b, loc, adaptor.getOpB(), bElement, computeElement);
          Value acc =
              extendTo(b, loc, adaptor.getOpC(), cElement, computeElement);
          Value aColumns = transpose(b, loc, a);
          for (int64_t i = 0; i < k; ++i) {
            Value column = vector::ExtractOp::create(b, loc, aColumns,
                                                     ArrayRef<int64_t>{i});
            Value row =
                vector::ExtractOp::create(b, loc, bv, ArrayRef<int64_t>{i});
            acc = vector::OuterProductOp::create(b, loc, acc.getType(), column,
                                                 row, acc,
                                                 vector::CombiningKind::ADD);
            // An f16 accumulator is rounded to f16 after each k step of the
            // matrix units, which keep it in f16 between steps.
            bool stepEnd = (i + 1) % kF16AccumulatorKStep == 0 || i + 1 == k;
            if (computeElement == cElement || !stepEnd)
              continue;
            acc = arith::TruncFOp::create(b, loc, resultType, acc);
            if (i + 1 != k)
              acc = arith::ExtFOp::create(
                  b, loc, resultType.clone(computeElement), acc);
          }
          return acc;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `gpu.subgroup_mma_elementwise`: the arith op on the vectors, by the first
/// lane (the others hold zeros, which an integer division must not see).
struct ElementwiseLowering
    : public OpConversionPattern<gpu::SubgroupMmaElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;

  static Value build(OpBuilder &b, Location loc, gpu::MMAElementwiseOp kind,
                     VectorType type, ValueRange args) {
    switch (kind) {
    case gpu::MMAElementwiseOp::ADDF:
      return arith::AddFOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::MULF:
      return arith::MulFOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::SUBF:
      return arith::SubFOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::MAXF:
      return arith::MaximumFOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::MINF:
      return arith::MinimumFOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::DIVF:
      return arith::DivFOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::ADDI:
      return arith::AddIOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::MULI:
      return arith::MulIOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::SUBI:
      return arith::SubIOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::DIVS:
      return arith::DivSIOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::DIVU:
      return arith::DivUIOp::create(b, loc, args[0], args[1]);
    case gpu::MMAElementwiseOp::NEGATEF:
      return arith::NegFOp::create(b, loc, args[0]);
    case gpu::MMAElementwiseOp::NEGATES: {
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
      return arith::SubIOp::create(b, loc, zero, args[0]);
    }
    case gpu::MMAElementwiseOp::EXTF:
      return arith::ExtFOp::create(b, loc, type, args[0]);
    }
    llvm_unreachable("unknown mma elementwise op");
  }

  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    VectorType type = getVectorType(op.getType());
    Value result = buildOnFirstLane(
        rewriter, op.getLoc(), type, [&](OpBuilder &b, Location loc) {
          return build(b, loc, op.getOpType(), type, adaptor.getArgs());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void mlir::offload::populateHostMMAToVectorPatterns(TypeConverter &converter,
                                                    RewritePatternSet &patterns,
                                                    ConversionTarget &target) {
  target
      .addIllegalOp<gpu::SubgroupMmaLoadMatrixOp, gpu::SubgroupMmaStoreMatrixOp,
                    gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaConstantMatrixOp,
                    gpu::SubgroupMmaElementwiseOp>();
  patterns.add<LoadMatrixLowering, StoreMatrixLowering, ConstantMatrixLowering,
               ComputeLowering, ElementwiseLowering>(converter,
                                                     patterns.getContext());
  // Fragments carried by loops (accumulators over K tiles), conditions,
  // branches and device functions.
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                     target);
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                 converter);
  populateCallOpTypeConversionPattern(patterns, converter);
  populateReturnOpTypeConversionPattern(patterns, converter);
  target.addDynamicallyLegalOp<func::FuncOp>([&converter](func::FuncOp op) {
    return converter.isSignatureLegal(op.getFunctionType()) &&
           converter.isLegal(&op.getBody());
  });
}

LogicalResult mlir::offload::lowerHostMMAOps(Operation *root) {
  bool hasFragments = false;
  root->walk([&](Operation *op) {
    auto isFragment = [](Type type) { return isa<gpu::MMAMatrixType>(type); };
    if (isa<gpu::SubgroupMmaStoreMatrixOp>(op) ||
        llvm::any_of(op->getResultTypes(), isFragment) ||
        llvm::any_of(op->getOperandTypes(), isFragment))
      hasFragments = true;
    return hasFragments ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!hasFragments)
    return success();
  if (failed(checkSupported(root)))
    return failure();
  MLIRContext *context = root->getContext();
  TypeConverter converter;
  populateHostMMATypeConversion(converter);
  ConversionTarget target(*context);
  // Ops without a rule of their own are legal without fragments.
  target.markUnknownOpDynamicallyLegal(
      [&converter](Operation *op) { return converter.isLegal(op); });
  RewritePatternSet patterns(context);
  populateHostMMAToVectorPatterns(converter, patterns, target);
  return applyPartialConversion(root, target, std::move(patterns));
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct OffloadHostLowerMMAPass
    : public offload::impl::OffloadHostLowerMMABase<OffloadHostLowerMMAPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(lowerHostMMAOps(getOperation())))
      signalPassFailure();
  }
};
} // namespace
