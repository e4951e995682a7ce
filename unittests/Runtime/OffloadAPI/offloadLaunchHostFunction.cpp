//===- offloadLaunchHostFunction.cpp - Conformance tests ------------------===//
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

using offloadLaunchHostFunctionTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadLaunchHostFunctionTest);

TEST_P(offloadLaunchHostFunctionTest, SuccessRunsInOrder) {
  std::vector<int> Log;
  std::mutex Mutex;
  std::vector<LogEntry> Entries;
  for (int I = 0; I < 100; ++I)
    Entries.push_back({&Log, &Mutex, I});
  for (LogEntry &E : Entries)
    ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, LogEntry::append, &E));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_EQ(Log.size(), 100u);
  for (int I = 0; I < 100; ++I)
    EXPECT_EQ(Log[I], I);
}

TEST_P(offloadLaunchHostFunctionTest, SuccessIsAsynchronous) {
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  // Enqueued behind the gate: not executed before it opens.
  int Src = 42, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Dst, Host, &Src, Host, sizeof(int)));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(Dst, 0);
  G.open();
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Dst, 42);
}

TEST_P(offloadLaunchHostFunctionTest, SuccessQueuesRunConcurrently) {
  // Queue A waits for a flag that only queue B sets: this completes only if
  // the queues progress independently.
  offload_queue_handle_t B = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &B));
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  ASSERT_SUCCESS(offloadLaunchHostFunction(
      B, [](void *G) { static_cast<Gate *>(G)->open(); }, &G));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadDestroyQueue(B));
}

TEST_P(offloadLaunchHostFunctionTest, SuccessNullUserData) {
  static std::atomic<int> Calls{0};
  Calls = 0;
  ASSERT_SUCCESS(offloadLaunchHostFunction(
      Queue,
      [](void *Data) {
        if (!Data)
          ++Calls;
      },
      nullptr));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Calls.load(), 1);
}

TEST_P(offloadLaunchHostFunctionTest, InvalidNullCallback) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Callback is null",
                   offloadLaunchHostFunction(Queue, nullptr, nullptr));
}

TEST_P(offloadLaunchHostFunctionTest, InvalidNullQueue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadLaunchHostFunction(nullptr, Gate::wait, nullptr));
}

TEST_P(offloadLaunchHostFunctionTest, InvalidQueue) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
      offloadLaunchHostFunction(garbageHandle<offload_queue_handle_t>(),
                                Gate::wait, nullptr));
}

} // namespace
