//===- CooperativeTest.cpp - Barriers, shuffles and shared memory ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Cooperative kernels run every thread of a block as a fiber; these tests pin
// down the scheduler's semantics (see lib/Runtime/plugins/host/Fiber.cpp).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <numeric>

using namespace offload_test;

namespace {

using CooperativeTest = OffloadProgramTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(CooperativeTest);

//===----------------------------------------------------------------------===//
// Barriers and shared memory
//===----------------------------------------------------------------------===//

/// Reverses each block's slice of an array with the `reverse` kernel.
void checkReverse(offload_device_handle_t Device, offload_queue_handle_t Q,
                  offload_symbol_handle_t Reverse,
                  offload_kernel_launch_size_args_t L) {
  size_t BlockThreads = size_t(L.GroupSize.x) * L.GroupSize.y * L.GroupSize.z;
  size_t Blocks = size_t(L.NumGroups.x) * L.NumGroups.y * L.NumGroups.z;
  size_t N = BlockThreads * Blocks;
  std::vector<int32_t> In(N), Out(N, -1);
  std::iota(In.begin(), In.end(), 1000);
  TwoPointers Args{In.data(), Out.data()};
  ASSERT_SUCCESS(
      offloadLaunchKernel(Q, Device, Reverse, &Args, sizeof(Args), &L));
  if (Q)
    ASSERT_SUCCESS(offloadSyncQueue(Q));
  for (size_t B = 0; B < Blocks; ++B)
    for (size_t T = 0; T < BlockThreads; ++T)
      ASSERT_EQ(Out[B * BlockThreads + T],
                In[B * BlockThreads + BlockThreads - 1 - T])
          << "block " << B << " thread " << T;
}

TEST_P(CooperativeTest, ReverseOneBlock) {
  checkReverse(Device, nullptr, getKernel("reverse"), launch1D(1, 256));
}

TEST_P(CooperativeTest, ReverseManyBlocks) {
  checkReverse(Device, Queue, getKernel("reverse"), launch1D(37, 96));
}

TEST_P(CooperativeTest, ReverseLargestBlock) {
  checkReverse(Device, nullptr, getKernel("reverse"), launch1D(3, 1024));
}

TEST_P(CooperativeTest, Reverse3DBlocks) {
  offload_kernel_launch_size_args_t L;
  L.Dimensions = 3;
  L.NumGroups = {2, 3, 2};
  L.GroupSize = {8, 4, 2};
  L.DynSharedMemory = 0;
  checkReverse(Device, Queue, getKernel("reverse"), L);
}

TEST_P(CooperativeTest, ReverseWithSmallFiberStacks) {
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
  Program = nullptr;
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  Queue = nullptr;
  ASSERT_SUCCESS(offloadShutDown());
  Initialized = false;
  ScopedEnv Env("OFFLOAD_HOST_FIBER_STACK_SIZE", "32768");
  SetUp();
  ASSERT_FALSE(HasFatalFailure());
  checkReverse(Device, Queue, getKernel("reverse"), launch1D(8, 512));
}

TEST_P(CooperativeTest, DynamicSharedMemory) {
  const uint32_t Blocks = 9, Threads = 200;
  std::vector<int32_t> In(Blocks * Threads), Out(Blocks * Threads, -1);
  std::iota(In.begin(), In.end(), -50);
  TwoPointers Args{In.data(), Out.data()};
  auto L = launch1D(Blocks, Threads, Threads * sizeof(int32_t));
  ASSERT_SUCCESS(offloadLaunchKernel(
      Queue, Device, getKernel("reverse_dynamic"), &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (uint32_t B = 0; B < Blocks; ++B)
    for (uint32_t T = 0; T < Threads; ++T)
      ASSERT_EQ(Out[B * Threads + T], 2 * In[B * Threads + (T + 1) % Threads])
          << "block " << B << " thread " << T;
}

TEST_P(CooperativeTest, ExitedThreadsDoNotBlockBarriers) {
  const uint32_t Blocks = 5, Threads = 64;
  std::vector<int32_t> Out(Blocks * Threads, -1);
  int32_t *OutPtr = Out.data();
  auto L = launch1D(Blocks, Threads);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("early_exit"),
                                     &OutPtr, sizeof(OutPtr), &L));
  for (uint32_t B = 0; B < Blocks; ++B)
    for (uint32_t T = 0; T < Threads; ++T)
      ASSERT_EQ(Out[B * Threads + T], T % 2 ? -1 : int32_t((T + 2) % Threads))
          << "block " << B << " thread " << T;
}

TEST_P(CooperativeTest, DeadlockIsAnError) {
  auto L = launch1D(2, 32);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNKNOWN, "deadlock in kernel 'deadlock'",
                   offloadLaunchKernel(nullptr, Device, getKernel("deadlock"),
                                       nullptr, 0, &L));
  // The runtime stays usable.
  checkReverse(Device, nullptr, getKernel("reverse"), launch1D(2, 32));
}

