//===- MGPU.cpp - Upstream MLIR's mgpu* ABI on the offload runtime --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// libOffloadMGPU.so implements the host ABI that upstream MLIR's `gpu-to-llvm`
// and `#gpu.select_object` emit in LLVM 22 (the functions of
// mlir/lib/ExecutionEngine/CudaRuntimeWrappers.cpp and
// RocmRuntimeWrappers.cpp), on top of the public C API of libOffloadRuntime
// (OffloadAPI.h) only. Stock `mlir-opt` output then runs on any device of the
// runtime, the host CPU included, through
// `mlir-runner --shared-libs=.../libOffloadMGPU.so`.
//
// Mapping: modules are programs (loaded lazily per device), functions are
// kernels looked up per device, streams are queues (the stream pointer is the
// queue handle), events wrap an event handle created when the event is
// recorded. `mgpuLaunchKernel` receives one pointer per lowered argument and
// packs them into the kernel's argument buffer with the layout the runtime
// reports (OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS / ARGUMENT_SIZES).
//
// Errors: the ABI has no error returns. Every failure, of the runtime or of a
// check here (null or unknown handles, bad sizes, a parameter count that does
// not match the kernel), prints "mgpu error: <function>: <cause>" to stderr,
// with the runtime's code and message when it comes from the runtime, and
// aborts. Handles are checked against registries of live objects before they
// are used, never dereferenced blindly. See docs/MGPU.md.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"
#include "OffloadSupport/Environment.h"
#include "OffloadSupport/KernelArguments.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#define MGPU_EXPORT extern "C" __attribute__((visibility("default")))

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Prints "mgpu error: <Fn>: <message>" and aborts the process.
[[noreturn]] __attribute__((format(printf, 2, 3))) static void
fail(const char *Fn, const char *Format, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "mgpu error: %s: ", Fn);
  va_list Args;
  va_start(Args, Format);
  std::vfprintf(stderr, Format, Args);
  va_end(Args);
  std::fprintf(stderr, "\nlibOffloadMGPU: aborting: the mgpu* ABI has no "
                       "error returns\n");
  std::fflush(stderr);
  std::abort();
}

static const char *codeName(offload_result_t Result) {
  return offloadErrcName(Result->Code);
}

static const char *details(offload_result_t Result) {
  return Result->Details ? Result->Details : "";
}

/// Fails with the runtime's code and message if \p Result is an error of
/// runtime call \p Call made by \p Fn.
static void check(offload_result_t Result, const char *Fn, const char *Call) {
  if (Result == OFFLOAD_SUCCESS)
    return;
  fail(Fn, "%s: %s: %s", Call, codeName(Result), details(Result));
}

/// The caller's location for the WithCodeLoc entry points: OFFLOAD_TRACE=1
/// shows which mgpu function made each runtime call.
static offload_code_location_t at(const char *Fn) {
  return {Fn, "libOffloadMGPU", 0, 0};
}

//===----------------------------------------------------------------------===//
// State
//===----------------------------------------------------------------------===//

namespace {
struct Module;

/// A kernel looked up on one device, with its packed argument layout.
struct Kernel {
  offload_device_handle_t Device = nullptr;
  offload_symbol_handle_t Symbol = nullptr;
  /// Empty when the runtime does not know the layout; LayoutError says why.
  bool LayoutKnown = false;
  std::string LayoutError;
  uint64_t PackedSize = 0;
  std::vector<uint64_t> Offsets;
  std::vector<uint64_t> Sizes;
};

/// What mgpuModuleGetFunction returns: a kernel name of a module, resolved
/// per device at launch.
struct Function {
  Module *Owner = nullptr;
  std::string Name;
  std::vector<std::unique_ptr<Kernel>> Kernels;
};

/// What mgpuModuleLoad returns: a copy of the image and its programs, one per
/// device it was used on.
struct Module {
  std::vector<char> Image;
  std::vector<std::pair<offload_device_handle_t, offload_program_handle_t>>
      Programs;
  std::map<std::string, std::unique_ptr<Function>> Functions;
};

/// What mgpuEventCreate returns. CUDA events exist before they are recorded;
/// ours are created by recording, so an event holds the handle of its latest
/// recording (null: never recorded, or recorded without a stream, i.e.
/// complete).
struct Event {
  offload_event_handle_t Recorded = nullptr;
};

/// Host memory registered with mgpuMemHostRegister*.
struct Registration {
  size_t Size = 0;
  offload_device_handle_t Device = nullptr;
  char *DevicePtr = nullptr;
  /// Whether the runtime holds the registration: false for a host-device
  /// range that overlaps another registration (host memory needs none).
  bool InRuntime = true;
};

struct State {
  std::mutex Mutex;
  bool Initialized = false;
  bool ShutDown = false;
  offload_platform_backend_t Backend = OFFLOAD_PLATFORM_BACKEND_HOST;
  offload_device_handle_t Device = nullptr;     ///< the default device
  offload_device_handle_t HostDevice = nullptr; ///< owner of plain host memory
  std::unordered_set<Module *> Modules;
  std::unordered_set<Function *> Functions;
  std::unordered_set<Event *> Events;
  /// The live streams of mgpuStreamCreate: upstream's gpu-to-llvm sometimes
  /// passes one where an event is expected (see streamAsEvent).
  std::unordered_set<void *> Streams;
  std::map<uintptr_t, Registration> Registrations; ///< by host start address
};
} // namespace

/// The process-wide state. Never destroyed: generated code unloads modules
/// from global destructors, which may run after this library's own.
static State &state() {
  static State *S = new State();
  return *S;
}

