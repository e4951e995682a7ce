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
// are first normalized to uniform bounds with a guard. The interchange of
// Polygeist's barrier lowering (W. S. Moses et al., PPoPP 2023), chosen by an
// access-stride test instead of by barriers.
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

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
