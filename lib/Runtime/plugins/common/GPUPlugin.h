//===- GPUPlugin.h - Plugins of stream-based GPU APIs -----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA Driver API and the HIP runtime have the same shape: devices with
// streams, events, modules, kernels launched from a packed argument buffer.
// This file implements the Plugin.h interface once for both, on top of a small
// `gpu::Driver` interface that each vendor folder implements over its symbol
// table (../cuda/CUDADriver.cpp, ../hip/HIPDriver.cpp, loaded with
// DynamicLibrary.h). Every vendor folder has the same files: <Vendor>Driver.cpp
// (the Driver and the plugin's create function, registered in
// ../Plugins.def), <Vendor>Symbols.def (the entry points) and <Vendor>Types.h
// (the API's types and constants, so that no vendor header is needed).
//
// Execution model:
//  - a Queue is a non-blocking stream; synchronous operations (no queue) run
//    on a per-device internal stream and wait for it;
//  - host work in a queue (offloadLaunchHostFunction, waits on events of other
//    platforms, copies and fills of pageable host memory) runs on a per-queue
//    host thread: the stream records an event, then waits on the device for a
//    32-bit flag in pinned host memory (cuStreamWaitValue32); the thread waits
//    for the event, runs the work and writes the flag. So host functions may
//    block or call the API without stalling the driver's own callback thread
//    (which runs the callbacks of every stream, one at a time) and without
//    blocking the submitter. Without stream wait-value support the plugin
//    falls back to the driver's host functions (cuLaunchHostFunc);
//  - every thread that calls the plugin makes the device's context current
//    first (a compare with the current one, a set only when it differs).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_COMMON_GPUPLUGIN_H
#define OFFLOADRUNTIME_LIB_PLUGINS_COMMON_GPUPLUGIN_H

#include "../../Plugin.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace offload {
namespace gpu {

//===----------------------------------------------------------------------===//
// The driver interface
//===----------------------------------------------------------------------===//

/// What Driver::initialize found.
struct DriverStatus {
  /// Devices available; 0 when the library is missing or unusable.
  unsigned NumDevices = 0;
  /// One line for OFFLOAD_TRACE: the library and driver version, or why there
  /// are no devices.
  std::string Message;
};

/// Kinds of pointer, as the driver sees them.
enum class PointerKind {
  /// Memory the driver does not know: pageable host memory (or garbage).
  Pageable,
  /// Memory a device of the driver can access (device, pinned or registered
  /// host, managed memory).
  DeviceAccessible,
};

/// A launch as cuLaunchKernel and hipModuleLaunchKernel take it: 32-bit
/// grid and block dimensions and dynamic shared memory, made by
/// GPUDevice::launchKernel (which checks that the shared memory fits).
struct LaunchDims {
  unsigned Grid[3];
  unsigned Block[3];
  unsigned SharedBytes;
};

/// A native stream-based GPU API. Every method but initialize, the names and
/// errorToString expects the device's context to be current on the calling
/// thread (makeCurrent). Handles are the API's own, as void *.
class Driver {
public:
  virtual ~Driver();

  /// The platform name ("cuda"), the API name for messages ("CUDA"), the
  /// vendor, the backend.
  virtual llvm::StringRef getPlatformName() const = 0;
  virtual llvm::StringRef getAPIName() const = 0;
  virtual llvm::StringRef getVendorName() const = 0;
  virtual offload_platform_backend_t getBackend() const = 0;
  /// The platform version (driver or runtime version); valid after a
  /// successful initialize.
  virtual std::string getVersion() const = 0;

  /// Loads the library and counts devices; never fails: problems yield no
  /// devices and a message.
  virtual DriverStatus initialize() = 0;

  /// Devices, by ordinal in [0, NumDevices).
  virtual llvm::Expected<void *> retainContext(int Ordinal) = 0;
  virtual llvm::Error releaseContext(int Ordinal, void *Context) = 0;
  virtual llvm::Error makeCurrent(int Ordinal, void *Context) = 0;
  virtual llvm::Expected<DeviceInfo> queryDeviceInfo(int Ordinal) = 0;
  /// Whether streams can wait on a 32-bit value in host memory.
  virtual bool supportsStreamWaitValue(int Ordinal) = 0;

