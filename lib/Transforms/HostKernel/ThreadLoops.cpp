//===- ThreadLoops.cpp - Threads of a block as loops on the host ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Turns the body of a gpu.func kernel into loops over the threads of its
// block, split at barriers (see ThreadLoops.h). The method is the parallel
// loop distribution of Polygeist (W. S. Moses et al., "High-Performance
// GPU-to-CPU Transpilation and Optimization via High-Level Parallel
// Constructs", PPoPP 2023), applied to our kernels while they are still
// structured MLIR:
//
//  1. The CFG of the body is lifted to scf (upstream transformCFGToSCF), the
//     body is wrapped in one `scf.parallel (z, y, x)` over the block's
//     threads (the *thread region*), thread ids become its induction
//     variables, and top-level ops that do not depend on the thread are
//     hoisted before it.
//  2. A uniformity analysis marks the values that may differ between threads
//     of a block (thread ids, memory reads, shuffles, and what depends on
//     them through data or loop-carried flow).
//  3. Each thread region is scanned for its first *fission point* (an op
//     that synchronizes threads or contains one):
//       - `gpu.barrier`: the region is split in two after it;
//       - `scf.for` / `scf.while` with uniform bounds or condition, `scf.if`
//         with a uniform condition: the op moves between the two halves and
//         its bodies become thread regions of their own (loop interchange);
//         loop-carried values and results that are not uniform go through
//         per-thread arrays;
//       - `scf.if` with a condition that differs between threads: its
//         branches become thread regions *predicated* on the condition
//         (masked loops). If a branch contains a block-wide barrier, this is
//         only done when the threads that skip it reach no other barrier
//         (the early exit of `if (tid >= n) return;`), which is when the GPU
//         and the fiber scheduler give the same result;
//       - collectives (`gpu.all_reduce`, `gpu.subgroup_reduce`,
//         `gpu.shuffle`): the operand is stored per thread before the split,
//         the reduction (a loop over the stored values, reassociable) or the
//         exchange is computed between or after the two halves.
//  4. Values used across a split are recomputed in the later region when they
//     are cheap pure functions of the thread ids and uniform values, else
//     stored into a per-thread array (a stack allocation of block-size
//     elements, structure of arrays so that stores and loads vectorize);
//     per-thread `memref.alloca`s (and private attributions) used across a
//     split become views into a per-block array.
//  5. Predicated regions get their masks as `scf.if`s around their bodies.
//
// Anything else that synchronizes (a barrier under a loop whose trip count
// differs between threads, under unstructured control flow, in both branches
// of a divergent `scf.if`, ...) is reported and the kernel is left for the
// fiber scheduler, which runs any control flow.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/HostKernel/ThreadLoops.h"
#include "OffloadDialect/Transforms/HostKernel/VendorOps.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "OffloadRuntime/HostKernelABI.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include <memory>

using namespace mlir;
using namespace mlir::offload;

/// Largest number of pure ops recomputed for one value in a later thread
/// region before storing it per thread is preferred.
static constexpr unsigned kMaxRematerializedOps = 12;

/// The cost of re-reading a per-thread array, in the units of
/// kMaxRematerializedOps (one pure op each).
static constexpr unsigned kSlotLoadCost = 4;

/// Largest thread loop body (in ops) that is copied to drop bounds checks,
/// and the most checks it drops.
static constexpr unsigned kMaxVersionedOps = 400;
static constexpr unsigned kMaxVersionedChecks = 4;

/// Largest trip count of a loop with shuffles that is fully unrolled.
static constexpr int64_t kMaxUnrolledTrips = 8;

/// Alignment of each thread's slice of a promoted per-thread allocation.
static constexpr int64_t kPrivateAlignment = 16;

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

//===----------------------------------------------------------------------===//
// Classification
//===----------------------------------------------------------------------===//

/// Whether \p op synchronizes the threads of a block or of a subgroup.
static bool isSyncOp(Operation *op) {
  return isa<gpu::BarrierOp, gpu::AllReduceOp, gpu::SubgroupReduceOp,
             gpu::ShuffleOp>(op);
}

/// Whether \p op synchronizes the whole block (all threads must arrive).
static bool isBlockSyncOp(Operation *op) {
  return isa<gpu::BarrierOp, gpu::AllReduceOp>(op);
}

static bool containsBlockSync(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isBlockSyncOp(nested) ? WalkResult::interrupt()
                                     : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Whether \p op only reads memory (no regions, no writes or allocations).
static bool isReadOnly(Operation *op) {
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
static bool isStorable(Type type) {
  if (isa<IndexType, IntegerType, FloatType>(type))
    return true;
  if (auto vector = dyn_cast<VectorType>(type))
    return !vector.isScalable() &&
           isa<IndexType, IntegerType, FloatType>(vector.getElementType());
  return false;
}

/// Whether \p op computes its results from its operands alone (no memory
/// access, no regions): such ops can be cloned into a later thread region.
static bool isRecomputable(Operation *op) {
  return op->getNumRegions() == 0 && isMemoryEffectFree(op) && !isSyncOp(op) &&
         !op->hasTrait<OpTrait::IsTerminator>();
}

static std::optional<int64_t>
getCoefficient(Value value, Value var,
               DenseMap<Value, std::optional<int64_t>> &memo);
static bool isNonNegative(Value value, ValueRange threadIds);
static bool dependsOnBlockId(Value value);

/// The predicate of `rhs PRED lhs` for `lhs pred rhs`.
static arith::CmpIPredicate swapOperands(arith::CmpIPredicate pred) {
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

namespace {

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

/// Upstream's CFG-to-SCF lifting for a gpu.func: unreachable paths end in
/// gpu.return.
class KernelCFGToSCF : public ControlFlowToSCFTransformation {
public:
  FailureOr<Operation *> createUnreachableTerminator(Location loc,
                                                     OpBuilder &builder,
                                                     Region &region) override {
    if (!isa<gpu::GPUFuncOp>(region.getParentOp()))
      return failure();
    return gpu::ReturnOp::create(builder, loc).getOperation();
  }
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
    for (Value result : op->getResults())
      varying.erase(result);
    costs.clear();
    op->erase();
  }

  // Setup.
  LogicalResult liftControlFlow();
  void wrapBody();
  void computeVaryingValues();
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
  LogicalResult handleDivergentIf(ThreadRegion *&region, scf::IfOp op);
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
  /// loop has that outcome: interior blocks run branch-free code.
  void versionOnBoundsChecks(ThreadRegion &region);
  void versionAllOnBoundsChecks();
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
  DenseMap<Value, unsigned> costs;
};

} // namespace

//===----------------------------------------------------------------------===//
// Setup
//===----------------------------------------------------------------------===//

LogicalResult ThreadLoopBuilder::liftControlFlow() {
  Region &body = kernel.getBody();
  if (body.hasOneBlock())
    return success();
  KernelCFGToSCF interface;
  DominanceInfo dominance(kernel);
  FailureOr<bool> changed = transformCFGToSCF(body, interface, dominance);
  if (failed(changed) || !body.hasOneBlock())
    return fail(kernel, "its control flow cannot be made structured");
  return success();
}

void ThreadLoopBuilder::wrapBody() {
  Block &entry = kernel.getBody().front();
  Location loc = kernel.getLoc();
  builder.setInsertionPointToStart(&entry);
  zeroIndex = arith::ConstantIndexOp::create(builder, loc, 0);
  oneIndex = arith::ConstantIndexOp::create(builder, loc, 1);
  DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr();
  gpu::Dimension dimOrder[3] = {gpu::Dimension::z, gpu::Dimension::y,
                                gpu::Dimension::x};
  for (unsigned i = 0; i < 3; ++i) {
    if (known)
      dims[i] = arith::ConstantIndexOp::create(builder, loc, known[2 - i]);
    else
      dims[i] = gpu::BlockDimOp::create(builder, loc, dimOrder[i]);
  }
  if (known) {
    staticNumThreads = int64_t(known[0]) * known[1] * known[2];
    oneDimensional = known[1] == 1 && known[2] == 1;
  }
  numThreads = arith::MulIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, dims[0], dims[1]),
      dims[2]);

  // The thread loop holds every op but the terminator.
  Operation *terminator = entry.getTerminator();
  SmallVector<Operation *> ops;
  for (Operation &op :
       llvm::make_range(builder.getInsertionPoint(), terminator->getIterator()))
    ops.push_back(&op);
  builder.setInsertionPoint(terminator);
  ThreadRegion &root =
      createRegion(builder, {}, /*inLoop=*/false, /*blockSyncFollows=*/false);
  slotInsertionPoint = root.loop;
  Operation *rootTerminator = root.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(rootTerminator);

  // Thread-dependent gpu ops become functions of the induction variables.
  ValueRange ivs = root.getIVs();
  Value threadIds[3] = {ivs[2], oneDimensional ? zeroIndex : ivs[1],
                        oneDimensional ? zeroIndex : ivs[0]};
  SmallVector<Operation *> idOps;
  root.loop.walk([&](Operation *op) {
    if (isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp>(op))
      idOps.push_back(op);
  });
  for (Operation *op : idOps) {
    OpBuilder b(op);
    Location opLoc = op->getLoc();
    Value replacement;
    if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      replacement = threadIds[static_cast<unsigned>(id.getDimension())];
    } else {
      Value subgroup =
          arith::ConstantIndexOp::create(b, opLoc, OFFLOAD_HOST_SUBGROUP_SIZE);
      if (isa<gpu::LaneIdOp>(op))
        replacement = arith::RemUIOp::create(b, opLoc, root.linearId, subgroup);
      else
        replacement = arith::DivUIOp::create(b, opLoc, root.linearId, subgroup);
    }
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }

  // Private attributions are per-thread memory: stack allocations in the
  // thread loop (promoted to per-block arrays if they live across a split).
  for (BlockArgument arg : kernel.getPrivateAttributions()) {
    OpBuilder b = headerBuilder(root);
    auto alloca =
        memref::AllocaOp::create(b, loc, cast<MemRefType>(arg.getType()));
    noteHeaderOp(root, alloca);
    arg.replaceAllUsesWith(alloca.getResult());
  }

  // Ops that do not depend on the thread and run unconditionally move before
  // the thread loop (there is at least one thread, so this is safe for ops
  // that may trap). (`ops` also held the thread id ops erased above.)
  SmallVector<Operation *> topLevel;
  for (Operation &op : root.getBody()->without_terminator())
    topLevel.push_back(&op);
  for (Operation *op : topLevel) {
    if (!isRecomputable(op))
      continue;
    if (llvm::all_of(op->getOperands(), [&](Value v) {
          return !root.loop->isAncestor(v.getParentBlock()->getParentOp());
        }))
      op->moveBefore(root.loop);
  }
}

void ThreadLoopBuilder::computeVaryingValues() {
  ThreadRegion &root = *regions.front();
  for (Value iv : root.getIVs())
    varying.insert(iv);
  auto anyVarying = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return isVarying(v); });
  };
  auto markAll = [&](ValueRange values, bool &changed) {
    for (Value v : values)
      changed |= varying.insert(v).second;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    root.loop.getBody()->walk([&](Operation *op) {
      llvm::TypeSwitch<Operation *>(op)
          .Case([&](scf::ForOp forOp) {
            bool bounds = anyVarying({forOp.getLowerBound(),
                                      forOp.getUpperBound(), forOp.getStep()});
            if (bounds) {
              markAll(forOp.getInductionVar(), changed);
              markAll(forOp.getRegionIterArgs(), changed);
              markAll(forOp.getResults(), changed);
              return;
            }
            auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
            for (unsigned i = 0, e = forOp.getNumResults(); i < e; ++i)
              if (isVarying(forOp.getInitArgs()[i]) ||
                  isVarying(yield.getOperand(i))) {
                markAll(forOp.getRegionIterArgs()[i], changed);
                markAll(forOp.getResult(i), changed);
              }
          })
          .Case([&](scf::IfOp ifOp) {
            if (isVarying(ifOp.getCondition())) {
              markAll(ifOp.getResults(), changed);
              return;
            }
            for (unsigned i = 0, e = ifOp.getNumResults(); i < e; ++i)
              if (isVarying(ifOp.thenYield().getOperand(i)) ||
                  (ifOp.elseBlock() &&
                   isVarying(ifOp.elseYield().getOperand(i))))
                markAll(ifOp.getResult(i), changed);
          })
          .Case([&](scf::WhileOp whileOp) {
            scf::ConditionOp cond = whileOp.getConditionOp();
            scf::YieldOp yield = whileOp.getYieldOp();
            for (unsigned i = 0, e = whileOp.getInits().size(); i < e; ++i)
              if (isVarying(whileOp.getInits()[i]) ||
                  isVarying(yield.getOperand(i)))
                markAll(whileOp.getBeforeArguments()[i], changed);
            if (isVarying(cond.getCondition())) {
              markAll(whileOp.getAfterArguments(), changed);
              markAll(whileOp.getResults(), changed);
              return;
            }
            for (unsigned i = 0, e = cond.getArgs().size(); i < e; ++i)
              if (isVarying(cond.getArgs()[i])) {
                markAll(whileOp.getAfterArguments()[i], changed);
                markAll(whileOp.getResult(i), changed);
              }
          })
          .Case([&](gpu::AllReduceOp) {
            // The same value for every thread of the block.
          })
          .Default([&](Operation *op) {
            if (op->getNumResults() == 0)
              return;
            if (isa<gpu::ShuffleOp, gpu::SubgroupReduceOp>(op) ||
                op->getNumRegions() != 0 || !isMemoryEffectFree(op) ||
                anyVarying(op->getOperands()))
              markAll(op->getResults(), changed);
          });
    });
  }
}

