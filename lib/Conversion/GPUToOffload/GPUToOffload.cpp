//===- GPUToOffload.cpp - Host-side gpu ops to offload ops ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Rewrites the host-side ops of the gpu dialect into offload ops. Async tokens
// become queues, following the stream semantics of upstream `gpu-to-llvm`:
//
// - an op with an async result runs on the queue of its first dependency
//   (a new queue when it has none), after making that queue wait on events
//   recorded on its other dependencies; its token is that queue;
// - an op without an async result but with dependencies runs on the queue of
//   its first dependency the same way, then synchronizes that queue (ops that
//   cannot be enqueued synchronize every dependency first);
// - `gpu.wait async` creates a queue waiting on its dependencies (or reuses
//   its single dependency); a blocking `gpu.wait` synchronizes and destroys
//   each queue it waits on.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffload/GPUToOffload.h"

#include "OffloadDialect/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/Transforms/StructuralTypeConversions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_CONVERTGPUTOOFFLOAD
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Whether a memref can be copied or filled as one block of bytes (unranked
/// memrefs are checked at run time).
static bool isContiguous(Type type) {
  auto ranked = dyn_cast<MemRefType>(type);
  return !ranked || ranked.getLayout().isIdentity() ||
         ranked.areTrailingDimsContiguous(ranked.getRank());
}

/// Returns \p values without duplicates, in order of first occurrence.
static SmallVector<Value> getUniqueValues(ValueRange values) {
  llvm::SetVector<Value> unique(values.begin(), values.end());
  return unique.takeVector();
}

/// Returns the `offload.get_device` of the function enclosing \p op, creating
/// it at the start of the function's entry block on first use.
static FailureOr<Value> getOrCreateDevice(ConversionPatternRewriter &rewriter,
                                          Operation *op, Platform platform,
                                          unsigned deviceIndex) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func || func.isExternal())
    return failure();
  Block &entry = func.getFunctionBody().front();
  // The devices this pattern set creates form a prefix of the entry block, so
  // that they dominate every use.
  for (Operation &candidate : entry) {
    auto device = dyn_cast<GetDeviceOp>(candidate);
    if (!device)
      break;
    if (device.getPlatform() == platform && device.getIndex() == deviceIndex)
      return device.getDevice();
  }
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&entry);
  return GetDeviceOp::create(rewriter, func.getLoc(), platform, deviceIndex)
      .getDevice();
}

/// Makes \p queue wait, without blocking the host, for the work enqueued so
/// far on each of \p others: records an event on each, waits on them and
/// destroys them (the queue keeps what it waits on alive).
static void waitOnQueues(OpBuilder &builder, Location loc, Value queue,
                         ValueRange others) {
  SmallVector<Value> events;
  for (Value other : getUniqueValues(others))
    if (other != queue)
      events.push_back(EventRecordOp::create(builder, loc, other));
  if (events.empty())
    return;
  QueueWaitOp::create(builder, loc, queue, events);
  for (Value event : events)
    EventDestroyOp::create(builder, loc, event);
}

/// Returns the queue an op with the (converted) async dependencies \p deps
/// runs on: the first dependency, made to wait on the others, or a new queue
/// of \p device when there are none.
static Value getQueueForDependencies(OpBuilder &builder, Location loc,
                                     Value device, ValueRange deps) {
  if (deps.empty())
    return QueueCreateOp::create(builder, loc, device);
  Value queue = deps.front();
  waitOnQueues(builder, loc, queue, deps.drop_front());
  return queue;
}

/// Blocks the host until the work on every queue of \p queues completes.
static void synchronizeQueues(OpBuilder &builder, Location loc,
                              ValueRange queues) {
  for (Value queue : getUniqueValues(queues))
    QueueSyncOp::create(builder, loc, queue);
}

/// Returns \p value as an index, zero-extending i32 and i64 launch sizes.
static Value castToIndex(OpBuilder &builder, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                      value);
}

