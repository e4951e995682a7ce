//===- StressTest.cpp - Concurrent use of the runtime ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <atomic>
#include <numeric>
#include <thread>

using namespace offload_test;

namespace {

using StressTest = OffloadProgramTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(StressTest);

constexpr int NumThreads = 8;

TEST_P(StressTest, MixedOperationsOnSharedQueues) {
  offload_queue_handle_t Queues[2] = {Queue, nullptr};
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queues[1]));
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  offload_symbol_handle_t Reverse = getKernel("reverse");
  std::atomic<int> Checked{0};

  auto Worker = [&](int T) {
    for (int I = 0; I < 200; ++I) {
      int64_t N = 64 + (I % 7) * 32 + T;
      offload_queue_handle_t Q = I % 5 == 0 ? nullptr : Queues[(T + I) % 2];
      offload_queue_handle_t Other = Queues[(T + I + 1) % 2];
      void *X = nullptr, *Y = nullptr;
      ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                     N * sizeof(float), &X));
      ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_MANAGED,
                                     N * sizeof(float), &Y));
      std::vector<float> HostX(N), HostY(N), Out(N, -1.0f);
      for (int64_t K = 0; K < N; ++K) {
        HostX[K] = float(K + T);
        HostY[K] = float(I);
      }
      ASSERT_SUCCESS(
          offloadMemcpy(Q, X, Device, HostX.data(), Host, N * sizeof(float)));
      float Zero = 0.0f;
      ASSERT_SUCCESS(
          offloadMemFill(Q, Y, sizeof(float), &Zero, N * sizeof(float)));
      ASSERT_SUCCESS(
          offloadMemcpy(Q, Y, Device, HostY.data(), Host, N * sizeof(float)));
      SaxpyArgs Args{2.0f, static_cast<float *>(X), static_cast<float *>(Y), N};
      auto L = launch1D(uint32_t((N + 31) / 32), 32);
      ASSERT_SUCCESS(
          offloadLaunchKernel(Q, Device, Saxpy, &Args, sizeof(Args), &L));
      if (Q && I % 3 == 0) {
        // Read the result on the other queue, after an event of this one.
        offload_event_handle_t Event = nullptr;
        ASSERT_SUCCESS(offloadCreateEvent(Q, &Event));
        ASSERT_SUCCESS(offloadWaitEvents(Other, &Event, 1));
        ASSERT_SUCCESS(offloadDestroyEvent(Event));
        ASSERT_SUCCESS(offloadMemcpy(Other, Out.data(), Host, Y, Device,
                                     N * sizeof(float)));
        ASSERT_SUCCESS(offloadSyncQueue(Other));
      } else {
        ASSERT_SUCCESS(
            offloadMemcpy(Q, Out.data(), Host, Y, Device, N * sizeof(float)));
        if (Q)
          ASSERT_SUCCESS(offloadSyncQueue(Q));
      }
      for (int64_t K = 0; K < N; ++K)
        ASSERT_EQ(Out[K], 2.0f * float(K + T) + float(I))
            << "thread " << T << " iteration " << I << " element " << K;

      if (I % 10 == 0) {
        std::vector<int32_t> In(128), Rev(128, 0);
        std::iota(In.begin(), In.end(), T * 1000 + I);
        TwoPointers RArgs{In.data(), Rev.data()};
        auto RL = launch1D(2, 64);
        ASSERT_SUCCESS(offloadLaunchKernel(Q, Device, Reverse, &RArgs,
                                           sizeof(RArgs), &RL));
        if (Q)
          ASSERT_SUCCESS(offloadSyncQueue(Q));
        for (int K = 0; K < 128; ++K)
          ASSERT_EQ(Rev[K], In[(K / 64) * 64 + 63 - K % 64]);
      }
      ASSERT_SUCCESS(offloadMemFree(X));
      ASSERT_SUCCESS(offloadMemFree(Y));
      ++Checked;
    }
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < NumThreads; ++T)
    Threads.emplace_back(Worker, T);
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Checked.load(), NumThreads * 200);
  ASSERT_SUCCESS(offloadDestroyQueue(Queues[1]));
}

