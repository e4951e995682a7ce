//===- GPUToOffloadHost.cpp - Lower gpu kernels for the host CPU ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Lowers the kernels of a gpu.module to LLVM dialect following the host kernel
// ABI of include/OffloadRuntime/HostKernelABI.h.
//
// Mechanism. A GPU block runs on one OS thread. Every kernel K becomes
//   - `K(args..., ctx, tx, ty, tz, smem, dsmem)` (internal, `gpu.kernel`): the
//     kernel body for one thread, thread ids as arguments, block ids and dims
//     loaded once from the block context;
//   - `__offload_thread.K(packedArgs, ctx, tx, ty, tz)`: unpacks the packed
//     argument buffer and calls the body (the fiber entry of cooperative
//     kernels);
//   - `__offload_block.K(packedArgs, ctx)`: a loop nest over the threads of
//     the block calling the thread function; LLVM inlines the body into it,
//     so a kernel without synchronization runs as a plain (vectorizable) loop
//     and pays nothing for the GPU semantics;
//   - the descriptor global `__offload_kernel.K`.
// Kernels that synchronize threads (gpu.barrier, gpu.shuffle, and the
// reductions rewritten into them) are marked cooperative: the runtime runs
// each thread of a block as a fiber and switches at each barrier or shuffle.
// Fibers were chosen over loop fission at barriers because they are correct
// for barriers in arbitrary control flow (loops, divergent-but-uniform
// branches) and for warp-level shuffles, with no restriction on the input;
// fission (as Polygeist's parallel loop distribution) is faster but needs
// structured control flow around each barrier, and is the planned fast path
// for cooperative kernels whose barriers sit in scf.for loops.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"
#include "OffloadDialect/Conversion/GPUToOffloadHost/MMAToVector.h"
#include "OffloadDialect/Conversion/GPUToOffloadHost/VectorMemoryOps.h"
#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Transforms/HostKernel/ThreadLoops.h"
#include "OffloadDialect/Transforms/HostKernel/VendorOps.h"
#include "OffloadDialect/Transforms/HostKernel/WorkgroupMemory.h"

#include "OffloadRuntime/HostKernelABI.h"
#include "OffloadSupport/MLIRKernelArguments.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_CONVERTGPUTOOFFLOADHOST
#define GEN_PASS_DEF_OFFLOADHOSTLOWERASSERTS
#define GEN_PASS_DEF_OFFLOADHOSTEMITKERNELENTRIES
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

static constexpr StringLiteral kThreadPrefix = "__offload_thread.";
static constexpr StringLiteral kBlockPrefix = "__offload_block.";
static constexpr StringLiteral kBarrierFn = "__offload_host_barrier";
static constexpr StringLiteral kShuffleFn = "__offload_host_shuffle";
static constexpr StringLiteral kAssertFailFn = "__offload_host_assert_fail";

/// Index (in i64 units) of the fields of offload_host_kernel_context_t.
enum ContextField : int64_t {
  kBlockIdField = 0,
  kBlockDimField = 3,
  kGridDimField = 6,
  kSharedMemoryField = 9,
  kDynamicSharedMemoryField = 10,
};

/// Alignment of each workgroup attribution inside the static shared memory,
/// in bytes (the widest vector a kernel is likely to load).
static constexpr int64_t kSharedAlignment = 16;

/// Number of trailing body arguments added for the host ABI: ctx, tx, ty, tz,
/// then the static and dynamic shared memory memrefs.
static constexpr unsigned kNumExtraBodyArgs = 6;

namespace {
/// What phase 2 learned about a kernel, for the entry points of phase 4.
struct KernelInfo {
  std::string name;
  /// The name messages use: a specialization's original kernel.
  std::string displayName;
  bool cooperative = false;
  /// The body runs every thread of the block (offload-host-thread-loops):
  /// the block entry calls it once, and there is no thread entry.
  bool threadLoops = false;
  /// Why the kernel runs on fibers (cooperative kernels only).
  std::string cooperativeReason;
  int64_t staticSharedBytes = 0;
  unsigned numKernelArgs = 0;
  /// known_block_size and known_grid_size (zeros: any size).
  std::array<int32_t, 3> requiredGroupSize{0, 0, 0};
  std::array<int32_t, 3> requiredNumGroups{0, 0, 0};
};
} // namespace

/// The attribute that carries a kernel's KernelInfo on its body function,
/// from `convert-gpu-to-offload-host` (phase 2) through upstream's lowering
/// to LLVM dialect (which keeps discardable attributes of functions) to
/// `offload-host-emit-kernel-entries` (phase 4), which removes it.
static constexpr StringLiteral kKernelInfoAttrName = "offload.host_kernel";

static DictionaryAttr encodeKernelInfo(MLIRContext *context,
                                       const KernelInfo &info) {
  Builder b(context);
  SmallVector<NamedAttribute> fields{
      b.getNamedAttr("display_name", b.getStringAttr(info.displayName)),
      b.getNamedAttr("static_shared_bytes",
                     b.getI64IntegerAttr(info.staticSharedBytes)),
      b.getNamedAttr("num_args", b.getI64IntegerAttr(info.numKernelArgs)),
      b.getNamedAttr("block_size",
                     b.getDenseI32ArrayAttr(info.requiredGroupSize)),
      b.getNamedAttr("grid_size",
                     b.getDenseI32ArrayAttr(info.requiredNumGroups))};
  if (info.cooperative)
    fields.push_back(b.getNamedAttr("cooperative", b.getUnitAttr()));
  if (info.threadLoops)
    fields.push_back(b.getNamedAttr("thread_loops", b.getUnitAttr()));
  if (!info.cooperativeReason.empty())
    fields.push_back(b.getNamedAttr("fiber_reason",
                                    b.getStringAttr(info.cooperativeReason)));
  return b.getDictionaryAttr(fields);
}

/// The KernelInfo of the body function \p fn (a func.func or llvm.func
/// named like its kernel), or failure with a diagnostic if its
/// kKernelInfoAttrName attribute is missing or malformed.
static FailureOr<KernelInfo> decodeKernelInfo(Operation *fn) {
  auto dict = fn->getAttrOfType<DictionaryAttr>(kKernelInfoAttrName);
  auto name = fn->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
  auto displayName = dict ? dict.getAs<StringAttr>("display_name") : nullptr;
  auto shared = dict ? dict.getAs<IntegerAttr>("static_shared_bytes") : nullptr;
  auto numArgs = dict ? dict.getAs<IntegerAttr>("num_args") : nullptr;
  auto block = dict ? dict.getAs<DenseI32ArrayAttr>("block_size") : nullptr;
  auto grid = dict ? dict.getAs<DenseI32ArrayAttr>("grid_size") : nullptr;
  if (!name || !displayName || !shared || !numArgs || !block ||
      block.size() != 3 || !grid || grid.size() != 3)
    return fn->emitOpError("has a malformed '")
           << kKernelInfoAttrName
           << "' attribute (convert-gpu-to-offload-host makes it)";
  KernelInfo info;
  info.name = name.str();
  info.displayName = displayName.str();
  info.staticSharedBytes = shared.getInt();
  info.numKernelArgs = numArgs.getInt();
  llvm::copy(block.asArrayRef(), info.requiredGroupSize.begin());
  llvm::copy(grid.asArrayRef(), info.requiredNumGroups.begin());
  info.cooperative = dict.contains("cooperative");
  info.threadLoops = dict.contains("thread_loops");
  if (auto reason = dict.getAs<StringAttr>("fiber_reason"))
    info.cooperativeReason = reason.str();
  return info;
}

