//===- Predication.cpp - Masks of thread loops as bounds and versions -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A thread region that only some threads run (the branch of a divergent
// scf.if, an early exit) carries a mask. applyMasks makes it `scf.if`s around
// the body, the masked loops of whole-function vectorization (R. Karrenberg and
// S. Hack, CGO 2011); before that, conditions that compare a thread id plus a
// uniform offset with a uniform limit become loop bounds (`if (tid < n)`,
// `if (tid == 0)`), or split the loop where they change (index-set splitting).
// Thread loops whose bodies branch on such bounds checks are versioned on a
// uniform test that all threads pass, and the code after clamped bounds is
// versioned on the block being complete: the full-tile/partial-tile versioning
// of loop tiling, as PoCL runs complete work-groups with static trip counts
// (P. Jaaskelainen et al., IJPP 2015).
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

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

bool ThreadLoopBuilder::versionOnBoundsChecks(ThreadRegion &region) {
  using P = arith::CmpIPredicate;
  scf::ParallelOp loop = region.loop;
  // Pure computations without uses (the conditions of a guard that became
  // loop bounds, boundGuardedBody) are not checks: versioning on them would
  // copy the loop for nothing.
  SmallVector<Operation *> dead;
  auto isDead = [](Operation *op) {
    return op->getNumResults() != 0 && op->use_empty() &&
           op->getNumRegions() == 0 && isPure(op);
  };
  loop.getBody()->walk([&](Operation *op) {
    if (isDead(op))
      dead.push_back(op);
  });
  while (!dead.empty()) {
    Operation *op = dead.pop_back_val();
    SmallVector<Value> operands(op->getOperands());
    op->erase();
    for (Value operand : operands)
      if (Operation *def = operand.getDefiningOp();
          def && loop->isProperAncestor(def) && isDead(def) &&
          !llvm::is_contained(dead, def))
        dead.push_back(def);
  }
  unsigned numOps = 0;
  loop.getBody()->walk([&](Operation *) { ++numOps; });
  if (numOps > kMaxVersionedOps)
    return false;
  // Comparisons of a thread id plus a uniform offset with a uniform value.
  SmallVector<std::pair<arith::CmpIOp, AffineCompare>> checks;
  loop.getBody()->walk([&](arith::CmpIOp cmp) {
    if (checks.size() < kMaxVersionedChecks && cmp.getType().isInteger(1))
      if (std::optional<AffineCompare> match = matchAffineCompare(
              region, cmp.getLhs(), cmp.getPredicate(), cmp.getRhs(), loop))
        checks.push_back({cmp, *match});
  });
  if (checks.empty())
    return false;
  // A check whose split point is the same for every block (`tid >= offset`)
  // splits the loop; checks that depend on the block (`i < n` for
  // i = block * size + tid) version it: interior blocks then run loops with
  // their static trip count.
  if (checks.size() == 1 && !checks[0].second.isNarrow() &&
      !dependsOnBlockId(checks[0].second.offset) &&
      !dependsOnBlockId(checks[0].second.limit) &&
      splitOnCheck(region, checks[0].first, checks[0].second))
    return true;
  // For each, the outcome the block's interior has, and a uniform test that
  // it holds for every thread x in [lb, ub): the range of x + u is
  // [lb + u, ub - 1 + u].
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value fast;
  SmallVector<std::pair<arith::CmpIOp, bool>> assumed;
  for (auto &[cmp, match] : checks) {
    Value first = loop.getLowerBound()[match.dim];
    Value last = arith::SubIOp::create(b, loc, loop.getUpperBound()[match.dim],
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
    return true;
  }
  loop->replaceAllUsesWith(ifOp.getResults());
  loop->moveBefore(ifOp.elseBlock(), ifOp.elseBlock()->end());
  OpBuilder eb = OpBuilder::atBlockEnd(ifOp.elseBlock());
  scf::YieldOp::create(eb, loc, loop->getResults());
  return true;
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
      full =
          full ? arith::AndIOp::create(b, loc, full, test).getResult() : test;
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

bool ThreadLoopBuilder::versionAllOnBoundsChecks() {
  // Regions are versioned one after the other; a copy is not revisited.
  SmallVector<ThreadRegion *> all;
  for (const std::unique_ptr<ThreadRegion> &region : regions)
    all.push_back(region.get());
  bool changed = false;
  for (ThreadRegion *region : all)
    changed |= versionOnBoundsChecks(*region);
  return changed;
}
