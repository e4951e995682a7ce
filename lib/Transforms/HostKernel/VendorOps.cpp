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
// that a barrier or a shuffle is seen as one by both). Lanes are those of the
// host's subgroups: 32 threads of consecutive linear ids, `gpu.lane_id`.
//
//   amdgpu.sched_barrier     a scheduling hint: erased
//   amdgpu.lds_barrier       a workgroup barrier: gpu.barrier
//   amdgpu.raw_buffer_load   a bounds-checked load (0 when out of bounds)
//   amdgpu.raw_buffer_store  a bounds-checked store (dropped when out of
//                            bounds)
//   nvvm.barrier0, nvvm.barrier (no operands), rocdl.barrier,
//   rocdl.s.barrier          gpu.barrier
//   nvvm.read.ptx.sreg.*     tid, ntid, ctaid, nctaid: gpu.thread_id,
//                            block_dim, block_id, grid_dim; laneid:
//                            gpu.lane_id; warpsize: 32; lanemask.*: masks of
//                            the lane id
//   rocdl.workitem.id.*, workgroup.id.*, workgroup.dim.*, grid.dim.*
//                            the gpu ids and dimensions; wavefrontsize: 32
//   nvvm.shfl.sync           gpu.shuffle (PTX shfl.sync semantics below)
//   nvvm.vote.sync           gpu.subgroup_reduce: ballot is the `or` of
//                            `pred << lane`, any/all the `or`/`and` of pred,
//                            uni whether both agree
//   rocdl.ballot             as vote.sync ballot
//   rocdl.mbcnt.lo/hi        the bits of the mask below the lane, counted
//   rocdl.readfirstlane      gpu.shuffle idx 0
//   rocdl.readlane           gpu.shuffle idx of the lane operand
//   rocdl.ds_bpermute        gpu.shuffle idx of address / 4
//   rocdl.ds_swizzle, amdgpu.swizzle_bitmode
//                            gpu.shuffle: bit mode ((lane & and) | or) ^ xor
//                            (a xor shuffle when that is all it is) and quad
//                            permute mode
//   rocdl.update.dpp, amdgpu.dpp
//                            gpu.shuffle idx of the source lane of quad_perm,
//                            row_shl, row_shr, row_ror, row_mirror and
//                            row_half_mirror, with row and bank masks and
//                            bound_ctrl
//   rocdl.permlanex16        gpu.shuffle idx of the selected lane of the
//                            other row
//
// nvvm.shfl.sync follows PTX: with c = mask_and_clamp[4:0] and segmask =
// mask_and_clamp[12:8], a lane's segment is [lane & segmask, maxLane] with
// maxLane = (lane & segmask) | (c & ~segmask); the source j is lane - b (up,
// valid when j >= maxLane), lane + b, lane ^ b (down, bfly) or minLane | (b &
// ~segmask) (idx), valid when j <= maxLane; an invalid source reads the lane's
// own value. A constant mask_and_clamp without segments is a gpu.shuffle of
// width c + 1 (what upstream's NVVM lowering of gpu.shuffle emits); other
// forms compute j and its validity and shuffle from j. The thread mask is not
// checked: lanes that do not reach the op are not sources, as for gpu.shuffle.
// The DPP, swizzle and permute ops assume 32-lane groups: controls that cross
// 32 lanes (wave_*, row_bcast, row masks that differ between the halves of a
// 64-lane wave, ds_bpermute lanes above 31 wrap) keep the diagnostic.
//
// The buffer semantics follow the op documentation (AMDGPU.td) and its ROCDL
// lowering (mlir/lib/Conversion/AMDGPUToROCDL/AMDGPUToROCDL.cpp): the index
// is that of memref.load plus indexOffset and sgprOffset, in elements; the
// buffer holds max_d(size(d) * stride(d)) elements from the memref's offset.
// A vector access partly out of bounds is chipset-dependent on AMD GPUs; here
// it is entirely out of bounds. The nvgpu ops whose lane layout programs see
// are in NVGPUOps.cpp. Every other op of the amdgpu, rocdl, nvgpu
// and nvvm dialects is rejected by the host kernel pipeline
// (offload-host-kernel-to-llvm), naming the op and the target it belongs to.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/HostKernel/VendorOps.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "OffloadRuntime/HostKernelABI.h"

#include "mlir/Dialect/AMDGPU/IR/AMDGPUDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADHOSTLEGALIZEVENDOROPS
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

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

//===----------------------------------------------------------------------===//
// Barriers, ids and dimensions
//===----------------------------------------------------------------------===//

