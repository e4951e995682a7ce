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
  /// when unknown. Arguments marked by offload.runtime_constant are
  /// substituted at their marks; an unmarked scalar argument (integer, index
  /// or float of the value's type) is substituted at all its uses; a value for
  /// an unmarked memref is ignored (contents need a `contents` mark).
  SmallVector<Attribute> argumentValues;
  /// Block size (threads) in x, y, z, when known.
  std::optional<std::array<int32_t, 3>> blockSize;
  /// Grid size (blocks) in x, y, z, when folded.
  std::optional<std::array<int32_t, 3>> gridSize;
};

/// Options of the folding that follows substitution (docs/JIT.md, "The cost
/// model").
struct SpecializationOptions {
  /// Without the cost model (costModel = false): fully unroll every scf.for
  /// loop whose constant trip count is at most this (16 before the model).
  /// With it: loops with more iterations are never fully unrolled. 0 disables
  /// unrolling.
  unsigned unrollMaxTripCount = 1024;
  /// Decide unrolling, tabulation of induction-variable functions and loop-
  /// invariant code motion by the cost model; false: the fixed-bound
  /// unrolling alone (the behaviour before the model, for comparisons).
  bool costModel = true;
  /// The cost model's full-unroll threshold, in TCK_SizeAndLatency units of
  /// the code after folding (LLVM's -unroll-threshold at -O3).
  unsigned unrollThreshold = 300;
  /// Most the threshold grows, in percent, when unrolling folds a share of
  /// the executed work (LLVM's -unroll-max-percent-threshold-boost).
  unsigned unrollMaxPercentThresholdBoost = 400;
  /// Largest table of per-iteration values (bytes) tabulation makes; 0
  /// disables tabulation.
  unsigned maxTableBytes = 16384;

  /// What the options change in the generated code, for cache keys:
  /// "unroll=N" without the cost model, "unroll=N;cost=T,B,S" with it.
  std::string getKey() const;
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
