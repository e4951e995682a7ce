//===- HostTarget.h - The #offload.host gpu target --------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `#offload.host` implements gpu::TargetAttrInterface: gpu-module-to-binary
// serializes a gpu.module whose kernels were lowered by
// convert-gpu-to-offload-host into an ELF relocatable object for the host CPU
// (format `bin`, the default), host assembly (`isa`) or LLVM IR (`llvm`,
// `offloading`).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_TARGET_HOST_HOSTTARGET_H
#define OFFLOADDIALECT_TARGET_HOST_HOSTTARGET_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
namespace offload {

/// Registers the gpu::TargetAttrInterface model of `#offload.host`.
void registerHostTargetInterfaceExternalModels(DialectRegistry &registry);
/// Same, directly on a context.
void registerHostTargetInterfaceExternalModels(MLIRContext &context);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TARGET_HOST_HOSTTARGET_H
