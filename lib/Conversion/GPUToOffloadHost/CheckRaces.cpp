//===- CheckRaces.cpp - Racecheck and synccheck instrumentation -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-check-races: calls of the host runtime's race detector before the
// memory accesses and barriers of a kernel (what compute-sanitizer's
// racecheck and synccheck find on CUDA). The detection itself is in
// lib/Runtime/plugins/host/HostCheck.cpp: a shadow per address of the last
// writer and readers of the current barrier interval, as in the "shared
// memory hazard" model of NVIDIA's racecheck (write-write, write-read,
// read-write between threads of a block with no barrier between them), and
// a launch-wide shadow of global writes for write-write hazards between
// blocks.
//
// Accesses that cannot race are not instrumented, so that their loops stay
// vector code. The kernel's body is split into *segments* at its barriers
// (union-find over the structured control flow: a loop's or branch's body
// that contains a barrier joins its last segment with the one it starts in,
// for the back edge and the join), so that two accesses of one dynamic
// barrier interval are always in one segment. Per memref root (a kernel
// argument or attribution, through views) and segment, the accesses need no
// check when none of them writes, or when no two threads of a block can
// touch one element through them (indices assumed in bounds, which memcheck
// checks):
//   - each index is linear in thread ids, block ids, loop ivs and launch
//     invariants, and each thread id that varies is alone in one dimension
//     (`s[tid]`, `tile[ty][tx]`); `r * s + c` under a guard `c < s` counts
//     as the two dimensions (r, c) (`C[row * N + col]` under `col < N`);
//   - the scf.if guards around an access pin thread ids (`tid == 0`, or
//     `tid % 32 == 0` with `tid / 32 == 0`: thread 0) or fix them modulo C
//     (`tid % 32 == 0`: then `tid / 32` is one slot per thread); all accesses
//     of the group need the same such guards;
//   - a loop iv next to a thread id steps by at least the thread id's extent
//     (transpose's `tile[ty + j][tx]`, j stepping by the 8 threads along y);
//     different forms (the JIT's unrolled copies of that loop) are apart by
//     at least that extent in a thread's dimension (`tile[ty + 8][tx]`) or
//     by a constant in another.
// A write to global memory must also never meet a write of another block
// (per block id that can vary, one dimension names it, scaled by at least
// the span of the rest: `y[bid * bdim + tid]`,
// `out[(bx * 32 + ty + j) * rows + by * 32 + tx]`) for the between-block
// check to skip it; a grid dimension that no index names is tested at run
// time (one block along it). Kernel arguments are assumed not to overlap
// each other (as CUDA's `__restrict__`).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/IntEqClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADCHECKRACES
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;

static constexpr StringLiteral kAccessFn = "__offload_host_check_access";
static constexpr StringLiteral kBarrierFn = "__offload_host_check_barrier";

/// Flags of __offload_host_check_access and __offload_host_check_barrier
/// (HostKernelABI.h).
enum : int64_t {
  kWrite = 1,
  kWorkgroup = 2,
  kValue = 4,
  kCollective = 1,
  kSync = 2
};

namespace {
/// One access to instrument: the memref, its indices, how many elements it
/// touches from there and whether it writes.
struct Access {
  Operation *op;
  Value memref;
  ValueRange indices;
  int64_t count = 1;
  bool write = false;
};
} // namespace

static std::optional<Access> getAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{op, load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{op, store.getMemRef(), store.getIndices(), 1, true};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return Access{op, load.getBase(), load.getIndices(),
                  load.getVectorType().getShape().back()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return Access{op, store.getBase(), store.getIndices(),
                  store.getVectorType().getShape().back(), true};
  return std::nullopt;
}

/// Bytes of one element of \p type; 0 when not known here.
static int64_t getElementBytes(Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    int64_t bytes = getElementBytes(vector.getElementType());
    return vector.isScalable() ? 0 : bytes * vector.getNumElements();
  }
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
  return 0;
}

/// Whether accesses to \p memref can be shared between threads: global or
/// workgroup memory, not a thread's own (private address space, alloca).
static bool isShared(Value memref, bool &workgroup) {
  auto type = cast<MemRefType>(memref.getType());
  workgroup = false;
  if (auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace())) {
    if (space.getValue() == gpu::AddressSpace::Private)
      return false;
    workgroup = space.getValue() == gpu::AddressSpace::Workgroup;
  }
  // A view of a thread's own allocation is still its own.
  Value root = memref;
  while (Operation *def = root.getDefiningOp()) {
    if (isa<memref::AllocaOp>(def))
      return false;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      root = view.getViewSource();
      continue;
    }
    break;
  }
  return true;
}

/// Appends the thread ids (x, y, z) as i64 to \p args.
static void appendThreadIds(OpBuilder &b, Location loc,
                            SmallVectorImpl<Value> &args) {
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    args.push_back(arith::IndexCastOp::create(
        b, loc, b.getI64Type(), gpu::ThreadIdOp::create(b, loc, dim)));
}

/// The kernel's name as the user wrote it (a specialization names its
/// original).
static std::string getKernelName(gpu::GPUFuncOp kernel) {
  if (auto original = mlir::offload::OffloadDialect::SpecializationOfAttrHelper(
                          kernel.getContext())
                          .getAttr(kernel))
    return original.str();
  return kernel.getName().str();
}

