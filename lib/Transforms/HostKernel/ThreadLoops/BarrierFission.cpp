//===- BarrierFission.cpp - Thread regions split at barriers --------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Structured loop fission at barriers: a thread region (an `scf.parallel`
// over the block's threads) is split after each `gpu.barrier`, and control
// flow that contains a barrier (scf.for, scf.while, scf.if with conditions the
// same for the whole block) moves out of the thread loops, its bodies becoming
// thread regions of their own; an scf.if whose condition differs between
// threads becomes predicated regions when only an early exit skips its barrier.
// Results and loop-carried values that differ between threads go through
// per-thread arrays. This is Polygeist's parallel loop distribution and
// interchange (W. S. Moses et al., "High-Performance GPU-to-CPU Transpilation
// and Optimization via High-Level Parallel Constructs", PPoPP 2023) and PoCL's
// work-group loop regions between barriers (P. Jaaskelainen et al., IJPP 2015).
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

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
      if (load && init.hasOneUse() && load.getIndices().size() == 1 &&
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
                           forOp.getStep(), keptValues(forOp.getInitArgs()),
                           /*bodyBuilder=*/nullptr, forOp.getUnsignedCmp());
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
                    "the thread id or on memory the kernel writes)");
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
    if (!isRecomputable(&nested) && !isInvariantLoad(&nested))
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
  return splitUniformIf(region, ifOp, *next, follows);
}

LogicalResult ThreadLoopBuilder::splitUniformIf(ThreadRegion *&region,
                                                scf::IfOp ifOp,
                                                ThreadRegion *next,
                                                bool follows) {
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
  region = next;
  return success();
}

bool ThreadLoopBuilder::variesOnlyThroughMemory(Value value, unsigned depth) {
  if (!isVarying(value))
    return true;
  // Thread ids and per-thread loop values are block arguments.
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16)
    return false;
  if (auto load = dyn_cast<memref::LoadOp>(def))
    return !isSlotLoad(load) && !isVarying(load.getMemRef()) &&
           llvm::none_of(load.getIndices(),
                         [&](Value index) { return isVarying(index); });
  if (!isRecomputable(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return variesOnlyThroughMemory(operand, depth + 1);
  });
}

LogicalResult ThreadLoopBuilder::handleCheckedUniformIf(ThreadRegion *&region,
                                                        scf::IfOp op) {
  Location loc = op.getLoc();
  Value cond = op.getCondition();
  FailureOr<Value> slot = getSlot(cond);
  if (failed(slot))
    return fail(op, "the condition of an scf.if whose branches synchronize "
                    "could not be stored");
  FailureOr<Operation *> rebuilt = demoteResults(*region, op, false);
  if (failed(rebuilt))
    return LogicalResult::failure();
  auto ifOp = cast<scf::IfOp>(*rebuilt);
  bool follows;
  FailureOr<ThreadRegion *> next = moveOut(*region, ifOp, follows);
  if (failed(next))
    return LogicalResult::failure();
  // Between the halves: thread 0's condition, and whether every thread's is
  // the same. Threads that disagree would wait at different barriers (a
  // deadlock on the fibers, undefined on a GPU): the block stops with a
  // device-side assertion failure instead.
  OpBuilder b(ifOp);
  Value first = loadSlot(b, loc, *slot, zeroIndex);
  Value trueValue = arith::ConstantIntOp::create(b, loc, 1, 1);
  auto check = scf::ForOp::create(
      b, loc, oneIndex, numThreads, oneIndex, ValueRange{trueValue},
      [&](OpBuilder &lb, Location ll, Value index, ValueRange acc) {
        Value other = loadSlot(lb, ll, *slot, index);
        Value same = arith::CmpIOp::create(lb, ll, arith::CmpIPredicate::eq,
                                           other, first);
        scf::YieldOp::create(
            lb, ll, ValueRange{arith::AndIOp::create(lb, ll, acc[0], same)});
      });
  cf::AssertOp::create(
      b, loc, check.getResult(0),
      "the threads of a block disagree on the condition of an scf.if whose "
      "branches synchronize the block (divergent barriers)");
  ifOp.getConditionMutable().assign(first);
  return splitUniformIf(region, ifOp, *next, follows);
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
    // A condition that only memory makes differ (a flag in workgroup memory
    // that one thread wrote before a barrier) is mostly the same for the
    // whole block: check that at run time. When only one branch
    // synchronizes inside a loop, threads that skip it could meet the others
    // at the same barrier in the next iteration, which the fibers would
    // accept: that stays on the fibers.
    bool bothOrThenAnother =
        (thenHasBlockSync && elseHasBlockSync) ||
        (!region->inLoop &&
         (region->blockSyncFollows ||
          rangeContainsBlockSync(std::next(op->getIterator()),
                                 region->getBody()->end())));
    if (bothOrThenAnother && region->mask.empty() &&
        variesOnlyThroughMemory(op.getCondition()))
      return handleCheckedUniformIf(region, op);
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
