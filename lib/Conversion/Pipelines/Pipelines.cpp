//===- Pipelines.cpp - Offload lowering pipelines -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Conversion/Pipelines/GPUTargets.h"
#include "OffloadDialect/Transforms/Passes.h"
#include "OffloadSupport/CheckTools.h"
#include "PipelinePasses.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/GPUToROCDL/GPUToROCDLPass.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/InitAllPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

#include <mutex>

using namespace mlir;
using namespace mlir::offload;

/// Appends the textual pipeline \p pipeline, made of upstream passes without
/// options, to \p pm: a parse failure is a bug. Passes with options that come
/// from the user are added through their create functions, so option values
/// need no quoting. The upstream passes are registered first (once), so that
/// the pipelines also build in processes that registered none, like
/// libOffloadJIT's users.
static void addPipeline(OpPassManager &pm, StringRef pipeline) {
  static std::once_flag registered;
  std::call_once(registered, [] { registerAllPasses(); });
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    llvm::report_fatal_error(llvm::Twine("invalid offload pipeline '") +
                             pipeline + "': " + error);
}

/// The first steps of every pipeline: outline gpu.launch bodies, turn
/// host-side gpu ops into offload ops for \p platform, and specialize kernels
/// on what the launch sites know (constant runtime constants, block sizes).
/// With \p eraseReplacedKernels, the input is a whole program: kernels
/// whose launches all became specializations are erased, not compiled.
static void addHostPrologue(OpPassManager &pm, StringRef platform,
                            unsigned deviceIndex,
                            bool eraseReplacedKernels = false) {
  addPipeline(pm, "gpu-kernel-outlining");
  ConvertGPUToOffloadOptions toOffload;
  toOffload.platform = platform.str();
  toOffload.deviceIndex = deviceIndex;
  pm.addPass(createConvertGPUToOffload(toOffload));
  OffloadSpecializeOptions specialize;
  specialize.eraseReplacedKernels = eraseReplacedKernels;
  pm.addPass(createOffloadSpecialize(specialize));
}

/// The last steps of every pipeline, once the kernels are gpu.binary ops: the
/// async dialect, offload ops to runtime calls (embedding the images), then
/// everything else to LLVM dialect.
static void addHostEpilogue(OpPassManager &pm) {
  addPipeline(pm, "async-to-async-runtime,async-runtime-ref-counting,"
                  "async-runtime-ref-counting-opt");
  pm.addPass(createConvertOffloadToLLVM());
  // Host code as upstream's CPU pipelines lower it: linalg ops to loops,
  // memref.realloc (the sparse compiler's growing buffers) expanded, as in
  // upstream's sparsifier pipeline.
  addPipeline(pm, "convert-async-to-llvm,convert-linalg-to-loops,"
                  "convert-vector-to-scf");
  // n-D vector.load/store, which convert-vector-to-llvm leaves alone.
  pm.addPass(createOffloadUnrollNDVectorMemoryOps());
  addPipeline(pm, "lower-affine,"
                  "expand-realloc,convert-scf-to-cf,expand-strided-metadata,"
                  "lower-affine,convert-math-to-libm,"
                  // Host code: masks at indices of 2^31 and more must not
                  // wrap (upstream's default assumes 32-bit indices).
                  "convert-vector-to-llvm{force-32bit-vector-indices=false},"
                  "convert-to-llvm,"
                  "reconcile-unrealized-casts");
}

bool CheckToolsParser::parse(llvm::cl::Option &option, StringRef argName,
                             StringRef arg, std::string &value) {
  std::string bad;
  std::optional<uint32_t> tools = ::offload::parseCheckTools(
      std::string_view(arg.data(), arg.size()), &bad);
  if (!tools)
    return option.error("'" + bad + "' is not a checking tool: expected " +
                        ::offload::CheckToolsSyntax);
  value = ::offload::formatCheckTools(*tools);
  return false;
}

uint32_t mlir::offload::getCheckTools(StringRef value) {
  return ::offload::parseCheckTools(
             std::string_view(value.data(), value.size()))
      .value_or(0);
}

/// The instrumentation of the checking tools \p tools (CheckTool bits) on a
/// gpu.module: bounds checks first, so that an access out of bounds stops
/// its thread before the race detector sees it.
static void addCheckPasses(OpPassManager &kernels, uint32_t tools) {
  if (tools & ::offload::CheckMemcheck)
    kernels.addPass(createOffloadCheckMemoryAccesses());
  if (tools & ::offload::CheckInitcheck)
    kernels.addPass(createOffloadCheckInitialization());
  if (tools & (::offload::CheckRacecheck | ::offload::CheckSynccheck)) {
    OffloadCheckRacesOptions races;
    races.race = tools & ::offload::CheckRacecheck;
    races.sync = tools & ::offload::CheckSynccheck;
    kernels.addPass(createOffloadCheckRaces(races));
  }
}