/// 8 threads x 10,000 API calls each, mixed: allocations, copies, fills,
/// launches, events, info queries and frees, on three queues all threads
/// share (and sometimes none); every result is checked.
TEST_P(StressTest, MixedCalls8Threads10000Each) {
  constexpr int NumQueues = 3;
  constexpr uint64_t CallsPerThread = 10000;
  offload_queue_handle_t Queues[NumQueues] = {Queue, nullptr, nullptr};
  for (int I = 1; I < NumQueues; ++I)
    ASSERT_SUCCESS(offloadCreateQueue(Device, &Queues[I]));
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  offload_symbol_handle_t Reverse = getKernel("reverse");
  std::atomic<uint64_t> TotalCalls{0}, Launches{0};

  auto Worker = [&](int T) {
    uint64_t Calls = 0;
    // Counts the call and checks it succeeded.
#define STRESS_CALL(Call)                                                      \
  do {                                                                         \
    ++Calls;                                                                   \
    ASSERT_SUCCESS(Call);                                                      \
  } while (0)
    uint64_t Seed = 0x9e3779b97f4a7c15ull * (T + 1);
    auto Random = [&](uint64_t Bound) {
      Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
      return (Seed >> 33) % Bound;
    };
    for (uint64_t Iteration = 0; Calls < CallsPerThread; ++Iteration) {
      int64_t N = 16 + int64_t(Random(240));
      size_t Bytes = size_t(N) * sizeof(float);
      offload_queue_handle_t Q =
          Random(4) == 0 ? nullptr : Queues[Random(NumQueues)];
      void *X = nullptr, *Y = nullptr;
      STRESS_CALL(
          offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, Bytes, &X));
      STRESS_CALL(
          offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_MANAGED, Bytes, &Y));
      std::vector<float> HostX(N), Out(N, -1.0f);
      for (int64_t K = 0; K < N; ++K)
        HostX[K] = float(K % 17 + T);
      float Fill = float(Iteration % 13);
      float A = float(1 + Random(4));
      STRESS_CALL(offloadMemcpy(Q, X, Device, HostX.data(), Host, Bytes));
      STRESS_CALL(offloadMemFill(Q, Y, sizeof(Fill), &Fill, Bytes));
      SaxpyArgs Args{A, static_cast<float *>(X), static_cast<float *>(Y), N};
      auto L = launch1D(uint32_t((N + 31) / 32), 32);
      STRESS_CALL(
          offloadLaunchKernel(Q, Device, Saxpy, &Args, sizeof(Args), &L));
      ++Launches;
      if (Q && Random(2)) {
        // Read the result on another queue, after an event of this one.
        offload_queue_handle_t Other = Queues[Random(NumQueues)];
        offload_event_handle_t Event = nullptr;
        STRESS_CALL(offloadCreateEvent(Q, &Event));
        STRESS_CALL(offloadWaitEvents(Other, &Event, 1));
        STRESS_CALL(offloadMemcpy(Other, Out.data(), Host, Y, Device, Bytes));
        STRESS_CALL(offloadSyncQueue(Other));
        bool Complete = false;
        STRESS_CALL(offloadGetEventInfo(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                        sizeof(Complete), &Complete));
        ASSERT_TRUE(Complete);
        STRESS_CALL(offloadDestroyEvent(Event));
      } else {
        STRESS_CALL(offloadMemcpy(Q, Out.data(), Host, Y, Device, Bytes));
        if (Q)
          STRESS_CALL(offloadSyncQueue(Q));
      }
      void *Base = nullptr;
      STRESS_CALL(offloadGetMemInfo(static_cast<char *>(Y) + Random(Bytes),
                                    OFFLOAD_MEM_INFO_BASE, sizeof(Base),
                                    &Base));
      ASSERT_EQ(Base, Y);
      for (int64_t K = 0; K < N; ++K)
        ASSERT_EQ(Out[K], A * HostX[K] + Fill)
            << "thread " << T << " iteration " << Iteration << " element " << K;
      if (Iteration % 64 == 0) {
        // Now and then a cooperative kernel (fibers and barriers).
        std::vector<int32_t> In(128), Rev(128, 0);
        std::iota(In.begin(), In.end(), int32_t(T * 1000 + Iteration));
        TwoPointers RArgs{In.data(), Rev.data()};
        auto RL = launch1D(2, 64);
        STRESS_CALL(offloadLaunchKernel(Q, Device, Reverse, &RArgs,
                                        sizeof(RArgs), &RL));
        if (Q)
          STRESS_CALL(offloadSyncQueue(Q));
        for (int K = 0; K < 128; ++K)
          ASSERT_EQ(Rev[K], In[(K / 64) * 64 + 63 - K % 64]);
      }
      STRESS_CALL(offloadMemFree(X));
      STRESS_CALL(offloadMemFree(Y));
    }
