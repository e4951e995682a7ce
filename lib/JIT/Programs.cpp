//===- Programs.cpp - JIT programs and kernels ----------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The engine's handles: programs (an MLIR module for one device, parsed in
// the engine's main context, or a caller's module) and their kernels (the
// layout of each kernel's packed arguments, its runtime constants, its
// signature, the constant part of its cache keys).
//
//===----------------------------------------------------------------------===//

#include "Compiler.h"
#include "Engine.h"

#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadDialect/Support/ParserCrash.h"
#include "OffloadRuntime/HostKernelABI.h"
#include "OffloadSupport/CheckTools.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

/// The platform backend of \p Device.
static offload_result_t getBackend(offload_device_handle_t Device,
                                   offload_platform_backend_t &Backend) {
  offload_platform_handle_t Platform = nullptr;
  if (offload_result_t R = offloadGetDeviceInfo(
          Device, OFFLOAD_DEVICE_INFO_PLATFORM, sizeof(Platform), &Platform))
    return R;
  return offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                sizeof(Backend), &Backend);
}

offload_result_t
Engine::makeProgram(offload_device_handle_t Device, uint32_t CheckTools,
                    std::shared_ptr<offload_jit_program_impl_t> &Program) {
  if (!Options.Problem.empty())
    return makeError(OFFLOAD_ERRC_INVALID_VALUE, Options.Problem);
  offload_platform_backend_t Backend;
  if (offload_result_t R = getBackend(Device, Backend))
    return R;
  Program = std::make_shared<offload_jit_program_impl_t>();
  Program->Device = Device;
  Program->DeviceIsHost = Backend == OFFLOAD_PLATFORM_BACKEND_HOST;
  Program->CheckTools = CheckTools;
  Program->TargetKey = TargetKey;
  // initcheck tracks the allocations made from here on (InitCheck.h).
  if (Program->DeviceIsHost &&
      ((CheckTools | Options.CheckTools) & ::offload::CheckInitcheck))
    __offload_host_check_init_start();
  if (!Program->DeviceIsHost) {
    llvm::Expected<DeviceTarget> Target = getDeviceTarget(Device, Backend);
    if (!Target)
      return makeError(OFFLOAD_ERRC_UNSUPPORTED,
                       llvm::toString(Target.takeError()));
    Program->GPUTarget = std::move(*Target);
    Program->TargetKey = Program->GPUTarget->Key;
  }
  return OFFLOAD_SUCCESS;
}

