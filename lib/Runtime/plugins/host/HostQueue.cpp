//===- HostQueue.cpp - In-order queues and events of the host device ------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each queue owns one thread that runs its operations in submission order. A
// dedicated thread (rather than tasks on the block pool) keeps the semantics
// simple: an operation may block (waiting on an event of another queue, or
// on the blocks of a kernel it launched) without taking a pool worker away
// from kernels, and a queue never needs to be rescheduled.
//
// A thread that synchronizes the queue does not just wait: while no task of
// the queue runs, it runs the next pending ones itself, in order, up to what
// it waits for. A launch followed at once by offloadSyncQueue thus runs on
// the caller, with no hand-off between threads, whether or not the queue's
// thread is awake; the queue's thread runs what nobody waits for. At most one
// thread runs the queue's tasks at a time, so they still run one after the
// other in submission order.
//
// Idle queue threads, and synchronizing threads whose tasks run elsewhere,
// spin for HostConfig::SpinMicros before they sleep: a queue in steady use
// never goes through the kernel to wake a thread. They sleep on a futex
// (a futex) and the bookkeeping is under a spin lock, so that a
// woken thread never sleeps again on the lock: the one system call of a
// wake-up is the waker's FUTEX_WAKE, and none is made while nobody sleeps.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "../../Error.h"

using namespace llvm;
using namespace offload;
using namespace offload::host;

/// How long an idle queue thread leaves new work to a synchronizing thread
/// before it runs the work itself.
static constexpr uint64_t SyncGraceMicros = 1;

//===----------------------------------------------------------------------===//
// HostEvent
//===----------------------------------------------------------------------===//

Error HostEvent::synchronize() {
  std::unique_lock<std::mutex> Lock(Mutex);
  CV.wait(Lock, [&] { return Complete; });
  return Error::success();
}

bool HostEvent::isComplete() const {
  std::lock_guard<std::mutex> Lock(Mutex);
  return Complete;
}

Expected<float> HostEvent::elapsedMillisSince(Event &Start) {
  // Every event of the host device is a HostEvent (the runtime checked that
  // both are of one device).
  auto &S = static_cast<HostEvent &>(Start);
  std::chrono::steady_clock::time_point Begin, End;
  {
    std::lock_guard<std::mutex> Lock(S.Mutex);
    if (!S.Complete)
      return createError(OFFLOAD_ERRC_NOT_READY, "Start is not complete yet");
    Begin = S.CompletedAt;
  }
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Complete)
      return createError(OFFLOAD_ERRC_NOT_READY, "End is not complete yet");
    End = CompletedAt;
  }
  return std::chrono::duration<float, std::milli>(End - Begin).count();
}

void HostEvent::signal() {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    CompletedAt = std::chrono::steady_clock::now();
    Complete = true;
  }
  CV.notify_all();
}

//===----------------------------------------------------------------------===//
// TaskRing
//===----------------------------------------------------------------------===//

void TaskRing::push(QueueTask Task) {
  if (Count == Capacity) {
    size_t NewCapacity = Capacity ? 2 * Capacity : 16;
    auto NewSlots = std::make_unique<QueueTask[]>(NewCapacity);
    for (size_t I = 0; I < Count; ++I)
      NewSlots[I] = std::move(Slots[(Head + I) & (Capacity - 1)]);
    Slots = std::move(NewSlots);
    Capacity = NewCapacity;
    Head = 0;
  }
  Slots[(Head + Count) & (Capacity - 1)] = std::move(Task);
  ++Count;
}

void TaskRing::pop(QueueTask &Out) {
  Out = std::move(Slots[Head]);
  Head = (Head + 1) & (Capacity - 1);
  --Count;
}

//===----------------------------------------------------------------------===//
// HostQueue
//===----------------------------------------------------------------------===//

HostQueue::HostQueue(Device &D, uint64_t SpinMicros)
    : Queue(D), SpinMicros(SpinMicros) {
  Worker = std::thread([this] { workerMain(); });
}

HostQueue::~HostQueue() {
  bool Wake;
  {
    std::lock_guard<SpinLock> Lock(Mutex);
    Stopping = true;
    Version.fetch_add(1, std::memory_order_release);
    Wake = WorkerSleeping;
    if (Wake) {
      WorkerSleeping = false;
      WorkerWake.fetch_add(1, std::memory_order_release);
    }
  }
  if (Wake)
    wakeWord(WorkerWake, 1);
  // The worker drains the pending operations before it exits.
  Worker.join();
  if (FirstError)
    consumeError(std::move(*FirstError));
}

void HostQueue::sleepOn(std::atomic<uint32_t> &Word, uint32_t Seen,
                        std::unique_lock<SpinLock> &Lock) {
  Lock.unlock();
  waitOnWord(Word, Seen);
  Lock.lock();
}

bool HostQueue::push(QueueTask Task) {
  Pending.push(std::move(Task));
  Submitted.fetch_add(1, std::memory_order_relaxed);
  Version.fetch_add(1, std::memory_order_release);
  if (!WorkerSleeping || Executing)
    return false;
  WorkerSleeping = false;
  WorkerWake.fetch_add(1, std::memory_order_release);
  return true;
}

void HostQueue::enqueue(QueueTask Task) {
  bool Wake;
  {
    std::lock_guard<SpinLock> Lock(Mutex);
    Wake = push(std::move(Task));
  }
  if (Wake)
    wakeWord(WorkerWake, 1);
}

