//===- offloadQueryQueue.cpp - Conformance tests --------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// liboffload 23's olQueryQueue: whether the queue's work has finished,
// without waiting.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadQueryQueueTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadQueryQueueTest);

TEST_P(offloadQueryQueueTest, SuccessEmptyQueue) {
  bool Completed = false;
  ASSERT_SUCCESS(offloadQueryQueue(Queue, &Completed));
  EXPECT_TRUE(Completed);
}

TEST_P(offloadQueryQueueTest, SuccessNullResult) {
  ASSERT_SUCCESS(offloadQueryQueue(Queue, nullptr));
}

TEST_P(offloadQueryQueueTest, SuccessDoesNotWait) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  bool Completed = true;
  offload_result_t R = offloadQueryQueue(Queue, &Completed);
  // Open the gate before any assertion can return.
  G.open();
  ASSERT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  EXPECT_FALSE(Completed);
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadQueryQueue(Queue, &Completed));
  EXPECT_TRUE(Completed);
}

TEST_P(offloadQueryQueueTest, InvalidNullQueue) {
  bool Completed;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadQueryQueue(nullptr, &Completed));
}

TEST_P(offloadQueryQueueTest, InvalidQueue) {
  bool Completed;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
      offloadQueryQueue(garbageHandle<offload_queue_handle_t>(), &Completed));
}

TEST_P(offloadQueryQueueTest, InvalidDestroyedQueue) {
  offload_queue_handle_t Other = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Other));
  ASSERT_SUCCESS(offloadDestroyQueue(Other));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadQueryQueue(Other, nullptr));
}

} // namespace