offload_result_t
Engine::createProgramFromModule(offload_device_handle_t Device,
                                OwningOpRef<ModuleOp> Clone,
                                std::string ModuleHash, uint32_t CheckTools,
                                offload_jit_program_handle_t *Out) {
  std::shared_ptr<offload_jit_program_impl_t> Program;
  if (offload_result_t R = makeProgram(Device, CheckTools, Program)) {
    std::lock_guard<std::mutex> Lock(
        getExternalContextMutex(Clone->getContext()));
    Clone = nullptr;
    return R;
  }
  Program->External = Clone->getContext();
  Program->ModuleHash = std::move(ModuleHash);
  Program->Module = std::move(Clone);
  std::lock_guard<std::mutex> Lock(ProgramsMutex);
  offload_jit_program_impl_t *Handle = Program.get();
  Programs[Handle] = std::move(Program);
  *Out = Handle;
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::createProgram(offload_device_handle_t Device,
                                       const void *Module, size_t Size,
                                       offload_jit_program_handle_t *Out,
                                       uint32_t CheckTools) {
  std::shared_ptr<offload_jit_program_impl_t> Program;
  if (offload_result_t R = makeProgram(Device, CheckTools, Program))
    return R;
  Program->Bytes.assign(static_cast<const char *>(Module), Size);
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Program->Bytes.data()), Size));
  Program->ModuleHash = llvm::utohexstr(Hash.high64, true, 16) +
                        llvm::utohexstr(Hash.low64, true, 16);
  // Inputs that crash upstream MLIR's parser or verifier are refused before
  // the engine's context sees them (ParserCrash.h).
  if (std::optional<std::string> Crash = mlir::offload::findParserCrash(
          llvm::MemoryBufferRef(Program->Bytes, "jit-module"), Registry))
    return makeError(OFFLOAD_ERRC_INVALID_BINARY,
                     "cannot parse the MLIR module: " + *Crash);
  {
    std::lock_guard<std::mutex> Lock(MlirMutex);
    std::string Diagnostics;
    llvm::raw_string_ostream OS(Diagnostics);
    ScopedDiagnosticHandler Handler(Context.get(), [&](Diagnostic &D) {
      OS << D.getLocation() << ": " << D << "\n";
      return success();
    });
    llvm::SourceMgr SourceMgr;
    SourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(Program->Bytes, "jit-module",
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    Program->Module = parseSourceFile<ModuleOp>(SourceMgr, Context.get());
    if (!Program->Module)
      return makeError(OFFLOAD_ERRC_INVALID_BINARY,
                       "cannot parse the MLIR module: " + Diagnostics);
    if (Program->Module->getOps<gpu::GPUModuleOp>().empty())
      return makeError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the MLIR module holds no gpu.module");
  }
  std::lock_guard<std::mutex> Lock(ProgramsMutex);
  offload_jit_program_impl_t *Handle = Program.get();
  Programs[Handle] = std::move(Program);
  *Out = Handle;
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::destroyProgram(offload_jit_program_handle_t Program) {
  std::shared_ptr<offload_jit_program_impl_t> Owned;
  {
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    auto It = Programs.find(Program);
    if (It == Programs.end())
      return makeError(OFFLOAD_ERRC_INVALID_PROGRAM,
                       "Program is not a live JIT program");
    Owned = std::move(It->second);
    Programs.erase(It);
    std::unique_lock<std::shared_mutex> LiveLock(LiveKernelsMutex);
    for (auto &Entry : Program->Kernels)
      LiveKernels.erase(Entry.second.get());
    LiveGeneration.fetch_add(1, std::memory_order_release);
    for (auto It = ImagePrograms.begin(); It != ImagePrograms.end();)
      It = It->second == Program ? ImagePrograms.erase(It) : std::next(It);
  }
  // A program made from a caller's module must be gone when this returns
  // (the caller may destroy its context next): its background compiles end
  // first.
  if (Owned->External)
    waitForCompiles();
  // Background compiles hold their own reference; the last one releases the
  // MLIR objects, each under its context (~offload_jit_program_impl_t).
  Owned.reset();
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::getKernel(offload_jit_program_handle_t Program,
                                   const char *Name,
                                   offload_jit_kernel_handle_t *Out) {
  std::lock_guard<std::mutex> KernelsLock(Program->KernelsMutex);
  if (auto It = Program->Kernels.find(Name); It != Program->Kernels.end()) {
    *Out = It->second.get();
    return OFFLOAD_SUCCESS;
  }

  auto Kernel = std::make_unique<offload_jit_kernel_impl_t>();
  Kernel->Program = Program;
  {
    std::lock_guard<std::mutex> Lock(MlirMutex);
    StringRef Requested(Name), ModulePart;
    if (Requested.contains("::"))
      std::tie(ModulePart, Requested) = Requested.split("::");
    gpu::GPUFuncOp Found;
    for (gpu::GPUModuleOp Module :
         Program->Module->getOps<gpu::GPUModuleOp>()) {
      if (!ModulePart.empty() && Module.getName() != ModulePart)
        continue;
      if (auto Func = Module.lookupSymbol<gpu::GPUFuncOp>(Requested);
          Func && Func.isKernel()) {
        Found = Func;
        Kernel->ModuleName = Module.getName().str();
        break;
      }
    }
    if (!Found)
      return makeError(OFFLOAD_ERRC_NOT_FOUND, "no kernel named '" +
                                                   std::string(Name) +
                                                   "' in the JIT program");
    Kernel->KernelName = Found.getName().str();

    // The packed layout (OffloadSupport/KernelArguments.h).
    ::offload::kernelargs::ArgumentLayout Layout;
    // The kernel's arguments: the entry block's leading arguments (workgroup
    // and private attributions follow them and are not passed).
    for (BlockArgument Arg :
         Found.getArguments().take_front(Found.getNumArguments())) {
      Argument Info;
      Info.ArgType = Arg.getType();
      // Memrefs, scalars and pointers of any address space (FlyDSL's
      // !llvm.ptr<1> arguments).
      std::optional<unsigned> First =
          ::offload::kernelargs::addArgument(Layout, Arg.getType());
      if (!First)
        return makeError(OFFLOAD_ERRC_UNSUPPORTED,
                         "kernel '" + Kernel->KernelName +
                             "' has an argument the JIT cannot pass");
      Info.FirstField = *First;
      for (Operation *User : Arg.getUsers())
        if (auto Mark = dyn_cast<mlir::offload::RuntimeConstantOp>(User)) {
          Info.RuntimeConstant = true;
          Info.Contents = Mark.getContents();
          Kernel->HasRuntimeConstants = true;
          Kernel->HasContents |= Info.Contents;
        }
      llvm::raw_string_ostream Line(Kernel->Signature);
      Line << Info.ArgType;
      if (Info.RuntimeConstant)
        Line << (Info.Contents ? " runtime_constant contents"
                               : " runtime_constant");
      Line << "\n";
      Kernel->Arguments.push_back(Info);
    }
    Kernel->Fields = Layout.getFields();
    Kernel->ArgumentsSize = Layout.getSize();
    for (const offloadjit::Argument &Arg : Kernel->Arguments) {
      if (!Arg.RuntimeConstant || Arg.Contents)
        continue;
      const offloadjit::Field &F = Kernel->Fields[Arg.FirstField];
      auto &Ranges = Kernel->ScalarKeyRanges;
      if (!Ranges.empty() &&
          Ranges.back().first + Ranges.back().second == F.Offset)
        Ranges.back().second += uint32_t(F.Size);
      else
        Ranges.push_back({uint32_t(F.Offset), uint32_t(F.Size)});
    }
    // Automatic specialization watches the unmarked scalars.
    std::vector<offloadjit::AutoArgument> Watched;
    for (auto [Index, Arg] : llvm::enumerate(Kernel->Arguments))
      if (!Arg.RuntimeConstant && offloadjit::isWatchable(Arg.ArgType))
        Watched.push_back({unsigned(Index),
                           Kernel->Fields[Arg.FirstField].Offset,
                           Kernel->Fields[Arg.FirstField].Size, Arg.ArgType});
    if (!Watched.empty()) {
      std::string Qualified = Kernel->ModuleName + "::" + Kernel->KernelName;
      std::optional<std::string> ProfilePath;
      if (Disk)
        ProfilePath = offloadjit::AutoProfile::getProfilePath(
            Disk->getDirectory(), Program->ModuleHash, Qualified);
      Kernel->Auto = std::make_unique<offloadjit::AutoProfile>(
          Qualified, std::move(Watched), Options.AutoSettings, AutoCounts,
          std::move(ProfilePath));
    }
  }
  // The constant part of every key of this kernel.
  std::string Prefix = Program->ModuleHash + ";" + Kernel->ModuleName +
                       "::" + Kernel->KernelName + ";" + Program->TargetKey +
                       ";" + getCompilerVersion() + ";" +
                       getOptionsKey(*Program);
  Kernel->Prefix = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Prefix.data()), Prefix.size()));
  offload_jit_kernel_impl_t *Handle = Kernel.get();
  Program->Kernels[Name] = std::move(Kernel);
  std::unique_lock<std::shared_mutex> Lock(LiveKernelsMutex);
  LiveKernels.insert(Handle);
  *Out = Handle;
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::getSignature(offload_jit_kernel_handle_t Kernel,
                                      size_t Size, char *Signature,
                                      size_t *SizeRet) {
  size_t Needed = Kernel->Signature.size() + 1;
  if (SizeRet)
    *SizeRet = Needed;
  if (!Signature) {
    if (!SizeRet)
      return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                       "Signature and SizeRet are both null");
    return OFFLOAD_SUCCESS;
  }
  if (Size < Needed)
    return makeError(OFFLOAD_ERRC_INVALID_SIZE,
                     "Size is " + std::to_string(Size) +
                         " bytes but the signature takes " +
                         std::to_string(Needed));
  std::memcpy(Signature, Kernel->Signature.c_str(), Needed);
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::getKernelFromImage(offload_device_handle_t Device,
                                            const void *Image, size_t Size,
                                            const char *Name,
                                            offload_jit_kernel_handle_t *Out) {
  offload_jit_program_impl_t *Program = nullptr;
  {
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    auto It = ImagePrograms.find({Device, Image});
    if (It != ImagePrograms.end())
      Program = It->second;
  }
  if (!Program) {
    if (offload_result_t R = createProgram(Device, Image, Size, &Program))
      return R;
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    auto [It, Inserted] = ImagePrograms.insert({{Device, Image}, Program});
    if (!Inserted) {
      // Another thread won the race: keep its program.
      offload_jit_program_impl_t *Mine = Program;
      Program = It->second;
      Programs.erase(Mine);
    }
  }
  return getKernel(Program, Name, Out);
}
