//===- NVGPUOps.cpp - NVIDIA warp-level matrix ops on the host ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The nvgpu ops whose lane layout a program sees, rewritten for the host
// before its lowering (with the vendor ops of VendorOps.cpp):
//
//   nvgpu.mma.sync              the warp's product, each lane's fragment in
//                               the layout of the PTX ISA's `mma.m16n8k*` /
//                               `mma.m8n8k4` matrix fragments
//   nvgpu.ldmatrix              each lane's part of the 8x8 tiles whose row
//                               addresses lanes 8i..8i+7 give (PTX
//                               `ldmatrix`, with .trans)
//   nvgpu.device_async_copy     a synchronous copy (zero fill past
//                               srcElements)
//   nvgpu.device_async_create_group, nvgpu.device_async_wait
//                               nothing to wait for: erased
//
// Lanes exchange values with `gpu.shuffle idx` of 32- and 64-bit registers,
// which the host implements on thread loops (store per thread, split, read
// the source lane's value) and on fibers alike, so a warp-level matrix op is
// a collective of the warp as on the GPU: every lane of the warp must execute
// it.
//
// Fragment layouts (g = lane / 4, t = lane % 4; a register is one row of the
// operand vector, E elements of 32 / E bits, 64-bit for f64):
//   A (M x K, M = 16 or 8): register r, element j is
//       A[g + 8 * (r % (M / 8)), t * E + (r / (M / 8)) * 4 * E + j]
//   B (K x N, N = 8): register r, element j is B[t * E + r * 4 * E + j, g]
//   C, D (M x N): register r, element j is C[g + 8 * r, t * Ec + j]
// which is the PTX ISA's figures for m16n8k4/k8 (tf32), m16n8k8/k16 (f16,
// bf16), m16n8k16/k32 (s8, u8), m16n8k32/k64 (s4, u4) and m8n8k4 (f64), and
// the layout of upstream's NVGPU lowering (NVGPUToNVVM, MMAUtils).
//
// Numerics: products and sums in f32 for f16 operands, rounded once to an
// f16 accumulator at the end (one k step of the tensor core); f32 operands
// are tf32, their 13 low mantissa bits dropped as the tensor core reads them;
// f64 in f64; i8 and i4 operands are signed (upstream lowers them to .s8 and
// .s4), the i32 accumulator wraps. nvgpu.mma.sp.sync (structured sparsity)
// and the sm_90 ops (TMA, wgmma, mbarriers) are left to the lowering's error
// for nvgpu ops.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Transforms/HostKernel/VendorOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;

/// Lanes per warp, rows per tile of ldmatrix, lanes per row group of a
/// fragment.
static constexpr int64_t kLanes = 32;
static constexpr int64_t kTileRows = 8;
static constexpr int64_t kGroupLanes = 4;

/// The bit width of an element of \p type (index is not a fragment element).
static int64_t getBitWidth(Type type) {
  return type.isIntOrFloat() ? type.getIntOrFloatBitWidth() : 0;
}

namespace {
/// The lane id and its derived coordinates in a fragment, as i32.
struct LaneCoordinates {
  Value lane, group, inGroup;
};

/// Helpers shared by the rewrites: building i32 constants and shuffles.
struct WarpBuilder {
  PatternRewriter &b;
  Location loc;

  Value i32(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
  }
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }

  LaneCoordinates getLane() {
    Value lane = arith::IndexCastOp::create(
        b, loc, b.getI32Type(), gpu::LaneIdOp::create(b, loc, nullptr));
    Value group = arith::DivUIOp::create(b, loc, lane, i32(kGroupLanes));
    Value inGroup = arith::RemUIOp::create(b, loc, lane, i32(kGroupLanes));
    return {lane, group, inGroup};
  }

  /// The value \p value of lane \p source (an i32) of the warp.
  Value shuffle(Value value, Value source) {
    return gpu::ShuffleOp::create(b, loc, value, source, i32(kLanes),
                                  gpu::ShuffleMode::IDX)
        .getShuffleResult();
  }

  /// Register \p r of \p fragment (a row of the vector) as one integer.
  Value packRegister(Value fragment, int64_t r) {
    auto type = cast<VectorType>(fragment.getType());
    Value row =
        vector::ExtractOp::create(b, loc, fragment, ArrayRef<int64_t>{r});
    int64_t bits = type.getDimSize(1) * getBitWidth(type.getElementType());
    auto packed = VectorType::get({1}, b.getIntegerType(bits));
    Value cast = vector::BitCastOp::create(b, loc, packed, row);
    return vector::ExtractOp::create(b, loc, cast, ArrayRef<int64_t>{0});
  }

