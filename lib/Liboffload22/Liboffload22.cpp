//===- Liboffload22.cpp - liboffload 22's ol* API over the offload runtime ===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A drop-in libLLVMOffload.so.22.1: the entry points of LLVM 22's liboffload
// (`<offload/OffloadAPI.h>`, Debian's liboffload-22-dev) with its exact ABI,
// implemented by the offload runtime (libOffloadRuntime.so). A program
// compiled against LLVM's header links against this library unchanged and
// runs on the runtime's devices, the host device included.
//
// The runtime's API has liboffload's shape, so most entry points forward
// with their handles cast: handles are opaque pointers on both sides, and the
// structs both sides share (code locations, launch sizes, error structs) are
// checked below to have one layout. What differs is translated here:
//  - enumerations whose values differ: the platform backends (22 numbers
//    LEVEL_ZERO 3 and HOST 4, the runtime HOST 3 and LEVEL_ZERO 4);
//  - enumerators 22 does not have (device info SUBGROUP_SIZE, ARCHITECTURE,
//    symbol info NAME..., platform info STATUS) are INVALID_ENUMERATION, as
//    liboffload 22's validation says for anything at or above *_LAST;
//  - error codes 22 does not have (INVALID_PROGRAM and INVALID_SYMBOL become
//    INVALID_ARGUMENT, NOT_READY becomes UNKNOWN), with the runtime's message;
//  - `ol_result_t` is the runtime's error struct when its code exists in 22
//    (same layout), else a translated copy that lives until exit, as
//    liboffload's errors do.
//
// The header is liboffload's own, so the compiler checks every signature
// against the ABI the program was built for.
//
//===----------------------------------------------------------------------===//

#include <offload/OffloadAPI.h>

#include "OffloadRuntime/OffloadAPI.h"

#include <cstddef>
#include <cstring>
#include <deque>
#include <mutex>
#include <type_traits>

//===----------------------------------------------------------------------===//
// One layout on both sides
//===----------------------------------------------------------------------===//

