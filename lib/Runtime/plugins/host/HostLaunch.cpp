//===- HostLaunch.cpp - Running a grid on the host device -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The block pool's workers and the launching thread take contiguous chunks
// of the grid's blocks, guided by what is left (HostPool.cpp): large chunks
// first, then smaller ones down to a grain of MinThreadsPerChunk GPU
// threads, which balances uneven blocks and busy cores with a few atomic
// operations per launch. A grid too small to be worth splitting (one grain)
// runs on the launching thread alone. Each thread reuses one shared-memory
// buffer for all the blocks it runs.
//
// A cooperative launch (offloadLaunchKernelWithProperties with
// IS_COOPERATIVE) runs every block at once instead, each on a thread of its
// own: the launching thread and threads started for the launch, so that
// blocks may wait for each other (a grid-wide barrier). Its grid has at most
// HostPlugin::getNumBlockThreads() blocks
// (offloadGetKernelMaxCooperativeGroupCount).
//
// The hot path allocates nothing: a synchronous launch uses the caller's
// argument buffer, a queued one copies it into its task, which the queue
// stores in place (QueueTask).
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "Fiber.h"
#include "HostCheck.h"
#include "HostFault.h"
#include "llvm/ADT/ScopeExit.h"

#include "../../Config.h"
#include "OffloadSupport/Error.h"
#include "OffloadSupport/KernelNames.h"

#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <mutex>
#include <pthread.h>
#include <vector>

using namespace llvm;
using namespace offload;
using namespace offload::host;

static constexpr size_t SharedAlignment = 64;

/// The fewest GPU threads a chunk is given: below, the hand-off to another
/// thread costs more than the work it could take over.
static constexpr uint64_t MinThreadsPerChunk = 64;

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
  const std::atomic<bool> &failedFlag() const { return Failed; }
  /// Takes the first error, else reports failed device-side assertions of
  /// kernel \p Name.
  Error take(StringRef Name) {
    if (First)
      return std::move(*First);
    // Formatted only on failure: a launch allocates nothing
    // (HostLaunchTest.LaunchesDoNotAllocate).
    auto Kernel = [&] { return offload::getKernelDisplayName(Name); };
    if (uint64_t N = Failures.OutOfBounds.load())
      return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                         "kernel {0}: {1} thread(s) accessed memory out of "
                         "bounds (offload-check-memory-accesses)",
                         Kernel(), N);
    if (uint64_t N = Failures.Races.load())
      return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                         "kernel {0}: {1} race hazard(s) between threads of a "
                         "block (racecheck)",
                         Kernel(), N);
    if (uint64_t N = Failures.SyncErrors.load())
      return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                         "kernel {0}: {1} barrier error(s) (synccheck)",
                         Kernel(), N);
    if (uint64_t N = Failures.UninitializedReads.load())
      return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                         "kernel {0}: {1} uninitialized read(s) of device "
                         "memory (initcheck)",
                         Kernel(), N);
    if (uint64_t N = Failures.Assertions.load())
      return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                         "kernel {0}: a device-side assertion failed in {1} "
                         "thread(s)",
                         Kernel(), N);
    return Error::success();
  }
  /// Failed cf.asserts and bounds checks of the launch's threads.
  DeviceFailures Failures;

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
  Ctx.Cooperative = nullptr;
  FaultScope Fault(Launch.Name, Ctx, Errors.Failures);
  // synccheck of the last block this thread ran (HostCheck.h).
  llvm::scope_exit FinishChecks(finishCheckedBlock);
  if (!(Desc.Flags & OFFLOAD_HOST_KERNEL_COOPERATIVE)) {
    if (Error E = runNonCooperativeBlocks(Launch, Ctx, Begin, End,
                                          Errors.failedFlag()))
      Errors.add(std::move(E));
    return;
  }
  for (uint64_t B = Begin; B < End && !Errors.failed(); ++B) {
    setBlockId(Ctx, B);
    Ctx.Cooperative = nullptr;
    if (Error E = runCooperativeBlock(Launch, Ctx))
      return Errors.add(std::move(E));
  }
}

