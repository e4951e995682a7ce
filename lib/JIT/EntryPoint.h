//===- EntryPoint.h - The JIT's entry points: errors, checks, trace -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the generated entry points of OffloadJIT.h (OffloadJITEntryPoints.inc,
// from include/OffloadJIT/API/OffloadJITAPI.td) are made of, as the
// runtime's are: include/OffloadSupport/Error.h and EntryPoint.h, shared with
// the runtime (errors, enum arguments, the checks that ignore the validation
// setting, the trace printers and line), and here what is the JIT's own (its
// settings, the checks that follow them, its handles):
//
//  - inside the JIT every failure is an llvm::Error carrying an
//    offload_errc_t (JITError, createError); runEntryPoint converts it once,
//    at the C boundary, into an offload_result_t that lives until the
//    process exits;
//  - the argument checks of the description (null handles and pointers,
//    live JIT handles, enum ranges, zero sizes), most of them off with
//    OFFLOAD_DISABLE_VALIDATION=1;
//  - with OFFLOAD_TRACE=1 one line per call on stderr, in the runtime's
//    format:
//      offloadJITGetKernel(Program=0x..., Name="scale", Kernel=0x...)
//          -> OFFLOAD_SUCCESS
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_ENTRYPOINT_H
#define OFFLOAD_LIB_JIT_ENTRYPOINT_H

#include "OffloadJIT/OffloadJIT.h"
#include "OffloadSupport/EntryPoint.h"
#include "OffloadSupport/Error.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace offloadjit {

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

// The runtime's errors (include/OffloadSupport/Error.h): the JIT links its
// own copy of the library OffloadError, with its own store of results.
using JITError = ::offload::OffloadError;
using ::offload::createError;
using ::offload::toFailureResult;
using ::offload::toResult;
using ::offload::wrapError;

/// The result of a runtime call as an llvm::Error (its code and message).
inline llvm::Error fromResult(offload_result_t Result) {
  if (Result == OFFLOAD_SUCCESS)
    return llvm::Error::success();
  return createError(Result->Code, Result->Details ? Result->Details : "");
}

//===----------------------------------------------------------------------===//
// Settings
//===----------------------------------------------------------------------===//

/// The flags behind isValidationEnabled and isTraceEnabled, read from the
/// environment once (EntryPoint.cpp).
struct EntrySettings {
  bool Validation, Trace;
};
const EntrySettings &getEntrySettings();

/// Whether entry points check their arguments (OFFLOAD_DISABLE_VALIDATION
/// unset or 0).
inline bool isValidationEnabled() { return getEntrySettings().Validation; }
/// Whether entry points print each call on stderr (OFFLOAD_TRACE=1).
inline bool isTraceEnabled() { return getEntrySettings().Trace; }

//===----------------------------------------------------------------------===//
// Checks
//===----------------------------------------------------------------------===//

// The checks that hold also without validation (requireNotNull,
// requireNotZero, checkEnum) are OffloadSupport/EntryPoint.h's.
using ::offload::checkEnum;
using ::offload::requireNotNull;
using ::offload::requireNotZero;

/// INVALID_NULL_POINTER "<Name> is null", with validation.
inline llvm::Error checkNotNull(const void *Ptr, llvm::StringRef Name) {
  if (!isValidationEnabled())
    return llvm::Error::success();
  return requireNotNull(Ptr, Name);
}
/// INVALID_SIZE "<Name> is zero", with validation.
inline llvm::Error checkNotZero(uint64_t Size, llvm::StringRef Name) {
  if (!isValidationEnabled())
    return llvm::Error::success();
  return requireNotZero(Size, Name);
}
/// INVALID_NULL_HANDLE "<Name> is null" for a runtime handle, with
/// validation (whether it is live, the runtime checks when the JIT uses it).
inline llvm::Error checkNotNullHandle(const void *Handle,
                                      llvm::StringRef Name) {
  if (Handle || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "{0} is null", Name);
}
/// INVALID_ARGUMENT for reserved flags that are not 0, with validation.
inline llvm::Error checkReservedZero(uint64_t Value, llvm::StringRef Name) {
  if (!Value || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                     "{0} ({1:x}) is reserved and must be 0", Name, Value);
}
/// The JIT's handles, with validation: INVALID_NULL_HANDLE when null,
/// INVALID_PROGRAM / INVALID_SYMBOL when not live (the engine's tables).
llvm::Error checkHandle(offload_jit_program_handle_t Program,
                        llvm::StringRef Name);
llvm::Error checkHandle(offload_jit_kernel_handle_t Kernel,
                        llvm::StringRef Name);

//===----------------------------------------------------------------------===//
// Tracing
//===----------------------------------------------------------------------===//

using ::offload::RawEnum;
using ::offload::rawEnum;

} // namespace offloadjit

namespace offload {
/// The enumerators of every enum the JIT's entry points see (generated from
/// OffloadJITAPI.td and the runtime's description it includes), for
/// OffloadSupport/EntryPoint.h's checkEnum and enum printer. The JIT's copy:
/// the runtime's tables are private to libOffloadRuntime.so.
#include "OffloadJITEnums.inc"

namespace trace {
/// The structs (generated, OffloadJITPrinters.inc); the other printers are
/// OffloadSupport/EntryPoint.h's.
#define OFFLOAD_API_PRINTERS_DECL
#include "OffloadJITPrinters.inc"
#undef OFFLOAD_API_PRINTERS_DECL
} // namespace trace
} // namespace offload

namespace offloadjit {
namespace trace = ::offload::trace;

/// Runs \p Impl (an llvm::Error() callable: the checks, then the
/// implementation) of C entry point \p Function and returns its result;
/// \p NamesAndArgs alternate argument names and values, printed when
/// tracing.
template <typename ImplFn, typename... Ts>
offload_result_t runEntryPoint(const char *Function, ImplFn &&Impl,
                               const Ts &...NamesAndArgs) {
  offload_result_t Result = toResult(Impl());
  if (isTraceEnabled())
    trace::printCall(
        Function, /*Location=*/nullptr, Result,
        [](llvm::raw_ostream &OS, const auto &V) { trace::printArg(OS, V); },
        NamesAndArgs...);
  return Result;
}

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_ENTRYPOINT_H
