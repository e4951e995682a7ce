//===- VectorizeThreadLoops.cpp - Thread loops as vector code -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Vectorization across threads (whole-function vectorization, Karrenberg and
// Hack, CGO 2011; ISPC's SPMD-on-SIMD; PoCL's work-group vectorizer): the
// innermost dimension (thread x) of a thread loop of `offload-host-thread-
// loops` with a static trip count runs W threads per iteration, one vector
// lane per thread. Values that depend on thread x become vectors, the others
// stay scalars; index values of the form `base + stride * x` are kept in that
// form, so that accesses along x with unit stride become vector loads and
// stores, uniform ones stay scalar, and others are done lane by lane.
// Uniform loops and branches in the body stay loops and branches around
// vector code (outer-loop vectorization); branches on thread-dependent
// conditions without memory accesses become selects.
//
// LLVM's loop vectorizer does the same on the thread loops when it can, but
// its full unroller runs first: loops with a small static trip count (the
// block size) are unrolled into straight-line code, which it then vectorizes
// along the wrong dimension with gathers and scatters, or not at all.
//
// The order of memory accesses changes only between threads of one barrier
// interval, which a race-free kernel cannot observe: lanes run each op in
// turn instead of each thread running its whole body in turn.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Transforms/HostKernel/ThreadLoops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/Sequence.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTVECTORIZETHREADLOOPS
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

namespace {

/// Lanes per vector at most (a 512-bit register of 32-bit elements).
constexpr int64_t kMaxLanes = 16;
/// Loops with larger bodies are left alone (compile time).
constexpr unsigned kMaxBodyOps = 500;
/// Loads with a constant stride along x up to this are contiguous runs and a
/// shuffle (emitStridedLoad); larger strides are gathers (a run of W
/// elements would hold fewer than a quarter of useful ones).
constexpr int64_t kMaxShuffledStride = 4;

/// A thread-dependent index `base + stride * lane` (base: the scalar value of
/// lane 0).
struct AffineLane {
  Value base;
  int64_t stride;
};

/// Where the lanes of a guarded `base + lane` index wrap (one extension of
/// an iN value): lanes from `first` on have the index `base + lane + shift`
/// (shift = -2^N, in the index's units), the others `base + lane`; `first`
/// (index) is at least W when none wraps.
struct WrapPoint {
  Value first;
  int64_t shift;
};

/// An induction variable that takes values in [lb, ub) (ub - 1 included
/// when lb < ub), with bounds available where a RangeTest builds.
struct RangedIV {
  Value iv, lb, ub;
  /// Whether the range is unsigned (scf.for's unsignedCmp).
  bool isUnsigned = false;
};

/// A test, built once before a region (a thread loop, or a sequential loop
/// around it), that implies an i1 `guard` computed in the region for every
/// value its induction variables take: interval arithmetic on functions
/// affine in them.
///
/// The guard is a conjunction of integer comparisons. Each side is
/// evaluated exactly, in i128, at every corner of the box of the
/// induction variables it depends on (lb and ub - 1 of each): the iN
/// value of a side computed by addi / subi / muli (by a value that does not
/// depend on them) and truncations is congruent modulo 2^N to that exact
/// value, which is affine in the induction variables, and it equals it when
/// the exact value lies in iN's range (signed or unsigned, as the
/// comparison reads it); an extension inside the computation requires the
/// same of its operand. An affine function's extremes over a box are at its
/// corners, so the range conditions and the comparison at the corners hold
/// for every point of the box. An empty range makes the test true (the
/// region does not run).
///
/// Values that do not depend on the induction variables are used as they
/// are when defined outside the region, and recomputed before it when
/// computed in it by pure ops. Fails (build() returns null, nothing built)
/// on anything else.
/// The nearest `scf.for` around \p op through `scf.if`s only (the
/// sequential loop whose steps a range test or an unswitch covers), or null
/// when another op is in between.
static scf::ForOp getSequentialLoopAround(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (auto forOp = dyn_cast<scf::ForOp>(p))
      return forOp;
    if (!isa<scf::IfOp>(p))
      return nullptr;
  }
  return nullptr;
}

class RangeTest {
public:
  RangeTest(Operation *region, ArrayRef<RangedIV> ivs)
      : region(region), ivs(ivs) {}

  /// The test, built before the region; null when \p guard is not of the
  /// form above.
  Value build(Value guard);

  /// The test that \p v (an iN value, N < 64, computed in the region as a
  /// side of a guard is) does not wrap: its exact value lies in iN's signed
  /// range (unsigned when \p isUnsigned) for every value of the induction
  /// variables; null when \p v is not of that form or does not depend on
  /// them. Where the test holds, \p v extended to 64 bits equals
  /// rebuildExact(v).
  Value buildNoWrap(Value v, bool isUnsigned);

  /// \p v (analyzed by a buildNoWrap that succeeded) computed exactly in
  /// `index` at \p b's insertion point, in the region: the same addi /
  /// subi / muli on the leaves sign-extended (induction variables as their
  /// range reads them), casts dropped. Equal to the extension of \p v
  /// where buildNoWrap's test holds (its exact value is in iN's range; the
  /// index arithmetic is congruent to it modulo 2^64).
  Value rebuildExact(Value v, OpBuilder &b);

private:
  /// What analyze() found out about a value: the induction variables it
  /// depends on (bit mask), and a bound on the bits of its exact value
  /// (sign included) when it depends on some.
  struct Info {
    unsigned ivMask = 0;
    unsigned bits = 0;
  };
  std::optional<Info> analyze(Value v);
  std::optional<Info> analyzeGuard(Value guard);
  /// \p v (independent of the ivs) before the region.
  Value hoist(Value v);
  /// \p v's exact value, in i128, at corner \p corner (bit i: ub - 1 of
  /// iv i, else its lb); range conditions go into `conditions`.
  Value evaluate(Value v, unsigned corner);
  Value evaluateGuard(Value guard, unsigned corner);
  /// `holdsAt(corner)` (with the range conditions it records) at every
  /// corner of the ivs in \p ivMask, or one of their ranges is empty.
  Value atEveryCorner(unsigned ivMask,
                      llvm::function_ref<Value(unsigned)> holdsAt);
  Value wide(Value v, bool isUnsigned);
  Value inRange(Value exact, Type type, bool isUnsigned);
  Value constant(const APInt &value);
  bool isOutside(Value v) const;

  Operation *region;
  ArrayRef<RangedIV> ivs;
  OpBuilder builder{region};
  Location loc = region->getLoc();
  DenseMap<Value, std::optional<Info>> infos;
  IRMapping hoisted;
  DenseMap<std::pair<Value, unsigned>, Value> exact;
  SmallVector<Value> conditions;
};

class LoopVectorizer {
public:
  /// \p assumeGuards: contiguous accesses whose contiguity has a run-time
  /// guard (an i32 index that must not wrap) are emitted as contiguous, and
  /// the guards are computed once before the loop (`condition`); run() fails
  /// when one depends on the loop's threads.
  /// \p branchFree: guarded accesses with one wrap point are two masked runs
  /// (also outside sequential loops).
  LoopVectorizer(scf::ParallelOp loop, int64_t width, bool assumeGuards = false,
                 bool branchFree = false)
      : loop(loop), width(width), assumeGuards(assumeGuards),
        builder(loop.getContext()), loc(loop.getLoc()), branchFree(branchFree) {
  }

  /// Rewrites the loop; returns false (and leaves it unchanged) when its body
  /// has something this does not vectorize or would not gain from.
  bool run();

  /// With assumeGuards, after a successful run(): the i1 (built before the
  /// loop) under which the vectorized loop is exact; null when no access
  /// needed a guard.
  Value condition;

private:
  bool computeVarying();
  bool isVarying(Value v) const { return varying.contains(v); }
  VectorType vectorOf(Type t) const { return VectorType::get({width}, t); }

  Value getScalar(Value v) { return mapping.lookupOrDefault(v); }
  /// \p v (of the original body) as a vector of its lanes.
  Value getVector(Value v);
  /// \p v as the new body has it: a vector when varying, else a scalar.
  Value getValue(Value v) { return isVarying(v) ? getVector(v) : getScalar(v); }
  /// Lane \p lane of \p v.
  Value getLane(Value v, int64_t lane);

  LogicalResult visitBlock(Block &block);
  /// Visits the body of \p parent (a loop or branch) and collects the values
  /// its terminator yields for \p parent's results.
  LogicalResult visitNestedBlock(Block &block, SmallVectorImpl<Value> &yields,
                                 Operation *parent);
  LogicalResult visit(Operation *op);
  LogicalResult visitElementwise(Operation *op);
  LogicalResult visitLoad(memref::LoadOp op);
  LogicalResult visitStore(memref::StoreOp op);
  Value emitContiguousLoad(memref::LoadOp op);
  /// A gather, or loads lane by lane (also when \p preferLanes and no mask:
  /// the rarely taken path of a guarded contiguous load, where a gather's
  /// unknown addresses would keep LLVM from promoting the loop's other
  /// memory, e.g. accumulators in a per-thread array, to registers).
  Value emitGeneralLoad(memref::LoadOp op, bool preferLanes = false);
  /// A load at `min(a, u)` or `max(a, u)` along the innermost dimension (a
  /// clamped neighbour: `a` unit-stride along x, `u` the same for the lanes),
  /// or null when \p op's index is not one.
  Value emitClampedLoad(memref::LoadOp op);
  /// A load at `base + s * lane` along the innermost dimension for a small
  /// constant stride s (2 to kMaxShuffledStride: interleaved fields, nn's
  /// (lat, lng) pairs): s contiguous runs of W elements from `base`, the
  /// elements past the last lane's masked off, and one shuffle that takes
  /// every s-th element (a transpose through registers instead of a
  /// gather); null when \p op's index is not one.
  Value emitStridedLoad(memref::LoadOp op);
  /// A load whose innermost index is a run along x on either side of a
  /// choice the same for the lanes (an `arith.select` on a uniform
  /// condition in its computation, srad's north neighbour
  /// `by == 0 ? tx : base - cols + tx`): a branch on the condition between
  /// two contiguous loads; null when \p op's index is not one.
  Value emitUniformChoiceLoad(memref::LoadOp op);
  /// The form `base + stride * lane` \p v has when the uniform \p cond is
  /// \p taken (selects on it replaced by the chosen operand), built at the
  /// builder's insertion point when \p build; std::nullopt when it has none
  /// (then nothing is built).
  std::optional<AffineLane> affineAssuming(Value v, Value cond, bool taken,
                                           bool build, unsigned depth = 0);
  /// A uniform condition of an `arith.select` in the computation of the
  /// thread-dependent index \p v (through integer arithmetic in the loop);
  /// null when there is none.
  Value findUniformChoice(Value v, unsigned depth = 0);
  void emitContiguousStore(memref::StoreOp op);
  /// A guarded contiguous access whose index has one wrap point (WrapPoint):
  /// two masked runs, the lanes before the wrap and those after, no branch.
  Value emitWrappingLoad(memref::LoadOp op);
  void emitWrappingStore(memref::StoreOp op);
  /// The lanes before and after \p wrap (within the mask).
  std::pair<Value, Value> wrapMasks(const WrapPoint &wrap);
  /// \p indices of a contiguous access, the innermost one's base plus
  /// \p shift.
  SmallVector<Value> runIndices(ValueRange indices, int64_t shift);
  void emitLaneStores(memref::StoreOp op);
  LogicalResult visitFor(scf::ForOp op);
  LogicalResult visitIf(scf::IfOp op);
  /// Whether the accesses of \p indices into \p memref are a unit-stride run
  /// along the innermost dimension (the others uniform).
  /// \p guard: null, or the i1 value under which the run is contiguous.
  bool isContiguous(Value memref, ValueRange indices, Value &guard);
  /// Whether the accesses differ between lanes along the innermost dimension
  /// only (a gather).
  bool isGatherable(Value memref, ValueRange indices);

  /// Whether the guards in `assumed` can be tested before the loop for all
  /// its threads (RangeTest: computed by pure ops from values defined
  /// outside it and the thread ids, affine in the latter); if so, builds
  /// the tests' conjunction into `condition`, before the sequential loop
  /// around the loop where the test also holds for all its steps.
  bool hoistAssumptions();