  /// Memory.
  virtual llvm::Expected<void *> allocate(size_t Size,
                                          offload_alloc_type_t Kind) = 0;
  virtual llvm::Error free(void *Ptr, offload_alloc_type_t Kind) = 0;
  virtual llvm::Error registerHost(void *Ptr, size_t Size) = 0;
  virtual llvm::Error unregisterHost(void *Ptr) = 0;
  virtual PointerKind classify(const void *Ptr) = 0;
  virtual llvm::Error memcpyAsync(void *Dst, const void *Src, size_t Size,
                                  void *Stream) = 0;
  /// Sets \p Count elements of \p ElementSize (1, 2 or 4) bytes at \p Ptr to
  /// \p Value.
  virtual llvm::Error memsetAsync(void *Ptr, uint32_t Value,
                                  unsigned ElementSize, size_t Count,
                                  void *Stream) = 0;
  /// Sets \p Height 4-byte words \p Pitch bytes apart at \p Ptr to \p Value;
  /// UNSUPPORTED if the API has no strided memset.
  virtual llvm::Error memset2D32Async(void *Ptr, size_t Pitch, uint32_t Value,
                                      size_t Height, void *Stream) = 0;

  /// Streams and events.
  virtual llvm::Expected<void *> createStream() = 0;
  virtual llvm::Error destroyStream(void *Stream) = 0;
  virtual llvm::Error synchronizeStream(void *Stream) = 0;
  /// True when the stream has no pending work.
  virtual llvm::Expected<bool> queryStream(void *Stream) = 0;
  /// \p Timing: the event records a time stamp (cuEventElapsedTime);
  /// internal events go without, which is cheaper to record.
  virtual llvm::Expected<void *> createEvent(bool Timing = false) = 0;
  virtual llvm::Error destroyEvent(void *Event) = 0;
  virtual llvm::Error recordEvent(void *Event, void *Stream) = 0;
  virtual llvm::Error synchronizeEvent(void *Event) = 0;
  virtual llvm::Expected<bool> queryEvent(void *Event) = 0;
  virtual llvm::Error streamWaitEvent(void *Stream, void *Event) = 0;
  /// Milliseconds between two completed timing events (cuEventElapsedTime);
  /// NOT_READY when one has not completed.
  virtual llvm::Expected<float> eventElapsedTime(void *Start, void *End) = 0;
  /// Makes \p Stream wait until the 32-bit word at \p Address (pinned host
  /// memory) is >= \p Value (cyclic comparison).
  virtual llvm::Error streamWaitValue32(void *Stream, uint32_t *Address,
                                        uint32_t Value) = 0;
  using HostFn = void (*)(void *);
  virtual llvm::Error launchHostFunction(void *Stream, HostFn Fn,
                                         void *UserData) = 0;