namespace {
/// A vendor op that is a workgroup barrier.
template <typename SourceOp>
struct VendorBarrierToGPUBarrier : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

/// nvvm.barrier of barrier 0 for the whole block, without a reduction.
struct NVVMBarrierToGPUBarrier : OpRewritePattern<NVVM::BarrierOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::BarrierOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumberOfThreads() || op.getReductionOp() ||
        op.getReductionPredicate() || op->getNumResults() != 0)
      return rewriter.notifyMatchFailure(
          op, "a barrier of some threads or with a reduction");
    if (Value id = op.getBarrierId()) {
      std::optional<int64_t> value = getConstantIntValue(id);
      if (!value || *value != 0)
        return rewriter.notifyMatchFailure(op, "a barrier other than 0");
    }
    rewriter.replaceOpWithNewOp<gpu::BarrierOp>(op);
    return success();
  }
};

/// \p value (index) as \p type, an integer type.
static Value castIndex(OpBuilder &b, Location loc, Value value, Type type) {
  return arith::IndexCastOp::create(b, loc, type, value);
}

/// A special register that is a gpu id or dimension (gpu.thread_id ...).
template <typename SourceOp, typename TargetOp, gpu::Dimension dim>
struct RegisterToGPUId : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    Value id = TargetOp::create(rewriter, op.getLoc(), dim);
    rewriter.replaceOp(op, castIndex(rewriter, op.getLoc(), id, op.getType()));
    return success();
  }
};

/// nvvm.read.ptx.sreg.laneid: gpu.lane_id.
struct LaneIdToGPULaneId : OpRewritePattern<NVVM::LaneIdOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::LaneIdOp op,
                                PatternRewriter &rewriter) const override {
    Value lane = gpu::LaneIdOp::create(rewriter, op.getLoc(), nullptr);
    rewriter.replaceOp(op,
                       castIndex(rewriter, op.getLoc(), lane, op.getType()));
    return success();
  }
};

/// The warp (wavefront) size: the host's subgroup size.
template <typename SourceOp>
struct WarpSizeToConstant : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, rewriter.getIntegerAttr(op.getType(), OFFLOAD_HOST_SUBGROUP_SIZE));
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Lanes
//===----------------------------------------------------------------------===//

/// The lane id of the calling thread, as i32.
static Value getLane(OpBuilder &b, Location loc) {
  Value lane = gpu::LaneIdOp::create(b, loc, nullptr);
  return castIndex(b, loc, lane, b.getI32Type());
}

static Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}

/// Whether gpu.shuffle moves values of \p type on the host.
static bool isShuffleType(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.getRank() == 1 && isShuffleType(vector.getElementType());
  return type.isIntOrFloat() && type.getIntOrFloatBitWidth() <= 64;
}

/// The value of lane \p source (i32, in [0, 32)) of \p value, and whether
/// that lane takes part (a gpu.shuffle idx over the whole subgroup).
static gpu::ShuffleOp readLane(OpBuilder &b, Location loc, Value value,
                               Value source) {
  return gpu::ShuffleOp::create(b, loc, value, source,
                                i32Constant(b, loc, OFFLOAD_HOST_SUBGROUP_SIZE),
                                gpu::ShuffleMode::IDX);
}

/// The lanes of `lanemask.*` below, at or above the caller's.
enum class LaneMask { eq, le, lt, ge, gt };

namespace {
template <typename SourceOp, LaneMask kind>
struct LaneMaskToShift : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not an i32 mask");
    Value lane = getLane(rewriter, loc);
    Value one = i32Constant(rewriter, loc, 1);
    Value allOnes = i32Constant(rewriter, loc, -1);
    Value bit = arith::ShLIOp::create(rewriter, loc, one, lane);
    // (2 << 31) wraps to 0: `le` of lane 31 is all ones.
    Value below = arith::SubIOp::create(rewriter, loc, bit, one);
    Value upTo = arith::SubIOp::create(
        rewriter, loc,
        arith::ShLIOp::create(rewriter, loc, i32Constant(rewriter, loc, 2),
                              lane),
        one);
    Value mask;
    switch (kind) {
    case LaneMask::eq:
      mask = bit;
      break;
    case LaneMask::lt:
      mask = below;
      break;
    case LaneMask::le:
      mask = upTo;
      break;
    case LaneMask::ge:
      mask = arith::XOrIOp::create(rewriter, loc, below, allOnes);
      break;
    case LaneMask::gt:
      mask = arith::XOrIOp::create(rewriter, loc, upTo, allOnes);
      break;
    }
    rewriter.replaceOp(op, mask);
    return success();
  }
};