  /// With assumeGuards, after hoistAssumptions built `condition`: the i32
  /// (iN, N < 64) index values of the new body's memory accesses that are
  /// extended to index (`arith.index_cast`), affine in the thread ids and
  /// the induction variable of the sequential loop around, are computed in
  /// index instead where a RangeTest shows they do not wrap, and that test
  /// joins `condition`. LLVM cannot step addresses in a loop over
  /// `sext(a + k)` without `nsw` (a wrap would jump the address back by
  /// 2^32 elements): the naive matmul's i32 row of A, one `vpextrd` and
  /// `movslq` per row and step; in index they become pointer increments.
  void widenIndices();

  scf::ParallelOp loop;
  int64_t width;
  bool assumeGuards;
  SmallVector<Value> assumed;
  OpBuilder builder;
  Location loc;
  Value iv;
  DenseSet<Value> varying;
  IRMapping mapping;
  DenseMap<Value, Value> vectors;
  DenseMap<Value, AffineLane> affine;
  /// For affine forms that hold only when a cast did not wrap: the i1 value
  /// that says they hold (the exact lanes are in `vectors`).
  DenseMap<Value, Value> guards;
  /// For guarded forms with a single wrap point: where it is, so that a
  /// contiguous access can be two masked runs instead of a branch.
  DenseMap<Value, WrapPoint> wraps;
  /// Whether guarded accesses prefer the two masked runs to a branch (the
  /// rarely run version of a loop versioned on its guards).
  bool branchFree = false;
  /// The lanes that run the code being visited (a vector<W x i1>), under
  /// thread-dependent branches; null: all.
  Value mask;
  /// Accesses done lane by lane and as vectors (the gain).
  unsigned laneAccesses = 0, vectorAccesses = 0;
  /// hoistAssumptions' tests (over the loop's threads, and over them and
  /// the steps of the sequential loop around it) and their ranges.
  SmallVector<RangedIV> loopIVs, outerIVs;
  std::optional<RangeTest> loopTest, outerTest;
  scf::ForOp outer;
  /// Whether every test of `condition` is made before `outer` (the loop can
  /// be unswitched on it).
  bool conditionOutside = false;
};

} // namespace

/// Bits (with the sign) of the exact value of an iN or index value.
static unsigned bitsOf(Type type) {
  return (type.isIndex() ? 64 : type.getIntOrFloatBitWidth()) + 1;
}

/// Exact values in i128 with this many bits at most (sign included).
constexpr unsigned kMaxExactBits = 126;
/// Induction variables one guard may depend on (2^N corners).
constexpr unsigned kMaxRangedIVs = 3;

bool RangeTest::isOutside(Value v) const {
  if (Operation *def = v.getDefiningOp())
    return !region->isAncestor(def);
  return !region->isAncestor(cast<BlockArgument>(v).getOwner()->getParentOp());
}

std::optional<RangeTest::Info> RangeTest::analyze(Value v) {
  if (auto it = infos.find(v); it != infos.end())
    return it->second;
  // Provisionally a failure (no cycles in SSA, but a safe default).
  infos[v] = std::nullopt;
  std::optional<Info> result;
  for (auto [i, ranged] : llvm::enumerate(ivs))
    if (v == ranged.iv) {
      unsigned bits = bitsOf(v.getType());
      std::optional<int64_t> lb = getConstantIntValue(ranged.lb),
                             ub = getConstantIntValue(ranged.ub);
      if (lb && ub && !ranged.isUnsigned)
        bits = std::max(APInt(64, *lb, /*isSigned=*/true).getSignificantBits(),
                        APInt(64, *ub, /*isSigned=*/true).getSignificantBits());
      result = Info{1u << i, bits};
    }
  Operation *def = v.getDefiningOp();
  if (!result && isOutside(v)) {
    result = Info{};
  } else if (!result && def && def->getNumRegions() == 0 && isPure(def) &&
             v.getType().isIntOrIndex()) {
    SmallVector<Info> operands;
    bool ok = true;
    for (Value operand : def->getOperands()) {
      std::optional<Info> info = analyze(operand);
      if (!info) {
        ok = false;
        break;
      }
      operands.push_back(*info);
    }
    unsigned mask = 0;
    for (const Info &info : operands)
      mask |= info.ivMask;
    auto bitsOfOperand = [&](unsigned i) {
      return operands[i].ivMask ? operands[i].bits
                                : bitsOf(def->getOperand(i).getType());
    };
    if (ok && mask == 0) {
      result = Info{}; // Recomputed before the region.
    } else if (ok) {
      if (isa<arith::AddIOp, arith::SubIOp>(def)) {
        result = Info{mask, std::max(bitsOfOperand(0), bitsOfOperand(1)) + 1};
      } else if (isa<arith::MulIOp>(def)) {
        // Affine: one factor independent of the induction variables.
        if (!operands[0].ivMask || !operands[1].ivMask)
          result = Info{mask, bitsOfOperand(0) + bitsOfOperand(1)};
      } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                     arith::ExtUIOp, arith::TruncIOp>(def)) {
        unsigned from = bitsOf(def->getOperand(0).getType()),
                 to = bitsOf(v.getType());
        // An extension's operand is in its range (a condition): its exact
        // value has the operand type's bits; a truncation keeps the exact
        // value (congruent modulo 2^N).
        result = Info{mask, to > from ? from : operands[0].bits};
      }
    }
  }
  if (result && result->ivMask && result->bits > kMaxExactBits)
    result = std::nullopt;
  infos[v] = result;
  return result;
}

std::optional<RangeTest::Info> RangeTest::analyzeGuard(Value guard) {
  Operation *def = guard.getDefiningOp();
  if (auto andOp = dyn_cast_or_null<arith::AndIOp>(def)) {
    std::optional<Info> l = analyzeGuard(andOp.getLhs());
    std::optional<Info> r = l ? analyzeGuard(andOp.getRhs()) : std::nullopt;
    if (!r)
      return std::nullopt;
    return Info{l->ivMask | r->ivMask, 0};
  }
  if (auto cmp = dyn_cast_or_null<arith::CmpIOp>(def)) {
    std::optional<Info> l = analyze(cmp.getLhs());
    std::optional<Info> r = l ? analyze(cmp.getRhs()) : std::nullopt;
    if (!r)
      return std::nullopt;
    return Info{l->ivMask | r->ivMask, 0};
  }
  // Independent of the induction variables: as it is.
  std::optional<Info> info = analyze(guard);
  if (info && info->ivMask == 0)
    return info;
  return std::nullopt;
}

Value RangeTest::hoist(Value v) {
  if (isOutside(v))
    return v;
  if (Value mapped = hoisted.lookupOrNull(v))
    return mapped;
  Operation *def = v.getDefiningOp();
  for (Value operand : def->getOperands())
    hoisted.map(operand, hoist(operand));
  Operation *clone = builder.clone(*def, hoisted);
  return clone->getResult(cast<OpResult>(v).getResultNumber());
}

Value RangeTest::constant(const APInt &value) {
  return arith::ConstantOp::create(
      builder, loc,
      builder.getIntegerAttr(builder.getIntegerType(128), value.sext(128)));
}

Value RangeTest::wide(Value v, bool isUnsigned) {
  Type i128 = builder.getIntegerType(128);
  if (v.getType().isIndex()) {
    Type i64 = builder.getI64Type();
    v = isUnsigned
            ? arith::IndexCastUIOp::create(builder, loc, i64, v).getResult()
            : arith::IndexCastOp::create(builder, loc, i64, v).getResult();
  }
  if (isUnsigned)
    return arith::ExtUIOp::create(builder, loc, i128, v);
  return arith::ExtSIOp::create(builder, loc, i128, v);
}

Value RangeTest::inRange(Value value, Type type, bool isUnsigned) {
  unsigned n = bitsOf(type) - 1;
  APInt lo = isUnsigned ? APInt::getZero(n) : APInt::getSignedMinValue(n);
  APInt hi = isUnsigned ? APInt::getMaxValue(n) : APInt::getSignedMaxValue(n);
  using P = arith::CmpIPredicate;
  Value ge =
      arith::CmpIOp::create(builder, loc, P::sge, value,
                            constant(isUnsigned ? lo.zext(128) : lo.sext(128)));
  Value le =
      arith::CmpIOp::create(builder, loc, P::sle, value,
                            constant(isUnsigned ? hi.zext(128) : hi.sext(128)));
  return arith::AndIOp::create(builder, loc, ge, le);
}

Value RangeTest::evaluate(Value v, unsigned corner) {
  std::optional<Info> info = infos.lookup(v);
  if (!info->ivMask)
    return wide(hoist(v), /*isUnsigned=*/false);
  // Only the corner's bits for the ivs v depends on matter.
  unsigned key = corner & info->ivMask;
  if (Value known = exact.lookup({v, key}))
    return known;
  Value result;
  for (auto [i, ranged] : llvm::enumerate(ivs))
    if (v == ranged.iv) {
      if (corner & (1u << i)) {
        Value ub = wide(ranged.ub, ranged.isUnsigned);
        result =
            arith::SubIOp::create(builder, loc, ub, constant(APInt(128, 1)));
      } else {
        result = wide(ranged.lb, ranged.isUnsigned);
      }
    }
  if (!result) {
    Operation *def = v.getDefiningOp();
    if (isa<arith::AddIOp>(def)) {
      result = arith::AddIOp::create(builder, loc,
                                     evaluate(def->getOperand(0), corner),
                                     evaluate(def->getOperand(1), corner));
    } else if (isa<arith::SubIOp>(def)) {
      result = arith::SubIOp::create(builder, loc,
                                     evaluate(def->getOperand(0), corner),
                                     evaluate(def->getOperand(1), corner));
    } else if (isa<arith::MulIOp>(def)) {
      result = arith::MulIOp::create(builder, loc,
                                     evaluate(def->getOperand(0), corner),
                                     evaluate(def->getOperand(1), corner));
    } else {
      // A cast.
      Value source = def->getOperand(0);
      result = evaluate(source, corner);
      if (bitsOf(v.getType()) > bitsOf(source.getType()))
        conditions.push_back(
            inRange(result, source.getType(),
                    isa<arith::IndexCastUIOp, arith::ExtUIOp>(def)));
    }
  }
  exact[{v, key}] = result;
  return result;
}

Value RangeTest::evaluateGuard(Value guard, unsigned corner) {
  Operation *def = guard.getDefiningOp();
  if (auto andOp = dyn_cast_or_null<arith::AndIOp>(def))
    return arith::AndIOp::create(builder, loc,
                                 evaluateGuard(andOp.getLhs(), corner),
                                 evaluateGuard(andOp.getRhs(), corner));
  auto cmp = dyn_cast_or_null<arith::CmpIOp>(def);
  if (!cmp || (!infos.lookup(cmp.getLhs())->ivMask &&
               !infos.lookup(cmp.getRhs())->ivMask))
    return hoist(guard);
  using P = arith::CmpIPredicate;
  P pred = cmp.getPredicate();
  bool isUnsigned =
      pred == P::ult || pred == P::ule || pred == P::ugt || pred == P::uge;
  Value l = evaluate(cmp.getLhs(), corner), r = evaluate(cmp.getRhs(), corner);
  Type type = cmp.getLhs().getType();
  Value ok = arith::AndIOp::create(builder, loc, inRange(l, type, isUnsigned),
                                   inRange(r, type, isUnsigned));
  // Exact values in range: their signed order is the comparison's.
  P exactPred = pred;
  switch (pred) {
  case P::ult:
    exactPred = P::slt;
    break;
  case P::ule:
    exactPred = P::sle;
    break;
  case P::ugt:
    exactPred = P::sgt;
    break;
  case P::uge:
    exactPred = P::sge;
    break;
  default:
    break;
  }
  Value holds = arith::CmpIOp::create(builder, loc, exactPred, l, r);
  return arith::AndIOp::create(builder, loc, ok, holds);
}

Value RangeTest::build(Value guard) {
  std::optional<Info> info = analyzeGuard(guard);
  if (!info || llvm::popcount(info->ivMask) > int(kMaxRangedIVs))
    return nullptr;
  for (const RangedIV &ranged : ivs)
    if ((info->ivMask & (1u << (&ranged - ivs.data()))) &&
        (!isOutside(ranged.lb) || !isOutside(ranged.ub)))
      return nullptr;
  if (!info->ivMask)
    return hoist(guard);
  // Every corner of the ivs the guard depends on.
  return atEveryCorner(info->ivMask, [&](unsigned corner) {
    return evaluateGuard(guard, corner);
  });
}