#define OL22_SAME_LAYOUT(OL, OURS, FIELD)                                      \
  static_assert(offsetof(OL, FIELD) == offsetof(OURS, FIELD) &&                \
                    sizeof(((OL *)nullptr)->FIELD) ==                          \
                        sizeof(((OURS *)nullptr)->FIELD),                      \
                "liboffload 22's " #OL "::" #FIELD " differs")

static_assert(sizeof(ol_error_struct_t) == sizeof(offload_error_struct_t));
OL22_SAME_LAYOUT(ol_error_struct_t, offload_error_struct_t, Code);
OL22_SAME_LAYOUT(ol_error_struct_t, offload_error_struct_t, Details);
static_assert(sizeof(ol_code_location_t) == sizeof(offload_code_location_t));
OL22_SAME_LAYOUT(ol_code_location_t, offload_code_location_t, FunctionName);
OL22_SAME_LAYOUT(ol_code_location_t, offload_code_location_t, SourceFile);
OL22_SAME_LAYOUT(ol_code_location_t, offload_code_location_t, LineNumber);
OL22_SAME_LAYOUT(ol_code_location_t, offload_code_location_t, ColumnNumber);
static_assert(sizeof(ol_kernel_launch_size_args_t) ==
              sizeof(offload_kernel_launch_size_args_t));
OL22_SAME_LAYOUT(ol_kernel_launch_size_args_t,
                 offload_kernel_launch_size_args_t, Dimensions);
OL22_SAME_LAYOUT(ol_kernel_launch_size_args_t,
                 offload_kernel_launch_size_args_t, NumGroups);
OL22_SAME_LAYOUT(ol_kernel_launch_size_args_t,
                 offload_kernel_launch_size_args_t, GroupSize);
OL22_SAME_LAYOUT(ol_kernel_launch_size_args_t,
                 offload_kernel_launch_size_args_t, DynSharedMemory);
static_assert(sizeof(ol_dimensions_t) == sizeof(offload_dimensions_t));

// Enumerations with the same values on both sides (22's *_LAST bounds the
// range it accepts; the runtime may have more).
#define OL22_SAME_VALUE(OL, OURS)                                              \
  static_assert(static_cast<int>(OL) == static_cast<int>(OURS),               \
                #OL " differs from " #OURS)
OL22_SAME_VALUE(OL_ERRC_SYMBOL_KIND, OFFLOAD_ERRC_SYMBOL_KIND);
OL22_SAME_VALUE(OL_ERRC_LAST, OFFLOAD_ERRC_INVALID_PROGRAM);
OL22_SAME_VALUE(OL_ERRC_INVALID_EVENT, OFFLOAD_ERRC_INVALID_EVENT);
OL22_SAME_VALUE(OL_ERRC_UNINITIALIZED, OFFLOAD_ERRC_UNINITIALIZED);
OL22_SAME_VALUE(OL_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF,
                OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF);
OL22_SAME_VALUE(OL_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION,
                OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
OL22_SAME_VALUE(OL_DEVICE_INFO_GLOBAL_MEM_SIZE,
                OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE);
OL22_SAME_VALUE(OL_DEVICE_TYPE_HOST, OFFLOAD_DEVICE_TYPE_HOST);
OL22_SAME_VALUE(OL_ALLOC_TYPE_MANAGED, OFFLOAD_ALLOC_TYPE_MANAGED);
OL22_SAME_VALUE(OL_MEM_INFO_TYPE, OFFLOAD_MEM_INFO_TYPE);
OL22_SAME_VALUE(OL_QUEUE_INFO_EMPTY, OFFLOAD_QUEUE_INFO_EMPTY);
OL22_SAME_VALUE(OL_EVENT_INFO_IS_COMPLETE, OFFLOAD_EVENT_INFO_IS_COMPLETE);
OL22_SAME_VALUE(OL_SYMBOL_KIND_GLOBAL_VARIABLE,
                OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE);
OL22_SAME_VALUE(OL_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE,
                OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE);
OL22_SAME_VALUE(OL_PLATFORM_INFO_BACKEND, OFFLOAD_PLATFORM_INFO_BACKEND);
OL22_SAME_VALUE(OL_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT,
                OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT);

namespace {

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

/// Errors whose code liboffload 22 lacks, translated; they live until exit
/// (a deque never moves its elements).
struct TranslatedErrors {
  std::mutex Mutex;
  std::deque<ol_error_struct_t> Errors;
};

TranslatedErrors &translatedErrors() {
  static auto *Store = new TranslatedErrors; // never destroyed
  return *Store;
}

ol_result_t result(offload_result_t R) {
  if (R == OFFLOAD_SUCCESS)
    return OL_SUCCESS;
  if (static_cast<int>(R->Code) < static_cast<int>(OL_ERRC_LAST))
    return reinterpret_cast<ol_result_t>(R);
  ol_errc_t Code = OL_ERRC_UNKNOWN;
  switch (R->Code) {
  case OFFLOAD_ERRC_INVALID_PROGRAM:
  case OFFLOAD_ERRC_INVALID_SYMBOL:
    Code = OL_ERRC_INVALID_ARGUMENT;
    break;
  default:
    break;
  }
  TranslatedErrors &T = translatedErrors();
  std::lock_guard<std::mutex> Lock(T.Mutex);
  T.Errors.push_back({Code, R->Details});
  return &T.Errors.back();
}

/// An error of liboffload 22's own validation.
ol_result_t error(ol_errc_t Code, const char *Details) {
  TranslatedErrors &T = translatedErrors();
  std::lock_guard<std::mutex> Lock(T.Mutex);
  T.Errors.push_back({Code, Details});
  return &T.Errors.back();
}

//===----------------------------------------------------------------------===//
// Handles and enumerations
//===----------------------------------------------------------------------===//

template <typename To, typename From> To cast(From Handle) {
  static_assert(std::is_pointer_v<From> && std::is_pointer_v<To>);
  return reinterpret_cast<To>(Handle);
}

offload_code_location_t *loc(ol_code_location_t *L) {
  return reinterpret_cast<offload_code_location_t *>(L);
}

ol_platform_backend_t fromBackend(uint32_t B) {
  switch (B) {
  case OFFLOAD_PLATFORM_BACKEND_CUDA:
    return OL_PLATFORM_BACKEND_CUDA;
  case OFFLOAD_PLATFORM_BACKEND_AMDGPU:
    return OL_PLATFORM_BACKEND_AMDGPU;
  case OFFLOAD_PLATFORM_BACKEND_LEVEL_ZERO:
    return OL_PLATFORM_BACKEND_LEVEL_ZERO;
  case OFFLOAD_PLATFORM_BACKEND_HOST:
    return OL_PLATFORM_BACKEND_HOST;
  default:
    return OL_PLATFORM_BACKEND_UNKNOWN;
  }
}

/// liboffload 22 validates an enumeration argument against its *_LAST.
template <typename Enum> bool inRange(Enum Value, Enum Last) {
  return static_cast<uint32_t>(Value) < static_cast<uint32_t>(Last);
}

#define OL22_CHECK_ENUM(VALUE, LAST)                                           \
  do {                                                                         \
    if (!inRange(VALUE, LAST))                                                 \
      return error(OL_ERRC_INVALID_ENUMERATION,                                \
                   "liboffload 22: " #VALUE " is not a valid enumerator");     \
  } while (0)

//===----------------------------------------------------------------------===//
// Entry points, implemented once; the plain variants pass no location.
//===----------------------------------------------------------------------===//

ol_result_t getPlatformInfo(ol_platform_handle_t Platform,
                            ol_platform_info_t PropName, size_t PropSize,
                            void *PropValue, ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_PLATFORM_INFO_LAST);
  offload_result_t R = offloadGetPlatformInfoWithCodeLoc(
      cast<offload_platform_handle_t>(Platform),
      static_cast<offload_platform_info_t>(PropName), PropSize, PropValue,
      loc(L));
  if (R == OFFLOAD_SUCCESS && PropName == OL_PLATFORM_INFO_BACKEND) {
    uint32_t Ours;
    std::memcpy(&Ours, PropValue, sizeof(Ours));
    ol_platform_backend_t Theirs = fromBackend(Ours);
    std::memcpy(PropValue, &Theirs, sizeof(Theirs));
  }
  return result(R);
}

} // namespace

extern "C" {

//===----------------------------------------------------------------------===//
// Initialization
//===----------------------------------------------------------------------===//

ol_result_t olInit() { return result(offloadInit()); }
ol_result_t olInitWithCodeLoc(ol_code_location_t *L) {
  return result(offloadInitWithCodeLoc(loc(L)));
}
ol_result_t olShutDown() { return result(offloadShutDown()); }
ol_result_t olShutDownWithCodeLoc(ol_code_location_t *L) {
  return result(offloadShutDownWithCodeLoc(loc(L)));
}

//===----------------------------------------------------------------------===//
// Platforms and devices
//===----------------------------------------------------------------------===//

ol_result_t olGetPlatformInfo(ol_platform_handle_t Platform,
                              ol_platform_info_t PropName, size_t PropSize,
                              void *PropValue) {
  return getPlatformInfo(Platform, PropName, PropSize, PropValue, nullptr);
}
ol_result_t olGetPlatformInfoWithCodeLoc(ol_platform_handle_t Platform,
                                         ol_platform_info_t PropName,
                                         size_t PropSize, void *PropValue,
                                         ol_code_location_t *L) {
  return getPlatformInfo(Platform, PropName, PropSize, PropValue, L);
}
ol_result_t olGetPlatformInfoSize(ol_platform_handle_t Platform,
                                  ol_platform_info_t PropName,
                                  size_t *PropSizeRet) {
  return olGetPlatformInfoSizeWithCodeLoc(Platform, PropName, PropSizeRet,
                                          nullptr);
}
ol_result_t olGetPlatformInfoSizeWithCodeLoc(ol_platform_handle_t Platform,
                                             ol_platform_info_t PropName,
                                             size_t *PropSizeRet,
                                             ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_PLATFORM_INFO_LAST);
  return result(offloadGetPlatformInfoSizeWithCodeLoc(
      cast<offload_platform_handle_t>(Platform),
      static_cast<offload_platform_info_t>(PropName), PropSizeRet, loc(L)));
}

ol_result_t olIterateDevices(ol_device_iterate_cb_t Callback,
                             void *UserData) {
  return olIterateDevicesWithCodeLoc(Callback, UserData, nullptr);
}
ol_result_t olIterateDevicesWithCodeLoc(ol_device_iterate_cb_t Callback,
                                        void *UserData,
                                        ol_code_location_t *L) {
  struct Closure {
    ol_device_iterate_cb_t Callback;
    void *UserData;
  } C{Callback, UserData};
  // A null callback is the runtime's INVALID_NULL_POINTER, as in 22.
  return result(offloadIterateDevicesWithCodeLoc(
      Callback ? +[](offload_device_handle_t Device, void *Data) {
        auto *C = static_cast<Closure *>(Data);
        return C->Callback(cast<ol_device_handle_t>(Device), C->UserData);
      }
               : nullptr,
      &C, loc(L)));
}

ol_result_t olGetDeviceInfo(ol_device_handle_t Device,
                            ol_device_info_t PropName, size_t PropSize,
                            void *PropValue) {
  return olGetDeviceInfoWithCodeLoc(Device, PropName, PropSize, PropValue,
                                    nullptr);
}
ol_result_t olGetDeviceInfoWithCodeLoc(ol_device_handle_t Device,
                                       ol_device_info_t PropName,
                                       size_t PropSize, void *PropValue,
                                       ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_DEVICE_INFO_LAST);
  return result(offloadGetDeviceInfoWithCodeLoc(
      cast<offload_device_handle_t>(Device),
      static_cast<offload_device_info_t>(PropName), PropSize, PropValue,
      loc(L)));
}
ol_result_t olGetDeviceInfoSize(ol_device_handle_t Device,
                                ol_device_info_t PropName,
                                size_t *PropSizeRet) {
  return olGetDeviceInfoSizeWithCodeLoc(Device, PropName, PropSizeRet,
                                        nullptr);
}
ol_result_t olGetDeviceInfoSizeWithCodeLoc(ol_device_handle_t Device,
                                           ol_device_info_t PropName,
                                           size_t *PropSizeRet,
                                           ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_DEVICE_INFO_LAST);
  return result(offloadGetDeviceInfoSizeWithCodeLoc(
      cast<offload_device_handle_t>(Device),
      static_cast<offload_device_info_t>(PropName), PropSizeRet, loc(L)));
}

ol_result_t olCalculateOptimalOccupancy(ol_device_handle_t Device,
                                        ol_symbol_handle_t Kernel,
                                        size_t SharedMemory,
                                        size_t *GroupSize) {
  return olCalculateOptimalOccupancyWithCodeLoc(Device, Kernel, SharedMemory,
                                                GroupSize, nullptr);
}
ol_result_t olCalculateOptimalOccupancyWithCodeLoc(ol_device_handle_t Device,
                                                   ol_symbol_handle_t Kernel,
                                                   size_t SharedMemory,
                                                   size_t *GroupSize,
                                                   ol_code_location_t *L) {
  return result(offloadCalculateOptimalOccupancyWithCodeLoc(
      cast<offload_device_handle_t>(Device),
      cast<offload_symbol_handle_t>(Kernel), SharedMemory, GroupSize, loc(L)));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

ol_result_t olMemAlloc(ol_device_handle_t Device, ol_alloc_type_t Type,
                       size_t Size, void **AllocationOut) {
  return olMemAllocWithCodeLoc(Device, Type, Size, AllocationOut, nullptr);
}
ol_result_t olMemAllocWithCodeLoc(ol_device_handle_t Device,
                                  ol_alloc_type_t Type, size_t Size,
                                  void **AllocationOut,
                                  ol_code_location_t *L) {
  OL22_CHECK_ENUM(Type, OL_ALLOC_TYPE_LAST);
  return result(offloadMemAllocWithCodeLoc(
      cast<offload_device_handle_t>(Device),
      static_cast<offload_alloc_type_t>(Type), Size, AllocationOut, loc(L)));
}

ol_result_t olMemFree(void *Address) {
  return result(offloadMemFree(Address));
}
ol_result_t olMemFreeWithCodeLoc(void *Address, ol_code_location_t *L) {
  return result(offloadMemFreeWithCodeLoc(Address, loc(L)));
}

ol_result_t olGetMemInfo(const void *Ptr, ol_mem_info_t PropName,
                         size_t PropSize, void *PropValue) {
  return olGetMemInfoWithCodeLoc(Ptr, PropName, PropSize, PropValue, nullptr);
}
ol_result_t olGetMemInfoWithCodeLoc(const void *Ptr, ol_mem_info_t PropName,
                                    size_t PropSize, void *PropValue,
                                    ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_MEM_INFO_LAST);
  return result(offloadGetMemInfoWithCodeLoc(
      Ptr, static_cast<offload_mem_info_t>(PropName), PropSize, PropValue,
      loc(L)));
}
ol_result_t olGetMemInfoSize(const void *Ptr, ol_mem_info_t PropName,
                             size_t *PropSizeRet) {
  return olGetMemInfoSizeWithCodeLoc(Ptr, PropName, PropSizeRet, nullptr);
}
ol_result_t olGetMemInfoSizeWithCodeLoc(const void *Ptr,
                                        ol_mem_info_t PropName,
                                        size_t *PropSizeRet,
                                        ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_MEM_INFO_LAST);
  return result(offloadGetMemInfoSizeWithCodeLoc(
      Ptr, static_cast<offload_mem_info_t>(PropName), PropSizeRet, loc(L)));
}

