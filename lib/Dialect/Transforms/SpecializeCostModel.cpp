//===- SpecializeCostModel.cpp - Loop transforms of specialization --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The cost model behind offload-specialize's loop transformations (docs/JIT.md,
// "The cost model"). Costs are in the units of LLVM's
// TargetTransformInfo::TCK_SizeAndLatency, which LLVM's LoopUnrollPass uses for
// the same decision on LLVM IR: 0 for constants, casts and terminators, 1 for
// a simple instruction, 4 for a division or square root (several cycles of
// latency, one instruction), 10 for a call (TTI's default call cost; math
// dialect ops that are not single instructions become libm calls on the host
// and device library calls on GPUs).
//
//===----------------------------------------------------------------------===//

#include "SpecializeCostModel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::offload;

//===----------------------------------------------------------------------===//
// Costs
//===----------------------------------------------------------------------===//

/// The cost of \p op itself, without its regions.
static uint64_t getLocalCost(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>() ||
      op->hasTrait<OpTrait::IsTerminator>())
    return 0;
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::BitcastOp,
          arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp, memref::GetGlobalOp,
          memref::CastOp, memref::ReinterpretCastOp,
          memref::ExtractStridedMetadataOp, memref::DimOp>(op))
    return 0;
  if (isa<arith::DivFOp, arith::DivSIOp, arith::DivUIOp, arith::RemSIOp,
          arith::RemUIOp, arith::RemFOp, arith::CeilDivSIOp, arith::CeilDivUIOp,
          arith::FloorDivSIOp, math::SqrtOp, math::RsqrtOp>(op))
    return 4;
  // Math ops that are one instruction on the targets.
  if (isa<math::AbsFOp, math::AbsIOp, math::CopySignOp, math::FmaOp,
          math::FloorOp, math::CeilOp, math::TruncOp, math::RoundEvenOp,
          math::CountLeadingZerosOp, math::CountTrailingZerosOp, math::CtPopOp>(
          op))
    return 1;
  if (isa<math::MathDialect>(op->getDialect()) || isa<func::CallOp>(op))
    return 10;
  return 1;
}

/// The code size of \p op with its regions (each region counted once, as
/// LLVM's analysis visits a subloop's blocks once).
static uint64_t getSizeCost(Operation *op) {
  uint64_t cost = getLocalCost(op);
  for (Region &region : op->getRegions())
    for (Block &block : region)
      for (Operation &nested : block)
        cost += getSizeCost(&nested);
  return cost;
}

static uint64_t getBlockSizeCost(Block &block) {
  uint64_t cost = 0;
  for (Operation &op : block)
    cost += getSizeCost(&op);
  return cost;
}

//===----------------------------------------------------------------------===//
// What folds once the induction variable is a constant
//===----------------------------------------------------------------------===//

/// The constant memref.global a memref value reads, through get_global and
/// reinterpret_cast (the forms runtime-constant contents take).
static memref::GlobalOp getConstantGlobal(Value memref) {
  if (auto cast = memref.getDefiningOp<memref::ReinterpretCastOp>())
    memref = cast.getSource();
  auto getGlobal = memref.getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return {};
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue())
    return {};
  return global;
}

namespace {
/// Forward propagation of "known once the induction variable is a constant"
/// through one iteration of a loop body.
struct FoldAnalysis {
  llvm::DenseSet<Value> known;
  uint64_t folded = 0;

  bool isKnownOrConstant(Value value) const {
    return known.contains(value) || matchPattern(value, m_Constant());
  }

  /// Whether \p op (without regions) folds when its known operands are
  /// constants.
  bool folds(Operation *op) const {
    if (op->getNumRegions() != 0 || op->getNumResults() == 0)
      return false;
    bool anyKnown = false;
    for (Value operand : op->getOperands()) {
      if (known.contains(operand))
        anyKnown = true;
      else if (!matchPattern(operand, m_Constant()))
        return false;
    }
    if (!anyKnown)
      return false; // already constant, or folded before: no new benefit
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return static_cast<bool>(getConstantGlobal(load.getMemRef()));
    return isPure(op);
  }