  /// The elements of a register packed by packRegister from a fragment of
  /// \p type.
  SmallVector<Value> unpackRegister(Value bits, VectorType type) {
    auto packed = VectorType::get({1}, bits.getType());
    Value vector = vector::BroadcastOp::create(b, loc, packed, bits);
    auto rowType = VectorType::get({type.getDimSize(1)}, type.getElementType());
    Value row = vector::BitCastOp::create(b, loc, rowType, vector);
    SmallVector<Value> elements;
    for (int64_t j = 0, e = type.getDimSize(1); j < e; ++j)
      elements.push_back(
          vector::ExtractOp::create(b, loc, row, ArrayRef<int64_t>{j}));
    return elements;
  }
};

/// `nvgpu.mma.sync`: each lane gathers the rows of A and the columns of B its
/// part of D needs from the lanes holding them, then computes that part.
struct MmaSyncToShuffles : OpRewritePattern<nvgpu::MmaSyncOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::MmaSyncOp op,
                                PatternRewriter &rewriter) const override {
    auto aType = cast<VectorType>(op.getMatrixA().getType());
    auto bType = cast<VectorType>(op.getMatrixB().getType());
    auto cType = cast<VectorType>(op.getMatrixC().getType());
    auto [m, n, k] = op.getMmaShapeAsArray();
    if (aType.getRank() != 2 || bType.getRank() != 2 || cType.getRank() != 2)
      return rewriter.notifyMatchFailure(op, "fragments are not 2-D vectors");
    Type abElement = aType.getElementType();
    Type cElement = cType.getElementType();
    int64_t e = aType.getDimSize(1), ec = cType.getDimSize(1);
    int64_t registerBits = e * getBitWidth(abElement);
    int64_t rowHalves = m / kTileRows;
    int64_t kPerRegister = kGroupLanes * e;
    if ((m != 8 && m != 16) || n != kTileRows || k % kPerRegister != 0 ||
        bType.getDimSize(1) != e ||
        (registerBits != 32 && registerBits != 64) ||
        aType.getDimSize(0) != rowHalves * (k / kPerRegister) ||
        bType.getDimSize(0) != k / kPerRegister ||
        cType.getDimSize(0) != rowHalves || kGroupLanes * ec != n)
      return rewriter.notifyMatchFailure(
          op, "not a fragment layout of the PTX ISA's mma.m16n8k*/m8n8k4");
    bool isFloat = isa<FloatType>(abElement);
    if (isFloat != isa<FloatType>(cElement))
      return rewriter.notifyMatchFailure(op, "mixed float and integer types");

    Location loc = op.getLoc();
    WarpBuilder wb{rewriter, loc};
    LaneCoordinates lane = wb.getLane();

    // A's rows g and g + 8: the registers of the four lanes of this lane's
    // row group. aRegisters[q][r] is register r of lane 4 * g + q.
    SmallVector<SmallVector<Value>> aRegisters(kGroupLanes);
    for (int64_t q = 0; q < kGroupLanes; ++q) {
      Value source = wb.add(wb.mul(lane.group, wb.i32(kGroupLanes)), wb.i32(q));
      for (int64_t r = 0, count = aType.getDimSize(0); r < count; ++r)
        aRegisters[q].push_back(
            wb.shuffle(wb.packRegister(op.getMatrixA(), r), source));
    }
    // B's columns t * ec + j: the registers of the four lanes holding each.
    // bRegisters[j][q][r] is register r of lane 4 * (t * ec + j) + q.
    SmallVector<SmallVector<SmallVector<Value>>> bRegisters(ec);
    for (int64_t j = 0; j < ec; ++j) {
      bRegisters[j].resize(kGroupLanes);
      Value column = wb.add(wb.mul(lane.inGroup, wb.i32(ec)), wb.i32(j));
      for (int64_t q = 0; q < kGroupLanes; ++q) {
        Value source = wb.add(wb.mul(column, wb.i32(kGroupLanes)), wb.i32(q));
        for (int64_t r = 0, count = bType.getDimSize(0); r < count; ++r)
          bRegisters[j][q].push_back(
              wb.shuffle(wb.packRegister(op.getMatrixB(), r), source));
      }
    }

    // The computation type: f32 for f16 and tf32 operands, f64, i32.
    Type computeType = cElement;
    if (isFloat && getBitWidth(cElement) < 32)
      computeType = rewriter.getF32Type();
    bool tf32 = isFloat && abElement.isF32();
    auto toCompute = [&](Value value) -> Value {
      if (value.getType() == computeType)
        return value;
      if (isFloat)
        return arith::ExtFOp::create(rewriter, loc, computeType, value);
      return arith::ExtSIOp::create(rewriter, loc, computeType, value);
    };
    auto toOperand = [&](Value value) -> Value {
      if (tf32) {
        // The tensor core reads the 19 high bits of an f32 operand.
        Type i32 = rewriter.getI32Type();
        Value bits = arith::BitcastOp::create(rewriter, loc, i32, value);
        bits = arith::AndIOp::create(rewriter, loc, bits,
                                     wb.i32(static_cast<int32_t>(0xffffe000)));
        value = arith::BitcastOp::create(rewriter, loc, value.getType(), bits);
      }
      return toCompute(value);
    };
    // Unpacked, converted registers, made once each.
    DenseMap<Value, SmallVector<Value>> unpacked;
    auto elementOf = [&](Value packed, VectorType type, int64_t j) {
      auto it = unpacked.find(packed);
      if (it == unpacked.end()) {
        SmallVector<Value> elements;
        for (Value element : wb.unpackRegister(packed, type))
          elements.push_back(toOperand(element));
        it = unpacked.try_emplace(packed, std::move(elements)).first;
      }
      return it->second[j];
    };

    SmallVector<Value> results;
    for (int64_t half = 0; half < rowHalves; ++half) {
      for (int64_t j = 0; j < ec; ++j) {
        Value acc = toCompute(vector::ExtractOp::create(
            rewriter, loc, op.getMatrixC(), ArrayRef<int64_t>{half, j}));
        for (int64_t kk = 0; kk < k; ++kk) {
          int64_t q = (kk % kPerRegister) / e, chunk = kk / kPerRegister;
          Value a =
              elementOf(aRegisters[q][half + rowHalves * chunk], aType, kk % e);
          Value bv = elementOf(bRegisters[j][q][chunk], bType, kk % e);
          if (isFloat)
            acc = arith::AddFOp::create(
                rewriter, loc, acc,
                arith::MulFOp::create(rewriter, loc, a, bv));
          else
            acc = arith::AddIOp::create(
                rewriter, loc, acc,
                arith::MulIOp::create(rewriter, loc, a, bv));
        }
        if (computeType != cElement)
          acc = arith::TruncFOp::create(rewriter, loc, cElement, acc);
        results.push_back(acc);
      }
    }
    rewriter.replaceOpWithNewOp<vector::FromElementsOp>(op, cType, results);
    return success();
  }
};

