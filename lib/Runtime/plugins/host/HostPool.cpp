//===- HostPool.cpp - The threads that run the blocks of launches ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A fork-join pool made for launches, which are short and frequent: a launch
// publishes a job (chunks of its grid) on a list, the pool's workers and the
// launching thread take chunks with an atomic counter, and the launcher
// returns once every worker that joined the job has left it. Nothing is
// allocated per job: the job lives on the launcher's stack.
//
// Idle workers spin for a while (HostConfig::SpinMicros) before they sleep on
// a condition variable, like OpenMP's workers: a launch that follows another
// one within that time wakes no thread through the kernel. Spinning first
// pauses, then yields the CPU, so that a spinning thread gives way to
// runnable threads on a machine with fewer cores than threads.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include <chrono>
#include <sched.h>

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

BlockPool::BlockPool(unsigned NumWorkers, uint64_t SpinMicros)
    : SpinMicros(SpinMicros) {
  Workers.reserve(NumWorkers);
  for (unsigned I = 0; I < NumWorkers; ++I)
    Workers.emplace_back([this] { workerMain(); });
}

BlockPool::~BlockPool() {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stopping = true;
    Epoch.fetch_add(1, std::memory_order_release);
  }
  WorkAvailable.notify_all();
  for (std::thread &T : Workers)
    T.join();
}

BlockPool::Job *BlockPool::findWork() {
  for (Job *J = Head; J; J = J->Next)
    if (J->NextChunk.load(std::memory_order_relaxed) < J->NumChunks)
      return J;
  return nullptr;
}

void BlockPool::runChunks(Job &J) {
  uint64_t C;
  while ((C = J.NextChunk.fetch_add(1, std::memory_order_relaxed)) <
         J.NumChunks)
    J.Run(J.Context, C);
}

void BlockPool::workerMain() {
  std::unique_lock<std::mutex> Lock(Mutex);
  while (true) {
    if (Job *J = findWork()) {
      // Joining under the lock: the launcher unlinks its job under the lock,
      // after which nobody joins it.
      J->Users.fetch_add(1, std::memory_order_relaxed);
      Lock.unlock();
      runChunks(*J);
      Lock.lock();
      // Read before leaving: once Users is 0 the job may be gone.
      bool Waiting = J->LauncherWaits;
      if (J->Users.fetch_sub(1, std::memory_order_acq_rel) == 1 && Waiting)
        JobDone.notify_all();
      continue;
    }
    if (Stopping)
      return;
    uint64_t Seen = Epoch.load(std::memory_order_relaxed);
    Lock.unlock();
    bool Woken =
        spinUntil([&] { return Epoch.load(std::memory_order_acquire) != Seen; },
                  SpinMicros);
    Lock.lock();
    if (Woken)
      continue;
    ++Sleepers;
    WorkAvailable.wait(Lock, [&] {
      return Epoch.load(std::memory_order_relaxed) != Seen || Stopping;
    });
    --Sleepers;
  }
}

void BlockPool::run(Job &J) {
  if (Workers.empty() || J.NumChunks <= 1) {
    for (uint64_t C = 0; C < J.NumChunks; ++C)
      J.Run(J.Context, C);
    return;
  }
  unsigned Wake;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    J.Next = nullptr;
    J.Prev = Tail;
    (Tail ? Tail->Next : Head) = &J;
    Tail = &J;
    Epoch.fetch_add(1, std::memory_order_release);
    // The launcher takes chunks too: wake at most one worker per other chunk.
    Wake = unsigned(std::min<uint64_t>(Sleepers, J.NumChunks - 1));
  }
  for (unsigned I = 0; I < Wake; ++I)
    WorkAvailable.notify_one();

  runChunks(J);

  std::unique_lock<std::mutex> Lock(Mutex);
  (J.Prev ? J.Prev->Next : Head) = J.Next;
  (J.Next ? J.Next->Prev : Tail) = J.Prev;
  if (J.Users.load(std::memory_order_acquire) == 0)
    return;
  // Workers still run chunks of the job: wait for them to leave it.
  Lock.unlock();
  if (spinUntil([&] { return J.Users.load(std::memory_order_acquire) == 0; },
                SpinMicros))
    return;
  Lock.lock();
  J.LauncherWaits = true;
  JobDone.wait(Lock,
               [&] { return J.Users.load(std::memory_order_acquire) == 0; });
}
