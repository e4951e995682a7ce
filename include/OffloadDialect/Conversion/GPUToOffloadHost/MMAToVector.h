//===- MMAToVector.h - gpu.subgroup_mma_* on the host -----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// On a GPU, a `!gpu.mma_matrix` fragment is held collectively by the lanes of
// a subgroup, in a layout no program can observe: the only ways to read it are
// `gpu.subgroup_mma_store_matrix` and the ops that make new fragments from it.
// The host target therefore gives the whole matrix, as a `vector<MxNxT>`, to
// the first lane of each subgroup (`gpu.lane_id` == 0), which does all of the
// subgroup's matrix work vectorized; the other lanes hold zeros and skip it.
// No lane reads what another lane holds, so nothing synchronizes threads and
// kernels keep their thread loops (or their one function per thread).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_MMATOVECTOR_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_MMATOVECTOR_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class ConversionTarget;
class Operation;
class RewritePatternSet;
class TypeConverter;
namespace offload {

/// The largest number of elements of a `!gpu.mma_matrix` the host target
/// supports (64x64): every fragment is one vector value of its first lane.
inline constexpr int64_t kHostMaxMMAElements = 4096;

/// Adds the conversion `!gpu.mma_matrix<MxNxT, "Op">` -> `vector<MxNxT'>`
/// (T' the signless type of T) to \p converter, and the identity for every
/// other type.
void populateHostMMATypeConversion(TypeConverter &converter);

/// Patterns that rewrite `gpu.subgroup_mma_{load_matrix, store_matrix,
/// compute, constant_matrix, elementwise}` into vector ops executed by the
/// first lane of each subgroup, and the structural conversions of `scf`,
/// `func` and `cf` ops that carry fragments. Marks the gpu mma ops illegal
/// in \p target.
void populateHostMMAToVectorPatterns(TypeConverter &converter,
                                     RewritePatternSet &patterns,
                                     ConversionTarget &target);

/// Rewrites every gpu mma op under \p root (see above). Emits a diagnostic
/// and fails for fragments and ops the host target does not support. Does
/// nothing when \p root has no fragment.
LogicalResult lowerHostMMAOps(Operation *root);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_MMATOVECTOR_H
