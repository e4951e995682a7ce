//===- SpecializeCostModel.h - Loop transforms of specialization -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The loop transformations that follow the substitution of runtime constants
// in offload-specialize, each applied only where its cost model estimates a
// gain (docs/JIT.md, "The cost model"). Private to MLIROffloadTransforms.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_DIALECT_TRANSFORMS_SPECIALIZECOSTMODEL_H
#define OFFLOAD_LIB_DIALECT_TRANSFORMS_SPECIALIZECOSTMODEL_H

#include "OffloadDialect/Transforms/Specialize.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace scf {
class ForOp;
} // namespace scf
namespace offload {

/// The cost model's estimate for fully unrolling one scf.for loop, in the
/// units of LLVM's TargetTransformInfo::TCK_SizeAndLatency (1 per simple
/// instruction, 0 for constants and casts, 4 for divisions and square
/// roots, 10 for a math library call).
struct UnrollEstimate {
  /// Constant trip count (0 when not constant).
  uint64_t tripCount = 0;
  /// Cost of one iteration of the body, all of it.
  uint64_t bodyCost = 0;
  /// Cost of one iteration's operations that fold once the induction
  /// variable is a constant (constant arithmetic on it, loads from constant
  /// tables at indices computed from it, math calls on it, the branch not
  /// taken of an scf.if on it).
  uint64_t foldedCost = 0;
  /// tripCount * (bodyCost + loop overhead): the rolled loop executed.
  uint64_t rolledDynamicCost = 0;
  /// tripCount * (bodyCost - foldedCost): the unrolled code after folding.
  uint64_t unrolledCost = 0;
  /// Whether the model decides to unroll fully.
  bool unroll = false;
};

/// Estimates full unrolling of \p loop by LLVM's LoopUnrollPass rule
/// (llvm/lib/Transforms/Scalar/LoopUnrollPass.cpp, analyzeLoopUnrollCost and
/// getFullUnrollBoostingFactor): unroll when
///   unrolledCost <= threshold * min(100 * rolledDynamicCost / unrolledCost,
///                                   maxPercentThresholdBoost) / 100.
UnrollEstimate estimateFullUnroll(scf::ForOp loop,
                                  const SpecializationOptions &options);

/// Whether \p loop is a loop over rows of a block's threads: at the
/// kernel's top level, no results, no loop or barrier in its body, and a
/// store at an address computed from a thread id (the classic transpose's `for
/// (j = 0; j < 32; j += 8) tile[ty + j][tx] = in[(y + j) * n + x]`). Such a
/// loop is left rolled: on the host the thread loops move it out of the loop
/// over the threads (its bounds are uniform), and each step runs one row of
/// them as vector lanes; unrolled, one loop over the threads does every row in
/// turn, with every row's bounds check in its body. The transpose forms
/// ran 1.4-1.9x slower unrolled than rolled (bench/README.md, "Forms"). On GPUs
/// the target's compiler unrolls it.
bool isThreadRowLoop(scf::ForOp loop);

/// Fully unrolls, innermost first, the scf.for loops of \p root with a
/// constant trip count that estimateFullUnroll accepts, but for the loops
/// over rows of threads (isThreadRowLoop). Returns the number of loops
/// unrolled.
unsigned unrollLoopsByCost(Operation *root,
                           const SpecializationOptions &options);

/// Replaces the values of scf.for bodies with a constant trip count that
/// depend on nothing but the induction variable and constants, and whose
/// computation contains a math library call (e.g. adam's 1 - powf(b1, t)),
/// by loads from a constant table of their values per iteration (a private
/// memref.global inserted into \p symbols), when the saved cost per
/// iteration exceeds the load's and the table fits options.maxTableBytes.
/// The values are computed by the ops' own folders (the same arithmetic the
/// canonicalizer uses when unrolling makes them constant). Returns the number
/// of tables made.
unsigned tabulateInductionFunctions(Operation *root, SymbolTable &symbols,
                                    StringRef namePrefix,
                                    const SpecializationOptions &options);

} // namespace offload
} // namespace mlir

#endif // OFFLOAD_LIB_DIALECT_TRANSFORMS_SPECIALIZECOSTMODEL_H
