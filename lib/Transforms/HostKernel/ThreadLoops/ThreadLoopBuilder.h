//===- ThreadLoopBuilder.h - State of one thread-loop rewrite ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Private to the thread-loop transformation (ThreadLoops.h has its public
// entry point): the state of one kernel's rewrite, a ThreadLoopBuilder, whose
// methods live in one file per job:
//   ThreadLoops.cpp       the driver: structured body, one thread region,
//                         fission points, then each job in order;
//   Uniformity.cpp        which values differ between the threads of a block;
//   BarrierFission.cpp    thread regions split at barriers, control flow
//                         around barriers moved out of the thread loops;
//   PerThreadValues.cpp   values used across a split: recomputed or kept in
//                         per-thread arrays;
//   Collectives.cpp       shuffles, subgroup and block reductions;
//   Predication.cpp       masks of divergent regions, turned into loop bounds
//                         and versions where they can be;
//   Interchange.cpp       uniform loops moved out for vectorization;
//   FiberFallback.cpp     the decision to keep a kernel for the fibers, and the
//                         pass.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_TRANSFORMS_HOSTKERNEL_THREADLOOPS_THREADLOOPBUILDER_H
#define OFFLOAD_LIB_TRANSFORMS_HOSTKERNEL_THREADLOOPS_THREADLOOPBUILDER_H

#include "OffloadDialect/Transforms/HostKernel/ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace offload {
namespace threadloops {

/// Largest number of pure ops recomputed for one value in a later thread
/// region before storing it per thread is preferred.
inline constexpr unsigned kMaxRematerializedOps = 12;

/// The cost of re-reading a per-thread array, in the units of
/// kMaxRematerializedOps (one pure op each).
inline constexpr unsigned kSlotLoadCost = 4;

/// Largest thread loop body (in ops) that is copied to drop bounds checks,
/// and the most checks it drops.
inline constexpr unsigned kMaxVersionedOps = 400;
inline constexpr unsigned kMaxVersionedChecks = 4;

/// Largest trip count of a loop with shuffles that is fully unrolled.
inline constexpr int64_t kMaxUnrolledTrips = 8;

/// Alignment of each thread's slice of a promoted per-thread allocation.
inline constexpr int64_t kPrivateAlignment = 16;

/// \p type as MLIR prints it (for diagnostics).
inline std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

/// Whether \p op synchronizes the threads of a block or of a subgroup.
inline bool isSyncOp(Operation *op) {
  return isa<gpu::BarrierOp, gpu::AllReduceOp, gpu::SubgroupReduceOp,
             gpu::ShuffleOp>(op);
}

/// Whether \p op synchronizes the whole block (all threads must arrive).
inline bool isBlockSyncOp(Operation *op) {
  return isa<gpu::BarrierOp, gpu::AllReduceOp>(op);
}

/// Whether \p op is or contains a block-wide synchronization.
inline bool containsBlockSync(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isBlockSyncOp(nested) ? WalkResult::interrupt()
                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether \p op only reads memory (no regions, no writes or allocations).
inline bool isReadOnly(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || op->getNumRegions())
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::all_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read>(e.getEffect());
  });
}

/// Whether values of \p type can be kept in a per-thread array.
inline bool isStorable(Type type) {
  if (isa<IndexType, IntegerType, FloatType>(type))
    return true;
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() &&
           isa<IndexType, IntegerType, FloatType>(vector.getElementType());
  return false;
}

/// Whether \p op computes its results from its operands alone (no memory
/// access, no regions): such ops can be cloned into a later thread region.
inline bool isRecomputable(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) && !isSyncOp(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

/// The coefficient of \p var in \p value when \p value is an affine function
/// of it (0 when it does not depend on it), else nullopt; \p memo caches
/// answers (Uniformity.cpp).
std::optional<int64_t>
getCoefficient(Value value, Value var,
               DenseMap<Value, std::optional<int64_t>> &memo);
/// Whether \p value is provably >= 0: thread ids (\p threadIds), block
/// sizes, non-negative constants, and sums and products of them
/// (Uniformity.cpp).
bool isNonNegative(Value value, ValueRange threadIds);
/// Whether \p value is computed from a block id (or is not known not to be)
/// (Uniformity.cpp).
bool dependsOnBlockId(Value value);

/// The predicate of `rhs PRED lhs` for `lhs pred rhs`.
inline arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::eq:
  case P::ne:
    return pred;
  case P::slt:
    return P::sgt;
  case P::sle:
    return P::sge;
  case P::sgt:
    return P::slt;
  case P::sge:
    return P::sle;
  case P::ult:
    return P::ugt;
  case P::ule:
    return P::uge;
  case P::ugt:
    return P::ult;
  case P::uge:
    return P::ule;
  }
  llvm_unreachable("unknown integer comparison");
}

