//===- Validation.h - Argument checks of the C entry points -----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Argument checks shared by the entry points. Like the handle checks of
// Runtime, most pass when validation is disabled
// (OFFLOAD_DISABLE_VALIDATION=1): the caller then promises valid arguments.
// Checks that keep the runtime itself free of undefined behaviour (enum
// ranges, info buffer sizes, a zero fill pattern) always apply.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_VALIDATION_H
#define OFFLOADRUNTIME_LIB_VALIDATION_H

#include "OffloadSupport/Error.h"
#include "Runtime.h"

#include <cstring>
#include <type_traits>

namespace offload {

/// INVALID_NULL_POINTER "<Name> is null" if \p Ptr is null.
inline llvm::Error checkNotNull(const void *Ptr, llvm::StringRef Name) {
  if (Ptr || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "{0} is null", Name);
}

/// Function pointers.
template <typename R, typename... As>
llvm::Error checkNotNull(R (*Fn)(As...), llvm::StringRef Name) {
  return checkNotNull(reinterpret_cast<const void *>(Fn), Name);
}

/// INVALID_SIZE "<Name> is zero" if \p Size is zero.
inline llvm::Error checkNotZero(uint64_t Size, llvm::StringRef Name) {
  if (Size || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_SIZE, "{0} is zero", Name);
}

/// checkNotNull and checkNotZero even without validation: for arguments
/// whose answer must not depend on the setting (OFFLOAD_DISABLE_VALIDATION
/// may add errors for invalid calls, never change an answer the API
/// documents).
inline llvm::Error requireNotNull(const void *Ptr, llvm::StringRef Name) {
  if (Ptr)
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "{0} is null", Name);
}
template <typename R, typename... As>
llvm::Error requireNotNull(R (*Fn)(As...), llvm::StringRef Name) {
  return requireNotNull(reinterpret_cast<const void *>(Fn), Name);
}
inline llvm::Error requireNotZero(uint64_t Size, llvm::StringRef Name) {
  if (Size)
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_SIZE, "{0} is zero", Name);
}

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

/// The enumerators of enum \p E of the C API, generated from OffloadAPI.td
/// (OffloadAPIEnums.inc): Values, NumEtors, getName(V) (without prefix),
/// getFullName(V), isValid(V), TypeName, Prefix, IsBitField.
template <typename E> struct EnumInfo;
#include "OffloadAPIEnums.inc"

/// INVALID_ENUMERATION unless \p Arg is one of E's enumerators. Checked
/// even without validation: converting an out-of-range value back to the
/// enum is undefined behaviour.
template <typename E>
llvm::Error checkEnum(RawEnum<E> Arg, llvm::StringRef Name) {
  if (EnumInfo<E>::isValid(Arg.Value))
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_ENUMERATION,
                     "{0} ({1}) is not a valid enumerator", Name, Arg.Value);
}

/// INVALID_ARGUMENT "<Name> (0x..) is reserved and must be 0" if \p Value is
/// not zero (reserved flags), with validation.
inline llvm::Error checkReservedZero(uint64_t Value, llvm::StringRef Name) {
  if (!Value || !isValidationEnabled())
    return llvm::Error::success();
  return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                     "{0} ({1:x}) is reserved and must be 0", Name, Value);
}

/// Checks the launch geometry of kernel \p KernelName against the device's
/// limits: block size per dimension and in total, grid size in threads per
/// dimension and in total (unless the limit is the saturated UINT32_MAX).
/// INVALID_SIZE or INVALID_ARGUMENT with a message naming the kernel, the
/// limit and the value. Shared memory is the plugin's to check: a GPU driver
/// knows the kernel's real static size and its opt-in limits.
llvm::Error checkLaunchSize(const offload_kernel_launch_size_args_t &Size,
                            const DeviceInfo &Info, llvm::StringRef KernelName);

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_VALIDATION_H
