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

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;
namespace offload {

/// Registers the gpu::TargetAttrInterface model of `#offload.host`.
void registerHostTargetInterfaceExternalModels(DialectRegistry &registry);
/// Same, directly on a context.
void registerHostTargetInterfaceExternalModels(MLIRContext &context);

/// An error unless LLVM knows \p chip (empty: any) and every feature of
/// \p features ("+name" or "-name", comma separated) for \p triple (empty:
/// the process's), as `#offload.host` checks them before code generation.
llvm::Error checkHostTarget(llvm::StringRef triple, llvm::StringRef chip,
                            llvm::StringRef features);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TARGET_HOST_HOSTTARGET_H
