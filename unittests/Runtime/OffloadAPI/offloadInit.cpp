//===- offloadInit.cpp - Conformance tests of offloadInit -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <atomic>
#include <thread>

using namespace offload_test;

namespace {

TEST(offloadInitTest, SuccessInitAndShutDown) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  EXPECT_NE(Host, nullptr);
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitTest, SuccessReferenceCounted) {
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadShutDown());
  // Still initialized: one reference left.
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "call offloadInit first",
                   offloadGetHostDevice(&Host));
}

TEST(offloadInitTest, SuccessReinitialize) {
  for (int I = 0; I < 3; ++I) {
    ASSERT_SUCCESS(offloadInit());
    offload_device_handle_t Host = nullptr;
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
    void *Ptr = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 16, &Ptr));
    ASSERT_SUCCESS(offloadShutDown());
  }
}

TEST(offloadInitTest, SuccessConcurrentInitAndShutDown) {
  // Every thread holds a reference while it works, so the runtime stays up.
  ASSERT_SUCCESS(offloadInit());
  std::atomic<int> Failures{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < 50; ++I) {
        offload_device_handle_t Host = nullptr;
        if (offloadInit() || offloadGetHostDevice(&Host) || !Host ||
            offloadShutDown())
          ++Failures;
      }
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failures.load(), 0);
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitTest, ErrorCallsBeforeInit) {
  offload_device_handle_t Device = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "not initialized",
                   offloadGetHostDevice(&Device));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 0, &Device));
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 64, &Ptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadMemFree(&Ptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadSyncQueue(nullptr));
  size_t Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadGetMemInfoSize(&Ptr, OFFLOAD_MEM_INFO_SIZE, &Size));
}

TEST(offloadInitTest, ErrorHandlesDieWithTheRuntime) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  ASSERT_SUCCESS(offloadShutDown());

  // After the last shutdown every call but offloadInit is refused.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadSyncQueue(Queue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "offloadInit",
                   offloadDestroyQueue(Queue));

  // A new runtime does not know the old handles.
  ASSERT_SUCCESS(offloadInit());
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitTest, SuccessShutDownReleasesLiveObjects) {
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

TEST(offloadInitTest, SuccessErrorsOutliveTheRuntime) {
  ASSERT_SUCCESS(offloadInit());
  offload_result_t Error = offloadMemFree(nullptr);
  ASSERT_NE(Error, OFFLOAD_SUCCESS);
  ASSERT_SUCCESS(offloadShutDown());
  EXPECT_EQ(Error->Code, OFFLOAD_ERRC_INVALID_NULL_POINTER);
  EXPECT_STREQ(Error->Details, "Address is null");
}

} // namespace
