//===- offload-run.cpp - Run gpu-dialect programs on an offload device ----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Like mlir-runner, but takes high-level MLIR (gpu.launch, gpu.launch_func,
// gpu memory ops, async): applies the offload lowering pipeline for the
// selected device, then JIT-compiles and runs the entry function with MLIR's
// ExecutionEngine. The offload runtime, MLIR's runner utilities
// (printMemrefF32, ...) and the async runtime are available without naming
// them, as are the upstream GPU runtime helpers that test programs call
// (mgpuMemGetDeviceMemRef1d*, the SPIR-V CPU runner's fill*Buffer*). An input
// that carries its own transform script (`transform.named_sequence
// @__transform_main`) has it applied first, as upstream's RUN lines do with
// -transform-interpreter.
//
//===----------------------------------------------------------------------===//

#include "CrashReport.h"

#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Support/ParserCrash.h"
#include "OffloadJIT/OffloadJIT.h"
#include "OffloadRuntime/OffloadAPI.h"
#include "OffloadSupport/CheckTools.h"
#include "OffloadSupport/Environment.h"

#include "OffloadVersion.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/ExecutionEngine/JitRunner.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/ManagedStatic.h"
#include "llvm/Support/Signals.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <string>
#include <vector>

using namespace mlir;

static llvm::cl::OptionCategory offloadCategory("offload-run options");

static llvm::cl::opt<std::string> deviceOption(
    "device",
    llvm::cl::desc("Device to run the kernels on: host (the CPU, always "
                   "present, offload-lower-to-host), cuda (an NVIDIA GPU, "
                   "offload-lower-to-nvvm) or hip (an AMD GPU, "
                   "offload-lower-to-rocdl)"),
    llvm::cl::value_desc("host|cuda|hip"), llvm::cl::init("host"),
    llvm::cl::cat(offloadCategory));

static llvm::cl::opt<std::string> chipOption(
    "chip",
    llvm::cl::desc("Target chip of the kernels (default: the host CPU, sm_90 "
                   "for cuda, gfx90a for hip)"),
    llvm::cl::init(""), llvm::cl::cat(offloadCategory));

static llvm::cl::opt<std::string> featuresOption(
    "features",
    llvm::cl::desc("Target features of the kernels (default: the host CPU's; "
                   "for cuda a PTX ISA version derived from the chip)"),
    llvm::cl::init(""), llvm::cl::cat(offloadCategory));

static llvm::cl::opt<unsigned>
    deviceIndexOption("device-index",
                      llvm::cl::desc("Index of the device within its platform"),
                      llvm::cl::init(0), llvm::cl::cat(offloadCategory));

static llvm::cl::opt<bool> jitOption(
    "jit",
    llvm::cl::desc("Specialize kernels at launch on the values of their "
                   "runtime constants and their block size (libOffloadJIT, "
                   "for the host, CUDA or HIP device); see OFFLOAD_JIT* "
                   "variables"),
    llvm::cl::init(false), llvm::cl::cat(offloadCategory));

static llvm::cl::opt<bool> threadLoopsOption(
    "thread-loops",
    llvm::cl::desc("Host device: run the threads of a block as loops split "
                   "at barriers (offload-host-thread-loops); "
                   "--thread-loops=false runs every kernel that synchronizes "
                   "threads on fibers (not with --jit)"),
    llvm::cl::init(true), llvm::cl::cat(offloadCategory));

static llvm::cl::opt<bool> replaceGPUTargetsOption(
    "replace-gpu-targets",
    llvm::cl::desc("Host device: compile gpu.modules that already target a "
                   "GPU (#nvvm.target, #rocdl.target, as numba-cuda and "
                   "eudsl emit them) for the host instead, with a remark; "
                   "--replace-gpu-targets=false refuses them"),
    llvm::cl::init(true), llvm::cl::cat(offloadCategory));

