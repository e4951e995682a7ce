//===- offloadWaitEvents.cpp - Conformance tests of offloadWaitEvents -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace offload_test;

namespace {

/// Two queues of the device: A (the fixture's) and B.
class offloadWaitEventsTest : public OffloadQueueTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadQueueTest::SetUp());
    ASSERT_SUCCESS(offloadCreateQueue(Device, &B));
  }
  void TearDown() override {
    if (B)
      EXPECT_SUCCESS(offloadDestroyQueue(B));
    OffloadQueueTest::TearDown();
  }

  offload_queue_handle_t B = nullptr;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadWaitEventsTest);

TEST_P(offloadWaitEventsTest, SuccessEventOfAnotherQueue) {
  Gate G;
  std::vector<int> Log;
  std::mutex Mutex;
  LogEntry First{&Log, &Mutex, 1}, Second{&Log, &Mutex, 2};
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, LogEntry::append, &First));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadWaitEvents(B, &Event, 1));
  ASSERT_SUCCESS(offloadLaunchHostFunction(B, LogEntry::append, &Second));
  // The event handle may go away while B still waits on it.
  ASSERT_SUCCESS(offloadDestroyEvent(Event));

  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    EXPECT_TRUE(Log.empty());
  }
  G.open();
  ASSERT_SUCCESS(offloadSyncQueue(B));
  ASSERT_EQ(Log.size(), 2u);
  EXPECT_EQ(Log[0], 1);
  EXPECT_EQ(Log[1], 2);
}

TEST_P(offloadWaitEventsTest, SuccessSeveralEvents) {
  offload_queue_handle_t C = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &C));
  Gate GA, GB;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &GA));
  ASSERT_SUCCESS(offloadLaunchHostFunction(B, Gate::wait, &GB));
  offload_event_handle_t Events[2];
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Events[0]));
  ASSERT_SUCCESS(offloadCreateEvent(B, &Events[1]));
  ASSERT_SUCCESS(offloadWaitEvents(C, Events, 2));
  std::atomic<bool> Ran{false};
  ASSERT_SUCCESS(offloadLaunchHostFunction(
      C, [](void *R) { *static_cast<std::atomic<bool> *>(R) = true; }, &Ran));
  GA.open();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(Ran.load());
  GB.open();
  ASSERT_SUCCESS(offloadSyncQueue(C));
  EXPECT_TRUE(Ran.load());
  ASSERT_SUCCESS(offloadDestroyEvent(Events[0]));
  ASSERT_SUCCESS(offloadDestroyEvent(Events[1]));
  ASSERT_SUCCESS(offloadDestroyQueue(C));
}

TEST_P(offloadWaitEventsTest, SuccessEventOfTheSameQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadWaitEvents(Queue, &Event, 1));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadWaitEventsTest, SuccessCompleteEvent) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  ASSERT_SUCCESS(offloadWaitEvents(B, &Event, 1));
  ASSERT_SUCCESS(offloadSyncQueue(B));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadWaitEventsTest, SuccessNoEvents) {
  ASSERT_SUCCESS(offloadWaitEvents(Queue, nullptr, 0));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_P(offloadWaitEventsTest, InvalidNullQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadWaitEvents(nullptr, &Event, 1));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadWaitEventsTest, InvalidQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x40) is not a live queue",
      offloadWaitEvents(garbageHandle<offload_queue_handle_t>(), &Event, 1));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadWaitEventsTest, InvalidNullEvents) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Events is null",
                   offloadWaitEvents(Queue, nullptr, 1));
}

TEST_P(offloadWaitEventsTest, InvalidNullEventEntry) {
  offload_event_handle_t Events[2] = {nullptr, nullptr};
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Events[0]));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Events[1] is null",
                   offloadWaitEvents(B, Events, 2));
  ASSERT_SUCCESS(offloadDestroyEvent(Events[0]));
}

TEST_P(offloadWaitEventsTest, InvalidEventEntry) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  int NotAnEvent;
  offload_event_handle_t Events[] = {
      Event, reinterpret_cast<offload_event_handle_t>(&NotAnEvent)};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "Events[1] (0x",
                   offloadWaitEvents(B, Events, 2));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  // A destroyed event is no longer live.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
                   offloadWaitEvents(B, &Event, 1));
}

} // namespace
