//===- Uniformity.cpp - Which values differ between threads ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The uniformity (divergence) analysis of the thread loops: which values may
// differ between the threads of a block (*varying*) and which are the same for
// all of them (*uniform*), and, for values that depend on a thread id, how
// (affine coefficients, signs, subgroup uniformity). It is the vectorization
// analysis of whole-function vectorization (R. Karrenberg and S. Hack,
// "Whole-Function Vectorization", CGO 2011), whose uniform/consecutive/varying
// classes are what deciding loop interchange, barrier fission under control
// flow and masks needs: a forward data-flow fixpoint from the thread ids
// through operands, loop-carried values and the results of control flow whose
// condition varies. Memory reads are varying, but for loads of a uniform
// address from a kernel argument that no op of the kernel writes
// (findInvariantLoads).
//
//===----------------------------------------------------------------------===//

#include "ThreadLoopBuilder.h"

#include "OffloadRuntime/HostKernelABI.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::offload;
using namespace mlir::offload::threadloops;

/// The memref or pointer that \p value is a view of (through subviews,
/// casts, reinterpret_casts and other view-like ops).
static Value getViewRoot(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

void ThreadLoopBuilder::findInvariantLoads() {
  // What the kernel writes, by the object written: a kernel argument or
  // attribution, a local allocation or a global. A write to anything else
  // (a pointer computed from an integer, a memref loaded from memory, an
  // op whose effects are unknown) could be to any argument: then no load is
  // invariant.
  Block &entry = kernel.getBody().front();
  auto isIdentified = [&](Value root) {
    if (auto arg = dyn_cast<BlockArgument>(root))
      return arg.getOwner() == &entry;
    return isa_and_present<memref::AllocaOp, memref::AllocOp,
                           memref::GetGlobalOp>(root.getDefiningOp());
  };
  DenseSet<Value> written;
  bool unknownWrite = false;
  kernel.walk([&](Operation *op) {
    // Barriers and collectives order or exchange values; they write no
    // memory of the kernel's.
    if (unknownWrite || op == kernel || isSyncOp(op))
      return;
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects) {
      // Ops with regions are looked at through their nested ops.
      if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
          !isMemoryEffectFree(op))
        unknownWrite = true;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      if (!isa<MemoryEffects::Write, MemoryEffects::Free>(effect.getEffect()))
        continue;
      Value target = effect.getValue();
      Value root = target ? getViewRoot(target) : Value();
      if (!root || !isIdentified(root)) {
        unknownWrite = true;
        return;
      }
      written.insert(root);
    }
  });
  if (unknownWrite)
    return;
  // Loads from function arguments (not attributions) that nothing writes.
  // Distinct arguments are taken not to overlap where the kernel writes one
  // and reads the other: a write there and the block's reads of it in the
  // same barrier interval would be a data race between its threads, and in
  // different intervals every thread reads the same value anyway.
  unsigned numArguments = kernel.getNumArguments();
  kernel.walk([&](memref::LoadOp load) {
    auto arg = dyn_cast<BlockArgument>(getViewRoot(load.getMemRef()));
    if (arg && arg.getOwner() == &entry && arg.getArgNumber() < numArguments &&
        !written.contains(arg))
      invariantLoads.insert(load);
  });
}

void ThreadLoopBuilder::computeVaryingValues() {
  ThreadRegion &root = *regions.front();
  findInvariantLoads();
  for (Value iv : root.getIVs())
    varying.insert(iv);
  auto anyVarying = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return isVarying(v); });
  };
  auto markAll = [&](ValueRange values, bool &changed) {
    for (Value v : values)
      changed |= varying.insert(v).second;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    root.loop.getBody()->walk([&](Operation *op) {
      llvm::TypeSwitch<Operation *>(op)
          .Case([&](scf::ForOp forOp) {
            bool bounds = anyVarying({forOp.getLowerBound(),
                                      forOp.getUpperBound(), forOp.getStep()});
            if (bounds) {
              markAll(forOp.getInductionVar(), changed);
              markAll(forOp.getRegionIterArgs(), changed);
              markAll(forOp.getResults(), changed);
              return;
            }
            auto yield = cast<scf::YieldOp>(forOp.getBody()->getTerminator());
            for (unsigned i = 0, e = forOp.getNumResults(); i < e; ++i)
              if (isVarying(forOp.getInitArgs()[i]) ||
                  isVarying(yield.getOperand(i))) {
                markAll(forOp.getRegionIterArgs()[i], changed);
                markAll(forOp.getResult(i), changed);
              }
          })
          .Case([&](scf::IfOp ifOp) {
            if (isVarying(ifOp.getCondition())) {
              markAll(ifOp.getResults(), changed);
              return;
            }
            for (unsigned i = 0, e = ifOp.getNumResults(); i < e; ++i)
              if (isVarying(ifOp.thenYield().getOperand(i)) ||
                  (ifOp.elseBlock() &&
                   isVarying(ifOp.elseYield().getOperand(i))))
                markAll(ifOp.getResult(i), changed);
          })
          .Case([&](scf::WhileOp whileOp) {
            scf::ConditionOp cond = whileOp.getConditionOp();
            scf::YieldOp yield = whileOp.getYieldOp();
            for (unsigned i = 0, e = whileOp.getInits().size(); i < e; ++i)
              if (isVarying(whileOp.getInits()[i]) ||
                  isVarying(yield.getOperand(i)))
                markAll(whileOp.getBeforeArguments()[i], changed);
            if (isVarying(cond.getCondition())) {
              markAll(whileOp.getAfterArguments(), changed);
              markAll(whileOp.getResults(), changed);
              return;
            }
            for (unsigned i = 0, e = cond.getArgs().size(); i < e; ++i)
              if (isVarying(cond.getArgs()[i])) {
                markAll(whileOp.getAfterArguments()[i], changed);
                markAll(whileOp.getResult(i), changed);
              }
          })
          .Case([&](gpu::AllReduceOp) {
            // The same value for every thread of the block.
          })
          .Default([&](Operation *op) {
            if (op->getNumResults() == 0)
              return;
            // A load of memory the kernel does not write is uniform when
            // its address is.
            if (isa<gpu::ShuffleOp, gpu::SubgroupReduceOp>(op) ||
                op->getNumRegions() != 0 ||
                (!isMemoryEffectFree(op) && !isInvariantLoad(op)) ||
                anyVarying(op->getOperands()))
              markAll(op->getResults(), changed);
          });
    });
  }
}