void mlir::offload::buildHostKernelToLLVMPipeline(OpPassManager &kernels) {
  // linalg ops in kernels (e.g. a linalg.matmul on subviews, as upstream's
  // GPU transforms leave them) become loops, as upstream's CPU pipelines
  // lower them.
  kernels.addPass(createConvertLinalgToLoopsPass());
  kernels.addPass(createConvertGPUToOffloadHost());
  // Upstream's lowering to LLVM dialect. As upstream's CPU pipelines: affine
  // ops after the vector lowering, which makes them for n-D transfers, and
  // again after expand-strided-metadata, which makes them for views
  // (subviews with dynamic offsets). The passes are created directly: no
  // pass registration needed (the JIT).
  kernels.addPass(createConvertVectorToSCFPass());
  kernels.addPass(createLowerAffinePass());
  kernels.addPass(createSCFToControlFlowPass());
  // Device-side asserts, now that they can branch out.
  kernels.addPass(createOffloadHostLowerAsserts());
  kernels.addPass(memref::createExpandStridedMetadataPass());
  kernels.addPass(createLowerAffinePass());
  // 64-bit vector indices: masks of transfers at indices of 2^31 and more
  // must not wrap (upstream's default assumes 32 bits).
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.force32BitVectorIndices = false;
  kernels.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  kernels.addPass(createConvertToLLVMPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // Alias scopes that keep non-escaping allocas (the thread loops'
  // per-thread arrays) apart from the kernel's buffers where LLVM's capture
  // tracking gives up.
  kernels.addNestedPass<LLVM::LLVMFuncOp>(
      createOffloadHostPrivateAllocaScopes());
  kernels.addPass(createOffloadHostEmitKernelEntries());
}

void mlir::offload::buildHostKernelPipeline(
    OpPassManager &pm, const HostKernelPipelineOptions &options) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  // Subgroup matrix ops first: the passes below see vector code.
  kernels.addPass(createOffloadHostLowerMMA());
  // Workgroup globals become per-block attributions before anything splits
  // the kernels.
  kernels.addPass(createOffloadHostWorkgroupMemory());
  addCheckPasses(kernels, options.checkTools);
  if (options.threadLoops) {
    // Subviews folded into the indices of their loads and stores (after the
    // bounds checks, which check the subviews' own bounds): the thread loops
    // see the accesses' dependence on thread ids through them.
    kernels.addPass(memref::createFoldMemRefAliasOpsPass());
    kernels.addPass(createOffloadHostThreadLoops());
    kernels.addPass(createOffloadHostVectorizeThreadLoops());
  }
  buildHostKernelToLLVMPipeline(kernels);
}

void mlir::offload::buildLowerToHostPipeline(
    OpPassManager &pm, const HostPipelineOptions &options) {
  // An impossible target request stops the pipeline before anything runs,
  // with one error (serialization would fail after all the other passes,
  // with the whole module printed after upstream's error).
  OffloadCheckGPUTargetOptions check;
  check.target = "host";
  check.chip = options.chip;
  check.features = options.features;
  check.optLevel = options.optLevel;
  pm.addPass(createOffloadCheckGPUTarget(check));
  addHostPrologue(pm, "host", options.deviceIndex,
                  options.eraseReplacedKernels);
  // The host target: optimization level, CPU and features of the kernels.
  OffloadAttachHostTargetOptions target;
  target.optLevel = options.optLevel;
  target.chip = options.chip;
  target.features = options.features;
  target.replaceGPUTargets = options.replaceGPUTargets;
  pm.addPass(createOffloadAttachHostTarget(target));
  if (options.jit) {
    // Subgroup matrix ops and bounds checks, then embed the kernels as MLIR,
    // with their target: libOffloadJIT specializes them and runs the host
    // kernel pipeline on them at launch.
    pm.addNestedPass<gpu::GPUModuleOp>(createOffloadHostLowerMMA());
    addCheckPasses(pm.nest<gpu::GPUModuleOp>(), getCheckTools(options.check));
    pm.addPass(createOffloadEmbedMLIR());
    addHostEpilogue(pm);
    return;
  }
  // Lower the kernels for the host CPU and serialize them into a host object.
  HostKernelPipelineOptions kernels;
  kernels.checkTools = getCheckTools(options.check);
  kernels.threadLoops = options.threadLoops;
  buildHostKernelPipeline(pm, kernels);
  addPipeline(pm, "gpu-module-to-binary");
  addHostEpilogue(pm);
}

