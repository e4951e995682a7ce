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

constexpr int NumThreads = 8;

TEST_F(StressTest, MixedOperationsOnSharedQueues) {
  offload_queue_handle_t Queues[2] = {Queue, nullptr};
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queues[1]));
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  offload_symbol_handle_t Reverse = getKernel("reverse");
  std::atomic<int> Checked{0};

  auto Worker = [&](int T) {
    for (int I = 0; I < 200; ++I) {
      int64_t N = 64 + (I % 7) * 32 + T;
      offload_queue_handle_t Q = I % 5 == 0 ? nullptr : Queues[(T + I) % 2];
      offload_queue_handle_t Other = Queues[(T + I + 1) % 2];
      void *X = nullptr, *Y = nullptr;
      ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE,
                                     N * sizeof(float), &X));
      ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_MANAGED,
                                     N * sizeof(float), &Y));
      std::vector<float> HostX(N), HostY(N), Out(N, -1.0f);
      for (int64_t K = 0; K < N; ++K) {
        HostX[K] = float(K + T);
        HostY[K] = float(I);
      }
      ASSERT_SUCCESS(
          offloadMemcpy(Q, X, Host, HostX.data(), Host, N * sizeof(float)));
      float Zero = 0.0f;
      ASSERT_SUCCESS(
          offloadMemFill(Q, Y, sizeof(float), &Zero, N * sizeof(float)));
      ASSERT_SUCCESS(
          offloadMemcpy(Q, Y, Host, HostY.data(), Host, N * sizeof(float)));
      SaxpyArgs Args{2.0f, static_cast<float *>(X), static_cast<float *>(Y), N};
      auto L = launch1D(uint32_t((N + 31) / 32), 32);
      ASSERT_SUCCESS(
          offloadLaunchKernel(Q, Host, Saxpy, &Args, sizeof(Args), &L));
      if (Q && I % 3 == 0) {
        // Read the result on the other queue, after an event of this one.
        offload_event_handle_t Event = nullptr;
        ASSERT_SUCCESS(offloadCreateEvent(Q, &Event));
        ASSERT_SUCCESS(offloadWaitEvents(Other, &Event, 1));
        ASSERT_SUCCESS(offloadDestroyEvent(Event));
        ASSERT_SUCCESS(
            offloadMemcpy(Other, Out.data(), Host, Y, Host, N * sizeof(float)));
        ASSERT_SUCCESS(offloadSyncQueue(Other));
      } else {
        ASSERT_SUCCESS(
            offloadMemcpy(Q, Out.data(), Host, Y, Host, N * sizeof(float)));
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
        ASSERT_SUCCESS(
            offloadLaunchKernel(Q, Host, Reverse, &RArgs, sizeof(RArgs), &RL));
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

TEST_F(StressTest, ConcurrentQueueAndEventLifetimes) {
  auto Worker = [&](int T) {
    for (int I = 0; I < 50; ++I) {
      offload_queue_handle_t Q = nullptr;
      ASSERT_SUCCESS(offloadCreateQueue(Host, &Q));
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

TEST_F(StressTest, ConcurrentDoubleFree) {
  // Each allocation is freed by two threads at once: exactly one succeeds.
  std::vector<void *> Ptrs(400);
  for (void *&P : Ptrs)
    ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, 32, &P));
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

TEST_F(StressTest, ConcurrentCooperativeLaunches) {
  offload_symbol_handle_t Sum = getKernel("warp_sum");
  auto Worker = [&](int T) {
    for (int I = 0; I < 20; ++I) {
      const uint32_t Blocks = 4, Threads = 64;
      std::vector<int64_t> In(Blocks * Threads), Out(Blocks * Threads, 0);
      std::iota(In.begin(), In.end(), T * 7 + I);
      TwoPointers Args{In.data(), Out.data()};
      auto L = launch1D(Blocks, Threads);
      ASSERT_SUCCESS(
          offloadLaunchKernel(nullptr, Host, Sum, &Args, sizeof(Args), &L));
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