ThreadRegion &ThreadLoopBuilder::createRegion(OpBuilder &b,
                                              ArrayRef<MaskTerm> mask,
                                              bool inLoop,
                                              bool blockSyncFollows) {
  Location loc = kernel.getLoc();
  Value zero = zeroIndex, one = oneIndex;
  auto loop = scf::ParallelOp::create(b, loc, ValueRange{zero, zero, zero},
                                      ValueRange{dims[0], dims[1], dims[2]},
                                      ValueRange{one, one, one});
  auto region = std::make_unique<ThreadRegion>();
  region->loop = loop;
  region->mask.assign(mask.begin(), mask.end());
  region->inLoop = inLoop;
  region->blockSyncFollows = blockSyncFollows;
  // linear = x + bx * (y + by * z); just x in blocks known to be 1-D.
  OpBuilder hb(loop.getBody(), loop.getBody()->begin());
  ValueRange ivs = loop.getBody()->getArguments();
  if (oneDimensional) {
    region->linearId = ivs[2];
  } else {
    Value yz = arith::AddIOp::create(
        hb, loc, ivs[1], arith::MulIOp::create(hb, loc, ivs[0], dims[1]));
    auto linear = arith::AddIOp::create(
        hb, loc, ivs[2], arith::MulIOp::create(hb, loc, yz, dims[2]));
    region->linearId = linear;
    region->headerEnd = linear;
  }
  linearIds.insert(region->linearId);
  ThreadRegion &result = *region;
  regionOfLoop[loop] = region.get();
  regions.push_back(std::move(region));
  return result;
}

ThreadRegion *ThreadLoopBuilder::getRegionOf(Operation *op) {
  for (Operation *p = op; p && p != kernel; p = p->getParentOp())
    if (auto it = regionOfLoop.find(p); it != regionOfLoop.end() && p != op)
      return it->second;
  return nullptr;
}

ThreadRegion *ThreadLoopBuilder::getRegionOfValue(Value value) {
  Operation *parent = value.getParentBlock()->getParentOp();
  if (auto it = regionOfLoop.find(parent); it != regionOfLoop.end())
    return it->second;
  return getRegionOf(parent);
}

OpBuilder ThreadLoopBuilder::headerBuilder(ThreadRegion &region) {
  OpBuilder b(kernel.getContext());
  if (region.headerEnd)
    b.setInsertionPointAfter(region.headerEnd);
  else
    b.setInsertionPointToStart(region.getBody());
  return b;
}

FailureOr<ThreadRegion *> ThreadLoopBuilder::splitAfter(ThreadRegion &region,
                                                        Operation *pos) {
  OpBuilder b(region.loop);
  b.setInsertionPointAfter(region.loop);
  ThreadRegion &next =
      createRegion(b, region.mask, region.inLoop, region.blockSyncFollows);
  Operation *terminator = next.getBody()->getTerminator();
  Operation *end = region.getBody()->getTerminator();
  for (Operation *op = pos->getNextNode(); op && op != end;) {
    Operation *following = op->getNextNode();
    op->moveBefore(terminator);
    op = following;
  }
  // The results of `pos` are replaced by the caller (or move out with it).
  if (failed(repairUses(next, pos)))
    return LogicalResult::failure();
  return &next;
}

FailureOr<ThreadRegion *>
ThreadLoopBuilder::makeRegionOfBlock(Block *block, ArrayRef<MaskTerm> mask,
                                     bool inLoop, bool blockSyncFollows) {
  OpBuilder b(block, block->begin());
  SmallVector<Operation *> ops;
  for (Operation &op : block->without_terminator())
    ops.push_back(&op);
  ThreadRegion &region = createRegion(b, mask, inLoop, blockSyncFollows);
  Operation *terminator = region.getBody()->getTerminator();
  for (Operation *op : ops)
    op->moveBefore(terminator);
  if (failed(repairUses(region)))
    return LogicalResult::failure();
  return &region;
}

LogicalResult ThreadLoopBuilder::repairUses(ThreadRegion &region,
                                            Operation *skip) {
  SmallVector<OpOperand *> uses;
  region.getBody()->walk([&](Operation *op) {
    for (OpOperand &use : op->getOpOperands()) {
      if (skip && use.get().getDefiningOp() == skip)
        continue;
      ThreadRegion *owner = getRegionOfValue(use.get());
      if (owner && owner != &region)
        uses.push_back(&use);
    }
  });
  for (OpOperand *use : uses) {
    FailureOr<Value> value = materialize(use->get(), region);
    if (failed(value))
      return LogicalResult::failure();
    use->set(*value);
  }
  return success();
}

