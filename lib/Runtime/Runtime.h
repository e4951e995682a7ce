//===- Runtime.h - State of the offload runtime -----------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The objects behind the C API's opaque handles, and the runtime state that
// exists between offloadInit and the last offloadShutDown: the platforms and
// their devices, registries of live handles (so that validation can reject a
// destroyed or garbage handle without dereferencing it), the allocation table
// and the image cache of offloadGetKernelFromImage.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_RUNTIME_H
#define OFFLOADRUNTIME_LIB_RUNTIME_H

#include "Error.h"
#include "Plugin.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

//===----------------------------------------------------------------------===//
// Handle objects
//===----------------------------------------------------------------------===//

struct offload_platform_impl_t {
  std::unique_ptr<offload::Plugin> Plugin;
  std::vector<std::unique_ptr<offload_device_impl_t>> Devices;
};

struct offload_device_impl_t {
  offload_platform_impl_t *Platform;
  offload::Device *Impl;
};

struct offload_queue_impl_t {
  offload_device_impl_t *Device;
  std::unique_ptr<offload::Queue> Impl;
};

struct offload_event_impl_t {
  offload_device_impl_t *Device;
  /// The queue the event was recorded on, for OFFLOAD_EVENT_INFO_QUEUE only:
  /// the queue may have been destroyed since.
  offload_queue_impl_t *Queue;
  std::shared_ptr<offload::Event> Impl;
};

struct offload_symbol_impl_t {
  offload_program_impl_t *Program;
  std::unique_ptr<offload::Symbol> Impl;
};

struct offload_program_impl_t {
  offload_device_impl_t *Device;
  std::unique_ptr<offload::Program> Impl;
  /// Symbols looked up so far, by (kind, name); owned by the runtime's symbol
  /// registry, released with the program.
  std::mutex SymbolsMutex;
  std::map<std::pair<int, std::string>, offload_symbol_impl_t *> Symbols;
};

namespace offload {

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

/// Whether entry points validate their arguments (OFFLOAD_DISABLE_VALIDATION
/// unset or 0). Read from the environment when the runtime is initialized.
bool isValidationEnabled();
/// Whether entry points print each call to stderr (OFFLOAD_TRACE=1).
bool isTraceEnabled();

/// Returns whether environment variable \p Name is set to a true value
/// ("1", "true", "on", "yes"; case-insensitive).
bool getEnvFlag(const char *Name);

//===----------------------------------------------------------------------===//
// Registries
//===----------------------------------------------------------------------===//

/// A thread-safe set of live handles of one kind, owning their objects.
/// Membership is checked by address only, so any value, even garbage, can be
/// tested without being dereferenced.
template <typename T> class HandleRegistry {
public:
  T *add(std::unique_ptr<T> Object) {
    T *Handle = Object.get();
    std::lock_guard<std::mutex> Lock(Mutex);
    Objects.emplace(Handle, std::move(Object));
    return Handle;
  }

  bool contains(const T *Handle) const {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Objects.count(const_cast<T *>(Handle));
  }

  /// Removes \p Handle and returns its object; null if it is not live.
  std::unique_ptr<T> take(T *Handle) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Objects.find(Handle);
    if (It == Objects.end())
      return nullptr;
    std::unique_ptr<T> Object = std::move(It->second);
    Objects.erase(It);
    return Object;
  }

  /// Removes and returns every object.
  std::vector<std::unique_ptr<T>> takeAll() {
    std::lock_guard<std::mutex> Lock(Mutex);
    std::vector<std::unique_ptr<T>> Result;
    Result.reserve(Objects.size());
    for (auto &Entry : Objects)
      Result.push_back(std::move(Entry.second));
    Objects.clear();
    return Result;
  }

private:
  mutable std::mutex Mutex;
  std::unordered_map<T *, std::unique_ptr<T>> Objects;
};

/// What the runtime knows about an allocation of offloadMemAlloc.
struct AllocationInfo {
  offload_device_impl_t *Device;
  size_t Size;
  offload_alloc_type_t Kind;
};

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

