//===- Fiber.cpp - Running the threads of a block on one OS thread --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A cooperative block runs every GPU thread as a fiber on the OS thread that
// owns the block (a pool worker or the launching thread). A fiber runs until
// it calls __offload_host_barrier or __offload_host_shuffle (it then waits)
// or returns (it is finished). Scheduling proceeds in passes:
//
//  1. Every ready fiber runs, in linear-id order, until it waits or finishes.
//     Fibers only become ready in steps 2 and 3, so after one pass none is
//     ready: every thread has reached its next synchronization point, which
//     is what makes a shuffle see the whole warp when the whole warp reaches
//     it.
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
//     the same barrier (the same BarrierId), all are released. Exited threads
//     do not count, so a barrier never hangs because some threads returned
//     early, as on GPUs where exited threads no longer take part in bar.sync.
//  4. Otherwise threads wait at different barriers (divergent barriers, which
//     would hang or be undefined on a GPU): the block cannot progress and the
//     launch fails with OFFLOAD_ERRC_UNKNOWN "deadlock in kernel ..." naming
//     two of the threads and their barrier ids, rather than hanging.
//
// Barriers are identified by the id the compiler passes (one per gpu.barrier
// op), never by call site: LLVM may duplicate a barrier call into several
// paths, and the copies must still be one barrier.
//
// Switching. A fiber that waits or finishes switches directly to the next
// ready fiber of the pass; the last fiber of a pass runs steps 2-4 on its own
// stack and switches to the first fiber of the next pass. Only the end of the
// block (or a deadlock) returns to the OS thread's own stack. The pass is a
// scan of the fibers' states in linear-id order; a barrier costs one switch
// and a few stores per thread, with no atomic and no allocation (a block
// runs on one OS thread).
//
// On x86-64 the switch is the function below: it pushes the six callee-saved
// registers, swaps stack pointers and pops them, and returns with `ret` to
// the call that suspended the resumed context. Every fiber suspends from the
// same call site, so the return-stack predictor guesses every return right.
// Boost.Context's fcontext (the switch elsewhere) returns with an indirect
// jump, which leaves that predictor one entry off and mispredicts each return
// up the resumed fiber's stack, and it also saves and reloads MXCSR and the
// x87 control word (ldmxcsr and fldcw are slow): about twice the cost per
// barrier (bench/README.md). The floating-point control words are left
// alone: every thread of a block shares the OS thread's (no kernel changes
// them; the ABI lets a callee do so only if it restores them). Unlike
// swapcontext, neither switch makes a signal-mask system call.
//
// Fiber stacks (OFFLOAD_HOST_FIBER_STACK_SIZE, default 64 KiB, each above a
// guard page), fiber records and their contexts are made once per OS thread,
// in one mapping, and reused by every block and launch that thread runs: a
// finished fiber parks at the top of its loop and runs the next thread given to
// it. The fibers left waiting by a deadlock are abandoned: kernels are C-like
// code without destructors, so nothing leaks; their contexts are remade on the
// same stacks.
//
// Values travel as uint64_t bits; the compiler zero-extends 32-bit values and
// truncates results.
//
//===----------------------------------------------------------------------===//

#include "Fiber.h"

#include "HostCheck.h"
#include "OffloadSupport/Error.h"
#include "OffloadSupport/KernelNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#if defined(__x86_64__) && defined(__ELF__) &&                                 \
    !defined(OFFLOAD_HOST_BOOST_FIBER_SWITCH)
#define OFFLOAD_HOST_OWN_FIBER_SWITCH 1
#else
#include <boost/context/detail/fcontext.hpp>
#endif

#include <sys/mman.h>
#include <unistd.h>

#include <new>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define OFFLOAD_TSAN_FIBERS 1
#include <sanitizer/tsan_interface.h>
#endif
#if __has_feature(address_sanitizer)
#define OFFLOAD_ASAN_FIBERS 1
#include <sanitizer/common_interface_defs.h>
#endif
#endif