ol_result_t olMemcpy(ol_queue_handle_t Queue, void *DstPtr,
                     ol_device_handle_t DstDevice, const void *SrcPtr,
                     ol_device_handle_t SrcDevice, size_t Size) {
  return olMemcpyWithCodeLoc(Queue, DstPtr, DstDevice, SrcPtr, SrcDevice,
                             Size, nullptr);
}
ol_result_t olMemcpyWithCodeLoc(ol_queue_handle_t Queue, void *DstPtr,
                                ol_device_handle_t DstDevice,
                                const void *SrcPtr,
                                ol_device_handle_t SrcDevice, size_t Size,
                                ol_code_location_t *L) {
  return result(offloadMemcpyWithCodeLoc(
      cast<offload_queue_handle_t>(Queue), DstPtr,
      cast<offload_device_handle_t>(DstDevice), SrcPtr,
      cast<offload_device_handle_t>(SrcDevice), Size, loc(L)));
}

ol_result_t olMemFill(ol_queue_handle_t Queue, void *Ptr, size_t PatternSize,
                      const void *PatternPtr, size_t FillSize) {
  return olMemFillWithCodeLoc(Queue, Ptr, PatternSize, PatternPtr, FillSize,
                              nullptr);
}
ol_result_t olMemFillWithCodeLoc(ol_queue_handle_t Queue, void *Ptr,
                                 size_t PatternSize, const void *PatternPtr,
                                 size_t FillSize, ol_code_location_t *L) {
  return result(offloadMemFillWithCodeLoc(cast<offload_queue_handle_t>(Queue),
                                          Ptr, PatternSize, PatternPtr,
                                          FillSize, loc(L)));
}