/// nvvm.shfl.sync: PTX shfl.sync (file comment).
struct ShflSyncToShuffle : OpRewritePattern<NVVM::ShflOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::ShflOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value value = op.getVal();
    Value offset = arith::AndIOp::create(rewriter, loc, op.getOffset(),
                                         i32Constant(rewriter, loc, 31));
    Value result, valid;
    std::optional<int64_t> maskAndClamp =
        getConstantIntValue(op.getMaskAndClamp());
    int64_t clamp = maskAndClamp ? (*maskAndClamp & 31) : -1;
    bool segmented = !maskAndClamp || ((*maskAndClamp >> 8) & 31) != 0;
    NVVM::ShflKind kind = op.getKind();
    if (!segmented && (kind != NVVM::ShflKind::up || clamp == 0)) {
      // One segment: valid sources are lanes [0, clamp] (up: lanes >= 0).
      gpu::ShuffleMode mode;
      switch (kind) {
      case NVVM::ShflKind::bfly:
        mode = gpu::ShuffleMode::XOR;
        break;
      case NVVM::ShflKind::up:
        mode = gpu::ShuffleMode::UP;
        break;
      case NVVM::ShflKind::down:
        mode = gpu::ShuffleMode::DOWN;
        break;
      case NVVM::ShflKind::idx:
        mode = gpu::ShuffleMode::IDX;
        break;
      }
      int64_t width =
          kind == NVVM::ShflKind::up ? OFFLOAD_HOST_SUBGROUP_SIZE : clamp + 1;
      auto shuffle =
          gpu::ShuffleOp::create(rewriter, loc, value, offset,
                                 i32Constant(rewriter, loc, width), mode);
      result = shuffle.getShuffleResult();
      valid = shuffle.getValid();
    } else {
      // The source lane as PTX computes it.
      Value lane = getLane(rewriter, loc);
      Value bits = op.getMaskAndClamp();
      Value c = arith::AndIOp::create(rewriter, loc, bits,
                                      i32Constant(rewriter, loc, 31));
      Value segmask = arith::AndIOp::create(
          rewriter, loc,
          arith::ShRUIOp::create(rewriter, loc, bits,
                                 i32Constant(rewriter, loc, 8)),
          i32Constant(rewriter, loc, 31));
      Value notSegmask = arith::XOrIOp::create(rewriter, loc, segmask,
                                               i32Constant(rewriter, loc, -1));
      Value minLane = arith::AndIOp::create(rewriter, loc, lane, segmask);
      Value maxLane = arith::OrIOp::create(
          rewriter, loc, minLane,
          arith::AndIOp::create(rewriter, loc, c, notSegmask));
      Value source;
      arith::CmpIPredicate predicate = arith::CmpIPredicate::sle;
      switch (kind) {
      case NVVM::ShflKind::up:
        source = arith::SubIOp::create(rewriter, loc, lane, offset);
        predicate = arith::CmpIPredicate::sge;
        break;
      case NVVM::ShflKind::down:
        source = arith::AddIOp::create(rewriter, loc, lane, offset);
        break;
      case NVVM::ShflKind::bfly:
        source = arith::XOrIOp::create(rewriter, loc, lane, offset);
        break;
      case NVVM::ShflKind::idx:
        source = arith::OrIOp::create(
            rewriter, loc, minLane,
            arith::AndIOp::create(rewriter, loc, offset, notSegmask));
        break;
      }
      valid = arith::CmpIOp::create(rewriter, loc, predicate, source, maxLane);
      source = arith::SelectOp::create(rewriter, loc, valid, source, lane);
      result = readLane(rewriter, loc, value, source).getShuffleResult();
    }
    if (!op.getReturnValueAndIsValid()) {
      rewriter.replaceOp(op, result);
      return success();
    }
    // The {value, valid} struct.
    Type structType = op.getType();
    Value packed = LLVM::PoisonOp::create(rewriter, loc, structType);
    packed = LLVM::InsertValueOp::create(rewriter, loc, packed, result,
                                         ArrayRef<int64_t>{0});
    packed = LLVM::InsertValueOp::create(rewriter, loc, packed, valid,
                                         ArrayRef<int64_t>{1});
    rewriter.replaceOp(op, packed);
    return success();
  }
};

/// A subgroup reduction of \p value (i32) with \p kind.
static Value reduceSubgroup(OpBuilder &b, Location loc, Value value,
                            gpu::AllReduceOperation kind) {
  return gpu::SubgroupReduceOp::create(b, loc, value, kind,
                                       /*uniform=*/false);
}

