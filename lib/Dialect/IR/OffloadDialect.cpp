//===- OffloadDialect.cpp - Offload dialect registration ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/IR/OffloadDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::offload;

#include "OffloadDialect/IR/OffloadDialect.cpp.inc"
#include "OffloadDialect/IR/OffloadEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "OffloadDialect/IR/OffloadTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "OffloadDialect/IR/OffloadAttrs.cpp.inc"

void OffloadDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "OffloadDialect/IR/OffloadTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "OffloadDialect/IR/OffloadAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "OffloadDialect/IR/OffloadOps.cpp.inc"
      >();
}

LogicalResult
HostTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, int O,
                       StringRef triple, StringRef chip, StringRef features) {
  if (O < 0 || O > 3)
    return emitError() << "optimization level must be in [0, 3], got " << O;
  return success();
}

void mlir::offload::registerOffloadDialect(DialectRegistry &registry) {
  registry.insert<OffloadDialect>();
}