ol_result_t olMemRegister(ol_device_handle_t Device, void *Ptr, size_t Size,
                          ol_memory_register_flags_t Flags,
                          void **PinnedPtr) {
  return olMemRegisterWithCodeLoc(Device, Ptr, Size, Flags, PinnedPtr,
                                  nullptr);
}
ol_result_t olMemRegisterWithCodeLoc(ol_device_handle_t Device, void *Ptr,
                                     size_t Size,
                                     ol_memory_register_flags_t Flags,
                                     void **PinnedPtr,
                                     ol_code_location_t *L) {
  return result(offloadMemRegisterWithCodeLoc(
      cast<offload_device_handle_t>(Device), Ptr, Size, Flags, PinnedPtr,
      loc(L)));
}
ol_result_t olMemUnregister(ol_device_handle_t Device, void *Ptr) {
  return olMemUnregisterWithCodeLoc(Device, Ptr, nullptr);
}
ol_result_t olMemUnregisterWithCodeLoc(ol_device_handle_t Device, void *Ptr,
                                       ol_code_location_t *L) {
  return result(offloadMemUnregisterWithCodeLoc(
      cast<offload_device_handle_t>(Device), Ptr, loc(L)));
}

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

ol_result_t olCreateQueue(ol_device_handle_t Device, ol_queue_handle_t *Queue) {
  return olCreateQueueWithCodeLoc(Device, Queue, nullptr);
}
ol_result_t olCreateQueueWithCodeLoc(ol_device_handle_t Device,
                                     ol_queue_handle_t *Queue,
                                     ol_code_location_t *L) {
  return result(offloadCreateQueueWithCodeLoc(
      cast<offload_device_handle_t>(Device),
      reinterpret_cast<offload_queue_handle_t *>(Queue), loc(L)));
}
ol_result_t olDestroyQueue(ol_queue_handle_t Queue) {
  return olDestroyQueueWithCodeLoc(Queue, nullptr);
}
ol_result_t olDestroyQueueWithCodeLoc(ol_queue_handle_t Queue,
                                      ol_code_location_t *L) {
  return result(offloadDestroyQueueWithCodeLoc(
      cast<offload_queue_handle_t>(Queue), loc(L)));
}
ol_result_t olSyncQueue(ol_queue_handle_t Queue) {
  return olSyncQueueWithCodeLoc(Queue, nullptr);
}
ol_result_t olSyncQueueWithCodeLoc(ol_queue_handle_t Queue,
                                   ol_code_location_t *L) {
  return result(
      offloadSyncQueueWithCodeLoc(cast<offload_queue_handle_t>(Queue), loc(L)));
}
ol_result_t olWaitEvents(ol_queue_handle_t Queue, ol_event_handle_t *Events,
                         size_t NumEvents) {
  return olWaitEventsWithCodeLoc(Queue, Events, NumEvents, nullptr);
}
ol_result_t olWaitEventsWithCodeLoc(ol_queue_handle_t Queue,
                                    ol_event_handle_t *Events,
                                    size_t NumEvents, ol_code_location_t *L) {
  return result(offloadWaitEventsWithCodeLoc(
      cast<offload_queue_handle_t>(Queue),
      reinterpret_cast<offload_event_handle_t *>(Events), NumEvents, loc(L)));
}
ol_result_t olGetQueueInfo(ol_queue_handle_t Queue, ol_queue_info_t PropName,
                           size_t PropSize, void *PropValue) {
  return olGetQueueInfoWithCodeLoc(Queue, PropName, PropSize, PropValue,
                                   nullptr);
}
ol_result_t olGetQueueInfoWithCodeLoc(ol_queue_handle_t Queue,
                                      ol_queue_info_t PropName,
                                      size_t PropSize, void *PropValue,
                                      ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_QUEUE_INFO_LAST);
  return result(offloadGetQueueInfoWithCodeLoc(
      cast<offload_queue_handle_t>(Queue),
      static_cast<offload_queue_info_t>(PropName), PropSize, PropValue,
      loc(L)));
}
ol_result_t olGetQueueInfoSize(ol_queue_handle_t Queue,
                               ol_queue_info_t PropName,
                               size_t *PropSizeRet) {
  return olGetQueueInfoSizeWithCodeLoc(Queue, PropName, PropSizeRet, nullptr);
}
ol_result_t olGetQueueInfoSizeWithCodeLoc(ol_queue_handle_t Queue,
                                          ol_queue_info_t PropName,
                                          size_t *PropSizeRet,
                                          ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_QUEUE_INFO_LAST);
  return result(offloadGetQueueInfoSizeWithCodeLoc(
      cast<offload_queue_handle_t>(Queue),
      static_cast<offload_queue_info_t>(PropName), PropSizeRet, loc(L)));
}
ol_result_t olLaunchHostFunction(ol_queue_handle_t Queue,
                                 ol_host_function_cb_t Callback,
                                 void *UserData) {
  return olLaunchHostFunctionWithCodeLoc(Queue, Callback, UserData, nullptr);
}
ol_result_t olLaunchHostFunctionWithCodeLoc(ol_queue_handle_t Queue,
                                            ol_host_function_cb_t Callback,
                                            void *UserData,
                                            ol_code_location_t *L) {
  static_assert(std::is_same_v<ol_host_function_cb_t,
                               offload_host_function_cb_t>);
  return result(offloadLaunchHostFunctionWithCodeLoc(
      cast<offload_queue_handle_t>(Queue), Callback, UserData, loc(L)));
}

