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
// structs both sides share (code locations, launch sizes, error structs) have
// one layout. The entry points, those checks and the translation of error
// codes are generated from include/OffloadRuntime/API/Liboffload22.td
// (offload-tblgen -gen-liboffload22, Liboffload22Entries.inc); this file
// holds what the generated code calls. What differs is translated:
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

/// The runtime's result as liboffload 22's (defined after the generated
/// code, which translates the error codes).
ol_result_t result(offload_result_t R);

TranslatedErrors &translatedErrors() {
  static auto *Store = new TranslatedErrors; // never destroyed
  return *Store;
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
// The entry points Liboffload22.td says are written by hand
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

/// olIterateDevices: 22's callback takes 22's handle type.
ol_result_t iterateDevices(ol_device_iterate_cb_t Callback, void *UserData,
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

} // namespace

// The layout and value checks, the error-code translation and the ol*
// entry points.
#include "Liboffload22Entries.inc"

namespace {
ol_result_t result(offload_result_t R) {
  if (R == OFFLOAD_SUCCESS)
    return OL_SUCCESS;
  ol_errc_t Code = toLiboffload22Errc(R->Code);
  if (static_cast<int>(Code) == static_cast<int>(R->Code))
    return reinterpret_cast<ol_result_t>(R); // one layout (checked)
  TranslatedErrors &T = translatedErrors();
  std::lock_guard<std::mutex> Lock(T.Mutex);
  T.Errors.push_back({Code, R->Details});
  return &T.Errors.back();
}
} // namespace
