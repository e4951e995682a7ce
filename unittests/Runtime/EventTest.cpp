//===- EventTest.cpp - Events and cross-queue waits -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace offload_test;

namespace {

class EventTest : public OffloadDeviceTest {
protected:
  void SetUp() override {
    OffloadDeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_SUCCESS(offloadCreateQueue(Device, &A));
    ASSERT_SUCCESS(offloadCreateQueue(Device, &B));
  }
  void TearDown() override {
    if (A)
      EXPECT_SUCCESS(offloadDestroyQueue(A));
    if (B)
      EXPECT_SUCCESS(offloadDestroyQueue(B));
    OffloadDeviceTest::TearDown();
  }

  offload_queue_handle_t A = nullptr, B = nullptr;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(EventTest);

TEST_P(EventTest, EventOfIdleQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(A, &Event));
  ASSERT_NE(Event, nullptr);
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(EventTest, SyncEventWaitsForRecordedPoint) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(A, Gate::wait, &G));
  int Src = 5, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(A, &Dst, Host, &Src, Host, sizeof(int)));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(A, &Event));

  std::atomic<bool> Done{false};
  std::thread Waiter([&] {
    EXPECT_SUCCESS(offloadSyncEvent(Event));
    // Everything before the event has run.
    EXPECT_EQ(Dst, 5);
    Done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(Done.load());
  G.open();
  Waiter.join();
  EXPECT_TRUE(Done.load());
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(EventTest, QueueWaitsForEventOfAnotherQueue) {
  Gate G;
  std::vector<int> Log;
  std::mutex Mutex;
  LogEntry First{&Log, &Mutex, 1}, Second{&Log, &Mutex, 2};
  ASSERT_SUCCESS(offloadLaunchHostFunction(A, Gate::wait, &G));
  ASSERT_SUCCESS(offloadLaunchHostFunction(A, LogEntry::append, &First));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(A, &Event));
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

TEST_P(EventTest, WaitOnSeveralEvents) {
  offload_queue_handle_t C = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &C));
  Gate GA, GB;
  ASSERT_SUCCESS(offloadLaunchHostFunction(A, Gate::wait, &GA));
  ASSERT_SUCCESS(offloadLaunchHostFunction(B, Gate::wait, &GB));
  offload_event_handle_t Events[2];
  ASSERT_SUCCESS(offloadCreateEvent(A, &Events[0]));
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

TEST_P(EventTest, WaitOnNoEvents) {
  ASSERT_SUCCESS(offloadWaitEvents(A, nullptr, 0));
  ASSERT_SUCCESS(offloadSyncQueue(A));
}

TEST_P(EventTest, InvalidEventHandles) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Event is null",
                   offloadSyncEvent(nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE, offloadDestroyEvent(nullptr));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(A, &Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
                   offloadSyncEvent(Event));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadDestroyEvent(Event));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadWaitEvents(B, &Event, 1));
}

TEST_P(EventTest, InvalidArguments) {
  offload_event_handle_t Event = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Event is null",
                   offloadCreateEvent(A, nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadCreateEvent(nullptr, &Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Events is null",
                   offloadWaitEvents(A, nullptr, 1));
  ASSERT_SUCCESS(offloadCreateEvent(A, &Event));
  int NotAnEvent;
  offload_event_handle_t Events[] = {
      Event, reinterpret_cast<offload_event_handle_t>(&NotAnEvent)};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "Events[1]",
                   offloadWaitEvents(B, Events, 2));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadWaitEvents(nullptr, Events, 1));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

} // namespace
