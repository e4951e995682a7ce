//===- Dialects.cpp - C API of the offload dialect ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect-c/Dialects.h"

#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Target/Host/HostTarget.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Offload, offload,
                                      mlir::offload::OffloadDialect)

void mlirOffloadRegisterHostTargetInterfaceExternalModels(
    MlirDialectRegistry registry) {
  mlir::offload::registerHostTargetInterfaceExternalModels(*unwrap(registry));
}

void mlirOffloadRegisterDialects(MlirDialectRegistry registry) {
  mlir::offload::registerAllOffload(*unwrap(registry));
}
