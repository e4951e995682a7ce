//===- CAPI.cpp - The C API of the JIT ------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The entry points of OffloadJIT.h (and ModuleProgram.h's engine part of
// MLIRModule.h): argument checks that need no engine, then the engine
// (Engine.h). Also the store of the errors they return.
//
//===----------------------------------------------------------------------===//

#include "OffloadJIT/OffloadJIT.h"

#include "Engine.h"
#include "ModuleProgram.h"

#include "OffloadSupport/CheckTools.h"

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Errors live until the process exits, like the runtime's.
static offload_result_t storeError(offload_errc_t Code, std::string Message) {
  static std::mutex Mutex;
  static std::deque<std::string> Messages;
  static std::deque<offload_error_struct_t> Errors;
  std::lock_guard<std::mutex> Lock(Mutex);
  Messages.push_back(std::move(Message));
  Errors.push_back({Code, Messages.back().c_str()});
  return &Errors.back();
}

offload_result_t offloadjit::makeJITError(offload_errc_t Code,
                                          std::string Message) {
  return storeError(Code, std::move(Message));
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

offload_result_t
offloadjit::createProgramFromModule(offload_device_handle_t Device,
                                    OwningOpRef<ModuleOp> Clone,
                                    std::string ModuleHash, uint32_t CheckTools,
                                    offload_jit_program_handle_t *Out) {
  return Engine::get().createProgramFromModule(
      Device, std::move(Clone), std::move(ModuleHash), CheckTools, Out);
}

offload_result_t
offloadCreateProgramFromMLIR(offload_device_handle_t Device, const void *Module,
                             size_t Size,
                             offload_jit_program_handle_t *Program) {
  return Engine::get().createProgram(Device, Module, Size, Program);
}

offload_result_t offloadCreateProgramFromMLIRWithOptions(
    offload_device_handle_t Device, const void *Module, size_t Size,
    const offload_jit_program_options_t *Options,
    offload_jit_program_handle_t *Program) {
  // Options of the size before CheckTools was added are accepted.
  constexpr size_t SizeWithoutTools =
      offsetof(offload_jit_program_options_t, CheckTools);
  if (Options && Options->Size != sizeof(offload_jit_program_options_t) &&
      Options->Size != SizeWithoutTools)
    return makeError(OFFLOAD_ERRC_INVALID_SIZE,
                     "Options->Size is " + std::to_string(Options->Size) +
                         "; this library knows options of " +
                         std::to_string(sizeof(offload_jit_program_options_t)) +
                         " or " + std::to_string(SizeWithoutTools) + " bytes");
  uint32_t Tools = 0;
  if (Options && Options->Check)
    Tools |= ::offload::CheckMemcheck;
  if (Options && Options->Size > SizeWithoutTools && Options->CheckTools) {
    std::string Bad;
    std::optional<uint32_t> Parsed =
        ::offload::parseCheckTools(Options->CheckTools, &Bad);
    if (!Parsed)
      return makeError(OFFLOAD_ERRC_INVALID_VALUE,
                       "Options->CheckTools is '" +
                           std::string(Options->CheckTools) + "': '" + Bad +
                           "' is not a checking tool: expected " +
                           ::offload::CheckToolsSyntax);
    Tools |= *Parsed;
  }
  return Engine::get().createProgram(Device, Module, Size, Program, Tools);
}

offload_result_t
offloadJITDestroyProgram(offload_jit_program_handle_t Program) {
  return Engine::get().destroyProgram(Program);
}

offload_result_t offloadJITGetKernel(offload_jit_program_handle_t Program,
                                     const char *Name,
                                     offload_jit_kernel_handle_t *Kernel) {
  return Engine::get().getKernel(Program, Name, Kernel);
}

offload_result_t
offloadJITGetKernelFromImage(offload_device_handle_t Device, const void *Image,
                             size_t ImageSize, const char *KernelName,
                             offload_jit_kernel_handle_t *Kernel) {
  return Engine::get().getKernelFromImage(Device, Image, ImageSize, KernelName,
                                          Kernel);
}

offload_result_t offloadJITLaunchKernel(
    offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_jit_kernel_handle_t Kernel, const void *ArgumentsData,
    size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  return Engine::get().launch(Queue, Device, Kernel, ArgumentsData,
                              ArgumentsSize, LaunchSizeArgs);
}

offload_result_t offloadJITGetSpecializedKernel(
    offload_device_handle_t Device, offload_jit_kernel_handle_t Kernel,
    const void *ArgumentsData, size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    offload_symbol_handle_t *Symbol) {
  if (!Symbol)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Symbol is null");
  return Engine::get().resolve(/*Queue=*/nullptr, Device, Kernel, ArgumentsData,
                               ArgumentsSize, LaunchSizeArgs, *Symbol);
}

offload_result_t
offloadJITGetKernelSignature(offload_jit_kernel_handle_t Kernel, size_t Size,
                             char *Signature, size_t *SizeRet) {
  return Engine::get().getSignature(Kernel, Size, Signature, SizeRet);
}

offload_result_t offloadJITGetStats(offload_jit_stats_t *Stats) {
  if (!Stats)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Stats is null");
  auto &C = Engine::get().Counters;
  Stats->Launches = C.Launches;
  Stats->Compiles = C.Compiles;
  Stats->MemoryHits = C.MemoryHits;
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
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITSetEnabled(bool Enabled) {
  Engine::get().setEnabled(Enabled);
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITSetAutoEnabled(bool Enabled) {
  Engine::get().setAutoEnabled(Enabled);
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITResetStats(void) {
  auto &C = Engine::get().Counters;
  for (std::atomic<uint64_t> *Counter :
       {&C.Launches, &C.Compiles, &C.MemoryHits, &C.DiskHits, &C.DiskWrites,
        &C.CorruptEntries, &C.GenericLaunches, &C.AsyncCompiles,
        &C.CompileMicroseconds})
    *Counter = 0;
  Engine::get().AutoCounts.reset();
  Engine::get().MeasureCounts.reset();
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITClearMemoryCache(void) {
  Engine::get().clearMemoryCache();
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITWaitForCompiles(void) {
  Engine::get().waitForCompiles();
  return OFFLOAD_SUCCESS;
}
