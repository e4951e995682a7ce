//===- FiberFallback.cpp - Kernels left for the fiber scheduler -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The decision to keep a kernel for the fiber scheduler, the public entry
// point buildHostThreadLoops and the pass offload-host-thread-loops. A kernel
// is tried on a copy (so that a failure leaves it as it was), again without
// interchange when that is in the way; one whose synchronization cannot be
// proven equivalent as thread loops (a barrier under a loop whose trip count
// differs between threads, under control flow that cannot be made structured,
// a cf.assert that stops one thread) keeps one function per thread and runs
// on fibers: the pass records why in `offload.fiber_reason` and a remark. The
// fibers are the general fallback of PoCL's and Polygeist's loop forms (as
// the continuation-based barriers of CPU OpenCL and SYCL runtimes).
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Transforms/HostKernel/VendorOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

FailureOr<bool>
mlir::offload::buildHostThreadLoops(gpu::GPUFuncOp kernel,
                                    const HostThreadLoopsOptions &options,
                                    HostThreadLoopsFailure &why) {
  // Nothing to do (and no copy to make) for a kernel without synchronization
  // whose body has neither loops to interchange (scf.for, or scf.while that
  // may count) nor checks to bound.
  bool worthTrying = false;
  kernel.walk([&](Operation *op) {
    if (isSyncOp(op) ||
        (options.interchange && isa<scf::ForOp, scf::WhileOp, scf::IfOp>(op)))
      worthTrying = true;
    return worthTrying ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!worthTrying)
    return false;
  // A failing cf.assert stops its thread alone (a return from the thread's
  // body): not expressible in loops over all threads. Such kernels keep one
  // function per thread, on fibers when they synchronize.
  cf::AssertOp assertOp;
  kernel.walk([&](cf::AssertOp op) {
    assertOp = op;
    return WalkResult::interrupt();
  });
  if (assertOp) {
    bool synchronizes = false;
    kernel.walk([&](Operation *op) {
      synchronizes |= isSyncOp(op);
      return synchronizes ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!synchronizes)
      return false;
    why.reason = "a failing cf.assert stops its thread alone";
    why.loc = assertOp.getLoc();
    return failure();
  }
  // Work on a copy so that a failure leaves the kernel as it was. When moving
  // loops out for vectorization is in the way, try again without.
  DataLayout layout = DataLayout::closest(kernel);
  HostThreadLoopsOptions attempt = options;
  while (true) {
    OpBuilder builder(kernel);
    auto copy = cast<gpu::GPUFuncOp>(builder.clone(*kernel));
    ThreadLoopBuilder threadLoops(copy, layout, attempt);
    FailureOr<bool> result = threadLoops.run();
    if (succeeded(result) && *result) {
      kernel.getBody().takeBody(copy.getBody());
      kernel->setAttrs(copy->getAttrDictionary());
      copy.erase();
      return true;
    }
    copy.erase();
    if (failed(result) && attempt.interchange) {
      attempt.interchange = false;
      continue;
    }
    if (failed(result))
      why = threadLoops.failure;
    return result;
  }
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTTHREADLOOPS
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

namespace {
struct OffloadHostThreadLoopsPass
    : public offload::impl::OffloadHostThreadLoopsBase<
          OffloadHostThreadLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Vendor barriers are barriers here too.
    {
      RewritePatternSet patterns(&getContext());
      offload::populateHostVendorOpPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    HostThreadLoopsOptions threadLoopsOptions;
    threadLoopsOptions.interchange = interchange;
    SmallVector<gpu::GPUFuncOp> kernels;
    for (gpu::GPUFuncOp fn : getOperation().getOps<gpu::GPUFuncOp>())
      if (fn.isKernel())
        kernels.push_back(fn);
    for (gpu::GPUFuncOp kernel : kernels) {
      HostThreadLoopsFailure why;
      FailureOr<bool> rewritten =
          buildHostThreadLoops(kernel, threadLoopsOptions, why);
      if (succeeded(rewritten))
        continue;
      std::string reason = why.reason.empty()
                               ? std::string("its body could not be split")
                               : why.reason;
      OffloadDialect::FiberReasonAttrHelper(kernel.getContext())
          .setAttr(kernel, StringAttr::get(kernel.getContext(), reason));
      InFlightDiagnostic remark = mlir::emitRemark(kernel.getLoc())
                                  << "kernel '" << kernel.getName()
                                  << "' runs on fibers: " << reason;
      if (why.loc && *why.loc != kernel.getLoc())
        remark.attachNote(*why.loc) << "here";
    }
  }
};
} // namespace
