//===- offloadCreateEvent.cpp - Conformance tests of offloadCreateEvent ---===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadCreateEventTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadCreateEventTest);

TEST_P(offloadCreateEventTest, SuccessIdleQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_NE(Event, nullptr);
  bool Complete = false;
  ASSERT_SUCCESS(offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                     sizeof(Complete), &Complete));
  EXPECT_TRUE(Complete);
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadCreateEventTest, SuccessBusyQueue) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  bool Complete = true;
  ASSERT_SUCCESS(offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                     sizeof(Complete), &Complete));
  EXPECT_FALSE(Complete);
  G.open();
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadCreateEventTest, SuccessManyEvents) {
  std::vector<offload_event_handle_t> Events(32, nullptr);
  // The copies read their source when they run: it must outlive them.
  std::vector<int> Src(Events.size()), Dst(Events.size(), 0);
  for (size_t I = 0; I < Events.size(); ++I) {
    Src[I] = int(I);
    ASSERT_SUCCESS(
        offloadMemcpy(Queue, &Dst[I], Host, &Src[I], Host, sizeof(int)));
    ASSERT_SUCCESS(offloadCreateEvent(Queue, &Events[I]));
  }
  // The last event completes after every copy before it.
  ASSERT_SUCCESS(offloadSyncEvent(Events.back()));
  EXPECT_EQ(Dst, Src);
  for (offload_event_handle_t E : Events)
    ASSERT_SUCCESS(offloadDestroyEvent(E));
}

TEST_P(offloadCreateEventTest, InvalidNullQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadCreateEvent(nullptr, &Event));
}

TEST_P(offloadCreateEventTest, InvalidQueue) {
  offload_event_handle_t Event = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
      offloadCreateEvent(garbageHandle<offload_queue_handle_t>(), &Event));
}

TEST_P(offloadCreateEventTest, InvalidNullEvent) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Event is null",
                   offloadCreateEvent(Queue, nullptr));
}

} // namespace
