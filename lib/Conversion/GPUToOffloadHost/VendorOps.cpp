//===- VendorOps.cpp - GPU vendor ops with a meaning on the CPU -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Vendor-specific ops that kernels written for one GPU use and that have a
// meaning on the host, rewritten to portable ops before the host lowering
// (applied by offload-host-thread-loops and convert-gpu-to-offload-host, so
// that a barrier is seen as one by both):
//
//   amdgpu.sched_barrier     a scheduling hint: erased
//   amdgpu.lds_barrier       a workgroup barrier: gpu.barrier
//   amdgpu.raw_buffer_load   a bounds-checked load (0 when out of bounds)
//   amdgpu.raw_buffer_store  a bounds-checked store (dropped when out of
//                            bounds)
//
// The buffer semantics follow the op documentation (AMDGPU.td) and its ROCDL
// lowering (mlir/lib/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.cpp): the index
// is that of memref.load plus indexOffset and sgprOffset, in elements; the
// buffer holds max_d(size(d) * stride(d)) elements from the memref's offset.
// A vector access partly out of bounds is chipset-dependent on AMD GPUs; here
// it is entirely out of bounds. The nvgpu ops whose lane layout programs see
// are in NVGPUOps.cpp. Every other op of the amdgpu, rocdl, nvgpu
// and nvvm dialects is rejected by convert-gpu-to-offload-host, naming the
// op and the target it belongs to.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace {
/// The element position and bounds of a raw buffer access, and a 1-D view
/// of the buffer to access it through.
struct BufferAccess {
  Value view, position, inBounds;
};
} // namespace

/// \p memref (identity or strided layout) seen as the 1-D buffer AMD's
/// buffer resource describes, the access's position in it, and whether the
/// \p width elements from there are in bounds (true without boundsCheck).
static BufferAccess getBufferAccess(PatternRewriter &rewriter, Location loc,
                                    Value memref, ValueRange indices,
                                    std::optional<uint32_t> indexOffset,
                                    Value sgprOffset, bool boundsCheck,
                                    int64_t width) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
  Value position = metadata.getOffset();
  Value records = arith::ConstantIndexOp::create(rewriter, loc, 0);
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    Value index = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), indices[d]);
    Value stride = metadata.getStrides()[d];
    position = arith::AddIOp::create(
        rewriter, loc, position,
        arith::MulIOp::create(rewriter, loc, index, stride));
    records = arith::MaxUIOp::create(
        rewriter, loc, records,
        arith::MulIOp::create(rewriter, loc, metadata.getSizes()[d], stride));
  }
  if (type.getRank() == 0)
    records = arith::ConstantIndexOp::create(rewriter, loc, 1);
  if (indexOffset)
    position = arith::AddIOp::create(
        rewriter, loc, position,
        arith::ConstantIndexOp::create(rewriter, loc, *indexOffset));
  if (sgprOffset)
    position = arith::AddIOp::create(
        rewriter, loc, position,
        arith::IndexCastUIOp::create(rewriter, loc, rewriter.getIndexType(),
                                     sgprOffset));
  // The buffer starts at the memref's offset.
  Value end =
      arith::AddIOp::create(rewriter, loc, metadata.getOffset(), records);
  Value inBounds = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
  if (boundsCheck) {
    Value last = arith::AddIOp::create(
        rewriter, loc, position,
        arith::ConstantIndexOp::create(rewriter, loc, width));
    inBounds = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ule, last,
                              end),
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                              position, metadata.getOffset()));
  }
  auto viewType = MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                                  AffineMap(), type.getMemorySpace());
  Value view = memref::ReinterpretCastOp::create(
      rewriter, loc, viewType, metadata.getBaseBuffer(),
      rewriter.getIndexAttr(0), ArrayRef<OpFoldResult>{OpFoldResult(end)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
  return {view, position, inBounds};
}

static int64_t getWidth(Type valueType) {
  if (auto vector = dyn_cast<VectorType>(valueType))
    return vector.getNumElements();
  return 1;
}

namespace {
struct SchedBarrierToNothing : OpRewritePattern<amdgpu::SchedBarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(amdgpu::SchedBarrierOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

struct LDSBarrierToGPUBarrier : OpRewritePattern<amdgpu::LDSBarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(amdgpu::LDSBarrierOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

struct RawBufferLoadToLoad : OpRewritePattern<amdgpu::RawBufferLoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(amdgpu::RawBufferLoadOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type valueType = op.getValue().getType();
    auto vectorType = dyn_cast<VectorType>(valueType);
    if (vectorType && vectorType.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "only 1-D vectors");
    BufferAccess access = getBufferAccess(
        rewriter, loc, op.getMemref(), op.getIndices(), op.getIndexOffset(),
        op.getSgprOffset(), op.getBoundsCheck(), getWidth(valueType));
    // (The result type is the yields'.)
    auto ifOp = scf::IfOp::create(
        rewriter, loc, access.inBounds,
        [&](OpBuilder &b, Location loc) {
          Value value =
              vectorType
                  ? vector::LoadOp::create(b, loc, vectorType, access.view,
                                           ValueRange{access.position})
                        .getResult()
                  : memref::LoadOp::create(b, loc, access.view,
                                           ValueRange{access.position})
                        .getResult();
          scf::YieldOp::create(b, loc, value);
        },
        [&](OpBuilder &b, Location loc) {
          // Out of bounds reads zero.
          scf::YieldOp::create(
              b, loc,
              arith::ConstantOp::create(b, loc, b.getZeroAttr(valueType))
                  .getResult());
        });
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct RawBufferStoreToStore : OpRewritePattern<amdgpu::RawBufferStoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(amdgpu::RawBufferStoreOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type valueType = op.getValue().getType();
    auto vectorType = dyn_cast<VectorType>(valueType);
    if (vectorType && vectorType.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "only 1-D vectors");
    BufferAccess access = getBufferAccess(
        rewriter, loc, op.getMemref(), op.getIndices(), op.getIndexOffset(),
        op.getSgprOffset(), op.getBoundsCheck(), getWidth(valueType));
    // Out of bounds stores are dropped.
    scf::IfOp::create(
        rewriter, loc, access.inBounds, [&](OpBuilder &b, Location loc) {
          if (vectorType)
            vector::StoreOp::create(b, loc, op.getValue(), access.view,
                                    ValueRange{access.position});
          else
            memref::StoreOp::create(b, loc, op.getValue(), access.view,
                                    ValueRange{access.position});
          scf::YieldOp::create(b, loc);
        });
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::offload::populateHostVendorOpPatterns(RewritePatternSet &patterns) {
  patterns.add<SchedBarrierToNothing, LDSBarrierToGPUBarrier,
               RawBufferLoadToLoad, RawBufferStoreToStore>(
      patterns.getContext());
  populateHostNVGPUOpPatterns(patterns);
}
