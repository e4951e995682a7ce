//===- OffloadAPI.cpp - The offload runtime C API -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The implementations of the C entry points, offload::impl::offloadX_impl,
// one per function of include/OffloadRuntime/API/OffloadAPI.td (for the info
// queries, one getter per kind that both of its functions share). The entry
// points themselves (plain and WithCodeLoc) are generated from that
// description (OffloadAPIEntryPoints.inc, included at the end): they check
// what the description says of each parameter (null and stale handles, null
// pointers, enum ranges, zero sizes, reserved flags; Validation.h and the
// handle checks of Runtime), then call the implementation inside
// runEntryPoint (Trace.h), which converts llvm::Error into offload_result_t
// and traces the call. An implementation checks only what depends on more
// than one argument or on the runtime's state, then calls the plugin
// interface (Plugin.h).
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"

#include "ChromeTrace.h"
#include "InitCheck.h"
#include "OffloadSupport/Error.h"
#include "OffloadSupport/KernelArguments.h"
#include "Plugin.h"
#include "Profile.h"
#include "Runtime.h"
#include "Trace.h"
#include "Validation.h"

#include "OffloadAPIImplDecls.inc"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace llvm;
using namespace offload;

//===----------------------------------------------------------------------===//
// Implementations
//===----------------------------------------------------------------------===//