static Value createKernelName(OpBuilder &b, Location loc,
                              offload::HostModuleSymbols &symbols,
                              gpu::GPUFuncOp kernel) {
  return symbols.getStringAddress(b, loc, "__offload_check.kernel",
                                  getKernelName(kernel));
}

//===----------------------------------------------------------------------===//
// Accesses that cannot race
//===----------------------------------------------------------------------===//

static bool isBlockSync(Operation *op) {
  return isa<gpu::BarrierOp, gpu::AllReduceOp>(op);
}

static bool containsBlockSync(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isBlockSync(inner) ? WalkResult::interrupt()
                                  : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
/// The barrier-free segments of a kernel: every op of the body gets one, and
/// two ops that can run in one barrier interval (in either order, on any two
/// threads) get the same leader.
class Segments {
public:
  explicit Segments(gpu::GPUFuncOp kernel) {
    Region &body = kernel.getBody();
    unsigned start = create();
    if (!body.hasOneBlock()) {
      // Unstructured control flow: one segment for everything.
      kernel.walk([&](Operation *op) { segmentOf[op] = start; });
      return;
    }
    visit(body.front(), start);
  }

  unsigned get(Operation *op) const {
    auto it = segmentOf.find(op);
    return classes.findLeader(it == segmentOf.end() ? 0 : it->second);
  }

private:
  unsigned create() {
    classes.grow(count + 1);
    return count++;
  }

  /// Visits \p block entered in segment \p current; returns the segment it
  /// ends in.
  unsigned visit(Block &block, unsigned current) {
    for (Operation &op : block) {
      if (isBlockSync(&op)) {
        segmentOf[&op] = current;
        current = create();
        continue;
      }
      if (op.getNumRegions() == 0 || !containsBlockSync(&op)) {
        op.walk([&](Operation *inner) { segmentOf[inner] = current; });
        continue;
      }
      segmentOf[&op] = current;
      for (Region &region : op.getRegions())
        for (Block &inner : region) {
          // The body's end flows back to its start (loops) and on to the
          // op's successor (every region): one segment with the entry.
          unsigned end = visit(inner, current);
          classes.join(end, current);
        }
    }
    return current;
  }

  llvm::IntEqClasses classes;
  unsigned count = 0;
  DenseMap<Operation *, unsigned> segmentOf;
};

/// An index as a sum of terms: thread id d (or thread id d / C where a guard
/// makes thread id d % C one value), block id d (plain or times a
/// launch-invariant scale), ivs of scf.for loops, launch-invariant values
/// (the same for every thread of the launch at every point of the kernel:
/// arguments, sizes) with a sign, and a constant.
struct LinearIndex {
  /// 1 where the index has a term of thread id d.
  int64_t threadCoeff[3] = {0, 0, 0};
  /// The divisor of thread id d's term (1: the id itself).
  int64_t threadDiv[3] = {1, 1, 1};
  /// The factor of block_id d; null: no block_id d term or a plain one.
  Value blockScale[3];
  bool blockPlain[3] = {false, false, false};
  SmallVector<Value, 1> ivs;
  SmallVector<std::pair<Value, int64_t>, 2> invariants;
  int64_t constant = 0;

  bool namesBlock(int d) const { return blockScale[d] || blockPlain[d]; }
};

/// What the guards of an access (the conditions of the scf.if ops whose
/// then regions hold it) tell about the threads that run it.
struct ThreadConstraints {
  /// thread_id d == pin[d] (also 0 where blocks have one thread along d).
  std::optional<int64_t> pin[3];
  /// thread_id d % modDivisor[d] == modRemainder[d] (divisor 0: none).
  int64_t modDivisor[3] = {0, 0, 0};
  int64_t modRemainder[3] = {0, 0, 0};

  bool operator==(const ThreadConstraints &other) const {
    for (int d = 0; d < 3; ++d)
      if (pin[d] != other.pin[d] || modDivisor[d] != other.modDivisor[d] ||
          modRemainder[d] != other.modRemainder[d])
        return false;
    return true;
  }
};

/// An access's index as forms per dimension, where a dimension indexed by
/// r * s + c under a guard c < s counts as two, (r, c).
struct AccessForm {
  const Access *access = nullptr;
  /// Per (virtual) dimension its form; none where it is not of that shape.
  SmallVector<std::optional<LinearIndex>, 3> dims;
  ThreadConstraints constraints;
};

/// What the kernel is known to run with: block and grid sizes (0: any).
struct LaunchShape {
  int64_t block[3] = {0, 0, 0};
  int64_t grid[3] = {0, 0, 0};
};
} // namespace

static int dimOf(gpu::Dimension dim) {
  switch (dim) {
  case gpu::Dimension::x:
    return 0;
  case gpu::Dimension::y:
    return 1;
  case gpu::Dimension::z:
    return 2;
  }
  llvm_unreachable("unknown gpu dimension");
}

static std::optional<int64_t> getConstant(Value value) {
  APInt constant;
  if (!matchPattern(value, m_ConstantInt(&constant)) ||
      constant.getSignificantBits() > 64)
    return std::nullopt;
  return constant.getSExtValue();
}

