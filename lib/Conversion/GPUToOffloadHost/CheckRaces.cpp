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
// check when none of them writes, or when all have one index form that is
// injective in the thread ids (`s[tid]`, `tile[ty][tx]`: each thread its own
// element, assuming in-bounds indices, which memcheck checks). A write to
// global memory must also be injective in (block, thread) with every write
// of its root in the kernel (`y[bid * bdim + tid]`) for the between-block
// check to skip it. Kernel arguments are assumed not to overlap each other
// (as CUDA's `__restrict__`).
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
  if (auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(
          type.getMemorySpace())) {
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


static func::FuncOp getOrCreateHook(OpBuilder &b, gpu::GPUModuleOp module,
                                    StringRef name, TypeRange args) {
  if (func::FuncOp fn = module.lookupSymbol<func::FuncOp>(name))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name,
                                 b.getFunctionType(args, {}));
  fn.setPrivate();
  return fn;
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
                              gpu::GPUModuleOp module, gpu::GPUFuncOp kernel) {
  return offload::createHostStringAddress(b, loc, module, "__offload_check.kernel",
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

/// An index as c_tid[d] * thread_id d + scale[d] * block_id d + rest, where
/// the rest is the same for every thread of the launch at every point of
/// the kernel (arguments, constants, sizes).
struct LinearIndex {
  int64_t threadCoeff[3] = {0, 0, 0};
  /// The factor of block_id d; null: no block_id d term; a value equal to
  /// `one` for a plain block_id.
  Value blockScale[3];
  bool blockPlain[3] = {false, false, false};
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
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::LaneIdOp,
          gpu::SubgroupIdOp, gpu::GlobalIdOp>(def) ||
      def->getNumRegions() != 0 || !isPure(def))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isLaunchInvariant(operand, depth + 1);
  });
}

/// Adds \p value (times 1) to \p form; false when it is not of that shape.
static bool decompose(Value value, LinearIndex &form, unsigned depth = 0) {
  if (depth > 12)
    return false;
  if (isLaunchInvariant(value))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(def)) {
    int d = dimOf(tid.getDimension());
    return ++form.threadCoeff[d] == 1;
  }
  if (auto bid = dyn_cast<gpu::BlockIdOp>(def)) {
    int d = dimOf(bid.getDimension());
    if (form.blockScale[d] || form.blockPlain[d])
      return false;
    form.blockPlain[d] = true;
    return true;
  }
  if (auto add = dyn_cast<arith::AddIOp>(def))
    return decompose(add.getLhs(), form, depth + 1) &&
           decompose(add.getRhs(), form, depth + 1);
  if (auto sub = dyn_cast<arith::SubIOp>(def))
    return decompose(sub.getLhs(), form, depth + 1) &&
           isLaunchInvariant(sub.getRhs());
  if (auto mul = dyn_cast<arith::MulIOp>(def)) {
    for (auto [id, scale] : {std::pair(mul.getLhs(), mul.getRhs()),
                             std::pair(mul.getRhs(), mul.getLhs())}) {
      auto bid = id.getDefiningOp<gpu::BlockIdOp>();
      if (!bid || !isLaunchInvariant(scale))
        continue;
      int d = dimOf(bid.getDimension());
      if (form.blockScale[d] || form.blockPlain[d])
        return false;
      form.blockScale[d] = scale;
      return true;
    }
  }
  return false;
}

/// Whether \p scale is the block size along \p d.
static bool isBlockSize(Value scale, int d, const LaunchShape &shape) {
  if (auto dim = scale.getDefiningOp<gpu::BlockDimOp>())
    return dimOf(dim.getDimension()) == d;
  IntegerAttr constant;
  if (matchPattern(scale, m_Constant(&constant)))
    return shape.block[d] && constant.getInt() == shape.block[d];
  return false;
}

