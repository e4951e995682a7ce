//===- VendorOps.h - GPU vendor ops with a meaning on the CPU ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kernels written for one vendor use its dialect's ops (amdgpu, nvgpu) for
// barriers, buffer accesses and warp-level matrix steps. The host target
// runs them after rewriting those ops into portable gpu/memref/vector ops;
// this header exports the patterns (lib/Transforms/HostKernel/VendorOps.cpp,
// NVGPUOps.cpp). The pass `offload-host-legalize-vendor-ops` applies them.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_VENDOROPS_H
#define OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_VENDOROPS_H

namespace mlir {
class RewritePatternSet;
namespace offload {

/// Patterns that rewrite GPU vendor ops with a meaning on the CPU into
/// portable ones (VendorOps.cpp: amdgpu.sched_barrier, amdgpu.lds_barrier,
/// amdgpu.raw_buffer_load/store; the nvgpu ops below). Part of the
/// preparation patterns of convert-gpu-to-offload-host; also applied first
/// by offload-host-thread-loops, so that vendor barriers are barriers to it.
void populateHostVendorOpPatterns(RewritePatternSet &patterns);

/// Patterns that rewrite the NVIDIA warp-level ops whose lane layout a
/// program sees (NVGPUOps.cpp: nvgpu.mma.sync, nvgpu.ldmatrix as shuffles of
/// the lanes' registers, nvgpu.device_async_* as synchronous copies). Part
/// of the vendor-op patterns.
void populateHostNVGPUOpPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_VENDOROPS_H