namespace {
/// The linear position of an element in its memref's buffer and a 1-D view
/// of that buffer.
struct LinearAccess {
  Value position, view;
};
} // namespace

/// The linear access to the element at \p indices of \p memref.
static LinearAccess getLinearAccess(PatternRewriter &rewriter, Location loc,
                                    Value memref, ValueRange indices) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata =
      memref::ExtractStridedMetadataOp::create(rewriter, loc, memref);
  Value position = metadata.getOffset();
  Value extent = arith::ConstantIndexOp::create(rewriter, loc, 1);
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    Value stride = metadata.getStrides()[d];
    position = arith::AddIOp::create(
        rewriter, loc, position,
        arith::MulIOp::create(rewriter, loc, indices[d], stride));
    extent = arith::MaxUIOp::create(
        rewriter, loc, extent,
        arith::MulIOp::create(rewriter, loc, metadata.getSizes()[d], stride));
  }
  Value end =
      arith::AddIOp::create(rewriter, loc, metadata.getOffset(), extent);
  auto viewType = MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                                  AffineMap(), type.getMemorySpace());
  Value view = memref::ReinterpretCastOp::create(
      rewriter, loc, viewType, metadata.getBaseBuffer(),
      rewriter.getIndexAttr(0), ArrayRef<OpFoldResult>{OpFoldResult(end)},
      ArrayRef<OpFoldResult>{rewriter.getIndexAttr(1)});
  return {position, view};
}