static llvm::cl::opt<std::string> checkOption(
    "check",
    llvm::cl::desc("Host device: checking tools, like compute-sanitizer's: "
                   "memcheck (bounds checks of every memref access), race "
                   "(hazards between threads of a block), sync (barriers "
                   "some threads skip), init (reads of device memory "
                   "never written), leak (allocations, queues and "
                   "events never released), or all; --check alone is "
                   "memcheck. Reports start with "
                   "'=========', and the run exits 1 when any was made "
                   "(also OFFLOAD_CHECK=<tools>)"),
    llvm::cl::value_desc("memcheck,race,sync,init,leak|all"),
    llvm::cl::ValueOptional, llvm::cl::cat(offloadCategory));

static llvm::cl::opt<std::string> transformOption(
    "transform",
    llvm::cl::desc("Transform script carried by the input: auto (default) "
                   "applies `transform.named_sequence @__transform_main` with "
                   "the transform interpreter when the module holds one, then "
                   "erases the transform ops, as upstream's "
                   "-transform-interpreter -test-transform-dialect-erase-"
                   "schedule; off leaves the input as it is"),
    llvm::cl::value_desc("auto|off"), llvm::cl::init("auto"),
    llvm::cl::cat(offloadCategory));

static llvm::cl::opt<bool> printPipelineOption(
    "print-lowered-ir",
    llvm::cl::desc("Print the IR after the offload pipeline, then run it"),
    llvm::cl::init(false), llvm::cl::cat(offloadCategory));

/// The -O level given on the command line, for the host code and the kernels;
/// 3 when none was given. (mlir-runner skips LLVM's pipeline without one, and
/// programs using the async dialect need its coroutine passes.)
static unsigned optLevel = 3;

//===----------------------------------------------------------------------===//
// Upstream runtime helpers called by test programs
//===----------------------------------------------------------------------===//

// The ROCm integration tests call these to get the device view of registered
// host memory. On the host device, the device view is the memory itself. The
// executable exports them (see CMakeLists.txt) so the JIT resolves them.
namespace {
/// A 1-D memref descriptor as MLIR's LLVM lowering lays it out (the C layout
/// of StridedMemRefType<T, 1>), returned by value.
struct MemRef1DDescriptor {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
};
} // namespace

extern "C" MemRef1DDescriptor
mgpuMemGetDeviceMemRef1dFloat(float *allocated, float *aligned, int64_t offset,
                              int64_t size, int64_t stride) {
  return {allocated, aligned, offset, size, stride};
}

extern "C" MemRef1DDescriptor
mgpuMemGetDeviceMemRef1dInt32(int32_t *allocated, int32_t *aligned,
                              int64_t offset, int64_t size, int64_t stride) {
  return {allocated, aligned, offset, size, stride};
}

// The SPIR-V CPU runner's integration tests (mlir/test/Integration/GPU/SPIRV)
// fill their buffers with these. Upstream provides only the C-interface
// entry points (`_mlir_ciface_*`, which its runner pipeline calls); a call
// from our pipeline passes the memref expanded, so both forms are here. Every
// element of the view is set, at its offset and strides.
namespace {
template <typename T, int Rank> struct StridedView {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[Rank];
  int64_t strides[Rank];
};
} // namespace

template <typename T, int Rank>
static void fillView(const StridedView<T, Rank> &view, T value) {
  int64_t count = 1;
  for (int d = 0; d < Rank; ++d)
    count *= view.sizes[d];
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t position = view.offset, rest = linear;
    for (int d = Rank - 1; d >= 0; --d) {
      position += (rest % view.sizes[d]) * view.strides[d];
      rest /= view.sizes[d];
    }
    view.aligned[position] = value;
  }
}

extern "C" void fillI32Buffer(int32_t *allocated, int32_t *aligned,
                              int64_t offset, int64_t size, int64_t stride,
                              int32_t value) {
  fillView<int32_t, 1>({allocated, aligned, offset, {size}, {stride}}, value);
}

