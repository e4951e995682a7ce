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
// llvm::Error is converted into offload_result_t only in runEntryPoint.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"

#include "Error.h"
#include "Plugin.h"
#include "Runtime.h"
#include "Trace.h"
#include "Validation.h"

#include "llvm/ADT/SmallVector.h"

#include <cstring>

using namespace llvm;
using namespace offload;

//===----------------------------------------------------------------------===//
// Implementations
//===----------------------------------------------------------------------===//

namespace {

/// The bytes of an info property.
using InfoBytes = SmallVector<char, 64>;

template <typename T> InfoBytes infoValue(const T &Value) {
  const char *Begin = reinterpret_cast<const char *>(&Value);
  return InfoBytes(Begin, Begin + sizeof(T));
}

InfoBytes infoString(StringRef Value) {
  InfoBytes Bytes(Value.begin(), Value.end());
  Bytes.push_back('\0');
  return Bytes;
}

/// Writes \p Bytes into the caller's buffer of \p PropSize bytes.
Error writeInfo(const InfoBytes &Bytes, size_t PropSize, void *PropValue) {
  // Checked even without validation: writing past the buffer is never right.
  if (PropSize < Bytes.size())
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "PropSize ({0}) is smaller than the property's size "
                       "({1} bytes)",
                       PropSize, Bytes.size());
  std::memcpy(PropValue, Bytes.data(), Bytes.size());
  return Error::success();
}

Expected<InfoBytes>
getDeviceInfoBytes(offload_device_handle_t Device,
                   RawEnum<offload_device_info_t> PropName) {
  if (Error E =
          checkEnum(PropName, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE, "PropName"))
    return std::move(E);
  const DeviceInfo &Info = Device->Impl->getInfo();
  switch (PropName.get()) {
  case OFFLOAD_DEVICE_INFO_TYPE:
    return infoValue(Info.Type);
  case OFFLOAD_DEVICE_INFO_PLATFORM:
    return infoValue(static_cast<offload_platform_handle_t>(Device->Platform));
  case OFFLOAD_DEVICE_INFO_NAME:
    return infoString(Info.Name);
  case OFFLOAD_DEVICE_INFO_VENDOR:
    return infoString(Info.Vendor);
  case OFFLOAD_DEVICE_INFO_DRIVER_VERSION:
    return infoString(Info.DriverVersion);
  case OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
    return infoValue(Info.MaxWorkGroupSize);
  case OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION:
    return infoValue(Info.MaxWorkGroupSizePerDimension);
  case OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS:
    return infoValue(Info.NumComputeUnits);
  case OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE:
    return infoValue(Info.GlobalMemSize);
  case OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE:
    return infoValue(Info.WorkGroupLocalMemSize);
  case OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE:
    return infoValue(Info.SubgroupSize);
  }
  llvm_unreachable("checked by checkEnum");
}

Expected<InfoBytes>
getPlatformInfoBytes(offload_platform_handle_t Platform,
                     RawEnum<offload_platform_info_t> PropName) {
  if (Error E = checkEnum(PropName, OFFLOAD_PLATFORM_INFO_BACKEND, "PropName"))
    return std::move(E);
  const Plugin &P = *Platform->Plugin;
  switch (PropName.get()) {
  case OFFLOAD_PLATFORM_INFO_NAME:
    return infoString(P.getName());
  case OFFLOAD_PLATFORM_INFO_VENDOR_NAME:
    return infoString(P.getVendorName());
  case OFFLOAD_PLATFORM_INFO_VERSION:
    return infoString(P.getVersion());
  case OFFLOAD_PLATFORM_INFO_BACKEND:
    return infoValue(P.getBackend());
  }
  llvm_unreachable("checked by checkEnum");
}

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

Error getDevice(Runtime &RT, RawEnum<offload_platform_backend_t> RawBackend,
                uint32_t Index, offload_device_handle_t *Device) {
  if (Error E = checkNotNull(Device, "Device"))
    return E;
  if (Error E = checkEnum(RawBackend, OFFLOAD_PLATFORM_BACKEND_HOST, "Backend"))
    return E;
  offload_platform_backend_t Backend = RawBackend.get();
  uint32_t Seen = 0;
  for (offload_device_handle_t D : RT.getDevices()) {
    if (Backend != OFFLOAD_PLATFORM_BACKEND_UNKNOWN &&
        D->Platform->Plugin->getBackend() != Backend)
      continue;
    if (Seen++ == Index) {
      *Device = D;
      return Error::success();
    }
  }
  return createError(OFFLOAD_ERRC_NOT_FOUND,
                     "no device with Index {0}: {1} device(s) match Backend",
                     Index, Seen);
}