  /// Programs.
  virtual bool isValidBinary(llvm::StringRef Image) const = 0;
  /// Loads \p Image; INVALID_BINARY with the loader's log on failure.
  virtual llvm::Expected<void *> loadModule(llvm::StringRef Image) = 0;
  virtual llvm::Error unloadModule(void *Module) = 0;
  /// The kernel \p Name; NOT_FOUND if absent.
  virtual llvm::Expected<void *> getFunction(void *Module,
                                             llvm::StringRef Name) = 0;
  /// Address and size of global \p Name; NOT_FOUND if absent.
  virtual llvm::Expected<std::pair<void *, uint64_t>>
  getGlobal(void *Module, llvm::StringRef Name) = 0;
  /// Where one kernel parameter lies in the packed argument buffer.
  struct ParameterSlot {
    uint64_t Offset;
    uint64_t Size;
  };
  /// The parameters of kernel \p Name (\p Function of \p Module), in order;
  /// UNSUPPORTED, saying why, when the API cannot tell.
  virtual llvm::Expected<std::vector<ParameterSlot>>
  getParameterLayout(void *Module, void *Function, llvm::StringRef Name) = 0;
  /// Static shared memory of a kernel in bytes (0 if unknown).
  virtual uint64_t getStaticSharedBytes(void *Function) = 0;
  /// Allows \p Function to use \p Bytes of dynamic shared memory (the opt-in
  /// above the default 48 KiB).
  virtual llvm::Error setMaxDynamicSharedBytes(void *Function,
                                               uint64_t Bytes) = 0;
  /// The block size of best occupancy, if the API can tell.
  virtual std::optional<llvm::Expected<uint64_t>>
  getOptimalBlockSize(void *Function, size_t SharedMemoryPerThread) {
    return std::nullopt;
  }
  /// The tags of the launch functions' `extra` array (CU_LAUNCH_PARAM_* and
  /// HIP_LAUNCH_PARAM_*, whose END differs).
  struct LaunchParamTags {
    uintptr_t BufferPointer, BufferSize, End;
  };
  virtual LaunchParamTags getLaunchParamTags() const = 0;
  /// Launches \p Function with \p Extra, the API's `extra` array naming the
  /// packed argument buffer (null for a kernel without arguments); the
  /// plugin built it from getLaunchParamTags (PackedArguments).
  virtual llvm::Error launchKernel(void *Function, const LaunchDims &D,
                                   void *Stream, void **Extra) = 0;
  /// Cooperative grids (DeviceInfo::CooperativeLaunchSupport, which
  /// queryDeviceInfo sets): the blocks of \p BlockThreads threads and
  /// \p DynShared bytes of dynamic shared memory one multiprocessor runs at
  /// once, and a launch whose blocks all run at once with one pointer per
  /// parameter in \p Params (cuLaunchCooperativeKernel and
  /// hipModuleLaunchCooperativeKernel take no packed buffer). The defaults
  /// answer UNSUPPORTED.
  virtual llvm::Expected<uint32_t>
  getMaxActiveBlocksPerMultiprocessor(void *Function, uint32_t BlockThreads,
                                      size_t DynShared);
  virtual llvm::Error launchCooperativeKernel(void *Function,
                                              const LaunchDims &D, void *Stream,
                                              void **Params);
  /// Migrates \p Size bytes of managed memory at \p Ptr to the device
  /// (\p ToDevice) or to the host, in the order of \p Stream
  /// (cuMemPrefetchAsync, hipMemPrefetchAsync). The default does nothing: a
  /// prefetch is a hint.
  virtual llvm::Error prefetch(int Ordinal, const void *Ptr, size_t Size,
                               bool ToDevice, void *Stream) {
    return llvm::Error::success();
  }
  /// Whether \p Ptr is managed memory (which prefetch may migrate).
  virtual bool isManaged(const void *Ptr) { return false; }
};

/// The part of a Driver that every vendor API shares: calls return an int
/// (CUresult, hipError_t) that is 0 on success and \p NotReady for "not
/// complete yet"; a failed call becomes the error "<Call> failed: <Name>
/// (<Description>)".
class APIDriver : public Driver {
protected:
  explicit APIDriver(int NotReady) : NotReady(NotReady) {}

  /// The API's name of result \p R ("CUDA_ERROR_INVALID_VALUE") and its
  /// description (empty if the API has none).
  virtual std::pair<std::string, std::string> describe(int R) const = 0;
  /// The offload error code of failed result \p R.
  virtual offload_errc_t getErrorCode(int R) const = 0;

  /// Success, or the error of call \p Call with \p Code (getErrorCode(R)
  /// when \p Code is OFFLOAD_ERRC_SUCCESS).
  llvm::Error check(int R, llvm::StringRef Call,
                    offload_errc_t Code = OFFLOAD_ERRC_SUCCESS) const;
  /// A query's answer: true on success, false for NotReady, else the error.
  llvm::Expected<bool> checkQuery(int R, llvm::StringRef Call) const;
  /// check, with NotReady as NOT_READY ("<Call>: an event is not complete
  /// yet"): for the elapsed time between events.
  llvm::Error checkComplete(int R, llvm::StringRef Call) const;

private:
  int NotReady;
};

/// The device attributes both APIs report (cuDeviceGetAttribute,
/// hipDeviceGetAttribute), from which setGPUDeviceInfo derives DeviceInfo.
struct GPUAttributes {
  uint32_t MaxThreadsPerBlock = 0;
  uint32_t MaxBlockDim[3] = {0, 0, 0};
  uint32_t MaxGridDim[3] = {0, 0, 0};
  uint32_t Multiprocessors = 0;
  /// In kHz.
  uint32_t ClockRate = 0, MemoryClockRate = 0;
  uint32_t WarpSize = 0;
  uint64_t SharedBytesPerBlock = 0;