LogicalResult ThreadLoopBuilder::repairUniformUses(Operation *op) {
  SmallVector<OpOperand *> uses;
  op->walk([&](Operation *nested) {
    // Code inside thread regions was repaired with its region.
    if (nested != op && getRegionOf(nested) &&
        op->isProperAncestor(getRegionOf(nested)->loop))
      return;
    for (OpOperand &use : nested->getOpOperands())
      if (getRegionOfValue(use.get()))
        uses.push_back(&use);
  });
  for (OpOperand *use : uses) {
    // Recomputed right before the user (the op itself, or a terminator of
    // its regions), where the operands of the computation are visible.
    IRMapping mapping;
    FailureOr<Value> value =
        materializeUniform(use->get(), use->getOwner(), mapping);
    if (failed(value))
      return fail(use->getOwner(),
                  "this value differs between threads but is used where it "
                  "must be the same for the whole block");
    use->set(*value);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Values across regions
//===----------------------------------------------------------------------===//

unsigned ThreadLoopBuilder::recomputeCost(Value value, ThreadRegion &source) {
  if (getRegionOfValue(value) != &source || isa<BlockArgument>(value))
    return 0;
  if (auto it = costs.find(value); it != costs.end())
    return it->second;
  Operation *def = value.getDefiningOp();
  unsigned cost = kMaxRematerializedOps + 1;
  if (isRecomputable(def) || isSlotLoad(def)) {
    // A re-read of a per-thread array costs more than arithmetic: long chains
    // of them (a shuffle tree's partial sums) are stored instead.
    cost = isSlotLoad(def) ? kSlotLoadCost : 1;
    for (Value operand : def->getOperands())
      cost = std::min(cost + recomputeCost(operand, source),
                      kMaxRematerializedOps + 1);
  }
  costs[value] = cost;
  return cost;
}

/// The element type of a per-thread array of \p type: `i1` values are kept
/// as bytes (`i8`), the layout they have in memory anyway, so that a row of
/// them is a vector load or store (a memref of `i1` has no vector layout: a
/// `vector<W x i1>` is bit-packed) and not one byte per thread.
static Type getSlotElementType(Type type) {
  if (type.isInteger(1))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

Value ThreadLoopBuilder::createSlotArray(Type originalType) {
  Type elementType = getSlotElementType(originalType);
  OpBuilder b(slotInsertionPoint);
  Location loc = kernel.getLoc();
  Value slot;
  if (staticNumThreads)
    slot = memref::AllocaOp::create(
        b, loc, MemRefType::get({*staticNumThreads}, elementType));
  else
    slot = memref::AllocaOp::create(
        b, loc, MemRefType::get({ShapedType::kDynamic}, elementType),
        ValueRange{numThreads});
  slotArrays.insert(slot);
  if (elementType != originalType)
    slotBools.insert(slot);
  return slot;
}

bool ThreadLoopBuilder::isSlotLoad(Operation *op) const {
  auto load = dyn_cast<memref::LoadOp>(op);
  return load && slotArrays.contains(load.getMemRef());
}

memref::LoadOp ThreadLoopBuilder::getSlotLoad(Value value) const {
  Operation *def = value.getDefiningOp();
  // The byte of an i1 (loadSlot's trunci).
  if (auto trunc = dyn_cast_if_present<arith::TruncIOp>(def);
      trunc && trunc.getType().isInteger(1))
    def = trunc.getIn().hasOneUse() ? trunc.getIn().getDefiningOp() : nullptr;
  if (!def || !isSlotLoad(def))
    return nullptr;
  return cast<memref::LoadOp>(def);
}

Value ThreadLoopBuilder::loadSlot(OpBuilder &b, Location loc, Value slot,
                                  Value index) {
  Value value = memref::LoadOp::create(b, loc, slot, ValueRange{index});
  // An i1 kept as a byte (getSlotElementType).
  if (value.getType().isInteger(8) && slotBools.contains(slot))
    value = arith::TruncIOp::create(b, loc, b.getI1Type(), value);
  return value;
}

void ThreadLoopBuilder::storeSlot(OpBuilder &b, Location loc, Value value,
                                  Value slot, Value index) {
  if (value.getType().isInteger(1))
    value = arith::ExtUIOp::create(b, loc, b.getI8Type(), value);
  memref::StoreOp::create(b, loc, value, slot, ValueRange{index});
}

FailureOr<Value> ThreadLoopBuilder::getSlot(Value value) {
  if (auto it = slots.find(value); it != slots.end())
    return it->second;
  if (!isStorable(value.getType()))
    return LogicalResult::failure();
  ThreadRegion *source = getRegionOfValue(value);
  if (!source)
    return LogicalResult::failure();
  Value slot = createSlotArray(value.getType());
  OpBuilder b(kernel.getContext());
  if (Operation *def = value.getDefiningOp()) {
    b.setInsertionPointAfter(def);
    storeSlot(b, def->getLoc(), value, slot, source->linearId);
  } else {
    // An induction variable of the region.
    b = headerBuilder(*source);
    storeSlot(b, kernel.getLoc(), value, slot, source->linearId);
    noteHeaderOp(*source, &*std::prev(b.getInsertionPoint()));
  }
  slots[value] = slot;
  return slot;
}

FailureOr<Value> ThreadLoopBuilder::promoteAlloca(memref::AllocaOp alloca) {
  MemRefType type = alloca.getType();
  if (!type.hasStaticShape() || !type.getLayout().isIdentity())
    return fail(alloca, "a per-thread allocation with a dynamic shape or a "
                        "layout lives across a barrier");
  ThreadRegion *source = getRegionOf(alloca);
  if (!source || alloca->getBlock() != source->getBody())
    return fail(alloca, "a per-thread allocation under control flow lives "
                        "across a barrier");
  int64_t elementBytes = layout.getTypeSize(type.getElementType());
  int64_t align =
      std::max<int64_t>(kPrivateAlignment, alloca.getAlignment().value_or(1));
  int64_t bytes = llvm::alignTo(type.getNumElements() * elementBytes, align);
  Location loc = alloca.getLoc();
  OpBuilder sb(slotInsertionPoint);
  Type i8 = sb.getI8Type();
  Attribute space = type.getMemorySpace();
  Value buffer;
  if (staticNumThreads) {
    buffer = memref::AllocaOp::create(
        sb, loc,
        MemRefType::get({*staticNumThreads * bytes}, i8, AffineMap(), space),
        ValueRange{}, sb.getI64IntegerAttr(64));
    // memref.view needs a dynamically shaped source.
    buffer = memref::CastOp::create(
        sb, loc,
        MemRefType::get({ShapedType::kDynamic}, i8, AffineMap(), space),
        buffer);
  } else {
    Value total = arith::MulIOp::create(
        sb, loc, numThreads, arith::ConstantIndexOp::create(sb, loc, bytes));
    buffer = memref::AllocaOp::create(
        sb, loc,
        MemRefType::get({ShapedType::kDynamic}, i8, AffineMap(), space),
        ValueRange{total}, ValueRange{}, sb.getI64IntegerAttr(64));
  }
  OpBuilder b(alloca);
  Value offset = arith::MulIOp::create(
      b, loc, source->linearId, arith::ConstantIndexOp::create(b, loc, bytes));
  auto view =
      memref::ViewOp::create(b, loc, type, buffer, offset, ValueRange{});
  if (source->headerEnd == alloca)
    source->headerEnd = view;
  alloca.replaceAllUsesWith(view.getResult());
  eraseOp(alloca);
  return view.getResult();
}

FailureOr<Value> ThreadLoopBuilder::materialize(Value value,
                                                ThreadRegion &target) {
  ThreadRegion *source = getRegionOfValue(value);
  if (!source || source == &target)
    return value;
  auto key = std::make_pair(value, target.loop.getOperation());
  if (auto it = materialized.find(key); it != materialized.end())
    return it->second;

  Value result;
  if (auto arg = dyn_cast<BlockArgument>(value);
      arg && arg.getOwner() == source->getBody()) {
    result = target.getIVs()[arg.getArgNumber()];
  } else if (Operation *def = value.getDefiningOp();
             def && isa<memref::AllocaOp>(def)) {
    FailureOr<Value> view = promoteAlloca(cast<memref::AllocaOp>(def));
    if (failed(view))
      return LogicalResult::failure();
    return materialize(*view, target);
  } else if (def && (isRecomputable(def) || isSlotLoad(def)) &&
             (recomputeCost(value, *source) <= kMaxRematerializedOps ||
              !isStorable(value.getType()))) {
    IRMapping mapping;
    for (Value operand : def->getOperands()) {
      FailureOr<Value> mapped = materialize(operand, target);
      if (failed(mapped))
        return LogicalResult::failure();
      mapping.map(operand, *mapped);
    }
    OpBuilder b = headerBuilder(target);
    Operation *clone = b.clone(*def, mapping);
    noteHeaderOp(target, clone);
    for (auto [original, copy] :
         llvm::zip(def->getResults(), clone->getResults()))
      materialized[{original, target.loop}] = copy;
    result = clone->getResult(cast<OpResult>(value).getResultNumber());
  } else {
    FailureOr<Value> slot = getSlot(value);
    if (failed(slot))
      return fail(value.getDefiningOp() ? value.getDefiningOp() : kernel,
                  Twine("a value of type ") + typeString(value.getType()) +
                      " lives across a barrier and can be neither stored "
                      "nor recomputed");
    OpBuilder b = headerBuilder(target);
    result = loadSlot(b, value.getLoc(), *slot, target.linearId);
    noteHeaderOp(target, result.getDefiningOp());
    varying.insert(result);
  }
  if (isVarying(value))
    varying.insert(result);
  if (linearIds.contains(value))
    linearIds.insert(result);
  materialized[key] = result;
  return result;
}

FailureOr<Value> ThreadLoopBuilder::materializeUniform(Value value,
                                                       Operation *before,
                                                       IRMapping &mapping) {
  if (!getRegionOfValue(value))
    return value;
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def || !isRecomputable(def) || isVarying(value))
    return LogicalResult::failure();
  for (Value operand : def->getOperands())
    if (failed(materializeUniform(operand, before, mapping)))
      return LogicalResult::failure();
  OpBuilder b(before);
  Operation *clone = b.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

//===----------------------------------------------------------------------===//
// Fission
//===----------------------------------------------------------------------===//

FailureOr<Operation *> ThreadLoopBuilder::demoteResults(ThreadRegion &region,
                                                        Operation *op,
                                                        bool demoteAll) {
  Location loc = op->getLoc();
  Value index = region.linearId;
  // Which results stay (uniform ones, when allowed).
  SmallVector<unsigned> kept, demoted;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    bool uniform = !demoteAll && !isVarying(op->getResult(i));
    if (auto forOp = dyn_cast<scf::ForOp>(op))
      uniform = uniform && !isVarying(forOp.getRegionIterArgs()[i]);
    (uniform ? kept : demoted).push_back(i);
  }
  if (demoted.empty())
    return op;
  for (unsigned i : demoted)
    if (!isStorable(op->getResult(i).getType()))
      return fail(op, Twine("a result of type ") +
                          typeString(op->getResult(i).getType()) +
                          " differs between threads and cannot be stored");
  SmallVector<Value> slotOf(op->getNumResults());
  // A loop whose initial value is read from a per-thread array only for it
  // (the value of an enclosing demoted loop) updates that array in place.
  SmallVector<bool> inPlace(op->getNumResults(), false);
  auto forOp = dyn_cast<scf::ForOp>(op);
  for (unsigned i : demoted) {
    if (forOp) {
      Value init = forOp.getInitArgs()[i];
      memref::LoadOp load = getSlotLoad(init);
      if (load && init.hasOneUse() &&
          load.getIndices().size() == 1 &&
          linearIds.contains(load.getIndices()[0]) &&
          getRegionOfValue(load.getIndices()[0]) == &region) {
        slotOf[i] = load.getMemRef();
        inPlace[i] = true;
        continue;
      }
    }
    slotOf[i] = createSlotArray(op->getResult(i).getType());
  }

  OpBuilder b(op);
  IRRewriter rewriter(op->getContext());
  Operation *rebuilt = nullptr;
  auto keptValues = [&](ValueRange values) {
    SmallVector<Value> result;
    for (unsigned i : kept)
      result.push_back(values[i]);
    return result;
  };
  // Stores each demoted yielded value before \p yield and drops it.
  auto rewriteYield = [&](Operation *yield) {
    OpBuilder yb(yield);
    for (unsigned i : demoted)
      storeSlot(yb, loc, yield->getOperand(i), slotOf[i], index);
    SmallVector<Value> operands = keptValues(yield->getOperands());
    yield->setOperands(operands);
  };

  if (forOp) {
    bool ivVarying = isVarying(forOp.getInductionVar());
    for (unsigned i : demoted)
      if (!inPlace[i])
        storeSlot(b, loc, forOp.getInitArgs()[i], slotOf[i], index);
    auto newFor =
        scf::ForOp::create(b, loc, forOp.getLowerBound(), forOp.getUpperBound(),
                           forOp.getStep(), keptValues(forOp.getInitArgs()));
    Block *newBody = newFor.getBody();
    if (!newBody->empty())
      rewriter.eraseOp(newBody->getTerminator());
    // Demoted iteration arguments are loaded at the start of each iteration.
    OpBuilder bb(newBody, newBody->end());
    SmallVector<Value> argValues{newFor.getInductionVar()};
    unsigned keptIndex = 0;
    for (unsigned i = 0, e = forOp.getNumResults(); i < e; ++i) {
      if (llvm::is_contained(kept, i)) {
        argValues.push_back(newFor.getRegionIterArgs()[keptIndex++]);
        continue;
      }
      argValues.push_back(loadSlot(bb, loc, slotOf[i], index));
      varying.insert(argValues.back());
    }
    // The old body block goes away: nothing may read forOp's body after this.
    rewriter.mergeBlocks(forOp.getBody(), newBody, argValues);
    rewriteYield(newBody->getTerminator());
    if (ivVarying)
      varying.insert(newFor.getInductionVar());
    rebuilt = newFor;
  } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    SmallVector<Type> types;
    for (unsigned i : kept)
      types.push_back(ifOp.getResult(i).getType());
    auto newIf = scf::IfOp::create(b, loc, types, ifOp.getCondition(),
                                   /*addThenBlock=*/false,
                                   /*addElseBlock=*/false);
    newIf.getThenRegion().takeBody(ifOp.getThenRegion());
    rewriteYield(newIf.thenBlock()->getTerminator());
    if (!ifOp.getElseRegion().empty()) {
      newIf.getElseRegion().takeBody(ifOp.getElseRegion());
      rewriteYield(newIf.elseBlock()->getTerminator());
    }
    rebuilt = newIf;
  } else {
    return fail(op, "unexpected op with results around a barrier");
  }

  // Results: kept ones map to the new op, demoted ones are loads after it.
  b.setInsertionPointAfter(rebuilt);
  unsigned keptIndex = 0;
  for (unsigned i = 0, e = op->getNumResults(); i < e; ++i) {
    Value replacement;
    if (llvm::is_contained(kept, i)) {
      replacement = rebuilt->getResult(keptIndex++);
      if (isVarying(op->getResult(i)))
        varying.insert(replacement);
    } else {
      replacement = loadSlot(b, loc, slotOf[i], index);
      varying.insert(replacement);
    }
    op->getResult(i).replaceAllUsesWith(replacement);
  }
  fissionPoints.insert(rebuilt);
  eraseOp(op);
  return rebuilt;
}

LogicalResult ThreadLoopBuilder::process(ThreadRegion &start) {
  ThreadRegion *region = &start;
  while (true) {
    Operation *point = nullptr;
    for (Operation &op : region->getBody()->without_terminator())
      if (isFissionPoint(&op)) {
        point = &op;
        break;
      }
    if (!point)
      return success();
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(point)
            .Case([&](gpu::BarrierOp op) { return handleBarrier(region, op); })
            .Case([&](gpu::AllReduceOp op) {
              return handleAllReduce(region, op);
            })
            .Case([&](gpu::SubgroupReduceOp op) {
              return handleSubgroupReduce(region, op);
            })
            .Case([&](gpu::ShuffleOp op) { return handleShuffle(region, op); })
            .Case([&](scf::ForOp op) { return handleFor(region, op); })
            .Case([&](scf::WhileOp op) { return handleWhile(region, op); })
            .Case([&](scf::IfOp op) {
              return isVarying(op.getCondition())
                         ? handleDivergentIf(region, op)
                         : handleUniformIf(region, op);
            })
            .Default([&](Operation *op) {
              return fail(op, Twine("threads synchronize inside '") +
                                  op->getName().getStringRef() +
                                  "', which cannot be split into thread "
                                  "loops");
            });
    if (failed(result))
      return LogicalResult::failure();
  }
}

LogicalResult ThreadLoopBuilder::handleBarrier(ThreadRegion *&region,
                                               gpu::BarrierOp op) {
  FailureOr<ThreadRegion *> next = splitAfter(*region, op);
  if (failed(next))
    return LogicalResult::failure();
  eraseOp(op);
  region = *next;
  return success();
}

/// Whether any op in [begin, end) contains a block-wide synchronization.
static bool rangeContainsBlockSync(Block::iterator begin, Block::iterator end) {
  for (Operation &op : llvm::make_range(begin, end))
    if (containsBlockSync(&op))
      return true;
  return false;
}

FailureOr<ThreadRegion *> ThreadLoopBuilder::moveOut(ThreadRegion &region,
                                                     Operation *op,
                                                     bool &blockSyncFollows) {
  blockSyncFollows = region.blockSyncFollows ||
                     rangeContainsBlockSync(std::next(op->getIterator()),
                                            region.getBody()->end());
  FailureOr<ThreadRegion *> next = splitAfter(region, op);
  if (failed(next))
    return LogicalResult::failure();
  op->moveAfter(region.loop);
  return next;
}

LogicalResult ThreadLoopBuilder::handleFor(ThreadRegion *&region,
                                           scf::ForOp op) {
  if (isVarying(op.getLowerBound()) || isVarying(op.getUpperBound()) ||
      isVarying(op.getStep()))
    return fail(op, "threads synchronize inside an scf.for whose bounds are "
                    "not provably the same for every thread (they depend on "
                    "the thread id or on memory)");
  FailureOr<Operation *> rebuilt = demoteResults(*region, op, false);
  if (failed(rebuilt))
    return LogicalResult::failure();
  auto forOp = cast<scf::ForOp>(*rebuilt);
  bool follows;
  FailureOr<ThreadRegion *> next = moveOut(*region, forOp, follows);
  if (failed(next))
    return LogicalResult::failure();
  ThreadRegion *outer = region;
  FailureOr<ThreadRegion *> body =
      makeRegionOfBlock(forOp.getBody(), outer->mask, /*inLoop=*/true, follows);
  if (failed(body) || failed(repairUniformUses(forOp)))
    return LogicalResult::failure();
  if (failed(process(**body)))
    return LogicalResult::failure();
  region = *next;
  return success();
}

LogicalResult ThreadLoopBuilder::handleWhile(ThreadRegion *&region,
                                             scf::WhileOp op) {
  scf::ConditionOp cond = op.getConditionOp();
  if (isVarying(cond.getCondition()))
    return fail(op,
                "threads synchronize inside an scf.while whose condition is "
                "not provably the same for every thread");
  if (llvm::any_of(op.getBeforeArguments(),
                   [&](Value v) { return isVarying(v); }) ||
      llvm::any_of(op.getAfterArguments(),
                   [&](Value v) { return isVarying(v); }))
    return fail(op, "threads synchronize inside an scf.while with loop-carried "
                    "values not provably the same for every thread");
  for (Operation &nested : op.getBefore().front().without_terminator())
    if (!isRecomputable(&nested))
      return fail(&nested, "the condition of an scf.while in which threads "
                           "synchronize has side effects");
  bool follows;
  FailureOr<ThreadRegion *> next = moveOut(*region, op, follows);
  if (failed(next))
    return LogicalResult::failure();
  FailureOr<ThreadRegion *> body = makeRegionOfBlock(
      &op.getAfter().front(), region->mask, /*inLoop=*/true, follows);
  if (failed(body) || failed(repairUniformUses(op)))
    return LogicalResult::failure();
  if (failed(process(**body)))
    return LogicalResult::failure();
  region = *next;
  return success();
}

LogicalResult ThreadLoopBuilder::handleUniformIf(ThreadRegion *&region,
                                                 scf::IfOp op) {
  FailureOr<Operation *> rebuilt = demoteResults(*region, op, false);
  if (failed(rebuilt))
    return LogicalResult::failure();
  auto ifOp = cast<scf::IfOp>(*rebuilt);
  bool follows;
  FailureOr<ThreadRegion *> next = moveOut(*region, ifOp, follows);
  if (failed(next))
    return LogicalResult::failure();
  SmallVector<ThreadRegion *, 2> branches;
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()}) {
    if (!block || block->without_terminator().empty())
      continue;
    FailureOr<ThreadRegion *> branch =
        makeRegionOfBlock(block, region->mask, region->inLoop, follows);
    if (failed(branch))
      return LogicalResult::failure();
    branches.push_back(*branch);
  }
  if (failed(repairUniformUses(ifOp)))
    return LogicalResult::failure();
  for (ThreadRegion *branch : branches)
    if (failed(process(*branch)))
      return LogicalResult::failure();
  region = *next;
  return success();
}