extern "C" void fillF32Buffer1D(float *allocated, float *aligned,
                                int64_t offset, int64_t size, int64_t stride,
                                float value) {
  fillView<float, 1>({allocated, aligned, offset, {size}, {stride}}, value);
}

extern "C" void fillF32Buffer2D(float *allocated, float *aligned,
                                int64_t offset, int64_t size0, int64_t size1,
                                int64_t stride0, int64_t stride1, float value) {
  fillView<float, 2>(
      {allocated, aligned, offset, {size0, size1}, {stride0, stride1}}, value);
}

extern "C" void fillF32Buffer3D(float *allocated, float *aligned,
                                int64_t offset, int64_t size0, int64_t size1,
                                int64_t size2, int64_t stride0, int64_t stride1,
                                int64_t stride2, float value) {
  fillView<float, 3>({allocated,
                      aligned,
                      offset,
                      {size0, size1, size2},
                      {stride0, stride1, stride2}},
                     value);
}

extern "C" void _mlir_ciface_fillI32Buffer(StridedView<int32_t, 1> *view,
                                           int32_t value) {
  fillView(*view, value);
}

extern "C" void _mlir_ciface_fillF32Buffer1D(StridedView<float, 1> *view,
                                             float value) {
  fillView(*view, value);
}

extern "C" void _mlir_ciface_fillF32Buffer2D(StridedView<float, 2> *view,
                                             float value) {
  fillView(*view, value);
}

