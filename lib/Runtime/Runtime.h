//===- Runtime.h - State of the offload runtime -----------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The objects behind the C API's opaque handles (in the HandleTables of
// HandleTable.h, so that validation rejects a destroyed or garbage handle
// without dereferencing it, and a destroyed handle never names a later
// object), and the runtime state that exists between offloadInit and the
// last offloadShutDown: the platforms and their devices, the allocation
// table and the image cache of offloadGetKernelFromImage.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_RUNTIME_H
#define OFFLOADRUNTIME_LIB_RUNTIME_H

#include "Config.h"
#include "HandleTable.h"
#include "OffloadSupport/Error.h"
#include "Plugin.h"

#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace offload {

//===----------------------------------------------------------------------===//
// Handle objects
//===----------------------------------------------------------------------===//
//
// The C API's handle types point to incomplete structs: a handle is not a
// pointer to its object but a slot of a HandleTable with a generation
// (HandleTable.h), turned into its object by unwrap().

struct PlatformObject {
  std::unique_ptr<Plugin> ThePlugin;
  std::vector<offload_device_handle_t> Devices;
};

struct DeviceObject {
  offload_platform_handle_t Platform;
  Device *Impl;
};

struct QueueObject {
  offload_device_handle_t Device;
  std::unique_ptr<Queue> Impl;
};

struct EventObject {
  offload_device_handle_t Device;
  /// The queue the event was recorded on, for OFFLOAD_EVENT_INFO_QUEUE only:
  /// the queue may have been destroyed since.
  offload_queue_handle_t Queue;
  std::shared_ptr<Event> Impl;
};

struct SymbolObject {
  /// The program owning the symbol; it outlives the symbol.
  offload_program_handle_t Program;
  std::unique_ptr<Symbol> Impl;
};

struct ProgramObject {
  offload_device_handle_t Device;
  std::unique_ptr<Program> Impl;
  /// Symbols looked up so far, by (kind, name); destroyed with the program.
  std::mutex SymbolsMutex;
  std::map<std::pair<int, std::string>, offload_symbol_handle_t> Symbols;
};

using PlatformTable = HandleTable<PlatformObject, offload_platform_handle_t>;
using DeviceTable = HandleTable<DeviceObject, offload_device_handle_t>;
using QueueTable = HandleTable<QueueObject, offload_queue_handle_t>;
using EventTable = HandleTable<EventObject, offload_event_handle_t>;
using ProgramTable = HandleTable<ProgramObject, offload_program_handle_t>;
using SymbolTable = HandleTable<SymbolObject, offload_symbol_handle_t>;

/// The object of a live handle: one AND, no lookup.
inline PlatformObject &unwrap(offload_platform_handle_t H) {
  return PlatformTable::unwrap(H);
}
inline DeviceObject &unwrap(offload_device_handle_t H) {
  return DeviceTable::unwrap(H);
}
inline QueueObject &unwrap(offload_queue_handle_t H) {
  return QueueTable::unwrap(H);
}
inline EventObject &unwrap(offload_event_handle_t H) {
  return EventTable::unwrap(H);
}
inline ProgramObject &unwrap(offload_program_handle_t H) {
  return ProgramTable::unwrap(H);
}
inline SymbolObject &unwrap(offload_symbol_handle_t H) {
  return SymbolTable::unwrap(H);
}

//===----------------------------------------------------------------------===//
// Allocations
//===----------------------------------------------------------------------===//

/// What the runtime knows about an allocation of offloadMemAlloc.
struct AllocationInfo {
  offload_device_handle_t Device;
  size_t Size;
  offload_alloc_type_t Kind;
};

/// What the allocation table says about the addresses [Begin, End): they
/// are one allocation (InAllocation; Begin is its start) or lie in none.
struct AllocationRange {
  uintptr_t Begin;
  uintptr_t End;
  bool InAllocation;
  AllocationInfo Info;

  bool contains(uintptr_t Address) const {
    return Address - Begin < End - Begin;
  }
};

namespace detail {
/// Changes whenever an allocation table changes (of any runtime instance,
/// under its lock), so that the ranges a thread cached know they are stale.
extern std::atomic<uint64_t> AllocationEpoch;

/// The allocation ranges a thread looked up last (zero-initialized: epoch 0
/// is never valid). Plain data, so that an access needs no TLS wrapper.
struct RangeCache {
  static constexpr unsigned Size = 4;
  struct Entry {
    /// The epoch the range is valid in.
    uint64_t Epoch;
    AllocationRange Range;
  };
  Entry Entries[Size];
  unsigned Next;
};
extern __thread RangeCache TheRangeCache;
} // namespace detail

//===----------------------------------------------------------------------===//
// Runtime
//===----------------------------------------------------------------------===//