bool ThreadLoopBuilder::isWarpUniform(Value value, unsigned depth) {
  if (!isVarying(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16)
    return false;
  // The subgroup of a linear thread id: id / (a multiple of 32).
  APInt divisor;
  if (isa<arith::DivUIOp>(def) && linearIds.contains(def->getOperand(0)) &&
      matchPattern(def->getOperand(1), m_ConstantInt(&divisor)) &&
      divisor.isStrictlyPositive() &&
      divisor.getZExtValue() % OFFLOAD_HOST_SUBGROUP_SIZE == 0)
    return true;
  return isRecomputable(def) &&
         llvm::all_of(def->getOperands(), [&](Value operand) {
           return isWarpUniform(operand, depth + 1);
         });
}

/// The coefficient of \p var in \p value when \p value is an affine function
/// of it (0 when it does not depend on it), else nullopt.
std::optional<int64_t>
threadloops::getCoefficient(Value value, Value var,
                            DenseMap<Value, std::optional<int64_t>> &memo) {
  if (value == var)
    return 1;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  // A value defined outside the region that defines \p var (an induction
  // variable or another block argument) cannot depend on it: SSA dominance
  // keeps it from using \p var. This covers loop-carried values of an
  // enclosing loop, such as the halving stride of a tree reduction whose
  // thread loop runs inside it.
  if (auto varArg = dyn_cast<BlockArgument>(var)) {
    Region *varRegion = varArg.getOwner()->getParent();
    if (!varRegion->isAncestor(value.getParentRegion()))
      return memo[value] = 0;
  }
  std::optional<int64_t> result;
  Operation *def = value.getDefiningOp();
  if (!def) {
    // Kernel arguments and induction variables do not depend on another
    // variable; loop-carried values may, through their yields.
    auto arg = cast<BlockArgument>(value);
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(owner))
      result = arg == forOp.getInductionVar() ? std::optional<int64_t>(0)
                                              : std::nullopt;
    else if (isa<scf::ParallelOp, gpu::GPUFuncOp>(owner))
      result = 0;
  } else if (def->getNumRegions() == 0 &&
             llvm::all_of(def->getOperands(), [&](Value operand) {
               std::optional<int64_t> c = getCoefficient(operand, var, memo);
               return c && *c == 0;
             })) {
    result = 0;
  } else if (isa<arith::AddIOp, arith::SubIOp>(def)) {
    std::optional<int64_t> lhs = getCoefficient(def->getOperand(0), var, memo);
    std::optional<int64_t> rhs = getCoefficient(def->getOperand(1), var, memo);
    if (lhs && rhs)
      result = isa<arith::AddIOp>(def) ? *lhs + *rhs : *lhs - *rhs;
  } else if (isa<arith::MulIOp>(def)) {
    for (unsigned i = 0; i < 2; ++i) {
      std::optional<int64_t> c = getCoefficient(def->getOperand(i), var, memo);
      APInt factor;
      if (c && matchPattern(def->getOperand(1 - i), m_ConstantInt(&factor)))
        result = *c * factor.getSExtValue();
    }
  } else if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
                 arith::ExtUIOp>(def)) {
    result = getCoefficient(def->getOperand(0), var, memo);
  }
  memo[value] = result;
  return result;
}

/// Whether \p value is computed from a block id (or is not known not to be).
bool threadloops::dependsOnBlockId(Value value) {
  SmallVector<Value> worklist{value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def)
      continue;
    if (isa<gpu::BlockIdOp, gpu::GlobalIdOp>(def))
      return true;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// Whether \p value is provably >= 0: thread ids, block sizes, non-negative
/// constants, and sums and products of them.
bool threadloops::isNonNegative(Value value, ValueRange threadIds) {
  if (llvm::is_contained(threadIds, value))
    return true;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return !constant.isNegative();
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (isa<gpu::BlockDimOp, gpu::GridDimOp, gpu::BlockIdOp>(def))
    return true;
  if (isa<arith::AddIOp, arith::MulIOp>(def))
    return isNonNegative(def->getOperand(0), threadIds) &&
           isNonNegative(def->getOperand(1), threadIds);
  return false;
}