ol_result_t olCreateEvent(ol_queue_handle_t Queue, ol_event_handle_t *Event) {
  return olCreateEventWithCodeLoc(Queue, Event, nullptr);
}
ol_result_t olCreateEventWithCodeLoc(ol_queue_handle_t Queue,
                                     ol_event_handle_t *Event,
                                     ol_code_location_t *L) {
  return result(offloadCreateEventWithCodeLoc(
      cast<offload_queue_handle_t>(Queue),
      reinterpret_cast<offload_event_handle_t *>(Event), loc(L)));
}
ol_result_t olDestroyEvent(ol_event_handle_t Event) {
  return olDestroyEventWithCodeLoc(Event, nullptr);
}
ol_result_t olDestroyEventWithCodeLoc(ol_event_handle_t Event,
                                      ol_code_location_t *L) {
  return result(offloadDestroyEventWithCodeLoc(
      cast<offload_event_handle_t>(Event), loc(L)));
}
ol_result_t olSyncEvent(ol_event_handle_t Event) {
  return olSyncEventWithCodeLoc(Event, nullptr);
}
ol_result_t olSyncEventWithCodeLoc(ol_event_handle_t Event,
                                   ol_code_location_t *L) {
  return result(
      offloadSyncEventWithCodeLoc(cast<offload_event_handle_t>(Event), loc(L)));
}
ol_result_t olGetEventInfo(ol_event_handle_t Event, ol_event_info_t PropName,
                           size_t PropSize, void *PropValue) {
  return olGetEventInfoWithCodeLoc(Event, PropName, PropSize, PropValue,
                                   nullptr);
}
ol_result_t olGetEventInfoWithCodeLoc(ol_event_handle_t Event,
                                      ol_event_info_t PropName,
                                      size_t PropSize, void *PropValue,
                                      ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_EVENT_INFO_LAST);
  return result(offloadGetEventInfoWithCodeLoc(
      cast<offload_event_handle_t>(Event),
      static_cast<offload_event_info_t>(PropName), PropSize, PropValue,
      loc(L)));
}
ol_result_t olGetEventInfoSize(ol_event_handle_t Event,
                               ol_event_info_t PropName,
                               size_t *PropSizeRet) {
  return olGetEventInfoSizeWithCodeLoc(Event, PropName, PropSizeRet, nullptr);
}
ol_result_t olGetEventInfoSizeWithCodeLoc(ol_event_handle_t Event,
                                          ol_event_info_t PropName,
                                          size_t *PropSizeRet,
                                          ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_EVENT_INFO_LAST);
  return result(offloadGetEventInfoSizeWithCodeLoc(
      cast<offload_event_handle_t>(Event),
      static_cast<offload_event_info_t>(PropName), PropSizeRet, loc(L)));
}

