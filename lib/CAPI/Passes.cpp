//===- Passes.cpp - C API of the offload passes and pipelines -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect-c/Passes.h"

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"

#include <mutex>

using namespace mlir;
using namespace mlir::offload;

extern "C" {
#include "OffloadDialect/Conversion/Passes.capi.cpp.inc"
#include "OffloadDialect/Transforms/Passes.capi.cpp.inc"
}

// A pass pipeline registered twice is a fatal error (passes are not): both
// entry points register the pipelines once per process.
void mlirOffloadRegisterPipelines(void) {
  static std::once_flag once;
  std::call_once(once, registerOffloadPipelines);
}

void mlirOffloadRegisterAllPasses(void) {
  registerOffloadConversionPasses();
  registerOffloadTransformsPasses();
  mlirOffloadRegisterPipelines();
}
