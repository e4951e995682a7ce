//===- CheckMemoryAccesses.cpp - Bounds checks in host kernels ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-check-memory-accesses: a bounds check before every memref access
// of a kernel, reported with the access's location, the kernel, block and
// thread, the index and the size (what compute-sanitizer's memcheck reports
// for CUDA). MLIR's own runtime verification
// (mlir/lib/Dialect/MemRef/Transforms/RuntimeOpVerification.cpp) checks the
// same accesses with cf.assert and a static message; this pass reports the
// values, through __offload_host_bounds_fail (HostKernelABI.h), and makes the
// failing access harmless instead of stopping the thread: a store is
// skipped, a load or atomic yields zero. The runtime reports a thread's
// first bad access only (later ones of a faulted thread are not reported)
// and fails the launch, as compute-sanitizer's memcheck does. No thread
// stops alone, so checked kernels that synchronize still run as thread
// loops (offload-host-thread-loops), not on fibers.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADCHECKMEMORYACCESSES
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;

static constexpr StringLiteral kBoundsFailFn = "__offload_host_bounds_fail";

namespace {
/// One access to check: the memref, its indices, and how many elements
/// along the last dimension it touches.
struct Access {
  Operation *op;
  Value memref;
  ValueRange indices;
  int64_t lastExtent = 1;
};
} // namespace

static std::optional<Access> getAccess(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return Access{op, load.getMemRef(), load.getIndices()};
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return Access{op, store.getMemRef(), store.getIndices()};
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op))
    return Access{op, rmw.getMemref(), rmw.getIndices()};
  if (auto rmw = dyn_cast<memref::GenericAtomicRMWOp>(op))
    return Access{op, rmw.getMemref(), rmw.getIndices()};
  if (auto load = dyn_cast<vector::LoadOp>(op))
    return Access{op, load.getBase(), load.getIndices(),
                  load.getVectorType().getShape().back()};
  if (auto store = dyn_cast<vector::StoreOp>(op))
    return Access{op, store.getBase(), store.getIndices(),
                  store.getVectorType().getShape().back()};
  return std::nullopt;
}

/// The zero of \p type (an integer, index, float or vector of them).
static Value createZero(OpBuilder &b, Location loc, Type type) {
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    TypedAttr zero = isa<FloatType>(element)
                         ? TypedAttr(b.getFloatAttr(element, 0.0))
                         : TypedAttr(b.getIntegerAttr(element, 0));
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(vector, zero));
  }
  if (isa<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, 0.0));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, 0));
}

/// Runs \p op only when \p ok holds: `scf.if %ok` around it, yielding its
/// results, and zeros of their types otherwise (a bad load reads zero, a
/// bad store or atomic does nothing).
static void guardAccess(OpBuilder &b, Operation *op, Value ok) {
  Location loc = op->getLoc();
  auto guard = scf::IfOp::create(b, loc, op->getResultTypes(), ok,
                                 /*withElseRegion=*/op->getNumResults() != 0);
  if (op->getNumResults() == 0) {
    op->moveBefore(guard.thenBlock()->getTerminator());
    return;
  }
  op->replaceAllUsesWith(guard.getResults());
  op->moveBefore(guard.thenBlock(), guard.thenBlock()->end());
  b.setInsertionPointToEnd(guard.thenBlock());
  scf::YieldOp::create(b, loc, op->getResults());
  b.setInsertionPointToStart(guard.elseBlock());
  SmallVector<Value> zeros;
  for (Type type : op->getResultTypes())
    zeros.push_back(createZero(b, loc, type));
  scf::YieldOp::create(b, loc, zeros);
}