/// Whether \p value is the same for every thread of the launch at every
/// point of the kernel: constants, the kernel's arguments, block and grid
/// sizes, and pure ops of those (not loop ivs, thread or block ids, loads).
static bool isLaunchInvariant(Value value, unsigned depth = 0) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isa<gpu::GPUFuncOp>(arg.getOwner()->getParentOp()) &&
           arg.getOwner()->isEntryBlock();
  Operation *def = value.getDefiningOp();
  if (!def || depth > 12)
    return false;
  if (isa<gpu::BlockDimOp, gpu::GridDimOp>(def))
    return true;
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp,
          gpu::GlobalIdOp>(def) ||
      def->getNumRegions() != 0 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isLaunchInvariant(operand, depth + 1);
  });
}

/// Whether \p a and \p b compute the same value: the same SSA value, or the
/// same pure op of the same operands.
static bool isSameValue(Value a, Value b, unsigned depth = 0) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || depth > 12 || x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() || x->getNumRegions() ||
      !isPure(x) ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!isSameValue(p, q, depth + 1))
      return false;
  return true;
}

/// The conditions that hold where \p op runs: the conjuncts (arith.andi
/// operands) of the conditions of the scf.if ops whose then regions hold it.
static SmallVector<Value> getGuards(Operation *op) {
  SmallVector<Value> guards;
  std::function<void(Value, unsigned)> split = [&](Value cond, unsigned depth) {
    if (auto both = cond.getDefiningOp<arith::AndIOp>(); both && depth < 16) {
      split(both.getLhs(), depth + 1);
      split(both.getRhs(), depth + 1);
      return;
    }
    guards.push_back(cond);
  };
  for (Operation *child = op, *parent = op->getParentOp();
       parent && !isa<gpu::GPUFuncOp>(parent);
       child = parent, parent = parent->getParentOp())
    if (auto branch = dyn_cast<scf::IfOp>(parent))
      if (child->getParentRegion() == &branch.getThenRegion())
        split(branch.getCondition(), 0);
  return guards;
}

/// The thread-id constraints of \p guards: `thread_id d == c`,
/// `thread_id d % C == r`, and both of `thread_id d % C == r` and
/// `thread_id d / C == q` (warp_reduce's lane 0 of warp 0) as a pin.
static ThreadConstraints getThreadConstraints(ArrayRef<Value> guards,
                                              const LaunchShape &shape) {
  ThreadConstraints result;
  int64_t divDivisor[3] = {0, 0, 0}, divQuotient[3] = {0, 0, 0};
  for (Value guard : guards) {
    auto cmp = guard.getDefiningOp<arith::CmpIOp>();
    if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::eq)
      continue;
    for (auto [x, k] : {std::pair(cmp.getLhs(), cmp.getRhs()),
                        std::pair(cmp.getRhs(), cmp.getLhs())}) {
      std::optional<int64_t> value = getConstant(k);
      if (!value || *value < 0)
        continue;
      if (auto tid = x.getDefiningOp<gpu::ThreadIdOp>()) {
        result.pin[dimOf(tid.getDimension())] = *value;
        break;
      }
      Operation *def = x.getDefiningOp();
      if (!isa_and_nonnull<arith::RemUIOp, arith::DivUIOp>(def))
        continue;
      auto tid = def->getOperand(0).getDefiningOp<gpu::ThreadIdOp>();
      std::optional<int64_t> divisor = getConstant(def->getOperand(1));
      if (!tid || !divisor || *divisor <= 0)
        continue;
      int d = dimOf(tid.getDimension());
      if (isa<arith::RemUIOp>(def)) {
        result.modDivisor[d] = *divisor;
        result.modRemainder[d] = *value;
      } else {
        divDivisor[d] = *divisor;
        divQuotient[d] = *value;
      }
      break;
    }
  }
  for (int d = 0; d < 3; ++d) {
    if (!result.pin[d] && result.modDivisor[d] &&
        result.modDivisor[d] == divDivisor[d])
      result.pin[d] = divQuotient[d] * divDivisor[d] + result.modRemainder[d];
    if (shape.block[d] == 1)
      result.pin[d] = 0;
    if (result.pin[d]) {
      result.modDivisor[d] = 0;
      result.modRemainder[d] = 0;
    }
  }
  return result;
}

