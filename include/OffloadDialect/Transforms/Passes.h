//===- Passes.h - Offload transformation passes -----------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_TRANSFORMS_PASSES_H
#define OFFLOADDIALECT_TRANSFORMS_PASSES_H

#include "OffloadDialect/IR/OffloadDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace offload {

#define GEN_PASS_DECL
#include "OffloadDialect/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "OffloadDialect/Transforms/Passes.h.inc"

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TRANSFORMS_PASSES_H
