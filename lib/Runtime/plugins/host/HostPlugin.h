//===- HostPlugin.h - The host plugin ---------------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The host plugin runs kernels compiled for the `#offload.host` target on the
// CPU the program runs on. See HostKernelABI.h for the execution model.
//
//  - HostPlugin.cpp: the platform, the device and its memory;
//  - HostDeviceInfo.cpp: the device's properties, read from the system;
//  - HostQueue.cpp: in-order asynchronous queues and events;
//  - HostProgram.cpp: loading ELF objects with ORC, symbol lookup;
//  - HostLaunch.cpp: running the blocks of a grid on a thread pool;
//  - Fiber.cpp: running the threads of a cooperative block as fibers.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTPLUGIN_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTPLUGIN_H

#include "../../Plugin.h"

#include "OffloadRuntime/HostKernelABI.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace offload {
namespace host {

class HostPlugin;

/// Settings of the host plugin, read from the environment at init.
struct HostConfig {
  /// Threads of the block thread pool (OFFLOAD_HOST_THREADS, default: the
  /// hardware threads).
  unsigned NumThreads = 0;
  /// Stack size of a fiber (OFFLOAD_HOST_FIBER_STACK_SIZE, default 64 KiB).
  size_t FiberStackSize = 64 * 1024;
  /// Shared memory per block the device reports (WORK_GROUP_LOCAL_MEM_SIZE).
  uint64_t SharedMemoryPerBlock = 64 * 1024;
};

/// Reads the properties of the host device from the system. Defined in
/// HostDeviceInfo.cpp.
DeviceInfo queryHostDeviceInfo(const HostConfig &Config);

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

/// An event: set once the queue reaches the point where it was recorded.
class HostEvent final : public Event {
public:
  explicit HostEvent(bool Complete = false) : Complete(Complete) {}
  llvm::Error synchronize() override;
  bool isComplete() const override;
  void signal();

private:
  mutable std::mutex Mutex;
  std::condition_variable CV;
  bool Complete;
};

/// An in-order queue executed by one worker thread, so that operations run in
/// submission order without blocking the submitter, and a queue waiting on an
/// event of another queue blocks only its own worker.
class HostQueue final : public Queue {
public:
  using Operation = llvm::unique_function<llvm::Error()>;

  explicit HostQueue(Device &D);
  ~HostQueue() override;

  llvm::Error synchronize() override;
  llvm::Error
  waitEvents(llvm::ArrayRef<std::shared_ptr<Event>> Events) override;
  llvm::Error enqueueHostFunction(offload_host_function_cb_t Callback,
                                  void *UserData) override;
  llvm::Expected<std::shared_ptr<Event>> recordEvent() override;
  llvm::Expected<bool> isEmpty() override;

  /// Appends \p Op; its error, if any, is reported by the next synchronize.
  void enqueue(Operation Op);

private:
  void run();

  std::mutex Mutex;
  std::condition_variable WorkAvailable;
  std::condition_variable WorkDone;
  std::deque<Operation> Pending;
  uint64_t Submitted = 0;
  uint64_t Completed = 0;
  bool Stopping = false;
  /// First error since the last synchronize.
  std::optional<llvm::Error> FirstError;
  std::thread Worker;
};

//===----------------------------------------------------------------------===//
// Programs and kernels
//===----------------------------------------------------------------------===//

/// An ELF object loaded into its own JITDylib.
class HostProgram final : public Program {
public:
  HostProgram(Device &D, llvm::orc::LLJIT &JIT, llvm::orc::JITDylib &JD,
              std::vector<std::string> KernelNames,
              llvm::StringMap<uint64_t> SymbolSizes)
      : Program(D), JIT(JIT), JD(JD), KernelNames(std::move(KernelNames)),
        SymbolSizes(std::move(SymbolSizes)) {}
  /// Removes the program's JITDylib, freeing its code and data.
  ~HostProgram() override;

  llvm::Expected<std::unique_ptr<Symbol>>
  getSymbol(llvm::StringRef Name, offload_symbol_kind_t Kind) override;

private:
  llvm::orc::LLJIT &JIT;
  llvm::orc::JITDylib &JD;
  /// Names of the kernels the object defines, for error messages.
  std::vector<std::string> KernelNames;
  /// Sizes in bytes of the object's defined global symbols (ELF st_size).
  llvm::StringMap<uint64_t> SymbolSizes;
};

/// A symbol of a host program: a kernel descriptor or a global variable.
class HostSymbol final : public Symbol {
public:
  HostSymbol(Program &P, std::string Name, offload_symbol_kind_t Kind,
             void *Address, uint64_t Size)
      : Symbol(P, std::move(Name), Kind), Address(Address), Size(Size) {}