TEST_P(CooperativeTest, DeadlockNamesThreadsAndBarrierIds) {
  // Threads 0-15 wait at barrier 1, threads 16-31 at barrier 2: the first
  // thread of each group is named, with its barrier's id.
  auto L = launch1D(1, 32);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNKNOWN,
                   "in block (0,0,0), threads wait at different barriers: "
                   "thread (0,0,0) at barrier 1 and thread (16,0,0) at "
                   "barrier 2",
                   offloadLaunchKernel(nullptr, Device, getKernel("deadlock"),
                                       nullptr, 0, &L));
}

TEST_P(CooperativeTest, DeadlockedFibersAreReused) {
  // The fibers a deadlock abandons get fresh contexts: blocks of every size
  // still run on the same OS threads afterwards.
  for (int I = 0; I < 3; ++I) {
    auto L = launch1D(3, 64);
    ASSERT_ERROR(OFFLOAD_ERRC_UNKNOWN,
                 offloadLaunchKernel(nullptr, Device, getKernel("deadlock"),
                                     nullptr, 0, &L));
    checkReverse(Device, nullptr, getKernel("reverse"), launch1D(3, 64));
    checkReverse(Device, Queue, getKernel("reverse"), launch1D(2, 128));
  }
}

TEST_P(CooperativeTest, CopiesOfOneBarrierCallAreOneBarrier) {
  // duplicated_barrier calls barrier 0 from two call sites, as the optimizer
  // may duplicate a call into both paths of a branch: threads on either path
  // meet at the same barrier, not a deadlock.
  const uint32_t Blocks = 4, Threads = 64;
  std::vector<int32_t> Out(Blocks * Threads, -1);
  int32_t *OutPtr = Out.data();
  auto L = launch1D(Blocks, Threads);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device,
                                     getKernel("duplicated_barrier"), &OutPtr,
                                     sizeof(OutPtr), &L));
  for (uint32_t B = 0; B < Blocks; ++B)
    for (uint32_t T = 0; T < Threads; ++T)
      ASSERT_EQ(Out[B * Threads + T], int32_t(Threads - 1 - T))
          << "block " << B << " thread " << T;
}

TEST_P(CooperativeTest, DeadlockOnQueueIsReportedBySync) {
  auto L = launch1D(4, 64);
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("deadlock"),
                                     nullptr, 0, &L));
  int Src = 3, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Dst, Host, &Src, Host, sizeof(int)));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNKNOWN, "different barriers",
                   offloadSyncQueue(Queue));
  // Later operations still ran, and the error was reported once.
  EXPECT_EQ(Dst, 3);
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

//===----------------------------------------------------------------------===//
// Shuffles
//===----------------------------------------------------------------------===//

struct ShuffleCase {
  int32_t Mode;
  int32_t Offset;
  int32_t Width;
  int32_t Active = 32;
  uint32_t Threads = 64;
  uint32_t Blocks = 2;
};

