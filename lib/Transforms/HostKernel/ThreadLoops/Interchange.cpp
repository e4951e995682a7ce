//===- Interchange.cpp - Uniform loops out of thread loops ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Loop interchange for vectorization across threads: an scf.for whose bounds
// are the same for every thread moves out of the thread loops when that makes
// the loop over thread x, innermost, access memory with unit stride (then
// LLVM's loop vectorizer, or offload-host-vectorize-thread-loops, runs thread x
// as vector lanes, the goal of whole-function vectorization, R. Karrenberg and
// S. Hack, CGO 2011). Grid-stride loops (`for (i = tid + u; i < n; i += s)`)
// are first normalized to uniform bounds with a guard, whatever their form:
// an `scf.while` that counts (`while (i < n) { ...; i += s; }`) is the
// scf.for it stands for, and loops over i32 (or other iN) induction variables
// are normalized like index ones. The interchange of
// Polygeist's barrier lowering (W. S. Moses et al., PPoPP 2023), chosen by an
// access-stride test instead of by barriers.
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

/// Whether the access of \p memref at \p indices is contiguous (unit stride)
/// or the same address as \p var steps: every index but the last independent
/// of it, the last one with coefficient 0 or 1, on a layout whose innermost
/// stride is 1 or dynamic. A dynamic innermost stride (`strided<[?]>`, a view
/// a caller passes, nearly always of stride 1) scales the address steps along
/// every variable alike, so it does not change which variable walks memory
/// contiguously; LLVM's loop vectorizer versions the loop on it being 1.
static bool isContiguousAlong(Value memref, ValueRange indices, Value var,
                              DenseMap<Value, std::optional<int64_t>> &memo) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || indices.empty())
    return false;
  // Unit stride in the innermost dimension (identity, strided<[..., 1]> or
  // strided<[..., ?]>).
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      (strides.back() != 1 && !ShapedType::isDynamic(strides.back())))
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

/// The most threads in a block the host device launches (MaxWorkGroupSize
/// in HostDeviceInfo.cpp; the launch validation, Validation.cpp, rejects
/// larger blocks): thread ids are below it, block sizes at most it.
static constexpr uint64_t kMaxHostBlockThreads = 1024;

/// The most \p value can be when it is provably in [0, bound]: thread ids
/// (\p threadIds), block sizes (\p blockDims), non-negative constants, and
/// sums, products and integer casts of them that cannot wrap in their type
/// (`index_cast %tid : index to i32`, the ids of frontends that compute in
/// i32). Else nullopt.
static std::optional<uint64_t> getSmallBound(Value value, ValueRange threadIds,
                                             ArrayRef<Value> blockDims,
                                             unsigned depth = 0) {
  Type type = value.getType();
  if (!type.isIntOrIndex() || depth > 16)
    return std::nullopt;
  // Values of the type stay below 2^(width - 1) (non-negative when signed).
  unsigned width = type.isIndex() ? 64 : type.getIntOrFloatBitWidth();
  auto fits = [&](std::optional<uint64_t> bound) -> std::optional<uint64_t> {
    if (!bound || width < 2 || (width < 64 && *bound >> (width - 1)))
      return std::nullopt;
    return bound;
  };
  if (llvm::is_contained(threadIds, value))
    return fits(kMaxHostBlockThreads - 1);
  if (llvm::is_contained(blockDims, value))
    return fits(kMaxHostBlockThreads);
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.isNegative() || constant.getActiveBits() > 62
               ? std::nullopt
               : fits(constant.getZExtValue());
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  if (isa<gpu::BlockDimOp>(def))
    return fits(kMaxHostBlockThreads);
  if (isa<gpu::ThreadIdOp>(def))
    return fits(kMaxHostBlockThreads - 1);
  auto operand = [&](unsigned i) {
    return getSmallBound(def->getOperand(i), threadIds, blockDims, depth + 1);
  };
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtUIOp,
          arith::ExtSIOp, arith::TruncIOp>(def))
    return fits(operand(0));
  if (isa<arith::AddIOp, arith::MulIOp>(def)) {
    std::optional<uint64_t> lhs = operand(0), rhs = operand(1);
    if (!lhs || !rhs)
      return std::nullopt;
    // Both are below 2^62: the sum does not wrap, the product saturates.
    bool overflow = false;
    uint64_t result = isa<arith::AddIOp>(def)
                          ? *lhs + *rhs
                          : llvm::SaturatingMultiply(*lhs, *rhs, &overflow);
    return overflow || result >> 62 ? std::nullopt : fits(result);
  }
  return std::nullopt;
}

