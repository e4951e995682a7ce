//===- Compiler.cpp - The compiler of JIT specializations -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Engine::compile: a kernel of a JIT program and the launch values of its
// runtime constants in, the payload of a cache entry out (the kernel's name
// and its object): the module is cloned, offload-specialize'd with the
// values and lowered for the device (convert-gpu-to-offload-host and
// #offload.host; for CUDA and HIP devices DeviceCompiler.h).
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "Engine.h"

#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadRuntime/HostKernelABI.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <cstring>
#include <ctime>
#include <link.h>
#include <mutex>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

#define OFFLOAD_JIT_STRINGIFY_IMPL(X) #X
#define OFFLOAD_JIT_STRINGIFY(X) OFFLOAD_JIT_STRINGIFY_IMPL(X)

/// The GNU build ID (NT_GNU_BUILD_ID) of the loaded object that holds this
/// function, as hex; "" when it has none. The compiler's passes are linked
/// into that object, so any rebuild of them changes it, also between commits
/// and with uncommitted changes (which OFFLOAD_COMPILER_REVISION, fixed when
/// CMake configures, does not see).
static std::string getOwnBuildId() {
  struct Search {
    uintptr_t Address;
    std::string Id;
  } S{reinterpret_cast<uintptr_t>(&getOwnBuildId), {}};
  dl_iterate_phdr(
      [](struct dl_phdr_info *Info, size_t, void *Data) -> int {
        auto &S = *static_cast<Search *>(Data);
        bool Contains = false;
        for (unsigned I = 0; I < Info->dlpi_phnum && !Contains; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
          Contains = P.p_type == PT_LOAD && S.Address >= Start &&
                     S.Address < Start + P.p_memsz;
        }
        if (!Contains)
          return 0;
        for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          if (P.p_type != PT_NOTE)
            continue;
          const char *Note =
              reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
          const char *End = Note + P.p_memsz;
          while (Note + sizeof(ElfW(Nhdr)) <= End) {
            const auto *Header = reinterpret_cast<const ElfW(Nhdr) *>(Note);
            const char *Name = Note + sizeof(ElfW(Nhdr));
            const char *Desc = Name + llvm::alignTo(Header->n_namesz, 4);
            if (Header->n_type == NT_GNU_BUILD_ID && Header->n_namesz == 4 &&
                std::memcmp(Name, "GNU", 4) == 0 &&
                Desc + Header->n_descsz <= End) {
              S.Id = llvm::toHex(llvm::StringRef(Desc, Header->n_descsz),
                                 /*LowerCase=*/true);
              return 1;
            }
            Note = Desc + llvm::alignTo(Header->n_descsz, 4);
          }
        }
        return 1;
      },
      &S);
  return S.Id;
}

const std::string &offloadjit::getCompilerVersion() {
  static const std::string Version =
      "llvm-" LLVM_VERSION_STRING ";offload-" OFFLOAD_COMPILER_REVISION
      ";build-" +
      getOwnBuildId() +
      ";host-abi-" OFFLOAD_JIT_STRINGIFY(OFFLOAD_HOST_KERNEL_ABI_VERSION);
  return Version;
}

