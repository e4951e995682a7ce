//===- OffloadAPI.cpp - The offload runtime C API -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C entry points. Each one is a call of runEntryPoint (Trace.h) around an
// implementation function that validates the arguments (Validation.h and the
// handle checks of Runtime) and then calls the plugin interface (Plugin.h).
// llvm::Error is converted into offload_result_t only in runEntryPoint. The
// plain entry point forwards to its WithCodeLoc variant with a null location.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"

#include "ChromeTrace.h"
#include "Error.h"
#include "InitCheck.h"
#include "Plugin.h"
#include "Profile.h"
#include "Runtime.h"
#include "Trace.h"
#include "Validation.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;
using namespace offload;

//===----------------------------------------------------------------------===//
// Implementations
//===----------------------------------------------------------------------===//

namespace {

//===----------------------------------------------------------------------===//
// Info queries
//===----------------------------------------------------------------------===//

/// The bytes of an info property.
using InfoBytes = SmallVector<char, 64>;

template <typename T> InfoBytes infoValue(const T &Value) {
  const char *Begin = reinterpret_cast<const char *>(&Value);
  return InfoBytes(Begin, Begin + sizeof(T));
}

template <typename T> InfoBytes infoArray(ArrayRef<T> Values) {
  const char *Begin = reinterpret_cast<const char *>(Values.data());
  return InfoBytes(Begin, Begin + Values.size() * sizeof(T));
}

InfoBytes infoString(StringRef Value) {
  InfoBytes Bytes(Value.begin(), Value.end());
  Bytes.push_back('\0');
  return Bytes;
}

/// Where an info query puts its answer: the property into a caller buffer
/// (offloadGet*Info) or its size (offloadGet*InfoSize).
struct InfoOut {
  bool IsSizeQuery = false;
  size_t PropSize = 0;
  void *PropValue = nullptr;
  size_t *PropSizeRet = nullptr;

  static InfoOut value(size_t PropSize, void *PropValue) {
    return {false, PropSize, PropValue, nullptr};
  }
  static InfoOut size(size_t *PropSizeRet) {
    return {true, 0, nullptr, PropSizeRet};
  }

  /// Checks the output arguments (after the handle).
  Error check() const {
    if (IsSizeQuery)
      return checkNotNull(PropSizeRet, "PropSizeRet");
    if (Error E = checkNotNull(PropValue, "PropValue"))
      return E;
    return checkNotZero(PropSize, "PropSize");
  }

  /// Writes \p Bytes or their size.
  Error write(const InfoBytes &Bytes) const {
    if (IsSizeQuery) {
      *PropSizeRet = Bytes.size();
      return Error::success();
    }
    // Checked even without validation: writing past the buffer is never
    // right.
    if (PropSize < Bytes.size())
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "PropSize ({0}) is smaller than the property's size "
                         "({1} bytes)",
                         PropSize, Bytes.size());
    if (!Bytes.empty())
      std::memcpy(PropValue, Bytes.data(), Bytes.size());
    return Error::success();
  }
};

/// Runs \p Compute (an Expected<InfoBytes>() callable) and writes its answer.
template <typename ComputeFn>
Error answerInfo(const InfoOut &Out, ComputeFn &&Compute) {
  if (Error E = Out.check())
    return E;
  Expected<InfoBytes> Bytes = Compute();
  if (!Bytes)
    return Bytes.takeError();
  return Out.write(*Bytes);
}

Expected<InfoBytes>
getDeviceInfoBytes(offload_device_handle_t Device,
                   RawEnum<offload_device_info_t> PropName) {
  if (Error E =
          checkEnum(PropName, OFFLOAD_DEVICE_INFO_ARCHITECTURE, "PropName"))
    return std::move(E);
  const DeviceInfo &Info = unwrap(Device).Impl->getInfo();
  switch (PropName.get()) {
  case OFFLOAD_DEVICE_INFO_TYPE:
    return infoValue(Info.Type);
  case OFFLOAD_DEVICE_INFO_PLATFORM:
    return infoValue(
        static_cast<offload_platform_handle_t>(unwrap(Device).Platform));
  case OFFLOAD_DEVICE_INFO_NAME:
    return infoString(Info.Name);
  case OFFLOAD_DEVICE_INFO_PRODUCT_NAME:
    return infoString(Info.ProductName);
  case OFFLOAD_DEVICE_INFO_UID:
    return infoString(Info.UID);
  case OFFLOAD_DEVICE_INFO_VENDOR:
    return infoString(Info.Vendor);
  case OFFLOAD_DEVICE_INFO_DRIVER_VERSION:
    return infoString(Info.DriverVersion);
  case OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
    return infoValue(Info.MaxWorkGroupSize);
  case OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION:
    return infoValue(Info.MaxWorkGroupSizePerDimension);
  case OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE:
    return infoValue(Info.MaxWorkSize);
  case OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION:
    return infoValue(Info.MaxWorkSizePerDimension);
  case OFFLOAD_DEVICE_INFO_VENDOR_ID:
    return infoValue(Info.VendorId);
  case OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS:
    return infoValue(Info.NumComputeUnits);
  case OFFLOAD_DEVICE_INFO_MAX_CLOCK_FREQUENCY:
    return infoValue(Info.MaxClockFrequency);
  case OFFLOAD_DEVICE_INFO_MEMORY_CLOCK_RATE:
    return infoValue(Info.MemoryClockRate);
  case OFFLOAD_DEVICE_INFO_ADDRESS_BITS:
    return infoValue(Info.AddressBits);
  case OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE:
    return infoValue(Info.MaxMemAllocSize);
  case OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE:
    return infoValue(Info.GlobalMemSize);
  case OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE:
    return infoValue(Info.WorkGroupLocalMemSize);
  case OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG:
    return infoValue(Info.SingleFPConfig);
  case OFFLOAD_DEVICE_INFO_DOUBLE_FP_CONFIG:
    return infoValue(Info.DoubleFPConfig);
  case OFFLOAD_DEVICE_INFO_HALF_FP_CONFIG:
    return infoValue(Info.HalfFPConfig);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR:
    return infoValue(Info.NativeVectorWidthChar);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT:
    return infoValue(Info.NativeVectorWidthShort);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT:
    return infoValue(Info.NativeVectorWidthInt);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG:
    return infoValue(Info.NativeVectorWidthLong);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT:
    return infoValue(Info.NativeVectorWidthFloat);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE:
    return infoValue(Info.NativeVectorWidthDouble);
  case OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF:
    return infoValue(Info.NativeVectorWidthHalf);
  case OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE:
    return infoValue(Info.SubgroupSize);
  case OFFLOAD_DEVICE_INFO_ARCHITECTURE:
    return infoString(Info.Architecture);
  }
  llvm_unreachable("checked by checkEnum");
}

Error getDeviceInfo(Runtime &RT, offload_device_handle_t Device,
                    RawEnum<offload_device_info_t> PropName,
                    const InfoOut &Out) {
  if (Error E = RT.checkDevice(Device))
    return E;
  return answerInfo(Out, [&] { return getDeviceInfoBytes(Device, PropName); });
}

Expected<InfoBytes>
getPlatformInfoBytes(offload_platform_handle_t Platform,
                     RawEnum<offload_platform_info_t> PropName) {
  if (Error E = checkEnum(PropName, OFFLOAD_PLATFORM_INFO_STATUS, "PropName"))
    return std::move(E);
  const Plugin &P = *unwrap(Platform).ThePlugin;
  switch (PropName.get()) {
  case OFFLOAD_PLATFORM_INFO_NAME:
    return infoString(P.getName());
  case OFFLOAD_PLATFORM_INFO_VENDOR_NAME:
    return infoString(P.getVendorName());
  case OFFLOAD_PLATFORM_INFO_VERSION:
    return infoString(P.getVersion());
  case OFFLOAD_PLATFORM_INFO_BACKEND:
    return infoValue(P.getBackend());
  case OFFLOAD_PLATFORM_INFO_STATUS: {
    std::string Reason = P.getUnavailableReason();
    if (Reason.empty())
      Reason = std::to_string(unwrap(Platform).Devices.size()) + " device(s)";
    return infoString(Reason);
  }
  }
  llvm_unreachable("checked by checkEnum");
}

Error getPlatformInfo(Runtime &RT, offload_platform_handle_t Platform,
                      RawEnum<offload_platform_info_t> PropName,
                      const InfoOut &Out) {
  if (Error E = RT.checkPlatform(Platform))
    return E;
  return answerInfo(Out,
                    [&] { return getPlatformInfoBytes(Platform, PropName); });
}

Error getMemInfo(Runtime &RT, const void *Ptr,
                 RawEnum<offload_mem_info_t> PropName, const InfoOut &Out) {
  if (Error E = checkNotNull(Ptr, "Ptr"))
    return E;
  return answerInfo(Out, [&]() -> Expected<InfoBytes> {
    if (Error E = checkEnum(PropName, OFFLOAD_MEM_INFO_TYPE, "PropName"))
      return std::move(E);
    // Checked even without validation: there is nothing to answer from.
    std::optional<std::pair<void *, AllocationInfo>> Found =
        RT.findAllocation(Ptr);
    if (!Found)
      return createError(OFFLOAD_ERRC_NOT_FOUND,
                         "Ptr ({0}) is not inside a live allocation of "
                         "offloadMemAlloc",
                         formatPointer(Ptr));
    const AllocationInfo &Info = Found->second;
    switch (PropName.get()) {
    case OFFLOAD_MEM_INFO_DEVICE:
      return infoValue(static_cast<offload_device_handle_t>(Info.Device));
    case OFFLOAD_MEM_INFO_BASE:
      return infoValue(Found->first);
    case OFFLOAD_MEM_INFO_SIZE:
      return infoValue(Info.Size);
    case OFFLOAD_MEM_INFO_TYPE:
      return infoValue(Info.Kind);
    }
    llvm_unreachable("checked by checkEnum");
  });
}

