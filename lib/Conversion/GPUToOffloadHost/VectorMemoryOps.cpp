//===- VectorMemoryOps.cpp - n-D vector loads and stores ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/VectorMemoryOps.h"
#include "OffloadDialect/Conversion/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADUNROLLNDVECTORMEMORYOPS
#include "OffloadDialect/Conversion/Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

/// The number of 1-D rows of \p type, when it is worth unrolling.
static FailureOr<int64_t> getUnrolledRows(VectorType type) {
  if (type.getRank() < 2 || type.isScalable())
    return failure();
  int64_t rows = 1;
  for (int64_t size : type.getShape().drop_back()) {
    rows *= size;
    if (rows > kMaxUnrolledVectorRows)
      return failure();
  }
  return rows;
}

/// The position (leading dimensions) of row \p row of \p type.
static SmallVector<int64_t> getRowPosition(VectorType type, int64_t row) {
  ArrayRef<int64_t> leading = type.getShape().drop_back();
  SmallVector<int64_t> position(leading.size());
  for (int64_t d = static_cast<int64_t>(leading.size()) - 1; d >= 0; --d) {
    position[d] = row % leading[d];
    row /= leading[d];
  }
  return position;
}

/// The memref indices of the row at \p position: the vector's dimensions are
/// the memref's trailing ones.
static SmallVector<Value> getRowIndices(OpBuilder &builder, Location loc,
                                        ValueRange indices,
                                        ArrayRef<int64_t> position) {
  SmallVector<Value> rowIndices(indices.begin(), indices.end());
  // The vector's dims are the memref's trailing rank (the row dim included).
  size_t first = indices.size() - (position.size() + 1);
  for (auto [d, offset] : llvm::enumerate(position)) {
    if (offset == 0)
      continue;
    Value shift = arith::ConstantIndexOp::create(builder, loc, offset);
    rowIndices[first + d] =
        arith::AddIOp::create(builder, loc, rowIndices[first + d], shift);
  }
  return rowIndices;
}

namespace {
struct UnrollNDLoad : public OpRewritePattern<vector::LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::LoadOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    FailureOr<int64_t> rows = getUnrolledRows(type);
    if (failed(rows))
      return rewriter.notifyMatchFailure(op, "not a static n-D vector");
    Location loc = op.getLoc();
    auto rowType =
        VectorType::get(type.getShape().back(), type.getElementType());
    Value result = arith::ConstantOp::create(rewriter, loc, type,
                                             rewriter.getZeroAttr(type));
    for (int64_t row = 0; row < *rows; ++row) {
      SmallVector<int64_t> position = getRowPosition(type, row);
      SmallVector<Value> indices =
          getRowIndices(rewriter, loc, op.getIndices(), position);
      Value piece = vector::LoadOp::create(rewriter, loc, rowType, op.getBase(),
                                           indices, op.getNontemporal());
      result = vector::InsertOp::create(rewriter, loc, piece, result, position);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct UnrollNDStore : public OpRewritePattern<vector::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::StoreOp op,
                                PatternRewriter &rewriter) const override {
    VectorType type = op.getVectorType();
    FailureOr<int64_t> rows = getUnrolledRows(type);
    if (failed(rows))
      return rewriter.notifyMatchFailure(op, "not a static n-D vector");
    Location loc = op.getLoc();
    for (int64_t row = 0; row < *rows; ++row) {
      SmallVector<int64_t> position = getRowPosition(type, row);
      SmallVector<Value> indices =
          getRowIndices(rewriter, loc, op.getIndices(), position);
      Value piece = vector::ExtractOp::create(rewriter, loc,
                                              op.getValueToStore(), position);
      vector::StoreOp::create(rewriter, loc, piece, op.getBase(), indices,
                              op.getNontemporal());
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct UnrollNDVectorMemoryOpsPass
    : public offload::impl::OffloadUnrollNDVectorMemoryOpsBase<
          UnrollNDVectorMemoryOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateUnrollNDVectorMemoryOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::offload::populateUnrollNDVectorMemoryOpsPatterns(
    RewritePatternSet &patterns) {
  patterns.add<UnrollNDLoad, UnrollNDStore>(patterns.getContext());
}
