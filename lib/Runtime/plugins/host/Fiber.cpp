//===- Fiber.cpp - Running the threads of a block on one OS thread --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A cooperative block runs every GPU thread as a fiber (POSIX ucontext) on the
// pool worker that owns the block. A fiber runs until it calls
// __offload_host_barrier or __offload_host_shuffle (it then waits) or returns
// (it is finished). The block scheduler loops:
//
//  1. Run every ready fiber, round-robin in linear-id order, until each waits
//     or finishes. Fibers only become ready in steps 2 and 3, so after one
//     pass none is ready: every thread has reached its next synchronization
//     point, which is what makes a shuffle see the whole warp when the whole
//     warp reaches it.
//  2. Shuffles first. For each warp (32 consecutive linear ids) with lanes
//     waiting at a shuffle, the shuffle resolves among exactly those lanes
//     (the participants): each computes its source lane from its own mode,
//     offset and width (XOR lane^offset, UP lane-offset, DOWN lane+offset, IDX
//     offset; lane numbers within the warp) and receives the source's value
//     with Valid=1 if the source lies in [0, Width) and participates, else its
//     own value with Valid=0. Lanes that exited or wait at a barrier do not
//     block a shuffle: on a GPU they would not be active lanes either, and
//     resolving shuffles before barriers lets a warp finish its reduction
//     before the block synchronizes.
//  3. Otherwise every unfinished fiber waits at a barrier. If they all wait at
//     the same barrier (call site), all are released. Exited threads do not
//     count, so a barrier never hangs because some threads returned early, as
//     on GPUs where exited threads no longer take part in bar.sync.
//  4. Otherwise threads wait at different barriers (divergent barriers, which
//     would hang or be undefined on a GPU): the block cannot progress and the
//     launch fails with OFFLOAD_ERRC_UNKNOWN "deadlock in kernel ..." rather
//     than hanging. The suspended fibers are abandoned; kernels are C-like
//     code without destructors, so nothing is leaked but their stacks, which
//     the worker reuses.
//
// Identifying barriers by call site requires the compiler not to duplicate a
// barrier call into paths taken by different threads; marking the call
// `convergent` (as for GPU targets) guarantees that.
//
// Values travel as uint64_t bits; the compiler zero-extends 32-bit values and
// truncates results.
//
// Fiber stacks (OFFLOAD_HOST_FIBER_STACK_SIZE, default 64 KiB, each above a
// guard page) and fiber records are cached per OS thread and reused by every
// block and launch that thread runs.
//
//===----------------------------------------------------------------------===//

#include "Fiber.h"

#include "../../Error.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/MathExtras.h"

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <vector>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OFFLOAD_TSAN_FIBERS 1
#include <sanitizer/tsan_interface.h>
#endif
#endif

using namespace llvm;
using namespace offload;
using namespace offload::host;

namespace {
/// ThreadSanitizer must be told about stack switches (OFFLOAD_SANITIZE=thread);
/// these compile to nothing otherwise.
struct TsanFiber {
#ifdef OFFLOAD_TSAN_FIBERS
  void *Handle = nullptr;
  static TsanFiber current() { return {__tsan_get_current_fiber()}; }
  static TsanFiber create() { return {__tsan_create_fiber(0)}; }
  void destroy() { __tsan_destroy_fiber(Handle); }
  void switchTo() const { __tsan_switch_to_fiber(Handle, 0); }
#else
  static TsanFiber current() { return {}; }
  static TsanFiber create() { return {}; }
  void destroy() {}
  void switchTo() const {}
#endif
};
} // namespace

namespace {

enum class FiberState : uint8_t { Ready, AtBarrier, AtShuffle, Finished };

class BlockScheduler;

/// One GPU thread of a cooperative block.
struct Fiber {
  ucontext_t Context;
  TsanFiber Tsan;
  BlockScheduler *Scheduler;
  int64_t Tx, Ty, Tz;
  FiberState State;
  /// Return address of the barrier call the fiber waits at.
  const void *BarrierSite;
  /// The pending shuffle: request, then answer.
  uint64_t ShuffleValue;
  int32_t ShuffleOffset;
  int32_t ShuffleWidth;
  int32_t ShuffleMode;
  uint64_t ShuffleResult;
  bool ShuffleValid;
};

/// Fiber stacks of one OS thread, in one mapping: each stack sits above a
/// guard page, so an overflow faults instead of corrupting a neighbour.
class StackPool {
public:
  ~StackPool() { release(); }

