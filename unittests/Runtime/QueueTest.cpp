//===- QueueTest.cpp - Queues and host functions --------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace offload_test;

namespace {

class QueueTest : public OffloadDeviceTest {};
OFFLOAD_INSTANTIATE_DEVICE_TEST(QueueTest);

TEST_P(QueueTest, CreateSyncDestroy) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  ASSERT_NE(Queue, nullptr);
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(QueueTest, CreateInvalidArguments) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadCreateQueue(nullptr, &Queue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Queue is null",
                   offloadCreateQueue(Device, nullptr));
}

TEST_P(QueueTest, HostFunctionsRunInOrder) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
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
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(QueueTest, OperationsAreAsynchronous) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
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
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(QueueTest, DestroyWaitsForWork) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  int Src = 7, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Dst, Host, &Src, Host, sizeof(int)));
  std::thread Opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    G.open();
  });
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  EXPECT_EQ(Dst, 7);
  Opener.join();
}

TEST_P(QueueTest, QueuesRunConcurrently) {
  // Queue A waits for a flag that only queue B sets: this completes only if
  // the queues progress independently.
  offload_queue_handle_t A = nullptr, B = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &A));
  ASSERT_SUCCESS(offloadCreateQueue(Device, &B));
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(A, Gate::wait, &G));
  ASSERT_SUCCESS(offloadLaunchHostFunction(
      B, [](void *G) { static_cast<Gate *>(G)->open(); }, &G));
  ASSERT_SUCCESS(offloadSyncQueue(A));
  ASSERT_SUCCESS(offloadSyncQueue(B));
  ASSERT_SUCCESS(offloadDestroyQueue(A));
  ASSERT_SUCCESS(offloadDestroyQueue(B));
}

TEST_P(QueueTest, SyncOnlyWaitsForEarlierWork) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  std::atomic<int> Count{0};
  auto Increment = [](void *C) { ++*static_cast<std::atomic<int> *>(C); };
  for (int I = 0; I < 10; ++I)
    ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Increment, &Count));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Count.load(), 10);
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(QueueTest, InvalidQueueHandles) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadSyncQueue(nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE, offloadDestroyQueue(nullptr));
  int NotAQueue = 0;
  auto Garbage = reinterpret_cast<offload_queue_handle_t>(&NotAQueue);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadSyncQueue(Garbage));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadDestroyQueue(Garbage));

  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  // Destroyed: every use is refused, a second destroy included.
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadSyncQueue(Queue));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadDestroyQueue(Queue));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE,
               offloadLaunchHostFunction(Queue, Gate::wait, nullptr));
}

TEST_P(QueueTest, HostFunctionInvalidArguments) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Callback is null",
                   offloadLaunchHostFunction(Queue, nullptr, nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadLaunchHostFunction(nullptr, Gate::wait, nullptr));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

} // namespace