using namespace llvm;
using namespace offload;
using namespace offload::host;

#ifdef OFFLOAD_HOST_OWN_FIBER_SWITCH
// __offload_host_fiber_switch(void **Save, void *Resume): saves the caller's
// callee-saved registers on its stack, stores the stack pointer to *Save,
// continues the context whose stack pointer is Resume. A fresh context's
// stack (WorkerFibers::reset) holds zeros for the registers but rbx (its
// Fiber), and returns into __offload_host_fiber_start, which calls
// __offload_host_fiber_entry(rbx) on a 16-byte aligned stack.
extern "C" void __offload_host_fiber_switch(void **Save, void *Resume);
extern "C" void __offload_host_fiber_start();
asm(R"(
  .text
  .p2align 4
  .globl __offload_host_fiber_switch
  .hidden __offload_host_fiber_switch
  .type __offload_host_fiber_switch,@function
__offload_host_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  retq
  .size __offload_host_fiber_switch, .-__offload_host_fiber_switch

  .p2align 4
  .globl __offload_host_fiber_start
  .hidden __offload_host_fiber_start
  .type __offload_host_fiber_start,@function
__offload_host_fiber_start:
  movq %rbx, %rdi
  andq $-16, %rsp
  callq __offload_host_fiber_entry
  ud2
  .size __offload_host_fiber_start, .-__offload_host_fiber_start
)");
#else
namespace fctx = boost::context::detail;
#endif

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

/// AddressSanitizer must be told about stack switches too
/// (OFFLOAD_SANITIZE=address): the stack a context runs on, and its fake
/// stack while it is suspended. Nothing otherwise.
struct AsanStack {
#ifdef OFFLOAD_ASAN_FIBERS
  const void *Bottom = nullptr;
  size_t Size = 0;
  void *FakeStack = nullptr;
  void set(const void *StackBottom, size_t StackSize) {
    Bottom = StackBottom;
    Size = StackSize;
  }
  /// Called by the context that suspends itself, before switching to \p To.
  void startSwitch(const AsanStack &To) {
    __sanitizer_start_switch_fiber(&FakeStack, To.Bottom, To.Size);
  }
  /// Called by the context that resumes; learns the stack of \p From.
  void finishSwitch(AsanStack &From, bool Fresh) {
    __sanitizer_finish_switch_fiber(Fresh ? nullptr : FakeStack, &From.Bottom,
                                    &From.Size);
  }
#else
  void set(const void *, size_t) {}
  void startSwitch(const AsanStack &) {}
  void finishSwitch(AsanStack &, bool) {}
#endif
};
} // namespace

namespace {

enum class FiberState : uint8_t { Ready, AtBarrier, AtShuffle, Finished };

class BlockScheduler;

/// An execution context: a fiber, or the OS thread's own stack (the
/// scheduler's "home").
struct ContextSlot {
  /// Where to resume the context while it is suspended: its stack pointer
  /// (x86-64), else its Boost fcontext.
  void *Context = nullptr;
  /// The block the context works for.
  BlockScheduler *Scheduler = nullptr;
  TsanFiber Tsan;
  AsanStack Asan;
};

/// One GPU thread of a cooperative block.
struct Fiber : ContextSlot {
  int64_t Tx = 0, Ty = 0, Tz = 0;
  FiberState State = FiberState::Finished;
  /// The barrier the fiber waits at.
  uint32_t BarrierId = 0;
  /// The pending shuffle: request, then answer.
  int32_t ShuffleOffset = 0;
  int32_t ShuffleWidth = 0;
  int32_t ShuffleMode = 0;
  bool ShuffleValid = false;
  uint64_t ShuffleValue = 0;
  uint64_t ShuffleResult = 0;
};

/// The fibers of one OS thread and their stacks, in one mapping: the fiber
/// records first, then the stacks, each above a guard page so that an
/// overflow faults instead of corrupting a neighbour. Fiber I runs on stack
/// I. Nothing is allocated on the heap.
class WorkerFibers {
public:
  WorkerFibers() = default;
  WorkerFibers(const WorkerFibers &) = delete;
  WorkerFibers &operator=(const WorkerFibers &) = delete;
  ~WorkerFibers() { release(); }

