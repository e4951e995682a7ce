//===- offloadGetQueueInfo.cpp - Conformance tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetQueueInfoTest : public OffloadQueueTest {
protected:
  template <typename T> T get(offload_queue_info_t Prop) {
    return getInfoAs<T>(Queue, Prop, offloadGetQueueInfoSize,
                        offloadGetQueueInfo);
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetQueueInfoTest);

TEST_P(offloadGetQueueInfoTest, SuccessDevice) {
  EXPECT_EQ(get<offload_device_handle_t>(OFFLOAD_QUEUE_INFO_DEVICE), Device);
}

TEST_P(offloadGetQueueInfoTest, SuccessEmpty) {
  EXPECT_TRUE(get<bool>(OFFLOAD_QUEUE_INFO_EMPTY));
  int Src = 1, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Dst, Host, &Src, Host, sizeof(int)));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_TRUE(get<bool>(OFFLOAD_QUEUE_INFO_EMPTY));
}

TEST_P(offloadGetQueueInfoTest, SuccessNotEmpty) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  EXPECT_FALSE(get<bool>(OFFLOAD_QUEUE_INFO_EMPTY));
  G.open();
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_TRUE(get<bool>(OFFLOAD_QUEUE_INFO_EMPTY));
}

TEST_P(offloadGetQueueInfoTest, InvalidNullQueue) {
  offload_device_handle_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadGetQueueInfo(nullptr, OFFLOAD_QUEUE_INFO_DEVICE,
                                       sizeof(Value), &Value));
}

TEST_P(offloadGetQueueInfoTest, InvalidQueue) {
  offload_device_handle_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadGetQueueInfo(garbageHandle<offload_queue_handle_t>(),
                                       OFFLOAD_QUEUE_INFO_DEVICE, sizeof(Value),
                                       &Value));
}

TEST_P(offloadGetQueueInfoTest, InvalidEnumeration) {
  offload_device_handle_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (2) is not a valid enumerator",
                   offloadGetQueueInfo(Queue,
                                       static_cast<offload_queue_info_t>(2),
                                       sizeof(Value), &Value));
}

TEST_P(offloadGetQueueInfoTest, InvalidNullPropValue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
                   offloadGetQueueInfo(Queue, OFFLOAD_QUEUE_INFO_DEVICE,
                                       sizeof(void *), nullptr));
}

TEST_P(offloadGetQueueInfoTest, InvalidSizeZero) {
  offload_device_handle_t Value;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
      offloadGetQueueInfo(Queue, OFFLOAD_QUEUE_INFO_DEVICE, 0, &Value));
}

TEST_P(offloadGetQueueInfoTest, InvalidSizeSmall) {
  offload_device_handle_t Value;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize (4) is smaller",
      offloadGetQueueInfo(Queue, OFFLOAD_QUEUE_INFO_DEVICE, 4, &Value));
}

} // namespace
