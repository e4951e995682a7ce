//===- Runtime.cpp - State of the offload runtime -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"
#include "Check.h"

#include "ChromeTrace.h"
#include "Profile.h"
#include "plugins/Plugins.h"

#include "OffloadSupport/Environment.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <atomic>
#include <cstdlib>

using namespace llvm;
using namespace offload;

//===----------------------------------------------------------------------===//
// Configuration
//===----------------------------------------------------------------------===//

/// The settings of the runtime and its plugins (Environment.def's runtime,
/// host and gpu components) with a value that means nothing, as an error
/// that names the variable; success when every one set is valid.
static Error checkEnvironment() {
  for (const char *Component : {"runtime", "host", "gpu"})
    if (std::string Problem = env::checkComponent(Component); !Problem.empty())
      return createError(OFFLOAD_ERRC_INVALID_VALUE, "{0}", Problem);
  if (Expected<Profile::Setting> S =
          Profile::parseSetting(env::Profile.getText().c_str());
      !S)
    return S.takeError();
  // The timeline is written at exit, like the profile's JSON.
  if (std::string Path = env::TraceFile.getText(); !Path.empty())
    if (Error E =
            Profile::checkOutputFolder("OFFLOAD_TRACE_FILE=" + Path, Path))
      return E;
  return Error::success();
}

namespace {
void reloadConfig() {
  offload::detail::ValidationEnabled = !env::DisableValidation.getFlag(false);
  offload::detail::TraceEnabled = env::Trace.getFlag(false);
}

/// Guards RefCount and the creation and destruction of the runtime.
std::mutex InitMutex;
unsigned RefCount = 0;

void bumpAllocationEpoch() {
  offload::detail::AllocationEpoch.fetch_add(1, std::memory_order_release);
}
} // namespace

// Read when the library is loaded, and again whenever the runtime goes from
// uninitialized to initialized, so a process can change them between runs.
std::atomic<bool> offload::detail::ValidationEnabled{
    !env::DisableValidation.getFlag(false)};
std::atomic<bool> offload::detail::TraceEnabled{env::Trace.getFlag(false)};
std::atomic<uint64_t> offload::detail::AllocationEpoch{1};
__thread offload::detail::RangeCache offload::detail::TheRangeCache;

//===----------------------------------------------------------------------===//
// Lifetime
//===----------------------------------------------------------------------===//

std::atomic<Runtime *> Runtime::Current{nullptr};

Error Runtime::makeUninitializedError() {
  return createError(OFFLOAD_ERRC_UNINITIALIZED,
                     "the runtime is not initialized: call offloadInit "
                     "first");
}

Error Runtime::init(ArrayRef<offload_platform_backend_t> Backends) {
  std::lock_guard<std::mutex> Lock(InitMutex);
  if (RefCount > 0) {
    ++RefCount;
    return Error::success();
  }
  if (Error E = checkEnvironment())
    return E;
  if (Error E = check::loadEnabledTools())
    return E;
  reloadConfig();
  std::unique_ptr<Runtime> RT(new Runtime());
  if (Error E = RT->initialize(Backends)) {
    consumeError(RT->release());
    return E;
  }
  Current.store(RT.release(), std::memory_order_release);
  RefCount = 1;
  return Error::success();
}

Error Runtime::shutDown() {
  std::lock_guard<std::mutex> Lock(InitMutex);
  if (RefCount == 0)
    return createError(OFFLOAD_ERRC_UNINITIALIZED,
                       "offloadShutDown without a matching offloadInit");
  if (--RefCount > 0)
    return Error::success();
  // leakcheck: what the application did not destroy, before release()
  // destroys it.
  uint64_t Leaks = check::isLeakCheckEnabled() ? check::reportLeaks(false) : 0;
  std::unique_ptr<Runtime> RT(Current.exchange(nullptr));
  Error E = RT->release();
  if (Leaks)
    E = joinErrors(std::move(E),
                   createError(OFFLOAD_ERRC_INVALID_VALUE,
                               "leakcheck: {0} object(s) still alive at "
                               "offloadShutDown (reported on stdout)",
                               Leaks));
  // Queues are drained: the timeline is complete.
  if (ChromeTrace *Trace = ChromeTrace::get())
    Trace->write();
  if (Profile *Prof = Profile::get())
    Prof->report();
  return E;
}