  /// Makes at least \p Count fibers with stacks of \p Size bytes.
  Error reserve(size_t Count, size_t Size) {
    size_t Page = getpagesize();
    // Sizes never wrap: a wrapped total would map a small region that the
    // fibers' stacks overrun.
    size_t NewSize = 0, RecordBytes = 0, Stride = 0, StacksBytes = 0, Bytes = 0;
    bool Wraps = Size > SIZE_MAX - Page;
    if (!Wraps) {
      NewSize = alignTo(Size, Page);
      Wraps = NewSize > SIZE_MAX - Page;
    }
    if (!Wraps && Count <= NumFibers && NewSize == StackSize)
      return Error::success();
    size_t NewCount =
        !Wraps && NewSize == StackSize ? std::max(Count, NumFibers) : Count;
    if (!Wraps) {
      Stride = NewSize + Page;
      Wraps = __builtin_mul_overflow(NewCount, sizeof(Fiber), &RecordBytes) ||
              RecordBytes > SIZE_MAX - Page ||
              __builtin_mul_overflow(Stride, NewCount, &StacksBytes);
    }
    if (!Wraps) {
      RecordBytes = alignTo(RecordBytes, Page);
      Wraps = __builtin_add_overflow(RecordBytes, StacksBytes, &Bytes);
    }
    if (Wraps)
      return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                         "cannot map {0} fiber stacks of {1} bytes: the size "
                         "does not fit in the address space",
                         Count, Size);
    release();
    void *Mem = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (Mem == MAP_FAILED)
      return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                         "cannot map {0} fiber stacks of {1} bytes", NewCount,
                         NewSize);
    Region = static_cast<char *>(Mem);
    RegionSize = Bytes;
    StacksOffset = RecordBytes;
    StackSize = NewSize;
    NumFibers = NewCount;
    // Best effort: without a guard (e.g. when the process hit its mapping
    // limit) the stack still works.
    for (size_t I = 0; I < NewCount; ++I)
      (void)mprotect(Region + RecordBytes + I * Stride, Page, PROT_NONE);
    Fibers = reinterpret_cast<Fiber *>(Region);
    for (size_t I = 0; I < NumFibers; ++I) {
      new (&Fibers[I]) Fiber();
      Fibers[I].Tsan = TsanFiber::create();
      reset(I);
    }
    return Error::success();
  }

  /// Gives fiber \p I a fresh context at the top of its stack.
  void reset(size_t I);
  /// The same for a fiber that a deadlock left waiting mid-kernel.
  void abandon(size_t I) {
    Fibers[I].Tsan.destroy();
    Fibers[I].Tsan = TsanFiber::create();
    reset(I);
  }

  Fiber *getFibers() { return Fibers; }

private:
  /// How far below the top of its stack fiber \p I starts, in bytes: a
  /// different cache line of the page for each of 64 neighbours. Stacks are
  /// a whole number of pages apart, so their tops would all fall into the
  /// same cache sets, and a barrier, which touches the top frames of every
  /// fiber of the block in turn, would miss the L1 cache from 8 fibers on.
  static size_t getStackColour(size_t I) { return (I % 64) * 64; }

  /// The lowest address of stack \p I.
  char *getStackBottom(size_t I) const {
    return Region + StacksOffset + I * (StackSize + getpagesize()) +
           getpagesize();
  }

  void release() {
    for (size_t I = 0; I < NumFibers; ++I) {
      Fibers[I].Tsan.destroy();
      Fibers[I].~Fiber();
    }
    if (Region)
      munmap(Region, RegionSize);
    Region = nullptr;
    Fibers = nullptr;
    RegionSize = StacksOffset = StackSize = NumFibers = 0;
  }

  char *Region = nullptr;
  size_t RegionSize = 0;
  size_t StacksOffset = 0;
  size_t StackSize = 0;
  Fiber *Fibers = nullptr;
  size_t NumFibers = 0;
};