Error getQueueInfo(Runtime &RT, offload_queue_handle_t Queue,
                   RawEnum<offload_queue_info_t> PropName, const InfoOut &Out) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  return answerInfo(Out, [&]() -> Expected<InfoBytes> {
    if (Error E = checkEnum(PropName, OFFLOAD_QUEUE_INFO_EMPTY, "PropName"))
      return std::move(E);
    switch (PropName.get()) {
    case OFFLOAD_QUEUE_INFO_DEVICE:
      return infoValue(
          static_cast<offload_device_handle_t>(unwrap(Queue).Device));
    case OFFLOAD_QUEUE_INFO_EMPTY: {
      // The size query does not need the state.
      if (Out.IsSizeQuery)
        return infoValue(false);
      Expected<bool> Empty = unwrap(Queue).Impl->isEmpty();
      if (!Empty)
        return Empty.takeError();
      return infoValue(*Empty);
    }
    }
    llvm_unreachable("checked by checkEnum");
  });
}

Error getEventInfo(Runtime &RT, offload_event_handle_t Event,
                   RawEnum<offload_event_info_t> PropName, const InfoOut &Out) {
  if (Error E = RT.checkEvent(Event))
    return E;
  return answerInfo(Out, [&]() -> Expected<InfoBytes> {
    if (Error E =
            checkEnum(PropName, OFFLOAD_EVENT_INFO_IS_COMPLETE, "PropName"))
      return std::move(E);
    switch (PropName.get()) {
    case OFFLOAD_EVENT_INFO_QUEUE:
      return infoValue(
          static_cast<offload_queue_handle_t>(unwrap(Event).Queue));
    case OFFLOAD_EVENT_INFO_IS_COMPLETE:
      return infoValue(unwrap(Event).Impl->isComplete());
    }
    llvm_unreachable("checked by checkEnum");
  });
}

/// Names of symbol kinds, for messages.
StringRef getKindName(offload_symbol_kind_t Kind) {
  return Kind == OFFLOAD_SYMBOL_KIND_KERNEL ? "a kernel" : "a global variable";
}

Expected<InfoBytes>
getSymbolInfoBytes(offload_symbol_handle_t Symbol,
                   RawEnum<offload_symbol_info_t> PropName) {
  if (Error E =
          checkEnum(PropName, OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES, "PropName"))
    return std::move(E);
  const offload::Symbol &Sym = *unwrap(Symbol).Impl;
  auto Require = [&](offload_symbol_kind_t Kind, StringRef Prop) -> Error {
    if (Sym.getKind() == Kind)
      return Error::success();
    return createError(OFFLOAD_ERRC_SYMBOL_KIND,
                       "PropName ({0}) applies to {1}, Symbol ('{2}') is {3}",
                       Prop, getKindName(Kind), Sym.getName(),
                       getKindName(Sym.getKind()));
  };
  auto Layout = [&](StringRef Prop) -> Expected<Symbol::ArgumentLayout> {
    if (Error E = Require(OFFLOAD_SYMBOL_KIND_KERNEL, Prop))
      return std::move(E);
    std::optional<Symbol::ArgumentLayout> L = Sym.getArgumentLayout();
    if (!L)
      return createError(OFFLOAD_ERRC_UNSUPPORTED, "PropName ({0}): {1}", Prop,
                         Sym.describeMissingArgumentLayout());
    return *L;
  };
  switch (PropName.get()) {
  case OFFLOAD_SYMBOL_INFO_KIND:
    return infoValue(Sym.getKind());
  case OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS:
    if (Error E = Require(OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE,
                          "GLOBAL_VARIABLE_ADDRESS"))
      return std::move(E);
    return infoValue(Sym.getGlobalAddress());
  case OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE:
    if (Error E = Require(OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE,
                          "GLOBAL_VARIABLE_SIZE"))
      return std::move(E);
    return infoValue(static_cast<size_t>(Sym.getGlobalSize()));
  case OFFLOAD_SYMBOL_INFO_NAME:
    return infoString(Sym.getName());
  case OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE: {
    if (Error E = Require(OFFLOAD_SYMBOL_KIND_KERNEL, "PACKED_ARGUMENTS_SIZE"))
      return std::move(E);
    std::optional<uint64_t> Size = Sym.getArgumentsSize();
    if (!Size)
      return createError(OFFLOAD_ERRC_UNSUPPORTED,
                         "PropName (PACKED_ARGUMENTS_SIZE): {0}",
                         Sym.describeMissingArgumentLayout());
    return infoValue(*Size);
  }
  case OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS: {
    Expected<Symbol::ArgumentLayout> L = Layout("NUM_ARGUMENTS");
    if (!L)
      return L.takeError();
    return infoValue(static_cast<uint64_t>(L->Offsets.size()));
  }
  case OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS: {
    Expected<Symbol::ArgumentLayout> L = Layout("ARGUMENT_OFFSETS");
    if (!L)
      return L.takeError();
    return infoArray(L->Offsets);
  }
  case OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES: {
    Expected<Symbol::ArgumentLayout> L = Layout("ARGUMENT_SIZES");
    if (!L)
      return L.takeError();
    return infoArray(L->Sizes);
  }
  }
  llvm_unreachable("checked by checkEnum");
}

Error getSymbolInfo(Runtime &RT, offload_symbol_handle_t Symbol,
                    RawEnum<offload_symbol_info_t> PropName,
                    const InfoOut &Out) {
  if (Error E = RT.checkSymbol(Symbol))
    return E;
  return answerInfo(Out, [&] { return getSymbolInfoBytes(Symbol, PropName); });
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

Error iterateDevices(Runtime &RT, offload_device_iterate_cb_t Callback,
                     void *UserData) {
  if (Error E = checkNotNull(Callback, "Callback"))
    return E;
  // No lock is held: the callback may call the API.
  for (offload_device_handle_t Device : RT.getDevices())
    if (!Callback(Device, UserData))
      break;
  return Error::success();
}

Error iteratePlatforms(Runtime &RT, offload_platform_iterate_cb_t Callback,
                       void *UserData) {
  if (Error E = checkNotNull(Callback, "Callback"))
    return E;
  for (offload_platform_handle_t P : RT.getPlatforms())
    if (!Callback(P, UserData))
      break;
  return Error::success();
}

Error getDevice(Runtime &RT, RawEnum<offload_platform_backend_t> RawBackend,
                uint32_t Index, offload_device_handle_t *Device) {
  if (Error E = checkNotNull(Device, "Device"))
    return E;
  if (Error E =
          checkEnum(RawBackend, OFFLOAD_PLATFORM_BACKEND_LEVEL_ZERO, "Backend"))
    return E;
  offload_platform_backend_t Backend = RawBackend.get();
  uint32_t Seen = 0;
  for (offload_device_handle_t D : RT.getDevices()) {
    if (Backend != OFFLOAD_PLATFORM_BACKEND_UNKNOWN &&
        unwrap(unwrap(D).Platform).ThePlugin->getBackend() != Backend)
      continue;
    if (Seen++ == Index) {
      *Device = D;
      return Error::success();
    }
  }
  // No device of that platform at all: say why (the plugin's status: its
  // library is missing, a stub, or sees no GPU).
  if (Seen == 0 && Backend != OFFLOAD_PLATFORM_BACKEND_UNKNOWN)
    for (offload_platform_handle_t P : RT.getPlatforms())
      if (const Plugin &TheP = *unwrap(P).ThePlugin;
          TheP.getBackend() == Backend) {
        std::string Reason = TheP.getUnavailableReason();
        if (!Reason.empty())
          return createError(OFFLOAD_ERRC_NOT_FOUND,
                             "no device with Index {0}: the {1} platform has "
                             "no devices: {2}",
                             Index, TheP.getName(), Reason);
      }
  return createError(OFFLOAD_ERRC_NOT_FOUND,
                     "no device with Index {0}: {1} device(s) of that "
                     "backend (indices from 0)",
                     Index, Seen);
}

Error getHostDevice(Runtime &RT, offload_device_handle_t *Device) {
  if (Error E = checkNotNull(Device, "Device"))
    return E;
  *Device = RT.getHostDevice();
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Error memAlloc(Runtime &RT, offload_device_handle_t Device,
               RawEnum<offload_alloc_type_t> RawType, size_t Size,
               void **AllocationOut) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(AllocationOut, "AllocationOut"))
    return E;
  // Zero bytes is no allocation, whatever the validation setting.
  if (Error E = requireNotZero(Size, "Size"))
    return E;
  if (Error E = checkEnum(RawType, OFFLOAD_ALLOC_TYPE_MANAGED, "Type"))
    return E;
  offload_alloc_type_t Type = RawType.get();
  // Checked even without validation: plugins round sizes up, and a size
  // near SIZE_MAX would wrap to a small block.
  uint64_t MaxSize = unwrap(Device).Impl->getInfo().MaxMemAllocSize;
  if (MaxSize && Size > MaxSize)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "Size ({0} bytes) exceeds the largest allocation the "
                       "device allows ({1} bytes, "
                       "OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE)",
                       Size, MaxSize);
  Expected<void *> Ptr = unwrap(Device).Impl->allocate(Size, Type);
  if (!Ptr)
    return Ptr.takeError();
  RT.addAllocation(*Ptr, {Device, Size, Type});
  check::recordCreation(
      *Ptr, check::ObjectKind::Allocation,
      llvm::formatv("of {0} bytes of {1} memory", Size,
                    Type == OFFLOAD_ALLOC_TYPE_HOST     ? "host"
                    : Type == OFFLOAD_ALLOC_TYPE_MANAGED ? "managed"
                                                         : "device")
          .str());
  if (initcheck::isTracking() && Device == RT.getHostDevice())
    initcheck::recordAllocation(*Ptr, Size, Type);
  *AllocationOut = *Ptr;
  return Error::success();
}

