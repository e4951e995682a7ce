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
// Constructs", PPoPP 2023) and PoCL's work-group loops (P. Jaaskelainen et
// al., "pocl: A Performance-Portable OpenCL Implementation", IJPP 2015),
// applied to our kernels while they are still structured MLIR. This file is
// the driver; each step's job has its own file (ThreadLoopBuilder.h):
//
//  1. The CFG of the body is lifted to scf (upstream transformCFGToSCF), the
//     body is wrapped in one `scf.parallel (z, y, x)` over the block's
//     threads (the *thread region*), thread ids become its induction
//     variables, and top-level ops that do not depend on the thread are
//     hoisted before it (here).
//  2. A uniformity analysis marks the values that may differ between threads
//     of a block (Uniformity.cpp).
//  3. Each thread region is scanned for its first *fission point* (an op
//     that synchronizes threads or contains one; process() here):
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
//         and the fiber scheduler give the same result (BarrierFission.cpp);
//       - collectives (`gpu.all_reduce`, `gpu.subgroup_reduce`,
//         `gpu.shuffle`): the operand is stored per thread before the split,
//         the reduction (a loop over the stored values, reassociable) or the
//         exchange is computed between or after the two halves
//         (Collectives.cpp).
//  4. Values used across a split are recomputed in the later region when they
//     are cheap pure functions of the thread ids and uniform values, else
//     stored into a per-thread array (a stack allocation of block-size
//     elements, structure of arrays so that stores and loads vectorize);
//     per-thread `memref.alloca`s (and private attributions) used across a
//     split become views into a per-block array (PerThreadValues.cpp).
//  5. Predicated regions get their masks as `scf.if`s around their bodies, or
//     as loop bounds and versions (Predication.cpp). Uniform loops are moved
//     out of thread loops for vectorization first (Interchange.cpp).
//
// Anything else that synchronizes (a barrier under a loop whose trip count
// differs between threads, under unstructured control flow, in both branches
// of a divergent `scf.if`, ...) is reported and the kernel is left for the
// fiber scheduler, which runs any control flow (FiberFallback.cpp).
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadRuntime/HostKernelABI.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ControlFlowToSCF/ControlFlowToSCF.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CFGToSCF.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

namespace {
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

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

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
    // bounds check (the check becomes the bound of the thread loop), or when
    // its body branches on bounds checks of thread ids that interior blocks
    // pass (`i == 0 || i == n - 1` of a stencil's end points, an i32 `i < n`,
    // which is no loop bound): the loop is versioned on them and interior
    // blocks run a branch-free copy, which vectorizes across threads.
    if (synchronizes)
      return false;
    bool bounded = boundGuardedBody(root);
    if (!versionAllOnBoundsChecks() && !bounded)
      return false;
    // Rows of a 2D or 3D block are thread loops of the clamped trip count
    // nested in the loops of the other dimensions (a remainder per row);
    // interior blocks run static trip counts instead. A 1D block's one loop
    // gains little from it: its bound, the block size, already sets the
    // vector width, and a static trip count would make LLVM unroll the
    // vector loop fully (test/Target/Host/vectorized-remainder.mlir).
    if (staticNumThreads && !oneDimensional)
      versionOnClampedBounds();
    OffloadDialect::ThreadLoopsAttrHelper(kernel.getContext())
        .setAttr(kernel, UnitAttr::get(kernel.getContext()));
    return true;
  }

  if (failed(process(root)) || failed(applyMasks()))
    return giveUp();
  fuseReductions();
  boundSubgroupExchanges();
  versionAllOnBoundsChecks();
  versionOnClampedBounds();
  OffloadDialect::ThreadLoopsAttrHelper(kernel.getContext())
      .setAttr(kernel, UnitAttr::get(kernel.getContext()));
  return true;
}
