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
// A thread that synchronizes the queue (offloadSyncQueue, or an event of it)
// does not just wait: while no task of the queue runs, it runs the next
// pending ones itself, in order, up to what it waits for. A launch followed
// at once by a synchronization thus runs on the caller, with no hand-off
// between threads, whether or not the queue's thread is awake; the queue's
// thread runs what nobody waits for. At most one thread runs the queue's
// tasks at a time, so they still run one after the other in submission
// order.
//
// Idle queue threads, and synchronizing threads whose tasks run elsewhere,
// spin for HostConfig::SpinMicros before they sleep: a queue in steady use
// never goes through the kernel to wake a thread. They sleep on a futex and
// the bookkeeping is under a spin lock, so that a woken thread never sleeps
// again on the lock: the one system call of a wake-up is the waker's
// FUTEX_WAKE, and none is made while nobody sleeps.
//
// That FUTEX_WAKE is what a submission to a sleeping queue thread cost
// (about 10 us on a virtual machine, where it interrupts an idle virtual
// CPU; bench/README.md), so the queue's thread first dozes: for DozeMillis
// after it went idle it sleeps PollMicros at a time (a futex wait with a
// timeout) and looks for work when it wakes up, and submissions do not wake
// it. A launch and synchronization then cost no system call (the
// synchronizing thread runs the launch), and work that nobody synchronizes
// still starts at most PollMicros after its submission (plus the scheduling
// delay of the operating system), with no further call of the runtime. Only
// a queue idle for longer than DozeMillis sleeps until a submission wakes
// it, so a forgotten queue costs nothing; PollMicros 0 (an environment
// setting) wakes at every submission instead of dozing.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "OffloadSupport/Error.h"

#include <ctime>

#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

using namespace llvm;
using namespace offload;
using namespace offload::host;

/// How long an idle queue thread leaves new work to a synchronizing thread
/// before it runs the work itself.
static constexpr uint64_t SyncGraceMicros = 1;

/// How long an idle queue thread dozes (looks for work every PollMicros
/// without being woken) before it sleeps until a submission wakes it. At the
/// default PollMicros (1 ms) that is 100 timed wake-ups of the idle thread.
static constexpr uint64_t DozeMillis = 100;

/// waitOnWord(Word, Seen) that returns after at most \p Micros
/// microseconds.
static void waitOnWordFor(std::atomic<uint32_t> &Word, uint32_t Seen,
                          uint64_t Micros) {
#ifdef __linux__
  struct timespec Timeout;
  Timeout.tv_sec = time_t(Micros / 1000000);
  Timeout.tv_nsec = long(Micros % 1000000) * 1000;
  // A relative timeout (FUTEX_WAIT measures it on the monotonic clock).
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&Word), FUTEX_WAIT_PRIVATE,
          Seen, &Timeout, nullptr, 0);
#else
  if (Word.load(std::memory_order_acquire) == Seen)
    std::this_thread::sleep_for(
        std::chrono::microseconds(std::min<uint64_t>(Micros, 50)));
#endif
}

//===----------------------------------------------------------------------===//
// HostEvent
//===----------------------------------------------------------------------===//

Error HostEvent::synchronize() {
  if (Link && !isComplete()) {
    // Run the queue's work up to the event here rather than wait for the
    // queue's thread (which may doze). The queue's destructor waits for us.
    std::shared_lock<std::shared_mutex> QueueLock(Link->Mutex);
    if (Link->Queue)
      Link->Queue->runUntil(Position);
  }
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

HostQueue::HostQueue(Device &D, uint64_t SpinMicros, uint64_t PollMicros)
    : Queue(D), SpinMicros(SpinMicros), PollMicros(PollMicros),
      Link(std::make_shared<HostQueueLink>()) {
  Link->Queue = this;
  Worker = std::thread([this] { workerMain(); });
}

HostQueue::~HostQueue() {
  {
    // Events that outlive the queue wait no longer on it (it drains below).
    std::unique_lock<std::shared_mutex> Lock(Link->Mutex);
    Link->Queue = nullptr;
  }
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
  // A dozing worker finds the task by itself; a running task's end wakes a
  // worker that sleeps (runOne).
  if (!WorkerSleeping || WorkerDozing || Executing)
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
  // A synchronizing thread stops here: the queue's thread takes over (a
  // dozing one finds the work by itself).
  bool WakeWorker =
      WorkerSleeping && !WorkerDozing && (!Pending.empty() || Stopping);
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
  using Clock = std::chrono::steady_clock;
  std::unique_lock<SpinLock> Lock(Mutex);
  // Whether the worker ran a task since it last slept: only then does it
  // spin (a doze that found nothing to run goes back to dozing).
  bool Ran = true;
  while (true) {
    if (canStart()) {
      runOne(Lock);
      Ran = true;
      continue;
    }
    if (Stopping && Pending.empty() && !Executing)
      return;
    uint64_t Seen = Version.load(std::memory_order_relaxed);
    if (!Stopping && Ran) {
      Ran = false;
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
      if (Changed) {
        Ran = true;
        continue;
      }
    }
    if (canStart() || (Stopping && Pending.empty() && !Executing))
      continue;
    // Whoever wakes the worker (push and runOne while it sleeps without
    // dozing, the destructor) clears WorkerSleeping and changes WorkerWake.
    WorkerSleeping = true;
    WorkerDozing = PollMicros != 0 && !Stopping;
    Clock::time_point DozeEnd =
        Clock::now() + std::chrono::milliseconds(DozeMillis);
    uint32_t Wake = WorkerWake.load(std::memory_order_relaxed);
    while (WorkerSleeping) {
      if (!WorkerDozing) {
        sleepOn(WorkerWake, Wake, Lock);
        continue;
      }
      Lock.unlock();
      waitOnWordFor(WorkerWake, Wake, PollMicros);
      Lock.lock();
      if (!WorkerSleeping)
        break;
      if (canStart()) {
        WorkerSleeping = false;
        Ran = true;
        break;
      }
      // From now on a submission wakes the worker.
      if (Clock::now() >= DozeEnd)
        WorkerDozing = false;
    }
    WorkerDozing = false;
  }
}

void HostQueue::waitUntil(uint64_t Target, std::unique_lock<SpinLock> &Lock) {
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
}

Error HostQueue::synchronize() {
  std::unique_lock<SpinLock> Lock(Mutex);
  // Wait for what was submitted before this call only, so that other threads
  // submitting to the same queue cannot starve us.
  waitUntil(Submitted.load(std::memory_order_relaxed), Lock);
  if (!FirstError)
    return Error::success();
  Error E = std::move(*FirstError);
  FirstError.reset();
  return E;
}

void HostQueue::runUntil(uint64_t Target) {
  std::unique_lock<SpinLock> Lock(Mutex);
  waitUntil(Target, Lock);
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
    // Its position: the operations before it and the signal itself.
    E = std::make_shared<HostEvent>(
        Link, Submitted.load(std::memory_order_relaxed) + 1);
    Wake = push([E] {
      E->signal();
      return Error::success();
    });
  }
  if (Wake)
    wakeWord(WorkerWake, 1);
  return E;
}