  /// The API's attribute code of each field, in the order of the fields
  /// (MaxThreadsPerBlock, block x, y, z, grid x, y, z, multiprocessors,
  /// clock, memory clock, warp size, shared memory per block).
  using Codes = int[12];
  /// Reads every field through \p Get (an attribute code to its value,
  /// negative values read as 0).
  static llvm::Expected<GPUAttributes>
  read(const Codes &C, llvm::function_ref<llvm::Expected<uint32_t>(int)> Get);
};

/// Sets the fields of \p Info that follow from \p A: the GPU type, work
/// group and work sizes (products saturated to 32 bits), compute units,
/// clocks in MHz, subgroup size, local memory, 64-bit addresses; IEEE single
/// and double precision with every rounding mode, denormals and FMA, and half
/// precision (round to nearest, 2 per native vector) when \p HasHalf;
/// scalar (SIMT) vector widths otherwise.
void setGPUDeviceInfo(DeviceInfo &Info, const GPUAttributes &A, bool HasHalf);

//===----------------------------------------------------------------------===//
// Plugin objects
//===----------------------------------------------------------------------===//

class GPUDevice;
class GPUPlugin;

/// An event: a native event recorded on a stream.
class GPUEvent final : public Event {
public:
  /// \p Complete: the stream was idle when the event was recorded.
  GPUEvent(GPUDevice &D, void *Native, bool Complete)
      : Dev(D), Native(Native), KnownComplete(Complete) {}
  ~GPUEvent() override;
  llvm::Error synchronize() override;
  bool isComplete() const override;
  llvm::Expected<float> elapsedMillisSince(Event &Start) override;

  GPUDevice &getDevice() const { return Dev; }
  void *getNative() const { return Native; }

private:
  GPUDevice &Dev;
  void *Native;
  /// Set once the event is known to be complete (the native event may still
  /// complete a moment later: the driver processes the record).
  mutable std::atomic<bool> KnownComplete;
};

/// An in-order queue: a non-blocking stream plus, for host work, a worker
/// thread and a flag the stream waits on.
class GPUQueue final : public Queue {
public:
  using HostOp = llvm::unique_function<llvm::Error()>;

  GPUQueue(GPUDevice &D, void *Stream);
  ~GPUQueue() override;

  llvm::Error synchronize() override;
  llvm::Error
  waitEvents(llvm::ArrayRef<std::shared_ptr<Event>> Events) override;
  llvm::Error enqueueHostFunction(offload_host_function_cb_t Callback,
                                  void *UserData) override;
  llvm::Expected<std::shared_ptr<Event>> recordEvent() override;
  llvm::Expected<bool> isEmpty() override;

  void *getStream() const { return Stream; }
  /// Runs \p Op on the host in queue order; its error is reported by the
  /// next synchronize.
  llvm::Error enqueueHostOp(HostOp Op);

private:
  struct PendingOp {
    HostOp Op;
    void *Event; ///< recorded before the op; null in fallback mode
    uint32_t Sequence;
  };
  /// Hands \p Op to the host thread; leaves it in \p Rejected if the stream
  /// cannot wait on host memory.
  llvm::Error enqueueOnHostThread(HostOp Op, std::optional<HostOp> &Rejected);
  void runWorker();
  void recordError(llvm::Error E);
  llvm::Error takeError();
  static void runFallbackOp(void *Data);

  GPUDevice &Dev;
  void *Stream;

  std::mutex Mutex;
  std::condition_variable WorkAvailable;
  std::deque<PendingOp> Pending;
  bool Stopping = false;
  std::thread Worker;
  /// Pinned host word the stream waits on; the worker writes the sequence
  /// number of each op it finished.
  uint32_t *Flag = nullptr;
  uint32_t NextSequence = 0;

  std::mutex ErrorMutex;
  std::optional<llvm::Error> FirstError;
};

/// A loaded module.
class GPUProgram final : public Program {
public:
  GPUProgram(GPUDevice &D, void *Module);
  ~GPUProgram() override;

  llvm::Expected<std::unique_ptr<Symbol>>
  getSymbol(llvm::StringRef Name, offload_symbol_kind_t Kind) override;

private:
  GPUDevice &Dev;
  void *Module;
};

/// A kernel (native function) or global variable (address and size).
class GPUSymbol final : public Symbol {
public:
  GPUSymbol(Program &P, std::string Name, offload_symbol_kind_t Kind,
            void *Handle, uint64_t Size, uint64_t StaticShared)
      : Symbol(P, std::move(Name), Kind), Handle(Handle), Size(Size),
        StaticShared(StaticShared) {}