/// The state between offloadInit and the last offloadShutDown.
class Runtime {
public:
  /// The live runtime; UNINITIALIZED before offloadInit or after the last
  /// offloadShutDown.
  /// The live runtime or null, without an error.
  static Runtime *getIfInitialized() {
    return Current.load(std::memory_order_acquire);
  }
  static llvm::Expected<Runtime &> get() {
    if (Runtime *RT = Current.load(std::memory_order_acquire))
      return *RT;
    return makeUninitializedError();
  }
  /// Reference-counted initialization and shutdown. \p Backends (empty:
  /// all) selects the platforms created by the initialization that takes the
  /// count from 0 to 1; the host platform always is.
  static llvm::Error
  init(llvm::ArrayRef<offload_platform_backend_t> Backends = {});
  static llvm::Error shutDown();

  ~Runtime();

  llvm::ArrayRef<offload_device_handle_t> getDevices() const { return Devices; }
  /// Every platform, with or without devices, in plugin order.
  llvm::ArrayRef<offload_platform_handle_t> getPlatforms() const {
    return Platforms;
  }
  offload_device_handle_t getHostDevice() const { return HostDevice; }

  /// Handle checks. Each returns success when validation is disabled.
  /// \p Name names the argument in the message.
  llvm::Error checkPlatform(offload_platform_handle_t Platform,
                            llvm::StringRef Name = "Platform") const;
  llvm::Error checkDevice(offload_device_handle_t Device,
                          llvm::StringRef Name = "Device") const {
    // Inline: copies and launches check two devices each.
    if (!isValidationEnabled() || (Device && isLiveDevice(Device)))
      return llvm::Error::success();
    return makeDeviceError(Device, Name);
  }
  llvm::Error checkQueue(offload_queue_handle_t Queue,
                         llvm::StringRef Name = "Queue") const;
  llvm::Error checkEvent(offload_event_handle_t Event,
                         llvm::StringRef Name = "Event") const;
  llvm::Error checkProgram(offload_program_handle_t Program,
                           llvm::StringRef Name = "Program") const;
  llvm::Error checkSymbol(offload_symbol_handle_t Symbol,
                          llvm::StringRef Name = "Symbol") const;

  /// The objects of the handles (process-wide tables: handles of an earlier
  /// runtime stay stale).
  QueueTable &Queues = QueueTable::get();
  EventTable &Events = EventTable::get();
  ProgramTable &Programs = ProgramTable::get();
  SymbolTable &Symbols = SymbolTable::get();

  /// Allocation table. Lookups are cached per thread: the last few ranges
  /// found, valid until the table next changes (a global epoch), so the
  /// checks of a copy take no lock in the steady state.
  void addAllocation(void *Ptr, const AllocationInfo &Info);
  /// Removes the allocation that starts at \p Ptr; INVALID_ARGUMENT if none.
  llvm::Expected<AllocationInfo> takeAllocation(void *Ptr);
  /// The allocation containing \p Ptr, if any: its start and what is known
  /// about it.
  std::optional<std::pair<void *, AllocationInfo>>
  findAllocation(const void *Ptr) const;
  /// The device owning the allocation containing \p Ptr, if any.
  offload_device_handle_t findAllocationDevice(const void *Ptr) const;
  /// INVALID_SIZE if \p Ptr lies inside an allocation of offloadMemAlloc and
  /// [Ptr, Ptr + Size) runs past its end; \p Name and \p SizeName name the
  /// arguments.
  llvm::Error checkInAllocationBounds(const void *Ptr, size_t Size,
                                      llvm::StringRef Name,
                                      llvm::StringRef SizeName = "Size") const {
    const AllocationRange &Range = lookupAllocation(Ptr);
    if (!Range.InAllocation ||
        Size <=
            Range.Info.Size - (reinterpret_cast<uintptr_t>(Ptr) - Range.Begin))
      return llvm::Error::success();
    return makeBoundsError(Ptr, Size, Range, Name, SizeName);
  }
  /// checkInAllocationBounds of both sides of a copy of \p Size bytes
  /// (named DstPtr and SrcPtr).
  llvm::Error checkCopyInAllocationBounds(void *DstPtr, const void *SrcPtr,
                                          size_t Size) const;
  /// Whether both sides of a copy of \p Size bytes pass
  /// checkInAllocationBounds on what this thread's lookup cache knows, with
  /// no lock: the fast path of copies. False means "check in full", not
  /// "out of bounds".
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool isCopyInCachedBounds(const void *DstPtr,
                                                         const void *SrcPtr,
                                                         size_t Size) const {
    uintptr_t Dst = reinterpret_cast<uintptr_t>(DstPtr);
    uintptr_t Src = reinterpret_cast<uintptr_t>(SrcPtr);
    uint64_t Epoch = detail::AllocationEpoch.load(std::memory_order_acquire);
    const AllocationRange *DstRange = nullptr, *SrcRange = nullptr;
    for (const detail::RangeCache::Entry &E : detail::TheRangeCache.Entries) {
      if (E.Epoch != Epoch)
        continue;
      if (E.Range.contains(Dst))
        DstRange = &E.Range;
      if (E.Range.contains(Src))
        SrcRange = &E.Range;
      if (DstRange && SrcRange)
        break;
    }
    // Outside allocations any size passes, as in checkInAllocationBounds;
    // inside one, it must be memory the host device may name
    // (checkMemoryOfDevice).
    auto InBounds = [&](const AllocationRange *R, uintptr_t Address) {
      return R && (!R->InAllocation || (Size <= R->End - Address &&
                                        isMemoryOf(R->Info, HostDevice)));
    };
    return InBounds(DstRange, Dst) && InBounds(SrcRange, Src);
  }
  /// Whether an allocation \p Info may be named memory of \p Device in a
  /// copy: its own device's, or (HOST and MANAGED allocations, which the
  /// host can access) the host device's.
  bool isMemoryOf(const AllocationInfo &Info,
                  offload_device_handle_t Device) const {
    return Info.Device == Device ||
           (Device == HostDevice && Info.Kind != OFFLOAD_ALLOC_TYPE_DEVICE);
  }
  /// INVALID_DEVICE if \p Ptr lies in an allocation of offloadMemAlloc that
  /// is not memory of \p Device (isMemoryOf); \p Name and \p DeviceName name
  /// the arguments.
  llvm::Error checkMemoryOfDevice(const void *Ptr,
                                  offload_device_handle_t Device,
                                  llvm::StringRef Name,
                                  llvm::StringRef DeviceName) const;
  /// The range of the table around \p Address: a reference into this
  /// thread's cache, valid until its next lookup.
  const AllocationRange &lookupAllocation(const void *Address) const;