/// The bit of the calling lane, set when \p pred holds (i32).
static Value getBallotBit(OpBuilder &b, Location loc, Value pred) {
  Value bit = arith::ExtUIOp::create(b, loc, b.getI32Type(), pred);
  return arith::ShLIOp::create(b, loc, bit, getLane(b, loc));
}

/// nvvm.vote.sync.
struct VoteSyncToSubgroupReduce : OpRewritePattern<NVVM::VoteSyncOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(NVVM::VoteSyncOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value pred = op.getPred();
    if (op.getKind() == NVVM::VoteSyncKind::ballot) {
      rewriter.replaceOp(op, reduceSubgroup(rewriter, loc,
                                            getBallotBit(rewriter, loc, pred),
                                            gpu::AllReduceOperation::OR));
      return success();
    }
    Value bit =
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(), pred);
    Value zero = i32Constant(rewriter, loc, 0);
    auto toBool = [&](Value v) {
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, v,
                                   zero)
          .getResult();
    };
    auto reduce = [&](gpu::AllReduceOperation kind) {
      return toBool(reduceSubgroup(rewriter, loc, bit, kind));
    };
    switch (op.getKind()) {
    case NVVM::VoteSyncKind::any:
      rewriter.replaceOp(op, reduce(gpu::AllReduceOperation::OR));
      return success();
    case NVVM::VoteSyncKind::all:
      rewriter.replaceOp(op, reduce(gpu::AllReduceOperation::AND));
      return success();
    case NVVM::VoteSyncKind::uni:
      // All lanes agree: some hold it exactly when all do.
      rewriter.replaceOpWithNewOp<arith::CmpIOp>(
          op, arith::CmpIPredicate::eq, reduce(gpu::AllReduceOperation::OR),
          reduce(gpu::AllReduceOperation::AND));
      return success();
    case NVVM::VoteSyncKind::ballot:
      break;
    }
    llvm_unreachable("ballot is handled above");
  }
};

/// rocdl.ballot: the lanes' predicates as bits of an i32 or i64.
struct BallotToSubgroupReduce : OpRewritePattern<ROCDL::BallotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::BallotOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<IntegerType>(op.getType());
    if (!type || type.getWidth() < 32)
      return rewriter.notifyMatchFailure(op, "not an i32 or i64 mask");
    Location loc = op.getLoc();
    Value bits =
        reduceSubgroup(rewriter, loc, getBallotBit(rewriter, loc, op.getPred()),
                       gpu::AllReduceOperation::OR);
    if (type.getWidth() > 32)
      bits = arith::ExtUIOp::create(rewriter, loc, type, bits);
    rewriter.replaceOp(op, bits);
    return success();
  }
};

/// rocdl.mbcnt.lo/hi: acc + the bits of the mask in lanes below the caller's
/// (lo: lanes 0-31, hi: lanes 32-63, none on the host).
template <typename SourceOp, bool high>
struct MbcntToPopcount : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    if (high) {
      rewriter.replaceOp(op, op.getIn1());
      return success();
    }
    Location loc = op.getLoc();
    Value one = i32Constant(rewriter, loc, 1);
    Value below = arith::SubIOp::create(
        rewriter, loc,
        arith::ShLIOp::create(rewriter, loc, one, getLane(rewriter, loc)), one);
    Value count = math::CtPopOp::create(
        rewriter, loc,
        arith::AndIOp::create(rewriter, loc, op.getIn0(), below));
    rewriter.replaceOpWithNewOp<arith::AddIOp>(op, op.getIn1(), count);
    return success();
  }
};

/// rocdl.readfirstlane: lane 0's value.
struct ReadFirstLaneToShuffle : OpRewritePattern<ROCDL::ReadfirstlaneOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::ReadfirstlaneOp op,
                                PatternRewriter &rewriter) const override {
    if (!isShuffleType(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a shuffled type");
    rewriter.replaceOp(op, readLane(rewriter, op.getLoc(), op.getSrc(),
                                    i32Constant(rewriter, op.getLoc(), 0))
                               .getShuffleResult());
    return success();
  }
};

/// rocdl.readlane: the value of the lane operand.
struct ReadLaneToShuffle : OpRewritePattern<ROCDL::ReadlaneOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::ReadlaneOp op,
                                PatternRewriter &rewriter) const override {
    if (!isShuffleType(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a shuffled type");
    rewriter.replaceOp(
        op, readLane(rewriter, op.getLoc(), op.getSrc0(), op.getSrc1())
                .getShuffleResult());
    return success();
  }
};

/// rocdl.ds_bpermute: lane i reads the lane of its byte address / 4.
struct BpermuteToShuffle : OpRewritePattern<ROCDL::DsBpermuteOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::DsBpermuteOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value source = arith::AndIOp::create(
        rewriter, loc,
        arith::ShRUIOp::create(rewriter, loc, op.getIndex(),
                               i32Constant(rewriter, loc, 2)),
        i32Constant(rewriter, loc, OFFLOAD_HOST_SUBGROUP_SIZE - 1));
    rewriter.replaceOp(
        op, readLane(rewriter, loc, op.getSrc(), source).getShuffleResult());
    return success();
  }
};

