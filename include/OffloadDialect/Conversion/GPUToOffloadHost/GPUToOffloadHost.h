//===- GPUToOffloadHost.h - Lower gpu kernels for the host ------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <optional>
#include <string>

namespace mlir {
class RewritePatternSet;
namespace offload {

/// The source position of \p loc for messages: the first file location in
/// it, a call site resolved to its callee (an inlined function's own line);
/// std::nullopt when it has none.
std::optional<FileLineColLoc> getSourceLocation(Location loc);

/// getSourceLocation(loc) as "file:line:col" for the checking tools'
/// reports; "<unknown>" when it has none.
std::string describeSourceLocation(Location loc);

/// The address (!llvm.ptr) of a new private NUL-terminated string global of
/// \p module holding \p text, named "<prefix>.<n>".
Value createHostStringAddress(OpBuilder &b, Location loc,
                              gpu::GPUModuleOp module, StringRef prefix,
                              StringRef text);

/// Patterns that rewrite, inside kernels, what the host target implements
/// with barriers and shuffles (gpu.all_reduce, gpu.subgroup_reduce for a
/// subgroup of 32 threads) and other gpu/arith ops into simpler ones
/// (gpu.global_id, arith ceil/floor division).
void populateHostKernelPreparationPatterns(RewritePatternSet &patterns);

/// Patterns that rewrite GPU vendor ops with a meaning on the CPU into
/// portable ones (VendorOps.cpp: amdgpu.sched_barrier, amdgpu.lds_barrier,
/// amdgpu.raw_buffer_load/store; the nvgpu ops below). Part of the preparation patterns; also
/// applied first by offload-host-thread-loops, so that vendor barriers are
/// barriers to it.
void populateHostVendorOpPatterns(RewritePatternSet &patterns);

/// Patterns that rewrite the NVIDIA warp-level ops whose lane layout a
/// program sees (NVGPUOps.cpp: nvgpu.mma.sync, nvgpu.ldmatrix as shuffles of
/// the lanes' registers, nvgpu.device_async_* as synchronous copies). Part
/// of the vendor-op patterns.
void populateHostNVGPUOpPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
