//===- Pipelines.cpp - Offload lowering pipelines -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::offload;

/// Appends the textual pipeline \p pipeline, made of upstream passes without
/// options, to \p pm: a parse failure is a bug. Passes with options that come
/// from the user are added through their create functions, so option values
/// need no quoting.
static void addPipeline(OpPassManager &pm, StringRef pipeline) {
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("invalid offload pipeline '") +
                             pipeline + "': " + error);
}

void mlir::offload::buildLowerToHostPipeline(
    OpPassManager &pm, const HostPipelineOptions &options) {
  // Outline gpu.launch bodies and turn host-side gpu ops into offload ops.
  addPipeline(pm, "gpu-kernel-outlining");
  ConvertGPUToOffloadOptions toOffload;
  toOffload.platform = "host";
  toOffload.deviceIndex = options.deviceIndex;
  pm.addPass(createConvertGPUToOffload(toOffload));
  // Specialize kernels on what the launch sites know (constant runtime
  // constants, block sizes).
  pm.addPass(createOffloadSpecialize());
  // Lower the kernels for the host CPU and serialize them into a host object.
  OffloadAttachHostTargetOptions target;
  target.optLevel = options.optLevel;
  target.chip = options.chip;
  target.features = options.features;
  pm.addPass(createOffloadAttachHostTarget(target));
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGPUToOffloadHost());
  addPipeline(pm, "gpu-module-to-binary");
  // Host code: the async dialect, offload ops to runtime calls, then
  // everything else to LLVM dialect.
  addPipeline(pm, "async-to-async-runtime,async-runtime-ref-counting,"
                  "async-runtime-ref-counting-opt");
  pm.addPass(createConvertOffloadToLLVM());
  addPipeline(pm, "convert-async-to-llvm,convert-vector-to-scf,lower-affine,"
                  "convert-scf-to-cf,expand-strided-metadata,"
                  "convert-math-to-libm,convert-vector-to-llvm,convert-to-llvm,"
                  "reconcile-unrealized-casts");
}

void mlir::offload::registerOffloadPipelines() {
  PassPipelineRegistration<HostPipelineOptions>(
      "offload-lower-to-host",
      "Lower high-level gpu/offload IR (gpu.launch, gpu.launch_func, gpu "
      "memory ops, async) to LLVM dialect that runs its kernels on the host "
      "CPU through the offload runtime",
      buildLowerToHostPipeline);
}
