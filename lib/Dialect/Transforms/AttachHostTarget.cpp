//===- AttachHostTarget.cpp - Attach #offload.host to gpu.modules ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Regex.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADATTACHHOSTTARGET
#include "OffloadDialect/Transforms/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

namespace {
struct AttachHostTargetPass
    : public offload::impl::OffloadAttachHostTargetBase<AttachHostTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    // Errors on the module's location, without the module printed after
    // them.
    if (optLevel > 3) {
      emitError(getOperation().getLoc())
          << "offload-attach-host-target: O must be in [0, 3], got "
          << static_cast<unsigned>(optLevel);
      return signalPassFailure();
    }
    llvm::Regex matcher(moduleMatcher);
    std::string regexError;
    if (!moduleMatcher.empty() && !matcher.isValid(regexError)) {
      emitError(getOperation().getLoc())
          << "offload-attach-host-target: invalid module regex '"
          << moduleMatcher << "': " << regexError;
      return signalPassFailure();
    }
    auto target = HostTargetAttr::get(&getContext(), optLevel, /*triple=*/"",
                                      chip, features);
    WalkResult result = getOperation().walk([&](gpu::GPUModuleOp module) {
      if (!moduleMatcher.empty() && !matcher.match(module.getName()))
        return WalkResult::advance();
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = module.getTargetsAttr())
        for (Attribute other : existing) {
          if (isa<HostTargetAttr>(other)) {
            targets.push_back(other);
            continue;
          }
          // The host lowering rewrites the module for the CPU: it cannot
          // also serialize for a GPU target. Compilers that emit gpu-dialect
          // MLIR for a GPU (numba-cuda, eudsl) attach their target early;
          // asked for the host, the module runs on the host.
          if (!replaceGPUTargets) {
            module.emitError("gpu.module '")
                << module.getName() << "' already targets " << other
                << "; the host target compiles its kernels for the CPU "
                   "only: remove that target, or lower the module with its "
                   "own pipeline (offload-lower-to-nvvm, "
                   "offload-lower-to-rocdl)";
            return WalkResult::interrupt();
          }
          module.emitRemark("gpu.module '")
              << module.getName() << "' targets " << other
              << ": compiled for the host target " << target
              << " instead (replace-gpu-targets=false refuses it)";
        }
      if (!llvm::is_contained(targets, target))
        targets.push_back(target);
      module.setTargetsAttr(ArrayAttr::get(&getContext(), targets));
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