/// The ds_swizzle of \p value with the constant \p offset, std::nullopt for
/// the modes not handled (rotate and FFT modes of newer chips).
static std::optional<Value> swizzle(OpBuilder &b, Location loc, Value value,
                                    uint64_t offset) {
  if (offset & 0x8000) {
    // Quad permute mode: lane i of each quad reads lane offset[2i+1:2i].
    if (offset & 0x7f00)
      return std::nullopt;
    Value lane = getLane(b, loc);
    Value quadLane =
        arith::AndIOp::create(b, loc, lane, i32Constant(b, loc, 3));
    Value shift =
        arith::MulIOp::create(b, loc, quadLane, i32Constant(b, loc, 2));
    Value pick = arith::AndIOp::create(
        b, loc,
        arith::ShRUIOp::create(b, loc, i32Constant(b, loc, offset & 0xff),
                               shift),
        i32Constant(b, loc, 3));
    Value source = arith::OrIOp::create(
        b, loc, arith::AndIOp::create(b, loc, lane, i32Constant(b, loc, ~3)),
        pick);
    return readLane(b, loc, value, source).getShuffleResult();
  }
  // Bit mode, within groups of 32 lanes.
  int64_t andMask = offset & 0x1f, orMask = (offset >> 5) & 0x1f,
          xorMask = (offset >> 10) & 0x1f;
  if (andMask == 0x1f && orMask == 0)
    return gpu::ShuffleOp::create(b, loc, value, xorMask,
                                  OFFLOAD_HOST_SUBGROUP_SIZE,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  Value lane = getLane(b, loc);
  Value source = arith::XOrIOp::create(
      b, loc,
      arith::OrIOp::create(
          b, loc,
          arith::AndIOp::create(b, loc, lane, i32Constant(b, loc, andMask)),
          i32Constant(b, loc, orMask)),
      i32Constant(b, loc, xorMask));
  return readLane(b, loc, value, source).getShuffleResult();
}

struct DsSwizzleToShuffle : OpRewritePattern<ROCDL::DsSwizzleOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::DsSwizzleOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<int64_t> offset = getConstantIntValue(op.getOffset());
    if (!offset)
      return rewriter.notifyMatchFailure(op, "the offset is not a constant");
    std::optional<Value> result =
        swizzle(rewriter, op.getLoc(), op.getSrc(), *offset & 0xffff);
    if (!result)
      return rewriter.notifyMatchFailure(op, "a rotate or FFT swizzle");
    rewriter.replaceOp(op, *result);
    return success();
  }
};