/// The result the scheduler must produce (Fiber.cpp, step 2).
void expectShuffle(const ShuffleCase &C, const std::vector<int64_t> &Out,
                   const std::vector<int8_t> &Valid) {
  for (uint32_t B = 0; B < C.Blocks; ++B) {
    for (uint32_t T = 0; T < C.Threads; ++T) {
      int64_t G = int64_t(B) * C.Threads + T;
      int64_t Lane = T % 32, Base = T - Lane;
      int64_t WarpSize = std::min<int64_t>(32, C.Threads - Base);
      auto Participates = [&](int64_t L) {
        return L >= 0 && L < WarpSize && L < C.Active;
      };
      if (!Participates(Lane)) {
        EXPECT_EQ(Out[G], -1) << "thread " << G << " exited";
        continue;
      }
      int64_t Src = -1;
      switch (C.Mode) {
      case OFFLOAD_HOST_SHUFFLE_XOR:
        Src = Lane ^ C.Offset;
        break;
      case OFFLOAD_HOST_SHUFFLE_UP:
        Src = Lane - C.Offset;
        break;
      case OFFLOAD_HOST_SHUFFLE_DOWN:
        Src = Lane + C.Offset;
        break;
      case OFFLOAD_HOST_SHUFFLE_IDX:
        Src = C.Offset;
        break;
      }
      bool Ok = Src >= 0 && Src < C.Width && Participates(Src);
      int64_t From = Ok ? int64_t(B) * C.Threads + Base + Src : G;
      ASSERT_EQ(Valid[G], Ok ? 1 : 0) << "thread " << G;
      ASSERT_EQ(Out[G], From * 10 + 7) << "thread " << G;
    }
  }
}

void runShuffle(offload_device_handle_t Device, offload_symbol_handle_t Kernel,
                const ShuffleCase &C) {
  size_t N = size_t(C.Blocks) * C.Threads;
  std::vector<int64_t> Out(N, -1);
  std::vector<int8_t> Valid(N, -1);
  ShuffleArgs Args{Out.data(), Valid.data(), C.Offset,
                   C.Width,    C.Mode,       C.Active};
  auto L = launch1D(C.Blocks, C.Threads);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Device, Kernel, &Args, sizeof(Args), &L));
  expectShuffle(C, Out, Valid);
}

TEST_P(CooperativeTest, ShuffleXorFullWarp) {
  for (int32_t Offset : {1, 2, 4, 8, 16})
    runShuffle(Device, getKernel("shuffle"),
               {OFFLOAD_HOST_SHUFFLE_XOR, Offset, 32});
}

TEST_P(CooperativeTest, ShuffleXorNarrowWidth) {
  // Width 16: lanes whose partner is >= 16 get their own value, Valid=0.
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_XOR, 1, 16});
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_XOR, 4, 8});
}

TEST_P(CooperativeTest, ShuffleDown) {
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_DOWN, 1, 32});
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_DOWN, 3, 8});
}

TEST_P(CooperativeTest, ShuffleUp) {
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_UP, 2, 32});
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_UP, 5, 16});
}

TEST_P(CooperativeTest, ShuffleIdx) {
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_IDX, 5, 32});
  runShuffle(Device, getKernel("shuffle"), {OFFLOAD_HOST_SHUFFLE_IDX, 20, 16});
}

TEST_P(CooperativeTest, ShuffleAmongActiveLanesOnly) {
  // Lanes >= 20 exit first: they are not participants.
  runShuffle(Device, getKernel("shuffle"),
             {OFFLOAD_HOST_SHUFFLE_XOR, 8, 32, /*Active=*/20});
  runShuffle(Device, getKernel("shuffle"),
             {OFFLOAD_HOST_SHUFFLE_DOWN, 4, 32, /*Active=*/20});
}

TEST_P(CooperativeTest, ShufflePartialWarp) {
  // 48 threads: the second warp has 16 lanes.
  runShuffle(
      Device, getKernel("shuffle"),
      {OFFLOAD_HOST_SHUFFLE_XOR, 8, 32, 32, /*Threads=*/48, /*Blocks=*/3});
  runShuffle(Device, getKernel("shuffle"),
             {OFFLOAD_HOST_SHUFFLE_DOWN, 2, 32, 32, /*Threads=*/48,
              /*Blocks=*/3});
}

TEST_P(CooperativeTest, WarpReduction) {
  const uint32_t Blocks = 6, Threads = 128;
  std::vector<int64_t> In(Blocks * Threads), Out(Blocks * Threads, 0);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = int64_t(I * I % 97) - 40;
  TwoPointers Args{In.data(), Out.data()};
  auto L = launch1D(Blocks, Threads);
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("warp_sum"),
                                     &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (size_t Warp = 0; Warp < In.size() / 32; ++Warp) {
    int64_t Sum = 0;
    for (size_t I = 0; I < 32; ++I)
      Sum += In[Warp * 32 + I];
    for (size_t I = 0; I < 32; ++I)
      ASSERT_EQ(Out[Warp * 32 + I], Sum) << "warp " << Warp << " lane " << I;
  }
}

} // namespace