  void *getFunction() const { return Handle; }
  uint64_t getStaticSharedBytes() const override { return StaticShared; }
  void *getGlobalAddress() const override {
    return getKind() == OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE ? Handle : nullptr;
  }
  uint64_t getGlobalSize() const override { return Size; }

  /// Records the kernel's parameters as the driver reported them, or why it
  /// could not.
  void
  setParameterLayout(llvm::Expected<std::vector<Driver::ParameterSlot>> Layout);
  std::optional<uint64_t> getArgumentsSize() const override;
  std::optional<uint64_t> getMinArgumentsSize() const override;
  std::optional<ArgumentLayout> getArgumentLayout() const override;
  std::string describeMissingArgumentLayout() const override;

  /// The dynamic shared memory the kernel was allowed so far (opt-in).
  std::atomic<uint64_t> MaxDynamicShared{48 * 1024};

private:
  void *Handle;
  uint64_t Size;
  uint64_t StaticShared;
  /// The parameter layout, when known: offsets and sizes, the bytes the
  /// parameters span and that rounded up to their largest alignment (the
  /// size of a C struct of them).
  bool LayoutKnown = false;
  std::vector<uint64_t> Offsets, Sizes;
  uint64_t ParametersEnd = 0, PaddedSize = 0;
  std::string LayoutError;
};

class GPUDevice final : public Device {
public:
  GPUDevice(GPUPlugin &P, int Ordinal, void *Context, DeviceInfo Info,
            bool WaitValue);
  ~GPUDevice() override;

  const DeviceInfo &getInfo() const override { return Info; }

  llvm::Expected<void *> allocate(size_t Size,
                                  offload_alloc_type_t Kind) override;
  llvm::Error free(void *Ptr, offload_alloc_type_t Kind) override;
  /// The drivers align allocations to kDriverAlignment; larger alignments,
  /// up to kMaxAlignment, over-allocate by Alignment - kDriverAlignment.
  llvm::Expected<void *> allocateAligned(size_t Size, offload_alloc_type_t Kind,
                                         size_t Alignment) override;
  static constexpr size_t kDriverAlignment = 256;
  static constexpr size_t kMaxAlignment = size_t(2) << 20;
  llvm::Error memcpy(Queue *Q, void *Dst, const void *Src,
                     size_t Size) override;
  /// Driver::prefetch on \p Q's stream where Driver::isManaged says the
  /// memory is managed.
  llvm::Error prefetch(Queue &Q, const void *Ptr, size_t Size,
                       bool ToDevice) override;
  llvm::Error fill(Queue *Q, void *Ptr, llvm::ArrayRef<uint8_t> Pattern,
                   size_t Size) override;
  llvm::Expected<void *> registerHostMemory(void *HostPtr,
                                            size_t Size) override;
  llvm::Error unregisterHostMemory(void *HostPtr) override;

  llvm::Expected<std::unique_ptr<Queue>> createQueue() override;

  bool isValidBinary(llvm::StringRef Image) const override;
  llvm::Expected<std::unique_ptr<Program>>
  loadProgram(llvm::StringRef Image) override;

  llvm::Error
  launchKernel(Queue *Q, Symbol &Kernel, llvm::ArrayRef<uint8_t> Args,
               const offload_kernel_launch_size_args_t &Size) override;
  llvm::Expected<uint64_t>
  getOptimalGroupSize(Symbol &Kernel, size_t SharedMemoryPerThread) override;
  /// Occupancy per multiprocessor times multiprocessors; launches with
  /// cuLaunchCooperativeKernel (where the driver supports it).
  llvm::Expected<uint32_t> getMaxCooperativeGroupCount(
      Symbol &Kernel, const offload_kernel_launch_size_args_t &Size) override;
  llvm::Error launchCooperativeKernel(
      Queue *Q, Symbol &Kernel, llvm::ArrayRef<uint8_t> Args,
      const offload_kernel_launch_size_args_t &Size) override;