struct SwizzleBitModeToShuffle : OpRewritePattern<amdgpu::SwizzleBitModeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(amdgpu::SwizzleBitModeOp op,
                                PatternRewriter &rewriter) const override {
    if (!isShuffleType(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a shuffled type");
    uint64_t offset = (op.getAndMask() & 0x1f) |
                      ((op.getOrMask() & 0x1f) << 5) |
                      ((op.getXorMask() & 0x1f) << 10);
    rewriter.replaceOp(op,
                       *swizzle(rewriter, op.getLoc(), op.getSrc(), offset));
    return success();
  }
};

/// A DPP move of \p src (update.dpp semantics): lanes whose row or bank is
/// masked off keep \p old, lanes whose source lane is outside their row read
/// \p old (or 0 with bound_ctrl). Fails for the controls that are not a
/// permutation within 16-lane rows of 32-lane groups.
static FailureOr<Value> dppMove(PatternRewriter &rewriter, Operation *op,
                                Value old, Value src, uint32_t ctrl,
                                uint32_t rowMask, uint32_t bankMask,
                                bool boundCtrl) {
  Location loc = op->getLoc();
  if (!isShuffleType(src.getType()))
    return rewriter.notifyMatchFailure(op, "not a shuffled type");
  // A 64-lane wave's rows 2 and 3 are the rows 0 and 1 of the second 32-lane
  // group: the masks must agree on both halves.
  if ((rowMask & 0xf) >> 2 != (rowMask & 3))
    return rewriter.notifyMatchFailure(
        op, "a row mask that differs between the halves of a wave");
  bool isPermutation = ctrl <= 0xff || (ctrl >= 0x101 && ctrl <= 0x10f) ||
                       (ctrl >= 0x111 && ctrl <= 0x11f) ||
                       (ctrl >= 0x121 && ctrl <= 0x12f) || ctrl == 0x140 ||
                       ctrl == 0x141;
  if (!isPermutation)
    return rewriter.notifyMatchFailure(
        op, "a DPP control that moves lanes across rows or 32-lane groups");
  Value lane = getLane(rewriter, loc);
  auto cst = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
  Value inRow = arith::AndIOp::create(rewriter, loc, lane, cst(15));
  Value rowBase = arith::AndIOp::create(rewriter, loc, lane, cst(~15));
  Value source;
  Value inRange; // i1; null when always in range
  if (ctrl <= 0xff) {
    // quad_perm: lane i of each quad reads lane ctrl[2i+1:2i].
    Value shift = arith::MulIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, lane, cst(3)),
        cst(2));
    Value pick = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, cst(ctrl), shift),
        cst(3));
    source = arith::OrIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, lane, cst(~3)),
        pick);
  } else if (ctrl >= 0x101 && ctrl <= 0x10f) {
    // row_shl: lane + n within the row.
    Value moved = arith::AddIOp::create(rewriter, loc, inRow, cst(ctrl & 15));
    inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt,
                                    moved, cst(16));
    source = arith::AddIOp::create(rewriter, loc, rowBase, moved);
  } else if (ctrl >= 0x111 && ctrl <= 0x11f) {
    // row_shr: lane - n within the row.
    Value moved = arith::SubIOp::create(rewriter, loc, inRow, cst(ctrl & 15));
    inRange = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sge,
                                    moved, cst(0));
    source = arith::AddIOp::create(rewriter, loc, rowBase, moved);
  } else if (ctrl >= 0x121 && ctrl <= 0x12f) {
    // row_ror: lane - n modulo the row.
    Value moved = arith::AndIOp::create(
        rewriter, loc,
        arith::SubIOp::create(rewriter, loc, inRow, cst(ctrl & 15)), cst(15));
    source = arith::AddIOp::create(rewriter, loc, rowBase, moved);
  } else if (ctrl == 0x140) {
    // row_mirror: lane 15 - i of the row.
    source = arith::AddIOp::create(
        rewriter, loc, rowBase,
        arith::SubIOp::create(rewriter, loc, cst(15), inRow));
  } else if (ctrl == 0x141) {
    // row_half_mirror: lane 7 - i of the half row.
    Value inHalf = arith::AndIOp::create(rewriter, loc, lane, cst(7));
    source = arith::AddIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, lane, cst(~7)),
        arith::SubIOp::create(rewriter, loc, cst(7), inHalf));
  } else {
    llvm_unreachable("controls checked above");
  }
  if (inRange)
    source = arith::SelectOp::create(rewriter, loc, inRange, source, lane);
  gpu::ShuffleOp moved = readLane(rewriter, loc, src, source);
  Value valid = moved.getValid();
  if (inRange)
    valid = arith::AndIOp::create(rewriter, loc, valid, inRange);
  Type type = src.getType();
  Value fill = boundCtrl ? arith::ConstantOp::create(rewriter, loc,
                                                     rewriter.getZeroAttr(type))
                               .getResult()
                         : old;
  Value result = arith::SelectOp::create(rewriter, loc, valid,
                                         moved.getShuffleResult(), fill);
  if ((rowMask & 3) != 3 || (bankMask & 0xf) != 0xf) {
    // Row r = lane[4], bank b = lane[3:2]: written when both are enabled.
    Value row = arith::ShRUIOp::create(rewriter, loc, lane, cst(4));
    Value bank = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, lane, cst(2)),
        cst(3));
    auto enabled = [&](uint32_t mask, Value index) {
      Value bit = arith::AndIOp::create(
          rewriter, loc,
          arith::ShRUIOp::create(rewriter, loc, cst(mask), index), cst(1));
      return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ne, bit,
                                   cst(0))
          .getResult();
    };
    Value written = arith::AndIOp::create(rewriter, loc, enabled(rowMask, row),
                                          enabled(bankMask, bank));
    result = arith::SelectOp::create(rewriter, loc, written, result, old);
  }
  return result;
}