/// Adds \p value times \p sign to \p form; false when it is not of that
/// shape. Pinned thread ids are constants.
static bool decompose(Value value, LinearIndex &form,
                      const ThreadConstraints &constraints, int64_t sign = 1,
                      unsigned depth = 0) {
  if (depth > 12)
    return false;
  if (std::optional<int64_t> constant = getConstant(value)) {
    form.constant += sign * *constant;
    return true;
  }
  if (isLaunchInvariant(value)) {
    form.invariants.push_back({value, sign});
    return true;
  }
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg != loop.getInductionVar() || sign != 1)
      return false;
    form.ivs.push_back(value);
    return true;
  }
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  // thread_id d, or thread_id d / C where thread_id d % C is known.
  auto addThread = [&](gpu::ThreadIdOp tid, int64_t divisor) {
    int d = dimOf(tid.getDimension());
    if (constraints.pin[d]) {
      form.constant += sign * (*constraints.pin[d] / divisor);
      return true;
    }
    if (sign != 1 || form.threadCoeff[d] ||
        (divisor != 1 && constraints.modDivisor[d] != divisor))
      return false;
    form.threadCoeff[d] = 1;
    form.threadDiv[d] = divisor;
    return true;
  };
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(def))
    return addThread(tid, 1);
  if (auto div = dyn_cast<arith::DivUIOp>(def)) {
    auto tid = div.getLhs().getDefiningOp<gpu::ThreadIdOp>();
    std::optional<int64_t> divisor = getConstant(div.getRhs());
    return tid && divisor && *divisor > 0 && addThread(tid, *divisor);
  }
  if (auto bid = dyn_cast<gpu::BlockIdOp>(def)) {
    int d = dimOf(bid.getDimension());
    if (sign != 1 || form.namesBlock(d))
      return false;
    form.blockPlain[d] = true;
    return true;
  }
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return decompose(add.getLhs(), form, constraints, sign, depth + 1) &&
           decompose(add.getRhs(), form, constraints, sign, depth + 1);
  if (auto sub = dyn_cast<arith::SubIOp>(def))
    return decompose(sub.getLhs(), form, constraints, sign, depth + 1) &&
           decompose(sub.getRhs(), form, constraints, -sign, depth + 1);
  if (auto mul = dyn_cast<arith::MulIOp>(def)) {
    for (auto [id, scale] : {std::pair(mul.getLhs(), mul.getRhs()),
                             std::pair(mul.getRhs(), mul.getLhs())}) {
      auto bid = id.getDefiningOp<gpu::BlockIdOp>();
      if (!bid || !isLaunchInvariant(scale) || sign != 1)
        continue;
      int d = dimOf(bid.getDimension());
      if (form.namesBlock(d))
        return false;
      form.blockScale[d] = scale;
      return true;
    }
  }
  return false;
}

/// Whether \p index is r * s + c with a launch-invariant s and a guard
/// c < s (unsigned): then index is injective in the pair (r, c), which
/// \p row and \p column receive (`C[row * N + col]` under `col < N`).
static bool isDelinearized(Value index, ArrayRef<Value> guards, Value &row,
                           Value &column) {
  auto add = index.getDefiningOp<arith::AddIOp>();
  if (!add)
    return false;
  for (auto [product, c] : {std::pair(add.getLhs(), add.getRhs()),
                            std::pair(add.getRhs(), add.getLhs())}) {
    auto mul = product.getDefiningOp<arith::MulIOp>();
    if (!mul)
      continue;
    for (auto [r, s] : {std::pair(mul.getLhs(), mul.getRhs()),
                        std::pair(mul.getRhs(), mul.getLhs())}) {
      if (!isLaunchInvariant(s))
        continue;
      for (Value guard : guards) {
        auto cmp = guard.getDefiningOp<arith::CmpIOp>();
        if (!cmp)
          continue;
        bool below =
            (cmp.getPredicate() == arith::CmpIPredicate::ult &&
             isSameValue(cmp.getLhs(), c) && isSameValue(cmp.getRhs(), s)) ||
            (cmp.getPredicate() == arith::CmpIPredicate::ugt &&
             isSameValue(cmp.getLhs(), s) && isSameValue(cmp.getRhs(), c));
        if (below) {
          row = r;
          column = c;
          return true;
        }
      }
    }
  }
  return false;
}

static bool isSameForm(const Access &a, const Access &b) {
  if (a.memref != b.memref || a.count != b.count ||
      a.indices.size() != b.indices.size())
    return false;
  for (auto [p, q] : llvm::zip(a.indices, b.indices))
    if (!isSameValue(p, q))
      return false;
  return true;
}

/// The memref an access reaches through views.
static Value getRoot(Value memref) {
  while (Operation *def = memref.getDefiningOp()) {
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    memref = view.getViewSource();
  }
  return memref;
}

/// The form of \p access on \p root; none for a view or a vector access.
static std::optional<AccessForm> getAccessForm(const Access &access, Value root,
                                               const LaunchShape &shape) {
  if (access.memref != root || access.count != 1)
    return std::nullopt;
  AccessForm form;
  form.access = &access;
  SmallVector<Value> guards = getGuards(access.op);
  form.constraints = getThreadConstraints(guards, shape);
  auto add = [&](Value index) {
    LinearIndex linear;
    if (decompose(index, linear, form.constraints))
      form.dims.push_back(std::move(linear));
    else
      form.dims.push_back(std::nullopt);
  };
  for (Value index : access.indices) {
    Value row, column;
    if (isDelinearized(index, guards, row, column)) {
      add(row);
      add(column);
    } else {
      add(index);
    }
  }
  return form;
}

/// How many values the term of thread id d in \p form takes in a block; none
/// when the block size is not known.
static std::optional<int64_t> getExtent(const LinearIndex &form, int d,
                                        const LaunchShape &shape) {
  if (!shape.block[d])
    return std::nullopt;
  return llvm::divideCeil(shape.block[d], form.threadDiv[d]);
}

/// The dimension of \p form holding each thread id that is not pinned
/// (alone in it); false when one has none or shares it.
static bool findHolders(const AccessForm &form, int holder[3]) {
  for (int d = 0; d < 3; ++d) {
    holder[d] = -1;
    if (form.constraints.pin[d])
      continue;
    for (auto [k, dim] : llvm::enumerate(form.dims)) {
      if (!dim || !dim->threadCoeff[d])
        continue;
      if (holder[d] != -1)
        return false;
      holder[d] = int(k);
    }
    if (holder[d] == -1)
      return false;
    for (int other = 0; other < d; ++other)
      if (holder[other] == holder[d])
        return false;
  }
  return true;
}

