//===- Collectives.cpp - Shuffles and reductions between thread loops -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Collectives of the block and of its subgroups as steps between thread
// loops: the operand of `gpu.shuffle`, `gpu.subgroup_reduce` or
// `gpu.all_reduce` is stored per thread, the region is split after it, and the
// exchange or reduction is computed from the stored values (a loop over them,
// reassociable, fused into the producing thread loop where it can be), with
// the runtime semantics of the fiber scheduler: subgroups of
// OFFLOAD_HOST_SUBGROUP_SIZE (32) consecutive linear ids, lanes that do not
// take part (masked off) invalid shuffle sources. Small constant-trip loops of
// shuffles (warp reduction trees) are unrolled first so that offsets are
// constants. The store-and-split treatment of collectives follows Polygeist
// (W. S. Moses et al., PPoPP 2023).
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "OffloadRuntime/HostKernelABI.h"
#include "mlir/Dialect/GPU/Utils/GPUUtils.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

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
    auto exchange = scf::ForOp::create(
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
    exchange->setAttr(kSubgroupExchangeAttrName, xb.getUnitAttr());
    subgroupExchanges.emplace_back(exchange, exchanged);
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

std::optional<int64_t> mlir::offload::foldToConstant(Value v, unsigned depth) {
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  Operation *op = v.getDefiningOp();
  if (!op || depth > 8 || op->getNumResults() != 1 || !isPure(op) ||
      op->getNumRegions() != 0 || !v.getType().isIntOrIndex())
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    if (!operand.getType().isIntOrIndex())
      return std::nullopt;
    std::optional<int64_t> value = foldToConstant(operand, depth + 1);
    if (!value)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *value));
  }
  SmallVector<OpFoldResult> results;
  if (failed(op->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  // A fold may give one of the operands (a select of a constant condition).
  if (auto folded = dyn_cast<Value>(results[0]))
    return folded == v ? std::nullopt : foldToConstant(folded, depth + 1);
  if (auto attr = dyn_cast_if_present<IntegerAttr>(
          dyn_cast_if_present<Attribute>(results[0])))
    return attr.getValue().getSExtValue();
  return std::nullopt;
}

void ThreadLoopBuilder::boundSubgroupExchanges() {
  const int64_t subgroup = OFFLOAD_HOST_SUBGROUP_SIZE;
  for (auto [exchange, exchanged] : subgroupExchanges) {
    // Every reader must be in a one-dimensional thread loop with constant
    // bounds (the linear thread id is its induction variable); the union of
    // their ranges, widened to whole subgroups, is what must be permuted.
    std::optional<int64_t> lo, hi;
    bool known = true;
    for (Operation *user : exchanged.getUsers()) {
      if (exchange->isAncestor(user))
        continue;
      auto loop = user->getParentOfType<scf::ParallelOp>();
      auto load = dyn_cast<memref::LoadOp>(user);
      std::optional<int64_t> l, u;
      // The thread loop's other dimensions must be single threads: its
      // innermost induction variable is then the linear thread id.
      unsigned x = loop ? loop.getNumLoops() - 1 : 0;
      bool linear = loop && load && regionOfLoop.count(loop) &&
                    load.getIndices().size() == 1 &&
                    load.getIndices()[0] == loop.getInductionVars()[x];
      for (unsigned d = 0; linear && d < x; ++d) {
        std::optional<int64_t> dl = foldToConstant(loop.getLowerBound()[d]);
        std::optional<int64_t> du = foldToConstant(loop.getUpperBound()[d]);
        linear = dl && du && *du - *dl == 1;
      }
      if (linear) {
        l = foldToConstant(loop.getLowerBound()[x]);
        u = foldToConstant(loop.getUpperBound()[x]);
      }
      if (!l || !u) {
        known = false;
        break;
      }
      lo = lo ? std::min(*lo, *l) : *l;
      hi = hi ? std::max(*hi, *u) : *u;
    }
    if (!known || !lo || !hi || *lo < 0 || *hi <= *lo)
      continue;
    int64_t first = *lo / subgroup * subgroup;
    int64_t end = (*hi + subgroup - 1) / subgroup * subgroup;
    if (staticNumThreads)
      end = std::min(end, *staticNumThreads);
    if (first == 0 && staticNumThreads && end == *staticNumThreads)
      continue;
    OpBuilder b(exchange);
    exchange.getLowerBoundMutable().assign(
        arith::ConstantIndexOp::create(b, exchange.getLoc(), first));
    exchange.getUpperBoundMutable().assign(
        arith::ConstantIndexOp::create(b, exchange.getLoc(), end));
  }
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