struct UpdateDPPToShuffle : OpRewritePattern<ROCDL::DPPUpdateOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::DPPUpdateOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<Value> result =
        dppMove(rewriter, op, op.getOld(), op.getSrc(), op.getDppCtrl(),
                op.getRowMask(), op.getBankMask(), op.getBoundCtrl());
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// The dpp_ctrl of an amdgpu.dpp (as AMDGPUToROCDL encodes it).
static std::optional<uint32_t> getDPPControl(amdgpu::DPPOp op) {
  std::optional<Attribute> argument = op.getPermArgument();
  auto integer = [&]() -> uint32_t {
    return argument ? cast<IntegerAttr>(*argument).getInt() : 0;
  };
  switch (op.getKind()) {
  case amdgpu::DPPPerm::quad_perm: {
    auto lanes = dyn_cast_or_null<ArrayAttr>(argument.value_or(nullptr));
    if (!lanes || lanes.size() != 4)
      return std::nullopt;
    uint32_t ctrl = 0;
    for (auto [i, lane] : llvm::enumerate(lanes))
      ctrl |= (cast<IntegerAttr>(lane).getInt() & 3) << (2 * i);
    return ctrl;
  }
  case amdgpu::DPPPerm::row_shl:
    return 0x100 + integer();
  case amdgpu::DPPPerm::row_shr:
    return 0x110 + integer();
  case amdgpu::DPPPerm::row_ror:
    return 0x120 + integer();
  case amdgpu::DPPPerm::wave_shl:
    return 0x130;
  case amdgpu::DPPPerm::wave_rol:
    return 0x134;
  case amdgpu::DPPPerm::wave_shr:
    return 0x138;
  case amdgpu::DPPPerm::wave_ror:
    return 0x13c;
  case amdgpu::DPPPerm::row_mirror:
    return 0x140;
  case amdgpu::DPPPerm::row_half_mirror:
    return 0x141;
  case amdgpu::DPPPerm::row_bcast_15:
    return 0x142;
  case amdgpu::DPPPerm::row_bcast_31:
    return 0x143;
  }
  llvm_unreachable("unknown DPP permutation");
}

struct AMDGPUDPPToShuffle : OpRewritePattern<amdgpu::DPPOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(amdgpu::DPPOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<uint32_t> ctrl = getDPPControl(op);
    if (!ctrl)
      return rewriter.notifyMatchFailure(op, "a malformed permutation");
    FailureOr<Value> result =
        dppMove(rewriter, op, op.getOld(), op.getSrc(), *ctrl, op.getRowMask(),
                op.getBankMask(), op.getBoundCtrl());
    if (failed(result))
      return failure();
    rewriter.replaceOp(op, *result);
    return success();
  }
};

/// rocdl.permlanex16: lane i of a row reads, from the other row of its 32
/// lanes, the lane that the 4-bit field i of {src2, src1} selects; a source
/// that does not take part reads old (0 with bound_ctrl).
struct PermlaneX16ToShuffle : OpRewritePattern<ROCDL::PermlaneX16Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ROCDL::PermlaneX16Op op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isShuffleType(op.getType()) || !op.getSrc1().getType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not a shuffled type");
    auto cst = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    Value lane = getLane(rewriter, loc);
    Value inRow = arith::AndIOp::create(rewriter, loc, lane, cst(15));
    Value high = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::uge,
                                       inRow, cst(8));
    Value selector = arith::SelectOp::create(rewriter, loc, high, op.getSrc2(),
                                             op.getSrc1());
    Value shift = arith::MulIOp::create(
        rewriter, loc, arith::AndIOp::create(rewriter, loc, lane, cst(7)),
        cst(4));
    Value pick = arith::AndIOp::create(
        rewriter, loc, arith::ShRUIOp::create(rewriter, loc, selector, shift),
        cst(15));
    Value otherRow = arith::AndIOp::create(
        rewriter, loc, arith::XOrIOp::create(rewriter, loc, lane, cst(16)),
        cst(16));
    Value source = arith::OrIOp::create(rewriter, loc, otherRow, pick);
    gpu::ShuffleOp moved = readLane(rewriter, loc, op.getSrc0(), source);
    Value fill = op.getBoundControl()
                     ? arith::ConstantOp::create(
                           rewriter, loc, rewriter.getZeroAttr(op.getType()))
                           .getResult()
                     : op.getOld();
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, moved.getValid(), moved.getShuffleResult(), fill);
    return success();
  }
};
} // namespace