extern "C" void _mlir_ciface_fillF32Buffer3D(StridedView<float, 3> *view,
                                             float value) {
  fillView(*view, value);
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

/// Adds the offload pipeline for --device to \p pm, or reports an unknown
/// device.
/// The checking tools of --check and OFFLOAD_CHECK together (parsed as the
/// JIT and the runtime parse them: OffloadSupport/CheckTools.h); an error for
/// a word that names no tool.
static FailureOr<uint32_t> getCheckTools() {
  uint32_t tools = 0;
  std::string bad;
  if (checkOption.getNumOccurrences()) {
    std::optional<uint32_t> parsed =
        checkOption.empty() ? std::optional<uint32_t>(::offload::CheckMemcheck)
                            : ::offload::parseCheckTools(checkOption, &bad);
    if (!parsed) {
      llvm::errs() << "offload-run: --check=" << checkOption << ": '" << bad
                   << "' is not a checking tool: expected "
                   << ::offload::CheckToolsSyntax << "\n";
      return failure();
    }
    tools |= *parsed;
  }
  if (std::optional<std::string> value = ::offload::env::Check.raw()) {
    std::optional<uint32_t> parsed = ::offload::parseCheckTools(*value, &bad);
    if (!parsed) {
      llvm::errs() << "offload-run: OFFLOAD_CHECK=" << *value << ": '" << bad
                   << "' is not a checking tool: expected "
                   << ::offload::CheckToolsSyntax << "\n";
      return failure();
    }
    tools |= *parsed;
  }
  return tools;
}

static LogicalResult buildPipeline(OpPassManager &pm) {
  FailureOr<uint32_t> checkTools = getCheckTools();
  if (failed(checkTools))
    return failure();
  // The JIT's settings (OFFLOAD_JIT*, OFFLOAD_HOST_THREAD_LOOPS) are checked
  // here too, with or without --jit: the JIT itself reads them at its first
  // launch, and a run without --jit would ignore a value that means nothing.
  if (std::string problem = ::offload::env::checkComponent("jit");
      !problem.empty()) {
    llvm::errs() << "offload-run: " << problem << "\n";
    return failure();
  }
  // The runtime (leakcheck, the summary) and the JIT read the
  // tools from OFFLOAD_CHECK: one list for the whole process.
  if (*checkTools) {
    ::setenv("OFFLOAD_CHECK", ::offload::formatCheckTools(*checkTools).c_str(),
             /*overwrite=*/1);
    // Like compute-sanitizer's --error-exitcode: a run with a report exits
    // 1, also when the report comes at exit (leaks), unless the user chose.
    ::setenv(::offload::env::CheckErrorExitCode.Name, "1", /*overwrite=*/0);
  }
  if (deviceOption == "host") {
    mlir::offload::HostPipelineOptions options;
    options.optLevel = optLevel;
    options.deviceIndex = deviceIndexOption;
    options.chip = chipOption;
    options.features = featuresOption;
    options.jit = jitOption;
    options.threadLoops = threadLoopsOption;
    options.replaceGPUTargets = replaceGPUTargetsOption;
    // The input is the whole program: a kernel whose launches all became
    // specializations is not compiled.
    options.eraseReplacedKernels = true;
    // With --jit the JIT instruments the kernels at launch (it reads
    // OFFLOAD_CHECK, set above).
    if (!jitOption)
      options.check = ::offload::formatCheckTools(*checkTools);
    if (jitOption && !threadLoopsOption) {
      llvm::errs() << "offload-run: --thread-loops=false is not supported "
                      "with --jit; set OFFLOAD_HOST_THREAD_LOOPS=0 to make "
                      "the JIT run kernels that synchronize threads on "
                      "fibers\n";
      return failure();
    }
    if (jitOption && (!chipOption.empty() || !featuresOption.empty())) {
      llvm::errs() << "offload-run: --jit compiles kernels for the host CPU "
                      "at launch; --chip and --features are not supported "
                      "with it\n";
      return failure();
    }
    mlir::offload::buildLowerToHostPipeline(pm, options);
    return success();
  }
  if (jitOption && (!chipOption.empty() || !featuresOption.empty())) {
    llvm::errs() << "offload-run: --jit compiles kernels at launch for the "
                    "chip and features of the --device="
                 << deviceOption
                 << " device; --chip and --features are not supported with "
                    "it\n";
    return failure();
  }
  if (*checkTools) {
    llvm::errs() << "offload-run: --check is supported for --device=host "
                    "only\n";
    return failure();
  }
  if (deviceOption == "cuda") {
    mlir::offload::NVVMPipelineOptions options;
    options.optLevel = optLevel;
    options.deviceIndex = deviceIndexOption;
    if (!chipOption.empty())
      options.chip = chipOption;
    options.features = featuresOption;
    options.jit = jitOption;
    mlir::offload::buildLowerToNVVMPipeline(pm, options);
    return success();
  }
  if (deviceOption == "hip") {
    mlir::offload::ROCDLPipelineOptions options;
    options.optLevel = optLevel;
    options.deviceIndex = deviceIndexOption;
    if (!chipOption.empty())
      options.chip = chipOption;
    options.features = featuresOption;
    options.jit = jitOption;
    mlir::offload::buildLowerToROCDLPipeline(pm, options);
    return success();
  }
  llvm::errs() << "offload-run: unknown device '" << deviceOption
               << "'; expected host, cuda or hip\n";
  return failure();
}

namespace {
/// Names the pass that is running in the crash report (CrashReport.h): one
/// entry per running pass, per thread, as passes nest.
struct PassCrashContext : public PassInstrumentation {
  void runBeforePass(Pass *pass, Operation *op) override {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "running pass '" << pass->getArgument() << "' on '" << op->getName()
       << "' at " << op->getLoc() << "\n";
    getStack().push_back(
        std::make_unique<offloadrun::CrashReportEntry>(std::move(text)));
  }
  void runAfterPass(Pass *, Operation *) override { pop(); }
  void runAfterPassFailed(Pass *, Operation *) override { pop(); }

private:
  static std::vector<std::unique_ptr<offloadrun::CrashReportEntry>> &
  getStack() {
    static thread_local std::vector<
        std::unique_ptr<offloadrun::CrashReportEntry>>
        stack;
    return stack;
  }
  static void pop() {
    if (!getStack().empty())
      getStack().pop_back();
  }
};
} // namespace

/// Applies the input's own transform script (--transform=auto): the first
/// `transform.named_sequence @__transform_main` of \p module is run with the
/// whole module as its payload, then every transform op and the modules that
/// held only them are erased, so the pipeline sees the transformed program.
static LogicalResult applyTransformScript(Operation *module) {
  if (transformOption == "off")
    return success();
  if (transformOption != "auto") {
    llvm::errs() << "offload-run: unknown --transform value '"
                 << transformOption << "'; expected auto or off\n";
    return failure();
  }
  transform::NamedSequenceOp entry;
  module->walk([&](transform::NamedSequenceOp op) {
    if (op.getSymName() !=
        transform::TransformDialect::kTransformEntryPointSymbolName)
      return WalkResult::advance();
    entry = op;
    return WalkResult::interrupt();
  });
  if (!entry)
    return success();
  if (failed(transform::applyTransformNamedSequence(
          module, entry, ModuleOp(), transform::TransformOptions())))
    return failure();
  // Erase the schedule: transform ops outside other transform ops, then the
  // modules left empty that only carried them.
  SmallVector<Operation *> toErase;
  module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<transform::TransformDialect>(op->getDialect())) {
      toErase.push_back(op);
      return WalkResult::skip();
    }
    return WalkResult::advance();
  });
  for (Operation *op : toErase)
    op->erase();
  StringRef attrName = transform::TransformDialect::kWithNamedSequenceAttrName;
  SmallVector<ModuleOp> emptied;
  module->walk([&](ModuleOp nested) {
    if (nested != module && nested->hasAttr(attrName) &&
        nested.getBody()->empty())
      emptied.push_back(nested);
  });
  for (ModuleOp nested : emptied)
    nested->erase();
  module->removeAttr(attrName);
  return success();
}