//===----------------------------------------------------------------------===//
// Phase 2: gpu.func kernels to func.func bodies
//===----------------------------------------------------------------------===//

/// Declares `func.func private @name(inputs) -> results` in \p module unless it
/// exists.
static func::FuncOp getOrDeclareFunc(OpBuilder &builder, Operation *module,
                                     StringRef name, TypeRange inputs,
                                     TypeRange results) {
  if (auto fn = SymbolTable::lookupSymbolIn(module, name))
    return cast<func::FuncOp>(fn);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(&module->getRegion(0).front());
  auto fn = func::FuncOp::create(builder, module->getLoc(), name,
                                 builder.getFunctionType(inputs, results));
  fn.setPrivate();
  return fn;
}

/// Loads the \p index-th i64 of the block context \p ctx.
static Value loadContextI64(OpBuilder &builder, Location loc, Value ctx,
                            int64_t index) {
  Type i64 = builder.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(builder.getContext());
  Value addr = LLVM::GEPOp::create(builder, loc, ptrType, i64, ctx,
                                   ArrayRef<LLVM::GEPArg>{index});
  return LLVM::LoadOp::create(builder, loc, i64, addr);
}

static Value loadContextIndex(OpBuilder &builder, Location loc, Value ctx,
                              int64_t index) {
  Value value = loadContextI64(builder, loc, ctx, index);
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    value);
}

static unsigned dimIndex(gpu::Dimension dim) {
  switch (dim) {
  case gpu::Dimension::x:
    return 0;
  case gpu::Dimension::y:
    return 1;
  case gpu::Dimension::z:
    return 2;
  }
  llvm_unreachable("unknown gpu dimension");
}

static int32_t shuffleModeToABI(gpu::ShuffleMode mode) {
  switch (mode) {
  case gpu::ShuffleMode::XOR:
    return OFFLOAD_HOST_SHUFFLE_XOR;
  case gpu::ShuffleMode::UP:
    return OFFLOAD_HOST_SHUFFLE_UP;
  case gpu::ShuffleMode::DOWN:
    return OFFLOAD_HOST_SHUFFLE_DOWN;
  case gpu::ShuffleMode::IDX:
    return OFFLOAD_HOST_SHUFFLE_IDX;
  }
  llvm_unreachable("unknown shuffle mode");
}

namespace {
/// Rewrites the body of one kernel in place. Values read from the block
/// context are loaded once, at the start of the entry block.
class KernelBodyLowering {
public:
  KernelBodyLowering(func::FuncOp body, gpu::GPUModuleOp module,
                     DenseI32ArrayAttr knownBlockSize,
                     DenseI32ArrayAttr knownGridSize)
      : body(body), module(module), builder(body.getContext()),
        knownBlockSize(knownBlockSize), knownGridSize(knownGridSize) {
    unsigned n = body.getNumArguments();
    ctx = body.getArgument(n - kNumExtraBodyArgs);
    threadIds = {body.getArgument(n - 5), body.getArgument(n - 4),
                 body.getArgument(n - 3)};
    dynamicShared = body.getArgument(n - 1);
  }

  LogicalResult run();

private:
  /// Returns \p slot, computing it with \p make at the start of the entry
  /// block on first use.
  Value entryValue(Value &slot, function_ref<Value(OpBuilder &)> make) {
    if (!slot) {
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&body.front());
      slot = make(builder);
    }
    return slot;
  }
  Value blockDim(unsigned d);
  Value gridDim(unsigned d);
  Value blockId(unsigned d);
  Value linearThreadId(OpBuilder &b, Location loc);
  Value validSlot();
  LogicalResult lowerPrintf(gpu::PrintfOp op);
  LogicalResult lowerShuffle(gpu::ShuffleOp op);

  func::FuncOp body;
  gpu::GPUModuleOp module;
  OpBuilder builder;
  DenseI32ArrayAttr knownBlockSize, knownGridSize;
  Value ctx;
  std::array<Value, 3> threadIds;
  Value dynamicShared;
  std::array<Value, 3> blockDims, gridDims, blockIds;
  Value valid;
  unsigned printfCount = 0;
  /// Barriers lowered so far: the next barrier's id.
  uint32_t barrierCount = 0;
};
} // namespace

Value KernelBodyLowering::blockDim(unsigned d) {
  return entryValue(blockDims[d], [&](OpBuilder &b) -> Value {
    if (knownBlockSize)
      return arith::ConstantIndexOp::create(b, body.getLoc(),
                                            knownBlockSize[d]);
    return loadContextIndex(b, body.getLoc(), ctx, kBlockDimField + d);
  });
}

Value KernelBodyLowering::gridDim(unsigned d) {
  return entryValue(gridDims[d], [&](OpBuilder &b) -> Value {
    if (knownGridSize)
      return arith::ConstantIndexOp::create(b, body.getLoc(), knownGridSize[d]);
    return loadContextIndex(b, body.getLoc(), ctx, kGridDimField + d);
  });
}

Value KernelBodyLowering::blockId(unsigned d) {
  return entryValue(blockIds[d], [&](OpBuilder &b) -> Value {
    return loadContextIndex(b, body.getLoc(), ctx, kBlockIdField + d);
  });
}

Value KernelBodyLowering::linearThreadId(OpBuilder &b, Location loc) {
  Value bx = blockDim(0), by = blockDim(1);
  Value yz = arith::AddIOp::create(
      b, loc, threadIds[1], arith::MulIOp::create(b, loc, threadIds[2], by));
  return arith::AddIOp::create(b, loc, threadIds[0],
                               arith::MulIOp::create(b, loc, yz, bx));
}

Value KernelBodyLowering::validSlot() {
  return entryValue(valid, [&](OpBuilder &b) -> Value {
    Value one = LLVM::ConstantOp::create(b, body.getLoc(), b.getI64Type(),
                                         b.getI64IntegerAttr(1));
    return LLVM::AllocaOp::create(b, body.getLoc(),
                                  LLVM::LLVMPointerType::get(b.getContext()),
                                  b.getI8Type(), one);
  });
}

