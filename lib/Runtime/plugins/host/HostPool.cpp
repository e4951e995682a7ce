//===- HostPool.cpp - The threads that run the blocks of launches ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A fork-join pool made for launches, which are short and frequent: a launch
// publishes a job (the blocks of its grid) on a list, the pool's workers and
// the launching thread take chunks of blocks from an atomic counter, and the
// launcher returns once every worker that joined the job has left it.
// Nothing is allocated per job: the job lives on the launcher's stack.
//
// Chunks are guided self-scheduling (Polychronopoulos and Kuck, 1987, as
// OpenMP's schedule(guided)): a take is 1/(2 x threads) of the blocks left,
// at least the job's grain. The first takes are large (few atomic operations
// per launch), the last ones small, so that a thread that was descheduled or
// slower (another process on its core, uneven blocks) leaves at most a grain
// of work to the others at the end.
//
// Idle workers spin for a while (HostConfig::SpinMicros) before they sleep,
// like OpenMP's workers: a launch that follows another one within that time
// wakes no thread through the kernel. Spinning first pauses, then yields the
// CPU, so that a spinning thread gives way to runnable threads on a machine
// with fewer cores than threads. Sleepers wait on a futex (a futex
// on Epoch) and the pool's bookkeeping is under a spin lock: a woken worker
// never sleeps again on a lock the launcher holds, and a launch makes no
// system call while no worker sleeps. A wake-up is still one FUTEX_WAKE
// system call by the launcher, and on a virtual machine that costs about
// 10 us (the IPI to the sleeper's idle virtual CPU); a bare system call
// there costs about 0.6 us.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include <chrono>
#include <climits>
#include <sched.h>
#include <thread>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace llvm;
using namespace offload;
using namespace offload::host;

namespace {
/// A hint to the CPU that this is a spin loop.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
} // namespace

bool host::spinUntil(function_ref<bool()> Done, uint64_t BudgetMicros) {
  using Clock = std::chrono::steady_clock;
  if (Done())
    return true;
  if (!BudgetMicros)
    return false;
  // Pause for a couple of microseconds (hand-offs that are about to happen),
  // then yield the CPU between checks until the budget is spent.
  Clock::time_point Start = Clock::now();
  auto PauseUntil = Start + std::chrono::microseconds(2);
  auto End = Start + std::chrono::microseconds(BudgetMicros);
  while (true) {
    for (int I = 0; I < 16; ++I) {
      cpuRelax();
      if (Done())
        return true;
    }
    Clock::time_point Now = Clock::now();
    if (Now >= End)
      return Done();
    if (Now >= PauseUntil)
      sched_yield();
  }
}

void host::waitOnWord(std::atomic<uint32_t> &Word, uint32_t Seen) {
  static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t),
                "a futex is a plain 32-bit word");
#ifdef __linux__
  // EAGAIN (Word no longer holds Seen) and EINTR are returns too.
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAIT_PRIVATE,
          Seen, nullptr, nullptr, 0);
#else
  // No futex: poll every 50 us.
  if (Word.load(std::memory_order_acquire) == Seen)
    std::this_thread::sleep_for(std::chrono::microseconds(50));
#endif
}

void host::wakeWord(std::atomic<uint32_t> &Word, int Count) {
#ifdef __linux__
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAKE_PRIVATE,
          Count, nullptr, nullptr, 0);
#else
  (void)Word;
  (void)Count;
#endif
}

void SpinLock::lockSlow() {
  while (true) {
    for (int I = 0; I < 64; ++I) {
      cpuRelax();
      if (!Taken.load(std::memory_order_relaxed) &&
          !Taken.exchange(true, std::memory_order_acquire))
        return;
    }
    // The holder may have been descheduled: let it run.
    sched_yield();
  }
}

BlockPool::BlockPool(unsigned NumWorkers, uint64_t SpinMicros)
    : SpinMicros(SpinMicros) {
  Workers.reserve(NumWorkers);
  for (unsigned I = 0; I < NumWorkers; ++I)
    Workers.emplace_back([this] { workerMain(); });
}

BlockPool::~BlockPool() {
  {
    std::lock_guard<SpinLock> Guard(Lock);
    Stopping = true;
    Epoch.fetch_add(1, std::memory_order_release);
  }
  wakeWord(Epoch, INT32_MAX);
  for (std::thread &T : Workers)
    T.join();
}