namespace {

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Base of the patterns: knows the device the rewritten ops use.
template <typename OpTy>
class GPUToOffloadPattern : public OpConversionPattern<OpTy> {
public:
  GPUToOffloadPattern(const TypeConverter &converter, MLIRContext *context,
                      Platform platform, unsigned deviceIndex)
      : OpConversionPattern<OpTy>(converter, context), platform(platform),
        deviceIndex(deviceIndex) {}

protected:
  FailureOr<Value> getDevice(ConversionPatternRewriter &rewriter,
                             Operation *op) const {
    return getOrCreateDevice(rewriter, op, platform, deviceIndex);
  }

  /// Prepares the queue of an op that can be enqueued: null for a
  /// synchronous op without dependencies.
  Value getQueue(ConversionPatternRewriter &rewriter, Location loc,
                 Value device, bool isAsync, ValueRange deps) const {
    if (!isAsync && deps.empty())
      return Value();
    return getQueueForDependencies(rewriter, loc, device, deps);
  }

  /// Finishes an op that ran on \p queue (see getQueue): an async op's token
  /// becomes the queue; a synchronous op with dependencies waits for it.
  void finish(ConversionPatternRewriter &rewriter, Operation *op, Value queue,
              ValueRange otherResults = {}) const {
    SmallVector<Value> results(otherResults);
    bool isAsync = cast<gpu::AsyncOpInterface>(op).getAsyncToken() != nullptr;
    if (isAsync)
      results.push_back(queue);
    else if (queue)
      QueueSyncOp::create(rewriter, op->getLoc(), queue);
    rewriter.replaceOp(op, results);
  }

  Platform platform;
  unsigned deviceIndex;
};

/// gpu.launch_func -> offload.launch.
struct LaunchFuncOpLowering : GPUToOffloadPattern<gpu::LaunchFuncOp> {
  using GPUToOffloadPattern::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(gpu::LaunchFuncOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.hasClusterSize())
      return rewriter.notifyMatchFailure(op, "clusters are not supported");
    if (op.getAsyncObject())
      return rewriter.notifyMatchFailure(
          op, "launches on an explicit async object are not supported");
    FailureOr<Value> device = getDevice(rewriter, op);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "not inside a function body");

    Location loc = op.getLoc();
    Value queue =
        getQueue(rewriter, loc, *device, op.getAsyncToken() != nullptr,
                 adaptor.getAsyncDependencies());
    auto index = [&](Value value) { return castToIndex(rewriter, loc, value); };
    LaunchOp::create(
        rewriter, loc, /*event=*/Type(), op.getKernel(), *device, queue,
        index(adaptor.getGridSizeX()), index(adaptor.getGridSizeY()),
        index(adaptor.getGridSizeZ()), index(adaptor.getBlockSizeX()),
        index(adaptor.getBlockSizeY()), index(adaptor.getBlockSizeZ()),
        adaptor.getDynamicSharedMemorySize(), adaptor.getKernelOperands());
    finish(rewriter, op, queue);
    return success();
  }
};

/// gpu.alloc -> offload.alloc (device, or managed for host_shared). The
/// allocation itself is synchronous.
struct AllocOpLowering : GPUToOffloadPattern<gpu::AllocOp> {
  using GPUToOffloadPattern::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(gpu::AllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    MemRefType type = op.getType();
    if (!type.getLayout().isIdentity() || !op.getSymbolOperands().empty())
      return rewriter.notifyMatchFailure(
          op, "only memrefs with the identity layout can be allocated");
    FailureOr<Value> device = getDevice(rewriter, op);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "not inside a function body");

    Location loc = op.getLoc();
    bool isAsync = op.getAsyncToken() != nullptr;
    ValueRange deps = adaptor.getAsyncDependencies();
    if (!isAsync)
      synchronizeQueues(rewriter, loc, deps);
    AllocKind kind =
        op.getHostShared() ? AllocKind::managed : AllocKind::device;
    Value memref = AllocOp::create(rewriter, loc, type, kind, *device,
                                   adaptor.getDynamicSizes());
    if (!isAsync) {
      rewriter.replaceOp(op, memref);
      return success();
    }
    Value queue = getQueueForDependencies(rewriter, loc, *device, deps);
    rewriter.replaceOp(op, {memref, queue});
    return success();
  }
};