/// The bounds check of \p access in \p kernel; \p fail is the runtime's
/// __offload_host_bounds_fail.
static void checkAccess(const Access &access, gpu::GPUFuncOp kernel,
                        offload::HostModuleSymbols &symbols,
                        func::FuncOp fail) {
  Operation *op = access.op;
  OpBuilder b(op);
  Location loc = op->getLoc();
  auto type = cast<MemRefType>(access.memref.getType());
  Type i64 = b.getI64Type();

  Value ok = arith::ConstantIntOp::create(b, loc, 1, 1);
  std::string kernelName = kernel.getName().str();
  if (auto original = mlir::offload::OffloadDialect::SpecializationOfAttrHelper(
                          kernel.getContext())
                          .getAttr(kernel))
    kernelName = original.str();
  for (auto [d, index] : llvm::enumerate(access.indices)) {
    Value size =
        type.isDynamicDim(d)
            ? memref::DimOp::create(b, loc, access.memref, d).getResult()
            : arith::ConstantIndexOp::create(b, loc, type.getDimSize(d))
                  .getResult();
    // The last element touched: the index, plus the vector's length - 1
    // along the last dimension. Unsigned: a negative index is out of bounds.
    Value last = index;
    if (d + 1 == access.indices.size() && access.lastExtent > 1)
      last = arith::AddIOp::create(
          b, loc, index,
          arith::ConstantIndexOp::create(b, loc, access.lastExtent - 1));
    Value inBounds =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, last, size);
    // Report this dimension (the first failing one: later checks see ok
    // already false and skip their report).
    Value firstFailure = arith::AndIOp::create(
        b, loc, ok,
        arith::XOrIOp::create(b, loc, inBounds,
                              arith::ConstantIntOp::create(b, loc, 1, 1)));
    auto report = scf::IfOp::create(b, loc, firstFailure);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(report.thenBlock());
      SmallVector<Value> args{
          symbols.getStringAddress(b, loc, "__offload_check.location",
                                   offload::describeSourceLocation(loc)),
          symbols.getStringAddress(b, loc, "__offload_check.op",
                                   op->getName().getStringRef()),
          symbols.getStringAddress(b, loc, "__offload_check.kernel",
                                   kernelName),
          arith::ConstantIntOp::create(b, loc, i64, d),
          arith::IndexCastOp::create(b, loc, i64, last),
          arith::IndexCastOp::create(b, loc, i64, size)};
      for (gpu::Dimension dim :
           {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
        args.push_back(arith::IndexCastOp::create(
            b, loc, i64, gpu::BlockIdOp::create(b, loc, dim)));
      for (gpu::Dimension dim :
           {gpu::Dimension::x, gpu::Dimension::y, gpu::Dimension::z})
        args.push_back(arith::IndexCastOp::create(
            b, loc, i64, gpu::ThreadIdOp::create(b, loc, dim)));
      func::CallOp::create(b, loc, fail, args);
    }
    ok = arith::AndIOp::create(b, loc, ok, inBounds);
  }
  guardAccess(b, op, ok);
}

namespace {
struct OffloadCheckMemoryAccessesPass
    : public offload::impl::OffloadCheckMemoryAccessesBase<
          OffloadCheckMemoryAccessesPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    offload::HostModuleSymbols symbols(module);
    func::FuncOp fail;
    for (gpu::GPUFuncOp kernel : module.getOps<gpu::GPUFuncOp>()) {
      if (!kernel.isKernel())
        continue;
      SmallVector<Access> accesses;
      kernel.walk([&](Operation *op) {
        if (std::optional<Access> access = getAccess(op))
          accesses.push_back(*access);
      });
      if (accesses.empty())
        continue;
      if (!fail) {
        OpBuilder b(module.getContext());
        Type i64 = b.getI64Type();
        auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
        fail = symbols.getOrDeclareFunc(
            b, kBoundsFailFn,
            b.getFunctionType({ptrType, ptrType, ptrType, i64, i64, i64, i64,
                               i64, i64, i64, i64, i64},
                              {}));
        if (!fail)
          return signalPassFailure();
      }
      for (const Access &access : accesses)
        checkAccess(access, kernel, symbols, fail);
    }
  }
};
} // namespace