thread_local WorkerFibers Worker;

/// Set when a non-cooperative kernel calls a synchronization function.
thread_local bool SyncInNonCooperativeKernel = false;

/// Schedules the fibers of one cooperative block.
class BlockScheduler {
public:
  /// Schedules the first \p NumFibers fibers of \p Worker.
  BlockScheduler(const BlockLaunch &Launch, offload_host_kernel_context_t &Ctx,
                 WorkerFibers &Worker, size_t NumFibers)
      : Launch(Launch), Ctx(Ctx), Worker(Worker), Fibers(Worker.getFibers()),
        NumFibers(NumFibers) {}

  /// Runs the block. On a deadlock, abandons the fibers left waiting and
  /// returns the error.
  Error run();
  void barrier(uint32_t Id);
  uint64_t shuffle(uint64_t Value, int32_t Offset, int32_t Width, int32_t Mode,
                   int8_t *Valid);

  /// The loop of fiber \p Self (never returns), once it was started.
  [[noreturn]] static void fiberLoop(Fiber &Self);
#ifndef OFFLOAD_HOST_OWN_FIBER_SWITCH
  /// Where every fiber context starts.
  static void fiberMain(fctx::transfer_t T);
#endif
  /// The context that switched to the current one (AddressSanitizer must
  /// be told about its stack).
  ContextSlot *Previous = nullptr;

private:
  /// Switches from \p From to \p To; returns when \p From is resumed.
  void switchTo(ContextSlot &From, ContextSlot &To);
  /// The context to run after \p Self stopped running: the next ready fiber
  /// of the pass, else (end of the pass, steps 2-4) the first of the next
  /// pass, else home (the block is done or deadlocked). May be \p Self.
  ContextSlot &next(Fiber &Self);
  /// Current stops (it waits); returns when it may continue.
  void suspend();
  /// \p Self returned from the kernel; returns when the fiber runs again, for
  /// a later block.
  void finish(Fiber &Self);
  /// The first ready fiber at or after \p From, or null.
  Fiber *findReady(size_t From) {
    for (size_t I = From; I < NumFibers; ++I)
      if (Fibers[I].State == FiberState::Ready)
        return &Fibers[I];
    return nullptr;
  }
  /// Step 2; returns the first released fiber.
  Fiber *resolveShuffles();
  Error makeDeadlockError() const;

  const BlockLaunch &Launch;
  offload_host_kernel_context_t &Ctx;
  WorkerFibers &Worker;
  Fiber *Fibers;
  size_t NumFibers;
  /// The OS thread's own context.
  ContextSlot Home;
  Fiber *Current = nullptr;
  size_t NumUnfinished = 0;
  size_t NumAtShuffle = 0;
  size_t NumAtBarrier = 0;
  /// The id of the first barrier a fiber waits at since the last release,
  /// and whether another fiber waits at another one.
  uint32_t BarrierId = 0;
  bool Divergent = false;
  bool Deadlocked = false;

  /// synccheck's reports (HostCheck.h).
  void reportExitedBeforeBarrier() const;
  llvm::StringRef kernelName() const;
  void reportDifferentBarriers() const;
};

} // namespace

#ifdef OFFLOAD_HOST_OWN_FIBER_SWITCH
extern "C" __attribute__((used, visibility("hidden"))) void
__offload_host_fiber_entry(Fiber *Self);