#undef STRESS_CALL
    TotalCalls += Calls;
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < NumThreads; ++T)
    Threads.emplace_back(Worker, T);
  for (std::thread &T : Threads)
    T.join();
  EXPECT_GE(TotalCalls.load(), NumThreads * CallsPerThread);
  EXPECT_GT(Launches.load(), 0u);
  RecordProperty("Calls", std::to_string(TotalCalls.load()));
  RecordProperty("Launches", std::to_string(Launches.load()));
  for (int I = 1; I < NumQueues; ++I)
    ASSERT_SUCCESS(offloadDestroyQueue(Queues[I]));
}

TEST_P(StressTest, ConcurrentQueueAndEventLifetimes) {
  auto Worker = [&](int T) {
    for (int I = 0; I < 50; ++I) {
      offload_queue_handle_t Q = nullptr;
      ASSERT_SUCCESS(offloadCreateQueue(Device, &Q));
      std::vector<uint16_t> Buffer(100, 0);
      uint16_t Pattern = uint16_t(T * 100 + I);
      ASSERT_SUCCESS(offloadMemFill(Q, Buffer.data(), sizeof(Pattern), &Pattern,
                                    Buffer.size() * 2));
      offload_event_handle_t E = nullptr;
      ASSERT_SUCCESS(offloadCreateEvent(Q, &E));
      ASSERT_SUCCESS(offloadSyncEvent(E));
      for (uint16_t V : Buffer)
        ASSERT_EQ(V, Pattern);
      ASSERT_SUCCESS(offloadDestroyEvent(E));
      ASSERT_SUCCESS(offloadDestroyQueue(Q));
      // Freed handles are rejected, not dereferenced.
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadSyncEvent(E));
    }
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < NumThreads; ++T)
    Threads.emplace_back(Worker, T);
  for (std::thread &T : Threads)
    T.join();
}

TEST_P(StressTest, ConcurrentDoubleFree) {
  // Each allocation is freed by two threads at once: exactly one succeeds.
  std::vector<void *> Ptrs(400);
  for (void *&P : Ptrs)
    ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 32, &P));
  std::atomic<int> Successes{0}, Failures{0};
  auto Worker = [&] {
    for (void *P : Ptrs) {
      offload_result_t R = offloadMemFree(P);
      if (R == OFFLOAD_SUCCESS)
        ++Successes;
      else if (R->Code == OFFLOAD_ERRC_INVALID_ARGUMENT)
        ++Failures;
    }
  };
  std::thread A(Worker), B(Worker);
  A.join();
  B.join();
  EXPECT_EQ(Successes.load(), 400);
  EXPECT_EQ(Failures.load(), 400);
}

TEST_P(StressTest, ConcurrentCooperativeLaunches) {
  offload_symbol_handle_t Sum = getKernel("warp_sum");
  auto Worker = [&](int T) {
    for (int I = 0; I < 20; ++I) {
      const uint32_t Blocks = 4, Threads = 64;
      std::vector<int64_t> In(Blocks * Threads), Out(Blocks * Threads, 0);
      std::iota(In.begin(), In.end(), T * 7 + I);
      TwoPointers Args{In.data(), Out.data()};
      auto L = launch1D(Blocks, Threads);
      ASSERT_SUCCESS(
          offloadLaunchKernel(nullptr, Device, Sum, &Args, sizeof(Args), &L));
      for (size_t W = 0; W < In.size() / 32; ++W) {
        int64_t Expected = 0;
        for (int K = 0; K < 32; ++K)
          Expected += In[W * 32 + K];
        for (int K = 0; K < 32; ++K)
          ASSERT_EQ(Out[W * 32 + K], Expected);
      }
    }
  };
  std::vector<std::thread> Threads;
  for (int T = 0; T < NumThreads; ++T)
    Threads.emplace_back(Worker, T);
  for (std::thread &T : Threads)
    T.join();
}

} // namespace