/// Adds `offload-check-gpu-target` for \p request and returns the resolved
/// target. When the request is invalid, the check fails the pipeline before
/// anything else runs; the passes after it are built from a placeholder.
static GPUTargetConfig addTargetCheck(OpPassManager &pm, StringRef target,
                                      const GPUTargetRequest &request) {
  OffloadCheckGPUTargetOptions check;
  check.target = target.str();
  check.chip = request.chip;
  check.features = request.features;
  check.format = request.format;
  check.toolkit = request.toolkit;
  check.optLevel = request.optLevel;
  check.codeObjectVersion = request.codeObjectVersion;
  pm.addPass(createOffloadCheckGPUTarget(check));

  llvm::Expected<GPUTargetConfig> config = target == "nvvm"
                                               ? resolveNVVMTarget(request)
                                               : resolveROCDLTarget(request);
  if (config)
    return std::move(*config);
  llvm::consumeError(config.takeError());
  GPUTargetConfig placeholder;
  placeholder.chip = request.chip;
  placeholder.features = request.features;
  placeholder.format = "isa";
  return placeholder;
}

/// The kernel steps shared by the GPU targets, on each gpu.module before its
/// conversion: drop leftover runtime constants, lower subgroup reductions,
/// and bring structured control flow and memref metadata down to what the
/// upstream GPU conversions accept.
/// Returns the pass manager nested on gpu.modules, for the conversion.
static OpPassManager &addKernelPreparation(OpPassManager &pm,
                                           const GPUTargetConfig &config,
                                           bool nvvm) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  OffloadPrepareGPUKernelsOptions prepare;
  prepare.subgroupSize = config.subgroupSize;
  prepare.nvvmReqntid = nvvm;
  // HIP's limit; the AMDGPU backend's default (256) would fail larger blocks.
  prepare.rocdlMaxFlatWorkGroupSize = nvvm ? 0 : 1024;
  kernels.addPass(createOffloadPrepareGPUKernels(prepare));
  // Affine ops after the passes that make them (n-D vector transfers, views),
  // as upstream's CPU pipelines order them.
  addPipeline(kernels, "strip-debuginfo,convert-vector-to-scf");
  // n-D vector.load/store, which the GPU conversions leave alone.
  kernels.addPass(createOffloadUnrollNDVectorMemoryOps());
  addPipeline(kernels, "lower-affine,convert-scf-to-cf,expand-strided-metadata,"
                       "lower-affine");
  return kernels;
}

/// gpu-module-to-binary with the resolved format and toolkit.
static void addModuleToBinary(OpPassManager &pm,
                              const GPUTargetConfig &config) {
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = config.format;
  toBinary.toolkitPath = config.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
}

void mlir::offload::buildGPUKernelPipeline(OpPassManager &pm,
                                           GPUKernelTarget target,
                                           const GPUTargetConfig &config) {
  switch (target) {
  case GPUKernelTarget::NVVM: {
    GpuNVVMAttachTargetOptions attach;
    attach.chip = config.chip;
    attach.features = config.features;
    attach.optLevel = config.optLevel;
    pm.addPass(createGpuNVVMAttachTarget(attach));

    // Kernels: 64-bit indices and memref arguments expanded into their
    // descriptor fields, the layout of the packed argument buffer that
    // convert-offload-to-llvm builds.
    OpPassManager &kernels = addKernelPreparation(pm, config, /*nvvm=*/true);
    ConvertGpuOpsToNVVMOpsOptions toNVVM;
    toNVVM.indexBitwidth = 64;
    toNVVM.useBarePtrCallConv = false;
    toNVVM.hasRedux = config.hasRedux;
    kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
    addPipeline(kernels, "llvm-optimize-for-nvvm-target,canonicalize,cse,"
                         "reconcile-unrealized-casts");
    return;
  }
  case GPUKernelTarget::ROCDL: {
    GpuROCDLAttachTargetOptions attach;
    attach.chip = config.chip;
    attach.features = config.features;
    attach.optLevel = config.optLevel;
    attach.abiVersion = std::to_string(config.codeObjectVersion * 100);
    attach.wave64Flag = config.wave64;
    pm.addPass(createGpuROCDLAttachTarget(attach));

    // Kernels: as for NVVM, 64-bit indices and expanded memref arguments.
    OpPassManager &kernels = addKernelPreparation(pm, config, /*nvvm=*/false);
    ConvertGpuOpsToROCDLOpsOptions toROCDL;
    toROCDL.chipset = config.conversionChip;
    toROCDL.indexBitwidth = 64;
    toROCDL.useBarePtrCallConv = false;
    toROCDL.runtime = gpu::amd::Runtime::HIP;
    kernels.addPass(createConvertGpuOpsToROCDLOps(toROCDL));
    addPipeline(kernels, "canonicalize,cse,reconcile-unrealized-casts");
    return;
  }
  }
  llvm_unreachable("unknown GPU kernel target");
}