Error memFree(Runtime &RT, void *Address) {
  // Null is never an allocation, whatever the validation setting.
  if (Error E = requireNotNull(Address, "Address"))
    return E;
  Expected<AllocationInfo> Info = RT.takeAllocation(Address);
  if (!Info)
    return Info.takeError();
  check::recordDestruction(Address);
  if (initcheck::isTracking())
    initcheck::recordFree(Address);
  return unwrap(Info->Device).Impl->free(Address, Info->Kind);
}

/// Checks an optional queue argument: null, or a live queue.
Error checkOptionalQueue(Runtime &RT, offload_queue_handle_t Queue) {
  return Queue ? RT.checkQueue(Queue) : Error::success();
}

offload::Queue *getImpl(offload_queue_handle_t Queue) {
  return Queue ? unwrap(Queue).Impl.get() : nullptr;
}

/// What the OFFLOAD_TRACE_FILE timeline and the OFFLOAD_PROFILE summaries
/// record of one operation.
struct OperationRecord {
  ChromeTrace *Trace;
  Profile *Prof;
  std::string Name, Category, Details;
  uint64_t Track;
  Profile::Kind Kind;
  uint64_t Bytes;
  std::chrono::steady_clock::time_point Start;

  void finish() {
    auto End = std::chrono::steady_clock::now();
    if (Trace)
      Trace->record(
          Name, Category, Track, Trace->micros(Start),
          std::chrono::duration_cast<std::chrono::microseconds>(End - Start)
              .count(),
          std::move(Details));
    if (Prof)
      Prof->record(
          Kind, Name, Bytes,
          std::chrono::duration_cast<std::chrono::nanoseconds>(End - Start)
              .count());
  }
};

/// Runs \p Operation, a copy, fill or launch (\p Kind, of \p Bytes for copies
/// and fills) on \p Queue (null: synchronous), and records it on the
/// OFFLOAD_TRACE_FILE timeline and in the OFFLOAD_PROFILE summaries under
/// \p NameTwine (a kernel's name; "[memcpy Host-to-Device]", "[memset]"...).
/// On a queue it is timed by host functions enqueued before and after it,
/// which read the clock when the queue reaches them.
template <typename OperationT>
static Error traced(const Twine &NameTwine, StringRef Category,
                    offload_queue_handle_t Queue,
                    function_ref<std::string()> Details, Profile::Kind Kind,
                    uint64_t Bytes, OperationT &&Operation) {
  ChromeTrace *Trace = ChromeTrace::get();
  Profile *Prof = Profile::get();
  if (!Trace && !Prof)
    return Operation();
  // Built only when tracing or profiling: launches allocate nothing
  // otherwise.
  auto *M = new OperationRecord{Trace,
                                Prof,
                                NameTwine.str(),
                                Category.str(),
                                Trace ? Details() : std::string(),
                                Trace ? Trace->getTrack(Queue) : 0,
                                Kind,
                                Bytes,
                                {}};
  if (!Queue) {
    std::unique_ptr<OperationRecord> Owner(M);
    M->Start = std::chrono::steady_clock::now();
    Error E = Operation();
    M->finish();
    return E;
  }
  if (Error E = unwrap(Queue).Impl->enqueueHostFunction(
          [](void *P) {
            static_cast<OperationRecord *>(P)->Start =
                std::chrono::steady_clock::now();
          },
          M)) {
    delete M;
    return E;
  }
  Error E = Operation();
  if (Error End = unwrap(Queue).Impl->enqueueHostFunction(
          [](void *P) {
            std::unique_ptr<OperationRecord> M(
                static_cast<OperationRecord *>(P));
            M->finish();
          },
          M))
    return joinErrors(std::move(E), std::move(End));
  return E;
}

/// The name of a copy between memory of \p Dst and \p Src, as nsys names
/// CUDA's ("[CUDA memcpy Host-to-Device]"): the host device's memory is the
/// host side.
const char *getCopyName(Runtime &RT, offload_device_handle_t Dst,
                        offload_device_handle_t Src) {
  bool DstHost = Dst == RT.getHostDevice(), SrcHost = Src == RT.getHostDevice();
  if (SrcHost)
    return DstHost ? "[memcpy Host-to-Host]" : "[memcpy Host-to-Device]";
  return DstHost ? "[memcpy Device-to-Host]" : "[memcpy Device-to-Device]";
}

/// initcheck (InitCheck.h): a copy from \p Src (a fill when null) wrote
/// [Dst, Dst + Size), now (no queue) or when \p Queue reaches this point.
Error recordInitWrite(offload::Queue *Queue, void *Dst, const void *Src,
                      size_t Size) {
  if (!initcheck::isTracking() || !initcheck::isTracked(Dst))
    return Error::success();
  if (!Queue) {
    initcheck::recordWrite(Dst, Src, Size);
    return Error::success();
  }
  struct Write {
    void *Dst;
    const void *Src;
    size_t Size;
  };
  auto *W = new Write{Dst, Src, Size};
  if (Error E = Queue->enqueueHostFunction(
          [](void *P) {
            std::unique_ptr<Write> W(static_cast<Write *>(P));
            initcheck::recordWrite(W->Dst, W->Src, W->Size);
          },
          W)) {
    delete W;
    return E;
  }
  return Error::success();
}

/// A synchronous copy, done by the non-host side (arguments checked).
Error copyNow(Runtime &RT, void *DstPtr, offload_device_handle_t DstDevice,
              const void *SrcPtr, offload_device_handle_t SrcDevice,
              size_t Size) {
  offload_device_handle_t Executor =
      DstDevice != RT.getHostDevice() ? DstDevice : SrcDevice;
  return traced(
      getCopyName(RT, DstDevice, SrcDevice), "copy", nullptr,
      [&] { return std::to_string(Size) + " bytes"; }, Profile::Kind::Memory,
      Size,
      [&] {
        return unwrap(Executor).Impl->memcpy(nullptr, DstPtr, SrcPtr, Size);
      });
}

Error memcpy(Runtime &RT, offload_queue_handle_t Queue, void *DstPtr,
             offload_device_handle_t DstDevice, const void *SrcPtr,
             offload_device_handle_t SrcDevice, size_t Size) {
  if (Error E = checkOptionalQueue(RT, Queue))
    return E;
  if (Error E = checkNotNull(DstPtr, "DstPtr"))
    return E;
  if (Error E = RT.checkDevice(DstDevice, "DstDevice"))
    return E;
  if (Error E = checkNotNull(SrcPtr, "SrcPtr"))
    return E;
  if (Error E = RT.checkDevice(SrcDevice, "SrcDevice"))
    return E;
  if (isValidationEnabled() && Queue && unwrap(Queue).Device != DstDevice &&
      unwrap(Queue).Device != SrcDevice)
    return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                       "Queue belongs to a device that is neither DstDevice "
                       "nor SrcDevice");
  // liboffload 22: copying zero bytes is a no-op, with or without a queue
  // (nothing is enqueued).
  if (Size == 0)
    return Error::success();
  if (isValidationEnabled()) {
    if (Error E = RT.checkCopyInAllocationBounds(DstPtr, SrcPtr, Size))
      return E;
    if (Error E =
            RT.checkMemoryOfDevice(DstPtr, DstDevice, "DstPtr", "DstDevice"))
      return E;
    if (Error E =
            RT.checkMemoryOfDevice(SrcPtr, SrcDevice, "SrcPtr", "SrcDevice"))
      return E;
  }
  if (!Queue) {
    if (Error E = copyNow(RT, DstPtr, DstDevice, SrcPtr, SrcDevice, Size))
      return E;
    return recordInitWrite(nullptr, DstPtr, SrcPtr, Size);
  }
  if (Error E = traced(
          getCopyName(RT, DstDevice, SrcDevice), "copy", Queue,
          [&] { return std::to_string(Size) + " bytes"; },
          Profile::Kind::Memory, Size, [&] {
            return unwrap(unwrap(Queue).Device)
                .Impl->memcpy(getImpl(Queue), DstPtr, SrcPtr, Size);
          }))
    return E;
  return recordInitWrite(getImpl(Queue), DstPtr, SrcPtr, Size);
}

Error memFill(Runtime &RT, offload_queue_handle_t Queue, void *Ptr,
              size_t PatternSize, const void *PatternPtr, size_t FillSize) {
  if (Error E = checkOptionalQueue(RT, Queue))
    return E;
  if (Error E = checkNotNull(Ptr, "Ptr"))
    return E;
  // Checked even without validation: a fill cannot progress without a
  // pattern.
  if (PatternSize == 0)
    return createError(OFFLOAD_ERRC_INVALID_SIZE, "PatternSize is zero");
  if (Error E = checkNotNull(PatternPtr, "PatternPtr"))
    return E;
  // A fill of zero bytes is refused whatever the validation setting.
  if (Error E = requireNotZero(FillSize, "FillSize"))
    return E;
  if (isValidationEnabled() && FillSize % PatternSize != 0)
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "FillSize ({0}) is not a multiple of PatternSize ({1})",
                       FillSize, PatternSize);
  offload_device_handle_t Owner = RT.findAllocationDevice(Ptr);
  if (isValidationEnabled()) {
    if (Error E = RT.checkInAllocationBounds(Ptr, FillSize, "Ptr", "FillSize"))
      return E;
    if (Queue && Owner && Owner != unwrap(Queue).Device)
      return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                         "Ptr is an allocation of another device than "
                         "Queue's");
  }
  offload_device_handle_t Device = Queue ? unwrap(Queue).Device : Owner;
  if (!Device)
    Device = RT.getHostDevice();
  ArrayRef<uint8_t> Pattern(static_cast<const uint8_t *>(PatternPtr),
                            PatternSize);
  if (Error E = traced(
          "[memset]", "copy", Queue,
          [&] { return std::to_string(FillSize) + " bytes"; },
          Profile::Kind::Memory, FillSize, [&] {
            return unwrap(Device).Impl->fill(getImpl(Queue), Ptr, Pattern,
                                             FillSize);
          }))
    return E;
  return recordInitWrite(getImpl(Queue), Ptr, nullptr, FillSize);
}

