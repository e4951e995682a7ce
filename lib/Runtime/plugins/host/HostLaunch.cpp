//===- HostLaunch.cpp - Running a grid on the host thread pool ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The blocks of a grid are split into a few contiguous chunks per pool worker
// (enough to balance uneven blocks, few enough to keep scheduling overhead
// low) and run as one ThreadPoolTaskGroup, which the launching thread waits
// for. Each worker reuses one shared-memory buffer for all the blocks it runs.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "Fiber.h"

#include "../../Error.h"
#include "../../Trace.h"

#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <cstdlib>
#include <cstring>

using namespace llvm;
using namespace offload;
using namespace offload::host;

static constexpr size_t SharedAlignment = 64;

/// Chunks of blocks per pool worker.
static constexpr uint64_t ChunksPerWorker = 4;

namespace {
/// A 64-byte aligned buffer that only grows.
class AlignedBuffer {
public:
  AlignedBuffer() = default;
  AlignedBuffer(const AlignedBuffer &) = delete;
  AlignedBuffer &operator=(const AlignedBuffer &) = delete;
  ~AlignedBuffer() { std::free(Data); }

  /// Returns at least \p Size bytes (at least one cache line).
  Expected<char *> get(size_t Size) {
    Size = alignTo(std::max<size_t>(Size, 1), SharedAlignment);
    if (Size <= Capacity)
      return Data;
    void *New = std::aligned_alloc(SharedAlignment, Size);
    if (!New)
      return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                         "cannot allocate {0} bytes of shared memory", Size);
    std::free(Data);
    Data = static_cast<char *>(New);
    Capacity = Size;
    return Data;
  }

private:
  char *Data = nullptr;
  size_t Capacity = 0;
};

/// The shared memory of the blocks an OS thread runs.
thread_local AlignedBuffer WorkerSharedMemory;

/// The first error of the blocks of one launch.
class LaunchErrors {
public:
  void add(Error E) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Failed = true;
    if (!First)
      First.emplace(std::move(E));
    else
      consumeError(std::move(E));
  }
  bool failed() const { return Failed; }
  Error take() {
    if (!First)
      return Error::success();
    return std::move(*First);
  }

private:
  std::mutex Mutex;
  std::atomic<bool> Failed{false};
  std::optional<Error> First;
};
} // namespace

/// Runs blocks [Begin, End) (linear ids, x fastest) on the calling thread.
static void runBlocks(const BlockLaunch &Launch,
                      const offload_kernel_launch_size_args_t &Size,
                      uint64_t Begin, uint64_t End, LaunchErrors &Errors) {
  const offload_host_kernel_descriptor_t &Desc = *Launch.Desc;
  size_t StaticBytes = alignTo(Desc.StaticSharedBytes, SharedAlignment);
  Expected<char *> Shared =
      WorkerSharedMemory.get(StaticBytes + Size.DynSharedMemory);
  if (!Shared)
    return Errors.add(Shared.takeError());

  offload_host_kernel_context_t Ctx;
  Ctx.BlockDim[0] = Size.GroupSize.x;
  Ctx.BlockDim[1] = Size.GroupSize.y;
  Ctx.BlockDim[2] = Size.GroupSize.z;
  Ctx.GridDim[0] = Size.NumGroups.x;
  Ctx.GridDim[1] = Size.NumGroups.y;
  Ctx.GridDim[2] = Size.NumGroups.z;
  Ctx.SharedMemory = *Shared;
  Ctx.DynamicSharedMemory = *Shared + StaticBytes;
  bool Cooperative = Desc.Flags & OFFLOAD_HOST_KERNEL_COOPERATIVE;
  uint64_t Gx = Size.NumGroups.x, Gy = Size.NumGroups.y;
  for (uint64_t B = Begin; B < End && !Errors.failed(); ++B) {
    Ctx.BlockId[0] = int64_t(B % Gx);
    Ctx.BlockId[1] = int64_t((B / Gx) % Gy);
    Ctx.BlockId[2] = int64_t(B / (Gx * Gy));
    Ctx.Cooperative = nullptr;
    Error E = Cooperative ? runCooperativeBlock(Launch, Ctx)
                          : runNonCooperativeBlock(Launch, Ctx);
    if (E)
      return Errors.add(std::move(E));
  }
}

