//===- offloadSyncQueue.cpp - Conformance tests of offloadSyncQueue -------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace offload_test;

namespace {

using offloadSyncQueueTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadSyncQueueTest);

TEST_P(offloadSyncQueueTest, SuccessEmptyQueue) {
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_P(offloadSyncQueueTest, SuccessWaitsForWork) {
  std::atomic<int> Count{0};
  auto Increment = [](void *C) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
    ++*static_cast<std::atomic<int> *>(C);
  };
  for (int I = 0; I < 10; ++I)
    ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Increment, &Count));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Count.load(), 10);
}

TEST_P(offloadSyncQueueTest, SuccessConcurrentSubmitters) {
  // Each sync waits for what was submitted before it, even while other
  // threads keep submitting.
  std::atomic<int> Count{0};
  auto Increment = [](void *C) { ++*static_cast<std::atomic<int> *>(C); };
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < 100; ++I) {
        EXPECT_SUCCESS(offloadLaunchHostFunction(Queue, Increment, &Count));
        if (I % 10 == 0)
          EXPECT_SUCCESS(offloadSyncQueue(Queue));
      }
    });
  for (std::thread &T : Threads)
    T.join();
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Count.load(), 400);
}

TEST_P(offloadSyncQueueTest, InvalidNullQueue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadSyncQueue(nullptr));
}

TEST_P(offloadSyncQueueTest, InvalidQueue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE,
                   "is not a live queue: it was destroyed or never created",
                   offloadSyncQueue(garbageHandle<offload_queue_handle_t>()));
}

TEST_P(offloadSyncQueueTest, InvalidDestroyedQueue) {
  offload_queue_handle_t Other = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Other));
  ASSERT_SUCCESS(offloadDestroyQueue(Other));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadSyncQueue(Other));
}

/// Reports the error of an enqueued operation.
using offloadSyncQueueLaunchTest = OffloadProgramTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadSyncQueueLaunchTest);

TEST_P(offloadSyncQueueLaunchTest, ErrorOfEnqueuedLaunch) {
  auto L = launch1D(1, 64);
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("deadlock"),
                                     nullptr, 0, &L));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNKNOWN, "deadlock in kernel 'deadlock'",
                   offloadSyncQueue(Queue));
  // Reported once: the queue is usable again.
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

} // namespace