LogicalResult ThreadLoopBuilder::handleDivergentIf(ThreadRegion *&region,
                                                   scf::IfOp op) {
  auto regionSync = [](Region &r) {
    return !r.empty() &&
           rangeContainsBlockSync(r.front().begin(), r.front().end());
  };
  bool thenHasBlockSync = regionSync(op.getThenRegion());
  bool elseHasBlockSync = regionSync(op.getElseRegion());
  if (thenHasBlockSync || elseHasBlockSync) {
    if (thenHasBlockSync && elseHasBlockSync)
      return fail(op, "both branches of an scf.if whose condition differs "
                      "between threads synchronize the block");
    if (region->inLoop)
      return fail(op, "a block-wide barrier under a condition that differs "
                      "between threads, inside a loop");
    if (region->blockSyncFollows ||
        rangeContainsBlockSync(std::next(op->getIterator()),
                               region->getBody()->end()))
      return fail(op, "a block-wide barrier under a condition that differs "
                      "between threads, and the threads that skip it reach "
                      "another barrier");
  }
  FailureOr<Operation *> rebuilt = demoteResults(*region, op, true);
  if (failed(rebuilt))
    return LogicalResult::failure();
  auto ifOp = cast<scf::IfOp>(*rebuilt);
  Value cond = ifOp.getCondition();
  bool follows = region->blockSyncFollows ||
                 rangeContainsBlockSync(std::next(ifOp->getIterator()),
                                        region->getBody()->end());
  FailureOr<ThreadRegion *> next = splitAfter(*region, ifOp);
  if (failed(next))
    return LogicalResult::failure();
  // The branches become predicated regions between the two halves, in
  // program order: then, else.
  ifOp->moveAfter(region->loop);
  SmallVector<ThreadRegion *, 2> branches;
  for (auto [block, negate] : {std::make_pair(ifOp.thenBlock(), false),
                               std::make_pair(ifOp.elseBlock(), true)}) {
    if (!block || block->without_terminator().empty())
      continue;
    SmallVector<MaskTerm> mask(region->mask);
    mask.push_back({cond, negate});
    FailureOr<ThreadRegion *> branch =
        makeRegionOfBlock(block, mask, region->inLoop, follows);
    if (failed(branch))
      return LogicalResult::failure();
    (*branch)->loop->moveBefore(ifOp);
    branches.push_back(*branch);
  }
  eraseOp(ifOp);
  for (ThreadRegion *branch : branches)
    if (failed(process(*branch)))
      return LogicalResult::failure();
  region = *next;
  return success();
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

Value ThreadLoopBuilder::combineKind(OpBuilder &b, Location loc,
                                     gpu::AllReduceOperation kind, Value acc,
                                     Value value) {
  // GPU reductions have no defined order: floating-point ones reassociate,
  // which lets LLVM vectorize the loop over the threads' values.
  auto fastmath = arith::FastMathFlagsAttr::get(b.getContext(),
                                                arith::FastMathFlags::reassoc);
  return vector::makeArithReduction(b, loc, gpu::convertReductionKind(kind),
                                    value, acc, fastmath);
}

std::optional<Value>
ThreadLoopBuilder::getIdentity(OpBuilder &b, Location loc,
                               gpu::AllReduceOperation kind, Type type) {
  using K = arith::AtomicRMWKind;
  using G = gpu::AllReduceOperation;
  if (!isa<IntegerType, FloatType>(type))
    return std::nullopt;
  bool isFloat = isa<FloatType>(type);
  std::optional<K> atomic;
  switch (kind) {
  case G::ADD:
    atomic = isFloat ? K::addf : K::addi;
    break;
  case G::MUL:
    atomic = isFloat ? K::mulf : K::muli;
    break;
  case G::MINUI:
    atomic = K::minu;
    break;
  case G::MINSI:
    atomic = K::mins;
    break;
  case G::MAXUI:
    atomic = K::maxu;
    break;
  case G::MAXSI:
    atomic = K::maxs;
    break;
  case G::MINNUMF:
    atomic = K::minnumf;
    break;
  case G::MAXNUMF:
    atomic = K::maxnumf;
    break;
  case G::MINIMUMF:
    atomic = K::minimumf;
    break;
  case G::MAXIMUMF:
    atomic = K::maximumf;
    break;
  case G::AND:
    atomic = K::andi;
    break;
  case G::OR:
    atomic = K::ori;
    break;
  case G::XOR:
    atomic = K::xori;
    break;
  }
  if (!atomic)
    return std::nullopt;
  return arith::getIdentityValue(*atomic, type, b, loc);
}

Value ThreadLoopBuilder::combine(OpBuilder &b, Location loc,
                                 gpu::AllReduceOp op, Value acc, Value value) {
  if (std::optional<gpu::AllReduceOperation> kind = op.getOp())
    return combineKind(b, loc, *kind, acc, value);
  // Region form: the body combines (lhs, rhs) and yields the result.
  Block &body = op.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArgument(0), acc);
  mapping.map(body.getArgument(1), value);
  for (Operation &nested : body.without_terminator())
    b.clone(nested, mapping);
  return mapping.lookupOrDefault(body.getTerminator()->getOperand(0));
}

bool ThreadLoopBuilder::isWarpUniform(Value value, unsigned depth) {
  if (!isVarying(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16)
    return false;
  // The subgroup of a linear thread id: id / (a multiple of 32).
  APInt divisor;
  if (isa<arith::DivUIOp>(def) && linearIds.contains(def->getOperand(0)) &&
      matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) &&
      divisor.isStrictlyPositive() &&
      divisor.getZExtValue() % OFFLOAD_HOST_SUBGROUP_SIZE == 0)
    return true;
  return isRecomputable(def) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isWarpUniform(operand, depth + 1);
         });
}

bool ThreadLoopBuilder::hasWarpUniformMask(ThreadRegion &region) {
  return llvm::all_of(region.mask, [&](const MaskTerm &term) {
    return isWarpUniform(term.cond, 0);
  });
}

LogicalResult ThreadLoopBuilder::storeMask(ThreadRegion &region) {
  for (const MaskTerm &term : region.mask)
    if (failed(getSlot(term.cond)))
      return fail(kernel, "a condition that differs between threads could "
                          "not be stored");
  return success();
}

Value ThreadLoopBuilder::isActiveAt(OpBuilder &b, Location loc,
                                    ThreadRegion &region, Value index) {
  // Outer conditions first: an inner condition is only stored by threads for
  // which the outer ones hold, so it is read only then.
  Value active;
  for (const MaskTerm &term : region.mask) {
    Value slot = slots.lookup(term.cond);
    assert(slot && "storeMask must run first");
    auto read = [&](OpBuilder &rb, Location rl) -> Value {
      Value v = loadSlot(rb, rl, slot, index);
      if (term.negate)
        v = arith::XOrIOp::create(rb, rl, v,
                                  arith::ConstantIntOp::create(rb, rl, 1, 1));
      return v;
    };
    if (!active) {
      active = read(b, loc);
      continue;
    }
    auto ifOp = scf::IfOp::create(
        b, loc, active,
        [&](OpBuilder &tb, Location tl) {
          scf::YieldOp::create(tb, tl, read(tb, tl));
        },
        [&](OpBuilder &eb, Location el) {
          scf::YieldOp::create(
              eb, el, ValueRange{arith::ConstantIntOp::create(eb, el, 0, 1)});
        });
    active = ifOp.getResult(0);
  }
  return active;
}

FailureOr<ThreadRegion *> ThreadLoopBuilder::storeAndSplit(ThreadRegion &region,
                                                           Operation *op,
                                                           Value value,
                                                           Value &slot) {
  slot = createSlotArray(value.getType());
  OpBuilder b(op);
  storeSlot(b, op->getLoc(), value, slot, region.linearId);
  return splitAfter(region, op);
}

LogicalResult ThreadLoopBuilder::handleAllReduce(ThreadRegion *&region,
                                                 gpu::AllReduceOp op) {
  Value value = op.getValue();
  Type type = value.getType();
  if (!isStorable(type))
    return fail(op, Twine("gpu.all_reduce of ") + typeString(type) +
                        " is not supported");
  if (!op.getOp())
    for (Operation &nested : op.getBody().front().without_terminator())
      if (!isRecomputable(&nested))
        return fail(&nested, "the body of a gpu.all_reduce has side effects");
  Location loc = op.getLoc();
  if (failed(storeMask(*region)))
    return LogicalResult::failure();
  Value slot;
  FailureOr<ThreadRegion *> next = storeAndSplit(*region, op, value, slot);
  if (failed(next))
    return LogicalResult::failure();

  // Between the halves: one reduction over the stored values.
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(region->loop);
  Value zero = zeroIndex, one = oneIndex;
  Value result;
  std::optional<Value> identity;
  if (std::optional<gpu::AllReduceOperation> kind = op.getOp())
    identity = getIdentity(b, loc, *kind, type);
  if (identity) {
    // From the identity over every thread: aligned vector loads of the
    // per-thread array (no store-to-load forwarding across vectors).
    auto loop = scf::ForOp::create(
        b, loc, zero, numThreads, one, ValueRange{*identity},
        [&](OpBuilder &lb, Location ll, Value t, ValueRange acc) {
          Value v = loadSlot(lb, ll, slot, t);
          if (!region->mask.empty())
            v = arith::SelectOp::create(lb, ll, isActiveAt(lb, ll, *region, t),
                                        v, *identity);
          scf::YieldOp::create(lb, ll, combine(lb, ll, op, acc[0], v));
        });
    result = loop.getResult(0);
    if (region->mask.empty())
      reductions.push_back({region, slot, loop, *op.getOp(), *identity});
  } else if (region->mask.empty()) {
    Value first = loadSlot(b, loc, slot, zero);
    auto loop = scf::ForOp::create(
        b, loc, one, numThreads, one, ValueRange{first},
        [&](OpBuilder &lb, Location ll, Value t, ValueRange acc) {
          Value v = loadSlot(lb, ll, slot, t);
          scf::YieldOp::create(lb, ll, combine(lb, ll, op, acc[0], v));
        });
    result = loop.getResult(0);
  } else {
    Value none = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    Value noneYet = arith::ConstantIntOp::create(b, loc, 0, 1);
    auto loop = scf::ForOp::create(
        b, loc, zero, numThreads, one, ValueRange{none, noneYet},
        [&](OpBuilder &lb, Location ll, Value t, ValueRange acc) {
          Value active = isActiveAt(lb, ll, *region, t);
          Value v = loadSlot(lb, ll, slot, t);
          Value combined = combine(lb, ll, op, acc[0], v);
          Value next = arith::SelectOp::create(lb, ll, acc[1], combined, v);
          Value acc0 = arith::SelectOp::create(lb, ll, active, next, acc[0]);
          Value found = arith::OrIOp::create(lb, ll, acc[1], active);
          scf::YieldOp::create(lb, ll, ValueRange{acc0, found});
        });
    result = loop.getResult(0);
  }
  op.getResult().replaceAllUsesWith(result);
  eraseOp(op);
  region = *next;
  return success();
}

LogicalResult
ThreadLoopBuilder::handleSubgroupReduce(ThreadRegion *&region,
                                        gpu::SubgroupReduceOp op) {
  Value value = op.getValue();
  Type type = value.getType();
  if (!isStorable(type))
    return fail(op, Twine("gpu.subgroup_reduce of ") + typeString(type) +
                        " is not supported");
  int64_t size = op.getClusterSize().value_or(OFFLOAD_HOST_SUBGROUP_SIZE);
  int64_t stride = op.getClusterStride();
  if (size * stride > OFFLOAD_HOST_SUBGROUP_SIZE)
    return fail(op, "the clusters of a gpu.subgroup_reduce do not fit a "
                    "subgroup of 32 threads");
  Location loc = op.getLoc();
  // Members are in the thread's subgroup (see handleShuffle).
  bool masked = !region->mask.empty() && !hasWarpUniformMask(*region);
  if (masked && failed(storeMask(*region)))
    return LogicalResult::failure();
  Value slot;
  FailureOr<ThreadRegion *> next = storeAndSplit(*region, op, value, slot);
  if (failed(next))
    return LogicalResult::failure();
  Value results = createSlotArray(type);

  // Between the halves: the reduction of each cluster, stored at its first
  // lane. Clusters are `size` lanes `stride` apart within groups of
  // size * stride lanes; members past the block or not taking part are
  // skipped.
  OpBuilder b(op->getContext());
  b.setInsertionPointAfter(region->loop);
  Value zero = zeroIndex, one = oneIndex;
  Value span = arith::ConstantIndexOp::create(b, loc, size * stride);
  Value strideValue = arith::ConstantIndexOp::create(b, loc, stride);
  Value sizeValue = arith::ConstantIndexOp::create(b, loc, size);
  // Leaders: lanes whose position in their group is < stride. Iterate over
  // groups g and offsets j < stride: leader = g * span + j.
  Value groups = arith::CeilDivUIOp::create(b, loc, numThreads, span);
  scf::ForOp::create(
      b, loc, zero, groups, one, ValueRange{},
      [&](OpBuilder &gb, Location gl, Value g, ValueRange) {
        Value base = arith::MulIOp::create(gb, gl, g, span);
        scf::ForOp::create(
            gb, gl, zero, strideValue, one, ValueRange{},
            [&](OpBuilder &jb, Location jl, Value j, ValueRange) {
              Value leader = arith::AddIOp::create(jb, jl, base, j);
              Value exists = arith::CmpIOp::create(
                  jb, jl, arith::CmpIPredicate::ult, leader, numThreads);
              scf::IfOp::create(
                  jb, jl, exists, [&](OpBuilder &ib, Location il) {
                    // From the identity when there is one (no "found yet"
                    // flag to carry).
                    std::optional<Value> identity =
                        getIdentity(ib, il, op.getOp(), type);
                    Value none = identity ? *identity
                                          : arith::ConstantOp::create(
                                                ib, il, ib.getZeroAttr(type))
                                                .getResult();
                    Value noneYet = arith::ConstantIntOp::create(
                        ib, il, identity ? 1 : 0, 1);
                    auto members = scf::ForOp::create(
                        ib, il, zero, sizeValue, one, ValueRange{none, noneYet},
                        [&](OpBuilder &kb, Location kl, Value k,
                            ValueRange acc) {
                          Value member = arith::AddIOp::create(
                              kb, kl, leader,
                              arith::MulIOp::create(kb, kl, k, strideValue));
                          Value inBlock = arith::CmpIOp::create(
                              kb, kl, arith::CmpIPredicate::ult, member,
                              numThreads);
                          // Clamp the index of members past the block.
                          Value index = arith::SelectOp::create(kb, kl, inBlock,
                                                                member, leader);
                          Value takes = inBlock;
                          if (masked)
                            takes = arith::AndIOp::create(
                                kb, kl, takes,
                                isActiveAt(kb, kl, *region, index));
                          Value v = loadSlot(kb, kl, slot, index);
                          Value combined =
                              combineKind(kb, kl, op.getOp(), acc[0], v);
                          Value next = arith::SelectOp::create(kb, kl, acc[1],
                                                               combined, v);
                          Value acc0 = arith::SelectOp::create(kb, kl, takes,
                                                               next, acc[0]);
                          Value found =
                              arith::OrIOp::create(kb, kl, acc[1], takes);
                          scf::YieldOp::create(kb, kl, ValueRange{acc0, found});
                        });
                    storeSlot(ib, il, members.getResult(0), results, leader);
                    scf::YieldOp::create(ib, il);
                  });
              scf::YieldOp::create(jb, jl);
            });
        scf::YieldOp::create(gb, gl);
      });

  // After: each thread reads its cluster's result.
  ThreadRegion &after = **next;
  OpBuilder hb = headerBuilder(after);
  Value t = after.linearId;
  Value position = arith::RemUIOp::create(hb, loc, t, span);
  Value lane = arith::RemUIOp::create(hb, loc, position, strideValue);
  Value groupBase = arith::SubIOp::create(hb, loc, t, position);
  Value leader = arith::AddIOp::create(hb, loc, groupBase, lane);
  Value result = loadSlot(hb, loc, results, leader);
  noteHeaderOp(after, result.getDefiningOp());
  varying.insert(result);
  op.getResult().replaceAllUsesWith(result);
  eraseOp(op);
  region = *next;
  return success();
}

