//===- Passes.h - Offload conversion passes ---------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_PASSES_H
#define OFFLOADDIALECT_CONVERSION_PASSES_H

#include "OffloadDialect/IR/OffloadDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class LLVMTypeConverter;
class RewritePatternSet;
class TypeConverter;
class ConversionTarget;

namespace offload {

#define GEN_PASS_DECL
#include "OffloadDialect/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OffloadDialect/Conversion/Passes.h.inc"

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_PASSES_H
