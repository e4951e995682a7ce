//===- EntryPoint.h - What the C entry points are made of -------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The pieces the generated entry points of the runtime (lib/Runtime, from
// include/OffloadRuntime/API/OffloadAPI.td) and of the JIT (lib/JIT, from
// include/OffloadJIT/API/OffloadJITAPI.td) share, so that both check and
// trace alike without the JIT including the runtime's private headers:
//
//  - enum arguments read as the integer the caller passed (RawEnum), checked
//    against the enumerators of the description (EnumInfo, specialized by
//    each library's generated OffloadAPIEnums.inc or OffloadJITEnums.inc);
//  - the checks that hold whatever OFFLOAD_DISABLE_VALIDATION says
//    (requireNotNull, requireNotZero, checkEnum); each library adds the ones
//    that follow its own validation setting;
//  - the trace printers of arguments and the trace line of a call:
//      offloadMemAlloc(Device=0x..., Type=DEVICE, Size=64, AllocationOut=0x...)
//          -> OFFLOAD_SUCCESS
//    (or "-> OFFLOAD_ERRC_...: message"; a WithCodeLoc variant adds
//    " @ Function (File:Line:Column)" before the arrow), written on one line
//    of stderr at once.
//
// The printers and the line are defined in lib/Support/EntryPoint.cpp, part
// of the library OffloadError, which both libraries link statically (each
// with its own copy, hidden); the struct printers each library generates
// (-gen-printers) are declared in offload::trace too.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SUPPORT_ENTRYPOINT_H
#define OFFLOAD_SUPPORT_ENTRYPOINT_H

#include "OffloadSupport/Error.h"

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace offload {

//===----------------------------------------------------------------------===//
// Enum arguments
//===----------------------------------------------------------------------===//

/// An enum argument as the integer the caller passed. A C caller may pass
/// any value, but in C++ an enum object holding a value outside its
/// enumerators' range is undefined behaviour: entry points read enum
/// arguments through rawEnum and convert them back only after checkEnum.
template <typename E> struct RawEnum {
  int Value;
  /// The enumerator; only once checkEnum accepted the value.
  E get() const { return static_cast<E>(Value); }
};

/// Reads the bits of \p Arg without an enum-typed load.
template <typename E> RawEnum<E> rawEnum(const E &Arg) {
  std::underlying_type_t<E> Bits;
  std::memcpy(&Bits, &Arg, sizeof(Bits));
  return {static_cast<int>(Bits)};
}

/// The enumerators of enum \p E of a C API, generated from its description
/// (offload-tblgen -gen-enum-info): Values, NumEtors, getName(V) (without
/// prefix), getFullName(V), isValid(V), TypeName, Prefix, IsBitField.
template <typename E> struct EnumInfo;

//===----------------------------------------------------------------------===//
// Checks that do not depend on OFFLOAD_DISABLE_VALIDATION
//===----------------------------------------------------------------------===//

/// INVALID_ENUMERATION "<Name> (<value>) is not a valid enumerator" unless
/// \p Arg is one of E's enumerators. Checked even without validation:
/// converting an out-of-range value back to the enum is undefined behaviour.
template <typename E>
llvm::Error checkEnum(RawEnum<E> Arg, llvm::StringRef Name) {
  if (EnumInfo<E>::isValid(Arg.Value))
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_ENUMERATION,
                     "{0} ({1}) is not a valid enumerator", Name, Arg.Value);
}

/// INVALID_NULL_POINTER "<Name> is null" if \p Ptr is null, also without
/// validation: for arguments whose answer must not depend on the setting
/// (OFFLOAD_DISABLE_VALIDATION may take errors away from invalid calls,
/// never change an answer the API documents).
inline llvm::Error requireNotNull(const void *Ptr, llvm::StringRef Name) {
  if (Ptr)
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "{0} is null", Name);
}
/// Function pointers.
template <typename R, typename... As>
llvm::Error requireNotNull(R (*Fn)(As...), llvm::StringRef Name) {
  return requireNotNull(reinterpret_cast<const void *>(Fn), Name);
}

/// INVALID_SIZE "<Name> is zero" if \p Size is zero, also without
/// validation.
inline llvm::Error requireNotZero(uint64_t Size, llvm::StringRef Name) {
  if (Size)
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_SIZE, "{0} is zero", Name);
}

//===----------------------------------------------------------------------===//
// Tracing
//===----------------------------------------------------------------------===//

namespace trace {

/// Printers of the argument types of the C APIs: pointers and handles as
/// addresses (0x0 when null), strings quoted and escaped, numbers in decimal.
void printArg(llvm::raw_ostream &OS, const void *Ptr);
void printArg(llvm::raw_ostream &OS, const char *Str);
void printArg(llvm::raw_ostream &OS, size_t Value);
void printArg(llvm::raw_ostream &OS, uint32_t Value);
void printArg(llvm::raw_ostream &OS, bool Value);
void printArg(llvm::raw_ostream &OS, double Value);
/// An enum argument: its enumerator without prefix (EnumInfo), or
/// "<invalid N>".
template <typename E> void printArg(llvm::raw_ostream &OS, RawEnum<E> Value) {
  if (const char *Name = EnumInfo<E>::getName(Value.Value))
    OS << Name;
  else
    OS << "<invalid " << Value.Value << '>';
}
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

/// Prints "Name=value, Name=value" for \p NamesAndArgs, alternating names
/// and values; \p Print(OS, Value) prints one value (the library's printArg
/// overloads, which include the struct printers it generates).
template <typename PrintFn>
void printArgs(llvm::raw_ostream &, PrintFn &&, bool) {}
template <typename PrintFn, typename T, typename... Rest>
void printArgs(llvm::raw_ostream &OS, PrintFn &&Print, bool First,
               const char *Name, const T &Value, const Rest &...More) {
  if (!First)
    OS << ", ";
  OS << Name << '=';
  Print(OS, Value);
  printArgs(OS, Print, false, More...);
}

/// Prints the complete trace line of one call on stderr, atomically:
/// "Function(Args) -> OFFLOAD_SUCCESS", or "-> <error code>: <details>";
/// \p Location, if not null, is the caller's (WithCodeLoc variants), printed
/// as " @ Function (File:Line:Column)" before the arrow.
void printCall(llvm::StringRef Function, llvm::StringRef Args,
               const offload_code_location_t *Location,
               offload_result_t Result);

/// printCall with the arguments \p NamesAndArgs (alternating names and
/// values) printed by \p Print, as printArgs does.
template <typename PrintFn, typename... Ts>
void printCall(llvm::StringRef Function,
               const offload_code_location_t *Location, offload_result_t Result,
               PrintFn &&Print, const Ts &...NamesAndArgs) {
  std::string Args;
  llvm::raw_string_ostream OS(Args);
  printArgs(OS, Print, true, NamesAndArgs...);
  printCall(Function, Args, Location, Result);
}

/// Writes \p Line (with its newline) on stderr in one write, serialized with
/// printCall's lines, so that concurrent calls do not interleave.
void writeLine(llvm::StringRef Line);

} // namespace trace
} // namespace offload

#endif // OFFLOAD_SUPPORT_ENTRYPOINT_H