void WorkerFibers::reset(size_t I) {
  Fiber &F = Fibers[I];
  char *Bottom = getStackBottom(I);
  size_t Size = StackSize;
  // What __offload_host_fiber_switch pops, from the lowest address: r15,
  // r14, r13, r12, rbx (the fiber), rbp, the return address, then a null
  // return address for the start routine, below the top of the stack less
  // its colour (getStackColour).
  void **Top = reinterpret_cast<void **>(Bottom + Size - getStackColour(I));
  void **SP = Top - 8;
  SP[0] = SP[1] = SP[2] = SP[3] = nullptr;
  SP[4] = &F;
  SP[5] = nullptr;
  SP[6] = reinterpret_cast<void *>(&__offload_host_fiber_start);
  SP[7] = nullptr;
  F.Context = SP;
  F.Asan.set(Bottom, Size);
}

void BlockScheduler::switchTo(ContextSlot &From, ContextSlot &To) {
  Current = &To == &Home ? nullptr : static_cast<Fiber *>(&To);
  From.Asan.startSwitch(To.Asan);
  To.Tsan.switchTo();
  Previous = &From;
  __offload_host_fiber_switch(&From.Context, To.Context);
  // Resumed by Previous, on this block's scheduler (blocks of one OS thread
  // run one after the other).
  From.Asan.finishSwitch(From.Scheduler->Previous->Asan, /*Fresh=*/false);
}

extern "C" void __offload_host_fiber_entry(Fiber *Self) {
  BlockScheduler &S = *Self->Scheduler;
  Self->Asan.finishSwitch(S.Previous->Asan, /*Fresh=*/true);
  BlockScheduler::fiberLoop(*Self);
}
#else
void WorkerFibers::reset(size_t I) {
  Fiber &F = Fibers[I];
  char *Bottom = getStackBottom(I);
  size_t Size = StackSize;
  size_t Colour = getStackColour(I);
  F.Context = fctx::make_fcontext(Bottom + Size - Colour, Size - Colour,
                                  &BlockScheduler::fiberMain);
  F.Asan.set(Bottom, Size);
}

void BlockScheduler::switchTo(ContextSlot &From, ContextSlot &To) {
  Current = &To == &Home ? nullptr : static_cast<Fiber *>(&To);
  From.Asan.startSwitch(To.Asan);
  To.Tsan.switchTo();
  fctx::transfer_t T = fctx::jump_fcontext(To.Context, &From);
  // Resumed by the context in T.data: keep where it stopped.
  auto *Prev = static_cast<ContextSlot *>(T.data);
  From.Asan.finishSwitch(Prev->Asan, /*Fresh=*/false);
  Prev->Context = T.fctx;
}

void BlockScheduler::fiberMain(fctx::transfer_t T) {
  // First start: the context that jumped here says which block this is, and
  // the block's scheduler which fiber.
  auto *Prev = static_cast<ContextSlot *>(T.data);
  Fiber &Self = *Prev->Scheduler->Current;
  Self.Asan.finishSwitch(Prev->Asan, /*Fresh=*/true);
  Prev->Context = T.fctx;
  fiberLoop(Self);
}
#endif

void BlockScheduler::fiberLoop(Fiber &Self) {
  // Never returns: a finished fiber parks in finish() until a later block
  // gives it another thread.
  while (true) {
    BlockScheduler &S = *Self.Scheduler;
    S.Launch.Desc->RunThread(S.Launch.Args, &S.Ctx, Self.Tx, Self.Ty, Self.Tz);
    S.finish(Self);
  }
}

ContextSlot &BlockScheduler::next(Fiber &Self) {
  if (Fiber *F = findReady(size_t(&Self - Fibers) + 1)) {
    // A pass runs the fibers in order: fetch the record of the one after
    // next and the stack top of the next but one while this one runs, so
    // that the switch after the next finds both in the cache (a block of
    // 256 threads already touches more than the L1 cache holds).
    size_t I = size_t(F - Fibers);
    if (I + 4 < NumFibers)
      __builtin_prefetch(&Fibers[I + 4]);
    if (I + 2 < NumFibers) {
      auto *Stack = static_cast<char *>(Fibers[I + 2].Context);
      __builtin_prefetch(Stack);
      __builtin_prefetch(Stack + 64);
    }
    return *F;
  }
  // End of the pass: no fiber is ready.
  if (NumUnfinished == 0)
    return Home;
  if (NumAtShuffle)
    return *resolveShuffles();
  // Every unfinished fiber waits at a barrier.
  if (Divergent) {
    Deadlocked = true;
    return Home;
  }
  // synccheck: threads that exited without reaching the barrier the others
  // wait at (CUDA counts them as arrived; it is still a divergent barrier).
  if (NumUnfinished < NumFibers && isSyncChecked())
    reportExitedBeforeBarrier();
  Fiber *First = nullptr;
  for (size_t I = 0; I < NumFibers; ++I) {
    Fiber &F = Fibers[I];
    if (F.State != FiberState::AtBarrier)
      continue;
    F.State = FiberState::Ready;
    if (!First)
      First = &F;
  }
  NumAtBarrier = 0;
  return *First;
}