//===----------------------------------------------------------------------===//
// Programs, symbols and launches
//===----------------------------------------------------------------------===//

ol_result_t olCreateProgram(ol_device_handle_t Device, const void *ProgData,
                            size_t ProgDataSize, ol_program_handle_t *Program) {
  return olCreateProgramWithCodeLoc(Device, ProgData, ProgDataSize, Program,
                                    nullptr);
}
ol_result_t olCreateProgramWithCodeLoc(ol_device_handle_t Device,
                                       const void *ProgData,
                                       size_t ProgDataSize,
                                       ol_program_handle_t *Program,
                                       ol_code_location_t *L) {
  return result(offloadCreateProgramWithCodeLoc(
      cast<offload_device_handle_t>(Device), ProgData, ProgDataSize,
      reinterpret_cast<offload_program_handle_t *>(Program), loc(L)));
}
ol_result_t olIsValidBinary(ol_device_handle_t Device, const void *ProgData,
                            size_t ProgDataSize, bool *Valid) {
  return olIsValidBinaryWithCodeLoc(Device, ProgData, ProgDataSize, Valid,
                                    nullptr);
}
ol_result_t olIsValidBinaryWithCodeLoc(ol_device_handle_t Device,
                                       const void *ProgData,
                                       size_t ProgDataSize, bool *Valid,
                                       ol_code_location_t *L) {
  return result(offloadIsValidBinaryWithCodeLoc(
      cast<offload_device_handle_t>(Device), ProgData, ProgDataSize, Valid,
      loc(L)));
}
ol_result_t olDestroyProgram(ol_program_handle_t Program) {
  return olDestroyProgramWithCodeLoc(Program, nullptr);
}
ol_result_t olDestroyProgramWithCodeLoc(ol_program_handle_t Program,
                                        ol_code_location_t *L) {
  return result(offloadDestroyProgramWithCodeLoc(
      cast<offload_program_handle_t>(Program), loc(L)));
}