LogicalResult KernelBodyLowering::lowerShuffle(gpu::ShuffleOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Type type = op.getValue().getType();
  unsigned width = type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 0;
  if (width != 32 && width != 64)
    return op.emitOpError("host target supports 32- and 64-bit shuffles, got ")
           << type;
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  Type intType = b.getIntegerType(width);
  Value bits = op.getValue();
  if (isa<FloatType>(type))
    bits = arith::BitcastOp::create(b, loc, intType, bits);
  if (width == 32)
    bits = arith::ExtUIOp::create(b, loc, i64, bits);
  Value mode =
      arith::ConstantIntOp::create(b, loc, i32, shuffleModeToABI(op.getMode()));
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  func::FuncOp fn = getOrDeclareFunc(
      b, module, kShuffleFn, {ptrType, i64, i32, i32, i32, ptrType}, {i64});
  Value slot = validSlot();
  Value result = func::CallOp::create(b, loc, fn,
                                      ValueRange{ctx, bits, op.getOffset(),
                                                 op.getWidth(), mode, slot})
                     .getResult(0);
  if (width == 32)
    result = arith::TruncIOp::create(b, loc, intType, result);
  if (isa<FloatType>(type))
    result = arith::BitcastOp::create(b, loc, type, result);
  Value validByte = LLVM::LoadOp::create(b, loc, b.getI8Type(), slot);
  Value zero = arith::ConstantIntOp::create(b, loc, b.getI8Type(), 0);
  Value isValid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, validByte, zero);
  op.replaceAllUsesWith(ValueRange{result, isValid});
  op.erase();
  return success();
}

LogicalResult KernelBodyLowering::lowerPrintf(gpu::PrintfOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *context = b.getContext();
  auto ptrType = LLVM::LLVMPointerType::get(context);

  // The format string, NUL-terminated, as a private constant global.
  std::string format = op.getFormat().str();
  format.push_back('\0');
  std::string globalName;
  do {
    globalName =
        (body.getName() + ".printf_format." + Twine(printfCount++)).str();
  } while (SymbolTable::lookupSymbolIn(module, globalName));
  auto arrayType = LLVM::LLVMArrayType::get(b.getI8Type(), format.size());
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, loc, arrayType, /*isConstant=*/true,
                           LLVM::Linkage::Internal, globalName,
                           b.getStringAttr(format));
  }

  LLVM::LLVMFuncOp printfFn;
  if (!(printfFn = module.lookupSymbol<LLVM::LLVMFuncOp>("printf"))) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    printfFn = LLVM::LLVMFuncOp::create(
        b, loc, "printf",
        LLVM::LLVMFunctionType::get(b.getI32Type(), {ptrType},
                                    /*isVarArg=*/true));
  }

  SmallVector<Value> args;
  args.push_back(LLVM::AddressOfOp::create(b, loc, ptrType, globalName));
  // C's default argument promotions: float -> double, small ints -> int.
  for (Value arg : op.getArgs()) {
    Type type = arg.getType();
    if (type.isIndex()) {
      arg = arith::IndexCastOp::create(b, loc, b.getI64Type(), arg);
    } else if (auto floatType = dyn_cast<FloatType>(type)) {
      if (floatType.getWidth() < 64)
        arg = arith::ExtFOp::create(b, loc, b.getF64Type(), arg);
    } else if (auto intType = dyn_cast<IntegerType>(type)) {
      if (intType.getWidth() < 32)
        arg = arith::ExtSIOp::create(b, loc, b.getI32Type(), arg);
    } else {
      return op.emitOpError("host target cannot print a value of type ")
             << type;
    }
    args.push_back(arg);
  }
  LLVM::CallOp::create(b, loc, printfFn, args);
  op.erase();
  return success();
}

LogicalResult KernelBodyLowering::run() {
  SmallVector<Operation *> worklist;
  body.walk([&](Operation *op) { worklist.push_back(op); });
  for (Operation *op : worklist) {
    OpBuilder b(op);
    Location loc = op->getLoc();
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](gpu::ThreadIdOp op) {
              op.replaceAllUsesWith(threadIds[dimIndex(op.getDimension())]);
              op.erase();
              return success();
            })
            .Case([&](gpu::BlockIdOp op) {
              op.replaceAllUsesWith(blockId(dimIndex(op.getDimension())));
              op.erase();
              return success();
            })
            .Case([&](gpu::BlockDimOp op) {
              op.replaceAllUsesWith(blockDim(dimIndex(op.getDimension())));
              op.erase();
              return success();
            })
            .Case([&](gpu::GridDimOp op) {
              op.replaceAllUsesWith(gridDim(dimIndex(op.getDimension())));
              op.erase();
              return success();
            })
            .Case([&](gpu::LaneIdOp op) {
              Value linear = linearThreadId(b, loc);
              Value size = arith::ConstantIndexOp::create(
                  b, loc, OFFLOAD_HOST_SUBGROUP_SIZE);
              op.replaceAllUsesWith(
                  arith::RemUIOp::create(b, loc, linear, size).getResult());
              op.erase();
              return success();
            })
            .Case([&](gpu::SubgroupIdOp op) {
              Value linear = linearThreadId(b, loc);
              Value size = arith::ConstantIndexOp::create(
                  b, loc, OFFLOAD_HOST_SUBGROUP_SIZE);
              op.replaceAllUsesWith(
                  arith::DivUIOp::create(b, loc, linear, size).getResult());
              op.erase();
              return success();
            })
            .Case([&](gpu::NumSubgroupsOp op) {
              Value threads = arith::MulIOp::create(
                  b, loc,
                  arith::MulIOp::create(b, loc, blockDim(0), blockDim(1)),
                  blockDim(2));
              Value size = arith::ConstantIndexOp::create(
                  b, loc, OFFLOAD_HOST_SUBGROUP_SIZE);
              op.replaceAllUsesWith(
                  arith::CeilDivUIOp::create(b, loc, threads, size)
                      .getResult());
              op.erase();
              return success();
            })
            .Case([&](gpu::SubgroupSizeOp op) {
              op.replaceAllUsesWith(arith::ConstantIndexOp::create(
                                        b, loc, OFFLOAD_HOST_SUBGROUP_SIZE)
                                        .getResult());
              op.erase();
              return success();
            })
            .Case([&](gpu::BarrierOp op) {
              // The id identifies this gpu.barrier for the runtime's
              // divergence check, also in copies LLVM makes of the call.
              auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
              func::FuncOp fn = getOrDeclareFunc(b, module, kBarrierFn,
                                                 {ptrType, b.getI32Type()}, {});
              Value id = arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                                      barrierCount++);
              func::CallOp::create(b, loc, fn, ValueRange{ctx, id});
              op.erase();
              return success();
            })
            .Case([&](gpu::ShuffleOp op) { return lowerShuffle(op); })
            .Case([&](gpu::PrintfOp op) { return lowerPrintf(op); })
            .Case([&](gpu::DynamicSharedMemoryOp op) {
              op.replaceAllUsesWith(dynamicShared);
              op.erase();
              return success();
            })
            .Case([&](gpu::ReturnOp op) {
              func::ReturnOp::create(b, loc, op.getOperands());
              op.erase();
              return success();
            })
            .Case([&](RuntimeConstantOp op) {
              op.replaceAllUsesWith(op.getValue());
              op.erase();
              return success();
            })
            .Case<gpu::ClusterIdOp, gpu::ClusterDimOp, gpu::ClusterBlockIdOp,
                  gpu::ClusterDimBlocksOp>([&](Operation *op) -> LogicalResult {
              return op->emitOpError(
                  "thread block clusters are not supported by the host "
                  "target");
            })
            .Default([&](Operation *op) -> LogicalResult {
              if (isa<gpu::GPUDialect>(op->getDialect()))
                return op->emitOpError(
                    "is not supported inside kernels by the host target");
              return success();
            });
    if (failed(result))
      return failure();
  }
  return success();
}