/// The constant a - b of two dimensions that differ only in it; none
/// otherwise, and where a loop iv is a term (its value differs between the
/// iterations two threads are in).
static std::optional<int64_t> getOffset(const std::optional<LinearIndex> &a,
                                        const std::optional<LinearIndex> &b) {
  if (!a || !b || !a->ivs.empty() || !b->ivs.empty() ||
      a->invariants.size() != b->invariants.size())
    return std::nullopt;
  for (int d = 0; d < 3; ++d) {
    if (a->threadCoeff[d] != b->threadCoeff[d] ||
        (a->threadCoeff[d] && a->threadDiv[d] != b->threadDiv[d]) ||
        a->blockPlain[d] != b->blockPlain[d] ||
        bool(a->blockScale[d]) != bool(b->blockScale[d]) ||
        (a->blockScale[d] && !isSameValue(a->blockScale[d], b->blockScale[d])))
      return std::nullopt;
  }
  SmallVector<bool> used(b->invariants.size(), false);
  for (auto [value, sign] : a->invariants) {
    bool found = false;
    for (auto [k, other] : llvm::enumerate(b->invariants))
      if (!used[k] && other.second == sign && isSameValue(other.first, value)) {
        used[k] = found = true;
        break;
      }
    if (!found)
      return std::nullopt;
  }
  return a->constant - b->constant;
}

/// Whether the accesses \p forms never touch one element from two threads
/// of a block (indices in bounds): each injective in the thread ids that its
/// guards leave free (`s[tid]`, `tile[ty][tx]`, `partial[tid / 32]` under
/// `tid % 32 == 0`, anything under `tid == 0`), with the same guards and
/// thread-holding dimensions, and any two different ones apart by at least
/// the block's extent in a thread's dimension (`tile[ty][tx]` and
/// `tile[ty + 8][tx]` for 8 threads along y) or by a constant in another.
/// A loop iv next to a thread id needs a step of at least the thread id's
/// extent (`tile[ty + j][tx]`, j stepping by 8), and one form.
static bool areThreadDistinct(ArrayRef<AccessForm> forms,
                              const LaunchShape &shape) {
  if (forms.empty())
    return true;
  const AccessForm &first = forms.front();
  int holder[3];
  if (!findHolders(first, holder))
    return false;
  SmallVector<const AccessForm *> distinct;
  for (const AccessForm &form : forms) {
    int other[3];
    if (!(form.constraints == first.constraints) ||
        form.dims.size() != first.dims.size() || !findHolders(form, other) ||
        !std::equal(holder, holder + 3, other))
      return false;
    if (llvm::none_of(distinct, [&](const AccessForm *known) {
          return isSameForm(*known->access, *form.access);
        }))
      distinct.push_back(&form);
  }
  bool anyIvs = false;
  for (const AccessForm *form : distinct)
    for (int d = 0; d < 3; ++d) {
      if (holder[d] == -1)
        continue;
      const LinearIndex &dim = *form->dims[holder[d]];
      if (dim.ivs.empty())
        continue;
      anyIvs = true;
      auto loop = cast<scf::ForOp>(
          cast<BlockArgument>(dim.ivs.front()).getOwner()->getParentOp());
      std::optional<int64_t> step = getConstant(loop.getStep());
      std::optional<int64_t> extent = getExtent(dim, d, shape);
      if (dim.ivs.size() != 1 || !step || !extent || *extent > *step ||
          !isLaunchInvariant(loop.getLowerBound()))
        return false;
    }
  if (distinct.size() == 1)
    return true;
  if (anyIvs)
    return false;
  for (auto [i, a] : llvm::enumerate(distinct))
    for (const AccessForm *b : ArrayRef(distinct).drop_front(i + 1)) {
      bool apart = false, same = true;
      for (int d = 0; d < 3; ++d) {
        if (holder[d] == -1)
          continue;
        std::optional<int64_t> offset =
            getOffset(a->dims[holder[d]], b->dims[holder[d]]);
        if (!offset)
          return false;
        if (*offset == 0)
          continue;
        same = false;
        std::optional<int64_t> extent =
            getExtent(*a->dims[holder[d]], d, shape);
        if (extent && std::abs(*offset) >= *extent)
          apart = true;
      }
      // Equal in every thread-holding dimension: only one thread.
      apart |= same;
      for (auto [k, dim] : llvm::enumerate(a->dims)) {
        if (llvm::is_contained(holder, int(k)))
          continue;
        std::optional<int64_t> offset = getOffset(dim, b->dims[k]);
        apart |= offset && *offset != 0;
      }
      if (!apart)
        return false;
    }
  return true;
}