/// gpu.dealloc -> offload.free, once the work of every dependency (which may
/// use the memory) has completed.
struct DeallocOpLowering : GPUToOffloadPattern<gpu::DeallocOp> {
  using GPUToOffloadPattern::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(gpu::DeallocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange deps = adaptor.getAsyncDependencies();
    synchronizeQueues(rewriter, loc, deps);
    FreeOp::create(rewriter, loc, adaptor.getMemref());
    if (!op.getAsyncToken()) {
      rewriter.eraseOp(op);
      return success();
    }
    // Every dependency has completed: the first one can carry on.
    Value queue;
    if (!deps.empty()) {
      queue = deps.front();
    } else {
      FailureOr<Value> device = getDevice(rewriter, op);
      if (failed(device))
        return rewriter.notifyMatchFailure(op, "not inside a function body");
      queue = QueueCreateOp::create(rewriter, loc, *device);
    }
    rewriter.replaceOp(op, queue);
    return success();
  }
};

/// gpu.memcpy -> offload.memcpy.
struct MemcpyOpLowering : GPUToOffloadPattern<gpu::MemcpyOp> {
  using GPUToOffloadPattern::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(gpu::MemcpyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isContiguous(op.getDst().getType()) ||
        !isContiguous(op.getSrc().getType()))
      return rewriter.notifyMatchFailure(
          op, "source and destination must be contiguous");
    FailureOr<Value> device = getDevice(rewriter, op);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "not inside a function body");

    Location loc = op.getLoc();
    Value queue =
        getQueue(rewriter, loc, *device, op.getAsyncToken() != nullptr,
                 adaptor.getAsyncDependencies());
    MemcpyOp::create(rewriter, loc, adaptor.getDst(), adaptor.getSrc(), *device,
                     queue);
    finish(rewriter, op, queue);
    return success();
  }
};

/// gpu.memset -> offload.memfill.
struct MemsetOpLowering : GPUToOffloadPattern<gpu::MemsetOp> {
  using GPUToOffloadPattern::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(gpu::MemsetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isContiguous(op.getDst().getType()))
      return rewriter.notifyMatchFailure(op, "destination must be contiguous");
    if (!op.getValue().getType().isIntOrIndexOrFloat())
      return rewriter.notifyMatchFailure(
          op, "only integer, index and float values can be filled");
    FailureOr<Value> device = getDevice(rewriter, op);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "not inside a function body");

    Location loc = op.getLoc();
    Value queue =
        getQueue(rewriter, loc, *device, op.getAsyncToken() != nullptr,
                 adaptor.getAsyncDependencies());
    MemfillOp::create(rewriter, loc, adaptor.getDst(), adaptor.getValue(),
                      *device, queue);
    finish(rewriter, op, queue);
    return success();
  }
};

/// gpu.host_register / gpu.host_unregister -> offload.host_register /
/// offload.host_unregister.
template <typename GPUOpTy, typename OffloadOpTy>
struct HostRegistrationOpLowering : GPUToOffloadPattern<GPUOpTy> {
  using GPUToOffloadPattern<GPUOpTy>::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(GPUOpTy op, typename GPUOpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> device = this->getDevice(rewriter, op);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "not inside a function body");
    rewriter.replaceOpWithNewOp<OffloadOpTy>(op, adaptor.getValue(), *device);
    return success();
  }
};

/// gpu.wait async -> a queue waiting on the dependencies; gpu.wait -> sync
/// and destroy each dependency.
struct WaitOpLowering : GPUToOffloadPattern<gpu::WaitOp> {
  using GPUToOffloadPattern::GPUToOffloadPattern;

  LogicalResult
  matchAndRewrite(gpu::WaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> deps = getUniqueValues(adaptor.getAsyncDependencies());
    if (!op.getAsyncToken()) {
      for (Value queue : deps) {
        QueueSyncOp::create(rewriter, loc, queue);
        QueueDestroyOp::create(rewriter, loc, queue);
      }
      rewriter.eraseOp(op);
      return success();
    }
    if (deps.size() == 1) {
      rewriter.replaceOp(op, deps.front());
      return success();
    }
    FailureOr<Value> device = getDevice(rewriter, op);
    if (failed(device))
      return rewriter.notifyMatchFailure(op, "not inside a function body");
    Value queue = QueueCreateOp::create(rewriter, loc, *device);
    waitOnQueues(rewriter, loc, queue, deps);
    rewriter.replaceOp(op, queue);
    return success();
  }
};