static const char *backendName(offload_platform_backend_t Backend) {
  switch (Backend) {
  case OFFLOAD_PLATFORM_BACKEND_CUDA:
    return "cuda";
  case OFFLOAD_PLATFORM_BACKEND_AMDGPU:
    return "hip";
  case OFFLOAD_PLATFORM_BACKEND_HOST:
    return "host";
  default:
    return "unknown";
  }
}

/// Releases the runtime at exit (after the program's own global destructors
/// have unloaded its modules), so that it finishes its queues and traces.
static void shutDownAtExit() {
  State &S = state();
  {
    std::lock_guard<std::mutex> Lock(S.Mutex);
    if (!S.Initialized)
      return;
    S.Initialized = false;
    S.ShutDown = true;
  }
  if (offload_result_t Result = offloadShutDown())
    std::fprintf(stderr, "mgpu warning: offloadShutDown at exit: %s: %s\n",
                 codeName(Result), details(Result));
}

/// Parses OFFLOAD_MGPU_DEVICE ("host", "cuda" or "hip", optionally followed
/// by ":INDEX") and selects that device.
static void selectDeviceFromEnvironment(State &S, const char *Fn,
                                        const char *Value) {
  std::string Name = Value;
  uint32_t Index = 0;
  size_t Colon = Name.find(':');
  if (Colon != std::string::npos) {
    std::string IndexText = Name.substr(Colon + 1);
    char *End = nullptr;
    unsigned long Parsed = std::strtoul(IndexText.c_str(), &End, 10);
    if (IndexText.empty() || *End != '\0' || IndexText[0] == '-' ||
        Parsed > UINT32_MAX)
      fail(Fn, "OFFLOAD_MGPU_DEVICE='%s': the device index must be a number",
           Value);
    Index = static_cast<uint32_t>(Parsed);
    Name.resize(Colon);
  }
  if (Name == "host")
    S.Backend = OFFLOAD_PLATFORM_BACKEND_HOST;
  else if (Name == "cuda")
    S.Backend = OFFLOAD_PLATFORM_BACKEND_CUDA;
  else if (Name == "hip" || Name == "amdgpu")
    S.Backend = OFFLOAD_PLATFORM_BACKEND_AMDGPU;
  else
    fail(Fn,
         "OFFLOAD_MGPU_DEVICE='%s' is not a device: expected host, cuda or "
         "hip, optionally followed by :INDEX",
         Value);
  if (offload_result_t Result = offloadGetDevice(S.Backend, Index, &S.Device))
    fail(Fn, "OFFLOAD_MGPU_DEVICE='%s': offloadGetDevice: %s: %s", Value,
         codeName(Result), details(Result));
}

/// Initializes the runtime and selects the default device on first use.
/// Called with the state's mutex held.
static void initLocked(State &S, const char *Fn) {
  if (S.Initialized)
    return;
  if (S.ShutDown)
    fail(Fn, "called after the offload runtime was shut down at process exit");
  offload_code_location_t Where = at(Fn);
  check(offloadInitWithCodeLoc(&Where), Fn, "offloadInit");
  check(offloadGetHostDevice(&S.HostDevice), Fn, "offloadGetHostDevice");
  if (std::optional<std::string> Env = offload::env::MGPUDevice.raw()) {
    selectDeviceFromEnvironment(S, Fn, Env->c_str());
  } else {
    // The first GPU, like the vendor wrappers' device 0; else the host CPU.
    S.Backend = OFFLOAD_PLATFORM_BACKEND_HOST;
    S.Device = S.HostDevice;
    for (offload_platform_backend_t Backend :
         {OFFLOAD_PLATFORM_BACKEND_CUDA, OFFLOAD_PLATFORM_BACKEND_AMDGPU}) {
      offload_device_handle_t Device = nullptr;
      offload_result_t Result = offloadGetDevice(Backend, 0, &Device);
      if (Result == OFFLOAD_SUCCESS) {
        S.Backend = Backend;
        S.Device = Device;
        break;
      }
      if (Result->Code != OFFLOAD_ERRC_NOT_FOUND)
        check(Result, Fn, "offloadGetDevice");
    }
  }
  S.Initialized = true;
  std::atexit(shutDownAtExit);
}

/// Locks the state, initializing the runtime on first use.
static std::unique_lock<std::mutex> lockInitialized(const char *Fn) {
  State &S = state();
  std::unique_lock<std::mutex> Lock(S.Mutex);
  initLocked(S, Fn);
  return Lock;
}

/// Whether the runtime was released at exit: destroying objects is then a
/// no-op (shutdown released them).
static bool isShutDown() {
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  return S.ShutDown;
}

static offload_device_handle_t defaultDevice(const char *Fn) {
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  return state().Device;
}

static void ensureInitialized(const char *Fn) { lockInitialized(Fn); }

/// The device of \p Stream (a queue handle), validated by the runtime.
static offload_device_handle_t streamDevice(void *Stream, const char *Fn) {
  ensureInitialized(Fn);
  offload_device_handle_t Device = nullptr;
  offload_code_location_t Where = at(Fn);
  offload_result_t Result = offloadGetQueueInfoWithCodeLoc(
      static_cast<offload_queue_handle_t>(Stream), OFFLOAD_QUEUE_INFO_DEVICE,
      sizeof(Device), &Device, &Where);
  if (Result)
    fail(Fn, "stream %p is not a live stream of mgpuStreamCreate: %s: %s",
         Stream, codeName(Result), details(Result));
  return Device;
}

/// The device that owns memory at \p Ptr: the device of the runtime
/// allocation containing it, else the host device (plain host memory).
static offload_device_handle_t memoryDevice(const void *Ptr, const char *Fn) {
  ensureInitialized(Fn);
  offload_device_handle_t Device = nullptr;
  offload_code_location_t Where = at(Fn);
  offload_result_t Result = offloadGetMemInfoWithCodeLoc(
      Ptr, OFFLOAD_MEM_INFO_DEVICE, sizeof(Device), &Device, &Where);
  if (Result == OFFLOAD_SUCCESS)
    return Device;
  if (Result->Code != OFFLOAD_ERRC_NOT_FOUND)
    check(Result, Fn, "offloadGetMemInfo");
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  return S.HostDevice;
}

