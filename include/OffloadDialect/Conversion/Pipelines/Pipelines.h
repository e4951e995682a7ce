//===- Pipelines.h - Offload lowering pipelines -----------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_PIPELINES_PIPELINES_H
#define OFFLOADDIALECT_CONVERSION_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include <string>

namespace mlir {
class OpPassManager;
namespace offload {

/// Options of the `offload-lower-to-host` pipeline.
struct HostPipelineOptions
    : public PassPipelineOptions<HostPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "O", llvm::cl::desc("LLVM optimization level of the kernels (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<unsigned> deviceIndex{
      *this, "device-index",
      llvm::cl::desc("index of the host device to run on"), llvm::cl::init(0)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("target CPU of the kernels (empty: host)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("target features of the kernels (empty: host)"),
      llvm::cl::init("")};
};

/// Builds `offload-lower-to-host`: from high-level gpu/offload IR (gpu.launch
/// still to be outlined, gpu.launch_func, gpu memory ops, async dialect) to
/// LLVM dialect with the kernels embedded as a host object.
void buildLowerToHostPipeline(OpPassManager &pm,
                              const HostPipelineOptions &options);

/// Registers every offload pipeline with the global pass registry.
void registerOffloadPipelines();

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_PIPELINES_PIPELINES_H
