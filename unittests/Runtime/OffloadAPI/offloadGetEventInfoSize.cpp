//===- offloadGetEventInfoSize.cpp - Conformance tests --------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadGetEventInfoSizeTest = OffloadEventTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetEventInfoSizeTest);

TEST_P(offloadGetEventInfoSizeTest, SuccessQueue) {
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetEventInfoSize(Event, OFFLOAD_EVENT_INFO_QUEUE, &Size));
  EXPECT_EQ(Size, sizeof(offload_queue_handle_t));
}

TEST_P(offloadGetEventInfoSizeTest, SuccessIsComplete) {
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetEventInfoSize(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE, &Size));
  EXPECT_EQ(Size, sizeof(bool));
}

TEST_P(offloadGetEventInfoSizeTest, InvalidNullEvent) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Event is null",
      offloadGetEventInfoSize(nullptr, OFFLOAD_EVENT_INFO_QUEUE, &Size));
}

TEST_P(offloadGetEventInfoSizeTest, InvalidEvent) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
      offloadGetEventInfoSize(garbageHandle<offload_event_handle_t>(),
                              OFFLOAD_EVENT_INFO_QUEUE, &Size));
}

TEST_P(offloadGetEventInfoSizeTest, InvalidEnumeration) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (3) is not a valid enumerator",
                   offloadGetEventInfoSize(
                       Event, static_cast<offload_event_info_t>(3), &Size));
}

TEST_P(offloadGetEventInfoSizeTest, InvalidNullPropSizeRet) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
      offloadGetEventInfoSize(Event, OFFLOAD_EVENT_INFO_QUEUE, nullptr));
}

} // namespace
