//===- Plugin.h - Interface between the runtime and its plugins -*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The one C++ interface every platform implements (plugins/host, and
// plugins/cuda and plugins/hip over the GPU plugin of plugins/common). The C
// entry points validate arguments and then talk to plugins only through these
// classes; the runtime creates them from the list in plugins/Plugins.def, so
// adding a platform touches no caller. A plugin includes this header,
// OffloadSupport/Error.h and the leaf headers Config.h and CheckServices.h,
// and no other header of the core (scripts/check-plugin-includes.py, run by
// test/Runtime/plugin-includes.test).
//
// Ownership: a Plugin owns its Devices; Queues, Programs and Symbols are owned
// by the runtime's handles; Events are shared, because a queue that waits on
// an event must keep it alive after the user destroyed its handle.
//
// Queue arguments: a `Queue *` passed to a Device method is null (synchronous
// operation) or a queue created by that same device.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGIN_H
#define OFFLOADRUNTIME_LIB_PLUGIN_H

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace offload {

class Device;
class Event;
class Program;
class Queue;
class Symbol;

/// Static properties of a device, answered by offloadGetDeviceInfo; one field
/// per offload_device_info_t (see OffloadAPI.h for units).
struct DeviceInfo {
  offload_device_type_t Type = OFFLOAD_DEVICE_TYPE_DEFAULT;
  std::string Name;
  std::string ProductName;
  std::string UID;
  std::string Vendor;
  std::string DriverVersion;
  uint32_t MaxWorkGroupSize = 0;
  offload_dimensions_t MaxWorkGroupSizePerDimension = {0, 0, 0};
  uint32_t MaxWorkSize = 0;
  offload_dimensions_t MaxWorkSizePerDimension = {0, 0, 0};
  uint32_t VendorId = 0;
  uint32_t NumComputeUnits = 0;
  uint32_t MaxClockFrequency = 0;
  uint32_t MemoryClockRate = 0;
  uint32_t AddressBits = 0;
  uint64_t MaxMemAllocSize = 0;
  uint64_t GlobalMemSize = 0;
  uint64_t WorkGroupLocalMemSize = 0;
  offload_device_fp_capability_flags_t SingleFPConfig = 0;
  offload_device_fp_capability_flags_t DoubleFPConfig = 0;
  offload_device_fp_capability_flags_t HalfFPConfig = 0;
  uint32_t NativeVectorWidthChar = 0;
  uint32_t NativeVectorWidthShort = 0;
  uint32_t NativeVectorWidthInt = 0;
  uint32_t NativeVectorWidthLong = 0;
  uint32_t NativeVectorWidthFloat = 0;
  uint32_t NativeVectorWidthDouble = 0;
  uint32_t NativeVectorWidthHalf = 0;
  uint32_t SubgroupSize = 0;
  std::string Architecture;
  /// Device::launchCooperativeKernel runs grids (of at most
  /// getMaxCooperativeGroupCount blocks) with every block at once.
  bool CooperativeLaunchSupport = false;
};

/// The alignment every plugin's allocate gives at least, in bytes (what
/// offloadMemAlloc documents).
inline constexpr size_t kMinAllocationAlignment = 64;

/// A platform: one backend and its devices.
class Plugin {
public:
  virtual ~Plugin();

  virtual offload_platform_backend_t getBackend() const = 0;
  virtual llvm::StringRef getName() const = 0;
  virtual llvm::StringRef getVendorName() const = 0;
  virtual llvm::StringRef getVersion() const = 0;
  /// Why the platform has no devices (e.g. "libcuda.so.1 not found: ..."),
  /// or an empty string.
  virtual std::string getUnavailableReason() const { return ""; }

  /// Discovers devices. A missing vendor library is not an error: the plugin
  /// then has no devices.
  virtual llvm::Error init() = 0;
  /// Releases every resource; called once, after all queues, events, programs
  /// and allocations of the plugin's devices were released.
  virtual llvm::Error deinit() = 0;

  virtual size_t getNumDevices() const = 0;
  virtual Device &getDevice(size_t Index) = 0;
};

/// One device of a platform.
class Device {
public:
  explicit Device(Plugin &P) : ThePlugin(P) {}
  virtual ~Device();

  Plugin &getPlugin() const { return ThePlugin; }
  virtual const DeviceInfo &getInfo() const = 0;

  /// Memory. \p Kind has been validated by the caller.
  virtual llvm::Expected<void *> allocate(size_t Size,
                                          offload_alloc_type_t Kind) = 0;
  virtual llvm::Error free(void *Ptr, offload_alloc_type_t Kind) = 0;
  /// allocate with the start aligned to \p Alignment, a power of two; the
  /// result is freed with free. The default serves alignments up to
  /// kMinAllocationAlignment (allocate) and answers UNSUPPORTED above.
  virtual llvm::Expected<void *>
  allocateAligned(size_t Size, offload_alloc_type_t Kind, size_t Alignment);
  /// Copies \p Size bytes from \p Src to \p Dst; each side is memory of this
  /// device or of the host. Reads \p Src when the copy executes.
  virtual llvm::Error memcpy(Queue *Q, void *Dst, const void *Src,
                             size_t Size) = 0;
  /// Fills \p Size bytes at \p Ptr with \p Pattern repeated.
  virtual llvm::Error fill(Queue *Q, void *Ptr, llvm::ArrayRef<uint8_t> Pattern,
                           size_t Size) = 0;
  /// Moves \p Size bytes of managed memory at \p Ptr towards this device
  /// (\p ToDevice) or the host, in the order of \p Q (a queue of this
  /// device): a hint, which changes no contents or addresses. A plugin
  /// ignores memory that is not managed; the default ignores everything.
  virtual llvm::Error prefetch(Queue &Q, const void *Ptr, size_t Size,
                               bool ToDevice) {
    return llvm::Error::success();
  }
  virtual llvm::Expected<void *> registerHostMemory(void *HostPtr,
                                                    size_t Size) = 0;
  virtual llvm::Error unregisterHostMemory(void *HostPtr) = 0;

  /// Queues and events.
  virtual llvm::Expected<std::unique_ptr<Queue>> createQueue() = 0;

  /// Programs.
  virtual bool isValidBinary(llvm::StringRef Image) const = 0;
  virtual llvm::Expected<std::unique_ptr<Program>>
  loadProgram(llvm::StringRef Image) = 0;

  /// Launches \p Kernel (a KERNEL symbol of a program of this device).
  /// \p Args is the packed argument buffer; asynchronous launches copy it.
  virtual llvm::Error
  launchKernel(Queue *Q, Symbol &Kernel, llvm::ArrayRef<uint8_t> Args,
               const offload_kernel_launch_size_args_t &Size) = 0;

  /// The block size with the best occupancy for \p Kernel (a KERNEL symbol of
  /// a program of this device) when each thread needs
  /// \p SharedMemoryPerThread bytes of dynamic shared memory. The default is
  /// the largest block that fits getInfo()'s limits and the shared memory the
  /// kernel's static shared memory leaves, in whole subgroups; a plugin whose
  /// backend knows better (cuOccupancyMaxPotentialBlockSize) overrides it.
  virtual llvm::Expected<uint64_t>
  getOptimalGroupSize(Symbol &Kernel, size_t SharedMemoryPerThread);

  /// Cooperative launches (getInfo().CooperativeLaunchSupport): the most
  /// blocks of \p Size's block size and dynamic shared memory that run at
  /// once (Size.NumGroups is ignored), and a launch whose blocks all run at
  /// once, of at most that many blocks (checked by the caller). The defaults
  /// answer UNSUPPORTED.
  virtual llvm::Expected<uint32_t>
  getMaxCooperativeGroupCount(Symbol &Kernel,
                              const offload_kernel_launch_size_args_t &Size);
  virtual llvm::Error
  launchCooperativeKernel(Queue *Q, Symbol &Kernel,
                          llvm::ArrayRef<uint8_t> Args,
                          const offload_kernel_launch_size_args_t &Size);

private:
  Plugin &ThePlugin;
};

/// An in-order queue of a device.
class Queue {
public:
  explicit Queue(Device &D) : TheDevice(D) {}
  /// Destroying a queue waits for its work.
  virtual ~Queue();

  Device &getDevice() const { return TheDevice; }

  /// Waits for every operation submitted so far; returns the first error of
  /// an operation since the previous synchronization, if any.
  virtual llvm::Error synchronize() = 0;
  /// Makes the queue wait, without blocking the caller, for \p Events (which
  /// may belong to other queues, devices or platforms).
  virtual llvm::Error
  waitEvents(llvm::ArrayRef<std::shared_ptr<Event>> Events) = 0;
  virtual llvm::Error enqueueHostFunction(offload_host_function_cb_t Callback,
                                          void *UserData) = 0;
  /// Records an event marking the current end of the queue's work.
  virtual llvm::Expected<std::shared_ptr<Event>> recordEvent() = 0;
  /// Whether every operation submitted so far has completed. A backend that
  /// cannot tell answers false (liboffload's rule for OL_QUEUE_INFO_EMPTY).
  virtual llvm::Expected<bool> isEmpty() { return false; }

private:
  Device &TheDevice;
};

/// A point in a queue.
class Event {
public:
  virtual ~Event();
  /// Blocks until the event is complete.
  virtual llvm::Error synchronize() = 0;
  virtual bool isComplete() const = 0;
  /// Milliseconds from the completion of \p Start to that of this event;
  /// both complete and of the same device (checked by the caller). NOT_READY
  /// if the backend has no time for them yet.
  virtual llvm::Expected<float> elapsedMillisSince(Event &Start) = 0;
};

/// A loaded device binary.
class Program {
public:
  explicit Program(Device &D) : TheDevice(D) {}
  virtual ~Program();

  Device &getDevice() const { return TheDevice; }
  /// Looks up \p Name of kind \p Kind; NOT_FOUND if absent.
  virtual llvm::Expected<std::unique_ptr<Symbol>>
  getSymbol(llvm::StringRef Name, offload_symbol_kind_t Kind) = 0;

private:
  Device &TheDevice;
};

/// A kernel or global variable of a program.
class Symbol {
public:
  Symbol(Program &P, std::string Name, offload_symbol_kind_t Kind)
      : TheProgram(P), Name(std::move(Name)), Kind(Kind) {}
  virtual ~Symbol();

  Program &getProgram() const { return TheProgram; }
  llvm::StringRef getName() const { return Name; }
  offload_symbol_kind_t getKind() const { return Kind; }

  /// The size in bytes of the packed argument buffer a kernel expects, when
  /// the binary records it.
  virtual std::optional<uint64_t> getArgumentsSize() const {
    return std::nullopt;
  }
  /// The smallest ArgumentsSize a launch may pass: getArgumentsSize() but
  /// where the binary records the parameters only, not the alignment of a
  /// struct of them (GPU kernels: the end of the last parameter; the struct's
  /// tail padding is optional).
  virtual std::optional<uint64_t> getMinArgumentsSize() const {
    return getArgumentsSize();
  }

  /// Where each lowered argument of a kernel lies in the packed buffer.
  struct ArgumentLayout {
    llvm::ArrayRef<uint64_t> Offsets;
    llvm::ArrayRef<uint64_t> Sizes;
  };
  /// The argument layout of a kernel, when the binary records it.
  virtual std::optional<ArgumentLayout> getArgumentLayout() const {
    return std::nullopt;
  }
  /// Why getArgumentLayout() and getArgumentsSize() have no answer.
  virtual std::string describeMissingArgumentLayout() const {
    return "the binary does not record the argument layout of kernel '" + Name +
           "'";
  }

  /// Static shared memory per block of a kernel, in bytes: what the kernel
  /// uses and the device's limit counts (WORK_GROUP_LOCAL_MEM_SIZE bounds it
  /// plus the launch's dynamic shared memory), without any padding the plugin
  /// adds to align the dynamic part.
  virtual uint64_t getStaticSharedBytes() const { return 0; }

  /// Address and size in bytes of a global variable.
  virtual void *getGlobalAddress() const { return nullptr; }
  virtual uint64_t getGlobalSize() const { return 0; }

private:
  Program &TheProgram;
  std::string Name;
  offload_symbol_kind_t Kind;
};

/// The most threads OFFLOAD_HOST_THREADS may ask the host plugin for.
inline constexpr uint64_t kMaxHostThreads = 1024;

/// Writes \p Size bytes of \p Pattern (not empty) repeated at \p Ptr,
/// memory the host can write: what Device::fill does in host memory (the
/// host plugin's fills, the GPU plugins' fills of pageable memory and their
/// staging buffers). A trailing partial pattern (only possible with
/// validation off) is truncated. Doubles the filled prefix:
/// O(log(Size / Pattern.size())) memcpy calls.
void fillHostMemory(void *Ptr, llvm::ArrayRef<uint8_t> Pattern, size_t Size);

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGIN_H
