//===- offloadDestroyEvent.cpp - Conformance tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadDestroyEventTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadDestroyEventTest);

TEST_P(offloadDestroyEventTest, Success) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadDestroyEventTest, SuccessBeforeCompletion) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  G.open();
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_P(offloadDestroyEventTest, InvalidNullEvent) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Event is null",
                   offloadDestroyEvent(nullptr));
}

TEST_P(offloadDestroyEventTest, InvalidDoubleDestroy) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT,
                   "it was destroyed or never created",
                   offloadDestroyEvent(Event));
}

TEST_P(offloadDestroyEventTest, InvalidEvent) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_EVENT, "Event (0x40) is not a live",
      offloadDestroyEvent(garbageHandle<offload_event_handle_t>()));
}

} // namespace