Value RangeTest::atEveryCorner(unsigned ivMask,
                               llvm::function_ref<Value(unsigned)> holdsAt) {
  Value all;
  for (unsigned corner = 0; corner < (1u << ivs.size()); ++corner) {
    if (corner & ~ivMask)
      continue;
    conditions.clear();
    Value holds = holdsAt(corner);
    for (Value c : conditions)
      holds = arith::AndIOp::create(builder, loc, c, holds);
    all = all ? arith::AndIOp::create(builder, loc, all, holds).getResult()
              : holds;
  }
  // Or some range is empty.
  using P = arith::CmpIPredicate;
  for (auto [i, ranged] : llvm::enumerate(ivs)) {
    if (!(ivMask & (1u << i)))
      continue;
    Value empty =
        arith::CmpIOp::create(builder, loc, ranged.isUnsigned ? P::ule : P::sle,
                              ranged.ub, ranged.lb);
    all = arith::OrIOp::create(builder, loc, all, empty);
  }
  return all;
}

Value RangeTest::buildNoWrap(Value v, bool isUnsigned) {
  if (!v.getType().isInteger() || v.getType().getIntOrFloatBitWidth() >= 64)
    return nullptr;
  std::optional<Info> info = analyze(v);
  if (!info || !info->ivMask ||
      llvm::popcount(info->ivMask) > int(kMaxRangedIVs))
    return nullptr;
  for (auto [i, ranged] : llvm::enumerate(ivs))
    if ((info->ivMask & (1u << i)) &&
        (!isOutside(ranged.lb) || !isOutside(ranged.ub) ||
         !ranged.iv.getType().isSignlessIntOrIndex() ||
         bitsOf(ranged.iv.getType()) > 65))
      return nullptr;
  // Leaves wider than 64 bits cannot be rebuilt in index.
  SmallVector<Value> worklist{v};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value w = worklist.pop_back_val();
    if (!seen.insert(w).second)
      continue;
    if (bitsOf(w.getType()) > 65)
      return nullptr;
    bool isIV = llvm::any_of(ivs, [&](const RangedIV &r) { return r.iv == w; });
    if (isIV || !infos.lookup(w)->ivMask)
      continue;
    for (Value operand : w.getDefiningOp()->getOperands())
      worklist.push_back(operand);
  }
  return atEveryCorner(info->ivMask, [&](unsigned corner) {
    return inRange(evaluate(v, corner), v.getType(), isUnsigned);
  });
}

Value RangeTest::rebuildExact(Value v, OpBuilder &b) {
  Type indexType = b.getIndexType();
  Location at = v.getLoc();
  auto extend = [&](Value x, bool isUnsigned) -> Value {
    if (x.getType().isIndex())
      return x;
    if (isUnsigned)
      return arith::IndexCastUIOp::create(b, at, indexType, x);
    return arith::IndexCastOp::create(b, at, indexType, x);
  };
  for (const RangedIV &ranged : ivs)
    if (v == ranged.iv)
      return extend(v, ranged.isUnsigned);
  if (!infos.lookup(v)->ivMask)
    return extend(v, /*isUnsigned=*/false);
  Operation *def = v.getDefiningOp();
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def)) {
    Value l = rebuildExact(def->getOperand(0), b),
          r = rebuildExact(def->getOperand(1), b);
    if (isa<arith::AddIOp>(def))
      return arith::AddIOp::create(b, at, l, r);
    if (isa<arith::SubIOp>(def))
      return arith::SubIOp::create(b, at, l, r);
    return arith::MulIOp::create(b, at, l, r);
  }
  // A cast: the exact value passes through (an extension's operand is in
  // its range by the test's conditions).
  return rebuildExact(def->getOperand(0), b);
}

/// Whether \p op is an op whose thread-dependent form is the same op on
/// vectors (arith and math ops on scalars).
static bool isElementwiseOnScalars(Operation *op) {
  if (op->getNumRegions() != 0 || op->getNumResults() != 1 || !isPure(op) ||
      !OpTrait::hasElementwiseMappableTraits(op))
    return false;
  auto isScalar = [](Type t) { return t.isIntOrIndexOrFloat(); };
  return llvm::all_of(op->getOperandTypes(), isScalar) &&
         llvm::all_of(op->getResultTypes(), isScalar);
}

bool LoopVectorizer::computeVarying() {
  varying.insert(iv);
  // To a fixed point: loop-carried values become varying when what is
  // yielded for them is.
  bool changed = true;
  bool supported = true;
  while (changed && supported) {
    changed = false;
    loop.getBody()->walk([&](Operation *op) {
      bool anyVarying = llvm::any_of(op->getOperands(),
                                     [&](Value v) { return isVarying(v); });
      if (auto forOp = dyn_cast<scf::ForOp>(op)) {
        if (isVarying(forOp.getLowerBound()) ||
            isVarying(forOp.getUpperBound()) || isVarying(forOp.getStep()))
          supported = false;
        auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
        for (auto [i, init] : llvm::enumerate(forOp.getInitArgs()))
          if (isVarying(init) || isVarying(yield.getOperand(i))) {
            changed |= varying.insert(forOp.getRegionIterArg(i)).second;
            changed |= varying.insert(forOp.getResult(i)).second;
          }
        return;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
        bool cond = isVarying(ifOp.getCondition());
        for (unsigned i = 0; i < ifOp.getNumResults(); ++i) {
          bool v =
              cond || isVarying(ifOp.thenYield().getOperand(i)) ||
              (ifOp.elseBlock() && isVarying(ifOp.elseYield().getOperand(i)));
          if (v)
            changed |= varying.insert(ifOp.getResult(i)).second;
        }
        return;
      }
      if (anyVarying)
        for (Value r : op->getResults())
          changed |= varying.insert(r).second;
    });
  }
  return supported;
}

Value LoopVectorizer::getVector(Value v) {
  if (Value known = vectors.lookup(v))
    return known;
  Value result;
  if (auto it = affine.find(v); it != affine.end()) {
    // base + stride * [0, 1, ..., W-1]
    Type type = v.getType();
    VectorType vt = vectorOf(type);
    Value step;
    if (type.isIndex()) {
      step = vector::StepOp::create(builder, loc, vt);
    } else {
      SmallVector<Attribute> lanes;
      for (int64_t i = 0; i < width; ++i)
        lanes.push_back(builder.getIntegerAttr(type, i));
      step = arith::ConstantOp::create(builder, loc, vt,
                                       DenseElementsAttr::get(vt, lanes));
    }
    if (it->second.stride != 1) {
      Value stride = arith::ConstantOp::create(
          builder, loc, vt,
          DenseElementsAttr::get(
              vt, builder.getIntegerAttr(type, it->second.stride)));
      step = arith::MulIOp::create(builder, loc, step, stride);
    }
    Value base = vector::BroadcastOp::create(builder, loc, vt, it->second.base);
    result = arith::AddIOp::create(builder, loc, base, step);
  } else {
    assert(!isVarying(v) && "varying value without a vector");
    result = vector::BroadcastOp::create(builder, loc, vectorOf(v.getType()),
                                         getScalar(v));
  }
  vectors[v] = result;
  return result;
}

Value LoopVectorizer::getLane(Value v, int64_t lane) {
  if (!isVarying(v))
    return getScalar(v);
  if (auto it = affine.find(v); it != affine.end() && !guards.contains(v)) {
    int64_t offset = it->second.stride * lane;
    if (offset == 0)
      return it->second.base;
    Value c = arith::ConstantOp::create(
        builder, loc, builder.getIntegerAttr(v.getType(), offset));
    return arith::AddIOp::create(builder, loc, it->second.base, c);
  }
  return vector::ExtractOp::create(builder, loc, getVector(v), lane);
}

/// Whether a vector of \p memref's elements has their layout in memory and
/// \p memref has unit stride in its innermost dimension.
static bool hasVectorLayout(Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  // A vector of i1 is bit-packed in memory, an array of i1 is not: elements
  // must be whole bytes.
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat() ||
      (!element.isIndex() && element.getIntOrFloatBitWidth() % 8 != 0))
    return false;
  SmallVector<int64_t> strides;
  int64_t offset;
  return type.getRank() > 0 &&
         succeeded(type.getStridesAndOffset(strides, offset)) &&
         strides.back() == 1;
}

bool LoopVectorizer::isGatherable(Value memref, ValueRange indices) {
  if (indices.empty() || !hasVectorLayout(memref))
    return false;
  for (Value index : indices.drop_back())
    if (isVarying(index))
      return false;
  return true;
}

bool LoopVectorizer::isContiguous(Value memref, ValueRange indices,
                                  Value &guard) {
  guard = nullptr;
  if (indices.empty())
    return false;
  for (Value index : indices.drop_back())
    if (isVarying(index))
      return false;
  auto it = affine.find(indices.back());
  if (it == affine.end() || it->second.stride != 1)
    return false;
  guard = guards.lookup(indices.back());
  if (!hasVectorLayout(memref))
    return false;
  if (guard && assumeGuards) {
    // Tested once before the loop (hoistAssumptions).
    assumed.push_back(guard);
    guard = nullptr;
  }
  return true;
}