/// Whether \p value is a positive loop step or 0: provably non-negative.
static bool isNonNegativeStep(Value value, ValueRange threadIds,
                              ArrayRef<Value> blockDims) {
  return (value.getType().isIndex() && isNonNegative(value, threadIds)) ||
         getSmallBound(value, threadIds, blockDims);
}

/// Whether \p value is defined outside \p op (dominates it, for values used
/// inside it).
static bool isDefinedOutside(Value value, Operation *op) {
  return !op->isAncestor(value.getParentRegion()->getParentOp());
}

/// Rewrites \p loop as the scf.for it stands for when it counts: its
/// `before` region is one comparison of an argument (the induction variable,
/// only compared and forwarded) with a value from outside, `iv < ub` (slt,
/// ult, or sgt / ugt with the operands swapped), the condition forwards the
/// arguments in order, and the `after` region yields `iv + step` for it with
/// a non-negative step from outside. An unsigned comparison gives an
/// unsignedCmp loop; the other arguments become iteration arguments, and the
/// induction variable's final value, when used, one more. This is what
/// MLIR's upliftWhileToForLoop (SCF/Transforms) does for signed comparisons
/// (with a closed form of the final value that assumes one iteration);
/// C frontends write `while (i < n)` over size_t as ult. Returns whether it
/// rewrote it.
static bool upliftCountingWhile(scf::WhileOp loop, ValueRange threadIds,
                                ArrayRef<Value> blockDims) {
  using P = arith::CmpIPredicate;
  Block *before = loop.getBeforeBody();
  scf::ConditionOp condition = loop.getConditionOp();
  auto cmp = dyn_cast<arith::CmpIOp>(&before->front());
  if (!cmp || cmp->getNextNode() != condition ||
      condition.getCondition() != cmp.getResult() ||
      ValueRange(before->getArguments()) != condition.getArgs())
    return false;
  // iv < ub.
  Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
  P pred = cmp.getPredicate();
  if (pred == P::sgt || pred == P::ugt) {
    std::swap(lhs, rhs);
    pred = swapOperands(pred);
  }
  if (pred != P::slt && pred != P::ult)
    return false;
  auto iv = dyn_cast<BlockArgument>(lhs);
  if (!iv || iv.getOwner() != before || !llvm::hasNItems(iv.getUses(), 2) ||
      !isDefinedOutside(rhs, loop))
    return false;
  unsigned k = iv.getArgNumber();
  // The after region yields iv + step.
  Block *after = loop.getAfterBody();
  scf::YieldOp yield = loop.getYieldOp();
  Value afterIV = after->getArgument(k);
  auto next = yield.getOperand(k).getDefiningOp<arith::AddIOp>();
  if (!next)
    return false;
  Value step = next.getLhs() == afterIV   ? next.getRhs()
               : next.getRhs() == afterIV ? next.getLhs()
                                          : Value();
  if (!step || !isDefinedOutside(step, loop) ||
      !isNonNegativeStep(step, threadIds, blockDims))
    return false;

  OpBuilder b(loop);
  Location loc = loop.getLoc();
  bool keepFinal = !loop.getResult(k).use_empty();
  SmallVector<Value> inits;
  for (auto [i, init] : llvm::enumerate(loop.getInits()))
    if (i != k)
      inits.push_back(init);
  Value lb = loop.getInits()[k];
  if (keepFinal)
    inits.push_back(lb);
  auto forOp = scf::ForOp::create(
      b, loc, lb, rhs, step, inits,
      [](OpBuilder &, Location, Value, ValueRange) {}, pred == P::ult);
  Block *body = forOp.getBody();
  // The after block's arguments: the iteration arguments, with the
  // induction variable at k.
  SmallVector<Value> args;
  for (unsigned i = 0, e = after->getNumArguments(); i < e; ++i)
    args.push_back(i == k  ? forOp.getInductionVar()
                   : i < k ? forOp.getRegionIterArgs()[i]
                           : forOp.getRegionIterArgs()[i - 1]);
  IRRewriter rewriter(loop.getContext());
  rewriter.mergeBlocks(after, body, args);
  auto term = cast<scf::YieldOp>(body->getTerminator());
  SmallVector<Value> yielded;
  for (auto [i, value] : llvm::enumerate(term.getOperands()))
    if (i != k)
      yielded.push_back(value);
  if (keepFinal)
    yielded.push_back(term.getOperand(k));
  OpBuilder tb(term);
  scf::YieldOp::create(tb, term.getLoc(), yielded);
  term.erase();
  // The while's results: the iteration arguments' final values, and the
  // induction variable's (the first value that failed the comparison).
  SmallVector<Value> results;
  for (unsigned i = 0, e = loop.getNumResults(); i < e; ++i) {
    if (i == k) {
      results.push_back(keepFinal ? forOp.getResults().back() : Value());
      continue;
    }
    results.push_back(forOp.getResult(i < k ? i : i - 1));
  }
  for (auto [result, value] : llvm::zip(loop.getResults(), results))
    if (value)
      result.replaceAllUsesWith(value);
  loop.erase();
  return true;
}

