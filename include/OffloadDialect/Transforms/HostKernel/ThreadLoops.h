//===- ThreadLoops.h - Threads of a block as loops on the host --*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The host target runs the threads of a GPU block on one CPU thread. The
// fastest way to do so is to make them loops in the compiler, split at every
// barrier (loop fission, as Polygeist's parallel loop distribution, Moses et
// al., PPoPP 2023, and PoCL's work-item loops), so that nothing switches
// contexts at run time and LLVM vectorizes across threads. This header exports
// that transformation for `gpu.func` kernels; the pass
// `offload-host-thread-loops` applies it to every kernel of a `gpu.module`.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_THREADLOOPS_H
#define OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_THREADLOOPS_H

#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
class Operation;
namespace gpu {
class GPUFuncOp;
} // namespace gpu
namespace offload {

/// The unit attribute buildHostThreadLoops puts on the `scf.for` of a
/// constant subgroup exchange (a `gpu.shuffle` whose offset and width are
/// constants, in blocks of whole subgroups): it steps over subgroups,
/// `vector.load`s the 32 stored values of one, permutes them with one
/// `vector.shuffle` and `vector.store`s them to the array that the next
/// thread loop reads at the thread's own index. `offload-host-vectorize-
/// thread-loops` runs the thread loops around such a loop 32 lanes wide and
/// fuses them with it (the values stay in registers).
inline constexpr llvm::StringLiteral kSubgroupExchangeAttrName =
    "offload.subgroup_exchange";

/// The value of the integer or index \p v when it folds to a constant from
/// constants alone (the loop bounds the thread loops compute, `max(0, 0 *
/// 32)`, before any canonicalization), by folding its pure defining ops, at
/// most 8 deep (\p depth counts them); std::nullopt otherwise.
std::optional<int64_t> foldToConstant(Value v, unsigned depth = 0);

/// Options of buildHostThreadLoops.
struct HostThreadLoopsOptions {
  /// Move thread-invariant loops of the thread body out of the thread loops
  /// when that makes the loop over thread x the innermost one with unit-stride
  /// accesses (vectorization across threads).
  bool interchange = true;
};

/// Why buildHostThreadLoops left a kernel unchanged.
struct HostThreadLoopsFailure {
  /// Where: the location of the operation that could not be handled.
  std::optional<Location> loc;
  std::string reason;
};

/// Rewrites the body of \p kernel so that it runs every thread of its block:
/// the body becomes `scf.parallel` loops over the thread ids (z, y, x; x
/// innermost), split at each `gpu.barrier`; values that live across a split
/// are recomputed (pure index arithmetic) or kept in per-thread stack arrays;
/// barriers under `scf.for`, `scf.while` and `scf.if` whose bounds or
/// conditions are the same for every thread of the block are handled by
/// moving that control flow out of the thread loops; a barrier under a
/// condition that differs between threads is handled by predication when the
/// threads that skip it reach no other barrier (early exit). `gpu.shuffle`,
/// `gpu.subgroup_reduce` and `gpu.all_reduce` become exchanges and
/// reductions over per-thread arrays between thread loops, with the runtime
/// semantics of the fiber scheduler (subgroups of 32 threads, lanes that do
/// not take part are invalid shuffle sources). The kernel gets
/// `offload.thread_loops` (OffloadDialect::ThreadLoopsAttrHelper).
///
/// Returns true if the kernel was rewritten, false if it needs nothing
/// (no synchronization and nothing to interchange), and failure with \p why
/// filled when it synchronizes threads in a way this cannot prove equivalent
/// (the kernel is then unchanged and must run on fibers).
FailureOr<bool> buildHostThreadLoops(gpu::GPUFuncOp kernel,
                                     const HostThreadLoopsOptions &options,
                                     HostThreadLoopsFailure &why);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_THREADLOOPS_H
