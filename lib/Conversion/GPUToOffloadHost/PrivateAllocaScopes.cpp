//===- PrivateAllocaScopes.cpp - Alias scopes of private allocas ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-host-private-alloca-scopes: alias scopes that separate the memory
// of allocas whose address does not escape from the function's other memory
// accesses (PrivateAllocaScopes.h).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/PrivateAllocaScopes.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Interfaces/CallInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTPRIVATEALLOCASCOPES
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

namespace {
/// A position in an aggregate (the indices of llvm.insertvalue).
using Position = SmallVector<int64_t, 2>;

/// Whether \p prefix is a prefix of (or equal to) \p position.
static bool isPrefix(ArrayRef<int64_t> prefix, ArrayRef<int64_t> position) {
  return prefix.size() <= position.size() &&
         prefix == position.take_front(prefix.size());
}

/// The values derived from one alloca's address: the pointers based on it,
/// and the aggregates holding such pointers with their positions.
struct DerivedValues {
  llvm::SetVector<Value> pointers;
  llvm::DenseMap<Value, SmallVector<Position, 2>> aggregates;
};
} // namespace

/// Whether \p op, a user of the derived pointer \p ptr, only accesses the
/// memory \p ptr points to (without capturing it).
static bool isNonCapturingAccess(Operation *op, Value ptr) {
  if (isa<LLVM::LifetimeStartOp, LLVM::LifetimeEndOp>(op))
    return true;
  // Their other operands are vectors: ptr is the address.
  if (isa<LLVM::MaskedLoadOp, LLVM::MaskedStoreOp>(op))
    return true;
  // Calls implement the interface too (their pointer arguments), but the
  // callee may capture them.
  auto access = dyn_cast<LLVM::AliasAnalysisOpInterface>(op);
  if (!access || isa<CallOpInterface>(op))
    return false;
  // Every operand that is ptr must be an accessed address (a store's value,
  // an atomic's operand or a cmpxchg's values capture it).
  SmallVector<Value> accessed = access.getAccessedOperands();
  unsigned asOperand = llvm::count(op->getOperands(), ptr);
  unsigned asAddress = llvm::count(accessed, ptr);
  return asOperand == asAddress;
}

/// The positions of \p aggregate that hold pointers of \p derived: those of
/// an llvm.insertvalue's container that its position does not overwrite,
/// and its position when the inserted value is derived. Empty for any other
/// op (only llvm.insertvalue puts a derived pointer into an aggregate
/// without escaping).
static SmallVector<Position, 2> computePositions(LLVM::InsertValueOp insert,
                                                 const DerivedValues &derived) {
  SmallVector<Position, 2> positions;
  ArrayRef<int64_t> at = insert.getPosition();
  auto container = derived.aggregates.find(insert.getContainer());
  if (container != derived.aggregates.end())
    for (const Position &position : container->second)
      if (!isPrefix(at, position))
        positions.push_back(position);
  if (derived.pointers.contains(insert.getValue()))
    positions.push_back(Position(at));
  return positions;
}

/// The values derived from \p alloca's address, or failure when one of them
/// escapes (a use other than those of PrivateAllocaScopes.h).
static FailureOr<DerivedValues> collectDerivedValues(LLVM::AllocaOp alloca) {
  DerivedValues derived;
  SmallVector<Value> worklist;
  derived.pointers.insert(alloca.getResult());
  worklist.push_back(alloca.getResult());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    bool isPointer = derived.pointers.contains(value);
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto insert = dyn_cast<LLVM::InsertValueOp>(user)) {
        // Recomputed from both operands: a result reached twice (container
        // and value derived) gets the union.
        SmallVector<Position, 2> positions = computePositions(insert, derived);
        SmallVector<Position, 2> &known = derived.aggregates[insert];
        if (positions.size() != known.size()) {
          known = std::move(positions);
          worklist.push_back(insert.getResult());
        }
        continue;
      }
      if (isPointer) {
        if (auto gep = dyn_cast<LLVM::GEPOp>(user)) {
          if (gep.getBase() != value ||
              llvm::is_contained(gep.getDynamicIndices(), value))
            return failure();
          if (derived.pointers.insert(gep.getResult()))
            worklist.push_back(gep.getResult());
          continue;
        }
        if (isNonCapturingAccess(user, value))
          continue;
        return failure();
      }
      // An aggregate holding derived pointers.
      auto extract = dyn_cast<LLVM::ExtractValueOp>(user);
      if (!extract)
        return failure();
      ArrayRef<int64_t> at = extract.getPosition();
      for (const Position &position : derived.aggregates.lookup(value)) {
        if (ArrayRef<int64_t>(position) == at) {
          if (derived.pointers.insert(extract.getResult()))
            worklist.push_back(extract.getResult());
        } else if (isPrefix(at, position)) {
          // A part of the aggregate that holds the pointer: not followed.
          return failure();
        }
      }
    }
  }
  return derived;
}

/// \p attr with \p scope appended.
static ArrayAttr appendScope(ArrayAttr attr, LLVM::AliasScopeAttr scope) {
  SmallVector<Attribute> scopes;
  if (attr)
    llvm::append_range(scopes, attr.getValue());
  scopes.push_back(scope);
  return ArrayAttr::get(scope.getContext(), scopes);
}

unsigned mlir::offload::annotatePrivateAllocaScopes(LLVM::LLVMFuncOp func) {
  llvm::DenseSet<Value> privatePointers;
  unsigned numPrivate = 0;
  func.walk([&](LLVM::AllocaOp alloca) {
    FailureOr<DerivedValues> derived = collectDerivedValues(alloca);
    if (failed(derived))
      return;
    ++numPrivate;
    privatePointers.insert(derived->pointers.begin(), derived->pointers.end());
  });
  if (numPrivate == 0)
    return 0;
  MLIRContext *context = func.getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      context, DistinctAttr::create(UnitAttr::get(context)),
      StringAttr::get(context, "private allocas of @" + func.getSymName()));
  auto scope = LLVM::AliasScopeAttr::get(
      domain, StringAttr::get(context, "private allocas"));
  func.walk([&](LLVM::AliasAnalysisOpInterface access) {
    // Calls are left alone: their accessed operands are their pointer
    // arguments, not all the memory they may access.
    if (isa<CallOpInterface>(access.getOperation()))
      return;
    SmallVector<Value> accessed = access.getAccessedOperands();
    if (accessed.empty())
      return;
    unsigned numPrivateAccessed = llvm::count_if(
        accessed, [&](Value ptr) { return privatePointers.contains(ptr); });
    if (numPrivateAccessed == accessed.size())
      access.setAliasScopes(appendScope(access.getAliasScopesOrNull(), scope));
    else if (numPrivateAccessed == 0)
      access.setNoAliasScopes(
          appendScope(access.getNoAliasScopesOrNull(), scope));
  });
  return numPrivate;
}

namespace {
struct OffloadHostPrivateAllocaScopesPass
    : public mlir::offload::impl::OffloadHostPrivateAllocaScopesBase<
          OffloadHostPrivateAllocaScopesPass> {
  void runOnOperation() override {
    if (annotatePrivateAllocaScopes(getOperation()) == 0)
      markAllAnalysesPreserved();
  }
};
} // namespace