BlockPool::Job *BlockPool::findWork() {
  for (Job *J = Head; J; J = J->Next)
    if (J->NextItem.load(std::memory_order_relaxed) < J->NumItems)
      return J;
  return nullptr;
}

void BlockPool::runChunks(Job &J) {
  uint64_t N = J.NumItems;
  uint64_t Begin = J.NextItem.load(std::memory_order_relaxed);
  while (Begin < N) {
    uint64_t Left = N - Begin;
    uint64_t Take = std::min(Left, std::max(J.MinChunk, Left / J.Divisor));
    // On failure Begin is reloaded: another thread took a chunk first.
    if (!J.NextItem.compare_exchange_weak(Begin, Begin + Take,
                                          std::memory_order_relaxed))
      continue;
    J.Run(J.Context, Begin, Begin + Take);
    Begin = J.NextItem.load(std::memory_order_relaxed);
  }
}

void BlockPool::workerMain() {
  std::unique_lock<SpinLock> Guard(Lock);
  while (true) {
    if (Job *J = findWork()) {
      // Joining under the lock: the launcher unlinks its job under the lock,
      // after which nobody joins it.
      J->Users.fetch_add(1, std::memory_order_relaxed);
      Guard.unlock();
      runChunks(*J);
      Guard.lock();
      // Read before leaving: once Users is 0 the job may be gone.
      bool Waiting = J->LauncherWaits;
      if (J->Users.fetch_sub(1, std::memory_order_acq_rel) == 1 && Waiting) {
        JobDone.fetch_add(1, std::memory_order_release);
        Guard.unlock();
        wakeWord(JobDone, INT32_MAX);
        Guard.lock();
      }
      continue;
    }
    if (Stopping)
      return;
    uint32_t Seen = Epoch.load(std::memory_order_relaxed);
    Guard.unlock();
    bool Woken =
        spinUntil([&] { return Epoch.load(std::memory_order_acquire) != Seen; },
                  SpinMicros);
    Guard.lock();
    if (Woken || Epoch.load(std::memory_order_relaxed) != Seen)
      continue;
    // A launcher publishing under the lock sees this sleeper and wakes it.
    ++Sleepers;
    Guard.unlock();
    waitOnWord(Epoch, Seen);
    Guard.lock();
    --Sleepers;
  }
}

void BlockPool::run(Job &J) {
  if (Workers.empty() || J.NumItems <= J.MinChunk) {
    if (J.NumItems)
      J.Run(J.Context, 0, J.NumItems);
    return;
  }
  J.Divisor = 2 * (uint64_t(Workers.size()) + 1);
  unsigned Wake;
  {
    std::lock_guard<SpinLock> Guard(Lock);
    J.Next = nullptr;
    J.Prev = Tail;
    (Tail ? Tail->Next : Head) = &J;
    Tail = &J;
    Epoch.fetch_add(1, std::memory_order_release);
    // The launcher takes chunks too: wake at most one worker per other
    // grain of work.
    uint64_t Grains = (J.NumItems + J.MinChunk - 1) / J.MinChunk;
    Wake = unsigned(std::min<uint64_t>(Sleepers, Grains - 1));
  }
  if (Wake == 1)
    wakeWord(Epoch, 1);
  else if (Wake > 1)
    wakeWord(Epoch, INT32_MAX);

  runChunks(J);

  std::unique_lock<SpinLock> Guard(Lock);
  (J.Prev ? J.Prev->Next : Head) = J.Next;
  (J.Next ? J.Next->Prev : Tail) = J.Prev;
  if (J.Users.load(std::memory_order_acquire) == 0)
    return;
  // Workers still run chunks of the job: wait for them to leave it.
  Guard.unlock();
  if (spinUntil([&] { return J.Users.load(std::memory_order_acquire) == 0; },
                SpinMicros))
    return;
  Guard.lock();
  J.LauncherWaits = true;
  while (J.Users.load(std::memory_order_acquire) != 0) {
    uint32_t Seen = JobDone.load(std::memory_order_relaxed);
    Guard.unlock();
    waitOnWord(JobDone, Seen);
    Guard.lock();
  }
}