//===----------------------------------------------------------------------===//
// Modules and functions
//===----------------------------------------------------------------------===//

static Module *liveModuleLocked(State &S, void *Handle, const char *Fn) {
  auto *M = static_cast<Module *>(Handle);
  if (!M)
    fail(Fn, "module is null");
  if (!S.Modules.count(M))
    fail(Fn,
         "module %p is not a live module of mgpuModuleLoad (never loaded, or "
         "unloaded)",
         Handle);
  return M;
}

static Function *liveFunctionLocked(State &S, void *Handle, const char *Fn) {
  auto *F = static_cast<Function *>(Handle);
  if (!F)
    fail(Fn, "function is null");
  if (!S.Functions.count(F))
    fail(Fn,
         "function %p is not a live function of mgpuModuleGetFunction (never "
         "looked up, or its module was unloaded)",
         Handle);
  return F;
}

/// The program of \p M on \p Device, created on first use.
static offload_program_handle_t
programLocked(Module *M, offload_device_handle_t Device, const char *Fn) {
  for (auto &[ProgramDevice, Program] : M->Programs)
    if (ProgramDevice == Device)
      return Program;
  offload_program_handle_t Program = nullptr;
  offload_code_location_t Where = at(Fn);
  offload_result_t Result = offloadCreateProgramWithCodeLoc(
      Device, M->Image.data(), M->Image.size(), &Program, &Where);
  if (Result)
    fail(Fn,
         "offloadCreateProgram (a %zu-byte binary on the %s device): %s: %s",
         M->Image.size(), backendName(state().Backend), codeName(Result),
         details(Result));
  M->Programs.emplace_back(Device, Program);
  return Program;
}

/// Reads the packed argument layout of \p K from the runtime; records why it
/// is unknown instead of failing (the launch reports it).
static void readLayout(Kernel &K, const char *Fn) {
  offload_code_location_t Where = at(Fn);
  uint64_t Count = 0;
  offload_result_t Result = offloadGetSymbolInfoWithCodeLoc(
      K.Symbol, OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS, sizeof(Count), &Count,
      &Where);
  if (!Result)
    Result = offloadGetSymbolInfoWithCodeLoc(
        K.Symbol, OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE,
        sizeof(K.PackedSize), &K.PackedSize, &Where);
  if (!Result && Count > 0) {
    K.Offsets.resize(Count);
    K.Sizes.resize(Count);
    Result = offloadGetSymbolInfoWithCodeLoc(
        K.Symbol, OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS,
        Count * sizeof(uint64_t), K.Offsets.data(), &Where);
    if (!Result)
      Result = offloadGetSymbolInfoWithCodeLoc(
          K.Symbol, OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES,
          Count * sizeof(uint64_t), K.Sizes.data(), &Where);
  }
  if (Result) {
    K.LayoutError = std::string(codeName(Result)) + ": " + details(Result);
    K.Offsets.clear();
    K.Sizes.clear();
    return;
  }
  if (size_t I = offload::kernelargs::findFieldOutside(
          K.Offsets.data(), K.Sizes.data(), Count, K.PackedSize);
      I != Count) {
    K.LayoutError = "argument " + std::to_string(I) +
                    " lies outside the packed buffer of " +
                    std::to_string(K.PackedSize) + " bytes";
    K.Offsets.clear();
    K.Sizes.clear();
    return;
  }
  K.LayoutKnown = true;
}

/// The kernel of \p F on \p Device, looked up on first use.
static Kernel *kernelLocked(Function *F, offload_device_handle_t Device,
                            const char *Fn) {
  for (std::unique_ptr<Kernel> &K : F->Kernels)
    if (K->Device == Device)
      return K.get();
  offload_program_handle_t Program = programLocked(F->Owner, Device, Fn);
  auto K = std::make_unique<Kernel>();
  K->Device = Device;
  offload_code_location_t Where = at(Fn);
  offload_result_t Result = offloadGetSymbolWithCodeLoc(
      Program, F->Name.c_str(), OFFLOAD_SYMBOL_KIND_KERNEL, &K->Symbol, &Where);
  if (Result)
    fail(Fn, "kernel '%s': offloadGetSymbol: %s: %s", F->Name.c_str(),
         codeName(Result), details(Result));
  readLayout(*K, Fn);
  F->Kernels.push_back(std::move(K));
  return F->Kernels.back().get();
}

MGPU_EXPORT void *mgpuModuleLoad(void *Data, size_t GpuBlobSize) {
  const char *Fn = "mgpuModuleLoad";
  if (!Data)
    fail(Fn, "data is null");
  if (GpuBlobSize == 0)
    fail(Fn, "the binary size is 0 (LLVM 22's gpu-to-llvm passes the size of "
             "the embedded object)");
  auto M = std::make_unique<Module>();
  const char *Bytes = static_cast<const char *>(Data);
  M->Image.assign(Bytes, Bytes + GpuBlobSize);
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  State &S = state();
  // Load on the default device now, so that a bad binary is reported here;
  // other devices (mgpuSetDefaultDevice) load it when they first launch.
  programLocked(M.get(), S.Device, Fn);
  S.Modules.insert(M.get());
  return M.release();
}

