//===- offloadGetEventElapsedTime.cpp - Tests of offloadGetEventElapsedTime
//===//
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

using offloadGetEventElapsedTimeTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetEventElapsedTimeTest);

void sleep20ms(void *) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

TEST_P(offloadGetEventElapsedTimeTest, SuccessMeasuresQueuedWork) {
  offload_event_handle_t Start = nullptr, End = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Start));
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, sleep20ms, nullptr));
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &End));
  ASSERT_SUCCESS(offloadSyncEvent(End));

  float Ms = -1;
  ASSERT_SUCCESS(offloadGetEventElapsedTime(Start, End, &Ms));
  // Start completed before the host function began, End after it returned.
  EXPECT_GE(Ms, 19.5f);
  // The other order is the same span, negative.
  float Back = 0;
  ASSERT_SUCCESS(offloadGetEventElapsedTime(End, Start, &Back));
  EXPECT_FLOAT_EQ(Back, -Ms);
  ASSERT_SUCCESS(offloadDestroyEvent(Start));
  ASSERT_SUCCESS(offloadDestroyEvent(End));
}

TEST_P(offloadGetEventElapsedTimeTest, SuccessSameEventIsZero) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  float Ms = -1;
  ASSERT_SUCCESS(offloadGetEventElapsedTime(Event, Event, &Ms));
  EXPECT_EQ(Ms, 0.0f);
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadGetEventElapsedTimeTest, SuccessEventsOfTwoQueues) {
  offload_queue_handle_t Other = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Other));
  offload_event_handle_t Start = nullptr, End = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Start));
  ASSERT_SUCCESS(offloadSyncEvent(Start));
  ASSERT_SUCCESS(offloadLaunchHostFunction(Other, sleep20ms, nullptr));
  ASSERT_SUCCESS(offloadCreateEvent(Other, &End));
  ASSERT_SUCCESS(offloadSyncEvent(End));
  float Ms = -1;
  ASSERT_SUCCESS(offloadGetEventElapsedTime(Start, End, &Ms));
  EXPECT_GE(Ms, 19.5f);
  ASSERT_SUCCESS(offloadDestroyEvent(Start));
  ASSERT_SUCCESS(offloadDestroyEvent(End));
  ASSERT_SUCCESS(offloadDestroyQueue(Other));
}

TEST_P(offloadGetEventElapsedTimeTest, ErrorNotReady) {
  Gate G;
  offload_event_handle_t Start = nullptr, End = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Start));
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &End));
  float Ms = -1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_READY, "End (0x",
                   offloadGetEventElapsedTime(Start, End, &Ms));
  EXPECT_EQ(Ms, -1.0f);
  G.open();
  ASSERT_SUCCESS(offloadSyncEvent(End));
  ASSERT_SUCCESS(offloadGetEventElapsedTime(Start, End, &Ms));
  EXPECT_GE(Ms, 0.0f);
  ASSERT_SUCCESS(offloadDestroyEvent(Start));
  ASSERT_SUCCESS(offloadDestroyEvent(End));
}

TEST_P(offloadGetEventElapsedTimeTest, InvalidDifferentDevices) {
  // An event of another device: the host's when this is not the host, else
  // any other device.
  offload_device_handle_t Other = isHost() ? nullptr : Host;
  if (!Other)
    for (const TestDevice &D : getTestDevices()) {
      offload_device_handle_t H = nullptr;
      ASSERT_SUCCESS(
          offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN, D.Index, &H));
      if (H != Device) {
        Other = H;
        break;
      }
    }
  if (!Other)
    GTEST_SKIP() << "one device only";
  offload_queue_handle_t OtherQueue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Other, &OtherQueue));
  offload_event_handle_t Start = nullptr, End = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Start));
  ASSERT_SUCCESS(offloadCreateEvent(OtherQueue, &End));
  ASSERT_SUCCESS(offloadSyncEvent(Start));
  ASSERT_SUCCESS(offloadSyncEvent(End));
  float Ms = -1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE, "different devices",
                   offloadGetEventElapsedTime(Start, End, &Ms));
  ASSERT_SUCCESS(offloadDestroyEvent(Start));
  ASSERT_SUCCESS(offloadDestroyEvent(End));
  ASSERT_SUCCESS(offloadDestroyQueue(OtherQueue));
}

TEST_P(offloadGetEventElapsedTimeTest, InvalidNullHandles) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  float Ms = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Start is null",
                   offloadGetEventElapsedTime(nullptr, Event, &Ms));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "End is null",
                   offloadGetEventElapsedTime(Event, nullptr, &Ms));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadGetEventElapsedTimeTest, InvalidNullElapsedMs) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "ElapsedMs is null",
                   offloadGetEventElapsedTime(Event, Event, nullptr));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(offloadGetEventElapsedTimeTest, InvalidDestroyedEvent) {
  offload_event_handle_t Start = nullptr, End = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Start));
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &End));
  ASSERT_SUCCESS(offloadDestroyEvent(End));
  float Ms = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "End (0x",
                   offloadGetEventElapsedTime(Start, End, &Ms));
  ASSERT_SUCCESS(offloadDestroyEvent(Start));
}

} // namespace
