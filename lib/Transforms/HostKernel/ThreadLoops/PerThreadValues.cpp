//===- PerThreadValues.cpp - Values used across a barrier split -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A value defined in one thread region and used in a later one is either
// recomputed there (a cheap pure function of thread ids and uniform values,
// within a cost budget) or stored per thread into an array of block-size
// elements (structure of arrays, so that the stores and loads of a thread loop
// vectorize) and loaded back; a per-thread `memref.alloca` that lives across a
// split becomes a view into a per-block buffer. These are the context arrays
// of PoCL's work-group loops (P. Jaaskelainen et al., IJPP 2015) with
// Polygeist's choice between recomputing and caching a value across a barrier
// (W. S. Moses et al., PPoPP 2023), here a greedy cost bound instead of its
// min-cut.
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

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
  if (!def || !(isRecomputable(def) || isInvariantLoad(def)) ||
      isVarying(value))
    return LogicalResult::failure();
  for (Value operand : def->getOperands())
    if (failed(materializeUniform(operand, before, mapping)))
      return LogicalResult::failure();
  OpBuilder b(before);
  Operation *clone = b.clone(*def, mapping);
  return clone->getResult(cast<OpResult>(value).getResultNumber());
}