MGPU_EXPORT void *mgpuModuleLoadJIT(void *Data, int OptLevel) {
  const char *Fn = "mgpuModuleLoadJIT";
  (void)OptLevel;
  if (!Data)
    fail(Fn, "data is null");
  {
    std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
    if (state().Backend == OFFLOAD_PLATFORM_BACKEND_HOST)
      fail(Fn, "the host device loads ELF objects, not assembly: serialize "
               "the gpu.module with gpu-module-to-binary format=bin (the "
               "default)");
  }
  // PTX for the CUDA driver's JIT: NUL-terminated text.
  return mgpuModuleLoad(Data, std::strlen(static_cast<const char *>(Data)) + 1);
}

MGPU_EXPORT void mgpuModuleUnload(void *Handle) {
  const char *Fn = "mgpuModuleUnload";
  if (isShutDown())
    return;
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  State &S = state();
  Module *M = liveModuleLocked(S, Handle, Fn);
  S.Modules.erase(M);
  for (auto &[Name, F] : M->Functions)
    S.Functions.erase(F.get());
  std::unique_ptr<Module> Owned(M);
  offload_code_location_t Where = at(Fn);
  for (auto &[Device, Program] : M->Programs)
    check(offloadDestroyProgramWithCodeLoc(Program, &Where), Fn,
          "offloadDestroyProgram");
}

MGPU_EXPORT void *mgpuModuleGetFunction(void *Handle, const char *Name) {
  const char *Fn = "mgpuModuleGetFunction";
  if (!Name)
    fail(Fn, "name is null");
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  State &S = state();
  Module *M = liveModuleLocked(S, Handle, Fn);
  std::unique_ptr<Function> &F = M->Functions[Name];
  if (!F) {
    F = std::make_unique<Function>();
    F->Owner = M;
    F->Name = Name;
    S.Functions.insert(F.get());
  }
  // Look the kernel up on the default device now, so that a wrong name is
  // reported here.
  kernelLocked(F.get(), S.Device, Fn);
  return F.get();
}

//===----------------------------------------------------------------------===//
// Launches
//===----------------------------------------------------------------------===//

static uint32_t dimension(intptr_t Value, const char *Name, const char *Fn) {
  if (!offload::kernelargs::isValidLaunchSize(Value))
    fail(Fn, "%s = %lld must be in [1, %lld]", Name,
         static_cast<long long>(Value),
         static_cast<long long>(offload::kernelargs::kMaxLaunchSize));
  return static_cast<uint32_t>(Value);
}

MGPU_EXPORT void mgpuLaunchKernel(void *FunctionHandle, intptr_t GridX,
                                  intptr_t GridY, intptr_t GridZ,
                                  intptr_t BlockX, intptr_t BlockY,
                                  intptr_t BlockZ, int32_t SharedMemBytes,
                                  void *Stream, void **Params, void **Extra,
                                  size_t ParamsCount) {
  const char *Fn = "mgpuLaunchKernel";
  offload_kernel_launch_size_args_t Launch = {};
  Launch.Dimensions = 3;
  Launch.NumGroups = {dimension(GridX, "gridX", Fn),
                      dimension(GridY, "gridY", Fn),
                      dimension(GridZ, "gridZ", Fn)};
  Launch.GroupSize = {dimension(BlockX, "blockX", Fn),
                      dimension(BlockY, "blockY", Fn),
                      dimension(BlockZ, "blockZ", Fn)};
  if (SharedMemBytes < 0)
    fail(Fn, "dynamic shared memory size %d is negative", SharedMemBytes);
  Launch.DynSharedMemory = static_cast<size_t>(SharedMemBytes);
  if (Extra)
    fail(Fn, "'extra' launch options (cuLaunchKernel's CU_LAUNCH_PARAM_* "
             "list) are not supported; pass the arguments in 'params'");

  auto *Queue = static_cast<offload_queue_handle_t>(Stream);
  offload_device_handle_t Device =
      Queue ? streamDevice(Stream, Fn) : defaultDevice(Fn);

  std::vector<char> Buffer;
  offload_symbol_handle_t Symbol = nullptr;
  std::string KernelName;
  {
    std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
    Function *F = liveFunctionLocked(state(), FunctionHandle, Fn);
    Kernel *K = kernelLocked(F, Device, Fn);
    const char *Name = F->Name.c_str();
    if (!K->LayoutKnown)
      fail(Fn,
           "kernel '%s': the runtime does not know its argument layout, so "
           "the %zu params cannot be packed: %s",
           Name, ParamsCount, K->LayoutError.c_str());
    if (ParamsCount != K->Offsets.size())
      fail(Fn,
           "kernel '%s' takes %zu lowered arguments but the launch passes %zu "
           "params (a memref is 3 + 2 * rank arguments; were the kernel and "
           "the launch lowered with the same memref calling convention?)",
           Name, K->Offsets.size(), ParamsCount);
    if (ParamsCount > 0 && !Params)
      fail(Fn, "kernel '%s': params is null but %zu are expected", Name,
           ParamsCount);
    for (size_t I = 0; I < ParamsCount; ++I)
      if (!Params[I])
        fail(Fn, "kernel '%s': params[%zu] is null", Name, I);
    Buffer.resize(K->PackedSize);
    offload::kernelargs::packFields(Buffer.data(), K->Offsets.data(),
                                    K->Sizes.data(), ParamsCount, Params);
    Symbol = K->Symbol;
    KernelName = F->Name;
  }

  offload_code_location_t Where = at(Fn);
  offload_result_t Result = offloadLaunchKernelWithCodeLoc(
      Queue, Device, Symbol, Buffer.empty() ? nullptr : Buffer.data(),
      Buffer.size(), &Launch, &Where);
  if (Result)
    fail(Fn, "kernel '%s': offloadLaunchKernel: %s: %s", KernelName.c_str(),
         codeName(Result), details(Result));
}