/// One condition of a predicated thread region: the region runs for the
/// threads where \p cond (a per-thread i1) is true, or false when negated.
struct MaskTerm {
  Value cond;
  bool negate;
};

/// A loop over the threads of the block.
struct ThreadRegion {
  scf::ParallelOp loop;
  /// Conjunction of conditions under which a thread runs the body; outer
  /// conditions first.
  SmallVector<MaskTerm> mask;
  /// The region is the body, or part of the body, of a loop moved out of the
  /// thread loops: its code runs again after what follows it.
  bool inLoop = false;
  /// Code that follows the region (at an outer level, up to the end of the
  /// kernel) contains a block-wide synchronization.
  bool blockSyncFollows = false;
  /// The linear thread id, computed first in the body.
  Value linearId;
  /// Ops inserted at the start of the body (linear id, recomputed values,
  /// loads of stored values) go after this one (at the start when null).
  Operation *headerEnd = nullptr;

  Block *getBody() { return loop.getBody(); }
  ValueRange getIVs() { return loop.getBody()->getArguments(); }
};

/// Builds the thread loops of one kernel.
class ThreadLoopBuilder {
public:
  ThreadLoopBuilder(gpu::GPUFuncOp kernel, const DataLayout &layout,
                    const HostThreadLoopsOptions &options)
      : kernel(kernel), layout(layout), options(options),
        builder(kernel.getContext()) {}

  /// Returns true when the kernel was rewritten, false when there was nothing
  /// to do.
  FailureOr<bool> run();

  HostThreadLoopsFailure failure;

private:
  LogicalResult fail(Operation *op, const Twine &reason) {
    if (failure.reason.empty()) {
      failure.loc = op->getLoc();
      failure.reason = reason.str();
    }
    return LogicalResult::failure();
  }

  /// Erases \p op and forgets what the builder knew about it (so that a new
  /// op at the same address is not mistaken for it).
  void eraseOp(Operation *op) {
    fissionPoints.erase(op);
    invariantLoads.erase(op);
    for (Value result : op->getResults())
      varying.erase(result);
    costs.clear();
    op->erase();
  }

  // Setup.
  LogicalResult liftControlFlow();
  void wrapBody();
  void computeVaryingValues();
  /// Fills invariantLoads: the memref.loads from kernel arguments that no op
  /// of the kernel writes (Uniformity.cpp).
  void findInvariantLoads();
  /// Whether \p op reads memory the kernel does not write (a load of a
  /// uniform address of it is the same for every thread, and may be
  /// recomputed anywhere the kernel's arguments are visible).
  bool isInvariantLoad(Operation *op) const {
    return invariantLoads.contains(op);
  }
  bool isVarying(Value value) const { return varying.contains(value); }
  bool isFissionPoint(Operation *op) const {
    return fissionPoints.contains(op);
  }
  /// Marks the uniform scf.for loops that should move out of the thread loops
  /// so that the loop over thread x, innermost, vectorizes.
  void chooseInterchanges();
  /// Rewrites loops whose lower bound is a uniform value plus a non-negative
  /// thread offset (grid-stride loops) into loops with uniform bounds whose
  /// body runs under `offset + j < ub`.
  void normalizeThreadOffsetLoops();
  /// Fully unrolls small constant-trip loops that contain shuffles, so that
  /// shuffle offsets become constants (warp reduction trees).
  void unrollShuffleLoops();