void mlir::offload::populateHostVendorOpPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<SchedBarrierToNothing, LDSBarrierToGPUBarrier,
               RawBufferLoadToLoad, RawBufferStoreToStore>(context);
  // Barriers.
  patterns.add<VendorBarrierToGPUBarrier<NVVM::Barrier0Op>,
               VendorBarrierToGPUBarrier<ROCDL::BarrierOp>,
               VendorBarrierToGPUBarrier<ROCDL::SBarrierOp>,
               NVVMBarrierToGPUBarrier>(context);
  // Ids and dimensions.
  using gpu::Dimension;
  patterns
      .add<RegisterToGPUId<NVVM::ThreadIdXOp, gpu::ThreadIdOp, Dimension::x>,
           RegisterToGPUId<NVVM::ThreadIdYOp, gpu::ThreadIdOp, Dimension::y>,
           RegisterToGPUId<NVVM::ThreadIdZOp, gpu::ThreadIdOp, Dimension::z>,
           RegisterToGPUId<NVVM::BlockDimXOp, gpu::BlockDimOp, Dimension::x>,
           RegisterToGPUId<NVVM::BlockDimYOp, gpu::BlockDimOp, Dimension::y>,
           RegisterToGPUId<NVVM::BlockDimZOp, gpu::BlockDimOp, Dimension::z>,
           RegisterToGPUId<NVVM::BlockIdXOp, gpu::BlockIdOp, Dimension::x>,
           RegisterToGPUId<NVVM::BlockIdYOp, gpu::BlockIdOp, Dimension::y>,
           RegisterToGPUId<NVVM::BlockIdZOp, gpu::BlockIdOp, Dimension::z>,
           RegisterToGPUId<NVVM::GridDimXOp, gpu::GridDimOp, Dimension::x>,
           RegisterToGPUId<NVVM::GridDimYOp, gpu::GridDimOp, Dimension::y>,
           RegisterToGPUId<NVVM::GridDimZOp, gpu::GridDimOp, Dimension::z>,
           RegisterToGPUId<ROCDL::ThreadIdXOp, gpu::ThreadIdOp, Dimension::x>,
           RegisterToGPUId<ROCDL::ThreadIdYOp, gpu::ThreadIdOp, Dimension::y>,
           RegisterToGPUId<ROCDL::ThreadIdZOp, gpu::ThreadIdOp, Dimension::z>,
           RegisterToGPUId<ROCDL::BlockIdXOp, gpu::BlockIdOp, Dimension::x>,
           RegisterToGPUId<ROCDL::BlockIdYOp, gpu::BlockIdOp, Dimension::y>,
           RegisterToGPUId<ROCDL::BlockIdZOp, gpu::BlockIdOp, Dimension::z>,
           RegisterToGPUId<ROCDL::BlockDimXOp, gpu::BlockDimOp, Dimension::x>,
           RegisterToGPUId<ROCDL::BlockDimYOp, gpu::BlockDimOp, Dimension::y>,
           RegisterToGPUId<ROCDL::BlockDimZOp, gpu::BlockDimOp, Dimension::z>,
           RegisterToGPUId<ROCDL::GridDimXOp, gpu::GridDimOp, Dimension::x>,
           RegisterToGPUId<ROCDL::GridDimYOp, gpu::GridDimOp, Dimension::y>,
           RegisterToGPUId<ROCDL::GridDimZOp, gpu::GridDimOp, Dimension::z>,
           LaneIdToGPULaneId, WarpSizeToConstant<NVVM::WarpSizeOp>,
           WarpSizeToConstant<ROCDL::WavefrontSizeOp>,
           LaneMaskToShift<NVVM::LaneMaskEqOp, LaneMask::eq>,
           LaneMaskToShift<NVVM::LaneMaskLeOp, LaneMask::le>,
           LaneMaskToShift<NVVM::LaneMaskLtOp, LaneMask::lt>,
           LaneMaskToShift<NVVM::LaneMaskGeOp, LaneMask::ge>,
           LaneMaskToShift<NVVM::LaneMaskGtOp, LaneMask::gt>>(context);
  // Lanes.
  patterns.add<ShflSyncToShuffle, VoteSyncToSubgroupReduce,
               BallotToSubgroupReduce, MbcntToPopcount<ROCDL::MbcntLoOp, false>,
               MbcntToPopcount<ROCDL::MbcntHiOp, true>, ReadFirstLaneToShuffle,
               ReadLaneToShuffle, BpermuteToShuffle, DsSwizzleToShuffle,
               SwizzleBitModeToShuffle, UpdateDPPToShuffle, AMDGPUDPPToShuffle,
               PermlaneX16ToShuffle>(context);
  populateHostNVGPUOpPatterns(patterns);
}

namespace {
struct OffloadHostLegalizeVendorOpsPass
    : public offload::impl::OffloadHostLegalizeVendorOpsBase<
          OffloadHostLegalizeVendorOpsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    offload::populateHostVendorOpPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