LogicalResult ThreadLoopBuilder::handleShuffle(ThreadRegion *&region,
                                               gpu::ShuffleOp op) {
  Value value = op.getValue();
  Type type = value.getType();
  if (!isStorable(type))
    return fail(op, Twine("gpu.shuffle of ") + typeString(type) +
                        " is not supported");
  Location loc = op.getLoc();
  // Sources are in the thread's subgroup: with a mask that is the same for
  // a whole subgroup, they take part exactly when the thread does.
  bool warpUniformMask = hasWarpUniformMask(*region);
  if (!warpUniformMask && failed(storeMask(*region)))
    return LogicalResult::failure();
  Value slot;
  FailureOr<ThreadRegion *> next = storeAndSplit(*region, op, value, slot);
  if (failed(next))
    return LogicalResult::failure();
  ThreadRegion &after = **next;
  FailureOr<Value> offset = materialize(op.getOffset(), after);
  FailureOr<Value> width = materialize(op.getWidth(), after);
  if (failed(offset) || failed(width))
    return LogicalResult::failure();

  // After: each thread reads its source lane's value (semantics of the fiber
  // scheduler, lib/Runtime/plugins/host/Fiber.cpp): XOR lane ^ offset, UP
  // lane - offset, DOWN lane + offset, IDX offset; valid when the source is
  // in [0, width), inside the block and takes part.
  OpBuilder hb = headerBuilder(after);
  Type i32 = hb.getI32Type();
  Value t = after.linearId;
  Value subgroup =
      arith::ConstantIndexOp::create(hb, loc, OFFLOAD_HOST_SUBGROUP_SIZE);
  Value laneIndex = arith::RemUIOp::create(hb, loc, t, subgroup);
  Value warpBase = arith::SubIOp::create(hb, loc, t, laneIndex);
  Value lane = arith::IndexCastOp::create(hb, loc, i32, laneIndex);
  Value source;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    source = arith::XOrIOp::create(hb, loc, lane, *offset);
    break;
  case gpu::ShuffleMode::UP:
    source = arith::SubIOp::create(hb, loc, lane, *offset);
    break;
  case gpu::ShuffleMode::DOWN:
    source = arith::AddIOp::create(hb, loc, lane, *offset);
    break;
  case gpu::ShuffleMode::IDX:
    source = *offset;
    break;
  }
  Value zero32 = arith::ConstantIntOp::create(hb, loc, 0, 32);
  Value valid = arith::AndIOp::create(
      hb, loc,
      arith::CmpIOp::create(hb, loc, arith::CmpIPredicate::sge, source, zero32),
      arith::CmpIOp::create(hb, loc, arith::CmpIPredicate::slt, source,
                            *width));
  // Only in-range sources are turned into an index.
  Value sourceLane = arith::SelectOp::create(hb, loc, valid, source, zero32);
  Value sourceIndex = arith::AddIOp::create(
      hb, loc, warpBase,
      arith::IndexCastOp::create(hb, loc, hb.getIndexType(), sourceLane));
  valid = arith::AndIOp::create(hb, loc, valid,
                                arith::CmpIOp::create(hb, loc,
                                                      arith::CmpIPredicate::ult,
                                                      sourceIndex, numThreads));
  Value index = arith::SelectOp::create(hb, loc, valid, sourceIndex, t);
  if (!region->mask.empty() && !warpUniformMask) {
    // The source must take part: it runs the region of the shuffle.
    valid = arith::AndIOp::create(hb, loc, valid,
                                  isActiveAt(hb, loc, *region, index));
    index = arith::SelectOp::create(hb, loc, valid, index, t);
  }
  Value result;
  APInt offsetConstant, widthConstant;
  if (warpUniformMask && staticNumThreads &&
      isa<IntegerType, FloatType>(type) &&
      *staticNumThreads % OFFLOAD_HOST_SUBGROUP_SIZE == 0 &&
      matchPattern(*offset, m_ConstantInt(&offsetConstant)) &&
      matchPattern(*width, m_ConstantInt(&widthConstant))) {
    // A constant exchange in whole subgroups: a loop over subgroups that
    // permutes each one's 32 values with one vector shuffle (constant
    // indices), then a contiguous read, instead of one indexed (gathered)
    // read per thread.
    Value exchanged = createSlotArray(type);
    OpBuilder xb(after.loop);
    int64_t c = offsetConstant.getSExtValue(), w = widthConstant.getSExtValue();
    SmallVector<int64_t> permutation;
    for (int64_t l = 0; l < OFFLOAD_HOST_SUBGROUP_SIZE; ++l) {
      int64_t source = op.getMode() == gpu::ShuffleMode::XOR    ? l ^ c
                       : op.getMode() == gpu::ShuffleMode::UP   ? l - c
                       : op.getMode() == gpu::ShuffleMode::DOWN ? l + c
                                                                : c;
      permutation.push_back(source < 0 || source >= w ? l : source);
    }
    auto vectorType = VectorType::get({OFFLOAD_HOST_SUBGROUP_SIZE}, type);
    Value subgroupSize =
        arith::ConstantIndexOp::create(xb, loc, OFFLOAD_HOST_SUBGROUP_SIZE);
    scf::ForOp::create(
        xb, loc, zeroIndex, numThreads, subgroupSize, ValueRange{},
        [&](OpBuilder &wb, Location wl, Value base, ValueRange) {
          Value lanes = vector::LoadOp::create(wb, wl, vectorType, slot,
                                               ValueRange{base});
          Value permuted =
              vector::ShuffleOp::create(wb, wl, lanes, lanes, permutation);
          vector::StoreOp::create(wb, wl, permuted, exchanged,
                                  ValueRange{base});
          scf::YieldOp::create(wb, wl);
        });
    result = loadSlot(hb, loc, exchanged, t);
  } else {
    result = loadSlot(hb, loc, slot, index);
  }
  noteHeaderOp(after, result.getDefiningOp());
  varying.insert(result);
  varying.insert(valid);
  op.getShuffleResult().replaceAllUsesWith(result);
  op.getValid().replaceAllUsesWith(valid);
  eraseOp(op);
  region = *next;
  return success();
}

//===----------------------------------------------------------------------===//
// Finalization
//===----------------------------------------------------------------------===//

FailureOr<Value> ThreadLoopBuilder::recomputeFresh(OpBuilder &b, Value value,
                                                   ThreadRegion &target,
                                                   IRMapping &mapping,
                                                   unsigned &budget) {
  ThreadRegion *source = getRegionOfValue(value);
  if (!source)
    return value;
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  if (auto arg = dyn_cast<BlockArgument>(value);
      arg && arg.getOwner() == source->getBody()) {
    Value iv = target.getIVs()[arg.getArgNumber()];
    mapping.map(value, iv);
    return iv;
  }
  Operation *def = value.getDefiningOp();
  if (!def || !isPure(def) || def->getNumRegions() || budget == 0)
    return LogicalResult::failure();
  --budget;
  for (Value operand : def->getOperands())
    if (failed(recomputeFresh(b, operand, target, mapping, budget)))
      return LogicalResult::failure();
  Operation *clone = b.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

FailureOr<Value> ThreadLoopBuilder::cloneWithout(Value value,
                                                 ThreadRegion &source, Value iv,
                                                 Operation *before,
                                                 IRMapping &mapping) {
  if (value == iv) {
    OpBuilder b(before);
    return arith::ConstantOp::create(b, value.getLoc(),
                                     b.getZeroAttr(value.getType()))
        .getResult();
  }
  if (getRegionOfValue(value) != &source)
    return getRegionOfValue(value) ? FailureOr<Value>(LogicalResult::failure())
                                   : FailureOr<Value>(value);
  if (Value mapped = mapping.lookupOrNull(value))
    return mapped;
  Operation *def = value.getDefiningOp();
  if (!def || !isPure(def) || def->getNumRegions())
    return LogicalResult::failure();
  for (Value operand : def->getOperands()) {
    FailureOr<Value> mapped =
        cloneWithout(operand, source, iv, before, mapping);
    if (failed(mapped))
      return LogicalResult::failure();
    mapping.map(operand, *mapped);
  }
  OpBuilder b(before);
  Operation *clone = b.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}

std::optional<ThreadLoopBuilder::AffineCompare>
ThreadLoopBuilder::matchAffineCompare(ThreadRegion &source, Value lhs,
                                      arith::CmpIPredicate pred, Value rhs,
                                      Operation *before) {
  // Find the thread dimension d with `iv_d + u PRED n`.
  ValueRange ivs = source.getIVs();
  auto coefficients = [&](Value v) {
    SmallVector<std::optional<int64_t>, 3> result;
    for (Value iv : ivs) {
      DenseMap<Value, std::optional<int64_t>> memo;
      result.push_back(getCoefficient(v, iv, memo));
    }
    return result;
  };
  auto lhsC = coefficients(lhs), rhsC = coefficients(rhs);
  auto isZero = [](ArrayRef<std::optional<int64_t>> cs) {
    return llvm::all_of(cs, [](auto c) { return c && *c == 0; });
  };
  auto unitIn = [](ArrayRef<std::optional<int64_t>> cs) -> int {
    int dim = -1;
    for (auto [d, c] : llvm::enumerate(cs)) {
      if (!c)
        return -1;
      if (*c == 0)
        continue;
      if (*c != 1 || dim >= 0)
        return -1;
      dim = d;
    }
    return dim;
  };
  int dim = unitIn(lhsC);
  if (dim < 0 || !isZero(rhsC)) {
    dim = unitIn(rhsC);
    if (dim < 0 || !isZero(lhsC))
      return std::nullopt;
    std::swap(lhs, rhs);
    pred = swapOperands(pred);
  }
  if (!lhs.getType().isIntOrIndex())
    return std::nullopt;
  IRMapping mapping;
  FailureOr<Value> u = cloneWithout(lhs, source, ivs[dim], before, mapping);
  FailureOr<Value> n = cloneWithout(rhs, source, ivs[dim], before, mapping);
  if (failed(u) || failed(n))
    return std::nullopt;
  return AffineCompare{unsigned(dim), *u, pred, *n, lhs};
}

bool ThreadLoopBuilder::tightenDivRem(ThreadRegion &region, Value lhs,
                                      arith::CmpIPredicate pred, Value rhs) {
  using P = arith::CmpIPredicate;
  APInt divisor, value;
  ThreadRegion *source = getRegionOfValue(lhs);
  if (!source || !matchPattern(rhs, m_ConstantInt(&value)) ||
      value.isNegative())
    return false;
  Operation *def = lhs.getDefiningOp();
  if (!def || def->getNumOperands() != 2 ||
      !matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) ||
      !divisor.isStrictlyPositive())
    return false;
  Value e = def->getOperand(0);
  int64_t c = divisor.getSExtValue(), k = value.getSExtValue();
  OpBuilder b(def);
  b.setInsertionPointAfter(def);
  Location loc = def->getLoc();
  auto compare = [&](P p, int64_t bound) {
    return arith::CmpIOp::create(b, loc, p, e,
                                 arith::ConstantIndexOp::create(b, loc, bound))
        .getResult();
  };
  if (isa<arith::DivUIOp>(def)) {
    // e / c == k  <=>  c k <= e < c k + c;  e / c < k  <=>  e < c k.
    switch (pred) {
    case P::eq: {
      bool low = tightenBounds(region, compare(P::uge, c * k), false);
      bool high = tightenBounds(region, compare(P::ult, c * k + c), false);
      return low && high;
    }
    case P::ult:
      return tightenBounds(region, compare(P::ult, c * k), false);
    case P::uge:
      return tightenBounds(region, compare(P::uge, c * k), false);
    default:
      return false;
    }
  }
  // e % c == k with e a thread id whose loop starts at 0 with step 1: start
  // at k and step by c.
  if (!isa<arith::RemUIOp>(def) || pred != P::eq || k >= c)
    return false;
  auto arg = dyn_cast<BlockArgument>(e);
  if (!arg || arg.getOwner() != source->getBody())
    return false;
  unsigned dim = arg.getArgNumber();
  scf::ParallelOp loop = region.loop;
  if (!matchPattern(loop.getStep()[dim], m_One()))
    return false;
  // The first id >= lb with id % c == k: lb + (k + c - lb % c) % c.
  OpBuilder lb(loop);
  Location l = loop.getLoc();
  Value lower = loop.getLowerBound()[dim];
  Value cValue = arith::ConstantIndexOp::create(lb, l, c);
  Value shift = arith::RemUIOp::create(
      lb, l,
      arith::SubIOp::create(lb, l, arith::ConstantIndexOp::create(lb, l, k + c),
                            arith::RemUIOp::create(lb, l, lower, cValue)),
      cValue);
  loop.getLowerBoundMutable().slice(dim, 1).assign(
      arith::AddIOp::create(lb, l, lower, shift).getResult());
  loop.getStepMutable().slice(dim, 1).assign(cValue);
  return true;
}