  // Thread regions.
  ThreadRegion &createRegion(OpBuilder &b, ArrayRef<MaskTerm> mask, bool inLoop,
                             bool blockSyncFollows);
  ThreadRegion *getRegionOf(Operation *op);
  ThreadRegion *getRegionOfValue(Value value);
  /// Moves the ops after \p pos (to the end of \p region) into a new region
  /// right after it.
  FailureOr<ThreadRegion *> splitAfter(ThreadRegion &region, Operation *pos);
  /// Moves the ops of \p block (but its terminator) into a new thread region
  /// created at the start of \p block.
  FailureOr<ThreadRegion *> makeRegionOfBlock(Block *block,
                                              ArrayRef<MaskTerm> mask,
                                              bool inLoop,
                                              bool blockSyncFollows);
  /// Splits \p region after \p op and moves \p op between the halves;
  /// \p blockSyncFollows: whether a block-wide synchronization follows it.
  FailureOr<ThreadRegion *> moveOut(ThreadRegion &region, Operation *op,
                                    bool &blockSyncFollows);
  /// Rewrites the uses, inside \p region, of values of other thread regions
  /// (but of the results of \p skip, which the caller replaces).
  LogicalResult repairUses(ThreadRegion &region, Operation *skip = nullptr);
  /// Rewrites the uses, in uniform code inside \p op (not in thread regions),
  /// of values of thread regions.
  LogicalResult repairUniformUses(Operation *op);

  // Values across regions.
  OpBuilder headerBuilder(ThreadRegion &region);
  void noteHeaderOp(ThreadRegion &region, Operation *op) {
    region.headerEnd = op;
  }
  FailureOr<Value> materialize(Value value, ThreadRegion &target);
  FailureOr<Value> materializeUniform(Value value, Operation *before,
                                      IRMapping &mapping);
  unsigned recomputeCost(Value value, ThreadRegion &source);
  /// The per-thread array that holds \p value (stored right after its
  /// definition).
  FailureOr<Value> getSlot(Value value);
  Value createSlotArray(Type elementType);
  /// Whether \p op reads a per-thread array.
  bool isSlotLoad(Operation *op) const;
  /// The load of a per-thread array that \p value is (directly, or through
  /// the truncation of an i1 kept as a byte); null if none.
  memref::LoadOp getSlotLoad(Value value) const;
  Value loadSlot(OpBuilder &b, Location loc, Value slot, Value index);
  void storeSlot(OpBuilder &b, Location loc, Value value, Value slot,
                 Value index);
  FailureOr<Value> promoteAlloca(memref::AllocaOp alloca);

  // Fission.
  LogicalResult process(ThreadRegion &region);
  LogicalResult handleBarrier(ThreadRegion *&region, gpu::BarrierOp op);
  LogicalResult handleFor(ThreadRegion *&region, scf::ForOp op);
  LogicalResult handleWhile(ThreadRegion *&region, scf::WhileOp op);
  LogicalResult handleUniformIf(ThreadRegion *&region, scf::IfOp op);
  LogicalResult splitUniformIf(ThreadRegion *&region, scf::IfOp ifOp,
                               ThreadRegion *next, bool follows);
  LogicalResult handleDivergentIf(ThreadRegion *&region, scf::IfOp op);
  /// An scf.if whose branches synchronize the block and whose condition is
  /// not proven uniform but depends on the thread only through loads of
  /// memory at uniform addresses: the condition is checked to be the same
  /// for every thread at run time (a cf.assert), then the if is uniform
  /// (BarrierFission.cpp).
  LogicalResult handleCheckedUniformIf(ThreadRegion *&region, scf::IfOp op);
  /// Whether \p value may differ between threads only through what memory
  /// loads at uniform addresses read (no thread id, no per-thread loop value).
  bool variesOnlyThroughMemory(Value value, unsigned depth = 0);
  LogicalResult handleAllReduce(ThreadRegion *&region, gpu::AllReduceOp op);
  LogicalResult handleSubgroupReduce(ThreadRegion *&region,
                                     gpu::SubgroupReduceOp op);
  LogicalResult handleShuffle(ThreadRegion *&region, gpu::ShuffleOp op);
  /// Replaces the results of \p op (in \p region) that are not uniform by
  /// loads of per-thread arrays written where \p op yields them; returns the
  /// op rebuilt without those results.
  FailureOr<Operation *> demoteResults(ThreadRegion &region, Operation *op,
                                       bool demoteAll);