  void visitBlock(Block &block) {
    for (Operation &op : block) {
      if (folds(&op)) {
        folded += getLocalCost(&op);
        for (Value result : op.getResults())
          known.insert(result);
        continue;
      }
      if (auto ifOp = dyn_cast<scf::IfOp>(&op);
          ifOp && known.contains(ifOp.getCondition())) {
        // One branch disappears; which one the analysis does not evaluate,
        // so the cheaper one is counted.
        uint64_t thenCost = getBlockSizeCost(ifOp.getThenRegion().front());
        uint64_t elseCost =
            ifOp.getElseRegion().empty()
                ? 0
                : getBlockSizeCost(ifOp.getElseRegion().front());
        folded += 1 + std::min(thenCost, elseCost);
      }
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          visitBlock(nested);
    }
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Simulating iterations (LLVM's analyzeLoopUnrollCost)
//===----------------------------------------------------------------------===//

/// The element of the constant global \p load reads at the indices
/// \p indices, or null.
static Attribute getConstantElement(memref::LoadOp load,
                                    ArrayRef<Attribute> indices) {
  // Only direct reads of a global: a reinterpret_cast's layout is not
  // applied here.
  auto getGlobal = load.getMemRef().getDefiningOp<memref::GetGlobalOp>();
  if (!getGlobal)
    return {};
  memref::GlobalOp global = getConstantGlobal(getGlobal.getResult());
  auto dense =
      global ? dyn_cast<DenseElementsAttr>(*global.getInitialValue()) : nullptr;
  if (!dense)
    return {};
  SmallVector<uint64_t> position;
  for (auto [index, size] : llvm::zip(indices, dense.getType().getShape())) {
    auto attr = dyn_cast_or_null<IntegerAttr>(index);
    if (!attr || attr.getValue().isNegative() ||
        attr.getValue().uge(uint64_t(size)))
      return {};
    position.push_back(attr.getValue().getZExtValue());
  }
  return dense.getValues<Attribute>()[position];
}

/// The cost of the code one iteration of \p block leaves after folding, with
/// \p values the constants known so far (the induction variable's among
/// them): ops whose folders (Operation::fold, the hooks the canonicalizer
/// calls) give a constant or one of their operands cost nothing, loads from
/// constant globals at known indices become their element, and an scf.if on
/// a known condition leaves only the branch taken.
static uint64_t simulateBlock(Block &block,
                              llvm::DenseMap<Value, Attribute> &values) {
  auto lookup = [&](Value value) -> Attribute {
    if (Attribute known = values.lookup(value))
      return known;
    Attribute constant;
    if (matchPattern(value, m_Constant(&constant)))
      return constant;
    return {};
  };
  uint64_t cost = 0;
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::ConstantLike>())
      continue;
    if (auto ifOp = dyn_cast<scf::IfOp>(&op)) {
      if (auto condition = dyn_cast_or_null<IntegerAttr>(
              values.lookup(ifOp.getCondition()))) {
        Region &taken = condition.getValue().isOne() ? ifOp.getThenRegion()
                                                     : ifOp.getElseRegion();
        if (!taken.empty())
          cost += simulateBlock(taken.front(), values);
        continue;
      }
    }
    if (op.getNumRegions() != 0) {
      cost += getLocalCost(&op);
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          cost += simulateBlock(nested, values);
      continue;
    }
    SmallVector<Attribute> operands;
    bool anyKnown = false;
    for (Value operand : op.getOperands()) {
      operands.push_back(lookup(operand));
      anyKnown |= values.contains(operand);
    }
    if (!anyKnown || op.getNumResults() == 0) {
      cost += getLocalCost(&op);
      continue;
    }
    if (auto load = dyn_cast<memref::LoadOp>(&op)) {
      if (Attribute element = getConstantElement(
              load, ArrayRef<Attribute>(operands).drop_front())) {
        values[load.getResult()] = element;
        continue;
      }
      cost += getLocalCost(&op);
      continue;
    }
    SmallVector<OpFoldResult> results;
    if (!isPure(&op) || failed(op.fold(operands, results)) ||
        results.size() != op.getNumResults()) {
      cost += getLocalCost(&op);
      continue;
    }
    for (auto [result, folded] : llvm::zip(op.getResults(), results)) {
      Attribute value = isa<Attribute>(folded) ? cast<Attribute>(folded)
                                               : lookup(cast<Value>(folded));
      if (value)
        values[result] = value;
    }
  }
  return cost;
}

//===----------------------------------------------------------------------===//
// Full unrolling
//===----------------------------------------------------------------------===//

/// Instructions of a rolled loop's back edge per iteration (increment,
/// compare and branch; LLVM's BEInsns).
static constexpr uint64_t kLoopOverhead = 2;

/// Loops with at most this many iterations are simulated per iteration.
static constexpr uint64_t kMaxIterationsToAnalyze = 64;

UnrollEstimate
mlir::offload::estimateFullUnroll(scf::ForOp loop,
                                  const SpecializationOptions &options) {
  UnrollEstimate estimate;
  std::optional<APInt> tripCount = loop.getStaticTripCount();
  if (!tripCount || tripCount->getActiveBits() > 32)
    return estimate;
  estimate.tripCount = tripCount->getZExtValue();
  Block &body = *loop.getBody();
  estimate.bodyCost = getBlockSizeCost(body);
  FoldAnalysis analysis;
  analysis.known.insert(loop.getInductionVar());
  analysis.visitBlock(body);
  estimate.foldedCost = std::min(analysis.folded, estimate.bodyCost);
  estimate.rolledDynamicCost =
      estimate.tripCount * (estimate.bodyCost + kLoopOverhead);
  estimate.unrolledCost =
      estimate.tripCount * (estimate.bodyCost - estimate.foldedCost);
  // Short loops are simulated iteration by iteration with the induction
  // variable's values, as LLVM does up to -unroll-max-iteration-count-to-
  // analyze (10; 64 here: the loops are small MLIR bodies, and the loads from
  // runtime-constant tables that fold are the point of specializing).
  APInt lowerBound, step;
  if (estimate.tripCount <= kMaxIterationsToAnalyze &&
      matchPattern(loop.getLowerBound(), m_ConstantInt(&lowerBound)) &&
      matchPattern(loop.getStep(), m_ConstantInt(&step))) {
    Type ivType = loop.getInductionVar().getType();
    unsigned width = ivType.isIndex() ? 64 : ivType.getIntOrFloatBitWidth();
    APInt iv = lowerBound.sextOrTrunc(width);
    APInt stepValue = step.sextOrTrunc(width);
    uint64_t unrolled = 0;
    for (uint64_t t = 0; t < estimate.tripCount; ++t, iv += stepValue) {
      llvm::DenseMap<Value, Attribute> values;
      values[loop.getInductionVar()] = IntegerAttr::get(ivType, iv);
      unrolled += simulateBlock(body, values);
    }
    estimate.unrolledCost = unrolled;
    estimate.foldedCost =
        estimate.bodyCost -
        std::min(estimate.bodyCost, unrolled / estimate.tripCount);
  }
  if (estimate.tripCount > options.unrollMaxTripCount)
    return estimate;
  if (estimate.tripCount <= 1) {
    estimate.unroll = true; // no code grows
    return estimate;
  }
  // LLVM's getFullUnrollBoostingFactor: the threshold grows by the ratio of
  // the rolled loop's executed cost to the unrolled code's, up to the boost.
  uint64_t boost = options.unrollMaxPercentThresholdBoost;
  if (estimate.unrolledCost != 0)
    boost = std::min<uint64_t>(
        100 * estimate.rolledDynamicCost / estimate.unrolledCost, boost);
  estimate.unroll =
      estimate.unrolledCost * 100 <= uint64_t(options.unrollThreshold) * boost;
  return estimate;
}

/// Whether \p v is computed from a thread id (through at most \p depth
/// ops).
static bool dependsOnThreadId(Value v, unsigned depth = 8) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (isa<gpu::ThreadIdOp>(def))
    return true;
  if (depth == 0)
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return dependsOnThreadId(operand, depth - 1);
  });
}