namespace offload {
namespace impl {

//===----------------------------------------------------------------------===//
// Info queries
//===----------------------------------------------------------------------===//
//
// One getter per kind, get<Kind>Info(Runtime &, <object>, PropName,
// const InfoOut &): both offloadGet<Kind>Info and offloadGet<Kind>InfoSize
// run it, with an InfoOut that writes the property into the caller's buffer
// or its size. Their _impl functions are generated from the InfoQuery
// records of OffloadAPI.td (OffloadAPIEntryPoints.inc), and so is the
// getter's declaration (OffloadAPIImplDecls.inc).

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
/// (offloadGet*Info) or its size (offloadGet*InfoSize). The generated _impl
/// functions build it with value() and size().
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

/// Runs \p Compute (an Expected<InfoBytes>() callable) and writes its answer
/// (the output arguments were checked by the entry point).
template <typename ComputeFn>
Error answerInfo(const InfoOut &Out, ComputeFn &&Compute) {
  Expected<InfoBytes> Bytes = Compute();
  if (!Bytes)
    return Bytes.takeError();
  return Out.write(*Bytes);
}

Expected<InfoBytes> getDeviceInfoBytes(offload_device_handle_t Device,
                                       offload_device_info_t PropName) {
  const DeviceInfo &Info = unwrap(Device).Impl->getInfo();
  switch (PropName) {
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
  case OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT:
    return infoValue(Info.CooperativeLaunchSupport);
  }
  llvm_unreachable("checked by the entry point");
}

Error getDeviceInfo(Runtime &, offload_device_handle_t Device,
                    offload_device_info_t PropName, const InfoOut &Out) {
  return answerInfo(Out, [&] { return getDeviceInfoBytes(Device, PropName); });
}

Expected<InfoBytes> getPlatformInfoBytes(offload_platform_handle_t Platform,
                                         offload_platform_info_t PropName) {
  const Plugin &P = *unwrap(Platform).ThePlugin;
  switch (PropName) {
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
  llvm_unreachable("checked by the entry point");
}

Error getPlatformInfo(Runtime &, offload_platform_handle_t Platform,
                      offload_platform_info_t PropName, const InfoOut &Out) {
  return answerInfo(Out,
                    [&] { return getPlatformInfoBytes(Platform, PropName); });
}

Error getMemInfo(Runtime &RT, const void *Ptr, offload_mem_info_t PropName,
                 const InfoOut &Out) {
  return answerInfo(Out, [&]() -> Expected<InfoBytes> {
    // Checked even without validation: there is nothing to answer from.
    std::optional<std::pair<void *, AllocationInfo>> Found =
        RT.findAllocation(Ptr);
    if (!Found)
      return createError(OFFLOAD_ERRC_NOT_FOUND,
                         "Ptr ({0}) is not inside a live allocation of "
                         "offloadMemAlloc",
                         formatPointer(Ptr));
    const AllocationInfo &Info = Found->second;
    switch (PropName) {
    case OFFLOAD_MEM_INFO_DEVICE:
      return infoValue(static_cast<offload_device_handle_t>(Info.Device));
    case OFFLOAD_MEM_INFO_BASE:
      return infoValue(Found->first);
    case OFFLOAD_MEM_INFO_SIZE:
      return infoValue(Info.Size);
    case OFFLOAD_MEM_INFO_TYPE:
      return infoValue(Info.Kind);
    }
    llvm_unreachable("checked by the entry point");
  });
}

Error getQueueInfo(Runtime &, offload_queue_handle_t Queue,
                   offload_queue_info_t PropName, const InfoOut &Out) {
  return answerInfo(Out, [&]() -> Expected<InfoBytes> {
    switch (PropName) {
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
    llvm_unreachable("checked by the entry point");
  });
}

Error getEventInfo(Runtime &, offload_event_handle_t Event,
                   offload_event_info_t PropName, const InfoOut &Out) {
  return answerInfo(Out, [&]() -> Expected<InfoBytes> {
    switch (PropName) {
    case OFFLOAD_EVENT_INFO_QUEUE:
      return infoValue(
          static_cast<offload_queue_handle_t>(unwrap(Event).Queue));
    case OFFLOAD_EVENT_INFO_IS_COMPLETE:
      return infoValue(unwrap(Event).Impl->isComplete());
    }
    llvm_unreachable("checked by the entry point");
  });
}

/// Names of symbol kinds, for messages.
StringRef getKindName(offload_symbol_kind_t Kind) {
  return Kind == OFFLOAD_SYMBOL_KIND_KERNEL ? "a kernel" : "a global variable";
}

Expected<InfoBytes> getSymbolInfoBytes(offload_symbol_handle_t Symbol,
                                       offload_symbol_info_t PropName) {
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
  switch (PropName) {
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
  llvm_unreachable("checked by the entry point");
}

Error getSymbolInfo(Runtime &, offload_symbol_handle_t Symbol,
                    offload_symbol_info_t PropName, const InfoOut &Out) {
  return answerInfo(Out, [&] { return getSymbolInfoBytes(Symbol, PropName); });
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

Error offloadIterateDevices_impl(Runtime &RT,
                                 offload_device_iterate_cb_t Callback,
                                 void *UserData) {
  // No lock is held: the callback may call the API.
  for (offload_device_handle_t Device : RT.getDevices())
    if (!Callback(Device, UserData))
      break;
  return Error::success();
}

Error offloadIteratePlatforms_impl(Runtime &RT,
                                   offload_platform_iterate_cb_t Callback,
                                   void *UserData) {
  for (offload_platform_handle_t P : RT.getPlatforms())
    if (!Callback(P, UserData))
      break;
  return Error::success();
}

Error offloadGetDevice_impl(Runtime &RT, offload_platform_backend_t Backend,
                            uint32_t Index, offload_device_handle_t *Device) {
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

Error offloadGetHostDevice_impl(Runtime &RT, offload_device_handle_t *Device) {
  *Device = RT.getHostDevice();
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// offloadMemAlloc and offloadMemAllocAligned (\p Alignment a power of
/// two).
Error allocateMemory(Runtime &RT, offload_device_handle_t Device,
                     offload_alloc_type_t Type, size_t Size, size_t Alignment,
                     void **AllocationOut) {
  // Checked even without validation: plugins round sizes up, and a size
  // near SIZE_MAX would wrap to a small block.
  uint64_t MaxSize = unwrap(Device).Impl->getInfo().MaxMemAllocSize;
  if (MaxSize && Size > MaxSize)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "Size ({0} bytes) exceeds the largest allocation the "
                       "device allows ({1} bytes, "
                       "OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE)",
                       Size, MaxSize);
  Expected<void *> Ptr =
      Alignment <= kMinAllocationAlignment
          ? unwrap(Device).Impl->allocate(Size, Type)
          : unwrap(Device).Impl->allocateAligned(Size, Type, Alignment);
  if (!Ptr)
    return Ptr.takeError();
  RT.addAllocation(*Ptr, {Device, Size, Type});
  check::recordCreation(*Ptr, check::ObjectKind::Allocation,
                        llvm::formatv("of {0} bytes of {1} memory", Size,
                                      Type == OFFLOAD_ALLOC_TYPE_HOST ? "host"
                                      : Type == OFFLOAD_ALLOC_TYPE_MANAGED
                                          ? "managed"
                                          : "device")
                            .str());
  if (initcheck::isTracking() && Device == RT.getHostDevice())
    initcheck::recordAllocation(*Ptr, Size, Type);
  *AllocationOut = *Ptr;
  return Error::success();
}

Error offloadMemAlloc_impl(Runtime &RT, offload_device_handle_t Device,
                           offload_alloc_type_t Type, size_t Size,
                           void **AllocationOut) {
  return allocateMemory(RT, Device, Type, Size, kMinAllocationAlignment,
                        AllocationOut);
}

Error offloadMemFree_impl(Runtime &RT, void *Address) {
  Expected<AllocationInfo> Info = RT.takeAllocation(Address);
  if (!Info)
    return Info.takeError();
  check::recordDestruction(Address);
  if (initcheck::isTracking())
    initcheck::recordFree(Address);
  return unwrap(Info->Device).Impl->free(Address, Info->Kind);
}

Error offloadMemAllocAligned_impl(Runtime &RT, offload_device_handle_t Device,
                                  offload_alloc_type_t Type, size_t Size,
                                  size_t Alignment, void **AllocationOut) {
  // Checked even without validation: the plugins align by it.
  if (!Alignment || !isPowerOf2_64(Alignment))
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "Alignment ({0}) is not a power of two", Alignment);
  return allocateMemory(RT, Device, Type, Size, Alignment, AllocationOut);
}

Error offloadMemPrefetch_impl(Runtime &RT, offload_queue_handle_t Queue,
                              size_t NumPtrs, const void *const *Ptrs,
                              const size_t *Sizes,
                              offload_mem_migration_flag_t Flags) {
  if (NumPtrs == 0)
    return Error::success();
  if (Error E = requireNotNull(Ptrs, "Ptrs"))
    return E;
  if (Error E = requireNotNull(Sizes, "Sizes"))
    return E;
  for (size_t I = 0; I < NumPtrs; ++I) {
    if (!Ptrs[I])
      return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptrs[{0}] is null",
                         I);
    if (isValidationEnabled())
      if (Error E = RT.checkInAllocationBounds(
              Ptrs[I], Sizes[I], ("Ptrs[" + Twine(I) + "]").str(),
              ("Sizes[" + Twine(I) + "]").str()))
        return E;
  }
  // A hint, which the queue's device carries out (Device::prefetch): the GPU
  // plugins migrate managed memory (cuMemPrefetchAsync_v2,
  // hipMemPrefetchAsync) and ignore other memory; the host device's managed
  // memory is host memory. Allocations the table knows to be of another kind
  // are skipped here.
  QueueObject &Q = unwrap(Queue);
  offload::Device &D = *unwrap(Q.Device).Impl;
  bool ToDevice = Flags == OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE;
  for (size_t I = 0; I < NumPtrs; ++I) {
    if (!Sizes[I])
      continue;
    if (std::optional<std::pair<void *, AllocationInfo>> A =
            RT.findAllocation(Ptrs[I]);
        A && A->second.Kind != OFFLOAD_ALLOC_TYPE_MANAGED)
      continue;
    if (Error E = D.prefetch(*Q.Impl, Ptrs[I], Sizes[I], ToDevice))
      return E;
  }
  return Error::success();
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

Error offloadMemcpy_impl(Runtime &RT, offload_queue_handle_t Queue,
                         void *DstPtr, offload_device_handle_t DstDevice,
                         const void *SrcPtr, offload_device_handle_t SrcDevice,
                         size_t Size) {
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
          Profile::Kind::Memory, Size,
          [&] {
            return unwrap(unwrap(Queue).Device)
                .Impl->memcpy(getImpl(Queue), DstPtr, SrcPtr, Size);
          }))
    return E;
  return recordInitWrite(getImpl(Queue), DstPtr, SrcPtr, Size);
}

Error offloadMemFill_impl(Runtime &RT, offload_queue_handle_t Queue, void *Ptr,
                          size_t PatternSize, const void *PatternPtr,
                          size_t FillSize) {
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
          Profile::Kind::Memory, FillSize,
          [&] {
            return unwrap(Device).Impl->fill(getImpl(Queue), Ptr, Pattern,
                                             FillSize);
          }))
    return E;
  return recordInitWrite(getImpl(Queue), Ptr, nullptr, FillSize);
}

Error offloadMemRegister_impl(Runtime &RT, offload_device_handle_t Device,
                              void *Ptr, size_t Size,
                              offload_memory_register_flags_t,
                              void **PinnedPtr) {
  Expected<void *> Pinned = RT.registerHostMemory(Device, Ptr, Size);
  if (!Pinned)
    return Pinned.takeError();
  *PinnedPtr = *Pinned;
  return Error::success();
}

Error offloadMemUnregister_impl(Runtime &RT, offload_device_handle_t Device,
                                void *Ptr) {
  return RT.unregisterHostMemory(Device, Ptr);
}

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

Error offloadCreateQueue_impl(Runtime &RT, offload_device_handle_t Device,
                              offload_queue_handle_t *Queue) {
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

Error offloadSyncQueue_impl(Runtime &, offload_queue_handle_t Queue) {
  return unwrap(Queue).Impl->synchronize();
}

Error offloadQueryQueue_impl(Runtime &, offload_queue_handle_t Queue,
                             bool *IsQueueWorkCompleted) {
  Expected<bool> Empty = unwrap(Queue).Impl->isEmpty();
  if (!Empty)
    return Empty.takeError();
  if (IsQueueWorkCompleted)
    *IsQueueWorkCompleted = *Empty;
  return Error::success();
}

Error offloadWaitEvents_impl(Runtime &RT, offload_queue_handle_t Queue,
                             offload_event_handle_t *Events, size_t NumEvents) {
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

Error offloadDestroyQueue_impl(Runtime &RT, offload_queue_handle_t Queue) {
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

Error offloadLaunchHostFunction_impl(Runtime &, offload_queue_handle_t Queue,
                                     offload_host_function_cb_t Callback,
                                     void *UserData) {
  return unwrap(Queue).Impl->enqueueHostFunction(Callback, UserData);
}

Error offloadCreateEvent_impl(Runtime &RT, offload_queue_handle_t Queue,
                              offload_event_handle_t *Event) {
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

Error offloadSyncEvent_impl(Runtime &, offload_event_handle_t Event) {
  return unwrap(Event).Impl->synchronize();
}

Error offloadGetEventElapsedTime_impl(Runtime &, offload_event_handle_t Start,
                                      offload_event_handle_t End,
                                      float *ElapsedMs) {
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

Error offloadDestroyEvent_impl(Runtime &RT, offload_event_handle_t Event) {
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

Error offloadCreateProgram_impl(Runtime &RT, offload_device_handle_t Device,
                                const void *ProgData, size_t ProgDataSize,
                                offload_program_handle_t *Program) {
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

Error offloadIsValidBinary_impl(Runtime &, offload_device_handle_t Device,
                                const void *ProgData, size_t ProgDataSize,
                                bool *Valid) {
  *Valid = ProgDataSize != 0 &&
           unwrap(Device).Impl->isValidBinary(
               StringRef(static_cast<const char *>(ProgData), ProgDataSize));
  return Error::success();
}

Error offloadDestroyProgram_impl(Runtime &RT,
                                 offload_program_handle_t Program) {
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

Error offloadGetSymbol_impl(Runtime &RT, offload_program_handle_t Program,
                            const char *Name, offload_symbol_kind_t Kind,
                            offload_symbol_handle_t *Symbol) {
  Expected<offload_symbol_handle_t> S = lookupSymbol(RT, Program, Name, Kind);
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

Error offloadCalculateOptimalOccupancy_impl(Runtime &,
                                            offload_device_handle_t Device,
                                            offload_symbol_handle_t Kernel,
                                            size_t SharedMemory,
                                            size_t *GroupSize) {
  if (Error E = checkKernel(Kernel, Device))
    return E;
  Expected<uint64_t> Size = unwrap(Device).Impl->getOptimalGroupSize(
      *unwrap(Kernel).Impl, SharedMemory);
  if (!Size)
    return Size.takeError();
  *GroupSize = static_cast<size_t>(*Size);
  return Error::success();
}

/// What a launch's property list (offload_kernel_launch_prop_t) asks for.
struct LaunchProperties {
  bool Cooperative = false;
};

/// Reads \p Properties (null: none), a list ended by
/// OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_END. Checked even without validation:
/// the properties decide how the grid runs.
Expected<LaunchProperties>
readLaunchProperties(const offload_kernel_launch_prop_t *Properties) {
  LaunchProperties Result;
  if (!Properties)
    return Result;
  for (size_t I = 0;; ++I) {
    const offload_kernel_launch_prop_t &P = Properties[I];
    RawEnum<offload_kernel_launch_prop_type_t> Type = rawEnum(P.Type);
    if (Error E = checkEnum(Type, ("Properties[" + Twine(I) + "].Type").str()))
      return std::move(E);
    switch (Type.get()) {
    case OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_END:
      return Result;
    case OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE:
      if (!P.Data)
        return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                           "Properties[{0}].Data (IS_COOPERATIVE, a const "
                           "bool *) is null",
                           I);
      Result.Cooperative = *static_cast<const bool *>(P.Data);
      break;
    }
  }
}

/// Checked even without validation where a kernel's layout or a cooperative
/// grid depends on it: \p Kernel is a kernel.
Error requireKernel(offload_symbol_handle_t Kernel) {
  const offload::Symbol &Sym = *unwrap(Kernel).Impl;
  if (Sym.getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return createError(OFFLOAD_ERRC_SYMBOL_KIND,
                       "Kernel ('{0}') is a global variable, not a kernel",
                       Sym.getName());
  return Error::success();
}

/// offloadLaunchKernel, offloadLaunchKernelWithProperties and
/// offloadLaunchKernelWithArguments (which packed the buffer and checked its
/// size: \p CheckSize false).
Error launchKernel(offload_queue_handle_t Queue, offload_device_handle_t Device,
                   offload_symbol_handle_t Kernel, const void *ArgumentsData,
                   size_t ArgumentsSize,
                   const offload_kernel_launch_size_args_t *LaunchSizeArgs,
                   const LaunchProperties &Props, bool CheckSize = true) {
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
    if (CheckSize && Expected && Min && *Min != *Expected &&
        (ArgumentsSize < *Min || ArgumentsSize > *Expected))
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentsSize ({0}) does not match the size of the "
                         "argument buffer of kernel '{1}' ({2} bytes of "
                         "parameters, {3} with a struct's tail padding)",
                         ArgumentsSize, Sym.getName(), *Min, *Expected);
    if (CheckSize && Expected && (!Min || *Min == *Expected) &&
        *Expected != ArgumentsSize)
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentsSize ({0}) does not match the size of the "
                         "argument buffer of kernel '{1}' ({2})",
                         ArgumentsSize, Sym.getName(), *Expected);
  }
  offload::Device &Dev = *unwrap(Device).Impl;
  if (Props.Cooperative) {
    // Checked even without validation: a grid whose blocks cannot all run
    // at once hangs at its first grid-wide barrier.
    if (Error E = requireKernel(Kernel))
      return E;
    if (!Dev.getInfo().CooperativeLaunchSupport)
      return createError(OFFLOAD_ERRC_UNSUPPORTED,
                         "kernel '{0}': the {1} device has no cooperative "
                         "launches "
                         "(OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT)",
                         Sym.getName(), Dev.getPlugin().getName());
    Expected<uint32_t> Max =
        Dev.getMaxCooperativeGroupCount(Sym, *LaunchSizeArgs);
    if (!Max)
      return Max.takeError();
    const offload_dimensions_t &G = LaunchSizeArgs->NumGroups;
    uint64_t Blocks = uint64_t(G.x) * G.y * G.z;
    if (uint64_t(G.x) * G.y > UINT32_MAX || Blocks > *Max)
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "kernel '{0}': a cooperative grid of {1}x{2}x{3} "
                         "blocks exceeds the {4} blocks that run at once "
                         "(offloadGetKernelMaxCooperativeGroupCount)",
                         Sym.getName(), G.x, G.y, G.z, *Max);
  }
  ArrayRef<uint8_t> Args(static_cast<const uint8_t *>(ArgumentsData),
                         ArgumentsSize);
  return traced(
      Sym.getName(), "kernel", Queue,
      [&] {
        const offload_kernel_launch_size_args_t &L = *LaunchSizeArgs;
        return llvm::formatv("grid ({0},{1},{2}) block ({3},{4},{5}){6}",
                             L.NumGroups.x, L.NumGroups.y, L.NumGroups.z,
                             L.GroupSize.x, L.GroupSize.y, L.GroupSize.z,
                             Props.Cooperative ? " cooperative" : "")
            .str();
      },
      Profile::Kind::Kernel, 0,
      [&] {
        return Props.Cooperative
                   ? Dev.launchCooperativeKernel(getImpl(Queue), Sym, Args,
                                                 *LaunchSizeArgs)
                   : Dev.launchKernel(getImpl(Queue), Sym, Args,
                                      *LaunchSizeArgs);
      });
}

Error offloadLaunchKernel_impl(
    Runtime &, offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_symbol_handle_t Kernel, const void *ArgumentsData,
    size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  return launchKernel(Queue, Device, Kernel, ArgumentsData, ArgumentsSize,
                      LaunchSizeArgs, LaunchProperties());
}

Error offloadLaunchKernelWithProperties_impl(
    Runtime &, offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_symbol_handle_t Kernel, const void *ArgumentsData,
    size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    const offload_kernel_launch_prop_t *Properties) {
  Expected<LaunchProperties> Props = readLaunchProperties(Properties);
  if (!Props)
    return Props.takeError();
  return launchKernel(Queue, Device, Kernel, ArgumentsData, ArgumentsSize,
                      LaunchSizeArgs, *Props);
}

Error offloadLaunchKernelWithArguments_impl(
    Runtime &, offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_symbol_handle_t Kernel, size_t NumArguments,
    const void *const *Arguments, const size_t *ArgumentSizes,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    const offload_kernel_launch_prop_t *Properties) {
  // Checked even without validation: the layout decides where each value
  // goes.
  if (Error E = requireKernel(Kernel))
    return E;
  const offload::Symbol &Sym = *unwrap(Kernel).Impl;
  if (NumArguments) {
    if (Error E = requireNotNull(Arguments, "Arguments"))
      return E;
    if (Error E = requireNotNull(ArgumentSizes, "ArgumentSizes"))
      return E;
  }
  std::optional<offload::Symbol::ArgumentLayout> Layout =
      Sym.getArgumentLayout();
  std::optional<uint64_t> BufferSize = Sym.getArgumentsSize();
  // A kernel without arguments needs no layout.
  if (!Layout && !(NumArguments == 0 && BufferSize && *BufferSize == 0))
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "cannot pack the arguments of kernel '{0}': {1}",
                       Sym.getName(), Sym.describeMissingArgumentLayout());
  size_t NumExpected = Layout ? Layout->Offsets.size() : 0;
  if (NumArguments != NumExpected)
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "NumArguments ({0}) is not the number of arguments of "
                       "kernel '{1}' ({2})",
                       NumArguments, Sym.getName(), NumExpected);
  for (size_t I = 0; I < NumArguments; ++I) {
    if (!Arguments[I])
      return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                         "Arguments[{0}] is null", I);
    if (ArgumentSizes[I] != Layout->Sizes[I])
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentSizes[{0}] ({1}) is not the size of argument "
                         "{0} of kernel '{2}' ({3} bytes)",
                         I, ArgumentSizes[I], Sym.getName(), Layout->Sizes[I]);
  }
  // Packed as OffloadSupport/KernelArguments.h describes, at the offsets the
  // binary records.
  const uint64_t *Offsets = Layout ? Layout->Offsets.data() : nullptr;
  const uint64_t *Sizes = Layout ? Layout->Sizes.data() : nullptr;
  SmallVector<uint8_t, 256> Buffer(
      offload::kernelargs::getPackedSize(Offsets, Sizes, NumArguments,
                                         BufferSize.value_or(0)),
      0);
  offload::kernelargs::packFields(Buffer.data(), Offsets, Sizes, NumArguments,
                                  Arguments);
  Expected<LaunchProperties> Props = readLaunchProperties(Properties);
  if (!Props)
    return Props.takeError();
  return launchKernel(Queue, Device, Kernel, Buffer.data(), Buffer.size(),
                      LaunchSizeArgs, *Props, /*CheckSize=*/false);
}

Error offloadGetKernelMaxCooperativeGroupCount_impl(
    Runtime &, offload_device_handle_t Device, offload_symbol_handle_t Kernel,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    uint32_t *GroupCountRet) {
  if (Error E = requireKernel(Kernel))
    return E;
  if (Error E = checkKernel(Kernel, Device))
    return E;
  offload::Device &Dev = *unwrap(Device).Impl;
  offload::Symbol &Sym = *unwrap(Kernel).Impl;
  if (isValidationEnabled()) {
    // The block's limits; the grid is what the answer is about.
    offload_kernel_launch_size_args_t OneBlock = *LaunchSizeArgs;
    OneBlock.NumGroups = {1, 1, 1};
    if (Error E = checkLaunchSize(OneBlock, Dev.getInfo(), Sym.getName()))
      return E;
  }
  Expected<uint32_t> Max =
      Dev.getMaxCooperativeGroupCount(Sym, *LaunchSizeArgs);
  if (!Max)
    return Max.takeError();
  *GroupCountRet = *Max;
  return Error::success();
}

Error offloadGetKernelFromImage_impl(Runtime &RT,
                                     offload_device_handle_t Device,
                                     const void *Image, size_t ImageSize,
                                     const char *KernelName,
                                     offload_symbol_handle_t *Kernel) {
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

Error offloadInit_impl() { return Runtime::init(); }

Error offloadInitWithArgs_impl(const offload_init_args_t *InitArgs) {
  SmallVector<offload_platform_backend_t, 4> Backends;
  if (InitArgs) {
    // Checked always: they are the arguments of the initialization itself
    // (validation is not configured yet).
    if (InitArgs->Size < sizeof(offload_init_args_t))
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "InitArgs->Size ({0}) is smaller than "
                         "sizeof(offload_init_args_t) ({1}): initialize it "
                         "with OFFLOAD_INIT_ARGS_INIT",
                         InitArgs->Size, sizeof(offload_init_args_t));
    if (InitArgs->NumPlatforms && !InitArgs->Platforms)
      return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                         "InitArgs->Platforms is null but NumPlatforms is {0}",
                         InitArgs->NumPlatforms);
    for (uint32_t I = 0; I < InitArgs->NumPlatforms; ++I) {
      RawEnum<offload_platform_backend_t> Backend =
          rawEnum(InitArgs->Platforms[I]);
      if (Error E = checkEnum(Backend,
                              ("InitArgs->Platforms[" + Twine(I) + "]").str()))
        return E;
      Backends.push_back(Backend.get());
    }
  }
  return Runtime::init(Backends);
}

Error offloadShutDown_impl() { return Runtime::shutDown(); }

/// The fast path of offloadMemcpy for what small copies usually are:
/// synchronous, between memory of the host device, untraced, and passing
/// every check on what the allocation lookup cache knows. Skips the entry
/// point's error plumbing; returns false to take the full path, which checks
/// everything and reports any error.
LLVM_ATTRIBUTE_ALWAYS_INLINE bool
offloadMemcpy_fastpath(offload_queue_handle_t Queue, void *DstPtr,
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

} // namespace impl
} // namespace offload

//===----------------------------------------------------------------------===//
// C entry points
//===----------------------------------------------------------------------===//

// offloadErrcName's names are generated from OffloadAPI.td (EnumInfo).
const char *offloadErrcName(offload_errc_t Code) {
  if (const char *Name =
          EnumInfo<offload_errc_t>::getFullName(rawEnum(Code).Value))
    return Name;
  return "OFFLOAD_ERRC_<invalid>";
}

// Every other entry point is generated from OffloadAPI.td.
#include "OffloadAPIEntryPoints.inc"