Error memRegister(Runtime &RT, offload_device_handle_t Device, void *Ptr,
                  size_t Size, offload_memory_register_flags_t Flags,
                  void **PinnedPtr) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(Ptr, "Ptr"))
    return E;
  // Zero bytes is no range, whatever the validation setting.
  if (Error E = requireNotZero(Size, "Size"))
    return E;
  if (isValidationEnabled() && Flags != 0)
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "Flags ({0:x}) is reserved and must be 0", Flags);
  if (Error E = checkNotNull(PinnedPtr, "PinnedPtr"))
    return E;
  Expected<void *> Pinned = RT.registerHostMemory(Device, Ptr, Size);
  if (!Pinned)
    return Pinned.takeError();
  *PinnedPtr = *Pinned;
  return Error::success();
}

Error memUnregister(Runtime &RT, offload_device_handle_t Device, void *Ptr) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(Ptr, "Ptr"))
    return E;
  return RT.unregisterHostMemory(Device, Ptr);
}

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

Error createQueue(Runtime &RT, offload_device_handle_t Device,
                  offload_queue_handle_t *Queue) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(Queue, "Queue"))
    return E;
  Expected<std::unique_ptr<offload::Queue>> Q =
      unwrap(Device).Impl->createQueue();
  if (!Q)
    return Q.takeError();
  Expected<offload_queue_handle_t> Handle =
      RT.Queues.create(QueueObject{Device, std::move(*Q)});
  if (!Handle)
    return Handle.takeError();
  check::recordCreation(*Handle, check::ObjectKind::Queue, "(a queue)");
  *Queue = *Handle;
  return Error::success();
}

Error syncQueue(Runtime &RT, offload_queue_handle_t Queue) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  return unwrap(Queue).Impl->synchronize();
}

Error waitEvents(Runtime &RT, offload_queue_handle_t Queue,
                 offload_event_handle_t *Events, size_t NumEvents) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  if (NumEvents == 0)
    return Error::success();
  if (Error E = checkNotNull(Events, "Events"))
    return E;
  SmallVector<std::shared_ptr<offload::Event>> Waited;
  for (size_t I = 0; I < NumEvents; ++I) {
    if (Error E = RT.checkEvent(Events[I], ("Events[" + Twine(I) + "]").str()))
      return E;
    Waited.push_back(unwrap(Events[I]).Impl);
  }
  return unwrap(Queue).Impl->waitEvents(Waited);
}

Error destroyQueue(Runtime &RT, offload_queue_handle_t Queue) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  QueueTable::Owned Q = RT.Queues.take(Queue);
  if (!Q)
    return createError(OFFLOAD_ERRC_INVALID_QUEUE,
                       "Queue ({0}) is not a live queue: it was destroyed or "
                       "never created",
                       formatPointer(Queue));
  check::recordDestruction(Queue);
  // The queue is destroyed even if its work failed; the failure is reported.
  Error E = Q->Impl->synchronize();
  Q.reset();
  return E;
}

Error launchHostFunction(Runtime &RT, offload_queue_handle_t Queue,
                         offload_host_function_cb_t Callback, void *UserData) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  if (Error E = checkNotNull(Callback, "Callback"))
    return E;
  return unwrap(Queue).Impl->enqueueHostFunction(Callback, UserData);
}

Error createEvent(Runtime &RT, offload_queue_handle_t Queue,
                  offload_event_handle_t *Event) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  if (Error E = checkNotNull(Event, "Event"))
    return E;
  Expected<std::shared_ptr<offload::Event>> Ev =
      unwrap(Queue).Impl->recordEvent();
  if (!Ev)
    return Ev.takeError();
  Expected<offload_event_handle_t> Handle = RT.Events.create(
      EventObject{unwrap(Queue).Device, Queue, std::move(*Ev)});
  if (!Handle)
    return Handle.takeError();
  check::recordCreation(*Handle, check::ObjectKind::Event, "(an event)");
  *Event = *Handle;
  return Error::success();
}

Error syncEvent(Runtime &RT, offload_event_handle_t Event) {
  if (Error E = RT.checkEvent(Event))
    return E;
  return unwrap(Event).Impl->synchronize();
}

Error getEventElapsedTime(Runtime &RT, offload_event_handle_t Start,
                          offload_event_handle_t End, float *ElapsedMs) {
  if (Error E = RT.checkEvent(Start, "Start"))
    return E;
  if (Error E = RT.checkEvent(End, "End"))
    return E;
  if (Error E = requireNotNull(ElapsedMs, "ElapsedMs"))
    return E;
  EventObject &S = unwrap(Start), &En = unwrap(End);
  // Checked even without validation: the plugin compares clocks of one
  // device only.
  if (S.Device != En.Device)
    return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                       "Start ({0}) and End ({1}) were recorded on queues of "
                       "different devices",
                       formatPointer(Start), formatPointer(End));
  if (!S.Impl->isComplete())
    return createError(OFFLOAD_ERRC_NOT_READY,
                       "Start ({0}) is not complete yet", formatPointer(Start));
  if (!En.Impl->isComplete())
    return createError(OFFLOAD_ERRC_NOT_READY, "End ({0}) is not complete yet",
                       formatPointer(End));
  Expected<float> Ms = En.Impl->elapsedMillisSince(*S.Impl);
  if (!Ms)
    return Ms.takeError();
  *ElapsedMs = *Ms;
  return Error::success();
}

Error destroyEvent(Runtime &RT, offload_event_handle_t Event) {
  if (Error E = RT.checkEvent(Event))
    return E;
  if (!RT.Events.take(Event))
    return createError(OFFLOAD_ERRC_INVALID_EVENT,
                       "Event ({0}) is not a live event: it was destroyed or "
                       "never created",
                       formatPointer(Event));
  check::recordDestruction(Event);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Programs, symbols and launch
//===----------------------------------------------------------------------===//

/// Loads \p ProgData (\p ProgDataSize bytes, named \p SizeName) on
/// \p Device.
Expected<offload_program_handle_t>
loadProgram(Runtime &RT, offload_device_handle_t Device, const void *ProgData,
            size_t ProgDataSize, StringRef SizeName) {
  // liboffload's answer, whatever the validation setting: an empty image is
  // no binary.
  if (ProgDataSize == 0)
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "{0} is zero: an empty image is not a binary", SizeName);
  Expected<std::unique_ptr<offload::Program>> P =
      unwrap(Device).Impl->loadProgram(
          StringRef(static_cast<const char *>(ProgData), ProgDataSize));
  if (!P)
    return P.takeError();
  Expected<offload_program_handle_t> Handle = RT.Programs.create();
  if (!Handle)
    return Handle.takeError();
  ProgramObject &Object = unwrap(*Handle);
  Object.Device = Device;
  Object.Impl = std::move(*P);
  return *Handle;
}

Error createProgram(Runtime &RT, offload_device_handle_t Device,
                    const void *ProgData, size_t ProgDataSize,
                    offload_program_handle_t *Program) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(ProgData, "ProgData"))
    return E;
  if (Error E = checkNotNull(Program, "Program"))
    return E;
  Expected<offload_program_handle_t> P =
      loadProgram(RT, Device, ProgData, ProgDataSize, "ProgDataSize");
  if (!P)
    return P.takeError();
  check::recordCreation(
      *P, check::ObjectKind::Program,
      llvm::formatv("(an image of {0} bytes)", ProgDataSize).str());
  *Program = *P;
  return Error::success();
}

Error isValidBinary(Runtime &RT, offload_device_handle_t Device,
                    const void *ProgData, size_t ProgDataSize, bool *Valid) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(ProgData, "ProgData"))
    return E;
  if (Error E = checkNotNull(Valid, "Valid"))
    return E;
  *Valid = ProgDataSize != 0 &&
           unwrap(Device).Impl->isValidBinary(
               StringRef(static_cast<const char *>(ProgData), ProgDataSize));
  return Error::success();
}

Error destroyProgram(Runtime &RT, offload_program_handle_t Program) {
  if (Error E = RT.checkProgram(Program))
    return E;
  ProgramTable::Owned P = RT.Programs.take(Program);
  if (!P)
    return createError(OFFLOAD_ERRC_INVALID_PROGRAM,
                       "Program ({0}) is not a live program: it was destroyed "
                       "or never created",
                       formatPointer(Program));
  check::recordDestruction(Program);
  RT.destroyProgram(std::move(P));
  return Error::success();
}

/// Returns the symbol \p Name of kind \p Kind of \p Program, looking it up on
/// first use.
Expected<offload_symbol_handle_t> lookupSymbol(Runtime &RT,
                                               offload_program_handle_t Program,
                                               StringRef Name,
                                               offload_symbol_kind_t Kind) {
  ProgramObject &Object = unwrap(Program);
  std::lock_guard<std::mutex> Lock(Object.SymbolsMutex);
  auto Key = std::make_pair(int(Kind), Name.str());
  auto It = Object.Symbols.find(Key);
  if (It != Object.Symbols.end())
    return It->second;
  Expected<std::unique_ptr<offload::Symbol>> S =
      Object.Impl->getSymbol(Name, Kind);
  if (!S)
    return S.takeError();
  Expected<offload_symbol_handle_t> Handle =
      RT.Symbols.create(SymbolObject{Program, std::move(*S)});
  if (!Handle)
    return Handle.takeError();
  Object.Symbols.emplace(std::move(Key), *Handle);
  return *Handle;
}

Error getSymbol(Runtime &RT, offload_program_handle_t Program, const char *Name,
                RawEnum<offload_symbol_kind_t> Kind,
                offload_symbol_handle_t *Symbol) {
  if (Error E = RT.checkProgram(Program))
    return E;
  if (Error E = checkNotNull(Name, "Name"))
    return E;
  if (Error E = checkNotNull(Symbol, "Symbol"))
    return E;
  if (Error E = checkEnum(Kind, OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, "Kind"))
    return E;
  Expected<offload_symbol_handle_t> S =
      lookupSymbol(RT, Program, Name, Kind.get());
  if (!S)
    return S.takeError();
  *Symbol = *S;
  return Error::success();
}