/// Whether the index tuple \p forms (one per memref dimension) differs
/// between any two threads of a block and, with \p acrossBlocks, between
/// any two threads of the launch (indices in bounds).
static bool isInjective(ArrayRef<LinearIndex> forms, const LaunchShape &shape,
                        bool acrossBlocks) {
  for (int d = 0; d < 3; ++d) {
    // The memref dimension that holds thread id d, alone (none needed when
    // blocks have one thread along d).
    int holder = -1;
    for (auto [k, form] : llvm::enumerate(forms)) {
      if (shape.block[d] == 1 || !form.threadCoeff[d])
        continue;
      if (holder != -1 || form.threadCoeff[d] != 1)
        return false;
      for (int other = 0; other < 3; ++other)
        if (other != d && form.threadCoeff[other] && shape.block[other] != 1)
          return false;
      holder = int(k);
    }
    if (holder == -1 && shape.block[d] != 1)
      return false;
    if (!acrossBlocks || shape.grid[d] == 1)
      continue;
    // Block id d: once, in the holder's dimension scaled by the block size
    // (bid * bdim + tid), or plain in a dimension of its own when blocks
    // have one thread along d.
    int blockHolder = -1;
    for (auto [k, form] : llvm::enumerate(forms)) {
      if (!form.blockScale[d] && !form.blockPlain[d])
        continue;
      if (blockHolder != -1)
        return false;
      blockHolder = int(k);
    }
    if (blockHolder == -1)
      return false;
    const LinearIndex &form = forms[blockHolder];
    for (int other = 0; other < 3; ++other)
      if (other != d && shape.grid[other] != 1 &&
          (form.blockScale[other] || form.blockPlain[other]))
        return false;
    if (holder == -1) {
      if (!form.blockPlain[d])
        return false;
      for (int other = 0; other < 3; ++other)
        if (form.threadCoeff[other] && shape.block[other] != 1)
          return false;
      continue;
    }
    if (holder != blockHolder || !form.blockScale[d] ||
        !isBlockSize(form.blockScale[d], d, shape))
      return false;
  }
  return true;
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
      cast<OpResult>(a).getResultNumber() != cast<OpResult>(b).getResultNumber())
    return false;
  for (auto [p, q] : llvm::zip(x->getOperands(), y->getOperands()))
    if (!isSameValue(p, q, depth + 1))
      return false;
  return true;
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