void BlockScheduler::suspend() {
  Fiber &Self = *Current;
  ContextSlot &To = next(Self);
  if (&To != &Self)
    switchTo(Self, To);
}

void BlockScheduler::finish(Fiber &Self) {
  Self.State = FiberState::Finished;
  --NumUnfinished;
  switchTo(Self, next(Self));
}

void BlockScheduler::barrier(uint32_t Id) {
  Fiber &Self = *Current;
  Self.State = FiberState::AtBarrier;
  Self.BarrierId = Id;
  if (NumAtBarrier++ == 0)
    BarrierId = Id;
  else if (Id != BarrierId)
    Divergent = true;
  suspend();
}

uint64_t BlockScheduler::shuffle(uint64_t Value, int32_t Offset, int32_t Width,
                                 int32_t Mode, int8_t *Valid) {
  Fiber &Self = *Current;
  Self.State = FiberState::AtShuffle;
  Self.ShuffleValue = Value;
  Self.ShuffleOffset = Offset;
  Self.ShuffleWidth = Width;
  Self.ShuffleMode = Mode;
  ++NumAtShuffle;
  suspend();
  if (Valid)
    *Valid = Self.ShuffleValid;
  return Self.ShuffleResult;
}

Fiber *BlockScheduler::resolveShuffles() {
  Fiber *First = nullptr;
  size_t N = NumFibers;
  for (size_t Base = 0; Base < N && NumAtShuffle;
       Base += OFFLOAD_HOST_SUBGROUP_SIZE) {
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
    for (size_t I = Base; I < End; ++I) {
      Fiber &F = Fibers[I];
      if (F.State != FiberState::AtShuffle)
        continue;
      F.State = FiberState::Ready;
      --NumAtShuffle;
      if (!First)
        First = &F;
    }
  }
  return First;
}

/// "[x,y,z] [x,y,z] ..." of the fibers \p Pick selects (the first 8, then
/// "and N more").
template <typename PickT>
static std::string listThreads(const Fiber *Fibers, size_t NumFibers,
                               PickT Pick) {
  std::string Result;
  size_t Count = 0;
  for (size_t I = 0; I < NumFibers; ++I) {
    const Fiber &F = Fibers[I];
    if (!Pick(F))
      continue;
    if (Count++ < 8)
      Result += llvm::formatv("{0}[{1},{2},{3}]", Result.empty() ? "" : " ",
                              F.Tx, F.Ty, F.Tz)
                    .str();
  }
  if (Count > 8)
    Result += llvm::formatv(" and {0} more", Count - 8).str();
  return llvm::formatv("{0} thread(s): {1}", Count, Result).str();
}

static const char *orUnknown(const char *Location) {
  return Location ? Location : "<unknown>";
}

llvm::StringRef BlockScheduler::kernelName() const {
  if (const char *Name = getCheckedKernelName())
    return Name;
  return Launch.Name;
}