/// With validation: \p Kernel is a kernel loaded on \p Device.
Error checkKernel(offload_symbol_handle_t Kernel,
                  offload_device_handle_t Device) {
  if (!isValidationEnabled())
    return Error::success();
  const offload::Symbol &Sym = *unwrap(Kernel).Impl;
  if (Sym.getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return createError(OFFLOAD_ERRC_SYMBOL_KIND,
                       "Kernel ('{0}') is a global variable, not a kernel",
                       Sym.getName());
  if (unwrap(unwrap(Kernel).Program).Device != Device)
    return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                       "Kernel ('{0}') was loaded on another device than "
                       "Device",
                       Sym.getName());
  return Error::success();
}

Error calculateOptimalOccupancy(Runtime &RT, offload_device_handle_t Device,
                                offload_symbol_handle_t Kernel,
                                size_t SharedMemory, size_t *GroupSize) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = RT.checkSymbol(Kernel, "Kernel"))
    return E;
  if (Error E = checkNotNull(GroupSize, "GroupSize"))
    return E;
  if (Error E = checkKernel(Kernel, Device))
    return E;
  Expected<uint64_t> Size = unwrap(Device).Impl->getOptimalGroupSize(
      *unwrap(Kernel).Impl, SharedMemory);
  if (!Size)
    return Size.takeError();
  *GroupSize = static_cast<size_t>(*Size);
  return Error::success();
}

Error launchKernel(Runtime &RT, offload_queue_handle_t Queue,
                   offload_device_handle_t Device,
                   offload_symbol_handle_t Kernel, const void *ArgumentsData,
                   size_t ArgumentsSize,
                   const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  if (Error E = checkOptionalQueue(RT, Queue))
    return E;
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = RT.checkSymbol(Kernel, "Kernel"))
    return E;
  if (Error E = checkNotNull(LaunchSizeArgs, "LaunchSizeArgs"))
    return E;
  offload::Symbol &Sym = *unwrap(Kernel).Impl;
  if (isValidationEnabled()) {
    if (ArgumentsSize && !ArgumentsData)
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentsData is null but ArgumentsSize is {0}",
                         ArgumentsSize);
    if (Queue && unwrap(Queue).Device != Device)
      return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                         "Queue belongs to another device than Device");
    if (Error E = checkKernel(Kernel, Device))
      return E;
    if (Error E = checkLaunchSize(
            *LaunchSizeArgs, unwrap(Device).Impl->getInfo(), Sym.getName()))
      return E;
    std::optional<uint64_t> Expected = Sym.getArgumentsSize();
    std::optional<uint64_t> Min = Sym.getMinArgumentsSize();
    if (Expected && Min && *Min != *Expected &&
        (ArgumentsSize < *Min || ArgumentsSize > *Expected))
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentsSize ({0}) does not match the size of the "
                         "argument buffer of kernel '{1}' ({2} bytes of "
                         "parameters, {3} with a struct's tail padding)",
                         ArgumentsSize, Sym.getName(), *Min, *Expected);
    if (Expected && (!Min || *Min == *Expected) && *Expected != ArgumentsSize)
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentsSize ({0}) does not match the size of the "
                         "argument buffer of kernel '{1}' ({2})",
                         ArgumentsSize, Sym.getName(), *Expected);
  }
  ArrayRef<uint8_t> Args(static_cast<const uint8_t *>(ArgumentsData),
                         ArgumentsSize);
  return traced(
      Sym.getName(), "kernel", Queue,
      [&] {
        const offload_kernel_launch_size_args_t &L = *LaunchSizeArgs;
        return llvm::formatv("grid ({0},{1},{2}) block ({3},{4},{5})",
                             L.NumGroups.x, L.NumGroups.y, L.NumGroups.z,
                             L.GroupSize.x, L.GroupSize.y, L.GroupSize.z)
            .str();
      },
      Profile::Kind::Kernel, 0,
      [&] {
        return unwrap(Device).Impl->launchKernel(getImpl(Queue), Sym, Args,
                                                 *LaunchSizeArgs);
      });
}

Error getKernelFromImage(Runtime &RT, offload_device_handle_t Device,
                         const void *Image, size_t ImageSize,
                         const char *KernelName,
                         offload_symbol_handle_t *Kernel) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(Image, "Image"))
    return E;
  if (Error E = checkNotNull(KernelName, "KernelName"))
    return E;
  if (Error E = checkNotNull(Kernel, "Kernel"))
    return E;
  Expected<offload_program_handle_t> Program =
      RT.getOrLoadImageProgram(Device, Image, [&] {
        return loadProgram(RT, Device, Image, ImageSize, "ImageSize");
      });
  if (!Program)
    return Program.takeError();
  Expected<offload_symbol_handle_t> S =
      lookupSymbol(RT, *Program, KernelName, OFFLOAD_SYMBOL_KIND_KERNEL);
  if (!S)
    return S.takeError();
  *Kernel = *S;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Entry points taking enum arguments
//===----------------------------------------------------------------------===//
//
// Shared by the plain and WithCodeLoc entry points. Enum arguments arrive as
// RawEnum: a C caller may pass any value, and passing or loading an enum
// object outside its enumerators' range is undefined behaviour in C++.

offload_result_t
getPlatformInfoEntry(offload_platform_handle_t Platform,
                     RawEnum<offload_platform_info_t> RawPropName,
                     size_t PropSize, void *PropValue,
                     const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetPlatformInfo", CodeLocation,
      [&](Runtime &RT) {
        return getPlatformInfo(RT, Platform, RawPropName,
                               InfoOut::value(PropSize, PropValue));
      },
      "Platform", Platform, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t
getPlatformInfoSizeEntry(offload_platform_handle_t Platform,
                         RawEnum<offload_platform_info_t> RawPropName,
                         size_t *PropSizeRet,
                         const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetPlatformInfoSize", CodeLocation,
      [&](Runtime &RT) {
        return getPlatformInfo(RT, Platform, RawPropName,
                               InfoOut::size(PropSizeRet));
      },
      "Platform", Platform, "PropName", RawPropName, "PropSizeRet",
      PropSizeRet);
}

offload_result_t
getDeviceInfoEntry(offload_device_handle_t Device,
                   RawEnum<offload_device_info_t> RawPropName, size_t PropSize,
                   void *PropValue,
                   const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetDeviceInfo", CodeLocation,
      [&](Runtime &RT) {
        return getDeviceInfo(RT, Device, RawPropName,
                             InfoOut::value(PropSize, PropValue));
      },
      "Device", Device, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t getDeviceInfoSizeEntry(
    offload_device_handle_t Device, RawEnum<offload_device_info_t> RawPropName,
    size_t *PropSizeRet, const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetDeviceInfoSize", CodeLocation,
      [&](Runtime &RT) {
        return getDeviceInfo(RT, Device, RawPropName,
                             InfoOut::size(PropSizeRet));
      },
      "Device", Device, "PropName", RawPropName, "PropSizeRet", PropSizeRet);
}

offload_result_t memAllocEntry(offload_device_handle_t Device,
                               RawEnum<offload_alloc_type_t> RawType,
                               size_t Size, void **AllocationOut,
                               const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadMemAlloc", CodeLocation,
      [&](Runtime &RT) {
        return memAlloc(RT, Device, RawType, Size, AllocationOut);
      },
      "Device", Device, "Type", RawType, "Size", Size, "AllocationOut",
      AllocationOut);
}

offload_result_t getMemInfoEntry(const void *Ptr,
                                 RawEnum<offload_mem_info_t> RawPropName,
                                 size_t PropSize, void *PropValue,
                                 const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetMemInfo", CodeLocation,
      [&](Runtime &RT) {
        return getMemInfo(RT, Ptr, RawPropName,
                          InfoOut::value(PropSize, PropValue));
      },
      "Ptr", Ptr, "PropName", RawPropName, "PropSize", PropSize, "PropValue",
      PropValue);
}

offload_result_t
getMemInfoSizeEntry(const void *Ptr, RawEnum<offload_mem_info_t> RawPropName,
                    size_t *PropSizeRet,
                    const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetMemInfoSize", CodeLocation,
      [&](Runtime &RT) {
        return getMemInfo(RT, Ptr, RawPropName, InfoOut::size(PropSizeRet));
      },
      "Ptr", Ptr, "PropName", RawPropName, "PropSizeRet", PropSizeRet);
}

offload_result_t
getQueueInfoEntry(offload_queue_handle_t Queue,
                  RawEnum<offload_queue_info_t> RawPropName, size_t PropSize,
                  void *PropValue,
                  const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetQueueInfo", CodeLocation,
      [&](Runtime &RT) {
        return getQueueInfo(RT, Queue, RawPropName,
                            InfoOut::value(PropSize, PropValue));
      },
      "Queue", Queue, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t getQueueInfoSizeEntry(
    offload_queue_handle_t Queue, RawEnum<offload_queue_info_t> RawPropName,
    size_t *PropSizeRet, const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetQueueInfoSize", CodeLocation,
      [&](Runtime &RT) {
        return getQueueInfo(RT, Queue, RawPropName, InfoOut::size(PropSizeRet));
      },
      "Queue", Queue, "PropName", RawPropName, "PropSizeRet", PropSizeRet);
}

offload_result_t
getEventInfoEntry(offload_event_handle_t Event,
                  RawEnum<offload_event_info_t> RawPropName, size_t PropSize,
                  void *PropValue,
                  const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetEventInfo", CodeLocation,
      [&](Runtime &RT) {
        return getEventInfo(RT, Event, RawPropName,
                            InfoOut::value(PropSize, PropValue));
      },
      "Event", Event, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t getEventInfoSizeEntry(
    offload_event_handle_t Event, RawEnum<offload_event_info_t> RawPropName,
    size_t *PropSizeRet, const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetEventInfoSize", CodeLocation,
      [&](Runtime &RT) {
        return getEventInfo(RT, Event, RawPropName, InfoOut::size(PropSizeRet));
      },
      "Event", Event, "PropName", RawPropName, "PropSizeRet", PropSizeRet);
}