static LogicalResult lowerForDevice(Operation *module,
                                    JitRunnerOptions &options) {
  // The input parsed: from here on a crash is offload-run's (main).
  mlir::offload::stopRecoveringCrashes();
  if (failed(applyTransformScript(module)))
    return failure();
  PassManager pm(module->getContext(), module->getName().getStringRef());
  pm.addInstrumentation(std::make_unique<PassCrashContext>());
  if (failed(buildPipeline(pm)))
    return failure();
  // Report a missing entry point by name before compiling anything; an
  // empty input (nothing but whitespace or comments) says so.
  if (module->getNumRegions() == 1 && module->getRegion(0).hasOneBlock() &&
      module->getRegion(0).front().empty()) {
    llvm::errs() << "offload-run: the input holds no operations (an empty "
                    "file?): nothing to run\n";
    return failure();
  }
  if (!llvm::is_contained({"void", "i32", "i64", "f32"},
                          options.mainFuncType)) {
    llvm::errs() << "offload-run: --entry-point-result=" << options.mainFuncType
                 << ": expected void, i32, i64 or f32\n";
    return failure();
  }
  if (!SymbolTable::lookupSymbolIn(module, options.mainFuncName)) {
    // A kernel's name is a common mistake: say what it is.
    gpu::GPUModuleOp kernelModule;
    module->walk([&](gpu::GPUModuleOp gpuModule) {
      if (!kernelModule &&
          SymbolTable::lookupSymbolIn(gpuModule, options.mainFuncName))
        kernelModule = gpuModule;
    });
    if (kernelModule) {
      llvm::errs() << "offload-run: entry point '" << options.mainFuncName
                   << "' is a symbol of gpu.module @" << kernelModule.getName()
                   << " (device code); the entry point is a host function "
                      "(func.func or llvm.func) that launches kernels\n";
      return failure();
    }
    llvm::errs() << "offload-run: entry point '" << options.mainFuncName
                 << "' not found in the input (choose one with -e)\n";
    return failure();
  }
  if (failed(applyPassManagerCLOptions(pm)))
    return failure();
  // --mlir-timing (and its options), as in offload-opt: the report is
  // printed when the lowering ends, before the program runs.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope timingScope = timing.getRootScope();
  pm.enableTiming(timingScope);
  if (failed(pm.run(module)))
    return failure();
  if (printPipelineOption)
    module->print(llvm::outs());
  return success();
}