LogicalResult LoopVectorizer::visitElementwise(Operation *op) {
  Value result = op->getResult(0);
  // Index arithmetic that keeps the `base + stride * lane` form.
  auto affineOf = [&](Value v) -> std::optional<AffineLane> {
    if (auto it = affine.find(v); it != affine.end())
      return it->second;
    if (!isVarying(v))
      return AffineLane{getScalar(v), 0};
    return std::nullopt;
  };
  auto constantOf = [&](Value v) -> std::optional<int64_t> {
    APInt value;
    if (!isVarying(v) && matchPattern(v, m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  };
  // Integer arithmetic that keeps the `base + stride * lane` form: exact in
  // the type's modular arithmetic, but for extensions of iN values (the
  // index_cast of an i32 index), which hold when base + stride * (W - 1)
  // does not wrap at 2^N: a run-time guard.
  auto andGuards = [&](Value x, Value y) -> Value {
    if (!x || !y)
      return x ? x : y;
    return arith::AndIOp::create(builder, loc, x, y);
  };
  std::optional<AffineLane> form;
  Value guard;
  std::optional<WrapPoint> wrap;
  if (result.getType().isIntOrIndex()) {
    if (auto select = dyn_cast<arith::SelectOp>(op);
        select && !isVarying(select.getCondition())) {
      // A choice the same for the lanes between two runs of one stride
      // (srad's south neighbour: the edge row or the next one): a run from
      // the chosen base.
      std::optional<AffineLane> t = affineOf(select.getTrueValue()),
                                f = affineOf(select.getFalseValue());
      if (t && f && t->stride == f->stride) {
        form = AffineLane{arith::SelectOp::create(
                              builder, loc, getScalar(select.getCondition()),
                              t->base, f->base),
                          t->stride};
        guard = andGuards(guards.lookup(select.getTrueValue()),
                          guards.lookup(select.getFalseValue()));
      }
    } else if (isa<arith::AddIOp, arith::SubIOp>(op)) {
      std::optional<AffineLane> l = affineOf(op->getOperand(0)),
                                r = affineOf(op->getOperand(1));
      if (l && r) {
        bool add = isa<arith::AddIOp>(op);
        Value base = add ? arith::AddIOp::create(builder, loc, l->base, r->base)
                               .getResult()
                         : arith::SubIOp::create(builder, loc, l->base, r->base)
                               .getResult();
        form = AffineLane{base,
                          add ? l->stride + r->stride : l->stride - r->stride};
        Value lg = guards.lookup(op->getOperand(0)),
              rg = guards.lookup(op->getOperand(1));
        guard = andGuards(lg, rg);
        // One wrapping operand, the other exact: the wrap point stays.
        if (lg && !rg)
          if (auto it = wraps.find(op->getOperand(0)); it != wraps.end())
            wrap = it->second;
        if (rg && !lg)
          if (auto it = wraps.find(op->getOperand(1)); it != wraps.end())
            wrap = WrapPoint{it->second.first,
                             add ? it->second.shift : -it->second.shift};
      }
    } else if (isa<arith::MulIOp>(op)) {
      for (unsigned i = 0; i < 2 && !form; ++i) {
        std::optional<AffineLane> a = affineOf(op->getOperand(i));
        std::optional<int64_t> c = constantOf(op->getOperand(1 - i));
        if (a && c) {
          Value base = arith::MulIOp::create(builder, loc, a->base,
                                             getScalar(op->getOperand(1 - i)));
          form = AffineLane{base, a->stride * *c};
          guard = guards.lookup(op->getOperand(i));
          if (auto it = wraps.find(op->getOperand(i)); it != wraps.end())
            wrap = WrapPoint{it->second.first, it->second.shift * *c};
        }
      }
    } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                   arith::ExtUIOp>(op)) {
      Value source = op->getOperand(0);
      std::optional<AffineLane> a = affineOf(source);
      auto widthOf = [](Type t) {
        return t.isIndex() ? 64u : t.getIntOrFloatBitWidth();
      };
      unsigned from = widthOf(source.getType()), to = widthOf(result.getType());
      if (a && a->stride >= 0 && from <= 64) {
        OperationState state(loc, op->getName());
        state.addOperands(a->base);
        state.addTypes(result.getType());
        state.addAttributes(op->getAttrs());
        form = AffineLane{builder.create(state)->getResult(0), a->stride};
        guard = guards.lookup(source);
        if (to > from) {
          bool isSigned = isa<arith::IndexCastOp, arith::ExtSIOp>(op);
          APInt max = isSigned ? APInt::getSignedMaxValue(from)
                               : APInt::getMaxValue(from);
          APInt span(from, uint64_t(a->stride) * uint64_t(width - 1));
          Value limit = arith::ConstantOp::create(
              builder, loc,
              builder.getIntegerAttr(source.getType(), max - span));
          Value ok = arith::CmpIOp::create(builder, loc,
                                           isSigned ? arith::CmpIPredicate::sle
                                                    : arith::CmpIPredicate::ule,
                                           a->base, limit);
          // Lanes from max - base + 1 on wrap (for a unit stride, the one
          // a contiguous access needs).
          if (!guard && a->stride == 1 && from < 64) {
            Value ext = isSigned
                            ? arith::IndexCastOp::create(
                                  builder, loc, builder.getIndexType(), a->base)
                                  .getResult()
                            : arith::IndexCastUIOp::create(
                                  builder, loc, builder.getIndexType(), a->base)
                                  .getResult();
            Value past = arith::ConstantIndexOp::create(
                builder, loc, int64_t(max.getZExtValue()) + 1);
            wrap = WrapPoint{arith::SubIOp::create(builder, loc, past, ext),
                             -(int64_t(1) << from)};
          }
          guard = andGuards(guard, ok);
        }
      }
    }
  }
  if (form && !guard) {
    affine[result] = *form;
    return success();
  }
  // The exact lanes; a guarded form is kept beside them for contiguous
  // accesses (isContiguous).
  OperationState state(loc, op->getName());
  for (Value operand : op->getOperands())
    state.addOperands(getVector(operand));
  state.addTypes(vectorOf(result.getType()));
  state.addAttributes(op->getAttrs());
  Operation *vectorOp = builder.create(state);
  vectors[result] = vectorOp->getResult(0);
  if (form) {
    affine[result] = *form;
    guards[result] = guard;
    if (wrap)
      wraps[result] = *wrap;
  }
  return success();
}

Value LoopVectorizer::emitWrappingLoad(memref::LoadOp op) {
  WrapPoint wrap = wraps.lookup(op.getIndices().back());
  VectorType type = vectorOf(op.getType());
  Value zero =
      arith::ConstantOp::create(builder, loc, type, builder.getZeroAttr(type));
  auto [before, after] = wrapMasks(wrap);
  SmallVector<Value> indices = runIndices(op.getIndices(), 0);
  Value first = vector::MaskedLoadOp::create(
      builder, loc, type, getScalar(op.getMemref()), indices, before, zero);
  indices = runIndices(op.getIndices(), wrap.shift);
  Value second = vector::MaskedLoadOp::create(
      builder, loc, type, getScalar(op.getMemref()), indices, after, zero);
  Value lanes = arith::CmpIOp::create(
      builder, loc, arith::CmpIPredicate::ult,
      vector::StepOp::create(builder, loc, vectorOf(builder.getIndexType())),
      getVector(wrap.first));
  return arith::SelectOp::create(builder, loc, lanes, first, second);
}

void LoopVectorizer::emitWrappingStore(memref::StoreOp op) {
  WrapPoint wrap = wraps.lookup(op.getIndices().back());
  auto [before, after] = wrapMasks(wrap);
  Value value = getVector(op.getValue());
  vector::MaskedStoreOp::create(builder, loc, getScalar(op.getMemref()),
                                runIndices(op.getIndices(), 0), before, value);
  vector::MaskedStoreOp::create(builder, loc, getScalar(op.getMemref()),
                                runIndices(op.getIndices(), wrap.shift), after,
                                value);
}

std::pair<Value, Value> LoopVectorizer::wrapMasks(const WrapPoint &wrap) {
  VectorType maskType = vectorOf(builder.getI1Type());
  Value step =
      vector::StepOp::create(builder, loc, vectorOf(builder.getIndexType()));
  Value before = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                                       step, getVector(wrap.first));
  Value allTrue = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(maskType, true));
  Value after = arith::XOrIOp::create(builder, loc, before, allTrue);
  if (mask) {
    before = arith::AndIOp::create(builder, loc, before, mask);
    after = arith::AndIOp::create(builder, loc, after, mask);
  }
  return {before, after};
}

SmallVector<Value> LoopVectorizer::runIndices(ValueRange indices,
                                              int64_t shift) {
  SmallVector<Value> result;
  for (Value index : indices.drop_back())
    result.push_back(getScalar(index));
  Value base = affine[indices.back()].base;
  if (shift != 0) {
    // The second run starts 2^N elements away, far outside the memref when
    // no lane wraps: a masked access whose masked-off lanes would fault
    // costs a microcode assist of hundreds of cycles (x86), so it starts at
    // the first run's address unless some lane wraps.
    Value first = wraps.lookup(indices.back()).first;
    Value wraps = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, first,
        arith::ConstantIndexOp::create(builder, loc, width));
    Value shifted = arith::AddIOp::create(
        builder, loc, base,
        arith::ConstantIndexOp::create(builder, loc, shift));
    base = arith::SelectOp::create(builder, loc, wraps, shifted, base);
  }
  result.push_back(base);
  return result;
}

Value LoopVectorizer::emitContiguousLoad(memref::LoadOp op) {
  SmallVector<Value> indices;
  for (Value index : op.getIndices().drop_back())
    indices.push_back(getScalar(index));
  indices.push_back(affine[op.getIndices().back()].base);
  VectorType type = vectorOf(op.getType());
  if (mask) {
    Value passThrough = arith::ConstantOp::create(builder, loc, type,
                                                  builder.getZeroAttr(type));
    return vector::MaskedLoadOp::create(builder, loc, type,
                                        getScalar(op.getMemref()), indices,
                                        mask, passThrough);
  }
  return vector::LoadOp::create(builder, loc, type, getScalar(op.getMemref()),
                                indices);
}

Value LoopVectorizer::emitGeneralLoad(memref::LoadOp op, bool preferLanes) {
  Value memref = op.getMemref();
  SmallVector<Value> indices;
  VectorType type = vectorOf(op.getType());
  // Thread-dependent offsets along the innermost dimension only: a gather.
  if (isGatherable(memref, op.getIndices()) && (mask || !preferLanes)) {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    for (Value index : op.getIndices().drop_back())
      indices.push_back(getScalar(index));
    indices.push_back(zero);
    Value lanes =
        mask ? mask
             : arith::ConstantOp::create(
                   builder, loc,
                   DenseElementsAttr::get(vectorOf(builder.getI1Type()), true))
                   .getResult();
    Value passThrough = arith::ConstantOp::create(builder, loc, type,
                                                  builder.getZeroAttr(type));
    return vector::GatherOp::create(builder, loc, type, getScalar(memref),
                                    indices, getVector(op.getIndices().back()),
                                    lanes, passThrough);
  }
  // Lane by lane, in lane order.
  SmallVector<Value> lanes;
  for (int64_t lane = 0; lane < width; ++lane) {
    indices.clear();
    for (Value index : op.getIndices())
      indices.push_back(getLane(index, lane));
    lanes.push_back(
        memref::LoadOp::create(builder, loc, getScalar(memref), indices));
  }
  return vector::FromElementsOp::create(builder, loc, type, lanes);
}

Value LoopVectorizer::emitClampedLoad(memref::LoadOp op) {
  Value memref = op.getMemref();
  if (op.getIndices().empty() || !hasVectorLayout(memref))
    return nullptr;
  for (Value index : op.getIndices().drop_back())
    if (isVarying(index))
      return nullptr;
  Operation *def = op.getIndices().back().getDefiningOp();
  if (!def || !isa<arith::MinSIOp, arith::MaxSIOp>(def))
    return nullptr;
  // One operand `base + lane` (exact lanes), the other uniform.
  Value lanes, bound;
  for (unsigned i = 0; i < 2; ++i) {
    auto it = affine.find(def->getOperand(i));
    Value other = def->getOperand(1 - i);
    if (it != affine.end() && it->second.stride == 1 &&
        !guards.contains(def->getOperand(i)) && !isVarying(other)) {
      lanes = def->getOperand(i);
      bound = other;
      break;
    }
  }
  if (!lanes)
    return nullptr;
  // Lanes whose index is `base + lane` (not clamped) read one contiguous run
  // (a masked load); the clamped lanes all read the element at the bound,
  // loaded once when any lane that runs needs it.
  bool isMin = isa<arith::MinSIOp>(def);
  VectorType type = vectorOf(op.getType());
  VectorType maskType = vectorOf(builder.getI1Type());
  Value boundVector = getVector(bound);
  Value unclamped = arith::CmpIOp::create(builder, loc,
                                          isMin ? arith::CmpIPredicate::sle
                                                : arith::CmpIPredicate::sge,
                                          getVector(lanes), boundVector);
  Value allTrue = arith::ConstantOp::create(
      builder, loc, DenseElementsAttr::get(maskType, true));
  Value clamped = arith::XOrIOp::create(builder, loc, unclamped, allTrue);
  if (mask) {
    unclamped = arith::AndIOp::create(builder, loc, unclamped, mask);
    clamped = arith::AndIOp::create(builder, loc, clamped, mask);
  }
  SmallVector<Value> indices;
  for (Value index : op.getIndices().drop_back())
    indices.push_back(getScalar(index));
  indices.push_back(affine[lanes].base);
  Value zero =
      arith::ConstantOp::create(builder, loc, type, builder.getZeroAttr(type));
  Value run = vector::MaskedLoadOp::create(
      builder, loc, type, getScalar(memref), indices, unclamped, zero);
  Value any = vector::ReductionOp::create(builder, loc,
                                          vector::CombiningKind::OR, clamped);
  auto ifOp = scf::IfOp::create(builder, loc, op.getType(), any,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard insertion(builder);
    builder.setInsertionPointToStart(ifOp.thenBlock());
    indices.back() = getScalar(bound);
    scf::YieldOp::create(
        builder, loc,
        memref::LoadOp::create(builder, loc, getScalar(memref), indices)
            .getResult());
    builder.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(
        builder, loc,
        arith::ConstantOp::create(builder, loc, op.getType(),
                                  builder.getZeroAttr(op.getType()))
            .getResult());
  }
  Value atBound =
      vector::BroadcastOp::create(builder, loc, type, ifOp.getResult(0));
  return arith::SelectOp::create(builder, loc, unclamped, run, atBound);
}