  /// offloadMemRegister of \p Size bytes at \p Ptr for \p Device, as
  /// liboffload's pinned-allocation map does it: a range inside a
  /// registration (the same range included) is one more use of it (the
  /// device's pointer for it is the registration's, offset), a range
  /// overlapping registrations otherwise is INVALID_ARGUMENT, and a new range
  /// is registered with the plugin. INVALID_SIZE if it wraps around the
  /// address space. Checked even without validation (registration is rare;
  /// the plugin is called under the registrations' lock).
  llvm::Expected<void *> registerHostMemory(offload_device_handle_t Device,
                                            void *Ptr, size_t Size);
  /// offloadMemUnregister: ends one use that starts at \p Ptr; the last use
  /// of a registration unregisters it with the plugin. INVALID_ARGUMENT if
  /// no use starts at \p Ptr.
  llvm::Error unregisterHostMemory(offload_device_handle_t Device, void *Ptr);

  /// Releases a program and its symbols (already taken from its table).
  void destroyProgram(ProgramTable::Owned Program);

  /// The program loaded from \p Image on \p Device, loading it with \p Load on
  /// first use; cached until shutdown.
  llvm::Expected<offload_program_handle_t> getOrLoadImageProgram(
      offload_device_handle_t Device, const void *Image,
      llvm::function_ref<llvm::Expected<offload_program_handle_t>()> Load);

private:
  Runtime() = default;
  static llvm::Error makeUninitializedError();

  /// The live runtime, read without a lock by every entry point.
  static std::atomic<Runtime *> Current;
  llvm::Error initialize(llvm::ArrayRef<offload_platform_backend_t> Backends);
  llvm::Error release();
  /// lookupAllocation without the cache; AllocationsMutex is held.
  AllocationRange lookupAllocationLocked(uintptr_t Address) const;
  /// A miss of lookupAllocation's cache: looks up and caches the range.
  LLVM_ATTRIBUTE_NOINLINE const AllocationRange &
  lookupAllocationSlow(uintptr_t Address) const;
  LLVM_ATTRIBUTE_ALWAYS_INLINE bool isLiveDevice(const void *Device) const {
    // A few devices: a scan beats hashing.
    if (LLVM_LIKELY(Devices.size() <= 16)) {
      for (offload_device_handle_t D : Devices)
        if (D == Device)
          return true;
      return false;
    }
    return DeviceSet.count(Device);
  }
  bool isLivePlatform(const void *Platform) const;
  llvm::Error makeDeviceError(offload_device_handle_t Device,
                              llvm::StringRef Name) const;
  llvm::Error makeBoundsError(const void *Ptr, size_t Size,
                              const AllocationRange &Range,
                              llvm::StringRef Name,
                              llvm::StringRef SizeName) const;

  llvm::SmallVector<offload_platform_handle_t> Platforms;
  llvm::SmallVector<offload_device_handle_t> Devices;
  /// The devices again, for checks when there are many.
  std::unordered_set<const void *> DeviceSet;
  offload_device_handle_t HostDevice = nullptr;

  mutable std::mutex AllocationsMutex;
  std::map<uintptr_t, AllocationInfo> Allocations;

  /// A range registered with a plugin and its uses (registrations of it or
  /// of ranges inside it).
  struct Registration {
    size_t Size;
    /// The plugin's pointer for the range's start.
    void *Pinned;
    /// Start -> number of uses that start there (each ends in the range).
    std::map<uintptr_t, unsigned> Uses;
  };
  std::mutex RegistrationsMutex;
  /// Start -> registration, per device.
  std::map<offload_device_handle_t, std::map<uintptr_t, Registration>>
      Registrations;

  std::mutex ImageCacheMutex;
  std::map<std::pair<offload_device_handle_t, const void *>,
           offload_program_handle_t>
      ImageCache;
};

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_RUNTIME_H
