/*===- Passes.h - C API of the offload passes and pipelines -------*- C -*-===*\
|*                                                                            *|
|* Part of the offload project, under the Apache License v2.0 with LLVM       *|
|* Exceptions.                                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The offload passes, generated from their Passes.td (for each pass X:       *|
|* mlirCreateOffloadConversionX(), mlirRegisterOffloadConversionX(), and      *|
|* likewise OffloadTransforms), and the pipelines. Registered passes and      *|
|* pipelines can be named in mlirParsePassPipeline and                        *|
|* mlirOpPassManagerAddPipeline, e.g. "builtin.module(offload-lower-to-host)".*|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef OFFLOADDIALECT_C_PASSES_H
#define OFFLOADDIALECT_C_PASSES_H

#include "mlir-c/Pass.h"

#include "OffloadDialect/Conversion/Passes.capi.h.inc"
#include "OffloadDialect/Transforms/Passes.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers the offload pipelines (offload-lower-to-host, -nvvm, -rocdl)
/// and the passes they use internally with the global pass registry.
MLIR_CAPI_EXPORTED void mlirOffloadRegisterPipelines(void);

/// Registers every offload pass (mlirRegisterOffloadConversionPasses,
/// mlirRegisterOffloadTransformsPasses) and pipeline.
MLIR_CAPI_EXPORTED void mlirOffloadRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // OFFLOADDIALECT_C_PASSES_H