bool mlir::offload::isThreadRowLoop(scf::ForOp loop) {
  // At the kernel's top level: in a branch on the thread ids (lud's
  // perimeter kernel) the host lowering of the thread loops fails on the
  // rolled loop's scf.yield (not unrolled there before either way).
  if (loop.getNumResults() != 0 || !isa<gpu::GPUFuncOp>(loop->getParentOp()))
    return false;
  bool other = false, threadStore = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<LoopLikeOpInterface, gpu::BarrierOp>(op))
      other = true;
    if (auto store = dyn_cast<memref::StoreOp>(op))
      if (llvm::any_of(store.getIndices(),
                       [](Value i) { return dependsOnThreadId(i); }))
        threadStore = true;
  });
  return !other && threadStore;
}

unsigned
mlir::offload::unrollLoopsByCost(Operation *root,
                                 const SpecializationOptions &options) {
  if (options.unrollMaxTripCount == 0)
    return 0;
  // Post-order: inner loops first, so an outer loop is estimated with its
  // unrolled inner loops in its body.
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  unsigned unrolled = 0;
  for (scf::ForOp loop : loops) {
    if (isThreadRowLoop(loop) || !estimateFullUnroll(loop, options).unroll)
      continue;
    if (succeeded(loopUnrollFull(loop)))
      ++unrolled;
  }
  return unrolled;
}