//===----------------------------------------------------------------------===//
// Diagnostics
//===----------------------------------------------------------------------===//

// JitRunnerMain creates its own MLIRContext and prints diagnostics as raw
// locations. To show them like offload-opt does (file:line:col with the
// source line), a source-manager handler is attached when the context loads
// the builtin dialect, which every context does first.
static llvm::SourceMgr &getSourceMgr() {
  static llvm::SourceMgr sourceMgr;
  return sourceMgr;
}

static void attachDiagnosticHandler(MLIRContext *context, BuiltinDialect *) {
  // Deliberately never destroyed: the context goes away first, at the end of
  // JitRunnerMain, and the handler's destructor would unregister from it.
  static SourceMgrDiagnosticHandler *handler = nullptr;
  if (!handler)
    handler = new SourceMgrDiagnosticHandler(getSourceMgr(), context);
  // A diagnostic names its op by location; the op itself (a whole gpu.module
  // for module-level errors) is not dumped after it.
  context->printOpOnDiagnostic(false);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

/// The input file's text, for the message of a parser crash: the first
/// argument that is not an option and names a regular file (empty for
/// stdin).
static std::string readInputForMessage(int argc, char **argv) {
  for (llvm::StringRef arg : llvm::ArrayRef(argv, argc).drop_front()) {
    if (arg.starts_with("-") || !llvm::sys::fs::is_regular_file(arg))
      continue;
    if (auto buffer = llvm::MemoryBuffer::getFile(arg))
      return (*buffer)->getBuffer().str();
  }
  return "";
}

/// The arguments that are not options nor an option's separate value: the
/// input file(s). Options taking a value may give it as the next argument
/// (`-e main`); those are offload-run's registered options that expect a
/// value and mlir-runner's (registered only inside JitRunnerMain).
static std::vector<llvm::StringRef> findInputArguments(int argc, char **argv) {
  static const char *const runnerValueOptions[] = {
      "e",           "entry-point-result",
      "shared-libs", "object-filename",
      "march",       "mcpu",
      "mattr",       "mtriple"};
  auto &registered = llvm::cl::getRegisteredOptions();
  auto takesSeparateValue = [&](llvm::StringRef arg) {
    if (!arg.consume_front("-"))
      return false;
    arg.consume_front("-");
    if (arg.empty() || arg.contains('='))
      return false;
    if (llvm::is_contained(runnerValueOptions, arg))
      return true;
    auto it = registered.find(arg);
    return it != registered.end() &&
           it->second->getValueExpectedFlag() == llvm::cl::ValueRequired;
  };
  std::vector<llvm::StringRef> inputs;
  llvm::ArrayRef<char *> args(argv, argc);
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--")
      break;
    if (arg.starts_with("-") && arg != "-") {
      if (takesSeparateValue(arg))
        ++i;
      continue;
    }
    inputs.push_back(arg);
  }
  return inputs;
}

/// The libraries named by --shared-libs (`--shared-libs=a,b`,
/// `--shared-libs a`, one dash or two), in order.
static std::vector<std::string> findSharedLibArguments(int argc, char **argv) {
  std::vector<std::string> paths;
  llvm::ArrayRef<char *> args(argv, argc);
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (arg == "--")
      break;
    if (!arg.consume_front("-"))
      continue;
    arg.consume_front("-");
    llvm::StringRef value;
    if (arg == "shared-libs" && i + 1 < args.size())
      value = args[++i];
    else if (!arg.consume_front("shared-libs="))
      continue;
    else
      value = arg;
    llvm::SmallVector<llvm::StringRef> parts;
    value.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts)
      paths.push_back(part.str());
  }
  return paths;
}