Value LoopVectorizer::emitStridedLoad(memref::LoadOp op) {
  Value memref = op.getMemref();
  if (!isGatherable(memref, op.getIndices()))
    return nullptr;
  Value last = op.getIndices().back();
  auto it = affine.find(last);
  if (it == affine.end() || guards.contains(last))
    return nullptr;
  int64_t stride = it->second.stride;
  if (stride < 2 || stride > kMaxShuffledStride)
    return nullptr;
  // Lane i reads element s * i of the runs' concatenation [base, base + s W):
  // run k holds elements k W to k W + W - 1. An element is read when it is
  // some lane's and that lane runs; the others are masked off (the tail of
  // the last run lies past the last lane's element, perhaps past the end of
  // the memref).
  VectorType type = vectorOf(op.getType());
  VectorType maskType = vectorOf(builder.getI1Type());
  Value zero =
      arith::ConstantOp::create(builder, loc, type, builder.getZeroAttr(type));
  Value noLanes;
  if (mask)
    noLanes = arith::ConstantOp::create(
        builder, loc, DenseElementsAttr::get(maskType, false));
  SmallVector<Value> indices;
  for (Value index : op.getIndices().drop_back())
    indices.push_back(getScalar(index));
  indices.push_back(nullptr);
  SmallVector<Value> runs;
  for (int64_t k = 0; k < stride; ++k) {
    Value start = it->second.base;
    if (k != 0)
      start = arith::AddIOp::create(
          builder, loc, start,
          arith::ConstantIndexOp::create(builder, loc, k * width));
    indices.back() = start;
    Value runMask;
    if (mask) {
      // Element j of run k is lane (k W + j) / s's when s divides k W + j.
      SmallVector<int64_t> picks;
      for (int64_t j = 0; j < width; ++j) {
        int64_t element = k * width + j;
        picks.push_back(element % stride == 0 ? element / stride : width);
      }
      runMask = vector::ShuffleOp::create(builder, loc, mask, noLanes, picks);
    } else if (k == stride - 1) {
      // The last run: nothing past the last lane's element s (W - 1).
      SmallVector<bool> read;
      for (int64_t j = 0; j < width; ++j)
        read.push_back(k * width + j <= stride * (width - 1));
      runMask = arith::ConstantOp::create(
          builder, loc, DenseElementsAttr::get(maskType, ArrayRef(read)));
    }
    if (runMask)
      runs.push_back(vector::MaskedLoadOp::create(
          builder, loc, type, getScalar(memref), indices, runMask, zero));
    else
      runs.push_back(vector::LoadOp::create(builder, loc, type,
                                            getScalar(memref), indices));
  }
  // Concatenate all runs but the last, then pick every s-th element of that
  // and the last run.
  Value front = runs.front();
  for (int64_t k = 1; k + 1 < stride; ++k) {
    auto all = llvm::to_vector(llvm::seq<int64_t>(0, (k + 1) * width));
    front = vector::ShuffleOp::create(builder, loc, front, runs[k], all);
  }
  SmallVector<int64_t> picks;
  for (int64_t lane = 0; lane < width; ++lane)
    picks.push_back(stride * lane);
  return vector::ShuffleOp::create(builder, loc, front, runs.back(), picks);
}

/// How deep affineAssuming and findUniformChoice follow an index's operands.
constexpr unsigned kMaxChoiceDepth = 8;

Value LoopVectorizer::findUniformChoice(Value v, unsigned depth) {
  if (depth > kMaxChoiceDepth || !isVarying(v) || guards.contains(v))
    return nullptr;
  Operation *def = v.getDefiningOp();
  if (!def || !loop->isAncestor(def))
    return nullptr;
  if (auto select = dyn_cast<arith::SelectOp>(def);
      select && !isVarying(select.getCondition()))
    return select.getCondition();
  if (!isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::SelectOp>(def))
    return nullptr;
  for (Value operand : def->getOperands())
    if (Value cond = findUniformChoice(operand, depth + 1))
      return cond;
  return nullptr;
}

std::optional<AffineLane> LoopVectorizer::affineAssuming(Value v, Value cond,
                                                         bool taken, bool build,
                                                         unsigned depth) {
  if (depth > kMaxChoiceDepth)
    return std::nullopt;
  if (!isVarying(v))
    return AffineLane{build ? getScalar(v) : Value(), 0};
  if (guards.contains(v))
    return std::nullopt;
  Operation *def = v.getDefiningOp();
  if (auto select = dyn_cast_or_null<arith::SelectOp>(def);
      select && select.getCondition() == cond)
    return affineAssuming(taken ? select.getTrueValue()
                                : select.getFalseValue(),
                          cond, taken, build, depth + 1);
  if (auto it = affine.find(v); it != affine.end())
    return AffineLane{build ? it->second.base : Value(), it->second.stride};
  if (!def || !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(def))
    return std::nullopt;
  std::optional<AffineLane> l =
      affineAssuming(def->getOperand(0), cond, taken, false, depth + 1);
  std::optional<AffineLane> r =
      l ? affineAssuming(def->getOperand(1), cond, taken, false, depth + 1)
        : std::nullopt;
  if (!l || !r)
    return std::nullopt;
  int64_t stride;
  if (isa<arith::MulIOp>(def)) {
    // By a constant only (the other operand's stride is 0 then).
    APInt c;
    if (l->stride == 0 && r->stride == 0)
      stride = 0;
    else if (r->stride == 0 &&
             matchPattern(def->getOperand(1), m_ConstantInt(&c)))
      stride = l->stride * c.getSExtValue();
    else if (l->stride == 0 &&
             matchPattern(def->getOperand(0), m_ConstantInt(&c)))
      stride = r->stride * c.getSExtValue();
    else
      return std::nullopt;
  } else {
    stride =
        isa<arith::AddIOp>(def) ? l->stride + r->stride : l->stride - r->stride;
  }
  if (!build)
    return AffineLane{Value(), stride};
  l = affineAssuming(def->getOperand(0), cond, taken, true, depth + 1);
  r = affineAssuming(def->getOperand(1), cond, taken, true, depth + 1);
  OperationState state(loc, def->getName());
  state.addOperands({l->base, r->base});
  state.addTypes(v.getType());
  state.addAttributes(def->getAttrs());
  return AffineLane{builder.create(state)->getResult(0), stride};
}

Value LoopVectorizer::emitUniformChoiceLoad(memref::LoadOp op) {
  Value memref = op.getMemref();
  if (op.getIndices().empty() || !hasVectorLayout(memref))
    return nullptr;
  for (Value index : op.getIndices().drop_back())
    if (isVarying(index))
      return nullptr;
  Value last = op.getIndices().back();
  if (affine.contains(last))
    return nullptr;
  Value cond = findUniformChoice(last);
  if (!cond)
    return nullptr;
  for (bool taken : {true, false}) {
    std::optional<AffineLane> form =
        affineAssuming(last, cond, taken, /*build=*/false);
    if (!form || form->stride != 1)
      return nullptr;
  }
  VectorType type = vectorOf(op.getType());
  auto ifOp = scf::IfOp::create(builder, loc, type, getScalar(cond),
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertion(builder);
  for (auto [block, taken] : {std::pair{ifOp.thenBlock(), true},
                              std::pair{ifOp.elseBlock(), false}}) {
    builder.setInsertionPointToStart(block);
    SmallVector<Value> indices;
    for (Value index : op.getIndices().drop_back())
      indices.push_back(getScalar(index));
    indices.push_back(affineAssuming(last, cond, taken, /*build=*/true)->base);
    Value run;
    if (mask) {
      Value zero = arith::ConstantOp::create(builder, loc, type,
                                             builder.getZeroAttr(type));
      run = vector::MaskedLoadOp::create(builder, loc, type, getScalar(memref),
                                         indices, mask, zero);
    } else {
      run = vector::LoadOp::create(builder, loc, type, getScalar(memref),
                                   indices);
    }
    scf::YieldOp::create(builder, loc, run);
  }
  return ifOp.getResult(0);
}

LogicalResult LoopVectorizer::visitLoad(memref::LoadOp op) {
  if (isVarying(op.getMemref()))
    return failure();
  if (Value clamped = emitClampedLoad(op)) {
    ++vectorAccesses;
    vectors[op.getResult()] = clamped;
    return success();
  }
  if (Value chosen = emitUniformChoiceLoad(op)) {
    ++vectorAccesses;
    vectors[op.getResult()] = chosen;
    return success();
  }
  Value guard;
  bool contiguous = isContiguous(op.getMemref(), op.getIndices(), guard);
  bool gatherable = isGatherable(op.getMemref(), op.getIndices());
  // Under a mask, only what can be masked: vector.maskedload, gathers and
  // the two masked runs of a wrapping index.
  bool twoRuns = guard && wraps.contains(op.getIndices().back()) &&
                 op.getIndices().back().getType().isIndex();
  if (mask && !(contiguous && (!guard || gatherable || twoRuns)) && !gatherable)
    return failure();
  if (!contiguous) {
    if (Value strided = emitStridedLoad(op)) {
      ++vectorAccesses;
      vectors[op.getResult()] = strided;
      return success();
    }
    if (!gatherable)
      ++laneAccesses;
    vectors[op.getResult()] = emitGeneralLoad(op);
    return success();
  }
  ++vectorAccesses;
  if (!guard) {
    vectors[op.getResult()] = emitContiguousLoad(op);
    return success();
  }
  if (twoRuns && (branchFree || mask)) {
    vectors[op.getResult()] = emitWrappingLoad(op);
    return success();
  }
  // Contiguous when the guard holds (no wrap), else the exact lanes.
  auto ifOp = scf::IfOp::create(builder, loc, vectorOf(op.getType()), guard,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard insertion(builder);
    DenseMap<Value, Value> saved = vectors;
    builder.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(builder, loc, emitContiguousLoad(op));
    builder.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(builder, loc,
                         emitGeneralLoad(op, /*preferLanes=*/true));
    vectors = std::move(saved);
  }
  vectors[op.getResult()] = ifOp.getResult(0);
  return success();
}

void LoopVectorizer::emitContiguousStore(memref::StoreOp op) {
  SmallVector<Value> indices;
  for (Value index : op.getIndices().drop_back())
    indices.push_back(getScalar(index));
  indices.push_back(affine[op.getIndices().back()].base);
  if (mask) {
    vector::MaskedStoreOp::create(builder, loc, getScalar(op.getMemref()),
                                  indices, mask, getVector(op.getValue()));
    return;
  }
  vector::StoreOp::create(builder, loc, getVector(op.getValue()),
                          getScalar(op.getMemref()), indices);
}

void LoopVectorizer::emitLaneStores(memref::StoreOp op) {
  SmallVector<Value> indices;
  for (int64_t lane = 0; lane < width; ++lane) {
    indices.clear();
    for (Value index : op.getIndices())
      indices.push_back(getLane(index, lane));
    memref::StoreOp::create(builder, loc, getLane(op.getValue(), lane),
                            getScalar(op.getMemref()), indices);
  }
}

LogicalResult LoopVectorizer::visitStore(memref::StoreOp op) {
  Value memref = op.getMemref();
  if (isVarying(memref))
    return failure();
  bool uniformAddress =
      llvm::none_of(op.getIndices(), [&](Value v) { return isVarying(v); });
  Value guard;
  bool contiguous = isContiguous(memref, op.getIndices(), guard);
  bool twoRuns = guard && wraps.contains(op.getIndices().back()) &&
                 op.getIndices().back().getType().isIndex();
  // Under a mask, only vector.maskedstore.
  if (mask && (!contiguous || (guard && !twoRuns)))
    return failure();
  if (uniformAddress) {
    // Every thread stores there; the last one's value stays.
    SmallVector<Value> indices;
    for (Value index : op.getIndices())
      indices.push_back(getScalar(index));
    memref::StoreOp::create(builder, loc, getLane(op.getValue(), width - 1),
                            getScalar(memref), indices);
    return success();
  }
  if (!contiguous) {
    ++laneAccesses;
    emitLaneStores(op);
    return success();
  }
  ++vectorAccesses;
  if (!guard) {
    emitContiguousStore(op);
    return success();
  }
  if (twoRuns && (branchFree || mask)) {
    emitWrappingStore(op);
    return success();
  }
  auto ifOp = scf::IfOp::create(builder, loc, TypeRange(), guard,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertion(builder);
  DenseMap<Value, Value> saved = vectors;
  builder.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  emitContiguousStore(op);
  builder.setInsertionPoint(ifOp.elseBlock()->getTerminator());
  emitLaneStores(op);
  vectors = std::move(saved);
  return success();
}

LogicalResult LoopVectorizer::visitFor(scf::ForOp op) {
  SmallVector<Value> inits;
  for (Value init : op.getInitArgs())
    inits.push_back(isVarying(op.getRegionIterArg(inits.size()))
                        ? getVector(init)
                        : getScalar(init));
  auto newFor = scf::ForOp::create(
      builder, loc, getScalar(op.getLowerBound()),
      getScalar(op.getUpperBound()), getScalar(op.getStep()), inits,
      /*bodyBuilder=*/nullptr, op.getUnsignedCmp());
  // Without iteration arguments the builder made an empty yield: the body's
  // own is made below (two yields, the first one mid-block, were what
  // reached the LLVM conversion from a result-free loop in a branch on the
  // thread ids that was not moved out of the thread loop).
  if (!newFor.getBody()->empty())
    newFor.getBody()->getTerminator()->erase();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(newFor.getBody());
  mapping.map(op.getInductionVar(), newFor.getInductionVar());
  for (auto [oldArg, newArg] :
       llvm::zip(op.getRegionIterArgs(), newFor.getRegionIterArgs())) {
    if (isVarying(oldArg))
      vectors[oldArg] = newArg;
    else
      mapping.map(oldArg, newArg);
  }
  SmallVector<Value> yields;
  if (failed(visitNestedBlock(*op.getBody(), yields, op)))
    return failure();
  scf::YieldOp::create(builder, loc, yields);
  for (auto [oldResult, newResult] :
       llvm::zip(op.getResults(), newFor.getResults())) {
    if (isVarying(oldResult))
      vectors[oldResult] = newResult;
    else
      mapping.map(oldResult, newResult);
  }
  return success();
}

LogicalResult LoopVectorizer::visitIf(scf::IfOp op) {
  SmallVector<Type> types;
  for (Value result : op.getResults())
    types.push_back(isVarying(result) ? Type(vectorOf(result.getType()))
                                      : result.getType());
  if (!isVarying(op.getCondition())) {
    auto newIf =
        scf::IfOp::create(builder, loc, types, getScalar(op.getCondition()),
                          /*withElseRegion=*/op.elseBlock() != nullptr);
    for (auto [oldBlock, newBlock] :
         {std::pair{op.thenBlock(), newIf.thenBlock()},
          std::pair{op.elseBlock(), newIf.elseBlock()}}) {
      if (!oldBlock)
        continue;
      OpBuilder::InsertionGuard guard(builder);
      // The builder made an empty yield when there are no results.
      if (!newBlock->empty())
        newBlock->getTerminator()->erase();
      builder.setInsertionPointToEnd(newBlock);
      SmallVector<Value> yields;
      if (failed(visitNestedBlock(*oldBlock, yields, op)))
        return failure();
      scf::YieldOp::create(builder, loc, yields);
    }
    for (auto [oldResult, newResult] :
         llvm::zip(op.getResults(), newIf.getResults())) {
      if (isVarying(oldResult))
        vectors[oldResult] = newResult;
      else
        mapping.map(oldResult, newResult);
    }
    return success();
  }
  // A thread-dependent condition: both branches run, under masks (the
  // lanes that take each), and the results are selected per lane. Memory
  // accesses in them are masked; ops with effects that cannot be masked
  // make the loop stay scalar.
  Value cond = getVector(op.getCondition());
  Value allTrue = arith::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(vectorOf(builder.getI1Type()), true));
  Value notCond = arith::XOrIOp::create(builder, loc, cond, allTrue);
  Value outer = mask;
  auto within = [&](Value m) -> Value {
    return outer ? arith::AndIOp::create(builder, loc, outer, m).getResult()
                 : m;
  };
  // (In the same block: what they make dominates the selects.)
  SmallVector<Value> thenValues, elseValues;
  mask = within(cond);
  LogicalResult thenOk = visitNestedBlock(*op.thenBlock(), thenValues, op);
  LogicalResult elseOk = success();
  if (succeeded(thenOk) && op.elseBlock()) {
    mask = within(notCond);
    elseOk = visitNestedBlock(*op.elseBlock(), elseValues, op);
  }
  mask = outer;
  if (failed(thenOk) || failed(elseOk))
    return failure();
  for (auto [i, result] : llvm::enumerate(op.getResults()))
    vectors[result] = arith::SelectOp::create(builder, loc, cond, thenValues[i],
                                              elseValues[i]);
  return success();
}

LogicalResult LoopVectorizer::visit(Operation *op) {
  if (isa<scf::YieldOp>(op))
    return success(); // The parent builds its own.
  bool anyVarying =
      llvm::any_of(op->getOperands(), [&](Value v) { return isVarying(v); }) ||
      llvm::any_of(op->getResults(), [&](Value v) { return isVarying(v); });
  if (auto forOp = dyn_cast<scf::ForOp>(op))
    return visitFor(forOp);
  if (auto ifOp = dyn_cast<scf::IfOp>(op))
    return visitIf(ifOp);
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    if (!anyVarying) {
      // Under a mask, no lane may run it (it could fault).
      if (mask)
        return failure();
      builder.clone(*op, mapping);
      return success();
    }
    return visitLoad(load);
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    if (!anyVarying) {
      if (mask)
        return failure();
      builder.clone(*op, mapping);
      return success();
    }
    return visitStore(store);
  }
  // Integer division traps on a zero divisor of a lane that does not run it.
  if (mask &&
      isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
    return failure();
  if (op->getNumRegions() != 0)
    return failure();
  if (!anyVarying) {
    // Uniform code runs once for the lanes: pure ops only (anything with
    // effects would run once instead of once per thread).
    if (!isPure(op))
      return failure();
    builder.clone(*op, mapping);
    return success();
  }
  if (isElementwiseOnScalars(op))
    return visitElementwise(op);
  return failure();
}

LogicalResult LoopVectorizer::visitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(visit(&op)))
      return failure();
  return success();
}