/// In the body of a normalized iN loop, which runs only where i = j + T
/// (\p sum of the loop's induction variable \p j and the thread offset
/// \p offset, 0 <= T) is below the loop's upper bound and so does not wrap in
/// the loop's order, extensions of i to index (`index_cast` for a signed
/// loop, `index_castui` for an unsigned one) become index(j) + T: the
/// extension distributes over a sum that does not wrap. \p offsetIndex is
/// T's exact index value (T is small); where T is itself a cast of an index
/// value (`index_cast %tid`), that value. Accesses then step in index, as
/// in the index form of the loop, instead of extending i at each access
/// (histogram's i32 grid-stride loop: a sign extension per byte).
static void widenOffsetCasts(Value sum, Value j, Value offset,
                             Value offsetIndex, bool isUnsigned, Block *body) {
  if (auto cast = offset.getDefiningOp<arith::IndexCastOp>();
      cast && cast.getIn().getType().isIndex())
    offsetIndex = cast.getIn();
  else if (auto castUI = offset.getDefiningOp<arith::IndexCastUIOp>();
           castUI && castUI.getIn().getType().isIndex())
    offsetIndex = castUI.getIn();
  SmallVector<Operation *> casts;
  for (Operation *user : sum.getUsers())
    if (user->getBlock() == body && user->getResult(0).getType().isIndex() &&
        (isUnsigned ? isa<arith::IndexCastUIOp>(user)
                    : isa<arith::IndexCastOp>(user)))
      casts.push_back(user);
  if (casts.empty())
    return;
  OpBuilder b(body, body->begin());
  Location loc = sum.getLoc();
  Type index = b.getIndexType();
  Value base = isUnsigned
                   ? arith::IndexCastUIOp::create(b, loc, index, j).getResult()
                   : arith::IndexCastOp::create(b, loc, index, j).getResult();
  Value wide = arith::AddIOp::create(b, loc, base, offsetIndex);
  for (Operation *cast : casts) {
    cast->getResult(0).replaceAllUsesWith(wide);
    cast->erase();
  }
}

