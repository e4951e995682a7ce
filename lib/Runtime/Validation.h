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

#include "OffloadSupport/EntryPoint.h"
#include "OffloadSupport/Error.h"
#include "Runtime.h"

namespace offload {

// RawEnum, EnumInfo, checkEnum and the require* checks, which hold even
// without validation, are OffloadSupport/EntryPoint.h's (shared with the
// JIT). The enumerators of the C API's enums, generated from OffloadAPI.td:
#include "OffloadAPIEnums.inc"

/// INVALID_NULL_POINTER "<Name> is null" if \p Ptr is null, with validation.
inline llvm::Error checkNotNull(const void *Ptr, llvm::StringRef Name) {
  if (!isValidationEnabled())
    return llvm::Error::success();
  return requireNotNull(Ptr, Name);
}

/// Function pointers.
template <typename R, typename... As>
llvm::Error checkNotNull(R (*Fn)(As...), llvm::StringRef Name) {
  return checkNotNull(reinterpret_cast<const void *>(Fn), Name);
}

/// INVALID_SIZE "<Name> is zero" if \p Size is zero, with validation.
inline llvm::Error checkNotZero(uint64_t Size, llvm::StringRef Name) {
  if (!isValidationEnabled())
    return llvm::Error::success();
  return requireNotZero(Size, Name);
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
