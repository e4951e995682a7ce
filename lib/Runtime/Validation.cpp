//===- Validation.cpp - Argument checks of the C entry points -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Validation.h"

#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace offload;

Error offload::checkLaunchSize(const offload_kernel_launch_size_args_t &Size,
                               const DeviceInfo &Info, StringRef KernelName) {
  if (!isValidationEnabled())
    return Error::success();
  if (Size.Dimensions < 1 || Size.Dimensions > 3)
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "kernel '{0}': LaunchSizeArgs->Dimensions ({1}) must "
                       "be 1, 2 or 3",
                       KernelName, Size.Dimensions);
  const uint32_t Groups[] = {Size.NumGroups.x, Size.NumGroups.y,
                             Size.NumGroups.z};
  const uint32_t Threads[] = {Size.GroupSize.x, Size.GroupSize.y,
                              Size.GroupSize.z};
  const uint32_t MaxThreads[] = {Info.MaxWorkGroupSizePerDimension.x,
                                 Info.MaxWorkGroupSizePerDimension.y,
                                 Info.MaxWorkGroupSizePerDimension.z};
  const uint32_t MaxWork[] = {Info.MaxWorkSizePerDimension.x,
                              Info.MaxWorkSizePerDimension.y,
                              Info.MaxWorkSizePerDimension.z};
  const char *Dim[] = {"x", "y", "z"};
  for (int I = 0; I < 3; ++I) {
    if (Groups[I] == 0)
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "kernel '{0}': LaunchSizeArgs->NumGroups.{1} is zero",
                         KernelName, Dim[I]);
    if (Threads[I] == 0)
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "kernel '{0}': LaunchSizeArgs->GroupSize.{1} is zero",
                         KernelName, Dim[I]);
    if (Threads[I] > MaxThreads[I])
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "kernel '{0}': LaunchSizeArgs->GroupSize.{1} ({2}) "
                         "exceeds the device's maximum of {3} "
                         "(MAX_WORK_GROUP_SIZE_PER_DIMENSION)",
                         KernelName, Dim[I], Threads[I], MaxThreads[I]);
  }
  uint64_t BlockThreads =
      uint64_t(Threads[0]) * uint64_t(Threads[1]) * uint64_t(Threads[2]);
  if (BlockThreads > Info.MaxWorkGroupSize)
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "kernel '{0}': a block of {1} threads exceeds the "
                       "device's maximum of {2} (MAX_WORK_GROUP_SIZE)",
                       KernelName, BlockThreads, Info.MaxWorkGroupSize);
  // Grid limits are in threads (liboffload's work items). A limit of
  // UINT32_MAX is a saturated value: the device allows at least that many,
  // possibly more, so it bounds nothing.
  for (int I = 0; I < 3; ++I) {
    uint64_t Work = uint64_t(Groups[I]) * uint64_t(Threads[I]);
    if (MaxWork[I] != UINT32_MAX && Work > MaxWork[I])
      return createError(OFFLOAD_ERRC_INVALID_SIZE,
                         "kernel '{0}': a grid of {1} blocks of {2} threads "
                         "in {3} ({4} threads) exceeds the device's maximum "
                         "of {5} threads in {3} "
                         "(MAX_WORK_SIZE_PER_DIMENSION)",
                         KernelName, Groups[I], Threads[I], Dim[I], Work,
                         MaxWork[I]);
  }
  if (Info.MaxWorkSize != UINT32_MAX) {
    // At most 2^96 blocks of 2^32 threads: saturate instead of wrapping.
    uint64_t Blocks = SaturatingMultiply(
        SaturatingMultiply(uint64_t(Groups[0]), uint64_t(Groups[1])),
        uint64_t(Groups[2]));
    uint64_t Total = SaturatingMultiply(Blocks, BlockThreads);
    if (Total > Info.MaxWorkSize)
      return createError(
          OFFLOAD_ERRC_INVALID_SIZE,
          "kernel '{0}': a grid of {1}x{2}x{3} blocks of {4} threads ({5} "
          "threads) exceeds the device's maximum of {6} threads per launch "
          "(MAX_WORK_SIZE)",
          KernelName, Groups[0], Groups[1], Groups[2], BlockThreads,
          Total == UINT64_MAX ? std::string("more than 2^64")
                              : std::to_string(Total),
          Info.MaxWorkSize);
  }
  return Error::success();
}