  void *getAddress() const { return Address; }
  /// The kernel descriptor (KERNEL symbols only).
  const offload_host_kernel_descriptor_t *getDescriptor() const {
    return static_cast<const offload_host_kernel_descriptor_t *>(Address);
  }
  std::optional<uint64_t> getArgumentsSize() const override;
  std::optional<ArgumentLayout> getArgumentLayout() const override;
  uint64_t getStaticSharedBytes() const override;
  void *getGlobalAddress() const override { return Address; }
  uint64_t getGlobalSize() const override { return Size; }

  /// With OFFLOAD_TRACE=1, says once why a cooperative kernel runs on
  /// fibers.
  void traceFibers();

private:
  /// Whether traceFibers printed its line.
  std::atomic<bool> FibersTraced{false};
  /// The descriptor of a kernel, the variable of a global.
  void *Address;
  /// Size in bytes of the ELF symbol.
  uint64_t Size;
};

//===----------------------------------------------------------------------===//
// Device and plugin
//===----------------------------------------------------------------------===//

class HostDevice final : public Device {
public:
  HostDevice(HostPlugin &P);
  ~HostDevice() override;

  const DeviceInfo &getInfo() const override { return Info; }

  llvm::Expected<void *> allocate(size_t Size,
                                  offload_alloc_type_t Kind) override;
  llvm::Error free(void *Ptr, offload_alloc_type_t Kind) override;
  llvm::Error memcpy(Queue *Q, void *Dst, const void *Src,
                     size_t Size) override;
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

  /// Frees every allocation still live (at plugin deinit).
  void releaseAllocations();

private:
  HostPlugin &ThePlugin;
  DeviceInfo Info;

  struct Allocation {
    size_t Size;
    offload_alloc_type_t Kind;
  };
  std::mutex AllocationsMutex;
  std::map<void *, Allocation> Allocations;
};

class HostPlugin final : public Plugin {
public:
  HostPlugin();
  ~HostPlugin() override;

  offload_platform_backend_t getBackend() const override {
    return OFFLOAD_PLATFORM_BACKEND_HOST;
  }
  llvm::StringRef getName() const override { return "host"; }
  llvm::StringRef getVendorName() const override { return "offload"; }
  llvm::StringRef getVersion() const override;

  llvm::Error init() override;
  llvm::Error deinit() override;

  size_t getNumDevices() const override { return TheDevice ? 1 : 0; }
  Device &getDevice(size_t Index) override { return *TheDevice; }

  const HostConfig &getConfig() const { return Config; }

  /// The thread pool running blocks, created on first use.
  llvm::ThreadPoolInterface &getThreadPool();

  /// The JIT holding every program, created on first use, and the JITDylib
  /// that defines the runtime functions kernels call.
  llvm::Expected<llvm::orc::LLJIT &> getJIT();
  llvm::orc::JITDylib &getRuntimeDylib() { return *RuntimeDylib; }
  /// A fresh, unique JITDylib name for a program.
  std::string getNextDylibName();

private:
  HostConfig Config;
  std::unique_ptr<HostDevice> TheDevice;

  std::mutex PoolMutex;
  std::unique_ptr<llvm::StdThreadPool> Pool;

  std::mutex JITMutex;
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  llvm::orc::JITDylib *RuntimeDylib = nullptr;
  uint64_t NextDylibId = 0;
};

/// Runs \p Desc (named \p Name in messages) over the grid \p Size with
/// arguments \p Args on \p Pool; returns once every block ran. Defined in
/// HostLaunch.cpp.
llvm::Error launchOnHost(llvm::ThreadPoolInterface &Pool,
                         const HostConfig &Config,
                         const offload_host_kernel_descriptor_t &Desc,
                         const void *Args,
                         const offload_kernel_launch_size_args_t &Size,
                         llvm::StringRef Name);

/// Checks that \p Image is an ELF relocatable object for the host
/// architecture. Defined in HostProgram.cpp.
llvm::Error checkHostObject(llvm::StringRef Image);

} // namespace host
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTPLUGIN_H
