// Placeholder
#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "mlir/Pass/PassManager.h"
void mlir::offload::buildLowerToHostPipeline(OpPassManager &, const HostPipelineOptions &) {}
void mlir::offload::registerOffloadPipelines() {}
