//===- Specialize.h - Kernel specialization ---------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Specializing a gpu.func kernel on values of its runtime constants and on its
// launch sizes. Used ahead of time by the offload-specialize pass and, with
// values read at launch, by the JIT.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_TRANSFORMS_SPECIALIZE_H
#define OFFLOADDIALECT_TRANSFORMS_SPECIALIZE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Support/LLVM.h"

#include <array>
#include <optional>
#include <string>

namespace mlir {
class RewritePatternSet;
namespace offload {

/// What a specialization knows about one launch of a kernel.
struct KernelSpecialization {
  /// One entry per kernel argument: the argument's value (IntegerAttr or
  /// FloatAttr for scalars, DenseElementsAttr for `contents` memrefs), or null
  /// when unknown. Only arguments marked by offload.runtime_constant are
  /// substituted.
  SmallVector<Attribute> argumentValues;
  /// Block size (threads) in x, y, z, when known.
  std::optional<std::array<int32_t, 3>> blockSize;
  /// Grid size (blocks) in x, y, z, when folded.
  std::optional<std::array<int32_t, 3>> gridSize;
};

/// Options of the folding that follows substitution.
struct SpecializationOptions {
  /// Fully unroll scf.for loops with a constant trip count up to this; 0
  /// disables unrolling.
  unsigned unrollMaxTripCount = 16;
};

/// Whether \p spec tells anything \p kernel does not already declare: a value
/// for an argument used by an offload.runtime_constant, or a block or grid
/// size the kernel does not carry as known_block_size / known_grid_size.
bool isUseful(gpu::GPUFuncOp kernel, const KernelSpecialization &spec);

/// The name of the specialization of \p kernel by \p spec:
/// `<kernel>_spec_<16 hex digits>`, the digits being xxh3-64 of the kernel
/// name and the printed values. Stable across runs and processes.
std::string getSpecializedName(gpu::GPUFuncOp kernel,
                               const KernelSpecialization &spec);

/// Returns the specialization of \p kernel by \p spec in the kernel's
/// gpu.module, creating it (clone, substitute, fold) unless a function of
/// that name exists already. Fails with a diagnostic if a value does not fit
/// its argument (wrong type, shape or element count).
FailureOr<gpu::GPUFuncOp>
getOrCreateSpecialization(gpu::GPUFuncOp kernel,
                          const KernelSpecialization &spec,
                          const SpecializationOptions &options = {});

/// Adds the pattern that folds memref.load from a constant memref.global at
/// constant indices into the loaded element.
void populateFoldConstantGlobalLoadPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TRANSFORMS_SPECIALIZE_H
