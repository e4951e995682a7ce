//===- CAPI.cpp - The C API of the JIT ------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The implementations of the entry points of OffloadJIT.h,
// offloadjit::impl::offloadX_impl, one per function of
// include/OffloadJIT/API/OffloadJITAPI.td. The entry points themselves are
// generated from that description (OffloadJITEntryPoints.inc, included at
// the end): they check what the description says of each parameter (null
// handles and pointers, live JIT programs and kernels, zero sizes), then
// call the implementation inside runEntryPoint (EntryPoint.h), which
// converts its llvm::Error into an offload_result_t and traces the call. An
// implementation checks only what depends on more than one argument or on
// the engine's state, then calls the engine (Engine.h). Also the engine
// part of MLIRModule.h's createProgram (ModuleProgram.h).
//
//===----------------------------------------------------------------------===//

#include "OffloadJIT/OffloadJIT.h"

#include "Engine.h"
#include "EntryPoint.h"
#include "ModuleProgram.h"

#include "OffloadSupport/CheckTools.h"

#include "OffloadJITImplDecls.inc"

#include "llvm/Support/Format.h"

#include <cstddef>
#include <optional>
#include <string>

using namespace mlir;
using namespace offloadjit;

offload_result_t offloadjit::makeJITError(offload_errc_t Code,
                                          std::string Message) {
  return toResult(createError(Code, Message));
}

offload_result_t
offloadjit::createProgramFromModule(offload_device_handle_t Device,
                                    OwningOpRef<ModuleOp> Clone,
                                    std::string ModuleHash, uint32_t CheckTools,
                                    offload_jit_program_handle_t *Out) {
  return Engine::get().createProgramFromModule(
      Device, std::move(Clone), std::move(ModuleHash), CheckTools, Out);
}

llvm::Error offloadjit::checkHandle(offload_jit_program_handle_t Program,
                                    llvm::StringRef Name) {
  if (!isValidationEnabled())
    return llvm::Error::success();
  if (!Program)
    return createError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "{0} is null", Name);
  if (!Engine::get().isLive(Program))
    return createError(
        OFFLOAD_ERRC_INVALID_PROGRAM,
        "{0} ({1}) is not a live JIT program: it was destroyed "
        "or never created",
        Name, llvm::format_hex(reinterpret_cast<uintptr_t>(Program), 0));
  return llvm::Error::success();
}

llvm::Error offloadjit::checkHandle(offload_jit_kernel_handle_t Kernel,
                                    llvm::StringRef Name) {
  if (!isValidationEnabled())
    return llvm::Error::success();
  if (!Kernel)
    return createError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "{0} is null", Name);
  if (!Engine::get().isLive(Kernel))
    return createError(
        OFFLOAD_ERRC_INVALID_SYMBOL,
        "{0} ({1}) is not a live JIT kernel: its program was "
        "destroyed or it was never created",
        Name, llvm::format_hex(reinterpret_cast<uintptr_t>(Kernel), 0));
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// Implementations
//===----------------------------------------------------------------------===//

