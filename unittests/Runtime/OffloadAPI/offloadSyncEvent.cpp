//===- offloadSyncEvent.cpp - Conformance tests of offloadSyncEvent -------===//
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

using offloadSyncEventTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadSyncEventTest);

TEST_P(offloadSyncEventTest, SuccessCompleteEvent) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadSyncEventTest, SuccessWaitsForRecordedPoint) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  int Src = 5, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Dst, Host, &Src, Host, sizeof(int)));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));

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

TEST_P(offloadSyncEventTest, InvalidNullEvent) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Event is null",
                   offloadSyncEvent(nullptr));
}

TEST_P(offloadSyncEventTest, InvalidDestroyedEvent) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
                   offloadSyncEvent(Event));
}

} // namespace