namespace {
/// A launch split into chunks of blocks, as a job of the block pool.
struct LaunchChunks {
  const BlockLaunch &Launch;
  const offload_kernel_launch_size_args_t &Size;
  LaunchErrors &Errors;

  static void run(void *Self, uint64_t Begin, uint64_t End) {
    auto &L = *static_cast<LaunchChunks *>(Self);
    runBlocks(L.Launch, L.Size, Begin, End, L.Errors);
  }
};
} // namespace

namespace {
/// The start of a cooperative grid's threads: they run their block once
/// every thread was started (Go), or nothing if one could not be.
class StartGate {
public:
  /// Waits for open(); returns whether the blocks run.
  bool wait() {
    std::unique_lock<std::mutex> Lock(Mutex);
    Opened.wait(Lock, [&] { return State != Waiting; });
    return State == Go;
  }
  void open(bool Run) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      State = Run ? Go : Abort;
    }
    Opened.notify_all();
  }

private:
  enum { Waiting, Go, Abort } State = Waiting;
  std::mutex Mutex;
  std::condition_variable Opened;
};

/// One block of a cooperative grid, on a thread of its own.
struct CooperativeBlock {
  const BlockLaunch *Launch;
  const offload_kernel_launch_size_args_t *Size;
  uint64_t Block;
  LaunchErrors *Errors;
  StartGate *Gate;
  pthread_t Thread;

  static void *run(void *Self) {
    auto &B = *static_cast<CooperativeBlock *>(Self);
    if (B.Gate->wait())
      runBlocks(*B.Launch, *B.Size, B.Block, B.Block + 1, *B.Errors);
    return nullptr;
  }
};
} // namespace

/// Runs the \p NumBlocks blocks of a cooperative grid at once: block 0 on
/// the calling thread, every other one on a thread started for it. No block
/// runs before every thread was started (a block waiting for a block that
/// has no thread would wait forever).
static Error runAllBlocksAtOnce(const BlockLaunch &Launch,
                                const offload_kernel_launch_size_args_t &Size,
                                uint64_t NumBlocks, LaunchErrors &Errors,
                                StringRef Name) {
  std::vector<CooperativeBlock> Blocks(NumBlocks);
  StartGate Gate;
  uint64_t Started = 1;
  int Failure = 0;
  for (; Started < NumBlocks; ++Started) {
    CooperativeBlock &B = Blocks[Started];
    B = {&Launch, &Size, Started, &Errors, &Gate, {}};
    if ((Failure =
             pthread_create(&B.Thread, nullptr, &CooperativeBlock::run, &B)))
      break;
  }
  Gate.open(/*Run=*/!Failure);
  if (!Failure)
    runBlocks(Launch, Size, 0, 1, Errors);
  for (uint64_t I = 1; I < Started; ++I)
    pthread_join(Blocks[I].Thread, nullptr);
  if (Failure)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "cooperative launch of kernel {0}: cannot start a "
                       "thread for block {1} of {2}: {3}",
                       Name, Started, NumBlocks, std::strerror(Failure));
  return Errors.take(Name);
}

Error offload::host::launchOnHost(BlockPool &Pool, const HostConfig &Config,
                                  const offload_host_kernel_descriptor_t &Desc,
                                  const void *Args,
                                  const offload_kernel_launch_size_args_t &Size,
                                  StringRef Name, bool Cooperative) {
  uint64_t NumBlocks;
  if (__builtin_mul_overflow(uint64_t(Size.NumGroups.x),
                             uint64_t(Size.NumGroups.y), &NumBlocks) ||
      __builtin_mul_overflow(NumBlocks, uint64_t(Size.NumGroups.z), &NumBlocks))
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "the grid of kernel {0} has more than 2^64 blocks",
                       Name);
  uint64_t BlockThreads =
      uint64_t(Size.GroupSize.x) * Size.GroupSize.y * Size.GroupSize.z;
  // Only reachable with validation off: nothing to run.
  if (NumBlocks == 0 || BlockThreads == 0)
    return Error::success();

  BlockLaunch Launch{&Desc, Args, Name, Config.FiberStackSize};
  LaunchErrors Errors;
  if (Cooperative)
    return runAllBlocksAtOnce(Launch, Size, NumBlocks, Errors, Name);
  // The grain, in blocks: every chunk but the last of a grid has
  // MinThreadsPerChunk threads or more.
  uint64_t MinChunk = divideCeil(
      MinThreadsPerChunk, std::min<uint64_t>(BlockThreads, MinThreadsPerChunk));
  if (NumBlocks <= MinChunk) {
    runBlocks(Launch, Size, 0, NumBlocks, Errors);
    return Errors.take(Name);
  }
  LaunchChunks Chunks{Launch, Size, Errors};
  BlockPool::Job Job;
  Job.Run = &LaunchChunks::run;
  Job.Context = &Chunks;
  Job.NumItems = NumBlocks;
  Job.MinChunk = MinChunk;
  Pool.run(Job);
  return Errors.take(Name);
}

