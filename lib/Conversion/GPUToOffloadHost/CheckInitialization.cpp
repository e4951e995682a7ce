//===- CheckInitialization.cpp - Initcheck instrumentation ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-check-initialization: calls of the runtime's initcheck
// (lib/Runtime/InitCheck.cpp) before the global memory accesses of a kernel,
// what compute-sanitizer's initcheck finds on CUDA: a read of device memory
// that no copy, fill or kernel store wrote. Loads ask the runtime's shadow
// whether their bytes were written; stores set the shadow. So that no write
// goes unseen (which would make a later read a false report), every other op
// that may write global memory marks whole allocations written: the one its
// memref points into, or, for a write through a pointer, every allocation a
// memref or pointer argument of the kernel points into, at the kernel's
// start.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADCHECKINITIALIZATION
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;

static constexpr StringLiteral kInitFn = "__offload_host_check_init";
static constexpr StringLiteral kWriteAllFn =
    "__offload_host_check_init_write_all";
static constexpr StringLiteral kPendingFn = "__offload_host_check_init_pending";

/// Flags of __offload_host_check_init (HostKernelABI.h).
enum : int64_t { kRead = 1, kWrite = 2 };

namespace {
/// One access to instrument: the memref, its indices, how many elements it
/// touches from there, and whether it reads and writes.
struct Access {
  Operation *op;
  Value memref;
  ValueRange indices;
  int64_t count = 1;
  int64_t flags = kRead;
};
} // namespace

static std::optional<Access> getAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{op, load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{op, store.getMemRef(), store.getIndices(), 1, kWrite};
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op))
    return Access{op, rmw.getMemref(), rmw.getIndices(), 1, kRead | kWrite};
  if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return Access{op, rmw.getMemref(), rmw.getIndices(), 1, kRead | kWrite};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return Access{op, load.getBase(), load.getIndices(),
                  load.getVectorType().getShape().back()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return Access{op, store.getBase(), store.getIndices(),
                  store.getVectorType().getShape().back(), kWrite};
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

/// Whether \p memref may be global memory, where offloadMemAlloc allocations
/// live: not workgroup or private memory, not a view of a kernel's own
/// memref.alloca, memref.alloc or module global.
static bool isGlobal(Value memref) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return false;
  if (auto space =
          dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace()))
    if (space.getValue() != gpu::AddressSpace::Global)
      return false;
  Value root = memref;
  while (Operation *def = root.getDefiningOp()) {
    if (isa<memref::AllocaOp, memref::AllocOp, memref::GetGlobalOp>(def))
      return false;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      root = view.getViewSource();
      continue;
    }
    break;
  }
  return true;
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

namespace {
/// The runtime calls of initcheck, declared once per module.
struct Hooks {
  func::FuncOp check, pending, writeAll;
};
} // namespace

/// Declares the runtime calls of initcheck in \p symbols' module; failure
/// (reported) when a symbol of their names is something else.
static FailureOr<Hooks> declareHooks(offload::HostModuleSymbols &symbols) {
  OpBuilder b(symbols.getModule().getContext());
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Hooks hooks;
  hooks.check = symbols.getOrDeclareFunc(
      b, kInitFn,
      b.getFunctionType({ptrType, ptrType, i64, i64, i64, i64, i64, i64}, {}));
  hooks.pending =
      symbols.getOrDeclareFunc(b, kPendingFn, b.getFunctionType({i64}, {i32}));
  hooks.writeAll =
      symbols.getOrDeclareFunc(b, kWriteAllFn, b.getFunctionType({i64}, {}));
  if (!hooks.check || !hooks.pending || !hooks.writeAll)
    return failure();
  // What lets LLVM hoist the pending test out of the thread loops and the
  // kernel's own loops, and share it between accesses of one memref: no
  // effect on memory (its answer may change during a launch only from "not
  // all written" to "all written", as the launch writes: an answer computed
  // earlier is a conservative one), no unwinding, no undefined behaviour.
  if (!hooks.pending->hasAttr(LLVM::LLVMDialect::getReadnoneAttrName())) {
    hooks.pending->setAttr(LLVM::LLVMDialect::getReadnoneAttrName(),
                           b.getUnitAttr());
    hooks.pending->setAttr(
        "passthrough",
        b.getStrArrayAttr({"nounwind", "willreturn", "speculatable"}));
  }
  return hooks;
}