Error getHostDevice(Runtime &RT, offload_device_handle_t *Device) {
  if (Error E = checkNotNull(Device, "Device"))
    return E;
  *Device = RT.getHostDevice();
  return Error::success();
}

Error getDeviceInfo(Runtime &RT, offload_device_handle_t Device,
                    RawEnum<offload_device_info_t> PropName, size_t PropSize,
                    void *PropValue) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(PropValue, "PropValue"))
    return E;
  if (Error E = checkNotZero(PropSize, "PropSize"))
    return E;
  Expected<InfoBytes> Bytes = getDeviceInfoBytes(Device, PropName);
  if (!Bytes)
    return Bytes.takeError();
  return writeInfo(*Bytes, PropSize, PropValue);
}

Error getDeviceInfoSize(Runtime &RT, offload_device_handle_t Device,
                        RawEnum<offload_device_info_t> PropName,
                        size_t *PropSizeRet) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(PropSizeRet, "PropSizeRet"))
    return E;
  Expected<InfoBytes> Bytes = getDeviceInfoBytes(Device, PropName);
  if (!Bytes)
    return Bytes.takeError();
  *PropSizeRet = Bytes->size();
  return Error::success();
}

Error getPlatformInfo(Runtime &RT, offload_platform_handle_t Platform,
                      RawEnum<offload_platform_info_t> PropName,
                      size_t PropSize, void *PropValue) {
  if (Error E = RT.checkPlatform(Platform))
    return E;
  if (Error E = checkNotNull(PropValue, "PropValue"))
    return E;
  if (Error E = checkNotZero(PropSize, "PropSize"))
    return E;
  Expected<InfoBytes> Bytes = getPlatformInfoBytes(Platform, PropName);
  if (!Bytes)
    return Bytes.takeError();
  return writeInfo(*Bytes, PropSize, PropValue);
}

Error getPlatformInfoSize(Runtime &RT, offload_platform_handle_t Platform,
                          RawEnum<offload_platform_info_t> PropName,
                          size_t *PropSizeRet) {
  if (Error E = RT.checkPlatform(Platform))
    return E;
  if (Error E = checkNotNull(PropSizeRet, "PropSizeRet"))
    return E;
  Expected<InfoBytes> Bytes = getPlatformInfoBytes(Platform, PropName);
  if (!Bytes)
    return Bytes.takeError();
  *PropSizeRet = Bytes->size();
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
  if (Error E = checkNotZero(Size, "Size"))
    return E;
  if (Error E = checkEnum(RawType, OFFLOAD_ALLOC_TYPE_MANAGED, "Type"))
    return E;
  offload_alloc_type_t Type = RawType.get();
  Expected<void *> Ptr = Device->Impl->allocate(Size, Type);
  if (!Ptr)
    return Ptr.takeError();
  RT.addAllocation(*Ptr, {Device, Size, Type});
  *AllocationOut = *Ptr;
  return Error::success();
}

Error memFree(Runtime &RT, void *Address) {
  if (Error E = checkNotNull(Address, "Address"))
    return E;
  Expected<AllocationInfo> Info = RT.takeAllocation(Address);
  if (!Info)
    return Info.takeError();
  return Info->Device->Impl->free(Address, Info->Kind);
}

/// Checks an optional queue argument: null, or a live queue.
Error checkOptionalQueue(Runtime &RT, offload_queue_handle_t Queue) {
  return Queue ? RT.checkQueue(Queue) : Error::success();
}