Runtime::~Runtime() = default;

Error Runtime::initialize(ArrayRef<offload_platform_backend_t> Backends) {
  // Plugins in platform order (plugins/Plugins.def): the host platform
  // first, so the host device is device 0, then the GPU plugins.
  for (PluginFactory Create : kPluginFactories) {
    std::unique_ptr<Plugin> P = Create();
    // offloadInitWithArgs' selection: the host platform and those listed.
    if (!Backends.empty() && P->getBackend() != OFFLOAD_PLATFORM_BACKEND_HOST &&
        !llvm::is_contained(Backends, P->getBackend()))
      continue;
    if (Error E = P->init())
      return E;
    Expected<offload_platform_handle_t> Platform =
        PlatformTable::get().create();
    if (!Platform)
      return Platform.takeError();
    Platforms.push_back(*Platform);
    PlatformObject &PO = unwrap(*Platform);
    for (size_t I = 0, N = P->getNumDevices(); I < N; ++I) {
      Expected<offload_device_handle_t> D =
          DeviceTable::get().create(DeviceObject{*Platform, &P->getDevice(I)});
      if (!D)
        return D.takeError();
      Devices.push_back(*D);
      DeviceSet.insert(*D);
      if (!HostDevice && P->getBackend() == OFFLOAD_PLATFORM_BACKEND_HOST)
        HostDevice = *D;
      PO.Devices.push_back(*D);
    }
    PO.ThePlugin = std::move(P);
  }
  if (!HostDevice)
    return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                       "the host plugin has no device");
  return Error::success();
}

Error Runtime::release() {
  // Queues first: their destructors wait for work that may still use events,
  // programs and allocations. Errors of that work have no caller left.
  for (QueueTable::Owned &Q : Queues.takeAll()) {
    consumeError(Q->Impl->synchronize());
    Q->Impl.reset();
  }
  Events.takeAll();
  {
    std::lock_guard<std::mutex> Lock(ImageCacheMutex);
    ImageCache.clear();
  }
  for (ProgramTable::Owned &P : Programs.takeAll())
    destroyProgram(std::move(P));
  // Symbols of programs destroyed above are gone; none is left.
  Symbols.takeAll();

  Error Result = Error::success();
  std::map<uintptr_t, AllocationInfo> Remaining;
  {
    std::lock_guard<std::mutex> Lock(AllocationsMutex);
    Remaining.swap(Allocations);
    bumpAllocationEpoch();
  }
  for (auto &[Address, Info] : Remaining) {
    Error E = unwrap(Info.Device)
                  .Impl->free(reinterpret_cast<void *>(Address), Info.Kind);
    Result = joinErrors(std::move(Result), std::move(E));
  }
  for (offload_platform_handle_t P : Platforms)
    if (PlatformObject &PO = unwrap(P); PO.ThePlugin)
      Result = joinErrors(std::move(Result), PO.ThePlugin->deinit());
  // Devices, then platforms (which own the plugins the devices point into).
  for (offload_device_handle_t D : Devices)
    DeviceTable::get().take(D);
  for (offload_platform_handle_t P : Platforms)
    PlatformTable::get().take(P);
  Devices.clear();
  DeviceSet.clear();
  HostDevice = nullptr;
  Platforms.clear();
  return Result;
}

//===----------------------------------------------------------------------===//
// Handle checks
//===----------------------------------------------------------------------===//

bool Runtime::isLivePlatform(const void *Platform) const {
  for (offload_platform_handle_t P : Platforms)
    if (P == Platform)
      return true;
  return false;
}

