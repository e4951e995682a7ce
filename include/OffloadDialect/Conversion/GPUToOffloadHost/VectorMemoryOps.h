//===- VectorMemoryOps.h - n-D vector loads and stores ----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// MLIR 22's convert-vector-to-llvm lowers `vector.load` and `vector.store` of
// 1-D vectors only; an n-D one (as eudsl and upstream's vector tests write
// them, in kernels and in host code) is left unlowered. These patterns unroll
// them into 1-D loads and stores of the innermost dimension, which is what
// LLVM's n-D vector type (an array of 1-D vectors) holds anyway.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_VECTORMEMORYOPS_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_VECTORMEMORYOPS_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class RewritePatternSet;
namespace offload {

/// The most 1-D pieces one n-D load or store is unrolled into; larger ones
/// are left alone (and diagnosed by the lowering that cannot handle them).
inline constexpr int64_t kMaxUnrolledVectorRows = 4096;

/// Patterns that rewrite `vector.load` / `vector.store` of a statically
/// shaped vector of rank 2 or more into one 1-D load or store per row of the
/// innermost dimension, at the row's indices, assembled with `vector.insert`
/// or taken apart with `vector.extract`.
void populateUnrollNDVectorMemoryOpsPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_VECTORMEMORYOPS_H
