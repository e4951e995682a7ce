//===- offloadGetQueueInfoSize.cpp - Conformance tests --------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadGetQueueInfoSizeTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetQueueInfoSizeTest);

TEST_P(offloadGetQueueInfoSizeTest, SuccessDevice) {
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetQueueInfoSize(Queue, OFFLOAD_QUEUE_INFO_DEVICE, &Size));
  EXPECT_EQ(Size, sizeof(offload_device_handle_t));
}

TEST_P(offloadGetQueueInfoSizeTest, SuccessEmpty) {
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetQueueInfoSize(Queue, OFFLOAD_QUEUE_INFO_EMPTY, &Size));
  EXPECT_EQ(Size, sizeof(bool));
}

TEST_P(offloadGetQueueInfoSizeTest, InvalidNullQueue) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
      offloadGetQueueInfoSize(nullptr, OFFLOAD_QUEUE_INFO_DEVICE, &Size));
}

TEST_P(offloadGetQueueInfoSizeTest, InvalidQueue) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
      offloadGetQueueInfoSize(garbageHandle<offload_queue_handle_t>(),
                              OFFLOAD_QUEUE_INFO_DEVICE, &Size));
}

TEST_P(offloadGetQueueInfoSizeTest, InvalidEnumeration) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (5) is not a valid enumerator",
                   offloadGetQueueInfoSize(
                       Queue, static_cast<offload_queue_info_t>(5), &Size));
}

TEST_P(offloadGetQueueInfoSizeTest, InvalidNullPropSizeRet) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
      offloadGetQueueInfoSize(Queue, OFFLOAD_QUEUE_INFO_DEVICE, nullptr));
}

} // namespace
