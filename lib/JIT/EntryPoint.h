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
// runtime's are (include/OffloadSupport/Error.h, shared; lib/Runtime/Trace.h
// and Validation.h, which live in libOffloadRuntime.so and are not exported):
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
#include "OffloadSupport/Error.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>
#include <type_traits>

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

/// INVALID_NULL_POINTER "<Name> is null", with validation.
inline llvm::Error checkNotNull(const void *Ptr, llvm::StringRef Name) {
  if (Ptr || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "{0} is null", Name);
}
/// INVALID_NULL_POINTER "<Name> is null", also without validation.
inline llvm::Error requireNotNull(const void *Ptr, llvm::StringRef Name) {
  if (Ptr)
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "{0} is null", Name);
}
/// INVALID_SIZE "<Name> is zero", with validation.
inline llvm::Error checkNotZero(uint64_t Size, llvm::StringRef Name) {
  if (Size || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_SIZE, "{0} is zero", Name);
}
/// INVALID_SIZE "<Name> is zero", also without validation.
inline llvm::Error requireNotZero(uint64_t Size, llvm::StringRef Name) {
  if (Size)
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_SIZE, "{0} is zero", Name);
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

/// An enum argument as the integer the caller passed (a C caller may pass
/// any value; an enum object outside its range is undefined behaviour).
template <typename E> struct RawEnum {
  int Value;
  E get() const { return static_cast<E>(Value); }
};
template <typename E> RawEnum<E> rawEnum(const E &Arg) {
  std::underlying_type_t<E> Bits;
  std::memcpy(&Bits, &Arg, sizeof(Bits));
  return {static_cast<int>(Bits)};
}

/// The enumerators of every enum the JIT's entry points see (generated from
/// OffloadJITAPI.td and the runtime's description it includes).
template <typename E> struct EnumInfo;
#include "OffloadJITEnums.inc"

/// INVALID_ENUMERATION unless \p Arg is one of E's enumerators (always).
template <typename E>
llvm::Error checkEnum(RawEnum<E> Arg, llvm::StringRef Name) {
  if (EnumInfo<E>::isValid(Arg.Value))
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_ENUMERATION,
                     "{0} ({1}) is not a valid enumerator", Name, Arg.Value);
}

namespace trace {
void printArg(llvm::raw_ostream &OS, const void *Ptr);
void printArg(llvm::raw_ostream &OS, const char *Str);
void printArg(llvm::raw_ostream &OS, size_t Value);
void printArg(llvm::raw_ostream &OS, uint32_t Value);
void printArg(llvm::raw_ostream &OS, bool Value);
void printArg(llvm::raw_ostream &OS, double Value);
template <typename E> void printArg(llvm::raw_ostream &OS, RawEnum<E> Value) {
  if (const char *Name = EnumInfo<E>::getName(Value.Value))
    OS << Name;
  else
    OS << "<invalid " << Value.Value << '>';
}
/// The structs (generated, OffloadJITPrinters.inc).
#define OFFLOAD_API_PRINTERS_DECL
#include "OffloadJITPrinters.inc"
#undef OFFLOAD_API_PRINTERS_DECL
inline void printArg(llvm::raw_ostream &OS, void *Ptr) {
  printArg(OS, static_cast<const void *>(Ptr));
}
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

/// Prints the trace line of one call, atomically.
void printCall(llvm::StringRef Function, llvm::StringRef Args,
               offload_result_t Result);
} // namespace trace

/// Runs \p Impl (an llvm::Error() callable: the checks, then the
/// implementation) of C entry point \p Function and returns its result;
/// \p NamesAndArgs alternate argument names and values, printed when
/// tracing.
template <typename ImplFn, typename... Ts>
offload_result_t runEntryPoint(const char *Function, ImplFn &&Impl,
                               const Ts &...NamesAndArgs) {
  offload_result_t Result = toResult(Impl());
  if (!isTraceEnabled())
    return Result;
  std::string Args;
  llvm::raw_string_ostream OS(Args);
  trace::printArgs(OS, true, NamesAndArgs...);
  trace::printCall(Function, Args, Result);
  return Result;
}

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_ENTRYPOINT_H