LogicalResult LoopVectorizer::visitNestedBlock(Block &block,
                                               SmallVectorImpl<Value> &yields,
                                               Operation *parent) {
  // Vectors made in the block (broadcasts, lanes of affine indices) do not
  // dominate what follows it: they are forgotten after it.
  DenseMap<Value, Value> saved = vectors;
  if (failed(visitBlock(block)))
    return failure();
  for (auto [i, value] : llvm::enumerate(block.getTerminator()->getOperands()))
    yields.push_back(isVarying(parent->getResult(i)) ? getVector(value)
                                                     : getScalar(value));
  vectors = std::move(saved);
  return success();
}

bool LoopVectorizer::run() {
  if (loop.getNumResults() != 0)
    return false;
  unsigned numOps = 0;
  loop.getBody()->walk([&](Operation *) { ++numOps; });
  if (numOps > kMaxBodyOps)
    return false;
  unsigned dim = loop.getNumLoops() - 1;
  iv = loop.getInductionVars()[dim];
  if (!computeVarying())
    return false;

  // Build the vector body before the old one; on failure it is erased.
  Block *body = loop.getBody();
  Operation *firstOld = &body->front();
  builder.setInsertionPoint(firstOld);
  // One vector iteration (W threads along x, a full block): lane 0 is the
  // lower bound, which does not depend on the loop (guards that depend on x
  // alone can then be tested before it).
  Value lb = loop.getLowerBound()[dim];
  std::optional<int64_t> lbConst = getConstantIntValue(lb);
  std::optional<int64_t> ubConst =
      getConstantIntValue(loop.getUpperBound()[dim]);
  bool single = lbConst && ubConst && *ubConst - *lbConst == width;
  affine[iv] = {single ? lb : iv, 1};
  SmallVector<Operation *> oldOps;
  for (Operation &op : body->without_terminator())
    oldOps.push_back(&op);
  bool ok = true;
  for (Operation *op : oldOps)
    if (failed(visit(op))) {
      ok = false;
      break;
    }
  // Worth it: more vector accesses than accesses lane by lane.
  ok = ok && vectorAccesses > 0 && vectorAccesses >= laneAccesses;
  ok = ok && (assumed.empty() || hoistAssumptions());
  if (!ok) {
    // Erase what was built (uses first: in reverse).
    SmallVector<Operation *> built;
    for (Operation &op :
         llvm::make_range(body->begin(), firstOld->getIterator()))
      built.push_back(&op);
    for (Operation *op : llvm::reverse(built)) {
      op->dropAllUses();
      op->erase();
    }
    return false;
  }
  for (Operation *op : llvm::reverse(oldOps)) {
    op->dropAllUses();
    op->erase();
  }
  if (assumeGuards && condition)
    widenIndices();
  // W threads per iteration.
  OpBuilder b(loop);
  Value step = arith::ConstantIndexOp::create(b, loc, width);
  loop.getStepMutable().slice(dim, 1).assign(step);
  return true;
}

bool LoopVectorizer::hoistAssumptions() {
  // Over the loop's threads (the guards may depend on thread ids other
  // than x, e.g. a row's `(y0 + ty) * n + x0`, or on x's base in loops
  // wider than W).
  loopIVs.clear();
  for (unsigned d = 0; d < loop.getNumLoops(); ++d)
    loopIVs.push_back({loop.getInductionVars()[d], loop.getLowerBound()[d],
                       loop.getUpperBound()[d]});
  // Preferably also over the steps of the sequential loop around it
  // (through uniform branches): a guard on `k * n + x0` in a matmul's k
  // loop is then tested once, not at every step.
  outer = getSequentialLoopAround(loop);
  outerIVs.assign(loopIVs.begin(), loopIVs.end());
  if (outer)
    outerIVs.push_back({outer.getInductionVar(), outer.getLowerBound(),
                        outer.getUpperBound(), outer.getUnsignedCmp()});
  outerTest.reset();
  if (outer)
    outerTest.emplace(outer, outerIVs);
  loopTest.emplace(loop, loopIVs);
  SmallVector<Value> tests;
  conditionOutside = bool(outer);
  for (Value guard : assumed) {
    Value test = outerTest ? outerTest->build(guard) : Value();
    if (!test) {
      test = loopTest->build(guard);
      conditionOutside = false;
    }
    if (!test)
      return false;
    tests.push_back(test);
  }
  // The conjunction where its last test is: before the sequential loop
  // when all are (it can then be unswitched on it).
  OpBuilder b(conditionOutside ? outer.getOperation() : loop.getOperation());
  for (Value test : tests)
    condition = condition
                    ? arith::AndIOp::create(b, loc, condition, test).getResult()
                    : test;
  return true;
}

void LoopVectorizer::widenIndices() {
  SmallVector<Operation *> casts;
  loop.getBody()->walk([&](Operation *op) {
    if (!isa<arith::IndexCastOp, arith::IndexCastUIOp>(op) ||
        !op->getResult(0).getType().isIndex() ||
        !op->getOperand(0).getType().isInteger())
      return;
    // An address: used by a memory access.
    if (llvm::any_of(op->getUsers(),
                     [](Operation *user) { return !isPure(user); }))
      casts.push_back(op);
  });
  for (Operation *cast : casts) {
    bool isUnsigned = isa<arith::IndexCastUIOp>(cast);
    Value source = cast->getOperand(0);
    // Only tests that keep the version's place (before the sequential
    // loop when it is there).
    RangeTest *test = nullptr;
    Value noWrap;
    if (outerTest)
      if ((noWrap = outerTest->buildNoWrap(source, isUnsigned)))
        test = &*outerTest;
    if (!noWrap && !conditionOutside)
      if ((noWrap = loopTest->buildNoWrap(source, isUnsigned)))
        test = &*loopTest;
    if (!noWrap)
      continue;
    OpBuilder b(conditionOutside ? outer.getOperation() : loop.getOperation());
    condition = arith::AndIOp::create(b, loc, condition, noWrap);
    OpBuilder at(cast);
    cast->getResult(0).replaceAllUsesWith(test->rebuildExact(source, at));
    if (cast->use_empty())
      cast->erase();
  }
}