/// Returns the size in bytes of a statically shaped memref, or failure.
static FailureOr<int64_t> getStaticSizeInBytes(MemRefType type,
                                               const DataLayout &layout) {
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return failure();
  return type.getNumElements() *
         static_cast<int64_t>(layout.getTypeSize(type.getElementType()));
}

/// Phase 2 for one kernel: builds the body function and the block loop, and
/// records what phase 4 needs.
static FailureOr<KernelInfo> lowerKernel(gpu::GPUFuncOp kernel,
                                         gpu::GPUModuleOp module) {
  MLIRContext *context = kernel.getContext();
  OpBuilder builder(kernel);
  Location loc = kernel.getLoc();
  KernelInfo info;
  info.name = kernel.getName().str();
  info.displayName = info.name;
  if (auto original =
          OffloadDialect::SpecializationOfAttrHelper(context).getAttr(kernel))
    info.displayName = original.str();
  info.numKernelArgs = kernel.getNumArguments();
  info.threadLoops =
      OffloadDialect::ThreadLoopsAttrHelper(context).isAttrPresent(kernel);
  if (DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr())
    llvm::copy(known.asArrayRef(), info.requiredGroupSize.begin());
  if (DenseI32ArrayAttr known = kernel.getKnownGridSizeAttr())
    llvm::copy(known.asArrayRef(), info.requiredNumGroups.begin());
  kernel.walk([&](Operation *op) {
    if (isa<gpu::BarrierOp, gpu::ShuffleOp>(op))
      info.cooperative = true;
  });
  if (info.cooperative) {
    // offload-host-thread-loops says why it could not make thread loops.
    if (StringAttr reason =
            OffloadDialect::FiberReasonAttrHelper(context).getAttr(kernel))
      info.cooperativeReason = reason.str();
    else
      info.cooperativeReason =
          "the kernel synchronizes threads with gpu.barrier or gpu.shuffle "
          "(thread loops were not tried)";
  }

  auto ptrType = LLVM::LLVMPointerType::get(context);
  Type indexType = builder.getIndexType();
  auto workgroupSpace = gpu::AddressSpaceAttr::get(
      context, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto sharedType =
      MemRefType::get({ShapedType::kDynamic}, builder.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroupSpace);

  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.append(
      {ptrType, indexType, indexType, indexType, sharedType, sharedType});
  // The body keeps the kernel's name and is marked `gpu.kernel`, so that
  // gpu.launch_func and offload.launch still verify against the module.
  auto body = func::FuncOp::create(builder, loc, info.name,
                                   builder.getFunctionType(inputs, {}));
  body.setPrivate();
  body->setAttr(gpu::GPUDialect::getKernelFuncAttrName(),
                builder.getUnitAttr());
  unsigned numWorkgroup = kernel.getNumWorkgroupAttributions();
  unsigned numAttributions = numWorkgroup + kernel.getNumPrivateAttributions();
  body.getBody().takeBody(kernel.getBody());
  Block &entry = body.front();
  SmallVector<Location> extraLocs(kNumExtraBodyArgs, loc);
  entry.addArguments(ArrayRef(inputs).take_back(kNumExtraBodyArgs), extraLocs);
  Value staticShared = entry.getArgument(entry.getNumArguments() - 2);

  // Workgroup attributions become views into the block's static shared
  // memory, private ones stack allocations.
  DataLayout layout = DataLayout::closest(module);
  builder.setInsertionPointToStart(&entry);
  int64_t offset = 0;
  unsigned firstAttribution = info.numKernelArgs;
  for (unsigned i = 0; i < numAttributions; ++i) {
    BlockArgument arg = entry.getArgument(firstAttribution + i);
    auto type = cast<MemRefType>(arg.getType());
    bool isWorkgroup = i < numWorkgroup;
    if (!isWorkgroup) {
      Value alloca = memref::AllocaOp::create(builder, loc, type);
      arg.replaceAllUsesWith(alloca);
      continue;
    }
    FailureOr<int64_t> bytes = getStaticSizeInBytes(type, layout);
    if (failed(bytes))
      return kernel.emitOpError("workgroup attribution #")
             << i << " must be statically shaped with the identity layout, got "
             << type;
    offset = llvm::alignTo(offset, kSharedAlignment);
    Value byteShift = arith::ConstantIndexOp::create(builder, loc, offset);
    Value view = memref::ViewOp::create(builder, loc, type, staticShared,
                                        byteShift, ValueRange{});
    arg.replaceAllUsesWith(view);
    offset += *bytes;
  }
  // The exact bytes: the device's limit counts them (the runtime aligns
  // the dynamic part after them itself).
  info.staticSharedBytes = offset;
  entry.eraseArguments(firstAttribution, numAttributions);

  KernelBodyLowering lowering(body, module, kernel.getKnownBlockSizeAttr(),
                              kernel.getKnownGridSizeAttr());
  if (failed(lowering.run()))
    return failure();

  // The thread entry: declared here with the ABI's signature; its body, which
  // unpacks the argument buffer, is added after lowering to LLVM (phase 4).
  builder.setInsertionPoint(kernel);
  auto threadFn = func::FuncOp::create(
      builder, loc, (kThreadPrefix + info.name).str(),
      builder.getFunctionType(
          {ptrType, ptrType, indexType, indexType, indexType}, {}));
  threadFn.setPrivate();

  // The block entry: loops over the block's threads, x fastest.
  auto blockFn =
      func::FuncOp::create(builder, loc, (kBlockPrefix + info.name).str(),
                           builder.getFunctionType({ptrType, ptrType}, {}));
  Block *blockEntry = blockFn.addEntryBlock();
  builder.setInsertionPointToStart(blockEntry);
  Value args = blockEntry->getArgument(0), ctx = blockEntry->getArgument(1);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr();
  SmallVector<Value, 3> dims;
  for (unsigned d = 0; d < 3; ++d)
    dims.push_back(
        known
            ? arith::ConstantIndexOp::create(builder, loc, known[d]).getResult()
            : loadContextIndex(builder, loc, ctx, kBlockDimField + d));
  if (info.threadLoops) {
    // The body loops over the threads itself; its thread ids are unused.
    func::CallOp::create(builder, loc, threadFn,
                         ValueRange{args, ctx, zero, zero, zero});
  } else {
    auto zLoop = scf::ForOp::create(builder, loc, zero, dims[2], one);
    builder.setInsertionPointToStart(zLoop.getBody());
    auto yLoop = scf::ForOp::create(builder, loc, zero, dims[1], one);
    builder.setInsertionPointToStart(yLoop.getBody());
    auto xLoop = scf::ForOp::create(builder, loc, zero, dims[0], one);
    builder.setInsertionPointToStart(xLoop.getBody());
    func::CallOp::create(builder, loc, threadFn,
                         ValueRange{args, ctx, xLoop.getInductionVar(),
                                    yLoop.getInductionVar(),
                                    zLoop.getInductionVar()});
  }
  builder.setInsertionPointToEnd(blockEntry);
  func::ReturnOp::create(builder, loc);

  kernel.erase();
  return info;
}

/// Atomics on workgroup memory become plain read-modify-writes: a block's
/// workgroup memory is only accessed by the OS thread that runs the block,
/// and its GPU threads (thread loops or fibers) never interleave inside one
/// operation. Atomics on other memory stay atomic (other blocks run on other
/// OS threads).
static void relaxWorkgroupAtomics(Operation *root) {
  auto isWorkgroup = [](MemRefType type) {
    auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
    return space && space.getValue() == gpu::AddressSpace::Workgroup;
  };
  root->walk([&](memref::AtomicRMWOp op) {
    if (!isWorkgroup(op.getMemRefType()))
      return;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value old = memref::LoadOp::create(b, loc, op.getMemref(), op.getIndices());
    Value updated =
        op.getKind() == arith::AtomicRMWKind::assign
            ? op.getValue()
            : arith::getReductionOp(op.getKind(), b, loc, old, op.getValue());
    memref::StoreOp::create(b, loc, updated, op.getMemref(), op.getIndices());
    op.getResult().replaceAllUsesWith(old);
    op.erase();
  });
  root->walk([&](memref::GenericAtomicRMWOp op) {
    if (!isWorkgroup(cast<MemRefType>(op.getMemref().getType())))
      return;
    OpBuilder b(op);
    Location loc = op.getLoc();
    Value old = memref::LoadOp::create(b, loc, op.getMemref(), op.getIndices());
    IRMapping mapping;
    Block &body = op.getAtomicBody().front();
    mapping.map(body.getArgument(0), old);
    for (Operation &nested : body.without_terminator())
      b.clone(nested, mapping);
    Value updated =
        mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
    memref::StoreOp::create(b, loc, updated, op.getMemref(), op.getIndices());
    op.getResult().replaceAllUsesWith(old);
    op.erase();
  });
}

/// Removes gpu address spaces from every memref type: host memory is flat.
static void stripGpuAddressSpaces(Operation *root) {
  AttrTypeReplacer replacer;
  auto isGpuSpace = [](Attribute space) {
    return isa_and_nonnull<gpu::AddressSpaceAttr>(space);
  };
  replacer.addReplacement([&](MemRefType type) -> std::optional<Type> {
    if (!isGpuSpace(type.getMemorySpace()))
      return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout(), Attribute());
  });
  replacer.addReplacement([&](UnrankedMemRefType type) -> std::optional<Type> {
    if (!isGpuSpace(type.getMemorySpace()))
      return std::nullopt;
    return UnrankedMemRefType::get(type.getElementType(), Attribute());
  });
  replacer.recursivelyReplaceElementsIn(root, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

//===----------------------------------------------------------------------===//
// Phase 3: cf.assert, between upstream's conversions
//===----------------------------------------------------------------------===//

Value mlir::offload::createHostStringAddress(OpBuilder &b, Location loc,
                                             gpu::GPUModuleOp module,
                                             StringRef prefix, StringRef text) {
  std::string value = text.str();
  value.push_back('\0');
  std::string name;
  unsigned count = 0;
  do {
    name = (prefix + "." + Twine(count++)).str();
  } while (SymbolTable::lookupSymbolIn(module, name));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), value.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        b.getStringAttr(value));
  }
  return LLVM::AddressOfOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), name);
}