/// Whether the writes \p forms never touch one element from two blocks of
/// the launch (indices in bounds): per block id along which the grid can
/// have more than one block, one dimension names it (in every form, times
/// the same scale) and no other such block id, and what the rest of that
/// dimension spans, a thread id's extent, the forms' constant offsets and
/// its loop ivs' ranges, fits in the scale (`y[bid * bdim + tid]`,
/// `out[(bx * 32 + ty + 8) * rows + by * 32 + tx]`).
static bool areBlockDistinct(ArrayRef<AccessForm> forms,
                             const LaunchShape &shape) {
  SmallVector<const AccessForm *> distinct;
  for (const AccessForm &form : forms)
    if (llvm::none_of(distinct, [&](const AccessForm *known) {
          return isSameForm(*known->access, *form.access);
        }))
      distinct.push_back(&form);
  if (distinct.empty())
    return true;
  for (int e = 0; e < 3; ++e) {
    if (shape.grid[e] == 1)
      continue;
    // The dimension naming block id e.
    int k = -1;
    for (auto [i, dim] : llvm::enumerate(distinct.front()->dims))
      if (dim && dim->namesBlock(e)) {
        if (k != -1)
          return false;
        k = int(i);
      }
    if (k == -1)
      return false;
    const LinearIndex &first = *distinct.front()->dims[k];
    int64_t low = 0, high = 0;
    for (const AccessForm *form : distinct) {
      if (form->dims.size() != distinct.front()->dims.size())
        return false;
      for (auto [i, dim] : llvm::enumerate(form->dims))
        if (int(i) != k && dim && dim->namesBlock(e))
          return false;
      const std::optional<LinearIndex> &dim = form->dims[k];
      if (!dim)
        return false;
      for (int other = 0; other < 3; ++other)
        if (other != e && shape.grid[other] != 1 && dim->namesBlock(other))
          return false;
      if (form == distinct.front())
        continue;
      std::optional<int64_t> offset = getOffset(dim, first);
      if (!offset)
        return false;
      low = std::min(low, *offset);
      high = std::max(high, *offset);
    }
    // What thread ids and loop ivs add: [0, width).
    int thread = -1;
    for (int d = 0; d < 3; ++d)
      if (first.threadCoeff[d]) {
        if (thread != -1)
          return false;
        thread = d;
      }
    int64_t ivSpan = 0;
    for (Value iv : first.ivs) {
      auto loop =
          cast<scf::ForOp>(cast<BlockArgument>(iv).getOwner()->getParentOp());
      std::optional<int64_t> lb = getConstant(loop.getLowerBound()),
                             ub = getConstant(loop.getUpperBound()),
                             step = getConstant(loop.getStep());
      if (!lb || !ub || !step || *step <= 0)
        return false;
      if (*ub > *lb)
        ivSpan += (llvm::divideCeil(*ub - *lb, *step) - 1) * *step;
    }
    if (first.blockPlain[e]) {
      if (thread != -1 || high != low || ivSpan)
        return false;
      continue;
    }
    Value scale = first.blockScale[e];
    if (auto dim = scale.getDefiningOp<gpu::BlockDimOp>();
        dim && thread == dimOf(dim.getDimension()) &&
        first.threadDiv[thread] == 1 && high == low && !ivSpan)
      continue;
    std::optional<int64_t> factor = getConstant(scale);
    std::optional<int64_t> extent = thread == -1
                                        ? std::optional<int64_t>(1)
                                        : getExtent(first, thread, shape);
    if (!factor || !extent || *factor < *extent + (high - low) + ivSpan)
      return false;
  }
  return true;
}

namespace {
/// What offload-check-races leaves out of a kernel.
struct RaceFreeAccesses {
  /// Accesses that need no check.
  llvm::DenseSet<Operation *> free;
  /// Global writes that need the check between blocks only when the grid
  /// has more than one block along one of these dimensions (bit d: d), and
  /// no check within a block.
  llvm::DenseMap<Operation *, unsigned> unlessGrid;
};
} // namespace

/// The forms of \p list on \p root; false when one has none.
static bool getForms(ArrayRef<const Access *> list, Value root,
                     const LaunchShape &shape,
                     SmallVectorImpl<AccessForm> &forms) {
  for (const Access *access : list) {
    std::optional<AccessForm> form = getAccessForm(*access, root, shape);
    if (!form)
      return false;
    forms.push_back(std::move(*form));
  }
  return true;
}

/// The grid dimensions (bits) that no write of \p list names and whose size
/// is not known: assumed 1, the writes never touch one element from two
/// blocks; ~0u when they can even so.
static unsigned getGridAssumption(ArrayRef<const Access *> list, Value root,
                                  LaunchShape shape) {
  SmallVector<AccessForm, 1> forms;
  if (!getForms(list, root, shape, forms))
    return ~0u;
  unsigned assumed = 0;
  for (int d = 0; d < 3; ++d) {
    bool named = llvm::any_of(forms, [&](const AccessForm &form) {
      return llvm::any_of(form.dims,
                          [&](const std::optional<LinearIndex> &dim) {
                            return dim && dim->namesBlock(d);
                          });
    });
    if (!named && shape.grid[d] == 0) {
      shape.grid[d] = 1;
      assumed |= 1u << d;
    }
  }
  return areBlockDistinct(forms, shape) ? assumed : ~0u;
}