  Driver &getDriver() const { return TheDriver; }
  GPUPlugin &getGPUPlugin() const { return ThePlugin; }
  /// Makes the device's context current on the calling thread.
  llvm::Error makeCurrent() const;
  bool hasStreamWaitValue() const {
    return WaitValue.load(std::memory_order_relaxed);
  }
  /// Falls back to the driver's host callbacks, after a stream wait failed
  /// (\p Why, for the trace).
  void disableStreamWaitValue(llvm::Error Why);

  /// Frees what the device still holds (at plugin deinit).
  llvm::Error release();

private:
  /// The 32-bit launch dimensions of \p Size (OUT_OF_RESOURCES if its
  /// dynamic shared memory does not fit), after opting \p Sym in to that
  /// much dynamic shared memory when it is above what it was allowed so far.
  llvm::Expected<LaunchDims>
  prepareLaunch(GPUSymbol &Sym, const offload_kernel_launch_size_args_t &Size);
  /// The stream of synchronous operations, created on first use.
  llvm::Expected<void *> getSyncStream();
  /// Runs \p Submit on the sync stream (or on \p Q) and, without a queue,
  /// waits for it.
  llvm::Error submit(Queue *Q,
                     llvm::function_ref<llvm::Error(void *Stream)> Submit);
  /// A copy or fill done by the host thread of \p Q, or now without a queue.
  llvm::Error runOnHost(Queue *Q, GPUQueue::HostOp Op);
  /// A synchronous copy that may involve pageable memory.
  llvm::Error copyNow(void *Dst, const void *Src, size_t Size);

  GPUPlugin &ThePlugin;
  Driver &TheDriver;
  int Ordinal;
  void *Context;
  DeviceInfo Info;
  std::atomic<bool> WaitValue;

  std::mutex SyncStreamMutex;
  void *SyncStream = nullptr;

  /// The driver's address of each over-allocated aligned allocation, by the
  /// address allocateAligned returned (when they differ).
  std::mutex AlignedMutex;
  std::unordered_map<void *, void *> AlignedBases;
};

/// A platform over a Driver.
class GPUPlugin final : public Plugin {
public:
  explicit GPUPlugin(std::unique_ptr<Driver> D) : TheDriver(std::move(D)) {}
  ~GPUPlugin() override;

  offload_platform_backend_t getBackend() const override {
    return TheDriver->getBackend();
  }
  llvm::StringRef getName() const override {
    return TheDriver->getPlatformName();
  }
  llvm::StringRef getVendorName() const override {
    return TheDriver->getVendorName();
  }
  llvm::StringRef getVersion() const override { return Version; }

  llvm::Error init() override;
  llvm::Error deinit() override;

  size_t getNumDevices() const override { return Devices.size(); }
  Device &getDevice(size_t Index) override { return *Devices[Index]; }

  Driver &getDriver() const { return *TheDriver; }
  /// The status line of the last init (also printed with OFFLOAD_TRACE=1).
  const std::string &getStatus() const { return Status; }
  std::string getUnavailableReason() const override {
    return Devices.empty() ? Status : std::string();
  }

  /// Events of this plugin, so that a queue can tell its own events (waited
  /// on by the stream) from others (waited on by the host thread).
  /// Host memory registrations, counted: the driver's registration is
  /// process-wide (portable), so registering memory again, also for another
  /// device, only counts.
  llvm::Error registerHost(GPUDevice &D, void *Ptr, size_t Size);
  llvm::Error unregisterHost(GPUDevice &D, void *Ptr);

  void addEvent(const Event *E);
  void removeEvent(const Event *E);
  bool ownsEvent(const Event *E) const;

private:
  std::unique_ptr<Driver> TheDriver;
  std::vector<std::unique_ptr<GPUDevice>> Devices;
  std::string Version;
  std::string Status;

  std::mutex RegistrationsMutex;
  std::unordered_map<void *, unsigned> Registrations;

  mutable std::mutex EventsMutex;
  std::unordered_set<const Event *> Events;
};

/// Converts the failure \p Code of API call \p Call into an llvm::Error:
/// "<Call> failed: <Name> (<Description>)", with an offload code chosen by
/// the caller.
llvm::Error makeDriverError(offload_errc_t Code, llvm::StringRef Call,
                            llvm::StringRef Name, llvm::StringRef Description);

} // namespace gpu
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_COMMON_GPUPLUGIN_H
