//===- offloadCreateQueue.cpp - Conformance tests of offloadCreateQueue ---===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadCreateQueueTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadCreateQueueTest);

TEST_P(offloadCreateQueueTest, Success) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  ASSERT_NE(Queue, nullptr);
  offload_device_handle_t Owner = nullptr;
  ASSERT_SUCCESS(offloadGetQueueInfo(Queue, OFFLOAD_QUEUE_INFO_DEVICE,
                                     sizeof(Owner), &Owner));
  EXPECT_EQ(Owner, Device);
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(offloadCreateQueueTest, SuccessManyQueues) {
  std::vector<offload_queue_handle_t> Queues(16, nullptr);
  for (offload_queue_handle_t &Q : Queues)
    ASSERT_SUCCESS(offloadCreateQueue(Device, &Q));
  std::vector<offload_queue_handle_t> Sorted = Queues;
  std::sort(Sorted.begin(), Sorted.end());
  EXPECT_EQ(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  for (offload_queue_handle_t Q : Queues)
    ASSERT_SUCCESS(offloadDestroyQueue(Q));
}

TEST_P(offloadCreateQueueTest, InvalidNullDevice) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadCreateQueue(nullptr, &Queue));
}

TEST_P(offloadCreateQueueTest, InvalidDevice) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "Device (0x40) is not a live",
      offloadCreateQueue(garbageHandle<offload_device_handle_t>(), &Queue));
}

TEST_P(offloadCreateQueueTest, InvalidNullQueue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Queue is null",
                   offloadCreateQueue(Device, nullptr));
}

} // namespace
