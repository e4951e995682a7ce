//===- offloadDestroyQueue.cpp - Conformance tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <chrono>
#include <thread>

using namespace offload_test;

namespace {

using offloadDestroyQueueTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadDestroyQueueTest);

TEST_P(offloadDestroyQueueTest, Success) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(offloadDestroyQueueTest, SuccessWaitsForWork) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  int Src = 7, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Dst, Host, &Src, Host, sizeof(int)));
  std::thread Opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    G.open();
  });
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  EXPECT_EQ(Dst, 7);
  Opener.join();
}

TEST_P(offloadDestroyQueueTest, SuccessEventsOutliveTheQueue) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  bool Complete = false;
  ASSERT_SUCCESS(offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                     sizeof(Complete), &Complete));
  EXPECT_TRUE(Complete);
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadDestroyQueueTest, InvalidNullQueue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadDestroyQueue(nullptr));
}

TEST_P(offloadDestroyQueueTest, InvalidQueue) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x40) is not a live queue",
      offloadDestroyQueue(garbageHandle<offload_queue_handle_t>()));
}

TEST_P(offloadDestroyQueueTest, InvalidDoubleDestroy) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE,
                   "it was destroyed or never created",
                   offloadDestroyQueue(Queue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadLaunchHostFunction(Queue, Gate::wait, nullptr));
}

} // namespace