/// The JIT form of the GPU pipelines: kernels stay MLIR (offload-embed-mlir)
/// and libOffloadJIT compiles them for the device at launch.
static void buildJITPipeline(OpPassManager &pm, StringRef platform,
                             unsigned deviceIndex) {
  addHostPrologue(pm, platform, deviceIndex);
  pm.addPass(createOffloadEmbedMLIR());
  addHostEpilogue(pm);
}

void mlir::offload::buildLowerToNVVMPipeline(
    OpPassManager &pm, const NVVMPipelineOptions &options) {
  if (options.jit)
    return buildJITPipeline(pm, "cuda", options.deviceIndex);
  GPUTargetRequest request;
  request.chip = options.chip;
  request.features = options.features;
  request.format = options.format;
  request.toolkit = options.toolkit;
  request.optLevel = options.optLevel;
  GPUTargetConfig config = addTargetCheck(pm, "nvvm", request);

  addHostPrologue(pm, "cuda", options.deviceIndex);
  buildGPUKernelPipeline(pm, GPUKernelTarget::NVVM, config);
  addModuleToBinary(pm, config);
  addHostEpilogue(pm);
}

void mlir::offload::buildLowerToROCDLPipeline(
    OpPassManager &pm, const ROCDLPipelineOptions &options) {
  if (options.jit)
    return buildJITPipeline(pm, "hip", options.deviceIndex);
  GPUTargetRequest request;
  request.chip = options.chip;
  request.features = options.features;
  request.format = options.format;
  request.toolkit = options.toolkit;
  request.optLevel = options.optLevel;
  request.codeObjectVersion = options.codeObjectVersion;
  GPUTargetConfig config = addTargetCheck(pm, "rocdl", request);

  addHostPrologue(pm, "hip", options.deviceIndex);
  buildGPUKernelPipeline(pm, GPUKernelTarget::ROCDL, config);
  addModuleToBinary(pm, config);
  addHostEpilogue(pm);
}

void mlir::offload::registerOffloadPipelines() {
  registerOffloadPipelinePasses();
  PassPipelineRegistration<HostKernelPipelineCLOptions>(
      "offload-host-kernel-pipeline",
      "The host kernel pipeline of offload-lower-to-host and libOffloadJIT "
      "(on builtin.module, nested on every gpu.module with #offload.host): "
      "subgroup matrix ops, workgroup memory, the checking tools' "
      "instrumentation, thread loops and their vectorization, then "
      "offload-host-kernel-to-llvm",
      [](OpPassManager &pm, const HostKernelPipelineCLOptions &cl) {
        HostKernelPipelineOptions options;
        options.checkTools = getCheckTools(cl.check);
        options.threadLoops = cl.threadLoops;
        buildHostKernelPipeline(pm, options);
      });
  PassPipelineRegistration<>(
      "offload-host-kernel-to-llvm",
      "Lower the kernels of a gpu.module to LLVM dialect functions of the "
      "host kernel ABI (run it on gpu.modules: "
      "gpu.module(offload-host-kernel-to-llvm)): convert-linalg-to-loops, "
      "convert-gpu-to-offload-host, upstream's vector, affine, SCF and "
      "memref lowerings, offload-host-lower-asserts, convert-to-llvm, "
      "offload-host-private-alloca-scopes, offload-host-emit-kernel-entries",
      buildHostKernelToLLVMPipeline);
  PassPipelineRegistration<HostPipelineOptions>(
      "offload-lower-to-host",
      "Lower high-level gpu/offload IR (gpu.launch, gpu.launch_func, gpu "
      "memory ops, async) to LLVM dialect that runs its kernels on the host "
      "CPU through the offload runtime",
      buildLowerToHostPipeline);
  PassPipelineRegistration<NVVMPipelineOptions>(
      "offload-lower-to-nvvm",
      "Lower high-level gpu/offload IR to LLVM dialect that runs its kernels "
      "on a CUDA device through the offload runtime, embedding PTX or cubin",
      buildLowerToNVVMPipeline);
  PassPipelineRegistration<ROCDLPipelineOptions>(
      "offload-lower-to-rocdl",
      "Lower high-level gpu/offload IR to LLVM dialect that runs its kernels "
      "on a HIP device through the offload runtime, embedding HSACO",
      buildLowerToROCDLPipeline);
}