//===----------------------------------------------------------------------===//
// Tabulation of induction-variable functions
//===----------------------------------------------------------------------===//

/// Cost of reading a table entry: the index computation and the load.
static constexpr uint64_t kTableLoadCost = 2;

/// The value of \p target computed by the folders of \p slice (in order) with
/// the induction variable \p iv = \p ivValue, or null.
static Attribute evaluate(ArrayRef<Operation *> slice, Value iv,
                          Attribute ivValue, Value target) {
  llvm::DenseMap<Value, Attribute> values;
  values[iv] = ivValue;
  auto lookup = [&](Value value) -> Attribute {
    if (Attribute known = values.lookup(value))
      return known;
    Attribute constant;
    if (matchPattern(value, m_Constant(&constant)))
      return constant;
    return {};
  };
  for (Operation *op : slice) {
    SmallVector<Attribute> operands;
    for (Value operand : op->getOperands()) {
      Attribute value = lookup(operand);
      if (!value)
        return {};
      operands.push_back(value);
    }
    SmallVector<OpFoldResult> results;
    if (failed(op->fold(operands, results)) ||
        results.size() != op->getNumResults())
      return {};
    for (auto [result, folded] : llvm::zip(op->getResults(), results)) {
      Attribute value = isa<Attribute>(folded) ? cast<Attribute>(folded)
                                               : lookup(cast<Value>(folded));
      if (!value)
        return {};
      values[result] = value;
    }
  }
  return values.lookup(target);
}

namespace {
/// One value to tabulate: \p root, computed by \p slice from the induction
/// variable.
struct TableCandidate {
  Value root;
  SmallVector<Operation *> slice;
  uint64_t cost = 0;
};
} // namespace

/// The ops of \p loop's body (any depth, no regions) that compute a value from
/// the induction variable and constants only, in program order.
static llvm::SetVector<Operation *> getInductionSlice(scf::ForOp loop) {
  llvm::SetVector<Operation *> slice;
  llvm::DenseSet<Value> known;
  known.insert(loop.getInductionVar());
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getNumRegions() != 0 || op->getNumResults() == 0 || !isPure(op) ||
        op->hasTrait<OpTrait::ConstantLike>())
      return;
    bool anyKnown = false;
    for (Value operand : op->getOperands()) {
      if (known.contains(operand))
        anyKnown = true;
      else if (!matchPattern(operand, m_Constant()))
        return;
    }
    if (!anyKnown)
      return;
    slice.insert(op);
    for (Value result : op->getResults())
      known.insert(result);
  });
  return slice;
}