void BlockScheduler::reportExitedBeforeBarrier() const {
  size_t First = 0;
  while (Fibers[First].State != FiberState::AtBarrier)
    ++First;
  const char *Barrier = getBarrierLocation(First);
  reportSyncError(
      orUnknown(Barrier),
      llvm::formatv(
          "Barrier error detected. Divergent thread(s) in block\n"
          "    at the barrier at {0} in kernel '{1}', block: [{2},{3},{4}]\n"
          "    arrived: {5}\n"
          "    exited without arriving: {6}",
          orUnknown(Barrier), kernelName(), Ctx.BlockId[0], Ctx.BlockId[1],
          Ctx.BlockId[2],
          listThreads(
              Fibers, NumFibers,
              [](const Fiber &F) { return F.State == FiberState::AtBarrier; }),
          listThreads(
              Fibers, NumFibers,
              [](const Fiber &F) { return F.State == FiberState::Finished; }))
          .str());
}

void BlockScheduler::reportDifferentBarriers() const {
  size_t First = 0;
  while (Fibers[First].State != FiberState::AtBarrier)
    ++First;
  uint32_t Id = Fibers[First].BarrierId;
  size_t Other = First;
  while (Fibers[Other].State != FiberState::AtBarrier ||
         Fibers[Other].BarrierId == Id)
    ++Other;
  const char *Here = getBarrierLocation(First);
  const char *There = getBarrierLocation(Other);
  uint32_t OtherId = Fibers[Other].BarrierId;
  reportSyncError(
      (std::string(orUnknown(Here)) + "|" + orUnknown(There)).c_str(),
      llvm::formatv("Barrier error detected. Divergent thread(s) in block\n"
                    "    threads of kernel '{0}', block: [{1},{2},{3}] wait at "
                    "different barriers\n"
                    "    at the barrier at {4}: {5}\n"
                    "    at the barrier at {6}: {7}",
                    kernelName(), Ctx.BlockId[0], Ctx.BlockId[1],
                    Ctx.BlockId[2], orUnknown(Here),
                    listThreads(Fibers, NumFibers,
                                [&](const Fiber &F) {
                                  return F.State == FiberState::AtBarrier &&
                                         F.BarrierId == Id;
                                }),
                    orUnknown(There),
                    listThreads(Fibers, NumFibers,
                                [&](const Fiber &F) {
                                  return F.State == FiberState::AtBarrier &&
                                         F.BarrierId == OtherId;
                                }))
          .str());
}

Error BlockScheduler::makeDeadlockError() const {
  const Fiber *First = nullptr;
  for (size_t I = 0; I < NumFibers; ++I) {
    const Fiber &F = Fibers[I];
    if (F.State != FiberState::AtBarrier)
      continue;
    if (!First) {
      First = &F;
      continue;
    }
    if (F.BarrierId != First->BarrierId)
      return createError(
          OFFLOAD_ERRC_UNKNOWN,
          "deadlock in kernel {0}: in block ({1},{2},{3}), threads wait at "
          "different barriers: thread ({4},{5},{6}) at barrier {7} and thread "
          "({8},{9},{10}) at barrier {11}; every thread of a block that has "
          "not exited must reach the same barrier",
          offload::getKernelDisplayName(Launch.Name), Ctx.BlockId[0],
          Ctx.BlockId[1], Ctx.BlockId[2], First->Tx, First->Ty, First->Tz,
          First->BarrierId, F.Tx, F.Ty, F.Tz, F.BarrierId);
  }
  llvm_unreachable("a deadlock needs two barriers");
}

Error BlockScheduler::run() {
  int64_t Bx = Ctx.BlockDim[0], By = Ctx.BlockDim[1];
  for (size_t I = 0; I < NumFibers; ++I) {
    Fiber &F = Fibers[I];
    F.Scheduler = this;
    F.Tx = int64_t(I) % Bx;
    F.Ty = (int64_t(I) / Bx) % By;
    F.Tz = int64_t(I) / (Bx * By);
    F.State = FiberState::Ready;
  }
  Home.Scheduler = this;
  Home.Tsan = TsanFiber::current();
  NumUnfinished = NumFibers;

  Ctx.Cooperative = this;
  switchTo(Home, Fibers[0]);
  Ctx.Cooperative = nullptr;
  if (!Deadlocked)
    return Error::success();
  // synccheck reports the threads at different barriers with the barriers'
  // locations, and the launch fails with the synccheck count.
  Error E = isSyncChecked() ? (reportDifferentBarriers(), Error::success())
                            : makeDeadlockError();
  for (size_t I = 0; I < NumFibers; ++I)
    if (Fibers[I].State != FiberState::Finished)
      Worker.abandon(I);
  return E;
}

