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
    if (optLevel > 3) {
      getOperation().emitError()
          << "offload-attach-host-target: O must be in [0, 3], got "
          << static_cast<unsigned>(optLevel);
      return signalPassFailure();
    }
    llvm::Regex matcher(moduleMatcher);
    std::string regexError;
    if (!moduleMatcher.empty() && !matcher.isValid(regexError)) {
      getOperation().emitError()
          << "offload-attach-host-target: invalid module regex '"
          << moduleMatcher << "': " << regexError;
      return signalPassFailure();
    }
    auto target = HostTargetAttr::get(&getContext(), optLevel, /*triple=*/"",
                                      chip, features);
    getOperation().walk([&](gpu::GPUModuleOp module) {
      if (!moduleMatcher.empty() && !matcher.match(module.getName()))
        return;
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = module.getTargetsAttr())
        targets.append(existing.begin(), existing.end());
      if (llvm::is_contained(targets, target))
        return;
      targets.push_back(target);
      module.setTargetsAttr(ArrayAttr::get(&getContext(), targets));
    });
  }
};
} // namespace
