//===- Pipelines.h - Offload lowering pipelines -----------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_PIPELINES_PIPELINES_H
#define OFFLOADDIALECT_CONVERSION_PIPELINES_PIPELINES_H

#include "OffloadDialect/Conversion/Pipelines/GPUTargets.h"
#include "mlir/Pass/PassOptions.h"
#include <string>

namespace mlir {
class OpPassManager;
namespace offload {

/// The parser of a `check` pipeline option: a tool list as
/// offload::parseCheckTools reads it (OffloadSupport/CheckTools.h), kept
/// normalized ("memcheck,race", "all", "" for none); anything else is an
/// option error naming the bad word.
struct CheckToolsParser : public llvm::cl::parser<std::string> {
  using llvm::cl::parser<std::string>::parser;
  bool parse(llvm::cl::Option &option, llvm::StringRef argName,
             llvm::StringRef arg, std::string &value);
};

/// The tools (offload::CheckTool bits) of a normalized `check` option value.
uint32_t getCheckTools(llvm::StringRef value);

/// Options of the `offload-lower-to-host` pipeline.
struct HostPipelineOptions : public PassPipelineOptions<HostPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "O",
      llvm::cl::desc("LLVM optimization level of the kernels (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<unsigned> deviceIndex{
      *this, "device-index",
      llvm::cl::desc("index of the host device to run on"), llvm::cl::init(0)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("target CPU of the kernels (empty: host)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("target features of the kernels (empty: host)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> jit{
      *this, "jit",
      llvm::cl::desc("embed kernels as MLIR and specialize them at launch on "
                     "their runtime constants (link libOffloadJIT)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string, CheckToolsParser> check{
      *this, "check",
      llvm::cl::desc(
          "checking tools for the kernels, like compute-sanitizer's: "
          "memcheck (offload-check-memory-accesses: an "
          "out-of-bounds access is reported with its location, "
          "kernel, block, thread, index and size, and fails the "
          "launch), race and sync (offload-check-races), "
          "init (offload-check-initialization), "
          "leak (runtime-side), all; true is memcheck"),
      llvm::cl::init("")};
  PassOptions::Option<bool> threadLoops{
      *this, "thread-loops",
      llvm::cl::desc("run the threads of a block as loops split at barriers "
                     "(offload-host-thread-loops); false runs every kernel "
                     "that synchronizes threads on fibers"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> replaceGPUTargets{
      *this, "replace-gpu-targets",
      llvm::cl::desc("compile gpu.modules that already target a GPU "
                     "(#nvvm.target, #rocdl.target) for the host instead, "
                     "with a remark; false refuses them"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> eraseReplacedKernels{
      *this, "erase-replaced-kernels",
      llvm::cl::desc("the input is a whole program (offload-run): kernels "
                     "whose launches all became specializations, and that "
                     "nothing else names, are erased instead of compiled "
                     "(offload-specialize's erase-replaced-kernels)"),
      llvm::cl::init(false)};
};

/// Options of the `offload-lower-to-nvvm` pipeline. Empty strings select the
/// defaults described in GPUTargets.h.
struct NVVMPipelineOptions : public PassPipelineOptions<NVVMPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "O",
      llvm::cl::desc(
          "LLVM (and ptxas) optimization level of the kernels (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<unsigned> deviceIndex{
      *this, "device-index",
      llvm::cl::desc("index of the CUDA device to run on"), llvm::cl::init(0)};
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("target GPU (sm_*)"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("NVPTX target features; without +ptxNN the PTX ISA "
                     "version is derived from the chip"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("kernel image: isa (PTX), bin (cubin) or fatbin; empty: "
                     "bin when ptxas is found, else isa"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory (empty: $CUDA_HOME, "
                     "/usr/local/cuda, ... searched)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> jit{
      *this, "jit",
      llvm::cl::desc("embed kernels as MLIR and specialize and compile them "
                     "for the device at launch (link libOffloadJIT); the "
                     "target options are then the device's own"),
      llvm::cl::init(false)};
};

/// Options of the `offload-lower-to-rocdl` pipeline. Empty strings and zero
/// select the defaults described in GPUTargets.h.
struct ROCDLPipelineOptions : public PassPipelineOptions<ROCDLPipelineOptions> {
  PassOptions::Option<unsigned> optLevel{
      *this, "O",
      llvm::cl::desc("LLVM optimization level of the kernels (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<unsigned> deviceIndex{
      *this, "device-index",
      llvm::cl::desc("index of the HIP device to run on"), llvm::cl::init(0)};
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("target GPU (gfx*)"),
                                        llvm::cl::init("gfx90a")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("AMDGPU target features (e.g. +wavefrontsize64)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("kernel image: bin (HSACO) or isa (assembly); empty: "
                     "bin"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("ROCm directory with amdgcn/bitcode and llvm/bin/ld.lld "
                     "(empty: $ROCM_PATH, /opt/rocm, then the layout the "
                     "build made)"),
      llvm::cl::init("")};
  PassOptions::Option<unsigned> codeObjectVersion{
      *this, "code-object-version",
      llvm::cl::desc("AMDHSA code object version (4, 5 or 6; 0: chosen from "
                     "the HIP runtime found)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> jit{
      *this, "jit",
      llvm::cl::desc("embed kernels as MLIR and specialize and compile them "
                     "for the device at launch (link libOffloadJIT); the "
                     "target options are then the device's own"),
      llvm::cl::init(false)};
};

/// Builds `offload-lower-to-host`: from high-level gpu/offload IR (gpu.launch
/// still to be outlined, gpu.launch_func, gpu memory ops, async dialect) to
/// LLVM dialect with the kernels embedded as a host object.
void buildLowerToHostPipeline(OpPassManager &pm,
                              const HostPipelineOptions &options);

/// Builds `offload-lower-to-nvvm`: like `offload-lower-to-host`, but the
/// kernels go through upstream's `convert-gpu-to-nvvm` (64-bit indices,
/// memref arguments expanded as in the packed argument buffer) and
/// `#nvvm.target` into PTX or cubin, and the host code selects a CUDA device.
/// The target options are checked first: an impossible request fails the
/// pipeline with a diagnostic before anything upstream runs.
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const NVVMPipelineOptions &options);

/// Builds `offload-lower-to-rocdl`: like `offload-lower-to-nvvm`, with
/// `convert-gpu-to-rocdl` and `#rocdl.target` producing HSACO for a HIP device.
void buildLowerToROCDLPipeline(OpPassManager &pm,
                               const ROCDLPipelineOptions &options);

/// Options of the host kernel pipeline (buildHostKernelPipeline).
struct HostKernelPipelineOptions {
  /// The checking tools (offload::CheckTool bits) whose instrumentation the
  /// kernels get: memcheck (offload-check-memory-accesses), racecheck and
  /// synccheck (offload-check-races), initcheck
  /// (offload-check-initialization).
  uint32_t checkTools = 0;
  /// Kernels that synchronize threads become thread loops; false leaves
  /// them to fibers.
  bool threadLoops = true;
};

/// Options of the registered `offload-host-kernel-pipeline` (offload-opt):
/// HostKernelPipelineOptions as pass options.
struct HostKernelPipelineCLOptions
    : public PassPipelineOptions<HostKernelPipelineCLOptions> {
  PassOptions::Option<std::string, CheckToolsParser> check{
      *this, "check",
      llvm::cl::desc("checking tools for the kernels (as offload-lower-to-"
                     "host's check option)"),
      llvm::cl::init("")};
  PassOptions::Option<bool> threadLoops{
      *this, "thread-loops",
      llvm::cl::desc("run the threads of a block as loops split at barriers "
                     "(false: fibers for kernels that synchronize)"),
      llvm::cl::init(true)};
};

/// Adds the host kernel pipeline to \p pm (on builtin.module), nested on
/// every gpu.module: `offload-host-lower-mma`, `offload-host-workgroup-memory`,
/// [`offload-check-memory-accesses`], [`offload-check-initialization`],
/// [`offload-check-races`], [`fold-memref-alias-ops`,
/// `offload-host-thread-loops`, `offload-host-vectorize-thread-loops`], then
/// buildHostKernelToLLVMPipeline. Afterwards each gpu.module holds the LLVM
/// dialect of the host kernel ABI, ready for its `#offload.host` target's
/// serializeToObject (gpu-module-to-binary). `offload-lower-to-host`,
/// offload-run and libOffloadJIT all use it, as buildGPUKernelPipeline for
/// the GPU targets; offload-opt has it as `offload-host-kernel-pipeline`.
/// One pass manager runs every step (no pass runs a pipeline of its own), so
/// a caller that keeps the pass manager initializes its passes once.
void buildHostKernelPipeline(OpPassManager &pm,
                             const HostKernelPipelineOptions &options);

/// Adds the lowering of host kernels to LLVM dialect to \p kernels (a pass
/// manager on gpu.module), after the kernel transformations of
/// buildHostKernelPipeline: `convert-linalg-to-loops`,
/// `convert-gpu-to-offload-host` (kernels to body, thread and block
/// functions), `convert-vector-to-scf`, `lower-affine`, `convert-scf-to-cf`,
/// `offload-host-lower-asserts`, `expand-strided-metadata`, `lower-affine`,
/// `convert-vector-to-llvm{force-32bit-vector-indices=false}`,
/// `convert-to-llvm`, `reconcile-unrealized-casts`,
/// `offload-host-emit-kernel-entries` (entry points and descriptors).
/// Registered as `offload-host-kernel-to-llvm`.
void buildHostKernelToLLVMPipeline(OpPassManager &kernels);

/// The GPU targets whose kernel steps buildGPUKernelPipeline adds.
enum class GPUKernelTarget { NVVM, ROCDL };

/// Adds the kernel part of `offload-lower-to-nvvm` or `-rocdl` to \p pm (on
/// builtin.module): attach `#nvvm.target` / `#rocdl.target` as resolved in
/// \p config (resolveNVVMTarget, resolveROCDLTarget) to every gpu.module,
/// then on each gpu.module drop runtime constant marks, lower subgroup
/// reductions, turn `known_block_size` into launch bounds (`nvvm.reqntid`;
/// for ROCDL upstream's `rocdl.flat_work_group_size`), bring control flow
/// and memref metadata down and convert to the NVVM or ROCDL dialect (64-bit
/// indices, memref arguments expanded as in the packed argument buffer),
/// with cleanups. Afterwards each gpu.module is ready for
/// gpu-module-to-binary or its target's serializeToObject. The ahead-of-time
/// pipelines and libOffloadJIT both use it.
void buildGPUKernelPipeline(OpPassManager &pm, GPUKernelTarget target,
                            const GPUTargetConfig &config);

/// Registers the passes the pipelines use internally
/// (`offload-check-gpu-target`, `offload-prepare-gpu-kernels`).
void registerOffloadPipelinePasses();

/// Registers every offload pipeline with the global pass registry.
void registerOffloadPipelines();

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_PIPELINES_PIPELINES_H
