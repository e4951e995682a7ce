//===- Plugin.cpp - Interface between the runtime and its plugins ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Plugin.h"

#include "OffloadSupport/Error.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace offload;

// Out-of-line destructors anchor the vtables in this file.
Plugin::~Plugin() = default;
Device::~Device() = default;
Queue::~Queue() = default;
Event::~Event() = default;
Program::~Program() = default;
Symbol::~Symbol() = default;

Expected<uint64_t> Device::getOptimalGroupSize(Symbol &Kernel,
                                               size_t SharedMemoryPerThread) {
  const DeviceInfo &Info = getInfo();
  uint64_t Max = Info.MaxWorkGroupSize;
  if (SharedMemoryPerThread) {
    uint64_t Static = Kernel.getStaticSharedBytes();
    uint64_t Left = Static < Info.WorkGroupLocalMemSize
                        ? Info.WorkGroupLocalMemSize - Static
                        : 0;
    Max = std::min(Max, Left / SharedMemoryPerThread);
    if (Max == 0)
      return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                         "SharedMemory ({0} bytes per thread) does not fit in "
                         "the {1} bytes of shared memory per block that "
                         "kernel '{2}' leaves ({3} bytes are static)",
                         SharedMemoryPerThread, Left, Kernel.getName(), Static);
  }
  // Whole subgroups: a partial warp wastes lanes of shuffles and reductions.
  if (Info.SubgroupSize && Max >= Info.SubgroupSize)
    Max -= Max % Info.SubgroupSize;
  return Max;
}

Expected<void *> Device::allocateAligned(size_t Size, offload_alloc_type_t Kind,
                                         size_t Alignment) {
  if (Alignment <= kMinAllocationAlignment)
    return allocate(Size, Kind);
  return createError(OFFLOAD_ERRC_UNSUPPORTED,
                     "Alignment ({0}) is above the {1} bytes the {2} device "
                     "aligns allocations to",
                     Alignment, kMinAllocationAlignment, getPlugin().getName());
}

Expected<uint32_t>
Device::getMaxCooperativeGroupCount(Symbol &,
                                    const offload_kernel_launch_size_args_t &) {
  return createError(OFFLOAD_ERRC_UNSUPPORTED,
                     "the {0} device has no cooperative launches "
                     "(OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT)",
                     getPlugin().getName());
}

Error Device::launchCooperativeKernel(
    Queue *, Symbol &Kernel, ArrayRef<uint8_t>,
    const offload_kernel_launch_size_args_t &) {
  return createError(
      OFFLOAD_ERRC_UNSUPPORTED,
      "kernel '{0}': the {1} device has no cooperative "
      "launches (OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT)",
      Kernel.getName(), getPlugin().getName());
}

void offload::fillHostMemory(void *Ptr, ArrayRef<uint8_t> Pattern,
                             size_t Size) {
  auto *Dst = static_cast<uint8_t *>(Ptr);
  if (Pattern.size() == 1) {
    std::memset(Dst, Pattern[0], Size);
    return;
  }
  size_t Done = std::min(Size, Pattern.size());
  std::memcpy(Dst, Pattern.data(), Done);
  while (Done < Size) {
    size_t Chunk = std::min(Done, Size - Done);
    std::memcpy(Dst + Done, Dst, Chunk);
    Done += Chunk;
  }
}