Error offload::host::runCooperativeBlock(const BlockLaunch &Launch,
                                         offload_host_kernel_context_t &Ctx) {
  size_t NumThreads = size_t(Ctx.BlockDim[0]) * size_t(Ctx.BlockDim[1]) *
                      size_t(Ctx.BlockDim[2]);
  if (Error E = Worker.reserve(NumThreads, Launch.FiberStackSize))
    return E;
  return BlockScheduler(Launch, Ctx, Worker, NumThreads).run();
}

/// The error of a non-cooperative kernel that called a synchronization
/// function since SyncInNonCooperativeKernel was cleared.
static Error checkSyncMisuse(const BlockLaunch &Launch) {
  if (!SyncInNonCooperativeKernel)
    return Error::success();
  return createError(OFFLOAD_ERRC_INVALID_BINARY,
                     "kernel {0} calls __offload_host_barrier or "
                     "__offload_host_shuffle but its descriptor lacks "
                     "OFFLOAD_HOST_KERNEL_COOPERATIVE",
                     offload::getKernelDisplayName(Launch.Name));
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
  return checkSyncMisuse(Launch);
}

Error offload::host::runNonCooperativeBlocks(const BlockLaunch &Launch,
                                             offload_host_kernel_context_t &Ctx,
                                             uint64_t Begin, uint64_t End,
                                             const std::atomic<bool> &Stop) {
  const offload_host_kernel_descriptor_t &Desc = *Launch.Desc;
  if (!Desc.RunBlock) {
    for (uint64_t B = Begin; B < End && !Stop.load(std::memory_order_relaxed);
         ++B) {
      setBlockId(Ctx, B);
      if (Error E = runNonCooperativeBlock(Launch, Ctx))
        return E;
    }
    return Error::success();
  }
  // The hot loop of barrier-free kernels: block ids advance without
  // divisions, and the misuse check runs once for the range.
  SyncInNonCooperativeKernel = false;
  setBlockId(Ctx, Begin);
  int64_t Gx = Ctx.GridDim[0], Gy = Ctx.GridDim[1];
  for (uint64_t B = Begin; B < End; ++B) {
    Desc.RunBlock(Launch.Args, &Ctx);
    if (++Ctx.BlockId[0] == Gx) {
      Ctx.BlockId[0] = 0;
      if (++Ctx.BlockId[1] == Gy) {
        Ctx.BlockId[1] = 0;
        ++Ctx.BlockId[2];
      }
      // Another block's failure ends the launch.
      if (Stop.load(std::memory_order_relaxed))
        break;
    }
  }
  return checkSyncMisuse(Launch);
}

void offload::host::setBlockId(offload_host_kernel_context_t &Ctx,
                               uint64_t Linear) {
  uint64_t Gx = Ctx.GridDim[0], Gy = Ctx.GridDim[1];
  Ctx.BlockId[0] = int64_t(Linear % Gx);
  Ctx.BlockId[1] = int64_t((Linear / Gx) % Gy);
  Ctx.BlockId[2] = int64_t(Linear / (Gx * Gy));
}

//===----------------------------------------------------------------------===//
// Functions called by compiled kernels
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"))) void
__offload_host_barrier(offload_host_kernel_context_t *Ctx, uint32_t BarrierId) {
  if (!Ctx || !Ctx->Cooperative) {
    SyncInNonCooperativeKernel = true;
    return;
  }
  static_cast<BlockScheduler *>(Ctx->Cooperative)->barrier(BarrierId);
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