namespace {
/// A launch that runs later, on a queue, with a copy of its arguments: in
/// place up to InlineBytes (the task is stored in the queue's ring), else on
/// the heap.
class QueuedLaunch {
public:
  static constexpr size_t InlineBytes = 256;

  QueuedLaunch(BlockPool &Pool, const HostConfig &Config,
               const offload_host_kernel_descriptor_t &Desc,
               ArrayRef<uint8_t> Args,
               const offload_kernel_launch_size_args_t &Size, StringRef Name,
               bool Cooperative)
      : Pool(Pool), Config(Config), Desc(Desc), Size(Size), Name(Name),
        Bytes(std::max<size_t>(Args.size(), Desc.ArgumentsSize)),
        Cooperative(Cooperative) {
    if (Bytes > InlineBytes) {
      // Kernels load arguments at their natural alignment; give the copy
      // more.
      Heap = static_cast<uint8_t *>(
          std::aligned_alloc(SharedAlignment, alignTo(Bytes, SharedAlignment)));
      if (!Heap)
        return;
    }
    uint8_t *Data = data();
    // With validation off, a short buffer is padded with zeros.
    if (Args.size() < Bytes)
      std::memset(Data + Args.size(), 0, Bytes - Args.size());
    if (!Args.empty())
      std::memcpy(Data, Args.data(), Args.size());
  }
  QueuedLaunch(QueuedLaunch &&Other)
      : Pool(Other.Pool), Config(Other.Config), Desc(Other.Desc),
        Size(Other.Size), Name(Other.Name), Bytes(Other.Bytes),
        Heap(Other.Heap), Cooperative(Other.Cooperative) {
    Other.Heap = nullptr;
    if (!Heap)
      std::memcpy(Inline, Other.Inline, Bytes);
  }
  QueuedLaunch(const QueuedLaunch &) = delete;
  ~QueuedLaunch() { std::free(Heap); }

  /// Whether the copy could be made.
  bool valid() const { return Bytes <= InlineBytes || Heap; }

  Error operator()() {
    return launchOnHost(Pool, Config, Desc, data(), Size, Name, Cooperative);
  }

private:
  uint8_t *data() { return Heap ? Heap : Inline; }

  alignas(SharedAlignment) uint8_t Inline[InlineBytes];
  BlockPool &Pool;
  const HostConfig &Config;
  const offload_host_kernel_descriptor_t &Desc;
  offload_kernel_launch_size_args_t Size;
  /// The kernel's name, owned by its program, which outlives the launch.
  StringRef Name;
  size_t Bytes;
  uint8_t *Heap = nullptr;
  bool Cooperative;
};
static_assert(sizeof(QueuedLaunch) <= QueueTask::InlineSize,
              "a queued launch is stored in its queue's ring");
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
  return launch(Q, Kernel, Args, Size, /*Cooperative=*/false);
}

Error HostDevice::launchCooperativeKernel(
    Queue *Q, Symbol &Kernel, ArrayRef<uint8_t> Args,
    const offload_kernel_launch_size_args_t &Size) {
  return launch(Q, Kernel, Args, Size, /*Cooperative=*/true);
}

Expected<uint32_t> HostDevice::getMaxCooperativeGroupCount(
    Symbol &, const offload_kernel_launch_size_args_t &) {
  // One thread per block; the threads of the block pool are what the
  // machine is configured to run at once (each block has its own shared
  // memory buffer, so shared memory does not limit the count).
  return ThePlugin.getNumBlockThreads();
}