  /// Makes at least \p Count stacks of \p Size bytes available.
  Error reserve(size_t Count, size_t Size) {
    if (Count <= NumStacks && Size == StackSize)
      return Error::success();
    size_t Page = getpagesize();
    size_t NewSize = alignTo(Size, Page);
    size_t NewCount = NewSize == StackSize ? std::max(Count, NumStacks) : Count;
    release();
    size_t Stride = NewSize + Page;
    size_t Bytes = Stride * NewCount;
    void *Mem = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (Mem == MAP_FAILED)
      return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                         "cannot map {0} fiber stacks of {1} bytes", NewCount,
                         NewSize);
    Region = static_cast<char *>(Mem);
    RegionSize = Bytes;
    StackSize = NewSize;
    NumStacks = NewCount;
    // Best effort: without a guard (e.g. when the process hit its mapping
    // limit) the stack still works.
    for (size_t I = 0; I < NewCount; ++I)
      (void)mprotect(Region + I * Stride, Page, PROT_NONE);
    return Error::success();
  }

  void *getStack(size_t I) const {
    return Region + I * (StackSize + getpagesize()) + getpagesize();
  }
  size_t getStackSize() const { return StackSize; }

private:
  void release() {
    if (Region)
      munmap(Region, RegionSize);
    Region = nullptr;
    RegionSize = StackSize = NumStacks = 0;
  }

  char *Region = nullptr;
  size_t RegionSize = 0;
  size_t StackSize = 0;
  size_t NumStacks = 0;
};

/// What an OS thread keeps between blocks.
struct WorkerFibers {
  StackPool Stacks;
  std::vector<Fiber> Fibers;
};

thread_local WorkerFibers Worker;

/// Set when a non-cooperative kernel calls a synchronization function.
thread_local bool SyncInNonCooperativeKernel = false;

/// Schedules the fibers of one cooperative block.
class BlockScheduler {
public:
  BlockScheduler(const BlockLaunch &Launch, offload_host_kernel_context_t &Ctx,
                 MutableArrayRef<Fiber> Fibers)
      : Launch(Launch), Ctx(Ctx), Fibers(Fibers) {}

  Error run(const StackPool &Stacks);
  void barrier(const void *Site);
  uint64_t shuffle(uint64_t Value, int32_t Offset, int32_t Width, int32_t Mode,
                   int8_t *Valid);

private:
  static void entry(unsigned Low, unsigned High);
  /// Switches from the current fiber back to the scheduler.
  void wait(FiberState State);
  /// Step 2 of the scheduler; returns whether any shuffle was resolved.
  bool resolveShuffles();
  /// Steps 3 and 4.
  Error releaseBarrier();

  const BlockLaunch &Launch;
  offload_host_kernel_context_t &Ctx;
  MutableArrayRef<Fiber> Fibers;
  ucontext_t SchedulerContext;
  TsanFiber SchedulerTsan;
  Fiber *Current = nullptr;
};

} // namespace

void BlockScheduler::entry(unsigned Low, unsigned High) {
  // makecontext passes int arguments only: the fiber pointer comes in halves.
  auto *F = reinterpret_cast<Fiber *>((uintptr_t(High) << 32) | Low);
  BlockScheduler &S = *F->Scheduler;
  S.Launch.Desc->RunThread(S.Launch.Args, &S.Ctx, F->Tx, F->Ty, F->Tz);
  F->State = FiberState::Finished;
  // Resume the scheduler without returning (so that, under ThreadSanitizer,
  // no function exit runs on the scheduler's shadow stack); uc_link is only a
  // fallback.
  S.SchedulerTsan.switchTo();
  setcontext(&S.SchedulerContext);
}

void BlockScheduler::wait(FiberState State) {
  Fiber *Self = Current;
  Self->State = State;
  SchedulerTsan.switchTo();
  swapcontext(&Self->Context, &SchedulerContext);
}

void BlockScheduler::barrier(const void *Site) {
  Current->BarrierSite = Site;
  wait(FiberState::AtBarrier);
}

