//===- PipelinePasses.h - Passes of the offload pipelines -------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to the pipelines library: the passes declared in Passes.td next to
// this file, whose generated declarations are not installed.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_CONVERSION_PIPELINES_PIPELINEPASSES_H
#define OFFLOAD_LIB_CONVERSION_PIPELINES_PIPELINEPASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace offload {

#define GEN_PASS_DECL
#include "Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Passes.h.inc"

/// Patterns of `offload-prepare-gpu-kernels`: `offload.runtime_constant` to
/// its operand, `gpu.subgroup_reduce` to shuffles over \p subgroupSize lanes.
void populateGPUKernelPreparationPatterns(RewritePatternSet &patterns,
                                          unsigned subgroupSize);

/// Replaces the `known_block_size` of the kernel \p func by `nvvm.reqntid`
/// (PTX `.reqntid`), unless it has `nvvm.reqntid` or `nvvm.maxntid` already.
void convertKnownBlockSizeToReqntid(gpu::GPUFuncOp func);

/// Gives the kernel \p func `rocdl.flat_work_group_size = "1,<maxSize>"`
/// unless it has a known block size or a work group size attribute.
void setDefaultFlatWorkGroupSize(gpu::GPUFuncOp func, unsigned maxSize);

} // namespace offload
} // namespace mlir

#endif // OFFLOAD_LIB_CONVERSION_PIPELINES_PIPELINEPASSES_H
