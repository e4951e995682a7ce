//===- HostQueue.cpp - In-order queues and events of the host device ------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each queue owns one worker thread that runs its operations in submission
// order. A dedicated thread (rather than tasks on the block thread pool) keeps
// the semantics simple: an operation may block (waiting on an event of
// another queue, or on the blocks of a kernel it launched on the pool) without
// taking a pool worker away from kernels, and a queue never needs to be
// rescheduled.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "../../Error.h"

using namespace llvm;
using namespace offload;
using namespace offload::host;

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

void HostEvent::signal() {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Complete = true;
  }
  CV.notify_all();
}

//===----------------------------------------------------------------------===//
// HostQueue
//===----------------------------------------------------------------------===//

HostQueue::HostQueue(Device &D) : Queue(D) {
  Worker = std::thread([this] { run(); });
}

HostQueue::~HostQueue() {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stopping = true;
  }
  WorkAvailable.notify_one();
  // The worker drains the pending operations before it exits.
  Worker.join();
  if (FirstError)
    consumeError(std::move(*FirstError));
}

void HostQueue::run() {
  std::unique_lock<std::mutex> Lock(Mutex);
  while (true) {
    WorkAvailable.wait(Lock, [&] { return Stopping || !Pending.empty(); });
    if (Pending.empty())
      return;
    Operation Op = std::move(Pending.front());
    Pending.pop_front();
    Lock.unlock();
    Error E = Op();
    // Release what the operation captured (events, argument copies) before
    // reporting completion.
    Op = Operation();
    Lock.lock();
    if (E) {
      if (!FirstError)
        FirstError.emplace(std::move(E));
      else
        consumeError(std::move(E));
    }
    ++Completed;
    WorkDone.notify_all();
  }
}

void HostQueue::enqueue(Operation Op) {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Pending.push_back(std::move(Op));
    ++Submitted;
  }
  WorkAvailable.notify_one();
}

Error HostQueue::synchronize() {
  std::unique_lock<std::mutex> Lock(Mutex);
  // Wait for what was submitted before this call only, so that other threads
  // submitting to the same queue cannot starve us.
  uint64_t Target = Submitted;
  WorkDone.wait(Lock, [&] { return Completed >= Target; });
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
  // Blocking the worker is what makes the queue wait: later operations start
  // only after every event completed. The events are shared, so the user may
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
  std::lock_guard<std::mutex> Lock(Mutex);
  return Completed == Submitted;
}

Expected<std::shared_ptr<Event>> HostQueue::recordEvent() {
  std::lock_guard<std::mutex> Lock(Mutex);
  // An idle queue has already reached this point.
  if (Completed == Submitted)
    return std::make_shared<HostEvent>(/*Complete=*/true);
  auto E = std::make_shared<HostEvent>();
  Pending.push_back([E] {
    E->signal();
    return Error::success();
  });
  ++Submitted;
  WorkAvailable.notify_one();
  return E;
}