uint64_t BlockScheduler::shuffle(uint64_t Value, int32_t Offset, int32_t Width,
                                 int32_t Mode, int8_t *Valid) {
  Fiber *Self = Current;
  Self->ShuffleValue = Value;
  Self->ShuffleOffset = Offset;
  Self->ShuffleWidth = Width;
  Self->ShuffleMode = Mode;
  wait(FiberState::AtShuffle);
  if (Valid)
    *Valid = Self->ShuffleValid;
  return Self->ShuffleResult;
}

bool BlockScheduler::resolveShuffles() {
  bool Resolved = false;
  size_t N = Fibers.size();
  for (size_t Base = 0; Base < N; Base += OFFLOAD_HOST_SUBGROUP_SIZE) {
    size_t End = std::min<size_t>(N, Base + OFFLOAD_HOST_SUBGROUP_SIZE);
    auto IsParticipant = [&](int64_t Lane) {
      return Lane >= 0 && Lane < int64_t(End - Base) &&
             Fibers[Base + Lane].State == FiberState::AtShuffle;
    };
    bool Any = false;
    for (size_t I = Base; I < End; ++I) {
      Fiber &F = Fibers[I];
      if (F.State != FiberState::AtShuffle)
        continue;
      Any = true;
      int64_t Lane = int64_t(I - Base);
      int64_t Source = -1;
      switch (F.ShuffleMode) {
      case OFFLOAD_HOST_SHUFFLE_XOR:
        Source = Lane ^ int64_t(F.ShuffleOffset);
        break;
      case OFFLOAD_HOST_SHUFFLE_UP:
        Source = Lane - int64_t(F.ShuffleOffset);
        break;
      case OFFLOAD_HOST_SHUFFLE_DOWN:
        Source = Lane + int64_t(F.ShuffleOffset);
        break;
      case OFFLOAD_HOST_SHUFFLE_IDX:
        Source = int64_t(F.ShuffleOffset);
        break;
      default:
        break;
      }
      F.ShuffleValid = Source >= 0 && Source < int64_t(F.ShuffleWidth) &&
                       IsParticipant(Source);
      F.ShuffleResult =
          F.ShuffleValid ? Fibers[Base + Source].ShuffleValue : F.ShuffleValue;
    }
    if (!Any)
      continue;
    // Release only after every answer was computed from the requests.
    for (size_t I = Base; I < End; ++I)
      if (Fibers[I].State == FiberState::AtShuffle)
        Fibers[I].State = FiberState::Ready;
    Resolved = true;
  }
  return Resolved;
}

Error BlockScheduler::releaseBarrier() {
  // No fiber is ready and none waits at a shuffle: every unfinished fiber
  // waits at a barrier.
  const Fiber *First = nullptr;
  for (const Fiber &F : Fibers) {
    if (F.State != FiberState::AtBarrier)
      continue;
    if (!First) {
      First = &F;
      continue;
    }
    if (F.BarrierSite != First->BarrierSite)
      return createError(
          OFFLOAD_ERRC_UNKNOWN,
          "deadlock in kernel {0}: in block ({1},{2},{3}), threads wait at "
          "different barriers: thread ({4},{5},{6}) at {7} and thread "
          "({8},{9},{10}) at {11}; every thread of a block that has not "
          "exited must reach the same barrier",
          Launch.Name, Ctx.BlockId[0], Ctx.BlockId[1], Ctx.BlockId[2],
          First->Tx, First->Ty, First->Tz, First->BarrierSite, F.Tx, F.Ty, F.Tz,
          F.BarrierSite);
  }
  for (Fiber &F : Fibers)
    if (F.State == FiberState::AtBarrier)
      F.State = FiberState::Ready;
  return Error::success();
}

