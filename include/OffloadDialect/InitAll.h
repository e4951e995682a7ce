//===- InitAll.h - Register everything offload provides ---------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Entry points for compilers embedding the offload dialect: register the
// dialect, the `#offload.host` target and every pass and pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_INITALL_H
#define OFFLOADDIALECT_INITALL_H

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadDialect/Target/Host/HostTarget.h"
#include "OffloadDialect/Transforms/Passes.h"

namespace mlir {
namespace offload {

/// Registers the offload dialect and the `#offload.host` target interface
/// model with \p registry.
inline void registerAllOffload(DialectRegistry &registry) {
  registerOffloadDialect(registry);
  registerHostTargetInterfaceExternalModels(registry);
}

/// Registers every offload pass and pipeline with the global pass registry.
inline void registerAllOffloadPasses() {
  registerOffloadConversionPasses();
  registerOffloadTransformsPasses();
  registerOffloadPipelines();
}

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_INITALL_H