  // Collectives.
  /// Stores \p value (of \p op, in \p region) into a new per-thread array
  /// \p slot right before \p op and splits the region after \p op.
  FailureOr<ThreadRegion *> storeAndSplit(ThreadRegion &region, Operation *op,
                                          Value value, Value &slot);
  /// The identity of reduction \p kind on scalars of \p type, if any.
  std::optional<Value> getIdentity(OpBuilder &b, Location loc,
                                   gpu::AllReduceOperation kind, Type type);
  Value combine(OpBuilder &b, Location loc, gpu::AllReduceOp op, Value acc,
                Value value);
  Value combineKind(OpBuilder &b, Location loc, gpu::AllReduceOperation kind,
                    Value acc, Value value);
  /// Whether \p value is the same for the threads of a subgroup (32
  /// consecutive linear ids).
  bool isWarpUniform(Value value, unsigned depth);
  /// Whether every condition of \p region's mask is: then a thread's
  /// subgroup takes part exactly when the thread does.
  bool hasWarpUniformMask(ThreadRegion &region);
  /// Makes sure the conditions of \p region's mask are stored per thread.
  LogicalResult storeMask(ThreadRegion &region);
  /// Whether thread \p index (linear) runs \p region: its mask at another
  /// thread, from the stored conditions (storeMask first). Null when the
  /// region has no mask.
  Value isActiveAt(OpBuilder &b, Location loc, ThreadRegion &region,
                   Value index);

  // Finalization.
  LogicalResult applyMasks();
  /// When the body of \p region is a guard whose condition bounds thread ids
  /// (`if (tid == 0)`), makes it loop bounds instead.
  /// Returns whether it did.
  bool boundGuardedBody(ThreadRegion &region);
  /// When the body of \p region branches on bounds checks of thread ids
  /// (`i < n`, `i == 0`), runs a copy of the loop without them (their
  /// interior outcome) when a uniform test shows that every thread of the
  /// loop has that outcome: interior blocks run branch-free code. A check
  /// whose split point is the same for every block splits the loop there
  /// instead. Returns whether it versioned or split the loop.
  bool versionOnBoundsChecks(ThreadRegion &region);
  /// versionOnBoundsChecks on every region; returns whether any changed.
  bool versionAllOnBoundsChecks();
  /// When thread loops at the kernel's top level have upper bounds that
  /// tightenBounds clamped (`min(n - u, blockDim)`, the `if (i < n)` of edge
  /// blocks), runs a copy of the code that follows the clamps with the full
  /// block dimensions when every clamp has no effect: interior blocks (all
  /// but the edge ones) then run loops with the block's (often static) trip
  /// counts, which LLVM vectorizes and unrolls without remainder loops.
  /// The classic full-tile/partial-tile versioning of loop tiling (and
  /// PoCL's work-group loops for complete work-groups).
  void versionOnClampedBounds();
  /// Turns each pending reduction into a reduction of the thread loop that
  /// produces the values (no per-thread array, one pass).
  void fuseReductions();
  /// Narrows each subgroup exchange loop (handleShuffle's loop over whole
  /// subgroups) to the subgroups its readers' thread loops cover, once
  /// applyMasks made their masks bounds: the shuffles of `if (warp == 0)`
  /// permute one subgroup, not the block's.
  void boundSubgroupExchanges();
  /// Turns the mask condition \p cond (negated when \p negate) of \p region
  /// into a bound of one of its loops when it compares a thread id plus a
  /// uniform offset with a uniform value; returns whether it did.
  bool tightenBounds(ThreadRegion &region, Value cond, bool negate);
  /// `iv_dim + offset PRED limit`, with offset and limit uniform.
  struct AffineCompare {
    unsigned dim;
    Value offset;
    arith::CmpIPredicate pred;
    Value limit;
    /// The compared thread-dependent value (iv_dim + offset) itself.
    Value expr;
    /// Whether the comparison is of iN values (`tid_i32 + u < n` as
    /// frontends that compute in i32 write it), not of index values: offset
    /// and limit are iN, and iv + offset wraps at 2^N.
    bool isNarrow() const { return !expr.getType().isIndex(); }
  };
  /// Matches `lhs pred rhs` (values of thread region \p source) as an
  /// AffineCompare, with offset and limit computed before \p before.
  std::optional<AffineCompare> matchAffineCompare(ThreadRegion &source,
                                                  Value lhs,
                                                  arith::CmpIPredicate pred,
                                                  Value rhs, Operation *before);
  /// Splits the loop of \p region at the thread id where \p cmp changes
  /// (index-set splitting): two loops with its outcome as a constant.
  bool splitOnCheck(ThreadRegion &region, arith::CmpIOp cmp,
                    const AffineCompare &match);
  /// tightenBounds for `lhs pred rhs` where lhs is `e / c` or `e % c` (c a
  /// constant) and rhs a constant.
  bool tightenDivRem(ThreadRegion &region, Value lhs, arith::CmpIPredicate pred,
                     Value rhs);
  /// Clones the computation of \p value (of thread region \p source) before
  /// \p before with \p iv replaced by 0; fails unless the rest is uniform and
  /// speculatable.
  FailureOr<Value> cloneWithout(Value value, ThreadRegion &source, Value iv,
                                Operation *before, IRMapping &mapping);
  FailureOr<Value> recomputeFresh(OpBuilder &b, Value value,
                                  ThreadRegion &target, IRMapping &mapping,
                                  unsigned &budget);