/// `nvgpu.ldmatrix`: lane 8 * i + r gives the address of row r of tile i;
/// each lane receives its elements of each tile from the row (or, with
/// `transpose`, the rows) it reads.
struct LdMatrixToShuffles : OpRewritePattern<nvgpu::LdMatrixOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::LdMatrixOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<VectorType>(op.getRes().getType());
    int64_t tiles = op.getNumTiles();
    Type element = type.getElementType();
    int64_t bits = getBitWidth(element);
    if (type.getRank() != 2 || type.getDimSize(0) != tiles || bits == 0 ||
        type.getDimSize(1) * bits != 32)
      return rewriter.notifyMatchFailure(
          op, "the result is not numTiles registers of 32 bits");
    if (op.getTranspose() && bits != 16)
      return rewriter.notifyMatchFailure(op, "transpose of a non-16-bit type");
    Location loc = op.getLoc();
    WarpBuilder wb{rewriter, loc};
    LaneCoordinates lane = wb.getLane();
    LinearAccess access =
        getLinearAccess(rewriter, loc, op.getSrcMemref(), op.getIndices());
    Value view = access.view;
    Type i64 = rewriter.getI64Type();
    Value address =
        arith::IndexCastOp::create(rewriter, loc, i64, access.position);
    auto rowAddress = [&](Value sourceLane) {
      return arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(),
                                        wb.shuffle(address, sourceLane))
          .getResult();
    };
    auto toIndex = [&](Value value) {
      return arith::IndexCastUIOp::create(rewriter, loc,
                                          rewriter.getIndexType(), value)
          .getResult();
    };
    int64_t e = type.getDimSize(1);
    auto rowType = VectorType::get({e}, element);
    Value result = arith::ConstantOp::create(rewriter, loc, type,
                                             rewriter.getZeroAttr(type));
    for (int64_t i = 0; i < tiles; ++i) {
      if (!op.getTranspose()) {
        // Row g of tile i, elements t * e ... t * e + e - 1.
        Value row = rowAddress(wb.add(wb.i32(i * kTileRows), lane.group));
        Value column = wb.mul(toIndex(lane.inGroup), wb.index(e));
        Value values = vector::LoadOp::create(rewriter, loc, rowType, view,
                                              ValueRange{wb.add(row, column)});
        result = vector::InsertOp::create(rewriter, loc, values, result,
                                          ArrayRef<int64_t>{i});
        continue;
      }
      // Transposed: element j is column g of row 2 * t + j of tile i.
      for (int64_t j = 0; j < e; ++j) {
        Value source =
            wb.add(wb.i32(i * kTileRows + j), wb.mul(lane.inGroup, wb.i32(e)));
        Value row = rowAddress(source);
        Value value = memref::LoadOp::create(
            rewriter, loc, view, ValueRange{wb.add(row, toIndex(lane.group))});
        result = vector::InsertOp::create(rewriter, loc, value, result,
                                          ArrayRef<int64_t>{i, j});
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `nvgpu.device_async_copy`: the copy, done at once: `dstElements`
/// contiguous elements, those from `srcElements` on zero.
struct DeviceAsyncCopyToCopy : OpRewritePattern<nvgpu::DeviceAsyncCopyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::DeviceAsyncCopyOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    WarpBuilder wb{rewriter, loc};
    LinearAccess sourceAccess =
        getLinearAccess(rewriter, loc, op.getSrc(), op.getSrcIndices());
    LinearAccess targetAccess =
        getLinearAccess(rewriter, loc, op.getDst(), op.getDstIndices());
    Value source = sourceAccess.position, sourceView = sourceAccess.view;
    Value target = targetAccess.position, targetView = targetAccess.view;
    Type element = cast<MemRefType>(op.getDst().getType()).getElementType();
    Value zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(element));
    Value count = wb.index(op.getDstElements().getZExtValue());
    Value srcElements = op.getSrcElements();
    scf::ForOp::create(
        rewriter, loc, wb.index(0), count, wb.index(1), ValueRange{},
        [&](OpBuilder &b, Location loc, Value i, ValueRange) {
          Value from = arith::AddIOp::create(b, loc, source, i);
          Value to = arith::AddIOp::create(b, loc, target, i);
          Value value;
          if (srcElements) {
            Value inSource = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, i, srcElements);
            value = scf::IfOp::create(
                        b, loc, inSource,
                        [&](OpBuilder &tb, Location tl) {
                          scf::YieldOp::create(
                              tb, tl,
                              memref::LoadOp::create(tb, tl, sourceView,
                                                     ValueRange{from})
                                  .getResult());
                        },
                        [&](OpBuilder &eb, Location el) {
                          scf::YieldOp::create(eb, el, zero);
                        })
                        .getResult(0);
          } else {
            value =
                memref::LoadOp::create(b, loc, sourceView, ValueRange{from});
          }
          memref::StoreOp::create(b, loc, value, targetView, ValueRange{to});
          scf::YieldOp::create(b, loc);
        });
    rewriter.replaceOpWithNewOp<ub::PoisonOp>(op, op.getAsyncToken().getType());
    return success();
  }
};

/// `nvgpu.device_async_create_group`: its token stands for copies already
/// done.
struct DeviceAsyncCreateGroupToNothing
    : OpRewritePattern<nvgpu::DeviceAsyncCreateGroupOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::DeviceAsyncCreateGroupOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<ub::PoisonOp>(op, op.getAsyncToken().getType());
    return success();
  }
};

/// `nvgpu.device_async_wait`: the copies are done.
struct DeviceAsyncWaitToNothing : OpRewritePattern<nvgpu::DeviceAsyncWaitOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(nvgpu::DeviceAsyncWaitOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::offload::populateHostNVGPUOpPatterns(RewritePatternSet &patterns) {
  patterns.add<MmaSyncToShuffles, LdMatrixToShuffles, DeviceAsyncCopyToCopy,
               DeviceAsyncCreateGroupToNothing, DeviceAsyncWaitToNothing>(
      patterns.getContext());
}