bool ThreadLoopBuilder::tightenBounds(ThreadRegion &region, Value cond,
                                      bool negate) {
  auto cmp = cond.getDefiningOp<arith::CmpIOp>();
  ThreadRegion *source = getRegionOfValue(cond);
  if (!cmp || !source)
    return false;
  arith::CmpIPredicate pred = cmp.getPredicate();
  if (negate)
    pred = arith::invertPredicate(pred);
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  // Quotients and remainders by constants (warp and lane ids).
  if (isa_and_nonnull<arith::DivUIOp, arith::RemUIOp>(lhs.getDefiningOp()))
    return tightenDivRem(region, lhs, pred, rhs);
  if (isa_and_nonnull<arith::DivUIOp, arith::RemUIOp>(rhs.getDefiningOp()))
    return tightenDivRem(region, rhs, swapOperands(pred), lhs);
  std::optional<AffineCompare> match =
      matchAffineCompare(*source, lhs, pred, rhs, region.loop);
  // Bounds are index values: an iN comparison, where iv + u may wrap, is
  // only versioned (versionOnBoundsChecks).
  if (!match || match->isNarrow())
    return false;
  unsigned dim = match->dim;
  pred = match->pred;
  bool isSigned;
  bool upper, equal = false;
  int64_t adjust = 0; // n + adjust is the exclusive (upper) or inclusive
                      // (lower) bound of iv + u.
  switch (pred) {
  case arith::CmpIPredicate::ult:
  case arith::CmpIPredicate::slt:
    upper = true;
    break;
  case arith::CmpIPredicate::ule:
  case arith::CmpIPredicate::sle:
    upper = true;
    adjust = 1;
    break;
  case arith::CmpIPredicate::uge:
  case arith::CmpIPredicate::sge:
    upper = false;
    break;
  case arith::CmpIPredicate::ugt:
  case arith::CmpIPredicate::sgt:
    upper = false;
    adjust = 1;
    break;
  case arith::CmpIPredicate::eq:
    // Both: n - u <= iv < n - u + 1.
    upper = false;
    equal = true;
    break;
  default:
    return false;
  }
  isSigned = equal || pred == arith::CmpIPredicate::slt ||
             pred == arith::CmpIPredicate::sle ||
             pred == arith::CmpIPredicate::sge ||
             pred == arith::CmpIPredicate::sgt;
  // An unsigned comparison is one of the integers only when iv + u cannot
  // wrap below zero (`tid - 1 < n` is false for tid 0).
  if (!isSigned && !isNonNegative(match->expr, source->getIVs()))
    return false;
  // u (the offset of the thread id) and n, computed before the loop.
  Operation *before = region.loop;
  Value *u = &match->offset, *n = &match->limit;
  OpBuilder b(before);
  Location loc = cond.getLoc();
  Value limit = *n;
  if (adjust)
    limit = arith::AddIOp::create(
        b, loc, limit, arith::ConstantIndexOp::create(b, loc, adjust));
  // bound = limit - u, clamped at 0 for unsigned comparisons.
  Value bound = arith::SubIOp::create(b, loc, limit, *u);
  if (!isSigned) {
    Value above =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, limit, *u);
    bound = arith::SelectOp::create(b, loc, above, bound, zeroIndex);
  }
  scf::ParallelOp loop = region.loop;
  if (equal) {
    Value lb = loop.getLowerBound()[dim], ub = loop.getUpperBound()[dim];
    Value next = arith::AddIOp::create(b, loc, bound, oneIndex);
    loop.getLowerBoundMutable().slice(dim, 1).assign(
        arith::MaxSIOp::create(b, loc, lb, bound).getResult());
    loop.getUpperBoundMutable().slice(dim, 1).assign(
        arith::MinSIOp::create(b, loc, ub, next).getResult());
  } else if (upper) {
    Value ub = loop.getUpperBound()[dim];
    auto clamp = arith::MinSIOp::create(b, loc, ub, bound);
    loop.getUpperBoundMutable().slice(dim, 1).assign(clamp.getResult());
    clampedBounds.push_back({clamp, ub});
  } else {
    Value lb = loop.getLowerBound()[dim];
    loop.getLowerBoundMutable().slice(dim, 1).assign(
        arith::MaxSIOp::create(b, loc, lb, bound).getResult());
  }
  return true;
}

/// The conditions joined by `arith.andi` in \p cond.
static SmallVector<Value> getConjuncts(Value cond) {
  SmallVector<Value> atoms{cond};
  for (unsigned i = 0; i < atoms.size();)
    if (auto andOp = atoms[i].getDefiningOp<arith::AndIOp>()) {
      atoms.push_back(andOp.getRhs());
      atoms[i] = andOp.getLhs();
    } else {
      ++i;
    }
  return atoms;
}

bool ThreadLoopBuilder::boundGuardedBody(ThreadRegion &region) {
  // The body must be pure computations and one scf.if without else or
  // results: `if (tid == 0) ...`, `if (i < n) ...`.
  Block *body = region.getBody();
  scf::IfOp guard;
  for (Operation &op : body->without_terminator()) {
    if (auto ifOp = dyn_cast<scf::IfOp>(op); ifOp && !guard &&
                                             ifOp.getNumResults() == 0 &&
                                             ifOp.getElseRegion().empty()) {
      guard = ifOp;
      continue;
    }
    // Pure computations and reads can run for fewer threads.
    if (!isRecomputable(&op) && !isReadOnly(&op))
      return false;
  }
  if (!guard || guard->getNextNode() != body->getTerminator())
    return false;
  // Every conjunct must become a bound (the loop is otherwise unchanged).
  SmallVector<Value> atoms = getConjuncts(guard.getCondition());
  scf::ParallelOp loop = region.loop;
  SmallVector<Value> lbs(loop.getLowerBound()), ubs(loop.getUpperBound()),
      steps(loop.getStep());
  for (Value atom : atoms)
    if (!tightenBounds(region, atom, /*negate=*/false)) {
      loop.getLowerBoundMutable().assign(lbs);
      loop.getUpperBoundMutable().assign(ubs);
      loop.getStepMutable().assign(steps);
      return false;
    }
  Block *then = guard.thenBlock();
  then->getTerminator()->erase();
  body->getOperations().splice(guard->getIterator(), then->getOperations());
  guard.erase();
  return true;
}

void ThreadLoopBuilder::versionOnBoundsChecks(ThreadRegion &region) {
  using P = arith::CmpIPredicate;
  scf::ParallelOp loop = region.loop;
  unsigned numOps = 0;
  loop.getBody()->walk([&](Operation *) { ++numOps; });
  if (numOps > kMaxVersionedOps)
    return;
  // Comparisons of a thread id plus a uniform offset with a uniform value.
  SmallVector<std::pair<arith::CmpIOp, AffineCompare>> checks;
  loop.getBody()->walk([&](arith::CmpIOp cmp) {
    if (checks.size() < kMaxVersionedChecks && cmp.getType().isInteger(1))
      if (std::optional<AffineCompare> match = matchAffineCompare(
              region, cmp.getLhs(), cmp.getPredicate(), cmp.getRhs(), loop))
        checks.push_back({cmp, *match});
  });
  if (checks.empty())
    return;
  // A check whose split point is the same for every block (`tid >= offset`)
  // splits the loop; checks that depend on the block (`i < n` for
  // i = block * size + tid) version it: interior blocks then run loops with
  // their static trip count.
  if (checks.size() == 1 && !checks[0].second.isNarrow() &&
      !dependsOnBlockId(checks[0].second.offset) &&
      !dependsOnBlockId(checks[0].second.limit) &&
      splitOnCheck(region, checks[0].first, checks[0].second))
    return;
  // For each, the outcome the block's interior has, and a uniform test that
  // it holds for every thread x in [lb, ub): the range of x + u is
  // [lb + u, ub - 1 + u].
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value fast;
  SmallVector<std::pair<arith::CmpIOp, bool>> assumed;
  for (auto &[cmp, match] : checks) {
    Value first = loop.getLowerBound()[match.dim];
    Value last =
        arith::SubIOp::create(b, loc, loop.getUpperBound()[match.dim],
                              oneIndex);
    Type type = match.offset.getType();
    if (match.isNarrow()) {
      first = arith::IndexCastOp::create(b, loc, type, first);
      last = arith::IndexCastOp::create(b, loc, type, last);
    }
    Value lo = arith::AddIOp::create(b, loc, first, match.offset);
    Value hi = arith::AddIOp::create(b, loc, last, match.offset);
    auto cmpi = [&](P p, Value l, Value r) {
      return arith::CmpIOp::create(b, loc, p, l, r).getResult();
    };
    bool isUnsigned = match.pred == P::ult || match.pred == P::ule ||
                      match.pred == P::ugt || match.pred == P::uge;
    Value test;
    bool outcome = true;
    switch (match.pred) {
    case P::ult:
    case P::slt:
      test = cmpi(isUnsigned ? P::ult : P::slt, hi, match.limit);
      break;
    case P::ule:
    case P::sle:
      test = cmpi(isUnsigned ? P::ule : P::sle, hi, match.limit);
      break;
    case P::ugt:
    case P::sgt:
      test = cmpi(isUnsigned ? P::ugt : P::sgt, lo, match.limit);
      break;
    case P::uge:
    case P::sge:
      test = cmpi(isUnsigned ? P::uge : P::sge, lo, match.limit);
      break;
    case P::eq:
    case P::ne:
      // Assume no thread hits the value: limit outside [lo, hi].
      outcome = match.pred == P::ne;
      test = arith::OrIOp::create(b, loc, cmpi(P::slt, match.limit, lo),
                                  cmpi(P::sgt, match.limit, hi));
      break;
    }
    if (match.isNarrow()) {
      // x + u must not wrap at 2^N between lo and hi (ub - lb < 2^31): then
      // lo <= hi in the comparison's order, and every x + u lies between.
      P order = isUnsigned ? P::ule : P::sle;
      test = arith::AndIOp::create(b, loc, test, cmpi(order, lo, hi));
    } else if (isUnsigned) {
      // x + u must not wrap for unsigned comparisons: lo >= 0.
      test = arith::AndIOp::create(b, loc, test, cmpi(P::sge, lo, zeroIndex));
    }
    fast = fast ? arith::AndIOp::create(b, loc, fast, test).getResult() : test;
    assumed.push_back({cmp, outcome});
  }
  // if (fast) { the loop with those outcomes } else { the loop }.
  auto ifOp = scf::IfOp::create(b, loc, loop.getResultTypes(), fast,
                                /*withElseRegion=*/true);
  versionTests.push_back(fast);
  bool hasResults = loop.getNumResults() != 0;
  // Without results the builder adds the yields.
  OpBuilder tb = hasResults ? OpBuilder::atBlockEnd(ifOp.thenBlock())
                            : ifOp.getThenBodyBuilder();
  IRMapping mapping;
  Operation *clone = tb.clone(*loop, mapping);
  if (hasResults)
    scf::YieldOp::create(tb, loc, clone->getResults());
  for (auto [cmp, outcome] : assumed) {
    Value copy = mapping.lookup(cmp.getResult());
    OpBuilder cb(clone);
    copy.replaceAllUsesWith(
        arith::ConstantIntOp::create(cb, loc, outcome ? 1 : 0, 1).getResult());
  }
  if (!hasResults) {
    loop->moveBefore(ifOp.elseBlock()->getTerminator());
    return;
  }
  loop->replaceAllUsesWith(ifOp.getResults());
  loop->moveBefore(ifOp.elseBlock(), ifOp.elseBlock()->end());
  OpBuilder eb = OpBuilder::atBlockEnd(ifOp.elseBlock());
  scf::YieldOp::create(eb, loc, loop->getResults());
}