std::string mlir::offload::describeSourceLocation(Location loc) {
  std::optional<FileLineColLoc> source = getSourceLocation(loc);
  if (!source)
    return "<unknown>";
  return (source->getFilename().getValue() + ":" + Twine(source->getLine()) +
          ":" + Twine(source->getColumn()))
      .str();
}

std::optional<FileLineColLoc> mlir::offload::getSourceLocation(Location loc) {
  while (auto callSite = dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCallee();
  std::optional<FileLineColLoc> result;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      result = file;
      return WalkResult::interrupt();
    }
    if (isa<CallSiteLoc>(inner))
      return WalkResult::skip(); // a caller's position, once resolved above
    return WalkResult::advance();
  });
  return result;
}

/// The function name a location gives (a NameLoc, e.g. of an inlined
/// callee), or empty.
static std::string getFunctionName(Location loc) {
  while (auto callSite = dyn_cast<CallSiteLoc>(loc))
    loc = callSite.getCallee();
  std::string name;
  loc->walk([&](Location inner) {
    if (auto named = dyn_cast<NameLoc>(inner)) {
      name = named.getName().str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return name;
}

/// cf.assert with GPU semantics (CUDA's device-side assert), in the body
/// \p body of a kernel after its structured control flow became a CFG: a
/// thread whose condition is false calls __offload_host_assert_fail (which
/// prints "<file>:<line>: <function>: block: [x,y,z], thread: [x,y,z]
/// Assertion `<msg>` failed." on stdout and marks the launch failed), then
/// returns: it stops, and other threads go on.
static void lowerAsserts(func::FuncOp body, gpu::GPUModuleOp module,
                         StringRef kernelName) {
  SmallVector<cf::AssertOp> asserts;
  body.walk([&](cf::AssertOp op) { asserts.push_back(op); });
  if (asserts.empty())
    return;
  unsigned n = body.getNumArguments();
  Value ctx = body.getArgument(n - kNumExtraBodyArgs);
  Value threadIds[] = {body.getArgument(n - 5), body.getArgument(n - 4),
                       body.getArgument(n - 3)};
  for (cf::AssertOp op : asserts) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    std::optional<FileLineColLoc> source = getSourceLocation(loc);
    std::string file =
        source ? source->getFilename().str() : std::string("<unknown>");
    unsigned line = source ? source->getLine() : 0;
    std::string function = getFunctionName(loc);
    if (function.empty())
      function = kernelName.str();

    Block *before = op->getBlock();
    Block *rest = before->splitBlock(std::next(Block::iterator(op)));
    Block *fail = new Block();
    body.getBody().getBlocks().insertAfter(Region::iterator(before), fail);
    b.setInsertionPoint(op);
    cf::CondBranchOp::create(b, loc, op.getArg(), rest, fail);

    b.setInsertionPointToStart(fail);
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Type i64 = b.getI64Type(), i32 = b.getI32Type();
    func::FuncOp fn = getOrDeclareFunc(
        b, module, kAssertFailFn,
        {ptrType, ptrType, i32, ptrType, i64, i64, i64, i64, i64, i64}, {});
    SmallVector<Value> args{
        createHostStringAddress(b, loc, module,
                                (body.getName() + ".assert_message").str(),
                                op.getMsg()),
        createHostStringAddress(b, loc, module,
                                (body.getName() + ".assert_file").str(), file),
        arith::ConstantIntOp::create(b, loc, i32, line),
        createHostStringAddress(b, loc, module,
                                (body.getName() + ".assert_function").str(),
                                function)};
    for (unsigned d = 0; d < 3; ++d)
      args.push_back(loadContextI64(b, loc, ctx, kBlockIdField + d));
    for (unsigned d = 0; d < 3; ++d)
      args.push_back(arith::IndexCastOp::create(b, loc, i64, threadIds[d]));
    func::CallOp::create(b, loc, fn, args);
    func::ReturnOp::create(b, loc);
    op.erase();
  }
}

//===----------------------------------------------------------------------===//
// Phase 4: ABI entry points and descriptors in LLVM dialect
//===----------------------------------------------------------------------===//

static LogicalResult emitEntryPoints(gpu::GPUModuleOp module,
                                     const KernelInfo &info) {
  MLIRContext *context = module.getContext();
  OpBuilder builder(context);
  Location loc = module.getLoc();
  auto ptrType = LLVM::LLVMPointerType::get(context);
  Type i64 = builder.getI64Type(), i32 = builder.getI32Type();

  auto lookup = [&](StringRef prefix) {
    return module.lookupSymbol<LLVM::LLVMFuncOp>((prefix + info.name).str());
  };
  LLVM::LLVMFuncOp body = lookup("");
  LLVM::LLVMFuncOp threadFn = lookup(kThreadPrefix);
  LLVM::LLVMFuncOp blockFn = lookup(kBlockPrefix);
  if (!body || !threadFn || !blockFn)
    return module.emitError("lowering of kernel '")
           << info.name << "' to LLVM dialect did not produce its functions";
  for (LLVM::LLVMFuncOp fn : {body, threadFn, blockFn}) {
    fn.setLinkage(LLVM::Linkage::Internal);
    fn.setVisibility(SymbolTable::Visibility::Private);
  }
  // Barriers and shuffles synchronize threads: LLVM must not make them
  // control-dependent on more values. (The runtime identifies a barrier by
  // its id argument, not its call site, so copies of a call that LLVM makes
  // anyway are still the same barrier.)
  for (StringRef name : {kBarrierFn, kShuffleFn})
    if (auto fn = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
      fn.setConvergent(true);
  if (info.cooperative)
    body.setConvergent(true);
  // When nothing but the block entry calls the thread entry (see the
  // descriptor below), the body and the thread entry are inlined before
  // LLVM's function simplification runs: it then simplifies one function,
  // not each of the three before the inliner merges them (a third of the
  // -O3 time of a small kernel). Not a body with an alloca outside its entry
  // block or of a run-time size (memref.alloca in a branch or loop): LLVM
  // treats it as dynamic and does not inline such a body into the thread
  // loop, where each iteration would move the stack pointer (measured:
  // lulesh's generic kernel 1.3x slower forced inline).
  auto hasDynamicAlloca = [](LLVM::LLVMFuncOp fn) {
    Block *entryBlock = &fn.getBody().front();
    return fn
        .walk([&](LLVM::AllocaOp alloca) {
          if (alloca->getBlock() != entryBlock ||
              !matchPattern(alloca.getArraySize(), m_Constant()))
            return WalkResult::interrupt();
          return WalkResult::advance();
        })
        .wasInterrupted();
  };
  if ((info.threadLoops || !info.cooperative) && !hasDynamicAlloca(body))
    for (LLVM::LLVMFuncOp fn : {body, threadFn})
      fn.setAlwaysInline(true);

  // The packed arguments and the block context are only read by the kernel,
  // and no memref of the kernel points into them: tell LLVM, so that loads of
  // arguments and block dimensions are hoisted out of the thread loops.
  // They are also dereferenceable for their whole size and 8-byte aligned,
  // which lets LLVM load memref descriptors before a thread's bounds check
  // and vectorize guarded thread loops.
  int64_t contextBytes = sizeof(offload_host_kernel_context_t);
  for (LLVM::LLVMFuncOp fn : {threadFn, blockFn})
    for (unsigned i = 0; i < 2; ++i) {
      fn.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                    builder.getUnitAttr());
      fn.setArgAttr(i, LLVM::LLVMDialect::getReadonlyAttrName(),
                    builder.getUnitAttr());
      fn.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(),
                    builder.getI64IntegerAttr(8));
    }
  // Packed arguments: the body's lowered parameters before the ABI ones (ctx,
  // three thread ids, two expanded 1-D memref descriptors).
  ArrayRef<Type> bodyParams = body.getFunctionType().getParams();
  constexpr unsigned kTrailing =
      4 + 2 * ::offload::kernelargs::getMemRefFieldCount(1);
  if (bodyParams.size() < kTrailing)
    return body.emitOpError("unexpected signature after lowering");
  ArrayRef<Type> argTypes = bodyParams.drop_back(kTrailing);
  auto argsStruct = LLVM::LLVMStructType::getLiteral(context, argTypes);

  // __offload_thread.K(args, ctx, tx, ty, tz): unpack and call the body.
  Block *entry = threadFn.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  Value args = entry->getArgument(0), ctx = entry->getArgument(1);
  SmallVector<Value> callArgs;
  for (auto [index, type] : llvm::enumerate(argTypes)) {
    Value addr = LLVM::GEPOp::create(
        builder, loc, ptrType, argsStruct, args,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
    callArgs.push_back(LLVM::LoadOp::create(builder, loc, type, addr));
  }
  callArgs.append({ctx, entry->getArgument(2), entry->getArgument(3),
                   entry->getArgument(4)});
  auto appendSharedMemRef = [&](int64_t field, int64_t size) {
    Value addr = LLVM::GEPOp::create(builder, loc, ptrType, i64, ctx,
                                     ArrayRef<LLVM::GEPArg>{field});
    Value base = LLVM::LoadOp::create(builder, loc, ptrType, addr);
    Value zero = LLVM::ConstantOp::create(builder, loc, i64,
                                          builder.getI64IntegerAttr(0));
    Value sizeValue = LLVM::ConstantOp::create(builder, loc, i64,
                                               builder.getI64IntegerAttr(size));
    Value one = LLVM::ConstantOp::create(builder, loc, i64,
                                         builder.getI64IntegerAttr(1));
    callArgs.append({base, base, zero, sizeValue, one});
  };
  appendSharedMemRef(kSharedMemoryField, info.staticSharedBytes);
  // The dynamic size is not known to the kernel; no access is bounds-checked.
  appendSharedMemRef(kDynamicSharedMemoryField, 0);
  LLVM::CallOp::create(builder, loc, body, callArgs);
  LLVM::ReturnOp::create(builder, loc, ValueRange{});

  // The kernel's name and its descriptor.
  builder.setInsertionPointToEnd(module.getBody());
  std::string name = info.name;
  name.push_back('\0');
  std::string nameSymbol = "__offload_kernel_name." + info.name;
  LLVM::GlobalOp::create(
      builder, loc, LLVM::LLVMArrayType::get(builder.getI8Type(), name.size()),
      /*isConstant=*/true, LLVM::Linkage::Internal, nameSymbol,
      builder.getStringAttr(name));

  // The argument buffer's layout (OffloadSupport/KernelArguments.h), field
  // by field: the lowered parameters are the fields (a memref's descriptor
  // already expanded). A type the layout does not describe (a vector, a
  // struct) takes the data layout's size and alignment.
  DataLayout layout = DataLayout::closest(module);
  ::offload::kernelargs::ArgumentLayout argsLayout;
  for (Type type : argTypes) {
    std::optional<::offload::kernelargs::FieldType> field =
        ::offload::kernelargs::getFieldType(type);
    argsLayout.addField(field ? *field
                              : ::offload::kernelargs::FieldType{
                                    layout.getTypeSize(type),
                                    layout.getTypeABIAlignment(type)});
  }
  SmallVector<int64_t> offsets, sizes;
  for (const ::offload::kernelargs::Field &field : argsLayout.getFields()) {
    offsets.push_back(field.Offset);
    sizes.push_back(field.Size);
  }
  int64_t argsSize = argsLayout.getSize();
  for (LLVM::LLVMFuncOp fn : {threadFn, blockFn}) {
    if (argsSize > 0)
      fn.setArgAttr(0, LLVM::LLVMDialect::getDereferenceableAttrName(),
                    builder.getI64IntegerAttr(argsSize));
    fn.setArgAttr(1, LLVM::LLVMDialect::getDereferenceableAttrName(),
                  builder.getI64IntegerAttr(contextBytes));
  }
  auto emitArray = [&](StringRef suffix, ArrayRef<int64_t> values) {
    std::string symbol = ("__offload_kernel_args." + info.name + suffix).str();
    auto type = LLVM::LLVMArrayType::get(i64, values.size());
    LLVM::GlobalOp::create(builder, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, symbol,
                           builder.getI64TensorAttr(values));
    return symbol;
  };
  std::string offsetsSymbol, sizesSymbol;
  if (!argTypes.empty()) {
    offsetsSymbol = emitArray(".offsets", offsets);
    sizesSymbol = emitArray(".sizes", sizes);
  }

  // Why a cooperative kernel runs on fibers, for the runtime's trace.
  std::string reasonSymbol;
  if (!info.cooperativeReason.empty()) {
    std::string reason = info.cooperativeReason;
    reason.push_back('\0');
    reasonSymbol = "__offload_kernel_reason." + info.name;
    LLVM::GlobalOp::create(
        builder, loc,
        LLVM::LLVMArrayType::get(builder.getI8Type(), reason.size()),
        /*isConstant=*/true, LLVM::Linkage::Private, reasonSymbol,
        builder.getStringAttr(reason));
  }

  auto descriptorType = LLVM::LLVMStructType::getLiteral(
      context, {i32, i32, i64, i64, ptrType, ptrType, ptrType, i64, ptrType,
                ptrType, ptrType, LLVM::LLVMArrayType::get(i32, 3),
                LLVM::LLVMArrayType::get(i32, 3)});
  auto descriptor = LLVM::GlobalOp::create(
      builder, loc, descriptorType, /*isConstant=*/true,
      LLVM::Linkage::External, OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX + info.name,
      Attribute());
  Block *init = builder.createBlock(&descriptor.getInitializerRegion());
  builder.setInsertionPointToStart(init);
  Value value = LLVM::UndefOp::create(builder, loc, descriptorType);
  auto insert = [&](Value field, int64_t position) {
    value = LLVM::InsertValueOp::create(builder, loc, value, field, position);
  };
  insert(LLVM::ConstantOp::create(
             builder, loc, i32,
             builder.getI32IntegerAttr(OFFLOAD_HOST_KERNEL_ABI_VERSION)),
         0);
  insert(LLVM::ConstantOp::create(
             builder, loc, i32,
             builder.getI32IntegerAttr(
                 info.cooperative ? OFFLOAD_HOST_KERNEL_COOPERATIVE : 0)),
         1);
  insert(
      LLVM::ConstantOp::create(
          builder, loc, i64, builder.getI64IntegerAttr(info.staticSharedBytes)),
      2);
  insert(LLVM::ConstantOp::create(builder, loc, i64,
                                  builder.getI64IntegerAttr(argsSize)),
         3);
  insert(LLVM::AddressOfOp::create(builder, loc, blockFn), 4);
  // The thread entry is for fibers only: a thread-loops kernel cannot run one
  // thread alone, and the runtime runs a non-cooperative kernel through its
  // block entry. Without a reference from the descriptor, LLVM inlines the
  // thread entry into the block loop and deletes it, so the kernel's body is
  // optimized and compiled once, not twice.
  insert(info.threadLoops || !info.cooperative
             ? LLVM::ZeroOp::create(builder, loc, ptrType).getResult()
             : LLVM::AddressOfOp::create(builder, loc, threadFn).getResult(),
         5);
  insert(LLVM::AddressOfOp::create(builder, loc, ptrType, nameSymbol), 6);
  insert(LLVM::ConstantOp::create(
             builder, loc, i64,
             builder.getI64IntegerAttr(static_cast<int64_t>(argTypes.size()))),
         7);
  auto addressOrNull = [&](StringRef symbol) -> Value {
    if (symbol.empty())
      return LLVM::ZeroOp::create(builder, loc, ptrType);
    return LLVM::AddressOfOp::create(builder, loc, ptrType, symbol);
  };
  insert(addressOrNull(offsetsSymbol), 8);
  insert(addressOrNull(sizesSymbol), 9);
  insert(addressOrNull(reasonSymbol), 10);
  auto sizeArray = [&](ArrayRef<int32_t> sizes) {
    return LLVM::ConstantOp::create(builder, loc,
                                    LLVM::LLVMArrayType::get(i32, 3),
                                    builder.getI32TensorAttr(sizes));
  };
  insert(sizeArray(info.requiredGroupSize), 11);
  insert(sizeArray(info.requiredNumGroups), 12);
  LLVM::ReturnOp::create(builder, loc, value);
  return success();
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

void mlir::offload::populateHostKernelPreparationPatterns(
    RewritePatternSet &patterns) {
  populateGpuAllReducePatterns(patterns);
  populateGpuBreakDownSubgroupReducePatterns(patterns,
                                             /*maxShuffleBitwidth=*/32);
  populateGpuLowerSubgroupReduceToShufflePatterns(
      patterns, OFFLOAD_HOST_SUBGROUP_SIZE, /*shuffleBitwidth=*/32);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
      patterns, OFFLOAD_HOST_SUBGROUP_SIZE, /*shuffleBitwidth=*/32);
  populateGpuGlobalIdPatterns(patterns);
  arith::populateArithExpandOpsPatterns(patterns);
  populateHostVendorOpPatterns(patterns);
  populateUnrollNDVectorMemoryOpsPatterns(patterns);
  // Thread loops leave single-iteration dimensions of scf.parallel (y and z
  // of a block known to be 1-D); dropping them here saves LLVM's loop passes
  // from deleting them again.
  scf::ParallelOp::getCanonicalizationPatterns(patterns, patterns.getContext());
}

/// Replaces every `scf.if` whose then and else regions are equivalent
/// (OperationEquivalence: the same operations on the same values, up to
/// locations) by its then region. Thread loops version a loop on a uniform
/// test and can produce two identical copies (a bounds check that became the
/// loop bound in both); LLVM does not merge them, and each copy costs its
/// optimization and code generation again. Returns the number merged.
static unsigned mergeEquivalentIfBranches(Operation *root) {
  SmallVector<scf::IfOp> merged;
  root->walk<WalkOrder::PostOrder>([&](scf::IfOp op) {
    if (op.getElseRegion().empty() ||
        !OperationEquivalence::isRegionEquivalentTo(
            &op.getThenRegion(), &op.getElseRegion(),
            OperationEquivalence::IgnoreLocations))
      return;
    merged.push_back(op);
  });
  // Outermost last: an inner if merged first keeps the outer one's regions
  // equivalent (both copies of an inner if are merged in the same way).
  IRRewriter rewriter(root->getContext());
  for (scf::IfOp op : merged) {
    Block *then = op.thenBlock();
    auto yield = cast<scf::YieldOp>(then->getTerminator());
    SmallVector<Value> results(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(then, op);
    rewriter.replaceOp(op, results);
  }
  return merged.size();
}

namespace {
/// Phases 1-2: kernels to func.func bodies with the host ABI's arguments,
/// thread and block entry points (the thread entry declared only), libm
/// calls. Each body carries its KernelInfo (kKernelInfoAttrName) for
/// `offload-host-emit-kernel-entries`.
struct ConvertGPUToOffloadHostPass
    : public mlir::offload::impl::ConvertGPUToOffloadHostBase<
          ConvertGPUToOffloadHostPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (failed(prepare(module)))
      return signalPassFailure();
    MLIRContext *context = module.getContext();
    for (const KernelInfo &info : kernelInfos)
      if (auto body = module.lookupSymbol<func::FuncOp>(info.name))
        body->setAttr(kKernelInfoAttrName, encodeKernelInfo(context, info));
  }

  LogicalResult prepare(gpu::GPUModuleOp module);
  SmallVector<KernelInfo> kernelInfos;
};

/// Device-side asserts of the kernels (cf.assert, after convert-scf-to-cf),
/// in the bodies convert-gpu-to-offload-host made.
struct OffloadHostLowerAssertsPass
    : public mlir::offload::impl::OffloadHostLowerAssertsBase<
          OffloadHostLowerAssertsPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<func::FuncOp> bodies;
    for (func::FuncOp fn : module.getOps<func::FuncOp>())
      if (fn->hasAttr(kKernelInfoAttrName))
        bodies.push_back(fn);
    for (func::FuncOp body : bodies) {
      FailureOr<KernelInfo> info = decodeKernelInfo(body);
      if (failed(info))
        return signalPassFailure();
      lowerAsserts(body, module, info->displayName);
    }
    WalkResult unlowered = module.walk([&](cf::AssertOp op) {
      op.emitOpError("in a device function is not supported by the host "
                     "target: inline the function into its kernel");
      return WalkResult::interrupt();
    });
    if (unlowered.wasInterrupted())
      return signalPassFailure();
  }
};