/// Vectorizes \p loop with W = \p width lanes. Contiguous accesses whose
/// contiguity needs a run-time test (i32 indices that must not wrap) get
/// one test for the whole loop when it can be made before it for all its
/// threads (hoistAssumptions; the matmul's `k * N + col`: one test before
/// its k loop, not one per access and row): `scf.if (test) { the loop,
/// contiguous } else { the loop, two masked runs per access }`; else the
/// test per access. \p versions collects the `scf.if`s made so (the pass
/// unswitches the sequential loop around them on tests made before it).
static bool vectorizeLoop(scf::ParallelOp loop, int64_t width,
                          SmallVectorImpl<scf::IfOp> &versions) {
  OpBuilder b(loop);
  auto exact = cast<scf::ParallelOp>(b.clone(*loop));
  LoopVectorizer assuming(loop, width, /*assumeGuards=*/true);
  if (!assuming.run()) {
    exact->erase();
    return LoopVectorizer(loop, width).run();
  }
  if (!assuming.condition) {
    exact->erase();
    return true;
  }
  b.setInsertionPoint(loop);
  auto ifOp = scf::IfOp::create(b, loop.getLoc(), TypeRange(),
                                assuming.condition, /*withElseRegion=*/true);
  loop->moveBefore(ifOp.thenBlock()->getTerminator());
  exact->moveBefore(ifOp.elseBlock()->getTerminator());
  versions.push_back(ifOp);
  // The rarely run version (an index wraps in the loop): branch-free.
  LoopVectorizer(exact, width, /*assumeGuards=*/false, /*branchFree=*/true)
      .run();
  return true;
}

/// The lanes for a thread loop whose innermost dimension runs \p tripCount
/// threads: the largest power of two up to kMaxLanes that divides it, at
/// least 4; 0 when none.
static int64_t chooseWidth(int64_t tripCount) {
  for (int64_t w = kMaxLanes; w >= 4; w /= 2)
    if (tripCount % w == 0)
      return w;
  return 0;
}

/// Lanes at most where the body calls the C math library: LLVM lowers a
/// vector math op without a vector library (exp, log, pow, sin, tanh, ...)
/// to one libm call per lane, and every call clobbers the vector registers,
/// so the live vectors of a 16-lane (AVX-512) body spill around each call.
/// WRF's wsm5 kernel, specialized on its block size of 64, ran 0.94x of its
/// generic 8-lane version for this (1409 stack references against 29).
constexpr int64_t kMaxLanesWithLibmCalls = 8;

/// Whether \p loop's body has a math op that becomes a libm call (not one of
/// those LLVM lowers to instructions: sqrt, fma, abs, rounding, bit counts).
static bool callsLibm(scf::ParallelOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        if (!isa<math::MathDialect>(op->getDialect()))
          return WalkResult::advance();
        if (isa<math::SqrtOp, math::RsqrtOp, math::FmaOp, math::AbsFOp,
                math::AbsIOp, math::CeilOp, math::FloorOp, math::RoundOp,
                math::RoundEvenOp, math::TruncOp, math::CopySignOp,
                math::CountLeadingZerosOp, math::CountTrailingZerosOp,
                math::CtPopOp, math::IsNaNOp, math::IsInfOp, math::IsFiniteOp,
                math::IsNormalOp, math::FPowIOp, math::IPowIOp>(op))
          return WalkResult::advance();
        return WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Lanes of the vector part of a loop whose trip count is not a static
/// multiple of 4 (edge blocks, dynamic block sizes, tightened lower bounds)
/// and has no constant bound that allows more (below).
constexpr int64_t kRemainderLanes = 8;

/// A constant C with \p value <= C: \p value's constant, or the smallest
/// constant operand of the arith.minsi/minui that computes it (the thread
/// loops' bound `min(blockDim, n - offset)` once the block size is known, as
/// in a kernel specialized on it); std::nullopt when there is none.
static std::optional<int64_t> getConstantUpperBound(Value value) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return constant;
  Operation *def = value.getDefiningOp();
  if (!isa_and_nonnull<arith::MinSIOp, arith::MinUIOp>(def))
    return std::nullopt;
  std::optional<int64_t> bound;
  for (Value operand : def->getOperands())
    if (std::optional<int64_t> c = getConstantUpperBound(operand);
        c && *c >= 0 && (!bound || *c < *bound))
      bound = c;
  return bound;
}

/// Vectorizes thread x of \p loop over [lb, lb + (ub - lb) / W * W) and runs
/// the remaining threads in a copy of the loop after it (an epilogue, as
/// LLVM's loop vectorizer makes); leaves \p loop as it was when its body
/// does not vectorize.
static void vectorizeWithRemainder(scf::ParallelOp loop, unsigned dim,
                                   SmallVectorImpl<scf::IfOp> &versions) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lb = loop.getLowerBound()[dim], ub = loop.getUpperBound()[dim];
  // More lanes where the trip count is known to reach a multiple of them
  // (a known block size of 32: 16 lanes, as for a static 32): the remainder
  // runs only in edge blocks.
  int64_t lanes = kRemainderLanes;
  std::optional<int64_t> lbValue = getConstantIntValue(lb);
  if (std::optional<int64_t> ubBound = getConstantUpperBound(ub);
      ubBound && lbValue && *ubBound > *lbValue)
    lanes = std::max(lanes, chooseWidth(*ubBound - *lbValue));
  if (callsLibm(loop))
    lanes = std::min(lanes, kMaxLanesWithLibmCalls);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value width = arith::ConstantIndexOp::create(b, loc, lanes);
  Value count = arith::MaxSIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ub, lb), zero);
  Value whole = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, count, width), width);
  Value split = arith::AddIOp::create(b, loc, lb, whole);
  // The remainder: a copy of the scalar loop from the split point.
  b.setInsertionPointAfter(loop);
  auto remainder = cast<scf::ParallelOp>(b.clone(*loop));
  remainder.getLowerBoundMutable().slice(dim, 1).assign(split);
  loop.getUpperBoundMutable().slice(dim, 1).assign(split);
  if (vectorizeLoop(loop, lanes, versions))
    return;
  remainder->erase();
  loop.getUpperBoundMutable().slice(dim, 1).assign(ub);
  for (Value v : {split, whole, count, width, zero})
    if (Operation *def = v.getDefiningOp(); def && def->use_empty())
      def->erase();
}

/// Largest sequential loop body (in ops) that is copied to take a version
/// test out of it.
constexpr unsigned kMaxUnswitchedOps = 2000;

/// Replaces \p ifOp (no results) by the ops of one of its branches.
static void inlineBranch(scf::IfOp ifOp, bool thenBranch) {
  Block *block = thenBranch ? ifOp.thenBlock() : ifOp.elseBlock();
  if (block) {
    block->getTerminator()->erase();
    ifOp->getBlock()->getOperations().splice(ifOp->getIterator(),
                                             block->getOperations());
  }
  ifOp.erase();
}

/// Loop unswitching of a version test (vectorizeLoop's `scf.if`) computed
/// before the nearest sequential loop around it (RangeTest over its
/// steps): `scf.for { .. scf.if (c) A else B .. }` becomes `scf.if (c)
/// { scf.for { .. A .. } } else { scf.for { .. B .. } }`, so that the loop
/// that runs has no branch on the version in its body (LLVM promotes the
/// accumulators of a matmul's k loop, kept in a per-thread array, to
/// registers only in a loop without one). One test per loop; loops in
/// \p done are left alone.
static void unswitchSequentialLoop(scf::IfOp version,
                                   DenseSet<Operation *> &done) {
  if (version.getNumResults() != 0 || !version.elseBlock())
    return;
  scf::ForOp outer = getSequentialLoopAround(version);
  if (!outer || done.contains(outer))
    return;
  Value cond = version.getCondition();
  if (outer->isAncestor(cond.getParentRegion()->getParentOp()))
    return;
  unsigned numOps = 0;
  outer.getBody()->walk([&](Operation *) { ++numOps; });
  if (numOps > kMaxUnswitchedOps)
    return;
  OpBuilder b(outer);
  Location loc = outer.getLoc();
  auto ifOp = scf::IfOp::create(b, loc, outer.getResultTypes(), cond,
                                /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifOp.thenBlock());
  IRMapping mapping;
  auto copy = cast<scf::ForOp>(b.clone(*outer, mapping));
  if (outer.getNumResults() != 0) {
    // The builder made no terminators for a branch with results.
    scf::YieldOp::create(b, loc, copy.getResults());
    b.setInsertionPointToEnd(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, outer.getResults());
  }
  outer->replaceUsesWithIf(ifOp.getResults(), [&](OpOperand &use) {
    return !ifOp->isAncestor(use.getOwner());
  });
  outer->moveBefore(ifOp.elseBlock()->getTerminator());
  inlineBranch(cast<scf::IfOp>(mapping.lookup(version.getOperation())),
               /*thenBranch=*/true);
  inlineBranch(version, /*thenBranch=*/false);
  done.insert(outer);
  done.insert(copy);
}

