//===- OffloadDialect.h - The offload dialect -------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The offload dialect: host-side runtime operations (devices, memory, queues,
// events, launches) and runtime constants. See OffloadOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_IR_OFFLOADDIALECT_H
#define OFFLOADDIALECT_IR_OFFLOADDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "OffloadDialect/IR/OffloadDialect.h.inc"
#include "OffloadDialect/IR/OffloadEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "OffloadDialect/IR/OffloadTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "OffloadDialect/IR/OffloadAttrs.h.inc"

#define GET_OP_CLASSES
#include "OffloadDialect/IR/OffloadOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace offload {
/// Registers the offload dialect with \p registry.
void registerOffloadDialect(DialectRegistry &registry);
} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_IR_OFFLOADDIALECT_H
