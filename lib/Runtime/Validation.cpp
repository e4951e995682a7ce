//===- Validation.cpp - Argument checks of the C entry points -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Validation.h"

using namespace llvm;
using namespace offload;

Error offload::checkLaunchSize(const offload_kernel_launch_size_args_t &Size,
                               const DeviceInfo &Info) {
  if (!isValidationEnabled())
    return Error::success();
  if (Size.Dimensions < 1 || Size.Dimensions > 3)
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "LaunchSizeArgs->Dimensions ({0}) must be 1, 2 or 3",
                       Size.Dimensions);
  const uint32_t Groups[] = {Size.NumGroups.x, Size.NumGroups.y,
                             Size.NumGroups.z};
  const uint32_t Threads[] = {Size.GroupSize.x, Size.GroupSize.y,
                              Size.GroupSize.z};
  const uint32_t MaxThreads[] = {Info.MaxWorkGroupSizePerDimension.x,
                                 Info.MaxWorkGroupSizePerDimension.y,
                                 Info.MaxWorkGroupSizePerDimension.z};
  const char *Dim[] = {"x", "y", "z"};
  for (int I = 0; I < 3; ++I) {
    if (Groups[I] == 0)
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "LaunchSizeArgs->NumGroups.{0} is zero", Dim[I]);
    if (Threads[I] == 0)
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "LaunchSizeArgs->GroupSize.{0} is zero", Dim[I]);
    if (Threads[I] > MaxThreads[I])
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "LaunchSizeArgs->GroupSize.{0} ({1}) exceeds the "
                         "device's maximum of {2}",
                         Dim[I], Threads[I], MaxThreads[I]);
  }
  uint64_t BlockThreads =
      uint64_t(Threads[0]) * uint64_t(Threads[1]) * uint64_t(Threads[2]);
  if (BlockThreads > Info.MaxWorkGroupSize)
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "a block of {0} threads exceeds the device's maximum "
                       "of {1}",
                       BlockThreads, Info.MaxWorkGroupSize);
  return Error::success();
}
