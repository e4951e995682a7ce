//===- GPUToOffloadHost.h - Lower gpu kernels for the host ------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H

namespace mlir {
class RewritePatternSet;
namespace offload {

/// Patterns that rewrite, inside kernels, what the host target implements
/// with barriers and shuffles (gpu.all_reduce, gpu.subgroup_reduce for a
/// subgroup of 32 threads) and other gpu/arith ops into simpler ones
/// (gpu.global_id, arith ceil/floor division).
void populateHostKernelPreparationPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