offload::Queue *getImpl(offload_queue_handle_t Queue) {
  return Queue ? Queue->Impl.get() : nullptr;
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
  if (Error E = checkNotZero(Size, "Size"))
    return E;
  if (isValidationEnabled()) {
    if (Error E = RT.checkInAllocationBounds(DstPtr, Size, "DstPtr"))
      return E;
    if (Error E = RT.checkInAllocationBounds(SrcPtr, Size, "SrcPtr"))
      return E;
  }
  if (isValidationEnabled() && Queue && Queue->Device != DstDevice &&
      Queue->Device != SrcDevice)
    return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                       "Queue belongs to a device that is neither DstDevice "
                       "nor SrcDevice");
  // The copy is done by the queue's device, else by the non-host side.
  offload_device_handle_t Executor = Queue ? Queue->Device
                                     : DstDevice != RT.getHostDevice()
                                         ? DstDevice
                                         : SrcDevice;
  return Executor->Impl->memcpy(getImpl(Queue), DstPtr, SrcPtr, Size);
}

Error memFill(Runtime &RT, offload_queue_handle_t Queue, void *Ptr,
              size_t PatternSize, const void *PatternPtr, size_t Size) {
  if (Error E = checkOptionalQueue(RT, Queue))
    return E;
  if (Error E = checkNotNull(Ptr, "Ptr"))
    return E;
  if (Error E = checkNotNull(PatternPtr, "PatternPtr"))
    return E;
  if (Error E = checkNotZero(Size, "Size"))
    return E;
  // Checked even without validation: a fill cannot progress without a
  // pattern.
  if (PatternSize == 0)
    return createError(OFFLOAD_ERRC_INVALID_SIZE, "PatternSize is zero");
  if (isValidationEnabled() && Size % PatternSize != 0)
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "Size ({0}) is not a multiple of PatternSize ({1})",
                       Size, PatternSize);
  if (isValidationEnabled())
    if (Error E = RT.checkInAllocationBounds(Ptr, Size, "Ptr"))
      return E;
  offload_device_handle_t Device = Queue ? Queue->Device : nullptr;
  if (!Device)
    Device = RT.findAllocationDevice(Ptr);
  if (!Device)
    Device = RT.getHostDevice();
  ArrayRef<uint8_t> Pattern(static_cast<const uint8_t *>(PatternPtr),
                            PatternSize);
  return Device->Impl->fill(getImpl(Queue), Ptr, Pattern, Size);
}

Error memRegister(Runtime &RT, offload_device_handle_t Device, void *HostPtr,
                  size_t Size, void **DevicePtrOut) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(HostPtr, "HostPtr"))
    return E;
  if (Error E = checkNotNull(DevicePtrOut, "DevicePtrOut"))
    return E;
  if (Error E = checkNotZero(Size, "Size"))
    return E;
  Expected<void *> Ptr = Device->Impl->registerHostMemory(HostPtr, Size);
  if (!Ptr)
    return Ptr.takeError();
  *DevicePtrOut = *Ptr;
  return Error::success();
}

Error memUnregister(Runtime &RT, offload_device_handle_t Device,
                    void *HostPtr) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(HostPtr, "HostPtr"))
    return E;
  return Device->Impl->unregisterHostMemory(HostPtr);
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
  Expected<std::unique_ptr<offload::Queue>> Q = Device->Impl->createQueue();
  if (!Q)
    return Q.takeError();
  *Queue = RT.Queues.add(std::unique_ptr<offload_queue_impl_t>(
      new offload_queue_impl_t{Device, std::move(*Q)}));
  return Error::success();
}

Error syncQueue(Runtime &RT, offload_queue_handle_t Queue) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  return Queue->Impl->synchronize();
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
    Waited.push_back(Events[I]->Impl);
  }
  return Queue->Impl->waitEvents(Waited);
}

Error destroyQueue(Runtime &RT, offload_queue_handle_t Queue) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  std::unique_ptr<offload_queue_impl_t> Q = RT.Queues.take(Queue);
  if (!Q)
    return createError(OFFLOAD_ERRC_INVALID_QUEUE,
                       "Queue ({0}) is not a live queue: it was destroyed or "
                       "never created",
                       static_cast<const void *>(Queue));
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
  return Queue->Impl->enqueueHostFunction(Callback, UserData);
}

Error createEvent(Runtime &RT, offload_queue_handle_t Queue,
                  offload_event_handle_t *Event) {
  if (Error E = RT.checkQueue(Queue))
    return E;
  if (Error E = checkNotNull(Event, "Event"))
    return E;
  Expected<std::shared_ptr<offload::Event>> Ev = Queue->Impl->recordEvent();
  if (!Ev)
    return Ev.takeError();
  *Event = RT.Events.add(std::unique_ptr<offload_event_impl_t>(
      new offload_event_impl_t{Queue->Device, std::move(*Ev)}));
  return Error::success();
}

