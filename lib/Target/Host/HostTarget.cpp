// Placeholder
#include "OffloadDialect/Target/Host/HostTarget.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
void mlir::offload::registerHostTargetInterfaceExternalModels(DialectRegistry &) {}
void mlir::offload::registerHostTargetInterfaceExternalModels(MLIRContext &) {}