void HostQueue::runOne(std::unique_lock<SpinLock> &Lock) {
  QueueTask Task;
  Pending.pop(Task);
  Executing = true;
  Lock.unlock();
  Error E = Task();
  // Release what the operation captured (events, argument copies) before
  // reporting completion.
  Task.reset();
  Lock.lock();
  if (E) {
    if (!FirstError)
      FirstError.emplace(std::move(E));
    else
      consumeError(std::move(E));
  }
  Executing = false;
  Completed.fetch_add(1, std::memory_order_release);
  Version.fetch_add(1, std::memory_order_release);
  bool WakeSync = SyncWaiters != 0;
  if (WakeSync)
    SyncWake.fetch_add(1, std::memory_order_release);
  // A synchronizing thread stops here: the queue's thread takes over.
  bool WakeWorker = WorkerSleeping && (!Pending.empty() || Stopping);
  if (WakeWorker) {
    WorkerSleeping = false;
    WorkerWake.fetch_add(1, std::memory_order_release);
  }
  if (!WakeSync && !WakeWorker)
    return;
  // Wake outside the lock: the system call takes microseconds.
  Lock.unlock();
  if (WakeSync)
    wakeWord(SyncWake, INT32_MAX);
  if (WakeWorker)
    wakeWord(WorkerWake, 1);
  Lock.lock();
}

void HostQueue::workerMain() {
  std::unique_lock<SpinLock> Lock(Mutex);
  while (true) {
    if (canStart()) {
      runOne(Lock);
      continue;
    }
    if (Stopping && Pending.empty() && !Executing)
      return;
    uint64_t Seen = Version.load(std::memory_order_relaxed);
    if (!Stopping) {
      Lock.unlock();
      bool Changed = spinUntil(
          [&] { return Version.load(std::memory_order_acquire) != Seen; },
          SpinMicros);
      if (Changed) {
        // Work arrived while the queue was idle. A thread that synchronizes
        // right after submitting runs it itself, without a hand-off between
        // threads: give it a moment to come.
        uint64_t Arrived = Version.load(std::memory_order_acquire);
        spinUntil(
            [&] { return Version.load(std::memory_order_acquire) != Arrived; },
            SyncGraceMicros);
      }
      Lock.lock();
      if (Changed)
        continue;
    }
    if (Version.load(std::memory_order_relaxed) != Seen)
      continue;
    // Whoever changes Version next (push, runOne, the destructor) clears
    // WorkerSleeping and changes WorkerWake.
    WorkerSleeping = true;
    uint32_t Wake = WorkerWake.load(std::memory_order_relaxed);
    while (WorkerSleeping)
      sleepOn(WorkerWake, Wake, Lock);
  }
}

Error HostQueue::synchronize() {
  std::unique_lock<SpinLock> Lock(Mutex);
  // Wait for what was submitted before this call only, so that other threads
  // submitting to the same queue cannot starve us.
  uint64_t Target = Submitted.load(std::memory_order_relaxed);
  while (Completed.load(std::memory_order_relaxed) < Target) {
    if (canStart()) {
      // Tasks run in order, so the oldest pending one is at most the last
      // we wait for.
      runOne(Lock);
      continue;
    }
    // Another thread runs a task of the queue.
    uint64_t Seen = Version.load(std::memory_order_relaxed);
    Lock.unlock();
    spinUntil([&] { return Version.load(std::memory_order_acquire) != Seen; },
              SpinMicros);
    Lock.lock();
    if (Version.load(std::memory_order_relaxed) != Seen)
      continue;
    ++SyncWaiters;
    uint32_t Wake = SyncWake.load(std::memory_order_relaxed);
    while (Version.load(std::memory_order_relaxed) == Seen)
      sleepOn(SyncWake, Wake, Lock);
    --SyncWaiters;
  }
  if (!FirstError)
    return Error::success();
  Error E = std::move(*FirstError);
  FirstError.reset();
  return E;
}

Error HostQueue::waitEvents(ArrayRef<std::shared_ptr<Event>> Events) {
  SmallVector<std::shared_ptr<Event>> Waiting;
  for (const std::shared_ptr<Event> &E : Events)
    if (!E->isComplete())
      Waiting.push_back(E);
  if (Waiting.empty())
    return Error::success();
  // Blocking the queue is what makes it wait: later operations start only
  // after every event completed. The events are shared, so the user may
  // destroy their handles meanwhile.
  enqueue([Waiting = std::move(Waiting)]() -> Error {
    for (const std::shared_ptr<Event> &E : Waiting)
      if (Error Err = E->synchronize())
        return Err;
    return Error::success();
  });
  return Error::success();
}

Error HostQueue::enqueueHostFunction(offload_host_function_cb_t Callback,
                                     void *UserData) {
  enqueue([Callback, UserData] {
    Callback(UserData);
    return Error::success();
  });
  return Error::success();
}

Expected<bool> HostQueue::isEmpty() {
  std::lock_guard<SpinLock> Lock(Mutex);
  return Completed.load(std::memory_order_relaxed) ==
         Submitted.load(std::memory_order_relaxed);
}

Expected<std::shared_ptr<Event>> HostQueue::recordEvent() {
  bool Wake;
  std::shared_ptr<HostEvent> E;
  {
    std::lock_guard<SpinLock> Lock(Mutex);
    // An idle queue has already reached this point.
    if (Completed.load(std::memory_order_relaxed) ==
        Submitted.load(std::memory_order_relaxed))
      return std::make_shared<HostEvent>(/*Complete=*/true);
    E = std::make_shared<HostEvent>();
    Wake = push([E] {
      E->signal();
      return Error::success();
    });
  }
  if (Wake)
    wakeWord(WorkerWake, 1);
  return E;
}