Error BlockScheduler::run(const StackPool &Stacks) {
  int64_t Bx = Ctx.BlockDim[0], By = Ctx.BlockDim[1];
  for (size_t I = 0, E = Fibers.size(); I < E; ++I) {
    Fiber &F = Fibers[I];
    F.Scheduler = this;
    F.Tx = int64_t(I) % Bx;
    F.Ty = (int64_t(I) / Bx) % By;
    F.Tz = int64_t(I) / (Bx * By);
    F.State = FiberState::Ready;
    if (getcontext(&F.Context) != 0)
      return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                         "getcontext failed for kernel {0}", Launch.Name);
    F.Context.uc_stack.ss_sp = Stacks.getStack(I);
    F.Context.uc_stack.ss_size = Stacks.getStackSize();
    F.Context.uc_link = &SchedulerContext;
    uintptr_t Self = reinterpret_cast<uintptr_t>(&F);
    makecontext(&F.Context, reinterpret_cast<void (*)()>(&entry), 2,
                unsigned(Self & 0xffffffffu), unsigned(Self >> 32));
    F.Tsan = TsanFiber::create();
  }
  SchedulerTsan = TsanFiber::current();
  scope_exit DestroyTsanFibers([&] {
    for (Fiber &F : Fibers)
      F.Tsan.destroy();
  });

  Ctx.Cooperative = this;
  size_t Unfinished = Fibers.size();
  while (true) {
    for (Fiber &F : Fibers) {
      if (F.State != FiberState::Ready)
        continue;
      Current = &F;
      F.Tsan.switchTo();
      swapcontext(&SchedulerContext, &F.Context);
      if (F.State == FiberState::Finished)
        --Unfinished;
    }
    Current = nullptr;
    if (Unfinished == 0)
      break;
    if (resolveShuffles())
      continue;
    if (Error E = releaseBarrier()) {
      Ctx.Cooperative = nullptr;
      return E;
    }
  }
  Ctx.Cooperative = nullptr;
  return Error::success();
}

Error offload::host::runCooperativeBlock(const BlockLaunch &Launch,
                                         offload_host_kernel_context_t &Ctx) {
  size_t NumThreads = size_t(Ctx.BlockDim[0]) * size_t(Ctx.BlockDim[1]) *
                      size_t(Ctx.BlockDim[2]);
  if (Error E = Worker.Stacks.reserve(NumThreads, Launch.FiberStackSize))
    return E;
  if (Worker.Fibers.size() < NumThreads)
    Worker.Fibers.resize(NumThreads);
  BlockScheduler Scheduler(
      Launch, Ctx, MutableArrayRef<Fiber>(Worker.Fibers.data(), NumThreads));
  return Scheduler.run(Worker.Stacks);
}

Error offload::host::runNonCooperativeBlock(
    const BlockLaunch &Launch, offload_host_kernel_context_t &Ctx) {
  SyncInNonCooperativeKernel = false;
  const offload_host_kernel_descriptor_t &Desc = *Launch.Desc;
  if (Desc.RunBlock) {
    Desc.RunBlock(Launch.Args, &Ctx);
  } else {
    // No block loop compiled: run the threads one after the other, x fastest.
    for (int64_t Z = 0; Z < Ctx.BlockDim[2]; ++Z)
      for (int64_t Y = 0; Y < Ctx.BlockDim[1]; ++Y)
        for (int64_t X = 0; X < Ctx.BlockDim[0]; ++X)
          Desc.RunThread(Launch.Args, &Ctx, X, Y, Z);
  }
  if (SyncInNonCooperativeKernel)
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "kernel {0} calls __offload_host_barrier or "
                       "__offload_host_shuffle but its descriptor lacks "
                       "OFFLOAD_HOST_KERNEL_COOPERATIVE",
                       Launch.Name);
  return Error::success();
}

//===----------------------------------------------------------------------===//
// Functions called by compiled kernels
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"))) void
__offload_host_barrier(offload_host_kernel_context_t *Ctx) {
  const void *Site = __builtin_return_address(0);
  if (!Ctx || !Ctx->Cooperative) {
    SyncInNonCooperativeKernel = true;
    return;
  }
  static_cast<BlockScheduler *>(Ctx->Cooperative)->barrier(Site);
}

extern "C" __attribute__((visibility("default"))) uint64_t
__offload_host_shuffle(offload_host_kernel_context_t *Ctx, uint64_t Value,
                       int32_t Offset, int32_t Width, int32_t Mode,
                       int8_t *Valid) {
  if (!Ctx || !Ctx->Cooperative) {
    SyncInNonCooperativeKernel = true;
    if (Valid)
      *Valid = 0;
    return Value;
  }
  return static_cast<BlockScheduler *>(Ctx->Cooperative)
      ->shuffle(Value, Offset, Width, Mode, Valid);
}
