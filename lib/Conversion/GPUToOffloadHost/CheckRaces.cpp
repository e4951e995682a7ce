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
// read-write between threads of a block with no barrier between them).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

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

/// "file:line:col" of \p loc (a call site resolved to its callee).
static std::string describeLocation(Location loc) {
  std::optional<FileLineColLoc> source = offload::getSourceLocation(loc);
  if (!source)
    return "<unknown>";
  return (source->getFilename().getValue() + ":" + Twine(source->getLine()) +
          ":" + Twine(source->getColumn()))
      .str();
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
  if (auto original =
          kernel->getAttrOfType<StringAttr>("offload.specialization_of"))
    return original.str();
  return kernel.getName().str();
}

static Value createKernelName(OpBuilder &b, Location loc,
                              gpu::GPUModuleOp module, gpu::GPUFuncOp kernel) {
  return offload::createHostStringAddress(b, loc, module, "__offload_check.kernel",
                                          getKernelName(kernel));
}

static void instrumentAccess(const Access &access, gpu::GPUFuncOp kernel,
                             gpu::GPUModuleOp module) {
  bool workgroup;
  if (!isShared(access.memref, workgroup))
    return;
  auto type = cast<MemRefType>(access.memref.getType());
  int64_t elementBytes = getElementBytes(type.getElementType());
  if (elementBytes == 0)
    return;
  OpBuilder b(access.op);
  Location loc = access.op->getLoc();
  Type i64 = b.getI64Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
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
                                       describeLocation(loc)),
      createKernelName(b, loc, module, kernel),
      arith::IndexCastOp::create(b, loc, i64, address),
      arith::ConstantIntOp::create(b, loc, i64, elementBytes),
      arith::ConstantIntOp::create(b, loc, i64, access.count),
      arith::ConstantIntOp::create(b, loc, i64, flags),
      arith::IndexCastOp::create(b, loc, i64, linear), stored};
  appendThreadIds(b, loc, args);
  func::CallOp::create(b, loc, hook, args);
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
                                       describeLocation(loc)),
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
      for (const Access &access : accesses)
        instrumentAccess(access, kernel, module);
      for (auto [op, collective] : barriers)
        instrumentBarrier(op,
                          (collective ? kCollective : 0) | (sync ? kSync : 0),
                          kernel, module);
    }
  }
};
} // namespace