namespace {
Error checkHandle(const void *Handle, bool IsLive, StringRef Name,
                  offload_errc_t Code, StringRef What) {
  if (!Handle)
    return createError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "{0} is null", Name);
  if (!IsLive)
    return createError(Code,
                       "{0} ({1}) is not a live {2}: it was destroyed or never "
                       "created",
                       Name, formatPointer(Handle), What);
  return Error::success();
}
} // namespace

Error Runtime::checkPlatform(offload_platform_handle_t Platform,
                             StringRef Name) const {
  if (!isValidationEnabled())
    return Error::success();
  return checkHandle(Platform, isLivePlatform(Platform), Name,
                     OFFLOAD_ERRC_INVALID_PLATFORM, "platform");
}

Error Runtime::makeDeviceError(offload_device_handle_t Device,
                               StringRef Name) const {
  return checkHandle(Device, isLiveDevice(Device), Name,
                     OFFLOAD_ERRC_INVALID_DEVICE, "device");
}

Error Runtime::checkQueue(offload_queue_handle_t Queue, StringRef Name) const {
  if (!isValidationEnabled())
    return Error::success();
  return checkHandle(Queue, Queue && Queues.isLive(Queue), Name,
                     OFFLOAD_ERRC_INVALID_QUEUE, "queue");
}

Error Runtime::checkEvent(offload_event_handle_t Event, StringRef Name) const {
  if (!isValidationEnabled())
    return Error::success();
  return checkHandle(Event, Event && Events.isLive(Event), Name,
                     OFFLOAD_ERRC_INVALID_EVENT, "event");
}

Error Runtime::checkProgram(offload_program_handle_t Program,
                            StringRef Name) const {
  if (!isValidationEnabled())
    return Error::success();
  return checkHandle(Program, Program && Programs.isLive(Program), Name,
                     OFFLOAD_ERRC_INVALID_PROGRAM, "program");
}

Error Runtime::checkSymbol(offload_symbol_handle_t Symbol,
                           StringRef Name) const {
  if (!isValidationEnabled())
    return Error::success();
  return checkHandle(Symbol, Symbol && Symbols.isLive(Symbol), Name,
                     OFFLOAD_ERRC_INVALID_SYMBOL, "symbol");
}

//===----------------------------------------------------------------------===//
// Allocations, programs, image cache
//===----------------------------------------------------------------------===//

void Runtime::addAllocation(void *Ptr, const AllocationInfo &Info) {
  std::lock_guard<std::mutex> Lock(AllocationsMutex);
  Allocations[reinterpret_cast<uintptr_t>(Ptr)] = Info;
  bumpAllocationEpoch();
}

Expected<AllocationInfo> Runtime::takeAllocation(void *Ptr) {
  std::lock_guard<std::mutex> Lock(AllocationsMutex);
  auto It = Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Allocations.end())
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "Address ({0}) was not allocated by offloadMemAlloc or "
                       "was already freed",
                       formatPointer(Ptr));
  AllocationInfo Info = It->second;
  Allocations.erase(It);
  bumpAllocationEpoch();
  return Info;
}

AllocationRange Runtime::lookupAllocationLocked(uintptr_t Address) const {
  AllocationRange Range = {};
  Range.End = UINTPTR_MAX;
  auto It = Allocations.upper_bound(Address);
  if (It != Allocations.end())
    Range.End = It->first;
  if (It == Allocations.begin())
    return Range;
  --It;
  uintptr_t AllocationEnd = It->first + It->second.Size;
  if (Address - It->first < It->second.Size) {
    Range.Begin = It->first;
    Range.End = AllocationEnd;
    Range.InAllocation = true;
    Range.Info = It->second;
    return Range;
  }
  Range.Begin = AllocationEnd;
  return Range;
}

const AllocationRange &Runtime::lookupAllocation(const void *Ptr) const {
  uintptr_t Address = reinterpret_cast<uintptr_t>(Ptr);
  uint64_t Epoch = detail::AllocationEpoch.load(std::memory_order_acquire);
  for (const detail::RangeCache::Entry &E : detail::TheRangeCache.Entries)
    if (E.Epoch == Epoch && E.Range.contains(Address))
      return E.Range;
  return lookupAllocationSlow(Address);
}