/// Phase 4, once upstream's passes lowered everything to LLVM dialect: the
/// ABI's thread entry bodies, the block entries' linkage and the kernel
/// descriptors, from each body's KernelInfo.
struct OffloadHostEmitKernelEntriesPass
    : public mlir::offload::impl::OffloadHostEmitKernelEntriesBase<
          OffloadHostEmitKernelEntriesPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // Everything must be LLVM dialect now: name the first op that is not
    // (an op of another target, e.g. amdgpu.*), rather than the casts it
    // leaves, or a failure at serialization.
    Operation *notLowered = nullptr, *cast = nullptr;
    module.walk([&](Operation *op) {
      if (op == module.getOperation() ||
          isa<LLVM::LLVMDialect>(op->getDialect()))
        return WalkResult::advance();
      if (isa<UnrealizedConversionCastOp>(op)) {
        cast = cast ? cast : op;
        return WalkResult::advance();
      }
      notLowered = op;
      return WalkResult::interrupt();
    });
    if (Operation *op = notLowered ? notLowered : cast) {
      StringRef dialect =
          op->getDialect() ? op->getDialect()->getNamespace() : StringRef();
      StringRef vendor =
          llvm::StringSwitch<StringRef>(dialect)
              .Cases({"nvvm", "nvgpu"}, " (it is specific to NVIDIA GPUs: "
                                        "offload-lower-to-nvvm compiles it)")
              .Cases({"rocdl", "amdgpu"}, " (it is specific to AMD GPUs: "
                                          "offload-lower-to-rocdl compiles it)")
              .Default("");
      op->emitOpError("is not supported by the host target: "
                      "the host kernel pipeline cannot lower it to the "
                      "LLVM dialect")
          << vendor;
      return signalPassFailure();
    }
    SmallVector<KernelInfo> infos;
    for (LLVM::LLVMFuncOp fn : module.getOps<LLVM::LLVMFuncOp>()) {
      if (!fn->hasAttr(kKernelInfoAttrName))
        continue;
      FailureOr<KernelInfo> info = decodeKernelInfo(fn);
      if (failed(info))
        return signalPassFailure();
      fn->removeAttr(kKernelInfoAttrName);
      infos.push_back(std::move(*info));
    }
    for (const KernelInfo &info : infos)
      if (failed(emitEntryPoints(module, info)))
        return signalPassFailure();
  }
};
} // namespace

