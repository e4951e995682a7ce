//===- Passes.td - Passes of the offload pipelines ---------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Steps of `offload-lower-to-nvvm` and `offload-lower-to-rocdl` that have no
// upstream pass. They are private to the pipelines library (the generated
// declarations are not installed) but registered, so that each can be run
// and tested on its own.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PIPELINES_PASSES_TD
#define OFFLOAD_PIPELINES_PASSES_TD

include "mlir/Pass/PassBase.td"

def OffloadCheckGPUTarget : Pass<"offload-check-gpu-target", "ModuleOp"> {
  let summary = "check a GPU target request and report the defaults chosen";
  let description = [{
    Resolves the target options of `offload-lower-to-nvvm` or
    `offload-lower-to-rocdl` as the pipeline does (see
    `OffloadDialect/Conversion/Pipelines/GPUTargets.h`): fills in the
    default chip, PTX ISA version, image format, toolkit directory and code
    object version from the machine, and checks what was given against LLVM's
    NVPTX / AMDGPU backends. An impossible request (unknown chip or feature,
    a PTX ISA version older than the chip needs, a format without its tool)
    is an error on the module, and the pipeline stops before any upstream
    pass could abort the process. Defaults that depend on the machine are
    reported in one remark. The IR is not changed. With `target=host` (the
    first step of `offload-lower-to-host`), the optimization level, chip and
    features of `#offload.host` are checked against LLVM's host backend.
    Errors are on the module's location, without the module printed after
    them.
    ```mlir
    // offload-opt '-offload-check-gpu-target=target=nvvm chip=sm_90 features=+ptx60'
    // error: invalid NVVM target: chip sm_90 needs PTX ISA 7.8 or newer, but
    //        the features ask for +ptx60
    // offload-opt '-offload-check-gpu-target=target=host chip=bogus'
    // error: invalid host target: unknown chip 'bogus' for x86_64-pc-linux-gnu
    //        (llc -mcpu=help lists the valid ones)
    ```
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvvm\"",
           "nvvm, rocdl or host">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "target GPU (empty: sm_90 or gfx90a; the host CPU for host)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "LLVM target features">,
    Option<"format", "format", "std::string", /*default=*/"\"\"",
           "isa, bin or fatbin (empty: the default of the target)">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"\"",
           "CUDA or ROCm toolkit directory (empty: searched)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "optimization level (0-3)">,
    Option<"codeObjectVersion", "code-object-version", "unsigned",
           /*default=*/"0",
           "ROCDL code object version (0: from the HIP runtime found)">,
  ];
}

def OffloadPrepareGPUKernels : Pass<"offload-prepare-gpu-kernels",
                                    "::mlir::gpu::GPUModuleOp"> {
  let summary = "rewrite what upstream GPU lowerings do not handle";
  let description = [{
    Runs on a `gpu.module` before `convert-gpu-to-nvvm` or
    `convert-gpu-to-rocdl`:
    - `offload.runtime_constant` ops left after `offload-specialize` become
      their operand (unspecialized, a runtime constant is the identity);
    - `gpu.subgroup_reduce` becomes `gpu.shuffle` butterflies for a subgroup
      of `subgroup-size` lanes (32 for NVIDIA warps, 32 or 64 for AMD
      wavefronts), values wider than 32 bits split into 32-bit shuffles
      (upstream lowers only a few of them natively);
    - with `nvvm-reqntid`, a kernel's `known_block_size` becomes
      `nvvm.reqntid` (PTX `.reqntid`: the block size is exactly this), where
      `convert-gpu-to-nvvm` would derive the weaker `nvvm.maxntid` from it.
      `offload-specialize` has already replaced `gpu.block_dim` by constants
      in such kernels;
    - with `rocdl-max-flat-work-group-size=N`, kernels without a known block
      size get `rocdl.flat_work_group_size = "1,N"`: the AMDGPU backend
      otherwise assumes at most 256 threads per block (OpenCL's default),
      and HIP launches of larger blocks fail; HIP's compilers use 1024.
    ```mlir
    %r = offload.runtime_constant %n : i32
    %s = gpu.subgroup_reduce add %v : (f32) -> f32
    // becomes %n, and five gpu.shuffle xor steps adding up %v
    ```
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
  let options = [
    Option<"subgroupSize", "subgroup-size", "unsigned", /*default=*/"32",
           "lanes of a subgroup (warp or wavefront)">,
    Option<"nvvmReqntid", "nvvm-reqntid", "bool", /*default=*/"false",
           "turn known_block_size on kernels into nvvm.reqntid">,
    Option<"rocdlMaxFlatWorkGroupSize", "rocdl-max-flat-work-group-size",
           "unsigned", /*default=*/"0",
           "give kernels without a known block size "
           "rocdl.flat_work_group_size = \"1,N\" (0: leave them)">,
  ];
}

#endif // OFFLOAD_PIPELINES_PASSES_TD