ol_result_t olGetSymbol(ol_program_handle_t Program, const char *Name,
                        ol_symbol_kind_t Kind, ol_symbol_handle_t *Symbol) {
  return olGetSymbolWithCodeLoc(Program, Name, Kind, Symbol, nullptr);
}
ol_result_t olGetSymbolWithCodeLoc(ol_program_handle_t Program,
                                   const char *Name, ol_symbol_kind_t Kind,
                                   ol_symbol_handle_t *Symbol,
                                   ol_code_location_t *L) {
  OL22_CHECK_ENUM(Kind, OL_SYMBOL_KIND_LAST);
  return result(offloadGetSymbolWithCodeLoc(
      cast<offload_program_handle_t>(Program), Name,
      static_cast<offload_symbol_kind_t>(Kind),
      reinterpret_cast<offload_symbol_handle_t *>(Symbol), loc(L)));
}
ol_result_t olGetSymbolInfo(ol_symbol_handle_t Symbol,
                            ol_symbol_info_t PropName, size_t PropSize,
                            void *PropValue) {
  return olGetSymbolInfoWithCodeLoc(Symbol, PropName, PropSize, PropValue,
                                    nullptr);
}
ol_result_t olGetSymbolInfoWithCodeLoc(ol_symbol_handle_t Symbol,
                                       ol_symbol_info_t PropName,
                                       size_t PropSize, void *PropValue,
                                       ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_SYMBOL_INFO_LAST);
  return result(offloadGetSymbolInfoWithCodeLoc(
      cast<offload_symbol_handle_t>(Symbol),
      static_cast<offload_symbol_info_t>(PropName), PropSize, PropValue,
      loc(L)));
}
ol_result_t olGetSymbolInfoSize(ol_symbol_handle_t Symbol,
                                ol_symbol_info_t PropName,
                                size_t *PropSizeRet) {
  return olGetSymbolInfoSizeWithCodeLoc(Symbol, PropName, PropSizeRet,
                                        nullptr);
}
ol_result_t olGetSymbolInfoSizeWithCodeLoc(ol_symbol_handle_t Symbol,
                                           ol_symbol_info_t PropName,
                                           size_t *PropSizeRet,
                                           ol_code_location_t *L) {
  OL22_CHECK_ENUM(PropName, OL_SYMBOL_INFO_LAST);
  return result(offloadGetSymbolInfoSizeWithCodeLoc(
      cast<offload_symbol_handle_t>(Symbol),
      static_cast<offload_symbol_info_t>(PropName), PropSizeRet, loc(L)));
}

ol_result_t olLaunchKernel(ol_queue_handle_t Queue, ol_device_handle_t Device,
                           ol_symbol_handle_t Kernel,
                           const void *ArgumentsData, size_t ArgumentsSize,
                           const ol_kernel_launch_size_args_t *LaunchSizeArgs) {
  return olLaunchKernelWithCodeLoc(Queue, Device, Kernel, ArgumentsData,
                                   ArgumentsSize, LaunchSizeArgs, nullptr);
}
ol_result_t
olLaunchKernelWithCodeLoc(ol_queue_handle_t Queue, ol_device_handle_t Device,
                          ol_symbol_handle_t Kernel, const void *ArgumentsData,
                          size_t ArgumentsSize,
                          const ol_kernel_launch_size_args_t *LaunchSizeArgs,
                          ol_code_location_t *L) {
  return result(offloadLaunchKernelWithCodeLoc(
      cast<offload_queue_handle_t>(Queue),
      cast<offload_device_handle_t>(Device),
      cast<offload_symbol_handle_t>(Kernel), ArgumentsData, ArgumentsSize,
      reinterpret_cast<const offload_kernel_launch_size_args_t *>(
          LaunchSizeArgs),
      loc(L)));
}

} // extern "C"