LogicalResult ConvertGPUToOffloadHostPass::prepare(gpu::GPUModuleOp module) {
  kernelInfos.clear();
  // Subgroup matrix ops, when offload-host-lower-mma did not run before.
  if (failed(lowerHostMMAOps(module)))
    return failure();
  // Workgroup globals, when offload-host-workgroup-memory did not run before.
  if (failed(privatizeWorkgroupGlobals(module)))
    return failure();
  RewritePatternSet patterns(module.getContext());
  populateHostKernelPreparationPatterns(patterns);
  if (failed(applyPatternsGreedily(module, std::move(patterns))))
    return module.emitError("failed to prepare kernels for the host target");
  mergeEquivalentIfBranches(module);

  SmallVector<gpu::GPUFuncOp> funcs(module.getOps<gpu::GPUFuncOp>());
  for (gpu::GPUFuncOp fn : funcs) {
    if (!fn.isKernel())
      return fn.emitOpError("non-kernel gpu.func is not supported by the host "
                            "target; use func.func for device functions");
    FailureOr<KernelInfo> info = lowerKernel(fn, module);
    if (failed(info))
      return failure();
    kernelInfos.push_back(std::move(*info));
  }
  relaxWorkgroupAtomics(module);
  stripGpuAddressSpaces(module);

  RewritePatternSet libm(module.getContext());
  populateMathToLibmConversionPatterns(libm);
  if (failed(applyPatternsGreedily(module, std::move(libm))))
    return module.emitError("failed to lower math ops to libm calls");
  return success();
}