Error syncEvent(Runtime &RT, offload_event_handle_t Event) {
  if (Error E = RT.checkEvent(Event))
    return E;
  return Event->Impl->synchronize();
}

Error destroyEvent(Runtime &RT, offload_event_handle_t Event) {
  if (Error E = RT.checkEvent(Event))
    return E;
  if (!RT.Events.take(Event))
    return createError(OFFLOAD_ERRC_INVALID_EVENT,
                       "Event ({0}) is not a live event: it was destroyed or "
                       "never created",
                       static_cast<const void *>(Event));
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Programs, symbols and launch
//===----------------------------------------------------------------------===//

Expected<offload_program_handle_t> loadProgram(Runtime &RT,
                                               offload_device_handle_t Device,
                                               const void *ProgData,
                                               size_t ProgDataSize) {
  Expected<std::unique_ptr<offload::Program>> P = Device->Impl->loadProgram(
      StringRef(static_cast<const char *>(ProgData), ProgDataSize));
  if (!P)
    return P.takeError();
  auto Handle = std::make_unique<offload_program_impl_t>();
  Handle->Device = Device;
  Handle->Impl = std::move(*P);
  return RT.Programs.add(std::move(Handle));
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
  if (Error E = checkNotZero(ProgDataSize, "ProgDataSize"))
    return E;
  Expected<offload_program_handle_t> P =
      loadProgram(RT, Device, ProgData, ProgDataSize);
  if (!P)
    return P.takeError();
  *Program = *P;
  return Error::success();
}

Error isValidBinary(Runtime &RT, offload_device_handle_t Device,
                    const void *ProgData, size_t ProgDataSize, bool *IsValid) {
  if (Error E = RT.checkDevice(Device))
    return E;
  if (Error E = checkNotNull(ProgData, "ProgData"))
    return E;
  if (Error E = checkNotNull(IsValid, "IsValid"))
    return E;
  *IsValid = ProgDataSize != 0 &&
             Device->Impl->isValidBinary(
                 StringRef(static_cast<const char *>(ProgData), ProgDataSize));
  return Error::success();
}

Error destroyProgram(Runtime &RT, offload_program_handle_t Program) {
  if (Error E = RT.checkProgram(Program))
    return E;
  std::unique_ptr<offload_program_impl_t> P = RT.Programs.take(Program);
  if (!P)
    return createError(OFFLOAD_ERRC_INVALID_PROGRAM,
                       "Program ({0}) is not a live program: it was destroyed "
                       "or never created",
                       static_cast<const void *>(Program));
  RT.destroyProgram(std::move(P));
  return Error::success();
}

/// Returns the symbol \p Name of kind \p Kind of \p Program, looking it up on
/// first use.
Expected<offload_symbol_handle_t> lookupSymbol(Runtime &RT,
                                               offload_program_handle_t Program,
                                               StringRef Name,
                                               offload_symbol_kind_t Kind) {
  std::lock_guard<std::mutex> Lock(Program->SymbolsMutex);
  auto Key = std::make_pair(int(Kind), Name.str());
  auto It = Program->Symbols.find(Key);
  if (It != Program->Symbols.end())
    return It->second;
  Expected<std::unique_ptr<offload::Symbol>> S =
      Program->Impl->getSymbol(Name, Kind);
  if (!S)
    return S.takeError();
  offload_symbol_handle_t Handle =
      RT.Symbols.add(std::unique_ptr<offload_symbol_impl_t>(
          new offload_symbol_impl_t{Program, std::move(*S)}));
  Program->Symbols.emplace(std::move(Key), Handle);
  return Handle;
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
  if (ArgumentsSize)
    if (Error E = checkNotNull(ArgumentsData, "ArgumentsData"))
      return E;
  offload::Symbol &Sym = *Kernel->Impl;
  if (isValidationEnabled()) {
    if (Queue && Queue->Device != Device)
      return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                         "Queue belongs to another device than Device");
    if (Sym.getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
      return createError(OFFLOAD_ERRC_SYMBOL_KIND,
                         "Kernel ('{0}') is a global variable, not a kernel",
                         Sym.getName());
    if (Kernel->Program->Device != Device)
      return createError(OFFLOAD_ERRC_INVALID_DEVICE,
                         "Kernel ('{0}') was loaded on another device than "
                         "Device",
                         Sym.getName());
    if (Error E = checkLaunchSize(*LaunchSizeArgs, Device->Impl->getInfo()))
      return E;
    std::optional<uint64_t> Expected = Sym.getArgumentsSize();
    if (Expected && *Expected != ArgumentsSize)
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "ArgumentsSize ({0}) does not match the size of the "
                         "argument buffer of kernel '{1}' ({2})",
                         ArgumentsSize, Sym.getName(), *Expected);
  }
  ArrayRef<uint8_t> Args(static_cast<const uint8_t *>(ArgumentsData),
                         ArgumentsSize);
  return Device->Impl->launchKernel(getImpl(Queue), Sym, Args, *LaunchSizeArgs);
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
  if (Error E = checkNotZero(ImageSize, "ImageSize"))
    return E;
  Expected<offload_program_handle_t> Program = RT.getOrLoadImageProgram(
      Device, Image, [&] { return loadProgram(RT, Device, Image, ImageSize); });
  if (!Program)
    return Program.takeError();
  Expected<offload_symbol_handle_t> S =
      lookupSymbol(RT, *Program, KernelName, OFFLOAD_SYMBOL_KIND_KERNEL);
  if (!S)
    return S.takeError();
  *Kernel = *S;
  return Error::success();
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
#undef OFFLOAD_ERRC_CASE
  }
  return "OFFLOAD_ERRC_<invalid>";
}