Error HostDevice::launch(Queue *Q, Symbol &Kernel, ArrayRef<uint8_t> Args,
                         const offload_kernel_launch_size_args_t &Size,
                         bool Cooperative) {
  auto &Sym = static_cast<HostSymbol &>(Kernel);
  const offload_host_kernel_descriptor_t *Desc = Sym.getDescriptor();
  StringRef Name = Desc->Name ? StringRef(Desc->Name) : Sym.getName();
  if (Desc->Flags & OFFLOAD_HOST_KERNEL_COOPERATIVE)
    Sym.traceFibers();
  // A kernel compiled for one block (or grid) size runs only at that size.
  auto CheckRequired = [&](const uint32_t (&Required)[3],
                           const offload_dimensions_t &Given,
                           StringRef What) -> Error {
    if (!Required[0] && !Required[1] && !Required[2])
      return Error::success();
    if (Required[0] == Given.x && Required[1] == Given.y &&
        Required[2] == Given.z)
      return Error::success();
    return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                       "kernel {0} was compiled for {1} of {2}x{3}x{4} but is "
                       "launched with {5}x{6}x{7}",
                       Name, What, Required[0], Required[1], Required[2],
                       Given.x, Given.y, Given.z);
  };
  if (Error E =
          CheckRequired(Desc->RequiredGroupSize, Size.GroupSize, "blocks"))
    return E;
  if (Error E =
          CheckRequired(Desc->RequiredNumGroups, Size.NumGroups, "a grid"))
    return E;
  // Checked even without validation: each block gets one buffer of the
  // static bytes, rounded up to the alignment, then the dynamic bytes,
  // rounded up again; a size that wraps would be a small buffer the kernel
  // overruns.
  uint64_t SharedBytes;
  if (__builtin_add_overflow(Desc->StaticSharedBytes,
                             uint64_t(SharedAlignment - 1), &SharedBytes) ||
      __builtin_add_overflow(SharedBytes, uint64_t(Size.DynSharedMemory),
                             &SharedBytes) ||
      __builtin_add_overflow(SharedBytes, uint64_t(SharedAlignment - 1),
                             &SharedBytes) ||
      SharedBytes > std::numeric_limits<size_t>::max())
    return createError(OFFLOAD_ERRC_INVALID_SIZE,
                       "kernel '{0}': {1} bytes of static and {2} bytes of "
                       "dynamic shared memory do not fit in the address space",
                       Name, Desc->StaticSharedBytes, Size.DynSharedMemory);
  // The device's limit counts the bytes the kernel uses: its static bytes
  // exactly, then the dynamic ones. The padding that aligns the dynamic part
  // in the block's buffer is the runtime's, not the kernel's.
  if (isValidationEnabled() && Desc->StaticSharedBytes + Size.DynSharedMemory >
                                   Info.WorkGroupLocalMemSize)
    return createError(
        OFFLOAD_ERRC_INVALID_SIZE,
        "kernel '{0}': {1} bytes of static and {2} bytes of dynamic shared "
        "memory (LaunchSizeArgs->DynSharedMemory) exceed the device's {3} "
        "bytes per block (OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE)",
        Name, Desc->StaticSharedBytes, Size.DynSharedMemory,
        Info.WorkGroupLocalMemSize);
  BlockPool &Pool = ThePlugin.getBlockPool();
  const HostConfig &Config = ThePlugin.getConfig();

  if (!Q && Args.size() >= Desc->ArgumentsSize)
    return launchOnHost(Pool, Config, *Desc, Args.data(), Size, Name,
                        Cooperative);

  // Queued launches (and short buffers) use a copy of the arguments: the
  // caller may reuse its buffer as soon as the launch is enqueued.
  QueuedLaunch Launch(Pool, Config, *Desc, Args, Size, Name, Cooperative);
  if (!Launch.valid())
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "cannot copy the arguments of kernel {0}", Name);
  if (!Q)
    return Launch();
  static_cast<HostQueue *>(Q)->enqueue(std::move(Launch));
  return Error::success();
}