/// Whether \p access (on \p root) is injective in the thread ids (and, with
/// \p acrossBlocks, the block ids).
static bool isInjectiveAccess(const Access &access, Value root,
                              const LaunchShape &shape, bool acrossBlocks) {
  if (access.memref != root || access.count != 1)
    return false;
  SmallVector<LinearIndex> forms(access.indices.size());
  for (auto [index, form] : llvm::zip(access.indices, forms))
    if (!decompose(index, form))
      return false;
  return isInjective(forms, shape, acrossBlocks);
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

/// The grid dimensions (bits) that \p access's index does not name and
/// whose size is not known: assumed 1, its index is injective in (block,
/// thread); ~0u when it is not injective even so.
static unsigned getGridAssumption(const Access &access, Value root,
                                  LaunchShape shape) {
  if (access.memref != root || access.count != 1)
    return ~0u;
  SmallVector<LinearIndex> forms(access.indices.size());
  for (auto [index, form] : llvm::zip(access.indices, forms))
    if (!decompose(index, form))
      return ~0u;
  unsigned assumed = 0;
  for (int d = 0; d < 3; ++d) {
    bool named = llvm::any_of(forms, [&](const LinearIndex &form) {
      return form.blockScale[d] || form.blockPlain[d];
    });
    if (!named && shape.grid[d] == 0) {
      shape.grid[d] = 1;
      assumed |= 1u << d;
    }
  }
  return isInjective(forms, shape, /*acrossBlocks=*/true) ? assumed : ~0u;
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
  // Roots whose writes all have one form injective across the launch
  // (when the grid dimensions of the mask have one block).
  llvm::DenseMap<Value, unsigned> writesDistinct;
  auto haveOneForm = [](ArrayRef<const Access *> list) {
    return llvm::all_of(
        list, [&](const Access *a) { return isSameForm(*a, *list.front()); });
  };
  for (auto &[root, list] : writes) {
    unsigned assumed = getGridAssumption(*list.front(), root, shape);
    if (assumed != ~0u && haveOneForm(list))
      writesDistinct[root] = assumed;
  }
  RaceFreeAccesses result;
  for (auto &[key, list] : groups) {
    Value root = key.first;
    bool anyWrite = llvm::any_of(list, [](const Access *a) { return a->write; });
    bool ownElements =
        isInjectiveAccess(*list.front(), root, shape, /*acrossBlocks=*/false) &&
        haveOneForm(list);
    if (anyWrite && !ownElements)
      continue;
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
/// memory, an element of unknown size).
static bool instrumentAccess(const Access &access, gpu::GPUFuncOp kernel,
                             gpu::GPUModuleOp module, unsigned unlessGrid) {
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
      Value more = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne,
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
  func::FuncOp hook =
      getOrCreateHook(b, module, kAccessFn,
                      {ptrType, ptrType, i64, i64, i64, i64, i64, i64, i64,
                       i64, i64});
  // The linear index: offset + sum of index * stride, from the memref's
  // metadata (any layout), and the address of that element.
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, access.memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] :
       llvm::zip(access.indices, metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, access.memref);
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, linear, arith::ConstantIndexOp::create(b, loc, elementBytes)));
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
      offload::createHostStringAddress(b, loc, module, "__offload_check.location",
                                       offload::describeSourceLocation(loc)),
      createKernelName(b, loc, module, kernel),
      arith::IndexCastOp::create(b, loc, i64, address),
      arith::ConstantIntOp::create(b, loc, i64, elementBytes),
      arith::ConstantIntOp::create(b, loc, i64, access.count),
      arith::ConstantIntOp::create(b, loc, i64, flags),
      arith::IndexCastOp::create(b, loc, i64, linear), stored};
  appendThreadIds(b, loc, args);
  func::CallOp::create(b, loc, hook, args);
  return true;
}

/// Before \p op, a block-wide synchronization; \p flags as
/// __offload_host_check_barrier takes them.
static void instrumentBarrier(Operation *op, int64_t flags,
                              gpu::GPUFuncOp kernel, gpu::GPUModuleOp module) {
  OpBuilder b(op);
  Location loc = op->getLoc();
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  func::FuncOp hook =
      getOrCreateHook(b, module, kBarrierFn,
                      {ptrType, ptrType, i64, i64, i64, i64});
  SmallVector<Value> args{
      offload::createHostStringAddress(b, loc, module, "__offload_check.location",
                                       offload::describeSourceLocation(loc)),
      createKernelName(b, loc, module, kernel),
      arith::ConstantIntOp::create(b, loc, i64, flags)};
  appendThreadIds(b, loc, args);
  func::CallOp::create(b, loc, hook, args);
}

namespace {
struct OffloadCheckRacesPass
    : public offload::impl::OffloadCheckRacesBase<OffloadCheckRacesPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
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
          bool checked = instrumentAccess(access, kernel, module, unlessGrid);
          anyChecked |= checked && !unlessGrid;
        }
      // Barrier intervals matter to racecheck only when an access is
      // checked; synccheck only where threads can diverge.
      // (A kernel with one divergent barrier has all its barriers named.)
      bool syncChecked = sync && (mayExitEarly(kernel) ||
                                  llvm::any_of(barriers, [](auto barrier) {
                                    return !barrier.second &&
                                           !isConvergent(barrier.first);
                                  }));
      for (auto [op, collective] : barriers) {
        if (!(race && anyChecked) && !(syncChecked && !collective))
          continue;
        instrumentBarrier(op,
                          (collective ? kCollective : 0) | (sync ? kSync : 0),
                          kernel, module);
      }
    }
  }
};
} // namespace