offload_result_t getSymbolEntry(offload_program_handle_t Program,
                                const char *Name,
                                RawEnum<offload_symbol_kind_t> RawKind,
                                offload_symbol_handle_t *Symbol,
                                const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetSymbol", CodeLocation,
      [&](Runtime &RT) {
        return getSymbol(RT, Program, Name, RawKind, Symbol);
      },
      "Program", Program, "Name", Name, "Kind", RawKind, "Symbol", Symbol);
}

offload_result_t
getSymbolInfoEntry(offload_symbol_handle_t Symbol,
                   RawEnum<offload_symbol_info_t> RawPropName, size_t PropSize,
                   void *PropValue,
                   const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetSymbolInfo", CodeLocation,
      [&](Runtime &RT) {
        return getSymbolInfo(RT, Symbol, RawPropName,
                             InfoOut::value(PropSize, PropValue));
      },
      "Symbol", Symbol, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t getSymbolInfoSizeEntry(
    offload_symbol_handle_t Symbol, RawEnum<offload_symbol_info_t> RawPropName,
    size_t *PropSizeRet, const offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetSymbolInfoSize", CodeLocation,
      [&](Runtime &RT) {
        return getSymbolInfo(RT, Symbol, RawPropName,
                             InfoOut::size(PropSizeRet));
      },
      "Symbol", Symbol, "PropName", RawPropName, "PropSizeRet", PropSizeRet);
}

} // namespace

//===----------------------------------------------------------------------===//
// C entry points
//===----------------------------------------------------------------------===//

const char *offloadErrcName(offload_errc_t Code) {
  switch (rawEnum(Code).Value) {
#define OFFLOAD_ERRC_CASE(NAME)                                                \
  case OFFLOAD_ERRC_##NAME:                                                    \
    return "OFFLOAD_ERRC_" #NAME;
    OFFLOAD_ERRC_CASE(SUCCESS)
    OFFLOAD_ERRC_CASE(UNKNOWN)
    OFFLOAD_ERRC_CASE(HOST_IO)
    OFFLOAD_ERRC_CASE(INVALID_BINARY)
    OFFLOAD_ERRC_CASE(INVALID_NULL_POINTER)
    OFFLOAD_ERRC_CASE(INVALID_ARGUMENT)
    OFFLOAD_ERRC_CASE(NOT_FOUND)
    OFFLOAD_ERRC_CASE(OUT_OF_RESOURCES)
    OFFLOAD_ERRC_CASE(INVALID_SIZE)
    OFFLOAD_ERRC_CASE(INVALID_ENUMERATION)
    OFFLOAD_ERRC_CASE(HOST_TOOL_NOT_FOUND)
    OFFLOAD_ERRC_CASE(INVALID_VALUE)
    OFFLOAD_ERRC_CASE(UNIMPLEMENTED)
    OFFLOAD_ERRC_CASE(UNSUPPORTED)
    OFFLOAD_ERRC_CASE(ASSEMBLE_FAILURE)
    OFFLOAD_ERRC_CASE(COMPILE_FAILURE)
    OFFLOAD_ERRC_CASE(LINK_FAILURE)
    OFFLOAD_ERRC_CASE(BACKEND_FAILURE)
    OFFLOAD_ERRC_CASE(UNINITIALIZED)
    OFFLOAD_ERRC_CASE(INVALID_NULL_HANDLE)
    OFFLOAD_ERRC_CASE(INVALID_PLATFORM)
    OFFLOAD_ERRC_CASE(INVALID_DEVICE)
    OFFLOAD_ERRC_CASE(INVALID_QUEUE)
    OFFLOAD_ERRC_CASE(INVALID_EVENT)
    OFFLOAD_ERRC_CASE(SYMBOL_KIND)
    OFFLOAD_ERRC_CASE(INVALID_PROGRAM)
    OFFLOAD_ERRC_CASE(INVALID_SYMBOL)
    OFFLOAD_ERRC_CASE(NOT_READY)
#undef OFFLOAD_ERRC_CASE
  }
  return "OFFLOAD_ERRC_<invalid>";
}

offload_result_t offloadInit(void) { return offloadInitWithCodeLoc(nullptr); }

offload_result_t offloadInitWithCodeLoc(offload_code_location_t *CodeLocation) {
  return runEntryPoint("offloadInit", CodeLocation,
                       [] { return Runtime::init(); });
}

offload_result_t offloadShutDown(void) {
  return offloadShutDownWithCodeLoc(nullptr);
}

offload_result_t
offloadShutDownWithCodeLoc(offload_code_location_t *CodeLocation) {
  return runEntryPoint("offloadShutDown", CodeLocation,
                       [] { return Runtime::shutDown(); });
}

offload_result_t offloadGetPlatformInfo(offload_platform_handle_t Platform,
                                        offload_platform_info_t PropName,
                                        size_t PropSize, void *PropValue) {
  return getPlatformInfoEntry(Platform, rawEnum(PropName), PropSize, PropValue,
                              nullptr);
}

offload_result_t offloadGetPlatformInfoWithCodeLoc(
    offload_platform_handle_t Platform, offload_platform_info_t PropName,
    size_t PropSize, void *PropValue, offload_code_location_t *CodeLocation) {
  return getPlatformInfoEntry(Platform, rawEnum(PropName), PropSize, PropValue,
                              CodeLocation);
}

offload_result_t offloadGetPlatformInfoSize(offload_platform_handle_t Platform,
                                            offload_platform_info_t PropName,
                                            size_t *PropSizeRet) {
  return getPlatformInfoSizeEntry(Platform, rawEnum(PropName), PropSizeRet,
                                  nullptr);
}

offload_result_t offloadGetPlatformInfoSizeWithCodeLoc(
    offload_platform_handle_t Platform, offload_platform_info_t PropName,
    size_t *PropSizeRet, offload_code_location_t *CodeLocation) {
  return getPlatformInfoSizeEntry(Platform, rawEnum(PropName), PropSizeRet,
                                  CodeLocation);
}

offload_result_t offloadIterateDevices(offload_device_iterate_cb_t Callback,
                                       void *UserData) {
  return offloadIterateDevicesWithCodeLoc(Callback, UserData, nullptr);
}

offload_result_t
offloadIterateDevicesWithCodeLoc(offload_device_iterate_cb_t Callback,
                                 void *UserData,
                                 offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadIterateDevices", CodeLocation,
      [&](Runtime &RT) { return iterateDevices(RT, Callback, UserData); },
      "Callback", reinterpret_cast<const void *>(Callback), "UserData",
      UserData);
}

offload_result_t offloadIteratePlatforms(offload_platform_iterate_cb_t Callback,
                                         void *UserData) {
  return runEntryPoint(
      "offloadIteratePlatforms", nullptr,
      [&](Runtime &RT) { return iteratePlatforms(RT, Callback, UserData); },
      "Callback", reinterpret_cast<const void *>(Callback), "UserData",
      UserData);
}

offload_result_t offloadGetDeviceInfo(offload_device_handle_t Device,
                                      offload_device_info_t PropName,
                                      size_t PropSize, void *PropValue) {
  return getDeviceInfoEntry(Device, rawEnum(PropName), PropSize, PropValue,
                            nullptr);
}

offload_result_t offloadGetDeviceInfoWithCodeLoc(
    offload_device_handle_t Device, offload_device_info_t PropName,
    size_t PropSize, void *PropValue, offload_code_location_t *CodeLocation) {
  return getDeviceInfoEntry(Device, rawEnum(PropName), PropSize, PropValue,
                            CodeLocation);
}

offload_result_t offloadGetDeviceInfoSize(offload_device_handle_t Device,
                                          offload_device_info_t PropName,
                                          size_t *PropSizeRet) {
  return getDeviceInfoSizeEntry(Device, rawEnum(PropName), PropSizeRet,
                                nullptr);
}

offload_result_t offloadGetDeviceInfoSizeWithCodeLoc(
    offload_device_handle_t Device, offload_device_info_t PropName,
    size_t *PropSizeRet, offload_code_location_t *CodeLocation) {
  return getDeviceInfoSizeEntry(Device, rawEnum(PropName), PropSizeRet,
                                CodeLocation);
}

offload_result_t offloadMemAlloc(offload_device_handle_t Device,
                                 offload_alloc_type_t Type, size_t Size,
                                 void **AllocationOut) {
  return memAllocEntry(Device, rawEnum(Type), Size, AllocationOut, nullptr);
}

offload_result_t offloadMemAllocWithCodeLoc(
    offload_device_handle_t Device, offload_alloc_type_t Type, size_t Size,
    void **AllocationOut, offload_code_location_t *CodeLocation) {
  return memAllocEntry(Device, rawEnum(Type), Size, AllocationOut,
                       CodeLocation);
}

offload_result_t offloadMemFree(void *Address) {
  return offloadMemFreeWithCodeLoc(Address, nullptr);
}

offload_result_t
offloadMemFreeWithCodeLoc(void *Address,
                          offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadMemFree", CodeLocation,
      [&](Runtime &RT) { return memFree(RT, Address); }, "Address", Address);
}

offload_result_t offloadGetMemInfo(const void *Ptr, offload_mem_info_t PropName,
                                   size_t PropSize, void *PropValue) {
  return getMemInfoEntry(Ptr, rawEnum(PropName), PropSize, PropValue, nullptr);
}

offload_result_t
offloadGetMemInfoWithCodeLoc(const void *Ptr, offload_mem_info_t PropName,
                             size_t PropSize, void *PropValue,
                             offload_code_location_t *CodeLocation) {
  return getMemInfoEntry(Ptr, rawEnum(PropName), PropSize, PropValue,
                         CodeLocation);
}

offload_result_t offloadGetMemInfoSize(const void *Ptr,
                                       offload_mem_info_t PropName,
                                       size_t *PropSizeRet) {
  return getMemInfoSizeEntry(Ptr, rawEnum(PropName), PropSizeRet, nullptr);
}