LogicalResult ThreadLoopBuilder::applyMasks() {
  for (const std::unique_ptr<ThreadRegion> &region : regions) {
    if (region->mask.empty()) {
      boundGuardedBody(*region);
      continue;
    }
    // Conditions that bound a thread id by uniform values become loop bounds
    // (the common `if (i < n)`): the thread loops stay branch-free.
    SmallVector<MaskTerm> guards;
    for (const MaskTerm &term : region->mask) {
      SmallVector<Value> atoms{term.cond};
      if (!term.negate) {
        // Split conjunctions.
        for (unsigned i = 0; i < atoms.size(); ++i)
          if (auto andOp = atoms[i].getDefiningOp<arith::AndIOp>();
              andOp && getRegionOfValue(atoms[i])) {
            atoms.push_back(andOp.getRhs());
            atoms[i] = andOp.getLhs();
            --i;
          }
      }
      if (atoms.size() == 1) {
        if (!tightenBounds(*region, term.cond, term.negate))
          guards.push_back(term);
        continue;
      }
      for (Value atom : atoms)
        if (!tightenBounds(*region, atom, false))
          guards.push_back({atom, false});
    }
    if (guards.empty()) {
      boundGuardedBody(*region);
      continue;
    }
    Block *body = region->getBody();
    SmallVector<Operation *> ops;
    for (Operation &op : body->without_terminator())
      ops.push_back(&op);
    OpBuilder b(body, body->begin());
    Location loc = region->loop.getLoc();
    Block *inner = nullptr;
    for (const MaskTerm &term : guards) {
      // The condition, recomputed from the thread ids when it is a cheap
      // speculatable function of them, else read from its per-thread array.
      IRMapping mapping;
      unsigned budget = kMaxRematerializedOps;
      FailureOr<Value> cond =
          recomputeFresh(b, term.cond, *region, mapping, budget);
      if (failed(cond)) {
        FailureOr<Value> slot = getSlot(term.cond);
        if (failed(slot))
          return fail(kernel, "a condition that differs between threads "
                              "could not be stored");
        // The linear id is computed in the region's header, which moves into
        // the guarded body: compute it again here.
        ValueRange ivs = region->getIVs();
        Value linear = ivs[2];
        if (!oneDimensional) {
          Value yz = arith::AddIOp::create(
              b, loc, ivs[1], arith::MulIOp::create(b, loc, ivs[0], dims[1]));
          linear = arith::AddIOp::create(
              b, loc, ivs[2], arith::MulIOp::create(b, loc, yz, dims[2]));
        }
        cond = loadSlot(b, loc, *slot, linear);
      }
      Value c = *cond;
      if (term.negate)
        c = arith::XOrIOp::create(b, loc, c,
                                  arith::ConstantIntOp::create(b, loc, 1, 1));
      auto ifOp = scf::IfOp::create(b, loc, c, /*withElseRegion=*/false);
      inner = ifOp.thenBlock();
      b.setInsertionPointToStart(inner);
    }
    Operation *yield = inner->getTerminator();
    for (Operation *op : ops)
      op->moveBefore(yield);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

void ThreadLoopBuilder::unrollShuffleLoops() {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    bool shuffles = false;
    loop.walk([&](gpu::ShuffleOp) { shuffles = true; });
    if (shuffles && trips && trips->getZExtValue() > 0 &&
        trips->getZExtValue() <= uint64_t(kMaxUnrolledTrips))
      loops.push_back(loop);
  });
  // Innermost first (walk order), so outer trip counts stay the same.
  for (scf::ForOp loop : loops)
    (void)loopUnrollFull(loop);
  if (loops.empty())
    return;
  // Fold what became constant (shuffle offsets computed from the IV).
  RewritePatternSet patterns(kernel.getContext());
  scf::ForOp::getCanonicalizationPatterns(patterns, kernel.getContext());
  (void)applyPatternsGreedily(kernel, std::move(patterns));
}

//===----------------------------------------------------------------------===//
// Interchange for vectorization
//===----------------------------------------------------------------------===//

/// The coefficient of \p var in \p value when \p value is an affine function
/// of it (0 when it does not depend on it), else nullopt.
static std::optional<int64_t>
getCoefficient(Value value, Value var,
               DenseMap<Value, std::optional<int64_t>> &memo) {
  if (value == var)
    return 1;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  std::optional<int64_t> result;
  Operation *def = value.getDefiningOp();
  if (!def) {
    // Kernel arguments and induction variables do not depend on another
    // variable; loop-carried values may, through their yields.
    auto arg = cast<BlockArgument>(value);
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(owner))
      result = arg == forOp.getInductionVar() ? std::optional<int64_t>(0)
                                              : std::nullopt;
    else if (isa<scf::ParallelOp, gpu::GPUFuncOp>(owner))
      result = 0;
  } else if (def->getNumRegions() == 0 &&
             llvm::all_of(def->getOperands(), [&](Value operand) {
               std::optional<int64_t> c = getCoefficient(operand, var, memo);
               return c && *c == 0;
             })) {
    result = 0;
  } else if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> lhs = getCoefficient(def->getOperand(0), var, memo);
    std::optional<int64_t> rhs = getCoefficient(def->getOperand(1), var, memo);
    if (lhs && rhs)
      result = isa<arith::AddIOp>(def) ? *lhs + *rhs : *lhs - *rhs;
  } else if (isa<arith::MulIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i) {
      std::optional<int64_t> c = getCoefficient(def->getOperand(i), var, memo);
      APInt factor;
      if (c && matchPattern(def->getOperand(1 - i), m_ConstantInt(&factor)))
        result = *c * factor.getSExtValue();
    }
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                 arith::ExtUIOp>(def)) {
    result = getCoefficient(def->getOperand(0), var, memo);
  }
  memo[value] = result;
  return result;
}

/// Whether the access of \p memref at \p indices is contiguous (unit stride)
/// or the same address as \p var steps: every index but the last independent
/// of it, the last one with coefficient 0 or 1, on a layout with unit stride
/// in the innermost dimension.
static bool isContiguousAlong(Value memref, ValueRange indices, Value var,
                              DenseMap<Value, std::optional<int64_t>> &memo) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || indices.empty())
    return false;
  // Unit stride in the innermost dimension (identity or strided<[..., 1]>).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || strides.back() != 1)
    return false;
  for (auto [i, index] : llvm::enumerate(indices)) {
    std::optional<int64_t> c = getCoefficient(index, var, memo);
    if (!c)
      return false;
    bool last = i + 1 == indices.size();
    if (last ? (*c != 0 && *c != 1) : *c != 0)
      return false;
  }
  return true;
}

/// Whether none of \p indices depends on \p var.
static bool isInvariantIn(ValueRange indices, Value var,
                          DenseMap<Value, std::optional<int64_t>> &memo) {
  return llvm::all_of(indices, [&](Value index) {
    std::optional<int64_t> c = getCoefficient(index, var, memo);
    return c && *c == 0;
  });
}

/// Whether \p value is computed from a block id (or is not known not to be).
static bool dependsOnBlockId(Value value) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (isa<gpu::BlockIdOp, gpu::GlobalIdOp>(def))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// Whether \p value is provably >= 0: thread ids, block sizes, non-negative
/// constants, and sums and products of them.
static bool isNonNegative(Value value, ValueRange threadIds) {
  if (llvm::is_contained(threadIds, value))
    return true;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isNegative();
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<gpu::BlockDimOp, gpu::GridDimOp, gpu::BlockIdOp>(def))
    return true;
  if (isa<arith::AddIOp, arith::MulIOp>(def))
    return isNonNegative(def->getOperand(0), threadIds) &&
           isNonNegative(def->getOperand(1), threadIds);
  return false;
}

void ThreadLoopBuilder::normalizeThreadOffsetLoops() {
  ThreadRegion &root = *regions.front();
  SmallVector<scf::ForOp> loops;
  root.loop.walk([&](scf::ForOp loop) {
    if (isVarying(loop.getLowerBound()) && !isVarying(loop.getUpperBound()) &&
        !isVarying(loop.getStep()))
      loops.push_back(loop);
  });
  for (scf::ForOp loop : loops) {
    // lb = U + T with U uniform and T >= 0 thread-dependent (grid-stride
    // loops: lb = block_id * block_dim + thread_id).
    Value lb = loop.getLowerBound(), uniformPart, offset;
    if (auto add = lb.getDefiningOp<arith::AddIOp>()) {
      for (unsigned i = 0; i < 2; ++i)
        if (!isVarying(add->getOperand(i)) &&
            isNonNegative(add->getOperand(1 - i), root.getIVs())) {
          uniformPart = add->getOperand(i);
          offset = add->getOperand(1 - i);
        }
    }
    if (!offset && isNonNegative(lb, root.getIVs())) {
      offset = lb;
      uniformPart = zeroIndex;
    }
    if (!offset)
      continue;
    // for (j = U; j < ub; j += step) { i = j + T; if (i < ub) body(i) }:
    // since T >= 0, the iterations of each thread are the same.
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value ub = loop.getUpperBound();
    auto normalized = scf::ForOp::create(
        b, loc, uniformPart, ub, loop.getStep(), loop.getInitArgs(),
        [&](OpBuilder &lb2, Location l, Value j, ValueRange iterArgs) {
          Value i = arith::AddIOp::create(lb2, l, j, offset);
          Value inside =
              arith::CmpIOp::create(lb2, l, arith::CmpIPredicate::slt, i, ub);
          auto guard =
              scf::IfOp::create(lb2, l, loop.getResultTypes(), inside,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
          OpBuilder eb = guard.getElseBodyBuilder();
          scf::YieldOp::create(eb, l, iterArgs);
          Block *then = guard.thenBlock();
          if (!then->empty())
            then->getTerminator()->erase();
          SmallVector<Value> args{i};
          args.append(iterArgs.begin(), iterArgs.end());
          IRRewriter rewriter(lb2.getContext());
          rewriter.mergeBlocks(loop.getBody(), then, args);
          scf::YieldOp::create(lb2, l, guard.getResults());
          offsetGuards.push_back(guard);
        });
    loop.replaceAllUsesWith(normalized.getResults());
    loop.erase();
  }
  if (!loops.empty()) {
    varying.clear();
    computeVaryingValues();
  }
}

void ThreadLoopBuilder::chooseInterchanges() {
  ThreadRegion &root = *regions.front();
  // Vectorizing across threads needs enough threads along x.
  if (DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr();
      known && known[0] < 4)
    return;
  Value threadX = root.getIVs()[2];
  root.loop.walk([&](scf::ForOp loop) {
    if (isVarying(loop.getLowerBound()) || isVarying(loop.getUpperBound()) ||
        isVarying(loop.getStep()))
      return;
    // Every op between the loop and the thread loop must be movable out of it
    // (uniform loops, conditions) or predicable (conditions).
    for (Operation *p = loop->getParentOp(); p != root.loop;
         p = p->getParentOp()) {
      if (auto forOp = dyn_cast<scf::ForOp>(p)) {
        if (isVarying(forOp.getLowerBound()) ||
            isVarying(forOp.getUpperBound()) || isVarying(forOp.getStep()))
          return;
        continue;
      }
      if (isa<scf::IfOp>(p))
        continue;
      return;
    }
    // Count the accesses of the loop body that vectorize along thread x and
    // along the loop.
    DenseMap<Value, std::optional<int64_t>> memoX, memoK;
    Value iv = loop.getInductionVar();
    bool unitStep = matchPattern(loop.getStep(), m_One());
    unsigned alongX = 0, alongLoop = 0;
    bool nestedLoops = false;
    loop.getBody()->walk([&](Operation *op) {
      if (isa<LoopLikeOpInterface>(op))
        nestedLoops = true;
      Value memref;
      ValueRange indices;
      if (auto load = dyn_cast<memref::LoadOp>(op)) {
        memref = load.getMemRef();
        indices = load.getIndices();
      } else if (auto store = dyn_cast<memref::StoreOp>(op)) {
        memref = store.getMemRef();
        indices = store.getIndices();
      } else {
        return;
      }
      alongX += isContiguousAlong(memref, indices, threadX, memoX);
      // Along the loop, the index moves by its coefficient times the step.
      alongLoop += unitStep ? isContiguousAlong(memref, indices, iv, memoK)
                            : isInvariantIn(indices, iv, memoK);
    });
    bool floatReduction = llvm::any_of(loop.getRegionIterArgs(), [](Value v) {
      return isa<FloatType>(getElementTypeOrSelf(v.getType()));
    });
    if (nestedLoops || alongX == 0 ||
        !(alongX > alongLoop || (alongX == alongLoop && floatReduction)))
      return;
    for (Operation *p = loop; p != root.loop; p = p->getParentOp())
      fissionPoints.insert(p);
  });
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

FailureOr<bool> ThreadLoopBuilder::run() {
  bool synchronizes = false;
  kernel.walk([&](Operation *op) { synchronizes |= isSyncOp(op); });
  if (!synchronizes && !options.interchange)
    return false;
  // A kernel without synchronization only changes when it gains from it: if
  // anything is in the way, it stays as it is.
  auto giveUp = [&]() -> FailureOr<bool> {
    if (synchronizes)
      return LogicalResult::failure();
    return false;
  };

  // gpu.global_id in terms of block and thread ids, affine loops and
  // conditions as scf.
  {
    RewritePatternSet patterns(kernel.getContext());
    populateGpuGlobalIdPatterns(patterns);
    populateAffineToStdConversionPatterns(patterns);
    if (failed(applyPatternsGreedily(kernel, std::move(patterns))))
      return giveUp();
  }
  if (failed(liftControlFlow()))
    return giveUp();
  unrollShuffleLoops();
  wrapBody();
  computeVaryingValues();
  if (options.interchange)
    normalizeThreadOffsetLoops();

  // Fission points: synchronizing ops and the ops that contain them, and the
  // loops worth moving out of the thread loops.
  ThreadRegion &root = *regions.front();
  root.loop.walk([&](Operation *op) {
    if (!isSyncOp(op))
      return;
    for (Operation *p = op; p != root.loop; p = p->getParentOp())
      fissionPoints.insert(p);
  });
  if (options.interchange) {
    chooseInterchanges();
    // A moved grid-stride loop's guard predicates its thread loop, which
    // turns it into a loop bound.
    for (scf::IfOp guard : offsetGuards)
      if (isFissionPoint(guard->getParentOp()))
        fissionPoints.insert(guard);
  }
  if (fissionPoints.empty()) {
    // A kernel without synchronization still gains when its whole body is a
    // bounds check: the check becomes the bound of the thread loop.
    if (synchronizes || !boundGuardedBody(root))
      return false;
    versionAllOnBoundsChecks();
    OffloadDialect::ThreadLoopsAttrHelper(kernel.getContext())
        .setAttr(kernel, UnitAttr::get(kernel.getContext()));
    return true;
  }

  if (failed(process(root)) || failed(applyMasks()))
    return giveUp();
  fuseReductions();
  versionAllOnBoundsChecks();
  versionOnClampedBounds();
  OffloadDialect::ThreadLoopsAttrHelper(kernel.getContext())
      .setAttr(kernel, UnitAttr::get(kernel.getContext()));
  return true;
}

void ThreadLoopBuilder::fuseReductions() {
  for (PendingReduction &pending : reductions) {
    scf::ParallelOp producer = pending.producer->loop;
    // The reduction must follow the producer, which must write each value
    // once, unconditionally, and the array must have no other use.
    if (producer->getNextNode() == nullptr ||
        !producer->isBeforeInBlock(pending.loop))
      continue;
    bool adjacent = true;
    for (Operation *op = producer->getNextNode(); op != pending.loop;
         op = op->getNextNode())
      if (!isRecomputable(op))
        adjacent = false;
    memref::StoreOp store;
    for (Operation *user : pending.slot.getUsers()) {
      if (auto candidate = dyn_cast<memref::StoreOp>(user);
          candidate && candidate->getBlock() == producer.getBody() && !store)
        store = candidate;
      else if (!pending.loop->isAncestor(user))
        adjacent = false;
    }
    if (!adjacent || !store || producer.getNumResults() != 0 ||
        llvm::any_of(producer.getUpperBound(), [&](Value ub) {
          return ub.getDefiningOp() &&
                 !ub.getDefiningOp()->isBeforeInBlock(producer);
        }))
      continue;
    // Rebuild the producer with an scf.reduce of the stored value. (The
    // identity is a constant made after the producer.)
    if (Operation *def = pending.identity.getDefiningOp())
      def->moveBefore(producer);
    OpBuilder b(producer);
    Location loc = producer.getLoc();
    auto fused = scf::ParallelOp::create(
        b, loc, producer.getLowerBound(), producer.getUpperBound(),
        producer.getStep(), ValueRange{pending.identity});
    // With initial values the builder leaves the body empty.
    Block *body = fused.getBody();
    IRRewriter rewriter(b.getContext());
    rewriter.mergeBlocks(producer.getBody(), body, body->getArguments());
    body->getTerminator()->erase();
    OpBuilder rb = OpBuilder::atBlockEnd(body);
    Value v = store.getValue();
    auto reduce = scf::ReduceOp::create(rb, loc, ValueRange{v});
    Block &combineBlock = reduce.getReductions()[0].front();
    OpBuilder cb = OpBuilder::atBlockEnd(&combineBlock);
    Value combined =
        combineKind(cb, loc, pending.kind, combineBlock.getArgument(0),
                    combineBlock.getArgument(1));
    scf::ReduceReturnOp::create(cb, loc, combined);
    store.erase();
    pending.loop.getResult(0).replaceAllUsesWith(fused.getResult(0));
    pending.loop.erase();
    regionOfLoop.erase(producer);
    producer.erase();
    pending.producer->loop = fused;
    regionOfLoop[fused] = pending.producer;
    if (Operation *alloca = pending.slot.getDefiningOp();
        alloca && alloca->use_empty())
      alloca->erase();
  }
}

bool ThreadLoopBuilder::splitOnCheck(ThreadRegion &region, arith::CmpIOp cmp,
                                     const AffineCompare &match) {
  using P = arith::CmpIPredicate;
  scf::ParallelOp loop = region.loop;
  unsigned dim = match.dim;
  if (loop.getNumResults() != 0 || !matchPattern(loop.getStep()[dim], m_One()))
    return false;
  // The check holds below the split point k (x < k) or from it on.
  bool trueBelow;
  int64_t adjust = 0;
  switch (match.pred) {
  case P::ult:
  case P::slt:
    trueBelow = true;
    break;
  case P::ule:
  case P::sle:
    trueBelow = true;
    adjust = 1;
    break;
  case P::uge:
  case P::sge:
    trueBelow = false;
    break;
  case P::ugt:
  case P::sgt:
    trueBelow = false;
    adjust = 1;
    break;
  default:
    return false;
  }
  bool isUnsigned = match.pred == P::ult || match.pred == P::ule ||
                    match.pred == P::ugt || match.pred == P::uge;
  if (isUnsigned &&
      !isNonNegative(match.expr, getRegionOfValue(match.expr)->getIVs()))
    return false;
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound()[dim], ub = loop.getUpperBound()[dim];
  Value limit = match.limit;
  if (adjust)
    limit = arith::AddIOp::create(
        b, loc, limit, arith::ConstantIndexOp::create(b, loc, adjust));
  Value k = arith::SubIOp::create(b, loc, limit, match.offset);
  k = arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, k, lb), ub);
  // [lb, k) then [k, ub), each with the check's outcome as a constant.
  IRMapping mapping;
  b.setInsertionPointAfter(loop);
  auto upper = cast<scf::ParallelOp>(b.clone(*loop, mapping));
  loop.getUpperBoundMutable().slice(dim, 1).assign(k);
  upper.getLowerBoundMutable().slice(dim, 1).assign(k);
  OpBuilder cb(loop);
  cmp.getResult().replaceAllUsesWith(
      arith::ConstantIntOp::create(cb, loc, trueBelow ? 1 : 0, 1).getResult());
  mapping.lookup(cmp.getResult())
      .replaceAllUsesWith(
          arith::ConstantIntOp::create(cb, loc, trueBelow ? 0 : 1, 1)
              .getResult());
  return true;
}

