/*===- Dialects.h - C API of the offload dialect ------------------*- C -*-===*\
|*                                                                            *|
|* Part of the offload project, under the Apache License v2.0 with LLVM       *|
|* Exceptions.                                                                *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* The offload dialect in MLIR's C API (libOffloadCAPI.so, which carries      *|
|* MLIR's own C API too: mlir-c/IR.h, mlir-c/Pass.h,                          *|
|* mlir-c/RegisterEverything.h). See docs/Embedding.md.                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef OFFLOADDIALECT_C_DIALECTS_H
#define OFFLOADDIALECT_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The `offload` dialect's handle: mlirGetDialectHandle__offload__(), for
/// mlirDialectHandleRegisterDialect, mlirDialectHandleInsertDialect and
/// mlirDialectHandleLoadDialect.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Offload, offload);

/// Registers the `#offload.host` target's interface models (gpu.module
/// targets that compile for the host CPU) with \p registry.
MLIR_CAPI_EXPORTED void mlirOffloadRegisterHostTargetInterfaceExternalModels(
    MlirDialectRegistry registry);

/// Inserts the offload dialect and registers the `#offload.host` target's
/// interface models: what a context needs, next to the upstream dialects of
/// its input (mlirRegisterAllDialects), to run the offload pipelines.
MLIR_CAPI_EXPORTED void
mlirOffloadRegisterDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif // OFFLOADDIALECT_C_DIALECTS_H