  gpu::GPUFuncOp kernel;
  const DataLayout &layout;
  const HostThreadLoopsOptions &options;
  OpBuilder builder;

  /// Block dimensions (z, y, x order of the loops) and threads per block.
  Value dims[3];
  /// The upper bounds tightenBounds clamped: `min(full, bound)` and `full`.
  SmallVector<std::pair<arith::MinSIOp, Value>> clampedBounds;
  /// The uniform tests on which versionOnBoundsChecks versioned a thread loop
  /// (`if (test) { the loop, checks folded } else { the loop }`): the block's
  /// interior has them all true.
  SmallVector<Value> versionTests;
  Value numThreads;
  Value zeroIndex, oneIndex;
  std::optional<int64_t> staticNumThreads;
  /// The block is known to have one thread along y and z.
  bool oneDimensional = false;
  /// Per-thread arrays are allocated before this op (the first region).
  Operation *slotInsertionPoint = nullptr;

  std::vector<std::unique_ptr<ThreadRegion>> regions;
  DenseMap<Operation *, ThreadRegion *> regionOfLoop;
  DenseSet<Value> varying;
  /// See isInvariantLoad.
  DenseSet<Operation *> invariantLoads;
  DenseSet<Operation *> fissionPoints;
  /// The guards of loops rewritten by normalizeThreadOffsetLoops.
  SmallVector<scf::IfOp> offsetGuards;
  DenseMap<std::pair<Value, Operation *>, Value> materialized;
  DenseMap<Value, Value> slots;
  /// The per-thread arrays. Each thread writes its element of one only where
  /// the value it holds is defined (or yielded), so reading it again later in
  /// the same iteration gives the same value: such loads are recomputable.
  DenseSet<Value> slotArrays;
  /// The per-thread arrays that keep i1 values as bytes.
  DenseSet<Value> slotBools;
  /// Values that are the linear thread id of the region they are in.
  DenseSet<Value> linearIds;
  /// A reduction loop over a per-thread array written by the thread loop
  /// right before it: fuseReductions makes it a reduction of that loop.
  struct PendingReduction {
    ThreadRegion *producer;
    Value slot;
    scf::ForOp loop;
    gpu::AllReduceOperation kind;
    Value identity;
  };
  SmallVector<PendingReduction> reductions;
  /// The loops over subgroups that permute a shuffle's values (loop, the
  /// array of permuted values it writes).
  SmallVector<std::pair<scf::ForOp, Value>> subgroupExchanges;
  DenseMap<Value, unsigned> costs;
};

} // namespace threadloops
} // namespace offload
} // namespace mlir

#endif // OFFLOAD_LIB_TRANSFORMS_HOSTKERNEL_THREADLOOPS_THREADLOOPBUILDER_H