offload_result_t
offloadGetMemInfoSizeWithCodeLoc(const void *Ptr, offload_mem_info_t PropName,
                                 size_t *PropSizeRet,
                                 offload_code_location_t *CodeLocation) {
  return getMemInfoSizeEntry(Ptr, rawEnum(PropName), PropSizeRet, CodeLocation);
}

offload_result_t offloadMemcpy(offload_queue_handle_t Queue, void *DstPtr,
                               offload_device_handle_t DstDevice,
                               const void *SrcPtr,
                               offload_device_handle_t SrcDevice, size_t Size) {
  return offloadMemcpyWithCodeLoc(Queue, DstPtr, DstDevice, SrcPtr, SrcDevice,
                                  Size, nullptr);
}

/// The fast path of offloadMemcpy for what small copies usually are:
/// synchronous, between memory of the host device, untraced, and passing
/// every check on what the allocation lookup cache knows. Skips the entry
/// point's error plumbing; returns false to take the full path, which checks
/// everything and reports any error.
LLVM_ATTRIBUTE_ALWAYS_INLINE static bool
tryHostCopy(offload_queue_handle_t Queue, void *DstPtr,
            offload_device_handle_t DstDevice, const void *SrcPtr,
            offload_device_handle_t SrcDevice, size_t Size) {
  Runtime *RT = Runtime::getIfInitialized();
  if (!RT || Queue || isTraceEnabled() || DstDevice != RT->getHostDevice() ||
      SrcDevice != DstDevice || !DstPtr || !SrcPtr || !Size ||
      ChromeTrace::get() || Profile::get())
    return false;
  if (isValidationEnabled() && !RT->isCopyInCachedBounds(DstPtr, SrcPtr, Size))
    return false;
  // Host memory on both sides: what the host plugin's synchronous copy does
  // (memmove: an overlapping copy is a caller error but costs nothing to get
  // right), without the call through the plugin interface.
  std::memmove(DstPtr, SrcPtr, Size);
  return true;
}

/// offloadMemcpyWithCodeLoc's full path, out of line so that the fast path
/// stays small.
LLVM_ATTRIBUTE_NOINLINE static offload_result_t
memcpyEntryPoint(offload_queue_handle_t Queue, void *DstPtr,
                 offload_device_handle_t DstDevice, const void *SrcPtr,
                 offload_device_handle_t SrcDevice, size_t Size,
                 offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadMemcpy", CodeLocation,
      [&](Runtime &RT) {
        return memcpy(RT, Queue, DstPtr, DstDevice, SrcPtr, SrcDevice, Size);
      },
      "Queue", Queue, "DstPtr", DstPtr, "DstDevice", DstDevice, "SrcPtr",
      SrcPtr, "SrcDevice", SrcDevice, "Size", Size);
}

offload_result_t
offloadMemcpyWithCodeLoc(offload_queue_handle_t Queue, void *DstPtr,
                         offload_device_handle_t DstDevice, const void *SrcPtr,
                         offload_device_handle_t SrcDevice, size_t Size,
                         offload_code_location_t *CodeLocation) {
  if (tryHostCopy(Queue, DstPtr, DstDevice, SrcPtr, SrcDevice, Size))
    return OFFLOAD_SUCCESS;
  return memcpyEntryPoint(Queue, DstPtr, DstDevice, SrcPtr, SrcDevice, Size,
                          CodeLocation);
}

offload_result_t offloadMemFill(offload_queue_handle_t Queue, void *Ptr,
                                size_t PatternSize, const void *PatternPtr,
                                size_t FillSize) {
  return offloadMemFillWithCodeLoc(Queue, Ptr, PatternSize, PatternPtr,
                                   FillSize, nullptr);
}

offload_result_t
offloadMemFillWithCodeLoc(offload_queue_handle_t Queue, void *Ptr,
                          size_t PatternSize, const void *PatternPtr,
                          size_t FillSize,
                          offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadMemFill", CodeLocation,
      [&](Runtime &RT) {
        return memFill(RT, Queue, Ptr, PatternSize, PatternPtr, FillSize);
      },
      "Queue", Queue, "Ptr", Ptr, "PatternSize", PatternSize, "PatternPtr",
      PatternPtr, "FillSize", FillSize);
}

offload_result_t offloadMemRegister(offload_device_handle_t Device, void *Ptr,
                                    size_t Size,
                                    offload_memory_register_flags_t Flags,
                                    void **PinnedPtr) {
  return offloadMemRegisterWithCodeLoc(Device, Ptr, Size, Flags, PinnedPtr,
                                       nullptr);
}

offload_result_t offloadMemRegisterWithCodeLoc(
    offload_device_handle_t Device, void *Ptr, size_t Size,
    offload_memory_register_flags_t Flags, void **PinnedPtr,
    offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadMemRegister", CodeLocation,
      [&](Runtime &RT) {
        return memRegister(RT, Device, Ptr, Size, Flags, PinnedPtr);
      },
      "Device", Device, "Ptr", Ptr, "Size", Size, "Flags", Flags, "PinnedPtr",
      PinnedPtr);
}

offload_result_t offloadMemUnregister(offload_device_handle_t Device,
                                      void *Ptr) {
  return offloadMemUnregisterWithCodeLoc(Device, Ptr, nullptr);
}

offload_result_t
offloadMemUnregisterWithCodeLoc(offload_device_handle_t Device, void *Ptr,
                                offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadMemUnregister", CodeLocation,
      [&](Runtime &RT) { return memUnregister(RT, Device, Ptr); }, "Device",
      Device, "Ptr", Ptr);
}

offload_result_t offloadCreateQueue(offload_device_handle_t Device,
                                    offload_queue_handle_t *Queue) {
  return offloadCreateQueueWithCodeLoc(Device, Queue, nullptr);
}

offload_result_t
offloadCreateQueueWithCodeLoc(offload_device_handle_t Device,
                              offload_queue_handle_t *Queue,
                              offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadCreateQueue", CodeLocation,
      [&](Runtime &RT) { return createQueue(RT, Device, Queue); }, "Device",
      Device, "Queue", Queue);
}

offload_result_t offloadSyncQueue(offload_queue_handle_t Queue) {
  return offloadSyncQueueWithCodeLoc(Queue, nullptr);
}

offload_result_t
offloadSyncQueueWithCodeLoc(offload_queue_handle_t Queue,
                            offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadSyncQueue", CodeLocation,
      [&](Runtime &RT) { return syncQueue(RT, Queue); }, "Queue", Queue);
}

offload_result_t offloadWaitEvents(offload_queue_handle_t Queue,
                                   offload_event_handle_t *Events,
                                   size_t NumEvents) {
  return offloadWaitEventsWithCodeLoc(Queue, Events, NumEvents, nullptr);
}

offload_result_t
offloadWaitEventsWithCodeLoc(offload_queue_handle_t Queue,
                             offload_event_handle_t *Events, size_t NumEvents,
                             offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadWaitEvents", CodeLocation,
      [&](Runtime &RT) { return waitEvents(RT, Queue, Events, NumEvents); },
      "Queue", Queue, "Events", Events, "NumEvents", NumEvents);
}

offload_result_t offloadDestroyQueue(offload_queue_handle_t Queue) {
  return offloadDestroyQueueWithCodeLoc(Queue, nullptr);
}

offload_result_t
offloadDestroyQueueWithCodeLoc(offload_queue_handle_t Queue,
                               offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadDestroyQueue", CodeLocation,
      [&](Runtime &RT) { return destroyQueue(RT, Queue); }, "Queue", Queue);
}

offload_result_t offloadGetQueueInfo(offload_queue_handle_t Queue,
                                     offload_queue_info_t PropName,
                                     size_t PropSize, void *PropValue) {
  return getQueueInfoEntry(Queue, rawEnum(PropName), PropSize, PropValue,
                           nullptr);
}

offload_result_t offloadGetQueueInfoWithCodeLoc(
    offload_queue_handle_t Queue, offload_queue_info_t PropName,
    size_t PropSize, void *PropValue, offload_code_location_t *CodeLocation) {
  return getQueueInfoEntry(Queue, rawEnum(PropName), PropSize, PropValue,
                           CodeLocation);
}

offload_result_t offloadGetQueueInfoSize(offload_queue_handle_t Queue,
                                         offload_queue_info_t PropName,
                                         size_t *PropSizeRet) {
  return getQueueInfoSizeEntry(Queue, rawEnum(PropName), PropSizeRet, nullptr);
}

offload_result_t offloadGetQueueInfoSizeWithCodeLoc(
    offload_queue_handle_t Queue, offload_queue_info_t PropName,
    size_t *PropSizeRet, offload_code_location_t *CodeLocation) {
  return getQueueInfoSizeEntry(Queue, rawEnum(PropName), PropSizeRet,
                               CodeLocation);
}

offload_result_t offloadLaunchHostFunction(offload_queue_handle_t Queue,
                                           offload_host_function_cb_t Callback,
                                           void *UserData) {
  return offloadLaunchHostFunctionWithCodeLoc(Queue, Callback, UserData,
                                              nullptr);
}

offload_result_t offloadLaunchHostFunctionWithCodeLoc(
    offload_queue_handle_t Queue, offload_host_function_cb_t Callback,
    void *UserData, offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadLaunchHostFunction", CodeLocation,
      [&](Runtime &RT) {
        return launchHostFunction(RT, Queue, Callback, UserData);
      },
      "Queue", Queue, "Callback", reinterpret_cast<const void *>(Callback),
      "UserData", UserData);
}

offload_result_t offloadCreateEvent(offload_queue_handle_t Queue,
                                    offload_event_handle_t *Event) {
  return offloadCreateEventWithCodeLoc(Queue, Event, nullptr);
}

offload_result_t
offloadCreateEventWithCodeLoc(offload_queue_handle_t Queue,
                              offload_event_handle_t *Event,
                              offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadCreateEvent", CodeLocation,
      [&](Runtime &RT) { return createEvent(RT, Queue, Event); }, "Queue",
      Queue, "Event", Event);
}