namespace offloadjit {
namespace impl {

llvm::Error
offloadCreateProgramFromMLIR_impl(offload_device_handle_t Device,
                                  const void *Module, size_t Size,
                                  offload_jit_program_handle_t *Program) {
  return fromResult(Engine::get().createProgram(Device, Module, Size, Program));
}

llvm::Error offloadCreateProgramFromMLIRWithOptions_impl(
    offload_device_handle_t Device, const void *Module, size_t Size,
    const offload_jit_program_options_t *Options,
    offload_jit_program_handle_t *Program) {
  // Options of the size before CheckTools was added are accepted.
  constexpr size_t SizeWithoutTools =
      offsetof(offload_jit_program_options_t, CheckTools);
  if (Options && Options->Size != sizeof(offload_jit_program_options_t) &&
      Options->Size != SizeWithoutTools)
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "Options->Size is {0}; this library knows options of "
                       "{1} or {2} bytes",
                       Options->Size, sizeof(offload_jit_program_options_t),
                       SizeWithoutTools);
  uint32_t Tools = 0;
  if (Options && Options->Check)
    Tools |= ::offload::CheckMemcheck;
  if (Options && Options->Size > SizeWithoutTools && Options->CheckTools) {
    std::string Bad;
    std::optional<uint32_t> Parsed =
        ::offload::parseCheckTools(Options->CheckTools, &Bad);
    if (!Parsed)
      return createError(OFFLOAD_ERRC_INVALID_VALUE,
                         "Options->CheckTools is '{0}': '{1}' is not a "
                         "checking tool: expected {2}",
                         Options->CheckTools, Bad, ::offload::CheckToolsSyntax);
    Tools |= *Parsed;
  }
  return fromResult(
      Engine::get().createProgram(Device, Module, Size, Program, Tools));
}

llvm::Error
offloadJITDestroyProgram_impl(offload_jit_program_handle_t Program) {
  return fromResult(Engine::get().destroyProgram(Program));
}

llvm::Error offloadJITGetKernel_impl(offload_jit_program_handle_t Program,
                                     const char *Name,
                                     offload_jit_kernel_handle_t *Kernel) {
  return fromResult(Engine::get().getKernel(Program, Name, Kernel));
}

llvm::Error offloadJITGetKernelFromImage_impl(
    offload_device_handle_t Device, const void *Image, size_t ImageSize,
    const char *KernelName, offload_jit_kernel_handle_t *Kernel) {
  return fromResult(Engine::get().getKernelFromImage(Device, Image, ImageSize,
                                                     KernelName, Kernel));
}

llvm::Error offloadJITLaunchKernel_impl(
    offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_jit_kernel_handle_t Kernel, const void *ArgumentsData,
    size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  return fromResult(Engine::get().launch(Queue, Device, Kernel, ArgumentsData,
                                         ArgumentsSize, LaunchSizeArgs));
}

llvm::Error offloadJITGetSpecializedKernel_impl(
    offload_device_handle_t Device, offload_jit_kernel_handle_t Kernel,
    const void *ArgumentsData, size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    offload_symbol_handle_t *Symbol) {
  return fromResult(Engine::get().resolve(/*Queue=*/nullptr, Device, Kernel,
                                          ArgumentsData, ArgumentsSize,
                                          LaunchSizeArgs, *Symbol));
}

llvm::Error
offloadJITGetKernelSignature_impl(offload_jit_kernel_handle_t Kernel,
                                  size_t Size, char *Signature,
                                  size_t *SizeRet) {
  return fromResult(
      Engine::get().getSignature(Kernel, Size, Signature, SizeRet));
}

llvm::Error offloadJITGetStats_impl(offload_jit_stats_t *Stats) {
  auto &C = Engine::get().Counters;
  Stats->Launches = C.launches();
  Stats->Compiles = C.Compiles;
  Stats->MemoryHits = C.memoryHits();
  Stats->DiskHits = C.DiskHits;
  Stats->DiskWrites = C.DiskWrites;
  Stats->CorruptEntries = C.CorruptEntries;
  Stats->GenericLaunches = C.GenericLaunches;
  Stats->AsyncCompiles = C.AsyncCompiles;
  Stats->CompileMilliseconds = C.CompileMicroseconds / 1000.0;
  auto &A = Engine::get().AutoCounts;
  Stats->AutoVariants = A.Variants;
  Stats->AutoLaunches = A.Launches;
  Stats->AutoGuardMisses = A.GuardMisses;
  Stats->AutoProfileLoads = A.ProfileLoads;
  Stats->AutoBoundReached = A.BoundReached;
  auto &M = Engine::get().MeasureCounts;
  Stats->MeasuredLaunches = M.Launches;
  Stats->MeasuredFaster = M.Faster;
  Stats->MeasuredSlower = M.Slower;
  Stats->VerdictLoads = M.VerdictLoads;
  return llvm::Error::success();
}

llvm::Error offloadJITSetEnabled_impl(bool Enabled) {
  Engine::get().setEnabled(Enabled);
  return llvm::Error::success();
}

llvm::Error offloadJITSetAutoEnabled_impl(bool Enabled) {
  Engine::get().setAutoEnabled(Enabled);
  return llvm::Error::success();
}

llvm::Error offloadJITResetStats_impl() {
  auto &C = Engine::get().Counters;
  for (std::atomic<uint64_t> *Counter :
       {&C.Launches, &C.Compiles, &C.MemoryHits, &C.DiskHits, &C.DiskWrites,
        &C.CorruptEntries, &C.GenericLaunches, &C.AsyncCompiles,
        &C.CompileMicroseconds, &C.HitLaunches})
    *Counter = 0;
  Engine::get().AutoCounts.reset();
  Engine::get().MeasureCounts.reset();
  return llvm::Error::success();
}

llvm::Error offloadJITClearMemoryCache_impl() {
  Engine::get().clearMemoryCache();
  return llvm::Error::success();
}

llvm::Error offloadJITWaitForCompiles_impl() {
  Engine::get().waitForCompiles();
  return llvm::Error::success();
}

} // namespace impl
} // namespace offloadjit

//===----------------------------------------------------------------------===//
// Entry points (generated)
//===----------------------------------------------------------------------===//

#include "OffloadJITEntryPoints.inc"