/// The state between offloadInit and the last offloadShutDown.
class Runtime {
public:
  /// The live runtime; UNINITIALIZED before offloadInit or after the last
  /// offloadShutDown.
  static llvm::Expected<Runtime &> get();
  /// Reference-counted initialization and shutdown.
  static llvm::Error init();
  static llvm::Error shutDown();

  ~Runtime();

  llvm::ArrayRef<offload_device_impl_t *> getDevices() const { return Devices; }
  /// Every platform, with or without devices, in plugin order.
  llvm::ArrayRef<std::unique_ptr<offload_platform_impl_t>>
  getPlatforms() const {
    return Platforms;
  }
  offload_device_impl_t *getHostDevice() const { return HostDevice; }

  /// Handle checks. Each returns success when validation is disabled.
  /// \p Name names the argument in the message.
  llvm::Error checkPlatform(offload_platform_handle_t Platform,
                            llvm::StringRef Name = "Platform") const;
  llvm::Error checkDevice(offload_device_handle_t Device,
                          llvm::StringRef Name = "Device") const;
  llvm::Error checkQueue(offload_queue_handle_t Queue,
                         llvm::StringRef Name = "Queue") const;
  llvm::Error checkEvent(offload_event_handle_t Event,
                         llvm::StringRef Name = "Event") const;
  llvm::Error checkProgram(offload_program_handle_t Program,
                           llvm::StringRef Name = "Program") const;
  llvm::Error checkSymbol(offload_symbol_handle_t Symbol,
                          llvm::StringRef Name = "Symbol") const;

  HandleRegistry<offload_queue_impl_t> Queues;
  HandleRegistry<offload_event_impl_t> Events;
  HandleRegistry<offload_program_impl_t> Programs;
  HandleRegistry<offload_symbol_impl_t> Symbols;

  /// Allocation table.
  void addAllocation(void *Ptr, const AllocationInfo &Info);
  /// Removes the allocation that starts at \p Ptr; INVALID_ARGUMENT if none.
  llvm::Expected<AllocationInfo> takeAllocation(void *Ptr);
  /// The allocation containing \p Ptr, if any: its start and what is known
  /// about it.
  std::optional<std::pair<void *, AllocationInfo>>
  findAllocation(const void *Ptr) const;
  /// The device owning the allocation containing \p Ptr, if any.
  offload_device_impl_t *findAllocationDevice(const void *Ptr) const;
  /// INVALID_SIZE if \p Ptr lies inside an allocation of offloadMemAlloc and
  /// [Ptr, Ptr + Size) runs past its end; \p Name and \p SizeName name the
  /// arguments.
  llvm::Error checkInAllocationBounds(const void *Ptr, size_t Size,
                                      llvm::StringRef Name,
                                      llvm::StringRef SizeName = "Size") const;

  /// Releases a program and its symbols (already taken from the registry).
  void destroyProgram(std::unique_ptr<offload_program_impl_t> Program);

  /// The program loaded from \p Image on \p Device, loading it with \p Load on
  /// first use; cached until shutdown.
  llvm::Expected<offload_program_impl_t *> getOrLoadImageProgram(
      offload_device_impl_t *Device, const void *Image,
      llvm::function_ref<llvm::Expected<offload_program_impl_t *>()> Load);

private:
  Runtime() = default;
  llvm::Error initialize();
  llvm::Error release();

  std::vector<std::unique_ptr<offload_platform_impl_t>> Platforms;
  llvm::SmallVector<offload_device_impl_t *> Devices;
  std::unordered_set<const void *> PlatformSet, DeviceSet;
  offload_device_impl_t *HostDevice = nullptr;

  mutable std::mutex AllocationsMutex;
  std::map<uintptr_t, AllocationInfo> Allocations;

  std::mutex ImageCacheMutex;
  std::map<std::pair<offload_device_impl_t *, const void *>,
           offload_program_impl_t *>
      ImageCache;
};

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_RUNTIME_H