Error Runtime::checkCopyInAllocationBounds(void *DstPtr, const void *SrcPtr,
                                           size_t Size) const {
  if (Error E = checkInAllocationBounds(DstPtr, Size, "DstPtr", "Size"))
    return E;
  return checkInAllocationBounds(SrcPtr, Size, "SrcPtr", "Size");
}

const AllocationRange &Runtime::lookupAllocationSlow(uintptr_t Address) const {
  detail::RangeCache &Cache = detail::TheRangeCache;
  std::lock_guard<std::mutex> Lock(AllocationsMutex);
  detail::RangeCache::Entry &E =
      Cache.Entries[Cache.Next++ % detail::RangeCache::Size];
  // Read under the lock: the range is the table's at exactly this epoch.
  E.Epoch = detail::AllocationEpoch.load(std::memory_order_relaxed);
  E.Range = lookupAllocationLocked(Address);
  return E.Range;
}

std::optional<std::pair<void *, AllocationInfo>>
Runtime::findAllocation(const void *Ptr) const {
  const AllocationRange &Range = lookupAllocation(Ptr);
  if (!Range.InAllocation)
    return std::nullopt;
  return std::make_pair(reinterpret_cast<void *>(Range.Begin), Range.Info);
}

offload_device_handle_t Runtime::findAllocationDevice(const void *Ptr) const {
  const AllocationRange &Range = lookupAllocation(Ptr);
  return Range.InAllocation ? Range.Info.Device : nullptr;
}

Error Runtime::checkMemoryOfDevice(const void *Ptr,
                                   offload_device_handle_t Device,
                                   StringRef Name, StringRef DeviceName) const {
  const AllocationRange &Range = lookupAllocation(Ptr);
  if (!Range.InAllocation || isMemoryOf(Range.Info, Device))
    return Error::success();
  StringRef Kind = Range.Info.Kind == OFFLOAD_ALLOC_TYPE_DEVICE ? "DEVICE"
                   : Range.Info.Kind == OFFLOAD_ALLOC_TYPE_HOST ? "HOST"
                                                                : "MANAGED";
  return createError(
      OFFLOAD_ERRC_INVALID_DEVICE,
      "{0} ({1}) lies in a {2} allocation of device '{3}', which is not "
      "memory of {4} ('{5}')",
      Name, formatPointer(Ptr), Kind,
      unwrap(Range.Info.Device).Impl->getInfo().Name, DeviceName,
      unwrap(Device).Impl->getInfo().Name);
}

Error Runtime::makeBoundsError(const void *Ptr, size_t Size,
                               const AllocationRange &Range, StringRef Name,
                               StringRef SizeName) const {
  uintptr_t Offset = reinterpret_cast<uintptr_t>(Ptr) - Range.Begin;
  return createError(OFFLOAD_ERRC_INVALID_SIZE,
                     "{0} + {5} ({1} bytes) runs past the end of its "
                     "allocation: {2} bytes at {3}, {0} is at offset {4}",
                     Name, Size, Range.Info.Size,
                     formatPointer(reinterpret_cast<const void *>(Range.Begin)),
                     Offset, SizeName);
}