unsigned mlir::offload::tabulateInductionFunctions(
    Operation *root, SymbolTable &symbols, StringRef namePrefix,
    const SpecializationOptions &options) {
  if (options.maxTableBytes == 0)
    return 0;
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  unsigned tables = 0;
  for (scf::ForOp loop : loops) {
    std::optional<APInt> tripCount = loop.getStaticTripCount();
    if (!tripCount || tripCount->ult(2) || tripCount->getActiveBits() > 32)
      continue;
    uint64_t trips = tripCount->getZExtValue();
    APInt lowerBound, step;
    if (!matchPattern(loop.getLowerBound(), m_ConstantInt(&lowerBound)) ||
        !matchPattern(loop.getStep(), m_ConstantInt(&step)))
      continue;
    llvm::SetVector<Operation *> slice = getInductionSlice(loop);
    if (slice.empty())
      continue;

    // Roots: scalar results of the slice used outside it, whose slice holds
    // a math call and saves more than the table load costs.
    SmallVector<TableCandidate> candidates;
    for (Operation *op : slice) {
      for (Value result : op->getResults()) {
        Type type = result.getType();
        if (!isa<FloatType, IntegerType>(type) ||
            type.getIntOrFloatBitWidth() % 8 != 0)
          continue;
        if (trips * (type.getIntOrFloatBitWidth() / 8) > options.maxTableBytes)
          continue;
        bool usedOutside = llvm::any_of(result.getUsers(), [&](Operation *u) {
          return !slice.contains(u);
        });
        if (!usedOutside)
          continue;
        // The backward slice of the result within the induction slice.
        TableCandidate candidate;
        candidate.root = result;
        llvm::SetVector<Operation *> needed;
        SmallVector<Operation *> worklist{op};
        while (!worklist.empty()) {
          Operation *current = worklist.pop_back_val();
          if (!needed.insert(current))
            continue;
          for (Value operand : current->getOperands())
            if (Operation *def = operand.getDefiningOp();
                def && slice.contains(def))
              worklist.push_back(def);
        }
        bool hasCall = false;
        for (Operation *member : slice)
          if (needed.contains(member)) {
            candidate.slice.push_back(member);
            uint64_t cost = getLocalCost(member);
            candidate.cost += cost;
            hasCall |= cost >= 10;
          }
        if (!hasCall || candidate.cost <= kTableLoadCost)
          continue;
        candidates.push_back(std::move(candidate));
      }
    }
    if (candidates.empty())
      continue;

    // Compute the tables before changing the loop.
    Value iv = loop.getInductionVar();
    Type ivType = iv.getType();
    unsigned ivWidth = ivType.isIndex() ? 64 : ivType.getIntOrFloatBitWidth();
    APInt ivValue = lowerBound.sextOrTrunc(ivWidth);
    APInt stepValue = step.sextOrTrunc(ivWidth);
    SmallVector<SmallVector<Attribute>> contents(candidates.size());
    bool ok = true;
    for (uint64_t t = 0; t < trips && ok; ++t, ivValue += stepValue) {
      Attribute ivAttr = IntegerAttr::get(ivType, ivValue);
      for (auto [candidate, values] : llvm::zip(candidates, contents)) {
        Attribute value = evaluate(candidate.slice, iv, ivAttr, candidate.root);
        if (!value || !isa<IntegerAttr, FloatAttr>(value)) {
          ok = false;
          break;
        }
        values.push_back(value);
      }
    }
    if (!ok)
      continue;

    // The table index (iv - lb) / step as an index, at the top of the body.
    OpBuilder builder(loop.getContext());
    builder.setInsertionPointToStart(loop.getBody());
    Location loc = loop.getLoc();
    Value offset = iv;
    if (!lowerBound.isZero())
      offset = arith::SubIOp::create(builder, loc, iv, loop.getLowerBound());
    if (!step.isOne())
      offset = arith::DivUIOp::create(builder, loc, offset, loop.getStep());
    Value index = offset;
    if (!ivType.isIndex())
      index = arith::IndexCastUIOp::create(builder, loc, builder.getIndexType(),
                                           offset);

    for (size_t c = 0, e = candidates.size(); c < e; ++c) {
      TableCandidate &candidate = candidates[c];
      ArrayRef<Attribute> values = contents[c];
      Type type = candidate.root.getType();
      auto tableType = MemRefType::get({int64_t(trips)}, type);
      auto initial = DenseElementsAttr::get(
          RankedTensorType::get({int64_t(trips)}, type), values);
      OpBuilder globalBuilder(root);
      auto global = memref::GlobalOp::create(
          globalBuilder, candidate.root.getLoc(), (namePrefix + ".table").str(),
          globalBuilder.getStringAttr("private"), tableType, initial,
          /*constant=*/true, /*alignment=*/IntegerAttr());
      symbols.insert(global);
      builder.setInsertionPointAfterValue(candidate.root);
      Value table = memref::GetGlobalOp::create(
          builder, candidate.root.getLoc(), tableType, global.getSymName());
      Value load = memref::LoadOp::create(builder, candidate.root.getLoc(),
                                          table, ValueRange{index});
      candidate.root.replaceUsesWithIf(load, [&](OpOperand &use) {
        return use.getOwner() != load.getDefiningOp() &&
               !llvm::is_contained(candidate.slice, use.getOwner());
      });
      ++tables;
    }
  }
  return tables;
}