int main(int argc, char **argv) {
  // What llvm::InitLLVM does but for LLVM's stack printer, which allocates
  // in the signal handler: a program that corrupted the heap and died in
  // malloc hung there. A crash prints the bug-report line, the command line,
  // the running pass and the raw stack (CrashReport.h; for a fault inside a
  // host kernel, the runtime names the kernel and block first).
  llvm::sys::SetOneShotPipeSignalFunction(
      llvm::sys::DefaultOneShotPipeSignalHandler);
  llvm::install_out_of_memory_new_handler();
  llvm::llvm_shutdown_obj shutdown;
  offloadrun::installCrashReport(
      argc, argv,
      "offload-run crashed. Please report it with the "
      "input and the stack dump below.\n");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::registerAllPasses();
  mlir::offload::registerAllOffloadPasses();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  mlir::offload::registerAllOffload(registry);
  registry.addExtension(attachDiagnosticHandler);

  // --version and --help are offload-run's own: JitRunnerMain would print
  // LLVM's version, and its --help lists ~400 LLVM options before ours
  // (--help-hidden still shows everything).
  for (llvm::StringRef arg : llvm::ArrayRef(argv, argc).drop_front()) {
    if (arg == "--version" || arg == "-version") {
      llvm::outs() << "offload-run " OFFLOAD_VERSION_LINE "\n";
      return 0;
    }
    if (arg == "--help" || arg == "-help" || arg == "-h") {
      llvm::cl::HideUnrelatedOptions(offloadCategory);
      const char *helpArgv[] = {argv[0], "--help"};
      llvm::cl::ParseCommandLineOptions(
          2, helpArgv,
          "offload-run [options] <input file>: lowers an MLIR program that\n"
          "launches GPU kernels "
          "(gpu.launch, gpu.launch_func, gpu memory ops, async) for a device\n"
          "with the offload pipelines, and runs its entry function.\n\n"
          "Runner options (MLIR's JIT runner):\n"
          "  -e <name>                       entry function (default: main)\n"
          "  --entry-point-result=<void|i32|i64|f32>\n"
          "                                  its result type (default: void)\n"
          "  -O0..-O3                        optimization of host code and "
          "kernels (default: -O3)\n"
          "  --shared-libs=<path,...>        libraries to load (the runner\n"
          "                                  utilities and the async runtime "
          "are always loaded)\n"
          "  --help-hidden                   every option, LLVM's included\n\n"
          "Environment: OFFLOAD_TRACE=1, OFFLOAD_TRACE_FILE=, "
          "OFFLOAD_PROFILE=1|json:PATH, "
          "OFFLOAD_CHECK=<tools>,\n"
          "OFFLOAD_JIT*, OFFLOAD_CACHE_DIR, OFFLOAD_HOST_THREADS (README.md,\n"
          "docs/JIT.md, docs/HostTarget.md).\n");
      return 0;
    }
  }

  // A missing input file is one error (JitRunnerMain would add "could not
  // parse the input IR"); no file at all reads standard input, as
  // mlir-runner does, which is said when it is a terminal.
  std::vector<llvm::StringRef> inputs = findInputArguments(argc, argv);
  if (inputs.size() == 1 && inputs[0] != "-" &&
      !llvm::sys::fs::exists(inputs[0])) {
    llvm::errs() << "offload-run: error: cannot open input file '" << inputs[0]
                 << "': No such file or directory\n";
    return 1;
  }
  // A library named by --shared-libs that does not exist is an error:
  // mlir-runner prints "Failed to create MemoryBuffer" and runs on, and the
  // program then fails at its first call into it, or not at all.
  for (std::string &path : findSharedLibArguments(argc, argv)) {
    if (!llvm::sys::fs::exists(path)) {
      llvm::errs() << "offload-run: error: --shared-libs: cannot open '" << path
                   << "': No such file or directory\n";
      return 1;
    }
    // Loaded now (the runner loads it again, the same handle) so that a file
    // that is no library is an error too, not "Could not load" and a run.
    std::string problem;
    if (!llvm::sys::DynamicLibrary::getPermanentLibrary(path.c_str(), &problem)
             .isValid()) {
      llvm::errs() << "offload-run: error: --shared-libs: cannot load '" << path
                   << "': " << problem << "\n";
      return 1;
    }
  }
  if (inputs.empty() && llvm::sys::Process::StandardInIsUserInput())
    llvm::errs() << "offload-run: reading the program from standard input "
                    "(end it with Ctrl-D; --help for usage)\n";

  // Defaults that differ from mlir-runner's: the entry point returns nothing,
  // and the runner utilities and async runtime are always linked.
  std::vector<std::string> arguments(argv, argv + argc);
  bool hasResultType = false, hasOptLevel = false;
  for (llvm::StringRef arg : llvm::ArrayRef(argv, argc).drop_front()) {
    if (arg.starts_with("--entry-point-result") ||
        arg.starts_with("-entry-point-result"))
      hasResultType = true;
    for (unsigned level = 0; level <= 3; ++level)
      if (arg == "-O" + std::to_string(level) ||
          arg == "--O" + std::to_string(level)) {
        optLevel = level;
        hasOptLevel = true;
      }
  }
  if (!hasOptLevel)
    arguments.insert(arguments.begin() + 1, "-O3");
  if (!hasResultType)
    arguments.insert(arguments.begin() + 1, "--entry-point-result=void");
  for (const char *lib :
       {"libmlir_runner_utils.so", "libmlir_c_runner_utils.so",
        "libmlir_async_runtime.so"}) {
    std::string path = std::string(OFFLOAD_MLIR_LIB_DIR) + "/" + lib;
    if (llvm::sys::fs::exists(path))
      arguments.insert(arguments.begin() + 1, "--shared-libs=" + path);
  }
  std::vector<char *> newArgv;
  for (std::string &arg : arguments)
    newArgv.push_back(arg.data());
  newArgv.push_back(nullptr);

  JitRunnerConfig config;
  config.mlirTransformer = lowerForDevice;
  // The lowered program's translation to LLVM IR is the last step before
  // JitRunnerMain compiles and runs it: from here on a crash is reported as
  // the program's (CrashReport.h), not as a bug of offload-run.
  auto translateAndMarkRunning = [](Operation *module,
                                    llvm::LLVMContext &context) {
    std::unique_ptr<llvm::Module> llvmModule =
        translateModuleToLLVMIR(module, context);
    offloadrun::setProgramRunning(
        "offload-run: the program crashed while it ran. If a host kernel "
        "faulted, the line above names it and the block (a bug of the "
        "kernel, such as an out-of-bounds access: --check=memcheck reports "
        "the access); if neither the program's code nor its kernels are at "
        "fault, please report it with the input and the stack dump below.\n");
    return llvmModule;
  };
  config.llvmModuleBuilder = translateAndMarkRunning;
  // Keep the runtime library loaded and its entry points resolvable.
  (void)&offloadInit;
  (void)&offloadJITLaunchKernel;
  // An input that crashes upstream MLIR's parser or verifier (inside
  // JitRunnerMain, before lowerForDevice) is a one-line error, not a crash
  // report (ParserCrash.h).
  int status = 1;
  std::optional<std::string> crash =
      mlir::offload::runRecoveringCrashesUntilStopped([&] {
        status = JitRunnerMain(static_cast<int>(newArgv.size() - 1),
                               newArgv.data(), registry, config);
      });
  if (crash) {
    llvm::errs() << "offload-run: error: "
                 << mlir::offload::describeParserCrash(
                        *crash, readInputForMessage(argc, argv))
                 << "\n";
    return 1;
  }
  return status;
}