/// gpu.launch has no offload counterpart: its body must be outlined into a
/// kernel first.
struct LaunchOpLowering : OpConversionPattern<gpu::LaunchOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::LaunchOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    return rewriter.notifyMatchFailure(
        op, "gpu.launch must be outlined first (run gpu-kernel-outlining)");
  }
};

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

struct ConvertGPUToOffloadPass
    : public offload::impl::ConvertGPUToOffloadBase<ConvertGPUToOffloadPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    std::optional<Platform> parsed = symbolizePlatform(platform);
    if (!parsed)
      return emitError(UnknownLoc::get(context))
             << "invalid platform '" << platform
             << "'; expected host, cuda, hip or any";
    platformKind = *parsed;
    return success();
  }

  /// Reports the host-side gpu ops the patterns cannot rewrite, with a
  /// better message than a legalization failure.
  static LogicalResult checkSupported(ModuleOp module) {
    WalkResult result = module.walk([](Operation *op) {
      if (isa<gpu::LaunchOp>(op)) {
        op->emitError(
            "gpu.launch must be outlined first (run gpu-kernel-outlining)");
        return WalkResult::interrupt();
      }
      auto launch = dyn_cast<gpu::LaunchFuncOp>(op);
      if (launch && launch.hasClusterSize()) {
        launch.emitError("clusters are not supported");
        return WalkResult::interrupt();
      }
      if (launch && launch.getAsyncObject()) {
        launch.emitError(
            "launches on an explicit async object are not supported");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    if (failed(checkSupported(module)))
      return signalPassFailure();

    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    populateGPUToOffloadTypeConversions(converter);

    ConversionTarget target(*context);
    configureGPUToOffloadLegality(target);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      // Other blocks are converted by the branch ops that jump to them.
      return converter.isSignatureLegal(func.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(context);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    cf::populateCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
    populateGPUToOffloadConversionPatterns(converter, patterns, platformKind,
                                           deviceIndex);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

  /// The `platform` option, parsed.
  Platform platformKind = Platform::host;
};

} // namespace

//===----------------------------------------------------------------------===//
// Public entry points
//===----------------------------------------------------------------------===//

void mlir::offload::populateGPUToOffloadTypeConversions(
    TypeConverter &converter) {
  converter.addConversion([](gpu::AsyncTokenType type) -> Type {
    return QueueType::get(type.getContext());
  });
}

void mlir::offload::configureGPUToOffloadLegality(ConversionTarget &target) {
  target.addLegalDialect<OffloadDialect>();
  target.addLegalOp<arith::IndexCastUIOp>();
  // Ops inside gpu.module are device code, left to the kernel lowerings.
  auto isDeviceCode = [](Operation *op) {
    return op->getParentOfType<gpu::GPUModuleOp>() != nullptr;
  };
  target.addDynamicallyLegalOp<gpu::LaunchFuncOp, gpu::LaunchOp, gpu::AllocOp,
                               gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
                               gpu::HostRegisterOp, gpu::HostUnregisterOp,
                               gpu::WaitOp>(isDeviceCode);
}

void mlir::offload::populateGPUToOffloadConversionPatterns(
    const TypeConverter &converter, RewritePatternSet &patterns,
    Platform platform, unsigned deviceIndex) {
  MLIRContext *context = patterns.getContext();
  patterns
      .add<LaunchFuncOpLowering, AllocOpLowering, DeallocOpLowering,
           MemcpyOpLowering, MemsetOpLowering,
           HostRegistrationOpLowering<gpu::HostRegisterOp, HostRegisterOp>,
           HostRegistrationOpLowering<gpu::HostUnregisterOp, HostUnregisterOp>,
           WaitOpLowering>(converter, context, platform, deviceIndex);
  patterns.add<LaunchOpLowering>(converter, context);
}
