//===- Pipelines.cpp - Offload lowering pipelines -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::offload;

/// Appends the textual pipeline \p pipeline to \p pm. The pipelines built here
/// are fixed strings of registered passes: a parse failure is a bug.
static void addPipeline(OpPassManager &pm, StringRef pipeline) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("invalid offload pipeline '") +
                             pipeline + "': " + error);
}

void mlir::offload::buildLowerToHostPipeline(
    OpPassManager &pm, const HostPipelineOptions &options) {
  // Outline gpu.launch bodies and turn host-side gpu ops into offload ops;
  // then lower the kernels for the host CPU and serialize them into a host
  // object.
  addPipeline(pm, "gpu-kernel-outlining");
  addPipeline(pm, llvm::formatv("convert-gpu-to-offload{{platform=host "
                                "device-index={0}}",
                                options.deviceIndex.getValue())
                      .str());
  // Specialize kernels on what the launch sites know (constant runtime
  // constants, block sizes).
  addPipeline(pm, "offload-specialize");
  addPipeline(pm, llvm::formatv("offload-attach-host-target{{O={0} chip={1} "
                                "features={2}}",
                                options.optLevel.getValue(),
                                options.chip.getValue(),
                                options.features.getValue())
                      .str());
  addPipeline(pm, "gpu.module(convert-gpu-to-offload-host)");
  addPipeline(pm, "gpu-module-to-binary");
  // Host code: offload ops to runtime calls, then the async dialect and
  // everything else to LLVM dialect.
  addPipeline(pm, "async-to-async-runtime,async-runtime-ref-counting,"
                  "async-runtime-ref-counting-opt");
  addPipeline(pm, "convert-offload-to-llvm,convert-async-to-llvm");
  addPipeline(pm, "convert-vector-to-scf,lower-affine,convert-scf-to-cf,"
                  "expand-strided-metadata,convert-math-to-libm,convert-vector-to-llvm,"
                  "convert-to-llvm,reconcile-unrealized-casts");
}

void mlir::offload::registerOffloadPipelines() {
  PassPipelineRegistration<HostPipelineOptions>(
      "offload-lower-to-host",
      "Lower high-level gpu/offload IR (gpu.launch, gpu.launch_func, gpu "
      "memory ops, async) to LLVM dialect that runs its kernels on the host "
      "CPU through the offload runtime",
      buildLowerToHostPipeline);
}
