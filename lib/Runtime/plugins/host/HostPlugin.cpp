//===- HostPlugin.cpp - The host platform, device and memory --------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "../Plugins.h"

#include "HostMemory.h"
#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Error.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"

#include <cstdlib>
#include <cstring>
#include <limits>
#include <unistd.h>

using namespace llvm;
using namespace offload;
using namespace offload::host;

/// Alignment of every host allocation and of shared memory.
static constexpr size_t HostAlignment = 64;

HostDevice::HostDevice(HostPlugin &P)
    : Device(P), ThePlugin(P), Info(queryHostDeviceInfo(P.getConfig())) {}

HostDevice::~HostDevice() { releaseAllocations(); }

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Expected<void *> HostDevice::allocate(size_t Size, offload_alloc_type_t Kind) {
  return allocateAligned(Size, Kind, HostAlignment);
}

Expected<void *> HostDevice::allocateAligned(size_t Size,
                                             offload_alloc_type_t Kind,
                                             size_t Alignment) {
  if (Alignment > kMaxAlignment)
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "Alignment ({0}) is above the {1} bytes the host "
                       "device aligns allocations to at most",
                       Alignment, kMaxAlignment);
  Alignment = std::max(Alignment, HostAlignment);
  // Host, device and managed memory are all ordinary host memory here. The
  // runtime checked Size against MAX_MEM_ALLOC_SIZE; rounding it up to the
  // alignment must not wrap either.
  if (Size > std::numeric_limits<size_t>::max() - (Alignment - 1))
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "cannot allocate {0} bytes of host memory: the size "
                       "rounded up to {1} bytes does not fit in size_t",
                       Size, Alignment);
  // Addresses that were never handed out before (HostMemory.h), so that a
  // freed allocation's address never names a later one; the C heap once the
  // address space for that is used up. A size rounded up to the alignment
  // keeps an alignment above half a page off the pages small allocations
  // share.
  size_t Bytes = alignTo(Size, Alignment);
  void *Ptr = HostMemory::get().allocate(Bytes, Alignment);
  bool FromHeap = !Ptr;
  if (FromHeap)
    Ptr = std::aligned_alloc(Alignment, Bytes);
  if (!Ptr)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "cannot allocate {0} bytes of host memory", Size);
  std::lock_guard<std::mutex> Lock(AllocationsMutex);
  Allocations[Ptr] = {Size, Kind, FromHeap, Alignment};
  return Ptr;
}

Error HostDevice::free(void *Ptr, offload_alloc_type_t Kind) {
  Allocation A;
  {
    std::lock_guard<std::mutex> Lock(AllocationsMutex);
    auto It = Allocations.find(Ptr);
    if (It == Allocations.end())
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "Address ({0}) was not allocated by offloadMemAlloc "
                         "or was already freed",
                         formatPointer(Ptr));
    A = It->second;
    Allocations.erase(It);
  }
  release(Ptr, A);
  return Error::success();
}

void HostDevice::release(void *Ptr, const Allocation &A) {
  if (A.FromHeap)
    return std::free(Ptr);
  HostMemory::get().release(Ptr, alignTo(A.Size, A.Alignment));
}

void HostDevice::releaseAllocations() {
  std::lock_guard<std::mutex> Lock(AllocationsMutex);
  for (auto &Entry : Allocations)
    release(Entry.first, Entry.second);
  Allocations.clear();
}

// memmove: an overlapping copy is a caller error, but costs nothing to get
// right.
Error HostDevice::memcpy(Queue *Q, void *Dst, const void *Src, size_t Size) {
  if (!Q) {
    std::memmove(Dst, Src, Size);
    return Error::success();
  }
  static_cast<HostQueue *>(Q)->enqueue([=] {
    std::memmove(Dst, Src, Size);
    return Error::success();
  });
  return Error::success();
}

Error HostDevice::fill(Queue *Q, void *Ptr, ArrayRef<uint8_t> Pattern,
                       size_t Size) {
  if (!Q) {
    fillHostMemory(Ptr, Pattern, Size);
    return Error::success();
  }
  // The caller's pattern may be gone when the fill runs: keep a copy.
  static_cast<HostQueue *>(Q)->enqueue(
      [Ptr, Size, Copy = SmallVector<uint8_t, 16>(Pattern)] {
        fillHostMemory(Ptr, Copy, Size);
        return Error::success();
      });
  return Error::success();
}

Expected<void *> HostDevice::registerHostMemory(void *HostPtr, size_t Size) {
  // Host memory is device memory for the host device.
  return HostPtr;
}

Error HostDevice::unregisterHostMemory(void *HostPtr) {
  return Error::success();
}

Expected<std::unique_ptr<Queue>> HostDevice::createQueue() {
  const HostConfig &Config = ThePlugin.getConfig();
  return std::make_unique<HostQueue>(*this, Config.SpinMicros,
                                     Config.QueuePollMicros);
}

//===----------------------------------------------------------------------===//
// Plugin
//===----------------------------------------------------------------------===//

HostPlugin::HostPlugin() = default;

HostPlugin::~HostPlugin() { consumeError(deinit()); }

StringRef HostPlugin::getVersion() const { return LLVM_VERSION_STRING; }

Error HostPlugin::init() {
  // Invalid values were reported by offloadInit (checkEnvironment); here
  // they read as the defaults.
  Config = HostConfig();
  Config.NumThreads = unsigned(env::HostThreads.getUnsigned(Config.NumThreads));
  Config.FiberStackSize = std::max<uint64_t>(
      env::HostFiberStackSize.getUnsigned(Config.FiberStackSize), 16 * 1024);
  Config.SpinMicros = env::HostSpinMicros.getUnsigned(Config.SpinMicros);
  Config.QueuePollMicros =
      env::HostQueuePollMicros.getUnsigned(Config.QueuePollMicros);
  TheDevice = std::make_unique<HostDevice>(*this);
  return Error::success();
}

Error HostPlugin::deinit() {
  // Blocks have all finished (queues were drained before); joining the pool
  // frees its workers' fiber stacks (a launching thread keeps its own until
  // it exits).
  {
    std::lock_guard<std::mutex> Lock(PoolMutex);
    PoolPtr.store(nullptr, std::memory_order_release);
    Pool.reset();
  }
  {
    // Every program was destroyed before; destroying the JIT ends its session.
    std::lock_guard<std::mutex> Lock(JITMutex);
    JIT.reset();
    RuntimeDylib = nullptr;
  }
  TheDevice.reset();
  return Error::success();
}

unsigned HostPlugin::getNumBlockThreads() const {
  return std::max(
      1u, llvm::hardware_concurrency(Config.NumThreads).compute_thread_count());
}

BlockPool &HostPlugin::getBlockPool() {
  if (BlockPool *P = PoolPtr.load(std::memory_order_acquire))
    return *P;
  std::lock_guard<std::mutex> Lock(PoolMutex);
  if (!Pool) {
    // The launching thread runs blocks too.
    Pool = std::make_unique<BlockPool>(getNumBlockThreads() - 1,
                                       Config.SpinMicros);
    PoolPtr.store(Pool.get(), std::memory_order_release);
  }
  return *Pool;
}

std::unique_ptr<Plugin> offload::createPlugin_host() {
  return std::make_unique<HostPlugin>();
}