void ThreadLoopBuilder::normalizeThreadOffsetLoops() {
  ThreadRegion &root = *regions.front();
  ValueRange ivs = root.getIVs();
  SmallVector<Value> blockDims(std::begin(dims), std::end(dims));
  llvm::erase(blockDims, Value());
  // Counting scf.while loops are the scf.for loops they stand for.
  SmallVector<scf::WhileOp> whiles;
  root.loop.walk([&](scf::WhileOp loop) { whiles.push_back(loop); });
  bool changed = false;
  for (scf::WhileOp loop : whiles)
    changed |= upliftCountingWhile(loop, ivs, blockDims);
  if (changed) {
    varying.clear();
    computeVaryingValues();
  }

  SmallVector<scf::ForOp> loops;
  root.loop.walk([&](scf::ForOp loop) {
    if (isVarying(loop.getLowerBound()) && !isVarying(loop.getUpperBound()) &&
        !isVarying(loop.getStep()))
      loops.push_back(loop);
  });
  // A thread offset: >= 0, and for iN loops small enough that its index
  // value is exact.
  auto isThreadOffset = [&](Value value) {
    return (value.getType().isIndex() && isNonNegative(value, ivs)) ||
           getSmallBound(value, ivs, blockDims);
  };
  for (scf::ForOp loop : loops) {
    // lb = U + T with U uniform and T >= 0 thread-dependent (grid-stride
    // loops: lb = block_id * block_dim + thread_id).
    Value lb = loop.getLowerBound(), uniformPart, offset;
    if (auto add = lb.getDefiningOp<arith::AddIOp>()) {
      for (unsigned i = 0; i < 2; ++i)
        if (!isVarying(add->getOperand(i)) &&
            isThreadOffset(add->getOperand(1 - i))) {
          uniformPart = add->getOperand(i);
          offset = add->getOperand(1 - i);
        }
    }
    OpBuilder b(loop);
    Location loc = loop.getLoc();
    if (!offset && isThreadOffset(lb)) {
      offset = lb;
      uniformPart =
          arith::ConstantOp::create(b, loc, b.getZeroAttr(lb.getType()));
    }
    if (!offset)
      continue;
    // for (j = U; j < ub; j += step) { i = j + T; if (T < ub - j) body(i) }:
    // since T >= 0, the iterations of each thread are the same. j < ub, so
    // ub - j is exact as an unsigned value, and the guard is `j + T < ub`
    // without its wrap; an iN loop compares in index (T and ub - j
    // zero-extended), which makes it a bound of the thread loop.
    Value ub = loop.getUpperBound();
    bool narrow = !lb.getType().isIndex();
    bool isUnsigned = loop.getUnsignedCmp();
    auto normalized = scf::ForOp::create(
        b, loc, uniformPart, ub, loop.getStep(), loop.getInitArgs(),
        [&](OpBuilder &lb2, Location l, Value j, ValueRange iterArgs) {
          Value i = arith::AddIOp::create(lb2, l, j, offset);
          Value left = arith::SubIOp::create(lb2, l, ub, j);
          Value t = offset;
          if (narrow) {
            Type index = lb2.getIndexType();
            t = arith::IndexCastUIOp::create(lb2, l, index, offset);
            left = arith::IndexCastUIOp::create(lb2, l, index, left);
          }
          Value inside = arith::CmpIOp::create(lb2, l,
                                               isUnsigned && !narrow
                                                   ? arith::CmpIPredicate::ult
                                                   : arith::CmpIPredicate::slt,
                                               t, left);
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
          if (narrow)
            widenOffsetCasts(i, j, offset, t, isUnsigned, then);
          scf::YieldOp::create(lb2, l, guard.getResults());
          offsetGuards.push_back(guard);
        },
        isUnsigned);
    loop.replaceAllUsesWith(normalized.getResults());
    loop.erase();
    changed = true;
  }
  if (changed) {
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
