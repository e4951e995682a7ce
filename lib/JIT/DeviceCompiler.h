//===- DeviceCompiler.h - JIT compilation for CUDA and HIP devices -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GPU half of libOffloadJIT's compile step: a specialized gpu.module to a
// device image for the CUDA or HIP device it is launched on.
//
//  - CUDA: the NVVM kernel steps of offload-lower-to-nvvm
//    (buildGPUKernelPipeline), PTX from LLVM's NVPTX backend in process
//    (`#nvvm.target` serialized with format isa), then a cubin from
//    nvJitLink (dlopen'ed, `-arch=sm_XY`, as Proteus does) when the CUDA
//    toolkit provides it and it supports the chip; otherwise the PTX itself,
//    which the CUDA driver compiles when the program is loaded.
//  - HIP: the ROCDL kernel steps of offload-lower-to-rocdl and
//    `#rocdl.target` serialized with format bin: AMDGCN code generated in
//    process, linked into an HSACO by the toolkit's ld.lld, which upstream's
//    ROCDL serialization runs as a process.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_DEVICECOMPILER_H
#define OFFLOAD_LIB_JIT_DEVICECOMPILER_H

#include "OffloadDialect/Conversion/Pipelines/GPUTargets.h"
#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
namespace gpu {
class GPUModuleOp;
} // namespace gpu
} // namespace mlir

namespace offloadjit {

/// How a CUDA specialization becomes loadable code.
enum class CUDAAssembler {
  /// nvJitLink turns the PTX into a cubin in process.
  NVJitLink,
  /// The PTX is the image; the driver compiles it (cuModuleLoadData).
  DriverJIT,
};

/// What the JIT compiles for one CUDA or HIP device.
struct DeviceTarget {
  mlir::offload::GPUKernelTarget Kind = mlir::offload::GPUKernelTarget::NVVM;
  /// Chip, features (with the PTX ISA version for NVVM), code object
  /// version, toolkit, as resolveNVVMTarget / resolveROCDLTarget fill them.
  mlir::offload::GPUTargetConfig Config;
  CUDAAssembler Assembler = CUDAAssembler::DriverJIT;
  /// The tool that makes the image and its version: "nvjitlink-13.0",
  /// "driver-jit", "ld.lld-22.1.0".
  std::string AssemblerName;
  /// The target part of every key of this device: platform, triple, chip,
  /// features, code object version, assembler.
  std::string Key;
};

/// Resolves the target of the CUDA or HIP \p Device from its
/// OFFLOAD_DEVICE_INFO_ARCHITECTURE (`sm_90`; `gfx90a:sramecc+:xnack-`, whose
/// target-id features become +sramecc,-xnack) and, for CUDA, picks the
/// assembler: nvJitLink if it loads (OFFLOAD_JIT_NVJITLINK=PATH names the
/// library, =0 turns it off) and accepts the chip, else the driver's JIT.
llvm::Expected<DeviceTarget>
getDeviceTarget(offload_device_handle_t Device,
                offload_platform_backend_t Backend);

/// Lowers the gpu.module \p Kernels of \p Module (whose other gpu.modules are
/// erased) for \p Target and returns the image the runtime loads: cubin or
/// PTX for CUDA, HSACO for HIP. With a non-empty \p DumpPrefix, also writes
/// the PTX to `<DumpPrefix>.ptx` or the AMDGCN assembly to
/// `<DumpPrefix>.amdgcn`. Diagnostics go to the context's handler.
llvm::Expected<llvm::SmallVector<char, 0>>
compileForDevice(mlir::ModuleOp Module, mlir::gpu::GPUModuleOp Kernels,
                 const DeviceTarget &Target, llvm::StringRef DumpPrefix);

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_DEVICECOMPILER_H