llvm::Expected<std::vector<char>>
Engine::compile(offload_jit_program_impl_t &Program,
                offload_jit_kernel_impl_t &Kernel, const LaunchRequest &Request,
                uint64_t &Micros, std::string &Phases) {
  // A program made from a caller's module compiles in the caller's context
  // (MLIRModule.h), one compile at a time; the others on the engine's pool.
  std::unique_lock<std::mutex> ExternalLock;
  unsigned ContextIndex = 0;
  MLIRContext *Ctx = Program.External;
  if (Ctx)
    ExternalLock = std::unique_lock<std::mutex>(getExternalContextMutex(Ctx));
  else
    std::tie(ContextIndex, Ctx) = acquireCompileContext(&Program);
  llvm::scope_exit Release([&, Index = ContextIndex] {
    if (!Program.External)
      releaseCompileContext(Index);
  });
  using Clock = std::chrono::steady_clock;
  // The calling thread's CPU time in microseconds: on a loaded machine wall
  // time includes waiting for a core, CPU time is the compile's own cost.
  auto ThreadMicros = [] {
    timespec T;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
    return static_cast<uint64_t>(T.tv_sec) * 1000000 + T.tv_nsec / 1000;
  };
  auto Start = Clock::now();
  uint64_t CpuStart = ThreadMicros();
  // Where the time goes, phase by phase: the end of each phase reached, in
  // wall and thread CPU time.
  struct PhaseMark {
    const char *Phase;
    Clock::time_point At;
    uint64_t Cpu;
  };
  SmallVector<PhaseMark, 8> Marks;
  auto Mark = [&](const char *Phase) {
    Marks.push_back({Phase, Clock::now(), ThreadMicros()});
  };
  llvm::scope_exit Stop([&] {
    auto End = Clock::now();
    uint64_t CpuEnd = ThreadMicros();
    Micros = std::chrono::duration_cast<std::chrono::microseconds>(End - Start)
                 .count();
    llvm::raw_string_ostream OS(Phases);
    auto Previous = Start;
    for (const PhaseMark &M : Marks) {
      OS << (Previous == Start ? "" : ", ") << M.Phase << " "
         << std::chrono::duration_cast<std::chrono::microseconds>(M.At -
                                                                  Previous)
                .count();
      Previous = M.At;
    }
    if (!Marks.empty())
      OS << " us";
    OS << "; thread CPU " << CpuEnd - CpuStart << " us";
    uint64_t PreviousCpu = CpuStart;
    for (const PhaseMark &M : Marks) {
      OS << (PreviousCpu == CpuStart ? " (" : ", ") << M.Phase << " "
         << M.Cpu - PreviousCpu;
      PreviousCpu = M.Cpu;
    }
    if (!Marks.empty())
      OS << ")";
  });
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  ScopedDiagnosticHandler Handler(Ctx, [&](Diagnostic &D) {
    OS << D << "\n";
    return success();
  });
  auto Fail = [&](const llvm::Twine &What) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   What + ": " + Diagnostics);
  };

  // The module in this context: parsed on its first compile here.
  ModuleOp Source = Program.External ? *Program.Module : ModuleOp();
  if (!Source) {
    std::lock_guard<std::mutex> Lock(Program.ParsedMutex);
    if (auto It = Program.Parsed.find(ContextIndex); It != Program.Parsed.end())
      Source = *It->second;
  }
  if (!Source) {
    llvm::SourceMgr SourceMgr;
    SourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(Program.Bytes, "jit-module",
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    OwningOpRef<ModuleOp> Parsed = parseSourceFile<ModuleOp>(SourceMgr, Ctx);
    if (!Parsed)
      return Fail("cannot parse the module again");
    Source = *Parsed;
    std::lock_guard<std::mutex> Lock(Program.ParsedMutex);
    Program.Parsed[ContextIndex] = std::move(Parsed);
  }
  OwningOpRef<ModuleOp> Module = Source.clone();
  // The host pipeline first (built on this context's first compile): it
  // loads its passes' dialects before specialization runs (Engine.cpp).
  mlir::offload::HostKernelPipelineOptions KernelOptions;
  KernelOptions.checkTools = Options.CheckTools | Program.CheckTools;
  KernelOptions.threadLoops = Options.ThreadLoops;
  std::unique_ptr<PassManager> ExternalPipeline;
  PassManager *HostPipeline =
      Program.GPUTarget
          ? nullptr
          : &getHostPipeline(Ctx, ContextIndex, Program.External != nullptr,
                             KernelOptions, ExternalPipeline);
  Mark("parse");
  auto GpuModule = Module->lookupSymbol<gpu::GPUModuleOp>(Kernel.ModuleName);
  gpu::GPUFuncOp Target =
      GpuModule ? GpuModule.lookupSymbol<gpu::GPUFuncOp>(Kernel.KernelName)
                : gpu::GPUFuncOp();
  if (!Target)
    return Fail("kernel disappeared from its module");

  if (Request.Specialize) {
    KernelSpecialization Spec;
    Spec.argumentValues.resize(Kernel.Arguments.size());
    for (const auto &[Index, Bytes] : Request.Values)
      Spec.argumentValues[Index] = getValueAttribute(
          Kernel.Arguments[Index], Target.getArgumentTypes()[Index], Bytes);
    Spec.blockSize = Request.Block;
    Spec.gridSize = Request.Grid;
    // Values of unmarked arguments (automatic specialization) are
    // substituted as runtime constants.
    SmallVector<unsigned> Unmarked;
    for (const auto &[Index, Bytes] : Request.Values)
      if (!Kernel.Arguments[Index].RuntimeConstant)
        Unmarked.push_back(Index);
    offloadjit::markRuntimeConstants(Target, Unmarked);
    if (mlir::offload::isUseful(Target, Spec)) {
      FailureOr<gpu::GPUFuncOp> Specialized =
          mlir::offload::getOrCreateSpecialization(Target, Spec,
                                                   Options.Specialization);
      if (failed(Specialized))
        return Fail("specialization failed");
      Target = *Specialized;
    }
  }
  // Compile only the launched kernel, and nothing outside its gpu.module
  // (host functions may launch kernels erased here).
  for (gpu::GPUFuncOp Func :
       llvm::make_early_inc_range(GpuModule.getOps<gpu::GPUFuncOp>()))
    if (Func != Target && Func.isKernel())
      Func.erase();
  for (Operation &Op :
       llvm::make_early_inc_range(Module->getBody()->getOperations()))
    if (&Op != GpuModule.getOperation())
      Op.erase();
  std::string TargetName = Target.getName().str();
  Mark("specialize");

  // Dumps are named after the specialized kernel and the first 8 hex digits
  // of its module's hash: the same kernel name in two modules (the forms of
  // one kernel, two programs) gives two files.
  std::string DumpName;
  if (!Options.DumpDir.empty()) {
    llvm::StringRef Hash = Program.ModuleHash;
    Hash.consume_front("module:");
    DumpName = TargetName + "." + Hash.take_front(8).lower();
    llvm::SmallString<256> Path(Options.DumpDir);
    llvm::sys::path::append(Path, DumpName + ".mlir");
    std::error_code EC = llvm::sys::fs::create_directories(Options.DumpDir);
    if (!EC) {
      llvm::raw_fd_ostream Dump(Path, EC);
      if (!EC)
        GpuModule.print(Dump);
    }
    // The user asked for dumps: say once per process that none are written
    // (the compile itself goes on).
    static std::once_flag Warned;
    if (EC)
      std::call_once(Warned, [&] {
        llvm::errs() << "offload-jit: OFFLOAD_JIT_DUMP=" << Options.DumpDir
                     << ": cannot write " << Path << ": " << EC.message()
                     << "; kernels are not dumped\n";
      });
  }

  // Payload: the kernel's name, NUL, then the object.
  auto MakePayload = [&](llvm::ArrayRef<char> Object) {
    std::vector<char> Payload(TargetName.begin(), TargetName.end());
    Payload.push_back('\0');
    Payload.insert(Payload.end(), Object.begin(), Object.end());
    return Payload;
  };
  if (Program.GPUTarget) {
    llvm::SmallString<256> DumpPrefix;
    if (!Options.DumpDir.empty())
      llvm::sys::path::append(DumpPrefix, Options.DumpDir,
                              DumpName + "." + Program.GPUTarget->Config.chip);
    llvm::Expected<SmallVector<char, 0>> Object =
        compileForDevice(*Module, GpuModule, *Program.GPUTarget, DumpPrefix);
    if (!Object)
      return Fail(llvm::toString(Object.takeError()));
    return MakePayload(*Object);
  }

  // The module's own host target (its optimization level, CPU, features:
  // part of the module's content, so of the key), else the host at -O3.
  auto HostTarget =
      mlir::offload::HostTargetAttr::get(Ctx, /*O=*/3, "", "", "");
  if (ArrayAttr Targets = GpuModule.getTargetsAttr())
    for (Attribute Attr : Targets)
      if (auto Host = dyn_cast<mlir::offload::HostTargetAttr>(Attr)) {
        HostTarget = Host;
        break;
      }
  GpuModule.setTargetsAttr(ArrayAttr::get(Ctx, {HostTarget}));
  if (failed(HostPipeline->run(*Module)))
    return Fail("lowering for the host failed");
  Mark("lower");
  auto Interface = cast<gpu::TargetAttrInterface>(HostTarget);
  auto Translated = [&](llvm::Module &) { Mark("translate"); };
  auto Optimized = [&](llvm::Module &) { Mark("optimize"); };
  gpu::TargetOptions SerializeOptions(
      /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
      /*elfSection=*/{}, gpu::TargetOptions::getDefaultCompilationTarget(),
      /*getSymbolTableCallback=*/{}, Translated, /*linkedLlvmIRCallback=*/{},
      Optimized);
  std::optional<SmallVector<char, 0>> Object =
      Interface.serializeToObject(GpuModule, SerializeOptions);
  if (!Object)
    return Fail("code generation failed");
  Mark("codegen");
  return MakePayload(*Object);
}