namespace {
//===----------------------------------------------------------------------===//
// Subgroup exchanges in registers
//===----------------------------------------------------------------------===//
//
// A constant `gpu.shuffle` (xor, up, down or idx with constant offset and
// width, in blocks of whole subgroups) is, after the thread loops, a thread
// loop that stores the operand per thread, an exchange loop over subgroups
// (ThreadLoops.h, kSubgroupExchangeAttrName: load a subgroup's 32 values,
// one vector.shuffle, store them) and a thread loop that reads the exchanged
// value at the thread's own index. Each step of a warp reduction tree costs
// three passes over block-wide arrays that way. Run 32 lanes wide (one
// subgroup per vector iteration), the three loops step over the same
// subgroups and touch the per-thread arrays only at their own subgroup's
// slots, so they fuse into one loop whose iteration stores a subgroup's
// values, permutes them and reads them back: LLVM forwards the stores to the
// loads (same address, same iteration), the permutation is a register
// shuffle and the arrays, no longer read, are removed.

/// Whether \p op is an exchange loop of the thread loops.
static bool isExchangeLoop(Operation *op) {
  auto loop = dyn_cast_if_present<scf::ForOp>(op);
  return loop && loop->hasAttr(kSubgroupExchangeAttrName) &&
         loop.getNumResults() == 0;
}

/// The constant lower bound, upper bound and step of an exchange loop.
struct ExchangeRange {
  int64_t lb, ub, step;
};
static std::optional<ExchangeRange> getExchangeRange(scf::ForOp exchange) {
  std::optional<int64_t> lb = foldToConstant(exchange.getLowerBound());
  std::optional<int64_t> ub = foldToConstant(exchange.getUpperBound());
  std::optional<int64_t> step = foldToConstant(exchange.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb || *lb % *step != 0 ||
      (*ub - *lb) % *step != 0)
    return std::nullopt;
  return ExchangeRange{*lb, *ub, *step};
}

/// The next (\p forward) or previous operation of \p op's block that is not
/// pure region-free arithmetic (constants and bounds between the loops).
static Operation *neighborOf(Operation *op, bool forward) {
  for (Operation *n = forward ? op->getNextNode() : op->getPrevNode(); n;
       n = forward ? n->getNextNode() : n->getPrevNode())
    if (n->getNumRegions() != 0 || !isPure(n))
      return n;
  return nullptr;
}

/// The thread loops that end \p op: \p op itself, or, for an `scf.if`
/// without results (the versions of a thread loop), those that end each of
/// its branches. False when something else ends it.
static bool collectLastThreadLoops(Operation *op,
                                   SmallVectorImpl<scf::ParallelOp> &loops) {
  if (auto loop = dyn_cast_if_present<scf::ParallelOp>(op)) {
    loops.push_back(loop);
    return true;
  }
  auto ifOp = dyn_cast_if_present<scf::IfOp>(op);
  if (!ifOp || ifOp.getNumResults() != 0 || ifOp.getElseRegion().empty())
    return false;
  for (Block *block : {ifOp.thenBlock(), ifOp.elseBlock()})
    if (!collectLastThreadLoops(neighborOf(block->getTerminator(), false),
                                loops))
      return false;
  return true;
}

/// Whether the thread loop \p loop runs the threads of \p range along its
/// innermost dimension with step \p step (1 before vectorization, the
/// range's step after), its other dimensions one thread each.
static bool coversRange(scf::ParallelOp loop, const ExchangeRange &range,
                        int64_t step) {
  if (loop.getNumResults() != 0)
    return false;
  unsigned x = loop.getNumLoops() - 1;
  for (unsigned d = 0; d <= x; ++d) {
    std::optional<int64_t> lb = foldToConstant(loop.getLowerBound()[d]);
    std::optional<int64_t> ub = foldToConstant(loop.getUpperBound()[d]);
    std::optional<int64_t> s = foldToConstant(loop.getStep()[d]);
    if (!lb || !ub || !s)
      return false;
    if (d < x && *ub - *lb != 1)
      return false;
    if (d == x && (*lb != range.lb || *ub != range.ub || *s != step))
      return false;
  }
  return true;
}

/// The thread loops next to exchange loops that can fuse with them once
/// vectorized with the exchange's step as their width: their innermost
/// bounds are replaced by constants (the vectorizer reads them so).
static DenseMap<Operation *, int64_t>
prepareExchangeNeighbors(gpu::GPUFuncOp kernel) {
  DenseMap<Operation *, int64_t> widths;
  kernel.walk([&](scf::ForOp exchange) {
    if (!isExchangeLoop(exchange))
      return;
    std::optional<ExchangeRange> range = getExchangeRange(exchange);
    if (!range || range->step > 64)
      return;
    SmallVector<scf::ParallelOp> loops;
    if (auto next =
            dyn_cast_if_present<scf::ParallelOp>(neighborOf(exchange, true)))
      loops.push_back(next);
    (void)collectLastThreadLoops(neighborOf(exchange, false), loops);
    for (scf::ParallelOp loop : loops) {
      if (!coversRange(loop, *range, 1))
        continue;
      unsigned x = loop.getNumLoops() - 1;
      OpBuilder b(loop);
      loop.getLowerBoundMutable().slice(x, 1).assign(
          arith::ConstantIndexOp::create(b, loop.getLoc(), range->lb));
      loop.getUpperBoundMutable().slice(x, 1).assign(
          arith::ConstantIndexOp::create(b, loop.getLoc(), range->ub));
      widths[loop] = range->step;
    }
  });
  return widths;
}

/// One memory access of a loop body to fuse.
struct BodyAccess {
  /// The memref accessed, and the one it is a view of (through view-like
  /// ops).
  Value memref, base;
  bool write;
  /// At the loop's own iteration: one index, the induction variable, at
  /// most a step's elements (a scalar or a vector up to the step).
  bool atIteration;
};

/// The accesses of \p body, whose iteration is \p iv stepping by \p step;
/// false for an operation whose effects are unknown.
static bool collectBodyAccesses(Block *body, Value iv, int64_t step,
                                SmallVectorImpl<BodyAccess> &accesses) {
  auto atIteration = [&](ValueRange indices, Type type) {
    int64_t elements = 1;
    if (auto vector = dyn_cast<VectorType>(type)) {
      if (vector.getRank() != 1 || vector.isScalable())
        return false;
      elements = vector.getNumElements();
    }
    return indices.size() == 1 && indices[0] == iv && elements <= step;
  };
  WalkResult result = body->walk([&](Operation *op) {
    if (isa<scf::YieldOp, scf::ReduceOp, scf::ReduceReturnOp>(op))
      return WalkResult::advance();
    auto effecting = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effecting) {
      if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
        return WalkResult::advance();
      return WalkResult::interrupt();
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    effecting.getEffects(effects);
    std::optional<bool> at;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      at = atIteration(load.getIndices(), load.getType());
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      at = atIteration(store.getIndices(), store.getValueToStore().getType());
    else if (auto vload = dyn_cast<vector::LoadOp>(op))
      at = atIteration(vload.getIndices(), vload.getType());
    else if (auto vstore = dyn_cast<vector::StoreOp>(op))
      at = atIteration(vstore.getIndices(), vstore.getValueToStore().getType());
    for (const MemoryEffects::EffectInstance &effect : effects) {
      bool read = isa<MemoryEffects::Read>(effect.getEffect());
      bool write = isa<MemoryEffects::Write>(effect.getEffect());
      if (!read && !write)
        continue; // allocations in the body, freed in it
      Value memref = effect.getValue();
      if (!memref || !isa<MemRefType>(memref.getType()))
        return WalkResult::interrupt();
      Value base = memref;
      while (auto view = base.getDefiningOp<ViewLikeOpInterface>())
        base = view.getViewSource();
      accesses.push_back({memref, base, write, at.value_or(false)});
    }
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
}

/// Whether the memrefs \p a and \p b (bases, not views) may overlap: the same
/// value, or two kernel arguments in the same memory space (distinct stack
/// arrays and workgroup and private attributions are distinct memory).
static bool mayAlias(gpu::GPUFuncOp kernel, Value a, Value b) {
  if (a == b)
    return true;
  auto distinct = [&](Value v) {
    if (v.getDefiningOp<memref::AllocaOp>() ||
        v.getDefiningOp<memref::AllocOp>())
      return true;
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != &kernel.getBody().front())
      return false;
    return llvm::is_contained(kernel.getWorkgroupAttributions(), arg) ||
           llvm::is_contained(kernel.getPrivateAttributions(), arg);
  };
  if (distinct(a) || distinct(b))
    return false;
  auto ta = cast<MemRefType>(a.getType()), tb = cast<MemRefType>(b.getType());
  return ta.getMemorySpace() == tb.getMemorySpace() || !ta.getMemorySpace() ||
         !tb.getMemorySpace();
}

/// Whether running \p bodies' iterations in turn, each body's iteration t
/// before the next body's iteration t, is the same as running each body over
/// every iteration before the next: no two of them access memory that may
/// overlap, one of them writing, except stack arrays (allocas of the kernel,
/// outside the loops) that every body accesses at its own iteration only.
static bool canInterleave(gpu::GPUFuncOp kernel,
                          ArrayRef<SmallVector<BodyAccess>> bodies) {
  DenseSet<Value> shared;
  for (const SmallVector<BodyAccess> &accesses : bodies)
    for (const BodyAccess &access : accesses)
      if (!access.atIteration || access.memref != access.base ||
          !access.base.getDefiningOp<memref::AllocaOp>() ||
          Value(access.base).getParentBlock() != &kernel.getBody().front())
        shared.insert(access.base);
  for (auto [i, first] : llvm::enumerate(bodies))
    for (const SmallVector<BodyAccess> &second : bodies.drop_front(i + 1))
      for (const BodyAccess &a : first)
        for (const BodyAccess &b : second) {
          if (!a.write && !b.write)
            continue;
          if (a.base == b.base && !shared.contains(a.base))
            continue;
          if (mayAlias(kernel, a.base, b.base))
            return false;
        }
  return true;
}

/// Fuses the vectorized thread loop \p before, the exchange loop \p exchange
/// and the vectorized thread loop \p after (adjacent in this order but for
/// pure arithmetic, the same iterations) into \p after: each iteration runs
/// \p before's body, then the exchange's, then its own. Returns false, and
/// changes nothing, when that would reorder dependent accesses.
static bool fuseExchange(gpu::GPUFuncOp kernel, scf::ParallelOp before,
                         scf::ForOp exchange, scf::ParallelOp after,
                         const ExchangeRange &range) {
  unsigned xb = before.getNumLoops() - 1, xa = after.getNumLoops() - 1;
  if (xb != xa)
    return false;
  int64_t step = range.step;
  // One iteration: the order does not change.
  bool single = range.ub - range.lb == step;
  SmallVector<SmallVector<BodyAccess>> bodies(3);
  if (!single &&
      (!collectBodyAccesses(before.getBody(), before.getInductionVars()[xb],
                            step, bodies[0]) ||
       !collectBodyAccesses(exchange.getBody(), exchange.getInductionVar(),
                            step, bodies[1]) ||
       !collectBodyAccesses(after.getBody(), after.getInductionVars()[xa], step,
                            bodies[2]) ||
       !canInterleave(kernel, bodies)))
    return false;
  IRRewriter rewriter(kernel.getContext());
  Operation *first = &after.getBody()->front();
  rewriter.eraseOp(before.getBody()->getTerminator());
  rewriter.inlineBlockBefore(before.getBody(), first, after.getInductionVars());
  rewriter.eraseOp(exchange.getBody()->getTerminator());
  rewriter.inlineBlockBefore(exchange.getBody(), first,
                             ValueRange{after.getInductionVars()[xa]});
  rewriter.eraseOp(exchange);
  rewriter.eraseOp(before);
  return true;
}

/// Fuses the exchange loops of \p kernel with the vectorized thread loops
/// around them (see above), the last exchange first so that a chain of
/// exchanges (a reduction tree) becomes one loop. Where the thread loop
/// before is versioned (an `scf.if` of copies, the full-block one and the
/// one with bounds checks), the exchange and the loop after it are copied
/// into each version.
static void fuseExchanges(gpu::GPUFuncOp kernel) {
  SmallVector<scf::ForOp> exchanges;
  kernel.walk([&](scf::ForOp loop) {
    if (isExchangeLoop(loop))
      exchanges.push_back(loop);
  });
  for (scf::ForOp exchange : llvm::reverse(exchanges)) {
    std::optional<ExchangeRange> range = getExchangeRange(exchange);
    auto after =
        dyn_cast_if_present<scf::ParallelOp>(neighborOf(exchange, true));
    Operation *prev = neighborOf(exchange, false);
    SmallVector<scf::ParallelOp> befores;
    if (!range || !after || !coversRange(after, *range, range->step) ||
        !collectLastThreadLoops(prev, befores) ||
        llvm::any_of(befores, [&](scf::ParallelOp before) {
          return !coversRange(before, *range, range->step);
        }))
      continue;
    if (isa<scf::ParallelOp>(prev)) {
      (void)fuseExchange(kernel, befores.front(), exchange, after, *range);
      continue;
    }
    // Versions: check every copy before changing anything (a copy of the
    // exchange and the loop after it, fused, per version).
    OpBuilder b(kernel.getContext());
    for (Operation *op = prev->getNextNode(); op != after;) {
      Operation *next = op->getNextNode();
      if (op != exchange)
        op->moveBefore(prev); // pure arithmetic the copies may use
      op = next;
    }
    // A version where the fusion does not apply keeps its copies as they
    // are (the same code as before, moved into the branch).
    for (scf::ParallelOp before : befores) {
      b.setInsertionPointAfter(before);
      auto x = cast<scf::ForOp>(b.clone(*exchange));
      auto a = cast<scf::ParallelOp>(b.clone(*after));
      (void)fuseExchange(kernel, before, x, a, *range);
    }
    exchange.erase();
    after.erase();
  }
}

struct OffloadHostVectorizeThreadLoopsPass
    : public offload::impl::OffloadHostVectorizeThreadLoopsBase<
          OffloadHostVectorizeThreadLoopsPass> {
  void runOnOperation() override {
    getOperation().walk([&](gpu::GPUFuncOp kernel) {
      if (!OffloadDialect::ThreadLoopsAttrHelper(kernel.getContext())
               .isAttrPresent(kernel))
        return;
      SmallVector<scf::ParallelOp> loops;
      kernel.walk([&](scf::ParallelOp loop) {
        // Innermost thread loops only.
        if (loop.getBody()
                ->walk([](scf::ParallelOp) { return WalkResult::interrupt(); })
                .wasInterrupted())
          return;
        loops.push_back(loop);
      });
      // Thread loops around constant subgroup exchanges: one subgroup per
      // vector iteration, fused with the exchanges below.
      DenseMap<Operation *, int64_t> exchangeWidths =
          prepareExchangeNeighbors(kernel);
      SmallVector<scf::IfOp> versions;
      for (scf::ParallelOp loop : loops) {
        unsigned dim = loop.getNumLoops() - 1;
        std::optional<int64_t> step = getConstantIntValue(loop.getStep()[dim]);
        if (!step || *step != 1)
          continue;
        std::optional<int64_t> lb =
            getConstantIntValue(loop.getLowerBound()[dim]);
        std::optional<int64_t> ub =
            getConstantIntValue(loop.getUpperBound()[dim]);
        if (lb && ub) {
          if (*ub <= *lb)
            continue;
          if (auto it = exchangeWidths.find(loop);
              it != exchangeWidths.end() && !callsLibm(loop)) {
            vectorizeLoop(loop, it->second, versions);
            continue;
          }
          if (int64_t width = chooseWidth(*ub - *lb)) {
            if (callsLibm(loop))
              width = std::min(width, kMaxLanesWithLibmCalls);
            vectorizeLoop(loop, width, versions);
            continue;
          }
        }
        vectorizeWithRemainder(loop, dim, versions);
      }
      // After all loops are vectorized: the copies of the sequential loops
      // hold vector code too.
      DenseSet<Operation *> unswitched;
      for (scf::IfOp version : versions)
        unswitchSequentialLoop(version, unswitched);
      if (!exchangeWidths.empty())
        fuseExchanges(kernel);
    });
  }
};
} // namespace
