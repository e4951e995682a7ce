//===- Trace.h - Entry point wrapper: tracing and errors --------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every C entry point is a thin call of runEntryPoint: it runs the
// implementation (an llvm::Error-returning callable), converts its error once
// into an offload_result_t and, with OFFLOAD_TRACE=1, prints (with the
// printers and line of OffloadSupport/EntryPoint.h, which the JIT shares)
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
#include "OffloadSupport/EntryPoint.h"
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

/// The structs of the C API (generated, OffloadAPIPrinters.inc); the other
/// printers are OffloadSupport/EntryPoint.h's.
#define OFFLOAD_API_PRINTERS_DECL
#include "OffloadAPIPrinters.inc"
#undef OFFLOAD_API_PRINTERS_DECL

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
  if (isTraceEnabled())
    trace::printCall(
        Function, Location, Result,
        [](llvm::raw_ostream &OS, const auto &V) { trace::printArg(OS, V); },
        NamesAndArgs...);
  return Result;
}

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_TRACE_H
