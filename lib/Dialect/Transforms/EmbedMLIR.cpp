//===- EmbedMLIR.cpp - Embed gpu.modules as MLIR bytecode -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/Passes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADEMBEDMLIR
#include "OffloadDialect/Transforms/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

namespace {
struct EmbedMLIRPass
    : public offload::impl::OffloadEmbedMLIRBase<EmbedMLIRPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    SmallVector<gpu::GPUModuleOp> modules(
        getOperation().getOps<gpu::GPUModuleOp>());
    for (gpu::GPUModuleOp module : modules) {
      OpBuilder builder(module);
      // The module alone, in a container module, as bytecode.
      OwningOpRef<ModuleOp> container = ModuleOp::create(module.getLoc());
      (*container)
          ->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
      container->getBody()->push_back(module->clone());
      std::string bytes;
      llvm::raw_string_ostream os(bytes);
      if (failed(writeBytecodeToFile(*container, os))) {
        module.emitError("cannot write the module as MLIR bytecode");
        return signalPassFailure();
      }
      Attribute target = HostTargetAttr::get(context, 3, "", "", "");
      if (ArrayAttr targets = module.getTargetsAttr();
          targets && !targets.empty())
        target = targets[0];
      auto properties = builder.getDictionaryAttr(builder.getNamedAttr(
          OffloadDialect::JitAttrHelper::getNameStr(), builder.getUnitAttr()));
      auto object = gpu::ObjectAttr::get(
          context, target, gpu::CompilationTarget::Offload,
          builder.getStringAttr(bytes), properties, /*kernels=*/nullptr);
      gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                            /*offloadingHandler=*/nullptr,
                            builder.getArrayAttr({object}));
      module.erase();
    }
  }
};
} // namespace
