//===- Trace.h - Entry point wrapper: tracing and errors --------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every C entry point is a thin call of runEntryPoint: it runs the
// implementation (an llvm::Error-returning callable), converts its error once
// into an offload_result_t and, with OFFLOAD_TRACE=1, prints
//
//   offloadMemAlloc(Device=0x..., Type=DEVICE, Size=64, AllocationOut=0x...)
//       -> OFFLOAD_SUCCESS
//
// on one line of stderr (or "-> OFFLOAD_ERRC_...: message"; a WithCodeLoc
// variant adds " @ Function (File:Line:Column)" before the arrow).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_TRACE_H
#define OFFLOADRUNTIME_LIB_TRACE_H

#include "Check.h"
#include "OffloadSupport/Error.h"
#include "Runtime.h"
#include "Validation.h"

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <type_traits>

namespace offload {
namespace trace {

/// Printers for the argument types of the C API.
void printArg(llvm::raw_ostream &OS, const void *Ptr);
void printArg(llvm::raw_ostream &OS, const char *Str);
void printArg(llvm::raw_ostream &OS, size_t Value);
void printArg(llvm::raw_ostream &OS, uint32_t Value);
/// An enum argument: its enumerator without prefix (EnumInfo, generated from
/// OffloadAPI.td), or "<invalid N>".
template <typename E> void printArg(llvm::raw_ostream &OS, RawEnum<E> Value) {
  if (const char *Name = EnumInfo<E>::getName(Value.Value))
    OS << Name;
  else
    OS << "<invalid " << Value.Value << '>';
}
/// The structs of the C API (generated, OffloadAPIPrinters.inc).
#define OFFLOAD_API_PRINTERS_DECL
#include "OffloadAPIPrinters.inc"
#undef OFFLOAD_API_PRINTERS_DECL
inline void printArg(llvm::raw_ostream &OS, void *Ptr) {
  printArg(OS, static_cast<const void *>(Ptr));
}
/// Handles and other pointers print as addresses.
template <typename T> void printArg(llvm::raw_ostream &OS, T *Ptr) {
  printArg(OS, static_cast<const void *>(Ptr));
}
template <typename T> void printArg(llvm::raw_ostream &OS, const T *Ptr) {
  printArg(OS, static_cast<const void *>(Ptr));
}

inline void printArgs(llvm::raw_ostream &, bool) {}
template <typename T, typename... Rest>
void printArgs(llvm::raw_ostream &OS, bool First, const char *Name,
               const T &Value, const Rest &...More) {
  if (!First)
    OS << ", ";
  OS << Name << '=';
  printArg(OS, Value);
  printArgs(OS, false, More...);
}

/// Prints the complete trace line of one call, atomically; \p Location, if
/// not null, is the caller's (WithCodeLoc variants).
void printCall(llvm::StringRef Function, llvm::StringRef Args,
               const offload_code_location_t *Location,
               offload_result_t Result);

} // namespace trace

/// Runs the implementation \p Impl of C entry point \p Function, called from
/// \p Location (null unless a WithCodeLoc variant), and returns its result;
/// \p NamesAndArgs alternate argument names and values, printed when
/// tracing. An implementation taking a Runtime & is only called while the
/// runtime is initialized; otherwise the entry point fails with
/// UNINITIALIZED.
template <typename ImplFn, typename... Ts>
offload_result_t runEntryPoint(const char *Function,
                               const offload_code_location_t *Location,
                               ImplFn &&Impl, const Ts &...NamesAndArgs) {
  auto Call = [&]() -> llvm::Error {
    if constexpr (std::is_invocable_v<ImplFn, Runtime &>) {
      llvm::Expected<Runtime &> RT = Runtime::get();
      if (!RT)
        return RT.takeError();
      return Impl(*RT);
    } else {
      return Impl();
    }
  };
  offload_result_t Result;
  {
    check::CodeLocationScope Where(Location);
    Result = toResult(Call());
  }
  if (!isTraceEnabled())
    return Result;
  std::string Args;
  llvm::raw_string_ostream OS(Args);
  trace::printArgs(OS, true, NamesAndArgs...);
  trace::printCall(Function, Args, Location, Result);
  return Result;
}

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_TRACE_H
