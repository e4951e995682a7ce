//===- offloadGetEventInfo.cpp - Conformance tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetEventInfoTest : public OffloadEventTest {
protected:
  template <typename T>
  T get(offload_event_handle_t E, offload_event_info_t P) {
    return getInfoAs<T>(E, P, offloadGetEventInfoSize, offloadGetEventInfo);
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetEventInfoTest);

TEST_P(offloadGetEventInfoTest, SuccessQueue) {
  EXPECT_EQ(get<offload_queue_handle_t>(Event, OFFLOAD_EVENT_INFO_QUEUE),
            Queue);
}

TEST_P(offloadGetEventInfoTest, SuccessQueueAfterItsDestruction) {
  offload_queue_handle_t Other = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Other));
  offload_event_handle_t E = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Other, &E));
  ASSERT_SUCCESS(offloadDestroyQueue(Other));
  EXPECT_EQ(get<offload_queue_handle_t>(E, OFFLOAD_EVENT_INFO_QUEUE), Other);
  ASSERT_SUCCESS(offloadDestroyEvent(E));
}

TEST_P(offloadGetEventInfoTest, SuccessIsComplete) {
  EXPECT_TRUE(get<bool>(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE));
}

TEST_P(offloadGetEventInfoTest, SuccessIsNotComplete) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  offload_event_handle_t E = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &E));
  EXPECT_FALSE(get<bool>(E, OFFLOAD_EVENT_INFO_IS_COMPLETE));
  G.open();
  ASSERT_SUCCESS(offloadSyncEvent(E));
  EXPECT_TRUE(get<bool>(E, OFFLOAD_EVENT_INFO_IS_COMPLETE));
  ASSERT_SUCCESS(offloadDestroyEvent(E));
}

TEST_P(offloadGetEventInfoTest, InvalidNullEvent) {
  bool Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Event is null",
                   offloadGetEventInfo(nullptr, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                       sizeof(Value), &Value));
}

TEST_P(offloadGetEventInfoTest, InvalidEvent) {
  bool Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
                   offloadGetEventInfo(garbageHandle<offload_event_handle_t>(),
                                       OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                       sizeof(Value), &Value));
}

TEST_P(offloadGetEventInfoTest, InvalidEnumeration) {
  bool Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (2) is not a valid enumerator",
                   offloadGetEventInfo(Event,
                                       static_cast<offload_event_info_t>(2),
                                       sizeof(Value), &Value));
}

TEST_P(offloadGetEventInfoTest, InvalidNullPropValue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
                   offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_QUEUE,
                                       sizeof(void *), nullptr));
}

TEST_P(offloadGetEventInfoTest, InvalidSizeZero) {
  bool Value;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
      offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE, 0, &Value));
}

TEST_P(offloadGetEventInfoTest, InvalidSizeSmall) {
  offload_queue_handle_t Value;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize (1) is smaller",
      offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_QUEUE, 1, &Value));
}

} // namespace