/// The accesses of \p kernel that need no check (see the file comment).
static RaceFreeAccesses findRaceFreeAccesses(gpu::GPUFuncOp kernel,
                                             ArrayRef<Access> accesses) {
  LaunchShape shape;
  if (DenseI32ArrayAttr known = kernel.getKnownBlockSizeAttr())
    for (auto [d, size] : llvm::enumerate(known.asArrayRef()))
      shape.block[d] = size;
  if (DenseI32ArrayAttr known = kernel.getKnownGridSizeAttr())
    for (auto [d, size] : llvm::enumerate(known.asArrayRef()))
      shape.grid[d] = size;
  Segments segments(kernel);
  // Groups per (root, segment), and the writes per root.
  llvm::MapVector<std::pair<Value, unsigned>, SmallVector<const Access *>>
      groups;
  llvm::MapVector<Value, SmallVector<const Access *>> writes;
  for (const Access &access : accesses) {
    Value root = getRoot(access.memref);
    groups[{root, segments.get(access.op)}].push_back(&access);
    if (access.write)
      writes[root].push_back(&access);
  }
  // Roots whose writes never meet between blocks (when the grid dimensions
  // of the mask have one block).
  llvm::DenseMap<Value, unsigned> writesDistinct;
  for (auto &[root, list] : writes) {
    unsigned assumed = getGridAssumption(list, root, shape);
    if (assumed != ~0u)
      writesDistinct[root] = assumed;
  }
  RaceFreeAccesses result;
  for (auto &[key, list] : groups) {
    Value root = key.first;
    bool anyWrite =
        llvm::any_of(list, [](const Access *a) { return a->write; });
    if (anyWrite) {
      SmallVector<AccessForm, 1> forms;
      if (!getForms(list, root, shape, forms) ||
          !areThreadDistinct(forms, shape))
        continue;
    }
    bool workgroup = false;
    isShared(root, workgroup);
    for (const Access *access : list) {
      auto distinct = writesDistinct.find(root);
      if (!access->write || workgroup ||
          (distinct != writesDistinct.end() && distinct->second == 0))
        result.free.insert(access->op);
      else if (distinct != writesDistinct.end())
        result.unlessGrid[access->op] = distinct->second;
    }
  }
  return result;
}

/// Whether \p value is the same for every thread of a block where it is
/// defined: launch invariants, block ids, the ivs of loops with such
/// bounds, and pure ops of those.
static bool isBlockUniform(Value value, unsigned depth = 0) {
  if (depth > 16)
    return false;
  if (isLaunchInvariant(value))
    return true;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    return loop && arg == loop.getInductionVar() &&
           isBlockUniform(loop.getLowerBound(), depth + 1) &&
           isBlockUniform(loop.getUpperBound(), depth + 1) &&
           isBlockUniform(loop.getStep(), depth + 1);
  }
  Operation *def = value.getDefiningOp();
  if (isa<gpu::BlockIdOp>(def))
    return true;
  if (def->getNumRegions() != 0 || !isPure(def) ||
      isa<gpu::ThreadIdOp, gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::GlobalIdOp>(
          def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isBlockUniform(operand, depth + 1);
  });
}

/// Whether every thread of a block that reaches the kernel's \p op reaches
/// it as often as the others: only under loops with uniform bounds and
/// branches on uniform conditions.
static bool isConvergent(Operation *op) {
  for (Operation *parent = op->getParentOp();
       parent && !isa<gpu::GPUFuncOp>(parent); parent = parent->getParentOp()) {
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (!isBlockUniform(loop.getLowerBound()) ||
          !isBlockUniform(loop.getUpperBound()) ||
          !isBlockUniform(loop.getStep()))
        return false;
      continue;
    }
    if (auto branch = dyn_cast<scf::IfOp>(parent)) {
      if (!isBlockUniform(branch.getCondition()))
        return false;
      continue;
    }
    return false;
  }
  return true;
}