MGPU_EXPORT void mgpuLaunchClusterKernel(void *, intptr_t, intptr_t, intptr_t,
                                         intptr_t, intptr_t, intptr_t, intptr_t,
                                         intptr_t, intptr_t, int32_t, void *,
                                         void **, void **) {
  fail("mgpuLaunchClusterKernel",
       "thread block clusters (gpu.launch_func with clusters) are not "
       "supported by the offload runtime");
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

MGPU_EXPORT void *mgpuStreamCreate() {
  const char *Fn = "mgpuStreamCreate";
  offload_device_handle_t Device = defaultDevice(Fn);
  offload_queue_handle_t Queue = nullptr;
  offload_code_location_t Where = at(Fn);
  check(offloadCreateQueueWithCodeLoc(Device, &Queue, &Where), Fn,
        "offloadCreateQueue");
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  state().Streams.insert(Queue);
  return Queue;
}

MGPU_EXPORT void mgpuStreamDestroy(void *Stream) {
  const char *Fn = "mgpuStreamDestroy";
  if (!Stream)
    fail(Fn, "stream is null");
  if (isShutDown())
    return;
  {
    std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
    state().Streams.erase(Stream);
  }
  offload_code_location_t Where = at(Fn);
  check(offloadDestroyQueueWithCodeLoc(
            static_cast<offload_queue_handle_t>(Stream), &Where),
        Fn, "offloadDestroyQueue");
}

MGPU_EXPORT void mgpuStreamSynchronize(void *Stream) {
  const char *Fn = "mgpuStreamSynchronize";
  // Without a stream every operation here is synchronous: nothing to wait for.
  if (!Stream)
    return;
  ensureInitialized(Fn);
  offload_code_location_t Where = at(Fn);
  check(offloadSyncQueueWithCodeLoc(static_cast<offload_queue_handle_t>(Stream),
                                    &Where),
        Fn, "offloadSyncQueue");
}

static Event *liveEventLocked(State &S, void *Handle, const char *Fn) {
  auto *E = static_cast<Event *>(Handle);
  if (!E)
    fail(Fn, "event is null");
  if (!S.Events.count(E))
    fail(Fn,
         "event %p is not a live event of mgpuEventCreate (never created, or "
         "destroyed)",
         Handle);
  return E;
}

/// The runtime event of \p Handle's latest recording; null if it is complete
/// by construction (never recorded, or recorded without a stream).
static offload_event_handle_t recordedEvent(void *Handle, const char *Fn) {
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  return liveEventLocked(state(), Handle, Fn)->Recorded;
}

/// Whether \p Handle, given where an event is expected, is a live stream.
/// MLIR 22's gpu-to-llvm, when its async.yield pattern loses to the async
/// dialect's structural type conversion (as in mlir-opt's lowering of
/// upstream's Integration/GPU/CUDA/async.mlir), yields the stream of a
/// `!gpu.async.token` out of an `async.execute` instead of an event recorded
/// on it; the consumers then call mgpuStreamWaitEvent, mgpuEventSynchronize
/// and mgpuEventDestroy on the stream. Upstream's CUDA wrappers print the
/// driver's error and go on, without ordering anything. Here such a stream
/// stands for the work enqueued on it so far, and "destroying" it does
/// nothing (the same token may be yielded to several consumers).
static bool streamAsEvent(void *Handle, const char *Fn) {
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  State &S = state();
  return !S.Events.count(static_cast<Event *>(Handle)) &&
         S.Streams.count(Handle);
}

MGPU_EXPORT void mgpuStreamWaitEvent(void *Stream, void *EventHandle) {
  const char *Fn = "mgpuStreamWaitEvent";
  if (!Stream)
    fail(Fn, "stream is null");
  offload_code_location_t Where = at(Fn);
  if (EventHandle && streamAsEvent(EventHandle, Fn)) {
    // Wait for what the other stream holds now: an event recorded on it.
    offload_event_handle_t Now = nullptr;
    check(offloadCreateEventWithCodeLoc(
              static_cast<offload_queue_handle_t>(EventHandle), &Now, &Where),
          Fn, "offloadCreateEvent");
    check(offloadWaitEventsWithCodeLoc(
              static_cast<offload_queue_handle_t>(Stream), &Now, 1, &Where),
          Fn, "offloadWaitEvents");
    check(offloadDestroyEventWithCodeLoc(Now, &Where), Fn,
          "offloadDestroyEvent");
    return;
  }
  offload_event_handle_t Recorded = recordedEvent(EventHandle, Fn);
  if (!Recorded)
    return;
  check(offloadWaitEventsWithCodeLoc(
            static_cast<offload_queue_handle_t>(Stream), &Recorded, 1, &Where),
        Fn, "offloadWaitEvents");
}

MGPU_EXPORT void *mgpuEventCreate() {
  const char *Fn = "mgpuEventCreate";
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  auto *E = new Event();
  state().Events.insert(E);
  return E;
}

MGPU_EXPORT void mgpuEventDestroy(void *Handle) {
  const char *Fn = "mgpuEventDestroy";
  if (isShutDown())
    return;
  // A stream given as an event (see streamAsEvent) outlives this call.
  if (Handle && streamAsEvent(Handle, Fn))
    return;
  offload_event_handle_t Recorded = nullptr;
  {
    std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
    State &S = state();
    Event *E = liveEventLocked(S, Handle, Fn);
    Recorded = E->Recorded;
    S.Events.erase(E);
    delete E;
  }
  if (!Recorded)
    return;
  offload_code_location_t Where = at(Fn);
  check(offloadDestroyEventWithCodeLoc(Recorded, &Where), Fn,
        "offloadDestroyEvent");
}

MGPU_EXPORT void mgpuEventSynchronize(void *Handle) {
  const char *Fn = "mgpuEventSynchronize";
  if (Handle && streamAsEvent(Handle, Fn)) {
    // A stream given as an event (see streamAsEvent): its work so far.
    offload_code_location_t Where = at(Fn);
    check(offloadSyncQueueWithCodeLoc(
              static_cast<offload_queue_handle_t>(Handle), &Where),
          Fn, "offloadSyncQueue");
    return;
  }
  offload_event_handle_t Recorded = recordedEvent(Handle, Fn);
  if (!Recorded)
    return;
  offload_code_location_t Where = at(Fn);
  check(offloadSyncEventWithCodeLoc(Recorded, &Where), Fn, "offloadSyncEvent");
}

MGPU_EXPORT void mgpuEventRecord(void *Handle, void *Stream) {
  const char *Fn = "mgpuEventRecord";
  recordedEvent(Handle, Fn); // validates the event before anything is created
  offload_event_handle_t New = nullptr;
  offload_code_location_t Where = at(Fn);
  if (Stream)
    check(offloadCreateEventWithCodeLoc(
              static_cast<offload_queue_handle_t>(Stream), &New, &Where),
          Fn, "offloadCreateEvent");
  offload_event_handle_t Old = nullptr;
  {
    std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
    Event *E = liveEventLocked(state(), Handle, Fn);
    Old = E->Recorded;
    E->Recorded = New;
  }
  if (Old)
    check(offloadDestroyEventWithCodeLoc(Old, &Where), Fn,
          "offloadDestroyEvent");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

MGPU_EXPORT void *mgpuMemAlloc(uint64_t SizeBytes, void *Stream,
                               bool IsHostShared) {
  const char *Fn = "mgpuMemAlloc";
  // CUDA rejects empty allocations; an empty memref is valid MLIR.
  if (SizeBytes == 0)
    return nullptr;
  offload_device_handle_t Device =
      Stream ? streamDevice(Stream, Fn) : defaultDevice(Fn);
  void *Ptr = nullptr;
  offload_code_location_t Where = at(Fn);
  offload_result_t Result = offloadMemAllocWithCodeLoc(
      Device,
      IsHostShared ? OFFLOAD_ALLOC_TYPE_MANAGED : OFFLOAD_ALLOC_TYPE_DEVICE,
      static_cast<size_t>(SizeBytes), &Ptr, &Where);
  if (Result)
    fail(Fn, "offloadMemAlloc of %llu bytes: %s: %s",
         static_cast<unsigned long long>(SizeBytes), codeName(Result),
         details(Result));
  return Ptr;
}

/// Host function that frees an allocation once its stream reaches it.
static void freeOnStream(void *Ptr) {
  offload_result_t Result = offloadMemFree(Ptr);
  // A free still pending when the runtime shuts down at exit is released by
  // the shutdown.
  if (Result && Result->Code != OFFLOAD_ERRC_UNINITIALIZED)
    fail("mgpuMemFree", "offloadMemFree (enqueued on the stream): %s: %s",
         codeName(Result), details(Result));
}

MGPU_EXPORT void mgpuMemFree(void *Ptr, void *Stream) {
  const char *Fn = "mgpuMemFree";
  if (!Ptr || isShutDown())
    return;
  ensureInitialized(Fn);
  offload_code_location_t Where = at(Fn);
  // Check now that Ptr is the start of an allocation, so that a bad pointer
  // is reported by this call even when the free is enqueued.
  void *Base = nullptr;
  offload_result_t Result = offloadGetMemInfoWithCodeLoc(
      Ptr, OFFLOAD_MEM_INFO_BASE, sizeof(Base), &Base, &Where);
  if (Result)
    fail(Fn, "%p is not memory of mgpuMemAlloc: %s: %s", Ptr, codeName(Result),
         details(Result));
  if (Base != Ptr)
    fail(Fn, "%p is inside the allocation at %p, not its start", Ptr, Base);
  if (!Stream) {
    check(offloadMemFreeWithCodeLoc(Ptr, &Where), Fn, "offloadMemFree");
    return;
  }
  // Free when the work enqueued before on the stream, which may use the
  // memory, has completed (like cuMemFreeAsync).
  check(offloadLaunchHostFunctionWithCodeLoc(
            static_cast<offload_queue_handle_t>(Stream), freeOnStream, Ptr,
            &Where),
        Fn, "offloadLaunchHostFunction");
}

namespace {
/// A copy between two memories that neither belongs to the stream's device
/// (e.g. host to host on a GPU stream), run in order as a host function.
struct CopyJob {
  void *Dst;
  offload_device_handle_t DstDevice;
  const void *Src;
  offload_device_handle_t SrcDevice;
  size_t Size;
};
} // namespace

static void copyOnStream(void *Data) {
  std::unique_ptr<CopyJob> Job(static_cast<CopyJob *>(Data));
  offload_result_t Result = offloadMemcpy(nullptr, Job->Dst, Job->DstDevice,
                                          Job->Src, Job->SrcDevice, Job->Size);
  if (Result)
    fail("mgpuMemcpy", "offloadMemcpy (enqueued on the stream): %s: %s",
         codeName(Result), details(Result));
}

MGPU_EXPORT void mgpuMemcpy(void *Dst, void *Src, size_t SizeBytes,
                            void *Stream) {
  const char *Fn = "mgpuMemcpy";
  if (SizeBytes == 0)
    return;
  if (!Dst || !Src)
    fail(Fn, "%s is null (copy of %zu bytes)", Dst ? "source" : "destination",
         SizeBytes);
  ensureInitialized(Fn);
  offload_device_handle_t DstDevice = memoryDevice(Dst, Fn);
  offload_device_handle_t SrcDevice = memoryDevice(Src, Fn);
  auto *Queue = static_cast<offload_queue_handle_t>(Stream);
  offload_code_location_t Where = at(Fn);
  if (Queue) {
    offload_device_handle_t QueueDevice = streamDevice(Stream, Fn);
    if (QueueDevice != DstDevice && QueueDevice != SrcDevice) {
      auto *Job = new CopyJob{Dst, DstDevice, Src, SrcDevice, SizeBytes};
      offload_result_t Result = offloadLaunchHostFunctionWithCodeLoc(
          Queue, copyOnStream, Job, &Where);
      if (Result) {
        delete Job;
        check(Result, Fn, "offloadLaunchHostFunction");
      }
      return;
    }
  }
  check(offloadMemcpyWithCodeLoc(Queue, Dst, DstDevice, Src, SrcDevice,
                                 SizeBytes, &Where),
        Fn, "offloadMemcpy");
}

static void fill(const char *Fn, void *Dst, const void *Pattern,
                 size_t PatternSize, size_t Count, void *Stream) {
  if (Count == 0)
    return;
  if (!Dst)
    fail(Fn, "destination is null");
  if (Count > SIZE_MAX / PatternSize)
    fail(Fn, "%zu elements of %zu bytes overflow the address space", Count,
         PatternSize);
  ensureInitialized(Fn);
  offload_code_location_t Where = at(Fn);
  check(offloadMemFillWithCodeLoc(static_cast<offload_queue_handle_t>(Stream),
                                  Dst, PatternSize, Pattern,
                                  Count * PatternSize, &Where),
        Fn, "offloadMemFill");
}

MGPU_EXPORT void mgpuMemset32(void *Dst, unsigned int Value, size_t Count,
                              void *Stream) {
  uint32_t Pattern = Value;
  fill("mgpuMemset32", Dst, &Pattern, sizeof(Pattern), Count, Stream);
}

MGPU_EXPORT void mgpuMemset16(void *Dst, unsigned short Value, size_t Count,
                              void *Stream) {
  uint16_t Pattern = Value;
  fill("mgpuMemset16", Dst, &Pattern, sizeof(Pattern), Count, Stream);
}

//===----------------------------------------------------------------------===//
// Host memory registration
//===----------------------------------------------------------------------===//

static void registerHostMemory(const char *Fn, void *Ptr, uint64_t SizeBytes) {
  if (SizeBytes == 0)
    return;
  if (!Ptr)
    fail(Fn, "pointer is null");
  offload_device_handle_t Device = defaultDevice(Fn);
  void *DevicePtr = nullptr;
  offload_code_location_t Where = at(Fn);
  offload_result_t Result =
      offloadMemRegisterWithCodeLoc(Device, Ptr, static_cast<size_t>(SizeBytes),
                                    /*Flags=*/0, &DevicePtr, &Where);
  // The runtime counts a range inside a registration as a use of it, but
  // refuses ranges that partially overlap one (liboffload's pinned
  // allocations); programs written for upstream's wrappers, which report
  // and go on, register overlapping views of one buffer. On the host device
  // host memory is the device's without registration: keep the view.
  bool InRuntime = true;
  if (Result && Result->Code == OFFLOAD_ERRC_INVALID_ARGUMENT &&
      Device == state().HostDevice) {
    InRuntime = false;
    DevicePtr = Ptr;
  } else if (Result) {
    fail(Fn, "offloadMemRegister of %llu bytes at %p: %s: %s",
         static_cast<unsigned long long>(SizeBytes), Ptr, codeName(Result),
         details(Result));
  }
  State &S = state();
  std::lock_guard<std::mutex> Lock(S.Mutex);
  S.Registrations[reinterpret_cast<uintptr_t>(Ptr)] = {
      static_cast<size_t>(SizeBytes), Device, static_cast<char *>(DevicePtr),
      InRuntime};
}

static void unregisterHostMemory(const char *Fn, void *Ptr) {
  if (!Ptr)
    fail(Fn, "pointer is null");
  if (isShutDown())
    return;
  offload_device_handle_t Device = nullptr;
  {
    std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
    State &S = state();
    Device = S.Device;
    auto It = S.Registrations.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It != S.Registrations.end()) {
      Device = It->second.Device;
      bool InRuntime = It->second.InRuntime;
      S.Registrations.erase(It);
      if (!InRuntime)
        return;
    }
  }
  offload_code_location_t Where = at(Fn);
  check(offloadMemUnregisterWithCodeLoc(Device, Ptr, &Where), Fn,
        "offloadMemUnregister");
}

namespace {
/// The ranked memref descriptor of MLIR's LLVM lowering (StridedMemRefType):
/// allocated and aligned pointers, offset, sizes[rank], strides[rank].
struct MemRefSpan {
  char *Start = nullptr; ///< address of the first element
  uint64_t Bytes = 0;    ///< extent up to the last element; 0 when empty
};
} // namespace

static MemRefSpan spanOf(const char *Fn, int64_t Rank, void *Descriptor,
                         int64_t ElementSizeBytes) {
  if (!Descriptor)
    fail(Fn, "memref descriptor is null");
  if (Rank < 0)
    fail(Fn, "rank %lld is negative", static_cast<long long>(Rank));
  if (Rank > OFFLOAD_MEMREF_MAX_RANK)
    fail(Fn, "rank %lld exceeds the maximum of %d (a corrupt descriptor?)",
         static_cast<long long>(Rank), OFFLOAD_MEMREF_MAX_RANK);
  if (ElementSizeBytes <= 0)
    fail(Fn, "element size %lld is not positive",
         static_cast<long long>(ElementSizeBytes));
  offload::kernelargs::MemRefDescriptor D =
      offload::kernelargs::readMemRefDescriptor(Descriptor, Rank);
  MemRefSpan Span;
  if (!D.Aligned)
    fail(Fn, "memref data pointer is null");
  if (D.Offset < 0)
    fail(Fn, "memref offset %lld is negative",
         static_cast<long long>(D.Offset));
  for (int64_t I = 0; I < Rank; ++I)
    if (D.Sizes[I] < 0 || D.Strides[I] < 0)
      fail(Fn,
           "dimension %lld has size %lld and stride %lld; negative sizes "
           "and strides are not supported",
           static_cast<long long>(I), static_cast<long long>(D.Sizes[I]),
           static_cast<long long>(D.Strides[I]));
  // 1 + sum((size_i - 1) * stride_i) elements: the dense size for the dense
  // memrefs upstream accepts (it asserts density), the covering extent for
  // strided ones.
  offload::kernelargs::MemRefExtent Extent;
  if (!offload::kernelargs::getMemRefExtent(Rank, D.Sizes.data(),
                                            D.Strides.data(), Extent))
    fail(Fn, "the memory the memref spans does not fit in 64 bits");
  if (Extent.Empty)
    return Span;
  Span.Start = D.Aligned + D.Offset * ElementSizeBytes;
  Span.Bytes = (static_cast<uint64_t>(Extent.High) + 1) *
               static_cast<uint64_t>(ElementSizeBytes);
  return Span;
}

MGPU_EXPORT void mgpuMemHostRegister(void *Ptr, uint64_t SizeBytes) {
  registerHostMemory("mgpuMemHostRegister", Ptr, SizeBytes);
}

MGPU_EXPORT void mgpuMemHostUnregister(void *Ptr) {
  unregisterHostMemory("mgpuMemHostUnregister", Ptr);
}

MGPU_EXPORT void mgpuMemHostRegisterMemRef(int64_t Rank, void *Descriptor,
                                           int64_t ElementSizeBytes) {
  const char *Fn = "mgpuMemHostRegisterMemRef";
  MemRefSpan Span = spanOf(Fn, Rank, Descriptor, ElementSizeBytes);
  if (Span.Bytes == 0)
    return;
  registerHostMemory(Fn, Span.Start, Span.Bytes);
}

MGPU_EXPORT void mgpuMemHostUnregisterMemRef(int64_t Rank, void *Descriptor,
                                             int64_t ElementSizeBytes) {
  const char *Fn = "mgpuMemHostUnregisterMemRef";
  MemRefSpan Span = spanOf(Fn, Rank, Descriptor, ElementSizeBytes);
  if (Span.Bytes == 0)
    return;
  unregisterHostMemory(Fn, Span.Start);
}

MGPU_EXPORT void mgpuSetDefaultDevice(int32_t DeviceIndex) {
  const char *Fn = "mgpuSetDefaultDevice";
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  State &S = state();
  if (DeviceIndex < 0)
    fail(Fn, "device index %d is negative", DeviceIndex);
  offload_device_handle_t Device = nullptr;
  offload_result_t Result =
      offloadGetDevice(S.Backend, static_cast<uint32_t>(DeviceIndex), &Device);
  if (Result)
    fail(Fn, "no %s device %d: %s: %s", backendName(S.Backend), DeviceIndex,
         codeName(Result), details(Result));
  S.Device = Device;
}

//===----------------------------------------------------------------------===//
// Helpers of upstream's ROCm integration tests
//===----------------------------------------------------------------------===//

namespace {
/// StridedMemRefType<float, 1> and StridedMemRefType<int32_t, 1>, returned by
/// value.
struct MemRef1DFloat {
  float *Allocated;
  float *Aligned;
  int64_t Offset;
  int64_t Sizes[1];
  int64_t Strides[1];
};
struct MemRef1DInt32 {
  int32_t *Allocated;
  int32_t *Aligned;
  int64_t Offset;
  int64_t Sizes[1];
  int64_t Strides[1];
};
} // namespace

/// The device view of registered host memory, like hipHostGetDevicePointer:
/// the registration containing the memref's first element translates its
/// pointers; unregistered memory is returned as it is (its device view on the
/// host device, and under unified addressing).
template <typename Result, typename T>
static Result deviceMemRef(const char *Fn, T *Aligned, int64_t Offset,
                           int64_t Size, int64_t Stride) {
  std::unique_lock<std::mutex> Lock = lockInitialized(Fn);
  State &S = state();
  uintptr_t First = reinterpret_cast<uintptr_t>(Aligned) +
                    static_cast<uintptr_t>(Offset) * sizeof(T);
  T *DeviceAligned = Aligned;
  auto It = S.Registrations.upper_bound(First);
  if (It != S.Registrations.begin()) {
    --It;
    if (First - It->first < It->second.Size) {
      uintptr_t Delta = reinterpret_cast<uintptr_t>(It->second.DevicePtr) -
                        static_cast<uintptr_t>(It->first);
      DeviceAligned =
          reinterpret_cast<T *>(reinterpret_cast<uintptr_t>(Aligned) + Delta);
    }
  }
  // Like upstream: both pointers are the device's aligned pointer.
  return {DeviceAligned, DeviceAligned, Offset, {Size}, {Stride}};
}

MGPU_EXPORT MemRef1DFloat mgpuMemGetDeviceMemRef1dFloat(float *Allocated,
                                                        float *Aligned,
                                                        int64_t Offset,
                                                        int64_t Size,
                                                        int64_t Stride) {
  (void)Allocated;
  return deviceMemRef<MemRef1DFloat>("mgpuMemGetDeviceMemRef1dFloat", Aligned,
                                     Offset, Size, Stride);
}

MGPU_EXPORT MemRef1DInt32 mgpuMemGetDeviceMemRef1dInt32(int32_t *Allocated,
                                                        int32_t *Aligned,
                                                        int64_t Offset,
                                                        int64_t Size,
                                                        int64_t Stride) {
  (void)Allocated;
  return deviceMemRef<MemRef1DInt32>("mgpuMemGetDeviceMemRef1dInt32", Aligned,
                                     Offset, Size, Stride);
}