/// Moves the pure computation of \p value before \p pos, an op of the
/// kernel's entry block, where it follows \p pos in that block or is nested
/// in an op at or after \p pos (loop-invariant code in the thread loops'
/// loops); returns whether \p value is then available at \p pos.
static bool hoistBefore(Value value, Operation *pos) {
  Block *top = pos->getBlock();
  Operation *def = value.getDefiningOp();
  if (!def)
    return value.getParentBlock() == top;
  Operation *ancestor = top->findAncestorOpInBlock(*def);
  if (!ancestor)
    return false;
  if (ancestor->isBeforeInBlock(pos))
    return ancestor == def;
  if (!isPure(def) || def->getNumRegions() != 0)
    return false;
  for (Value operand : def->getOperands())
    if (!hoistBefore(operand, pos))
      return false;
  def->moveBefore(pos);
  return true;
}

/// Whether \p a and \p b are the same pure computation (each thread loop's
/// clamp is computed anew).
static bool isSameComputation(Value a, Value b, unsigned depth = 8) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || depth == 0 || x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() || !isPure(x) ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [u, v] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!isSameComputation(u, v, depth - 1))
      return false;
  return true;
}

void ThreadLoopBuilder::versionOnClampedBounds() {
  Block &top = kernel.getBody().front();
  Operation *terminator = top.getTerminator();
  if (terminator->getNumOperands() != 0)
    return;
  // The versioned code starts at the first top-level op with thread loops.
  Operation *first = nullptr;
  for (Operation &op : top.without_terminator()) {
    op.walk([&](scf::ParallelOp) { first = &op; });
    if (first)
      break;
  }
  if (!first)
    return;
  // The clamps whose computations (uniform and pure) can move before it.
  SmallVector<std::pair<arith::MinSIOp, Value>> clamps;
  for (auto [clamp, full] : clampedBounds) {
    if (clamp.getResult().use_empty())
      continue;
    if (!hoistBefore(full, first) || !hoistBefore(clamp.getResult(), first))
      continue;
    clamps.push_back({clamp, full});
  }
  // The tests of loops versioned on their bounds checks (i32 checks, which
  // do not become bounds): inside a uniform loop (a matmul's k loop) each
  // step would test again and run the loop's two versions in turn, which
  // keeps LLVM from holding the accumulators in registers across the steps.
  SmallVector<Value> tests;
  for (Value test : versionTests)
    if (!test.use_empty() && hoistBefore(test, first))
      tests.push_back(test);
  if (clamps.empty() && tests.empty())
    return;
  // Small enough to copy.
  unsigned numOps = 0;
  for (Operation &op :
       llvm::make_range(first->getIterator(), terminator->getIterator()))
    op.walk([&](Operation *) { ++numOps; });
  if (numOps > 2 * kMaxVersionedOps)
    return;

  // if (every clamp == its full bound and every versioning test holds)
  //   { copy with full bounds and the tests' versions } else { code }
  OpBuilder b(first);
  Location loc = first->getLoc();
  Value full;
  IRMapping mapping;
  SmallVector<Value> tested;
  if (!tests.empty()) {
    Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
    for (Value test : tests) {
      mapping.map(test, trueValue);
      if (llvm::any_of(tested,
                       [&](Value t) { return isSameComputation(t, test); }))
        continue;
      tested.push_back(test);
      full = full ? arith::AndIOp::create(b, loc, full, test).getResult()
                  : test;
    }
  }
  for (auto [clamp, bound] : clamps) {
    Value clamped = clamp.getResult();
    mapping.map(clamped, bound);
    if (llvm::any_of(tested,
                     [&](Value t) { return isSameComputation(t, clamped); }))
      continue;
    tested.push_back(clamped);
    Value same = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                       clamp.getResult(), bound);
    full = full ? arith::AndIOp::create(b, loc, full, same).getResult() : same;
  }
  SmallVector<Operation *> code;
  for (Operation &op :
       llvm::make_range(first->getIterator(), terminator->getIterator()))
    code.push_back(&op);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange(), full,
                                /*withElseRegion=*/true);
  OpBuilder tb(ifOp.thenBlock()->getTerminator());
  for (Operation *op : code)
    tb.clone(*op, mapping);
  Operation *elseYield = ifOp.elseBlock()->getTerminator();
  for (Operation *op : code)
    op->moveBefore(elseYield);
}

void ThreadLoopBuilder::versionAllOnBoundsChecks() {
  // Regions are versioned one after the other; a copy is not revisited.
  SmallVector<ThreadRegion *> all;
  for (const std::unique_ptr<ThreadRegion> &region : regions)
    all.push_back(region.get());
  for (ThreadRegion *region : all)
    versionOnBoundsChecks(*region);
}

FailureOr<bool>
mlir::offload::buildHostThreadLoops(gpu::GPUFuncOp kernel,
                                    const HostThreadLoopsOptions &options,
                                    HostThreadLoopsFailure &why) {
  // Nothing to do (and no copy to make) for a kernel without synchronization
  // whose body has neither loops to interchange nor checks to bound.
  bool worthTrying = false;
  kernel.walk([&](Operation *op) {
    if (isSyncOp(op) || (options.interchange && isa<scf::ForOp, scf::IfOp>(op)))
      worthTrying = true;
    return worthTrying ? WalkResult::interrupt() : WalkResult::advance();
  });
  if (!worthTrying)
    return false;
  // A failing cf.assert stops its thread alone (a return from the thread's
  // body): not expressible in loops over all threads. Such kernels keep one
  // function per thread, on fibers when they synchronize.
  cf::AssertOp assertOp;
  kernel.walk([&](cf::AssertOp op) {
    assertOp = op;
    return WalkResult::interrupt();
  });
  if (assertOp) {
    bool synchronizes = false;
    kernel.walk([&](Operation *op) {
      synchronizes |= isSyncOp(op);
      return synchronizes ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!synchronizes)
      return false;
    why.reason = OffloadDialect::CheckStopAttrHelper(assertOp->getContext())
                         .isAttrPresent(assertOp)
                     ? "its bounds checks (--check) stop a failing thread "
                       "alone"
                     : "a failing cf.assert stops its thread alone";
    why.loc = assertOp.getLoc();
    return failure();
  }
  // Work on a copy so that a failure leaves the kernel as it was. When moving
  // loops out for vectorization is in the way, try again without.
  DataLayout layout = DataLayout::closest(kernel);
  HostThreadLoopsOptions attempt = options;
  while (true) {
    OpBuilder builder(kernel);
    auto copy = cast<gpu::GPUFuncOp>(builder.clone(*kernel));
    ThreadLoopBuilder threadLoops(copy, layout, attempt);
    FailureOr<bool> result = threadLoops.run();
    if (succeeded(result) && *result) {
      kernel.getBody().takeBody(copy.getBody());
      kernel->setAttrs(copy->getAttrDictionary());
      copy.erase();
      return true;
    }
    copy.erase();
    if (failed(result) && attempt.interchange) {
      attempt.interchange = false;
      continue;
    }
    if (failed(result))
      why = threadLoops.failure;
    return result;
  }
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTTHREADLOOPS
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

namespace {
struct OffloadHostThreadLoopsPass
    : public offload::impl::OffloadHostThreadLoopsBase<
          OffloadHostThreadLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Vendor barriers are barriers here too.
    {
      RewritePatternSet patterns(&getContext());
      offload::populateHostVendorOpPatterns(patterns);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
    HostThreadLoopsOptions threadLoopsOptions;
    threadLoopsOptions.interchange = interchange;
    SmallVector<gpu::GPUFuncOp> kernels;
    for (gpu::GPUFuncOp fn : getOperation().getOps<gpu::GPUFuncOp>())
      if (fn.isKernel())
        kernels.push_back(fn);
    for (gpu::GPUFuncOp kernel : kernels) {
      HostThreadLoopsFailure why;
      FailureOr<bool> rewritten =
          buildHostThreadLoops(kernel, threadLoopsOptions, why);
      if (succeeded(rewritten))
        continue;
      std::string reason = why.reason.empty()
                               ? std::string("its body could not be split")
                               : why.reason;
      OffloadDialect::FiberReasonAttrHelper(kernel.getContext())
          .setAttr(kernel, StringAttr::get(kernel.getContext(), reason));
      InFlightDiagnostic remark = mlir::emitRemark(kernel.getLoc())
                                  << "kernel '" << kernel.getName()
                                  << "' runs on fibers: " << reason;
      if (why.loc && *why.loc != kernel.getLoc())
        remark.attachNote(*why.loc) << "here";
    }
  }
};
} // namespace