Expected<void *> Runtime::registerHostMemory(offload_device_handle_t Device,
                                             void *Ptr, size_t Size) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Ptr), End;
  if (__builtin_add_overflow(Begin, Size, &End))
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "Ptr ({0}) + Size ({1}) wraps around the address space",
                       formatPointer(Ptr), Size);
  std::lock_guard<std::mutex> Lock(RegistrationsMutex);
  std::map<uintptr_t, Registration> &Ranges = Registrations[Device];
  // The registration starting at or before Begin, and the next one.
  auto Next = Ranges.upper_bound(Begin);
  if (Next != Ranges.begin()) {
    auto Prev = std::prev(Next);
    uintptr_t PrevEnd = Prev->first + Prev->second.Size;
    if (Begin < PrevEnd) {
      if (End > PrevEnd)
        return createError(
            OFFLOAD_ERRC_INVALID_ARGUMENT,
            "{0} bytes at Ptr ({1}) partially overlap memory already "
            "registered with the device ({2} bytes at {3}); a range inside "
            "it, or another range, may be registered",
            Size, formatPointer(Ptr), Prev->second.Size,
            formatPointer(reinterpret_cast<const void *>(Prev->first)));
      // Inside a registration: one more use of it.
      ++Prev->second.Uses[Begin];
      return static_cast<char *>(Prev->second.Pinned) + (Begin - Prev->first);
    }
  }
  if (Next != Ranges.end() && Next->first < End)
    return createError(
        OFFLOAD_ERRC_INVALID_ARGUMENT,
        "{0} bytes at Ptr ({1}) partially overlap memory already registered "
        "with the device ({2} bytes at {3}); a range inside it, or another "
        "range, may be registered",
        Size, formatPointer(Ptr), Next->second.Size,
        formatPointer(reinterpret_cast<const void *>(Next->first)));
  Expected<void *> Pinned = unwrap(Device).Impl->registerHostMemory(Ptr, Size);
  if (!Pinned)
    return Pinned.takeError();
  Registration &R = Ranges[Begin];
  R.Size = Size;
  R.Pinned = *Pinned;
  R.Uses[Begin] = 1;
  return *Pinned;
}

Error Runtime::unregisterHostMemory(offload_device_handle_t Device, void *Ptr) {
  uintptr_t Address = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> Lock(RegistrationsMutex);
  auto DeviceIt = Registrations.find(Device);
  if (DeviceIt != Registrations.end()) {
    std::map<uintptr_t, Registration> &Ranges = DeviceIt->second;
    auto Next = Ranges.upper_bound(Address);
    if (Next != Ranges.begin()) {
      auto It = std::prev(Next);
      Registration &R = It->second;
      if (Address - It->first < R.Size) {
        auto Use = R.Uses.find(Address);
        if (Use == R.Uses.end())
          return createError(
              OFFLOAD_ERRC_INVALID_ARGUMENT,
              "Ptr ({0}) lies inside memory registered with the device but is "
              "not its start ({1} bytes at {2}), nor the start of a range "
              "registered inside it",
              formatPointer(Ptr), R.Size,
              formatPointer(reinterpret_cast<const void *>(It->first)));
        if (--Use->second == 0)
          R.Uses.erase(Use);
        if (!R.Uses.empty())
          return Error::success();
        // The last use: the plugin unregisters the whole range.
        if (Error E = unwrap(Device).Impl->unregisterHostMemory(
                reinterpret_cast<void *>(It->first))) {
          // Still registered with the device: keep the use.
          R.Uses[Address] = 1;
          return E;
        }
        Ranges.erase(It);
        return Error::success();
      }
    }
  }
  return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                     "Ptr ({0}) is not memory registered with the device by "
                     "offloadMemRegister, or was already unregistered",
                     formatPointer(Ptr));
}

void Runtime::destroyProgram(ProgramTable::Owned Program) {
  {
    std::lock_guard<std::mutex> Lock(Program->SymbolsMutex);
    for (auto &Entry : Program->Symbols)
      Symbols.take(Entry.second);
    Program->Symbols.clear();
  }
  Program->Impl.reset();
}

Expected<offload_program_handle_t> Runtime::getOrLoadImageProgram(
    offload_device_handle_t Device, const void *Image,
    function_ref<Expected<offload_program_handle_t>()> Load) {
  // Loading under the lock makes concurrent first uses of one image load it
  // once; loads are rare (once per image and device) so serializing them is
  // cheap.
  std::lock_guard<std::mutex> Lock(ImageCacheMutex);
  auto Key = std::make_pair(Device, Image);
  auto It = ImageCache.find(Key);
  if (It != ImageCache.end())
    return It->second;
  Expected<offload_program_handle_t> Program = Load();
  if (!Program)
    return Program.takeError();
  ImageCache.emplace(Key, *Program);
  return *Program;
}
