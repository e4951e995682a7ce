//===- Passes.cpp - Passes of the offload pipelines -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `offload-check-gpu-target` and `offload-prepare-gpu-kernels`: the steps of
// the GPU pipelines that upstream has no pass for (see Passes.td).
//
//===----------------------------------------------------------------------===//

#include "PipelinePasses.h"

#include "OffloadDialect/Conversion/Pipelines/GPUTargets.h"
#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadDialect/Target/Host/HostTarget.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace offload {
#define GEN_PASS_DEF_OFFLOADCHECKGPUTARGET
#define GEN_PASS_DEF_OFFLOADPREPAREGPUKERNELS
#include "Passes.h.inc"
} // namespace offload
} // namespace mlir

using namespace mlir;
using namespace mlir::offload;

//===----------------------------------------------------------------------===//
// offload-check-gpu-target
//===----------------------------------------------------------------------===//

namespace {
struct OffloadCheckGPUTargetPass
    : public offload::impl::OffloadCheckGPUTargetBase<
          OffloadCheckGPUTargetPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    GPUTargetRequest request;
    request.chip = chip;
    request.features = features;
    request.format = format;
    request.toolkit = toolkit;
    request.optLevel = optLevel;
    request.codeObjectVersion = codeObjectVersion;

    if (target == "host") {
      if (optLevel > 3) {
        emitError(module.getLoc())
            << "invalid host target: O must be in [0, 3], got "
            << optLevel.getValue();
        return signalPassFailure();
      }
      if (llvm::Error error = checkHostTarget(/*triple=*/"", chip, features)) {
        emitError(module.getLoc())
            << "invalid host target: " << llvm::toString(std::move(error));
        return signalPassFailure();
      }
      return;
    }
    if (target != "nvvm" && target != "rocdl") {
      emitError(module.getLoc()) << "unknown GPU target '" << target.getValue()
                                 << "' (expected nvvm, rocdl or host)";
      return signalPassFailure();
    }
    bool nvvm = target == "nvvm";
    StringRef name = nvvm ? "NVVM" : "ROCDL";
    llvm::Expected<GPUTargetConfig> config =
        nvvm ? resolveNVVMTarget(request) : resolveROCDLTarget(request);
    if (!config) {
      emitError(module.getLoc())
          << "invalid " << name
          << " target: " << llvm::toString(config.takeError());
      return signalPassFailure();
    }
    if (config->notes.empty())
      return;
    // Diagnostics go to the module's location without the module attached:
    // the whole program after each remark would bury it.
    InFlightDiagnostic remark = emitRemark(module.getLoc());
    remark << name << " target " << config->chip << ": ";
    llvm::interleave(config->notes, remark, "; ");
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// offload-prepare-gpu-kernels
//===----------------------------------------------------------------------===//

namespace {
/// offload.runtime_constant -> its operand.
struct RuntimeConstantToOperand : OpRewritePattern<RuntimeConstantOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(RuntimeConstantOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, op.getValue());
    return success();
  }
};
} // namespace

void mlir::offload::populateGPUKernelPreparationPatterns(
    RewritePatternSet &patterns, unsigned subgroupSize) {
  patterns.add<RuntimeConstantToOperand>(patterns.getContext());
  populateGpuBreakDownSubgroupReducePatterns(patterns,
                                             /*maxShuffleBitwidth=*/32);
  populateGpuLowerSubgroupReduceToShufflePatterns(patterns, subgroupSize,
                                                  /*shuffleBitwidth=*/32);
  populateGpuLowerClusteredSubgroupReduceToShufflePatterns(
      patterns, subgroupSize, /*shuffleBitwidth=*/32);
}

void mlir::offload::convertKnownBlockSizeToReqntid(gpu::GPUFuncOp func) {
  DenseI32ArrayAttr known = func.getKnownBlockSizeAttr();
  if (!func.isKernel() || !known)
    return;
  StringRef reqntid = "nvvm.reqntid", maxntid = "nvvm.maxntid";
  // Leave kernels that say something themselves alone.
  if (func->hasAttr(reqntid) || func->hasAttr(maxntid))
    return;
  func->setAttr(reqntid, known);
  func.removeKnownBlockSizeAttr();
}

void mlir::offload::setDefaultFlatWorkGroupSize(gpu::GPUFuncOp func,
                                                unsigned maxSize) {
  StringRef flat = "rocdl.flat_work_group_size";
  StringRef reqd = "rocdl.reqd_work_group_size";
  if (!func.isKernel() || func.getKnownBlockSizeAttr() || func->hasAttr(flat) ||
      func->hasAttr(reqd))
    return;
  func->setAttr(
      flat, StringAttr::get(func.getContext(), "1," + std::to_string(maxSize)));
}

namespace {
struct OffloadPrepareGPUKernelsPass
    : public offload::impl::OffloadPrepareGPUKernelsBase<
          OffloadPrepareGPUKernelsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (subgroupSize == 0 || !llvm::isPowerOf2_32(subgroupSize)) {
      emitError(getOperation().getLoc())
          << "subgroup-size must be a power of two, not "
          << subgroupSize.getValue();
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateGPUKernelPreparationPatterns(patterns, subgroupSize);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    getOperation().walk([&](gpu::GPUFuncOp func) {
      if (nvvmReqntid)
        convertKnownBlockSizeToReqntid(func);
      if (rocdlMaxFlatWorkGroupSize != 0)
        setDefaultFlatWorkGroupSize(func, rocdlMaxFlatWorkGroupSize);
    });
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

void mlir::offload::registerOffloadPipelinePasses() {
  registerOffloadPipelinesPasses();
}
