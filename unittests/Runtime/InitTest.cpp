//===- InitTest.cpp - offloadInit, offloadShutDown, offloadErrcName -------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace offload_test;

namespace {

TEST(InitTest, InitAndShutDown) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  EXPECT_NE(Host, nullptr);
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(InitTest, ReferenceCounted) {
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadShutDown());
  // Still initialized: one reference left.
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadGetHostDevice(&Host));
}

TEST(InitTest, ShutDownWithoutInit) {
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadShutDown());
}

TEST(InitTest, CallsBeforeInit) {
  offload_device_handle_t Device = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadGetHostDevice(&Device));
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 0, &Device));
  void *Ptr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED,
               offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 64, &Ptr));
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadMemFree(&Ptr));
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadSyncQueue(nullptr));
}

TEST(InitTest, HandlesDieWithTheRuntime) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  ASSERT_SUCCESS(offloadShutDown());

  // After the last shutdown every call but offloadInit is refused.
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadSyncQueue(Queue));
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadDestroyQueue(Queue));

  // A new runtime does not know the old handles.
  ASSERT_SUCCESS(offloadInit());
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(InitTest, ShutDownReleasesLiveObjects) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, 4096, &Ptr));
  int Pattern = 7;
  ASSERT_SUCCESS(offloadMemFill(Queue, Ptr, sizeof(int), &Pattern, 4096));
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  // Nothing destroyed explicitly: shutdown drains the queue and frees all.
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(InitTest, ErrorsOutliveTheRuntime) {
  ASSERT_SUCCESS(offloadInit());
  offload_result_t Error = offloadMemFree(nullptr);
  ASSERT_NE(Error, OFFLOAD_SUCCESS);
  ASSERT_SUCCESS(offloadShutDown());
  EXPECT_EQ(Error->Code, OFFLOAD_ERRC_INVALID_NULL_POINTER);
  EXPECT_STREQ(Error->Details, "Address is null");
}

TEST(InitTest, ErrcName) {
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_SUCCESS), "OFFLOAD_ERRC_SUCCESS");
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_INVALID_SIZE),
               "OFFLOAD_ERRC_INVALID_SIZE");
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_INVALID_SYMBOL),
               "OFFLOAD_ERRC_INVALID_SYMBOL");
  EXPECT_STREQ(offloadErrcName(static_cast<offload_errc_t>(1000)),
               "OFFLOAD_ERRC_<invalid>");
}

} // namespace