static void instrumentAccess(const Access &access, gpu::GPUFuncOp kernel,
                             offload::HostModuleSymbols &symbols,
                             const Hooks &hooks) {
  auto type = cast<MemRefType>(access.memref.getType());
  int64_t elementBytes = getElementBytes(type.getElementType());
  if (elementBytes == 0)
    return;
  OpBuilder b(access.op);
  Location loc = access.op->getLoc();
  Type i64 = b.getI64Type();
  // Only while the allocation of the memref has bytes nothing wrote (the
  // common case, once a kernel has run over its buffers: none) does the
  // access call the runtime. The allocation is the one of the memref's
  // aligned pointer, a loop-invariant value: the test is made once per loop
  // nest, not per access.
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, access.memref);
  Value pending = func::CallOp::create(
                      b, loc, hooks.pending,
                      ValueRange{arith::IndexCastOp::create(b, loc, i64, base)})
                      .getResult(0);
  auto guard = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ne, pending,
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0)),
      /*withElseRegion=*/false);
  b.setInsertionPoint(guard.thenBlock()->getTerminator());
  // The address of the first element: base + (offset + sum of index *
  // stride) * element size, from the memref's metadata (any strided layout).
  auto metadata =
      memref::ExtractStridedMetadataOp::create(b, loc, access.memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(access.indices, metadata.getStrides()))
    linear = arith::AddIOp::create(
        b, loc, linear, arith::MulIOp::create(b, loc, index, stride));
  Value address = arith::AddIOp::create(
      b, loc, base,
      arith::MulIOp::create(
          b, loc, linear,
          arith::ConstantIndexOp::create(b, loc, elementBytes)));
  SmallVector<Value> args{
      symbols.getStringAddress(b, loc, "__offload_check.location",
                               offload::describeSourceLocation(loc)),
      symbols.getStringAddress(b, loc, "__offload_check.kernel",
                               getKernelName(kernel)),
      arith::IndexCastOp::create(b, loc, i64, address),
      arith::ConstantIntOp::create(b, loc, i64, elementBytes * access.count),
      arith::ConstantIntOp::create(b, loc, i64, access.flags)};
  for (gpu::Dimension dim :
       {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
    args.push_back(arith::IndexCastOp::create(
        b, loc, i64, gpu::ThreadIdOp::create(b, loc, dim)));
  func::CallOp::create(b, loc, hooks.check, args);
}

/// At \p b's insertion point, marks the whole allocation that \p value (a
/// memref or an !llvm.ptr) points into written.
static void markAllocationWritten(OpBuilder &b, Location loc, Value value,
                                  const Hooks &hooks) {
  Type i64 = b.getI64Type();
  Value address;
  if (isa<MemRefType>(value.getType()))
    address = arith::IndexCastOp::create(
        b, loc, i64,
        memref::ExtractAlignedPointerAsIndexOp::create(b, loc, value));
  else
    address = LLVM::PtrToIntOp::create(b, loc, i64, value);
  func::CallOp::create(b, loc, hooks.writeAll, address);
}

/// Whether \p op may write memory that the accesses above do not describe;
/// \p memrefs gets the global memrefs among its operands that it may write
/// (all of them when its effects are not known), \p throughPointer whether
/// it may write through an !llvm.ptr operand.
static bool mayWriteUnseen(Operation *op, SmallVectorImpl<Value> &memrefs,
                           bool &throughPointer) {
  throughPointer = false;
  // The other checking tools' calls (memcheck's, racecheck's) write nothing
  // of the kernel's.
  if (auto call = dyn_cast<func::CallOp>(op))
    if (call.getCallee().starts_with("__offload_host_"))
      return false;
  SmallVector<Value> candidates;
  bool pointers = false;
  for (Value operand : op->getOperands()) {
    if (isa<MemRefType>(operand.getType()) && isGlobal(operand))
      candidates.push_back(operand);
    else if (isa<LLVM::LLVMPointerType>(operand.getType()) &&
             !operand.getDefiningOp<LLVM::AddressOfOp>())
      pointers = true; // (a module global is no allocation)
  }
  if (candidates.empty() && !pointers)
    return false;
  if (auto effects = dyn_cast<MemoryEffectOpInterface>(op)) {
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    bool any = false;
    for (const MemoryEffects::EffectInstance &effect : instances) {
      if (!isa<MemoryEffects::Write>(effect.getEffect()))
        continue;
      Value on = effect.getValue();
      if (on && llvm::is_contained(candidates, on)) {
        if (!llvm::is_contained(memrefs, on))
          memrefs.push_back(on);
        any = true;
        continue;
      }
      if (on && !isa<LLVM::LLVMPointerType>(on.getType()))
        continue;
      // A write of no particular value, or through a pointer.
      memrefs.assign(candidates.begin(), candidates.end());
      throughPointer = pointers;
      return true;
    }
    return any;
  }
  // Regions whose effects are their ops' (scf.for, scf.if) are walked.
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    return false;
  memrefs.assign(candidates.begin(), candidates.end());
  throughPointer = pointers;
  return true;
}

namespace {
struct OffloadCheckInitializationPass
    : public offload::impl::OffloadCheckInitializationBase<
          OffloadCheckInitializationPass> {
  using Base::Base;

  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    offload::HostModuleSymbols symbols(module);
    std::optional<Hooks> hooks;
    for (gpu::GPUFuncOp kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel() || kernel.isExternal())
        continue;
      SmallVector<Access> accesses;
      SmallVector<std::pair<Operation *, SmallVector<Value>>> unseen;
      bool throughPointers = false;
      kernel.walk([&](Operation *op) {
        if (std::optional<Access> access = getAccess(op)) {
          if (isGlobal(access->memref))
            accesses.push_back(*access);
          return;
        }
        SmallVector<Value> memrefs;
        bool pointer = false;
        if (!mayWriteUnseen(op, memrefs, pointer))
          return;
        throughPointers |= pointer;
        if (!memrefs.empty())
          unseen.push_back({op, std::move(memrefs)});
      });
      if (accesses.empty() && unseen.empty() && !throughPointers)
        continue;
      if (!hooks) {
        FailureOr<Hooks> declared = declareHooks(symbols);
        if (failed(declared))
          return signalPassFailure();
        hooks = *declared;
      }
      for (const Access &access : accesses)
        instrumentAccess(access, kernel, symbols, *hooks);
      for (auto &[op, memrefs] : unseen) {
        OpBuilder b(op);
        for (Value memref : memrefs)
          markAllocationWritten(b, op->getLoc(), memref, *hooks);
      }
      if (throughPointers) {
        // A write through a pointer: the allocations of every argument.
        Block &entry = kernel.getBody().front();
        OpBuilder b = OpBuilder::atBlockBegin(&entry);
        for (BlockArgument arg : kernel.getArguments())
          if ((isa<MemRefType>(arg.getType()) && isGlobal(arg)) ||
              isa<LLVM::LLVMPointerType>(arg.getType()))
            markAllocationWritten(b, kernel.getLoc(), arg, *hooks);
      }
    }
  }
};
} // namespace