offload_result_t offloadSyncEvent(offload_event_handle_t Event) {
  return offloadSyncEventWithCodeLoc(Event, nullptr);
}

offload_result_t
offloadSyncEventWithCodeLoc(offload_event_handle_t Event,
                            offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadSyncEvent", CodeLocation,
      [&](Runtime &RT) { return syncEvent(RT, Event); }, "Event", Event);
}

offload_result_t offloadDestroyEvent(offload_event_handle_t Event) {
  return offloadDestroyEventWithCodeLoc(Event, nullptr);
}

offload_result_t
offloadDestroyEventWithCodeLoc(offload_event_handle_t Event,
                               offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadDestroyEvent", CodeLocation,
      [&](Runtime &RT) { return destroyEvent(RT, Event); }, "Event", Event);
}

offload_result_t offloadGetEventElapsedTime(offload_event_handle_t Start,
                                            offload_event_handle_t End,
                                            float *ElapsedMs) {
  return offloadGetEventElapsedTimeWithCodeLoc(Start, End, ElapsedMs, nullptr);
}

offload_result_t offloadGetEventElapsedTimeWithCodeLoc(
    offload_event_handle_t Start, offload_event_handle_t End, float *ElapsedMs,
    offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadGetEventElapsedTime", CodeLocation,
      [&](Runtime &RT) {
        return getEventElapsedTime(RT, Start, End, ElapsedMs);
      },
      "Start", Start, "End", End, "ElapsedMs", ElapsedMs);
}

offload_result_t offloadGetEventInfo(offload_event_handle_t Event,
                                     offload_event_info_t PropName,
                                     size_t PropSize, void *PropValue) {
  return getEventInfoEntry(Event, rawEnum(PropName), PropSize, PropValue,
                           nullptr);
}

offload_result_t offloadGetEventInfoWithCodeLoc(
    offload_event_handle_t Event, offload_event_info_t PropName,
    size_t PropSize, void *PropValue, offload_code_location_t *CodeLocation) {
  return getEventInfoEntry(Event, rawEnum(PropName), PropSize, PropValue,
                           CodeLocation);
}

offload_result_t offloadGetEventInfoSize(offload_event_handle_t Event,
                                         offload_event_info_t PropName,
                                         size_t *PropSizeRet) {
  return getEventInfoSizeEntry(Event, rawEnum(PropName), PropSizeRet, nullptr);
}

offload_result_t offloadGetEventInfoSizeWithCodeLoc(
    offload_event_handle_t Event, offload_event_info_t PropName,
    size_t *PropSizeRet, offload_code_location_t *CodeLocation) {
  return getEventInfoSizeEntry(Event, rawEnum(PropName), PropSizeRet,
                               CodeLocation);
}

offload_result_t offloadCreateProgram(offload_device_handle_t Device,
                                      const void *ProgData, size_t ProgDataSize,
                                      offload_program_handle_t *Program) {
  return offloadCreateProgramWithCodeLoc(Device, ProgData, ProgDataSize,
                                         Program, nullptr);
}

offload_result_t offloadCreateProgramWithCodeLoc(
    offload_device_handle_t Device, const void *ProgData, size_t ProgDataSize,
    offload_program_handle_t *Program, offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadCreateProgram", CodeLocation,
      [&](Runtime &RT) {
        return createProgram(RT, Device, ProgData, ProgDataSize, Program);
      },
      "Device", Device, "ProgData", ProgData, "ProgDataSize", ProgDataSize,
      "Program", Program);
}

offload_result_t offloadIsValidBinary(offload_device_handle_t Device,
                                      const void *ProgData, size_t ProgDataSize,
                                      bool *Valid) {
  return offloadIsValidBinaryWithCodeLoc(Device, ProgData, ProgDataSize, Valid,
                                         nullptr);
}

offload_result_t offloadIsValidBinaryWithCodeLoc(
    offload_device_handle_t Device, const void *ProgData, size_t ProgDataSize,
    bool *Valid, offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadIsValidBinary", CodeLocation,
      [&](Runtime &RT) {
        return isValidBinary(RT, Device, ProgData, ProgDataSize, Valid);
      },
      "Device", Device, "ProgData", ProgData, "ProgDataSize", ProgDataSize,
      "Valid", Valid);
}

offload_result_t offloadDestroyProgram(offload_program_handle_t Program) {
  return offloadDestroyProgramWithCodeLoc(Program, nullptr);
}

offload_result_t
offloadDestroyProgramWithCodeLoc(offload_program_handle_t Program,
                                 offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadDestroyProgram", CodeLocation,
      [&](Runtime &RT) { return destroyProgram(RT, Program); }, "Program",
      Program);
}

offload_result_t offloadGetSymbol(offload_program_handle_t Program,
                                  const char *Name, offload_symbol_kind_t Kind,
                                  offload_symbol_handle_t *Symbol) {
  return getSymbolEntry(Program, Name, rawEnum(Kind), Symbol, nullptr);
}

offload_result_t
offloadGetSymbolWithCodeLoc(offload_program_handle_t Program, const char *Name,
                            offload_symbol_kind_t Kind,
                            offload_symbol_handle_t *Symbol,
                            offload_code_location_t *CodeLocation) {
  return getSymbolEntry(Program, Name, rawEnum(Kind), Symbol, CodeLocation);
}

offload_result_t offloadGetSymbolInfo(offload_symbol_handle_t Symbol,
                                      offload_symbol_info_t PropName,
                                      size_t PropSize, void *PropValue) {
  return getSymbolInfoEntry(Symbol, rawEnum(PropName), PropSize, PropValue,
                            nullptr);
}

offload_result_t offloadGetSymbolInfoWithCodeLoc(
    offload_symbol_handle_t Symbol, offload_symbol_info_t PropName,
    size_t PropSize, void *PropValue, offload_code_location_t *CodeLocation) {
  return getSymbolInfoEntry(Symbol, rawEnum(PropName), PropSize, PropValue,
                            CodeLocation);
}

offload_result_t offloadGetSymbolInfoSize(offload_symbol_handle_t Symbol,
                                          offload_symbol_info_t PropName,
                                          size_t *PropSizeRet) {
  return getSymbolInfoSizeEntry(Symbol, rawEnum(PropName), PropSizeRet,
                                nullptr);
}

offload_result_t offloadGetSymbolInfoSizeWithCodeLoc(
    offload_symbol_handle_t Symbol, offload_symbol_info_t PropName,
    size_t *PropSizeRet, offload_code_location_t *CodeLocation) {
  return getSymbolInfoSizeEntry(Symbol, rawEnum(PropName), PropSizeRet,
                                CodeLocation);
}

offload_result_t
offloadCalculateOptimalOccupancy(offload_device_handle_t Device,
                                 offload_symbol_handle_t Kernel,
                                 size_t SharedMemory, size_t *GroupSize) {
  return offloadCalculateOptimalOccupancyWithCodeLoc(
      Device, Kernel, SharedMemory, GroupSize, nullptr);
}

offload_result_t offloadCalculateOptimalOccupancyWithCodeLoc(
    offload_device_handle_t Device, offload_symbol_handle_t Kernel,
    size_t SharedMemory, size_t *GroupSize,
    offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadCalculateOptimalOccupancy", CodeLocation,
      [&](Runtime &RT) {
        return calculateOptimalOccupancy(RT, Device, Kernel, SharedMemory,
                                         GroupSize);
      },
      "Device", Device, "Kernel", Kernel, "SharedMemory", SharedMemory,
      "GroupSize", GroupSize);
}

offload_result_t
offloadLaunchKernel(offload_queue_handle_t Queue,
                    offload_device_handle_t Device,
                    offload_symbol_handle_t Kernel, const void *ArgumentsData,
                    size_t ArgumentsSize,
                    const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  return offloadLaunchKernelWithCodeLoc(Queue, Device, Kernel, ArgumentsData,
                                        ArgumentsSize, LaunchSizeArgs, nullptr);
}

offload_result_t offloadLaunchKernelWithCodeLoc(
    offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_symbol_handle_t Kernel, const void *ArgumentsData,
    size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    offload_code_location_t *CodeLocation) {
  return runEntryPoint(
      "offloadLaunchKernel", CodeLocation,
      [&](Runtime &RT) {
        return launchKernel(RT, Queue, Device, Kernel, ArgumentsData,
                            ArgumentsSize, LaunchSizeArgs);
      },
      "Queue", Queue, "Device", Device, "Kernel", Kernel, "ArgumentsData",
      ArgumentsData, "ArgumentsSize", ArgumentsSize, "LaunchSizeArgs",
      LaunchSizeArgs);
}

//===----------------------------------------------------------------------===//
// Entry points of ours
//===----------------------------------------------------------------------===//

offload_result_t offloadGetDevice(offload_platform_backend_t Backend,
                                  uint32_t Index,
                                  offload_device_handle_t *Device) {
  auto RawBackend = rawEnum(Backend);
  return runEntryPoint(
      "offloadGetDevice", nullptr,
      [&](Runtime &RT) { return getDevice(RT, RawBackend, Index, Device); },
      "Backend", RawBackend, "Index", Index, "Device", Device);
}

offload_result_t offloadGetHostDevice(offload_device_handle_t *Device) {
  return runEntryPoint(
      "offloadGetHostDevice", nullptr,
      [&](Runtime &RT) { return getHostDevice(RT, Device); }, "Device", Device);
}

offload_result_t offloadGetKernelFromImage(offload_device_handle_t Device,
                                           const void *Image, size_t ImageSize,
                                           const char *KernelName,
                                           offload_symbol_handle_t *Kernel) {
  return runEntryPoint(
      "offloadGetKernelFromImage", nullptr,
      [&](Runtime &RT) {
        return getKernelFromImage(RT, Device, Image, ImageSize, KernelName,
                                  Kernel);
      },
      "Device", Device, "Image", Image, "ImageSize", ImageSize, "KernelName",
      KernelName, "Kernel", Kernel);
}