offload_result_t offloadInit(void) {
  return runEntryPoint("offloadInit", [] { return Runtime::init(); });
}

offload_result_t offloadShutDown(void) {
  return runEntryPoint("offloadShutDown", [] { return Runtime::shutDown(); });
}

offload_result_t offloadIterateDevices(offload_device_iterate_cb_t Callback,
                                       void *UserData) {
  return runEntryPoint(
      "offloadIterateDevices",
      [&](Runtime &RT) { return iterateDevices(RT, Callback, UserData); },
      "Callback", reinterpret_cast<const void *>(Callback), "UserData",
      UserData);
}

offload_result_t offloadGetDevice(offload_platform_backend_t Backend,
                                  uint32_t Index,
                                  offload_device_handle_t *Device) {
  auto RawBackend = rawEnum(Backend);
  return runEntryPoint(
      "offloadGetDevice",
      [&](Runtime &RT) { return getDevice(RT, RawBackend, Index, Device); },
      "Backend", RawBackend, "Index", Index, "Device", Device);
}

offload_result_t offloadGetHostDevice(offload_device_handle_t *Device) {
  return runEntryPoint(
      "offloadGetHostDevice",
      [&](Runtime &RT) { return getHostDevice(RT, Device); }, "Device", Device);
}

offload_result_t offloadGetDeviceInfo(offload_device_handle_t Device,
                                      offload_device_info_t PropName,
                                      size_t PropSize, void *PropValue) {
  auto RawPropName = rawEnum(PropName);
  return runEntryPoint(
      "offloadGetDeviceInfo",
      [&](Runtime &RT) {
        return getDeviceInfo(RT, Device, RawPropName, PropSize, PropValue);
      },
      "Device", Device, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t offloadGetDeviceInfoSize(offload_device_handle_t Device,
                                          offload_device_info_t PropName,
                                          size_t *PropSizeRet) {
  auto RawPropName = rawEnum(PropName);
  return runEntryPoint(
      "offloadGetDeviceInfoSize",
      [&](Runtime &RT) {
        return getDeviceInfoSize(RT, Device, RawPropName, PropSizeRet);
      },
      "Device", Device, "PropName", RawPropName, "PropSizeRet", PropSizeRet);
}

offload_result_t offloadGetPlatformInfo(offload_platform_handle_t Platform,
                                        offload_platform_info_t PropName,
                                        size_t PropSize, void *PropValue) {
  auto RawPropName = rawEnum(PropName);
  return runEntryPoint(
      "offloadGetPlatformInfo",
      [&](Runtime &RT) {
        return getPlatformInfo(RT, Platform, RawPropName, PropSize, PropValue);
      },
      "Platform", Platform, "PropName", RawPropName, "PropSize", PropSize,
      "PropValue", PropValue);
}

offload_result_t offloadGetPlatformInfoSize(offload_platform_handle_t Platform,
                                            offload_platform_info_t PropName,
                                            size_t *PropSizeRet) {
  auto RawPropName = rawEnum(PropName);
  return runEntryPoint(
      "offloadGetPlatformInfoSize",
      [&](Runtime &RT) {
        return getPlatformInfoSize(RT, Platform, RawPropName, PropSizeRet);
      },
      "Platform", Platform, "PropName", RawPropName, "PropSizeRet",
      PropSizeRet);
}

offload_result_t offloadMemAlloc(offload_device_handle_t Device,
                                 offload_alloc_type_t Type, size_t Size,
                                 void **AllocationOut) {
  auto RawType = rawEnum(Type);
  return runEntryPoint(
      "offloadMemAlloc",
      [&](Runtime &RT) {
        return memAlloc(RT, Device, RawType, Size, AllocationOut);
      },
      "Device", Device, "Type", RawType, "Size", Size, "AllocationOut",
      AllocationOut);
}

offload_result_t offloadMemFree(void *Address) {
  return runEntryPoint(
      "offloadMemFree", [&](Runtime &RT) { return memFree(RT, Address); },
      "Address", Address);
}

offload_result_t offloadMemcpy(offload_queue_handle_t Queue, void *DstPtr,
                               offload_device_handle_t DstDevice,
                               const void *SrcPtr,
                               offload_device_handle_t SrcDevice, size_t Size) {
  return runEntryPoint(
      "offloadMemcpy",
      [&](Runtime &RT) {
        return memcpy(RT, Queue, DstPtr, DstDevice, SrcPtr, SrcDevice, Size);
      },
      "Queue", Queue, "DstPtr", DstPtr, "DstDevice", DstDevice, "SrcPtr",
      SrcPtr, "SrcDevice", SrcDevice, "Size", Size);
}

offload_result_t offloadMemFill(offload_queue_handle_t Queue, void *Ptr,
                                size_t PatternSize, const void *PatternPtr,
                                size_t Size) {
  return runEntryPoint(
      "offloadMemFill",
      [&](Runtime &RT) {
        return memFill(RT, Queue, Ptr, PatternSize, PatternPtr, Size);
      },
      "Queue", Queue, "Ptr", Ptr, "PatternSize", PatternSize, "PatternPtr",
      PatternPtr, "Size", Size);
}

offload_result_t offloadMemRegister(offload_device_handle_t Device,
                                    void *HostPtr, size_t Size,
                                    void **DevicePtrOut) {
  return runEntryPoint(
      "offloadMemRegister",
      [&](Runtime &RT) {
        return memRegister(RT, Device, HostPtr, Size, DevicePtrOut);
      },
      "Device", Device, "HostPtr", HostPtr, "Size", Size, "DevicePtrOut",
      DevicePtrOut);
}

offload_result_t offloadMemUnregister(offload_device_handle_t Device,
                                      void *HostPtr) {
  return runEntryPoint(
      "offloadMemUnregister",
      [&](Runtime &RT) { return memUnregister(RT, Device, HostPtr); }, "Device",
      Device, "HostPtr", HostPtr);
}

offload_result_t offloadCreateQueue(offload_device_handle_t Device,
                                    offload_queue_handle_t *Queue) {
  return runEntryPoint(
      "offloadCreateQueue",
      [&](Runtime &RT) { return createQueue(RT, Device, Queue); }, "Device",
      Device, "Queue", Queue);
}

offload_result_t offloadSyncQueue(offload_queue_handle_t Queue) {
  return runEntryPoint(
      "offloadSyncQueue", [&](Runtime &RT) { return syncQueue(RT, Queue); },
      "Queue", Queue);
}

offload_result_t offloadWaitEvents(offload_queue_handle_t Queue,
                                   offload_event_handle_t *Events,
                                   size_t NumEvents) {
  return runEntryPoint(
      "offloadWaitEvents",
      [&](Runtime &RT) { return waitEvents(RT, Queue, Events, NumEvents); },
      "Queue", Queue, "Events", Events, "NumEvents", NumEvents);
}

offload_result_t offloadDestroyQueue(offload_queue_handle_t Queue) {
  return runEntryPoint(
      "offloadDestroyQueue",
      [&](Runtime &RT) { return destroyQueue(RT, Queue); }, "Queue", Queue);
}

offload_result_t offloadLaunchHostFunction(offload_queue_handle_t Queue,
                                           offload_host_function_cb_t Callback,
                                           void *UserData) {
  return runEntryPoint(
      "offloadLaunchHostFunction",
      [&](Runtime &RT) {
        return launchHostFunction(RT, Queue, Callback, UserData);
      },
      "Queue", Queue, "Callback", reinterpret_cast<const void *>(Callback),
      "UserData", UserData);
}

offload_result_t offloadCreateEvent(offload_queue_handle_t Queue,
                                    offload_event_handle_t *Event) {
  return runEntryPoint(
      "offloadCreateEvent",
      [&](Runtime &RT) { return createEvent(RT, Queue, Event); }, "Queue",
      Queue, "Event", Event);
}

offload_result_t offloadSyncEvent(offload_event_handle_t Event) {
  return runEntryPoint(
      "offloadSyncEvent", [&](Runtime &RT) { return syncEvent(RT, Event); },
      "Event", Event);
}

offload_result_t offloadDestroyEvent(offload_event_handle_t Event) {
  return runEntryPoint(
      "offloadDestroyEvent",
      [&](Runtime &RT) { return destroyEvent(RT, Event); }, "Event", Event);
}

offload_result_t offloadCreateProgram(offload_device_handle_t Device,
                                      const void *ProgData, size_t ProgDataSize,
                                      offload_program_handle_t *Program) {
  return runEntryPoint(
      "offloadCreateProgram",
      [&](Runtime &RT) {
        return createProgram(RT, Device, ProgData, ProgDataSize, Program);
      },
      "Device", Device, "ProgData", ProgData, "ProgDataSize", ProgDataSize,
      "Program", Program);
}

offload_result_t offloadIsValidBinary(offload_device_handle_t Device,
                                      const void *ProgData, size_t ProgDataSize,
                                      bool *IsValid) {
  return runEntryPoint(
      "offloadIsValidBinary",
      [&](Runtime &RT) {
        return isValidBinary(RT, Device, ProgData, ProgDataSize, IsValid);
      },
      "Device", Device, "ProgData", ProgData, "ProgDataSize", ProgDataSize,
      "IsValid", IsValid);
}

offload_result_t offloadDestroyProgram(offload_program_handle_t Program) {
  return runEntryPoint(
      "offloadDestroyProgram",
      [&](Runtime &RT) { return destroyProgram(RT, Program); }, "Program",
      Program);
}

offload_result_t offloadGetSymbol(offload_program_handle_t Program,
                                  const char *Name, offload_symbol_kind_t Kind,
                                  offload_symbol_handle_t *Symbol) {
  auto RawKind = rawEnum(Kind);
  return runEntryPoint(
      "offloadGetSymbol",
      [&](Runtime &RT) {
        return getSymbol(RT, Program, Name, RawKind, Symbol);
      },
      "Program", Program, "Name", Name, "Kind", RawKind, "Symbol", Symbol);
}

offload_result_t
offloadLaunchKernel(offload_queue_handle_t Queue,
                    offload_device_handle_t Device,
                    offload_symbol_handle_t Kernel, const void *ArgumentsData,
                    size_t ArgumentsSize,
                    const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  return runEntryPoint(
      "offloadLaunchKernel",
      [&](Runtime &RT) {
        return launchKernel(RT, Queue, Device, Kernel, ArgumentsData,
                            ArgumentsSize, LaunchSizeArgs);
      },
      "Queue", Queue, "Device", Device, "Kernel", Kernel, "ArgumentsData",
      ArgumentsData, "ArgumentsSize", ArgumentsSize, "LaunchSizeArgs",
      LaunchSizeArgs);
}

offload_result_t offloadGetKernelFromImage(offload_device_handle_t Device,
                                           const void *Image, size_t ImageSize,
                                           const char *KernelName,
                                           offload_symbol_handle_t *Kernel) {
  return runEntryPoint(
      "offloadGetKernelFromImage",
      [&](Runtime &RT) {
        return getKernelFromImage(RT, Device, Image, ImageSize, KernelName,
                                  Kernel);
      },
      "Device", Device, "Image", Image, "ImageSize", ImageSize, "KernelName",
      KernelName, "Kernel", Kernel);
}