Error offload::host::launchOnHost(ThreadPoolInterface &Pool,
                                  const HostConfig &Config,
                                  const offload_host_kernel_descriptor_t &Desc,
                                  const void *Args,
                                  const offload_kernel_launch_size_args_t &Size,
                                  StringRef Name) {
  uint64_t NumBlocks;
  if (__builtin_mul_overflow(uint64_t(Size.NumGroups.x),
                             uint64_t(Size.NumGroups.y), &NumBlocks) ||
      __builtin_mul_overflow(NumBlocks, uint64_t(Size.NumGroups.z), &NumBlocks))
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "the grid of kernel {0} has more than 2^64 blocks",
                       Name);
  // Only reachable with validation off: nothing to run.
  if (NumBlocks == 0 ||
      uint64_t(Size.GroupSize.x) * Size.GroupSize.y * Size.GroupSize.z == 0)
    return Error::success();

  BlockLaunch Launch{&Desc, Args, Name, Config.FiberStackSize};
  LaunchErrors Errors;
  uint64_t Workers = std::max(1u, Pool.getMaxConcurrency());
  uint64_t NumChunks = std::min(NumBlocks, Workers * ChunksPerWorker);
  if (NumChunks <= 1 || Workers == 1) {
    // Not worth a trip through the pool.
    runBlocks(Launch, Size, 0, NumBlocks, Errors);
    return Errors.take();
  }

  ThreadPoolTaskGroup Group(Pool);
  uint64_t PerChunk = NumBlocks / NumChunks, Extra = NumBlocks % NumChunks;
  uint64_t Begin = 0;
  for (uint64_t C = 0; C < NumChunks; ++C) {
    uint64_t End = Begin + PerChunk + (C < Extra ? 1 : 0);
    Group.async(
        [&, Begin, End] { runBlocks(Launch, Size, Begin, End, Errors); });
    Begin = End;
  }
  Group.wait();
  return Errors.take();
}

namespace {
/// A copy of a kernel's packed arguments, for a launch that runs later.
class ArgumentCopy {
public:
  ArgumentCopy(ArrayRef<uint8_t> Args, size_t KernelSize)
      : Size(std::max(Args.size(), KernelSize)) {
    // Kernels load arguments at their natural alignment; give the copy more.
    Data = static_cast<uint8_t *>(std::aligned_alloc(
        SharedAlignment, alignTo(std::max<size_t>(Size, 1), SharedAlignment)));
    if (!Data)
      return;
    // With validation off, a short buffer is padded with zeros.
    std::memset(Data, 0, Size);
    if (!Args.empty())
      std::memcpy(Data, Args.data(), Args.size());
  }
  ArgumentCopy(ArgumentCopy &&Other) : Data(Other.Data), Size(Other.Size) {
    Other.Data = nullptr;
  }
  ArgumentCopy(const ArgumentCopy &) = delete;
  ~ArgumentCopy() { std::free(Data); }

  const uint8_t *data() const { return Data; }

private:
  uint8_t *Data = nullptr;
  size_t Size;
};
} // namespace

void HostSymbol::traceFibers() {
  if (!isTraceEnabled() || FibersTraced.exchange(true))
    return;
  const offload_host_kernel_descriptor_t *Desc = getDescriptor();
  StringRef Name = Desc->Name ? StringRef(Desc->Name) : getName();
  StringRef Reason = Desc->CooperativeReason
                         ? StringRef(Desc->CooperativeReason)
                         : StringRef("its descriptor marks it cooperative");
  trace::printLine("kernel " + Name + " runs on fibers: " + Reason);
}

Error HostDevice::launchKernel(Queue *Q, Symbol &Kernel, ArrayRef<uint8_t> Args,
                               const offload_kernel_launch_size_args_t &Size) {
  auto &Sym = static_cast<HostSymbol &>(Kernel);
  const offload_host_kernel_descriptor_t *Desc = Sym.getDescriptor();
  std::string Name = (Desc->Name ? StringRef(Desc->Name) : Sym.getName()).str();
  if (Desc->Flags & OFFLOAD_HOST_KERNEL_COOPERATIVE)
    Sym.traceFibers();
  ThreadPoolInterface &Pool = ThePlugin.getThreadPool();
  const HostConfig &Config = ThePlugin.getConfig();

  if (!Q && Args.size() >= Desc->ArgumentsSize)
    return launchOnHost(Pool, Config, *Desc, Args.data(), Size, Name);

  // Asynchronous launches (and short buffers) use a copy of the arguments:
  // the caller may reuse its buffer as soon as the launch is enqueued.
  ArgumentCopy Copy(Args, Desc->ArgumentsSize);
  if (!Copy.data())
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "cannot copy the arguments of kernel {0}", Name);
  if (!Q)
    return launchOnHost(Pool, Config, *Desc, Copy.data(), Size, Name);
  static_cast<HostQueue *>(Q)->enqueue([&Pool, &Config, Desc,
                                        Copy = std::move(Copy), Size,
                                        Name = std::move(Name)]() -> Error {
    return launchOnHost(Pool, Config, *Desc, Copy.data(), Size, Name);
  });
  return Error::success();
}