/// Whether a thread of \p kernel can end before others: a body with more
/// than one block (an early gpu.return), or a cf.assert that stops a thread.
static bool mayExitEarly(gpu::GPUFuncOp kernel) {
  if (!kernel.getBody().hasOneBlock())
    return true;
  return kernel.walk([](cf::AssertOp) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// Instruments \p access; false when it is not checked (a thread's own
/// memory, an element of unknown size), failure (with an error) when the
/// module holds a symbol of the runtime's hook name that is something else.
static FailureOr<bool> instrumentAccess(const Access &access,
                                        gpu::GPUFuncOp kernel,
                                        offload::HostModuleSymbols &symbols,
                                        unsigned unlessGrid) {
  bool workgroup;
  if (!isShared(access.memref, workgroup))
    return false;
  auto type = cast<MemRefType>(access.memref.getType());
  int64_t elementBytes = getElementBytes(type.getElementType());
  if (elementBytes == 0)
    return false;
  OpBuilder b(access.op);
  Location loc = access.op->getLoc();
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  if (unlessGrid) {
    // Only when the grid has more than one block along a dimension the
    // index does not name (a uniform branch).
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value needed;
    for (gpu::Dimension dim :
         {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z}) {
      if (!(unlessGrid & (1u << dimOf(dim))))
        continue;
      Value more =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                gpu::GridDimOp::create(b, loc, dim), one);
      if (needed)
        more = arith::OrIOp::create(b, loc, needed, more).getResult();
      needed = more;
    }
    auto guard = scf::IfOp::create(b, loc, TypeRange(), needed,
                                   /*addThenBlock=*/true,
                                   /*addElseBlock=*/false);
    Block *then = guard.thenBlock();
    b.setInsertionPointToEnd(then);
    scf::YieldOp::create(b, loc);
    b.setInsertionPointToStart(then);
  }
  func::FuncOp hook = symbols.getOrDeclareFunc(
      b, kAccessFn,
      b.getFunctionType(
          {ptrType, ptrType, i64, i64, i64, i64, i64, i64, i64, i64, i64}, {}));
  if (!hook)
    return failure();
  // The linear index: offset + sum of index * stride, from the memref's
  // metadata (any layout), and the address of that element.
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, access.memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(access.indices, metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, access.memref);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, linear,
          arith::ConstantIndexOp::create(b, loc, elementBytes)));
  // The value a scalar store writes, as i64 bits: a write of the value the
  // memory already holds is no hazard (compute-sanitizer's racecheck calls
  // such a write-write benign).
  Value stored;
  int64_t flags = (access.write ? kWrite : 0) | (workgroup ? kWorkgroup : 0);
  if (auto store = dyn_cast<memref::StoreOp>(access.op)) {
    Value v = store.getValueToStore();
    Type t = v.getType();
    if (t.isIndex()) {
      stored = arith::IndexCastOp::create(b, loc, i64, v);
    } else if (t.isIntOrFloat() && t.getIntOrFloatBitWidth() <= 64) {
      unsigned width = t.getIntOrFloatBitWidth();
      if (isa<FloatType>(t))
        v = arith::BitcastOp::create(b, loc, b.getIntegerType(width), v);
      stored = width == 64 ? v : arith::ExtUIOp::create(b, loc, i64, v);
    }
    if (stored)
      flags |= kValue;
  }
  if (!stored)
    stored = arith::ConstantIntOp::create(b, loc, i64, 0);
  SmallVector<Value> args{
      symbols.getStringAddress(b, loc, "__offload_check.location",
                               offload::describeSourceLocation(loc)),
      createKernelName(b, loc, symbols, kernel),
      arith::IndexCastOp::create(b, loc, i64, address),
      arith::ConstantIntOp::create(b, loc, i64, elementBytes),
      arith::ConstantIntOp::create(b, loc, i64, access.count),
      arith::ConstantIntOp::create(b, loc, i64, flags),
      arith::IndexCastOp::create(b, loc, i64, linear),
      stored};
  appendThreadIds(b, loc, args);
  func::CallOp::create(b, loc, hook, args);
  return true;
}

/// Before \p op, a block-wide synchronization; \p flags as
/// __offload_host_check_barrier takes them.
static LogicalResult instrumentBarrier(Operation *op, int64_t flags,
                                       gpu::GPUFuncOp kernel,
                                       offload::HostModuleSymbols &symbols) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  func::FuncOp hook = symbols.getOrDeclareFunc(
      b, kBarrierFn,
      b.getFunctionType({ptrType, ptrType, i64, i64, i64, i64}, {}));
  if (!hook)
    return failure();
  SmallVector<Value> args{
      symbols.getStringAddress(b, loc, "__offload_check.location",
                               offload::describeSourceLocation(loc)),
      createKernelName(b, loc, symbols, kernel),
      arith::ConstantIntOp::create(b, loc, i64, flags)};
  appendThreadIds(b, loc, args);
  func::CallOp::create(b, loc, hook, args);
  return success();
}

namespace {
struct OffloadCheckRacesPass
    : public offload::impl::OffloadCheckRacesBase<OffloadCheckRacesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    // One symbol table and one string global per distinct text for the
    // whole module: a lookup per access would be quadratic.
    offload::HostModuleSymbols symbols(module);
    for (gpu::GPUFuncOp kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      SmallVector<Access> accesses;
      SmallVector<std::pair<Operation *, int64_t>> barriers;
      kernel.walk([&](Operation *op) {
        if (isa<gpu::BarrierOp>(op)) {
          if (race || sync)
            barriers.push_back({op, 0});
          return;
        }
        if (isa<gpu::AllReduceOp>(op)) {
          if (race)
            barriers.push_back({op, 1});
          return;
        }
        if (!race)
          return;
        if (std::optional<Access> access = getAccess(op))
          accesses.push_back(*access);
      });
      RaceFreeAccesses raceFree = findRaceFreeAccesses(kernel, accesses);
      bool anyChecked = false;
      for (const Access &access : accesses)
        if (!raceFree.free.contains(access.op)) {
          // (The check between blocks needs no barrier intervals.)
          unsigned unlessGrid = raceFree.unlessGrid.lookup(access.op);
          FailureOr<bool> checked =
              instrumentAccess(access, kernel, symbols, unlessGrid);
          if (failed(checked))
            return signalPassFailure();
          anyChecked |= *checked && !unlessGrid;
        }
      // Barrier intervals matter to racecheck only when an access is
      // checked; synccheck only where threads can diverge.
      // (A kernel with one divergent barrier has all its barriers named.)
      bool syncChecked =
          sync &&
          (mayExitEarly(kernel) || llvm::any_of(barriers, [](auto barrier) {
             return !barrier.second && !isConvergent(barrier.first);
           }));
      for (auto [op, collective] : barriers) {
        if (!(race && anyChecked) && !(syncChecked && !collective))
          continue;
        if (failed(instrumentBarrier(
                op, (collective ? kCollective : 0) | (sync ? kSync : 0), kernel,
                symbols)))
          return signalPassFailure();
      }
    }
  }
};
} // namespace
