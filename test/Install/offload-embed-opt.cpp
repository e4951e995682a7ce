//===- offload-embed-opt.cpp - An mlir-opt built on the installed offload -===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What a compiler embedding the offload dialect does, built against an
// install prefix (find_package(Offload), Offload::Pipelines): register the
// upstream dialects and passes, the offload dialect, the #offload.host target
// and every offload pass and pipeline, plus a pipeline of its own made of the
// installed C++ API (offload-specialize, then the host pipeline at O2).
// scripts/test-install.sh lowers examples/saxpy.mlir with it and runs the
// result with mlir-runner on the installed libOffloadRuntime.so.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::offload::registerAllOffloadPasses();
  mlir::PassPipelineRegistration<>(
      "embed-specialize-and-lower",
      "offload-specialize, then offload-lower-to-host{O=2}",
      [](mlir::OpPassManager &pm) {
        pm.addPass(mlir::offload::createOffloadSpecialize());
        mlir::offload::HostPipelineOptions options;
        options.optLevel = 2;
        mlir::offload::buildLowerToHostPipeline(pm, options);
      });

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::offload::registerAllOffload(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "offload embedding example (test/Install)\n", registry));
}
