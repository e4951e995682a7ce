//===- offloadLaunchKernel.cpp - Conformance tests of offloadLaunchKernel -===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Launches of non-cooperative kernels, geometry and argument validation;
// cooperative kernels (barriers, shuffles) are in ../CooperativeTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <cmath>

using namespace offload_test;

namespace {

using offloadLaunchKernelTest = OffloadProgramTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadLaunchKernelTest);

/// Runs saxpy over \p N elements in blocks of \p Threads on \p Q (or
/// synchronously) and checks y = a*x + y.
void checkSaxpy(offload_device_handle_t Device, offload_device_handle_t Host,
                offload_queue_handle_t Q, offload_symbol_handle_t Saxpy,
                int64_t N, uint32_t Threads) {
  DeviceBuffer<float> X(Device, N), Y(Device, N);
  std::vector<float> HostX(N), HostY(N), Expected(N);
  for (int64_t I = 0; I < N; ++I) {
    HostX[I] = float(I) * 0.5f;
    HostY[I] = float(N - I);
    Expected[I] = 3.0f * HostX[I] + HostY[I];
  }
  ASSERT_SUCCESS(
      offloadMemcpy(Q, X.get(), Device, HostX.data(), Host, X.bytes()));
  ASSERT_SUCCESS(
      offloadMemcpy(Q, Y.get(), Device, HostY.data(), Host, Y.bytes()));
  SaxpyArgs Args{3.0f, X.get(), Y.get(), N};
  auto L = launch1D(uint32_t((N + Threads - 1) / Threads), Threads);
  ASSERT_SUCCESS(
      offloadLaunchKernel(Q, Device, Saxpy, &Args, sizeof(Args), &L));
  // The arguments were copied: changing them now has no effect.
  Args.A = 100.0f;
  std::vector<float> Out(N);
  ASSERT_SUCCESS(
      offloadMemcpy(Q, Out.data(), Host, Y.get(), Device, Y.bytes()));
  if (Q)
    ASSERT_SUCCESS(offloadSyncQueue(Q));
  for (int64_t I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], Expected[I]) << "element " << I;
}

TEST_P(offloadLaunchKernelTest, SuccessOneBlock) {
  checkSaxpy(Device, Host, nullptr, getKernel("saxpy"), 100, 128);
}

TEST_P(offloadLaunchKernelTest, SuccessManyBlocks) {
  // 10007 elements: the last block is partial.
  checkSaxpy(Device, Host, nullptr, getKernel("saxpy"), 10007, 64);
}

TEST_P(offloadLaunchKernelTest, SuccessOnQueue) {
  checkSaxpy(Device, Host, Queue, getKernel("saxpy"), 5000, 256);
}

TEST_P(offloadLaunchKernelTest, SuccessOneThreadPerBlock) {
  checkSaxpy(Device, Host, Queue, getKernel("saxpy"), 3000, 1);
}

TEST_P(offloadLaunchKernelTest, SuccessNoArguments) {
  // ArgumentsData may be null when ArgumentsSize is 0. With 16 threads per
  // block, every thread of `deadlock` takes the same barrier.
  auto L = launch1D(4, 16);
  offload_symbol_handle_t K = getKernel("deadlock");
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, K, nullptr, 0, &L));
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, K, nullptr, 0, &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

/// Every thread of a 3-D grid of 3-D blocks sees its own ids.
TEST_P(offloadLaunchKernelTest, SuccessContextIds) {
  offload_kernel_launch_size_args_t L;
  L.Dimensions = 3;
  L.NumGroups = {3, 2, 4};
  L.GroupSize = {4, 3, 2};
  L.DynSharedMemory = 0;
  const int64_t Blocks = 3 * 2 * 4, Threads = 4 * 3 * 2;
  DeviceBuffer<int64_t> Out(Device, Blocks * Threads * 12,
                            OFFLOAD_ALLOC_TYPE_MANAGED);
  int64_t *OutPtr = Out.get();
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("ids"), &OutPtr,
                                     sizeof(OutPtr), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (int64_t Bz = 0; Bz < 4; ++Bz)
    for (int64_t By = 0; By < 2; ++By)
      for (int64_t Bx = 0; Bx < 3; ++Bx)
        for (int64_t Tz = 0; Tz < 2; ++Tz)
          for (int64_t Ty = 0; Ty < 3; ++Ty)
            for (int64_t Tx = 0; Tx < 4; ++Tx) {
              int64_t Block = Bx + 3 * (By + 2 * Bz);
              int64_t Thread = Tx + 4 * (Ty + 3 * Tz);
              const int64_t *V = &Out[(Block * Threads + Thread) * 12];
              int64_t Expected[12] = {Bx, By, Bz, 4, 3, 2, 3, 2, 4, Tx, Ty, Tz};
              for (int K = 0; K < 12; ++K)
                ASSERT_EQ(V[K], Expected[K]) << "block " << Block << " thread "
                                             << Thread << " field " << K;
            }
}

/// A kernel compiled for one block and grid size (its descriptor's
/// RequiredGroupSize and RequiredNumGroups, e.g. a JIT specialization) runs at
/// those sizes and refuses any other, synchronously or on a queue.
TEST_P(offloadLaunchKernelTest, KnownSizesAreEnforced) {
  offload_symbol_handle_t K = getKernel("ids_fixed");
  offload_kernel_launch_size_args_t L;
  L.Dimensions = 2;
  L.NumGroups = {3, 1, 1};
  L.GroupSize = {4, 2, 1};
  L.DynSharedMemory = 0;
  DeviceBuffer<int64_t> Out(Device, 3 * 8 * 12, OFFLOAD_ALLOC_TYPE_MANAGED);
  int64_t *OutPtr = Out.get();
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Device, K, &OutPtr, sizeof(OutPtr), &L));
  EXPECT_EQ(Out[(2 * 8 + 7) * 12 + 0], 2);  // last thread's block id x
  EXPECT_EQ(Out[(2 * 8 + 7) * 12 + 10], 1); // its thread id y

  L.GroupSize = {8, 1, 1}; // as many threads, another shape
  for (offload_queue_handle_t Q : {offload_queue_handle_t(nullptr), Queue})
    ASSERT_ERROR_MSG(
        OFFLOAD_ERRC_INVALID_ARGUMENT,
        "kernel ids_fixed was compiled for blocks of 4x2x1 but "
        "is launched with 8x1x1",
        offloadLaunchKernel(Q, Device, K, &OutPtr, sizeof(OutPtr), &L));
  L.GroupSize = {4, 2, 1};
  L.NumGroups = {1, 3, 1};
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ARGUMENT,
      "kernel ids_fixed was compiled for a grid of 3x1x1 but is "
      "launched with 1x3x1",
      offloadLaunchKernel(Queue, Device, K, &OutPtr, sizeof(OutPtr), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_P(offloadLaunchKernelTest, SuccessLargeGrid) {
  // Many more blocks than workers.
  const uint32_t Blocks = 20000;
  DeviceBuffer<int64_t> Out(Device, size_t(Blocks) * 12,
                            OFFLOAD_ALLOC_TYPE_MANAGED);
  int64_t *OutPtr = Out.get();
  auto L = launch1D(Blocks, 1);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("ids"), &OutPtr,
                                     sizeof(OutPtr), &L));
  for (uint32_t B = 0; B < Blocks; ++B) {
    ASSERT_EQ(Out[B * 12 + 0], B);
    ASSERT_EQ(Out[B * 12 + 6], Blocks);
  }
}

TEST_P(offloadLaunchKernelTest, SuccessSharedMemoryIsAligned) {
  const uint32_t Blocks = 16;
  DeviceBuffer<int64_t> Out(Device, Blocks * 2, OFFLOAD_ALLOC_TYPE_MANAGED);
  int64_t *OutPtr = Out.get();
  auto L = launch1D(Blocks, 8, /*DynShared=*/200);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("alignment"),
                                     &OutPtr, sizeof(OutPtr), &L));
  for (uint32_t I = 0; I < Blocks * 2; ++I)
    EXPECT_EQ(Out[I], 0) << "slot " << I;
}

TEST_P(offloadLaunchKernelTest, SuccessCallsIntoLibm) {
  const int64_t N = 257;
  std::vector<float> X(N), Y(N, 0.0f);
  for (int64_t I = 0; I < N; ++I)
    X[I] = float(I) / 64.0f - 2.0f;
  struct {
    float *X;
    float *Y;
    int64_t N;
  } Args{X.data(), Y.data(), N};
  auto L = launch1D(3, 128);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("expf"), &Args,
                                     sizeof(Args), &L));
  for (int64_t I = 0; I < N; ++I)
    ASSERT_EQ(Y[I], std::exp(X[I])) << "element " << I;
}

TEST_P(offloadLaunchKernelTest, SuccessReadsGlobalVariable) {
  int32_t Out = 0;
  int32_t *OutPtr = &Out;
  auto L = launch1D(1, 1);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("read_global"),
                                     &OutPtr, sizeof(OutPtr), &L));
  EXPECT_EQ(Out, 42);
}

TEST_P(offloadLaunchKernelTest, SuccessThreadCountOverride) {
  // Re-initialize with 1 and then 3 block workers.
  for (const char *Threads : {"1", "3"}) {
    ASSERT_SUCCESS(offloadDestroyProgram(Program));
    Program = nullptr;
    ASSERT_SUCCESS(offloadDestroyQueue(Queue));
    Queue = nullptr;
    ASSERT_SUCCESS(offloadShutDown());
    Initialized = false;
    ScopedEnv Env("OFFLOAD_HOST_THREADS", Threads);
    SetUp();
    ASSERT_FALSE(HasFatalFailure());
    checkSaxpy(Device, Host, Queue, getKernel("saxpy"), 4099, 32);
  }
}

TEST_P(offloadLaunchKernelTest, ErrorBarrierInNonCooperativeKernel) {
  auto L = launch1D(2, 4);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "OFFLOAD_HOST_KERNEL_COOPERATIVE",
      offloadLaunchKernel(nullptr, Device, getKernel("barrier_misuse"), nullptr,
                          0, &L));
}

TEST_P(offloadLaunchKernelTest, InvalidNullKernel) {
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Kernel is null",
      offloadLaunchKernel(nullptr, Device, nullptr, &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidKernel) {
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SYMBOL, "Kernel (0x40) is not a live",
                   offloadLaunchKernel(nullptr, Device,
                                       garbageHandle<offload_symbol_handle_t>(),
                                       &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidNullDevice) {
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadLaunchKernel(nullptr, nullptr, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidQueue) {
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x40) is not a live",
                   offloadLaunchKernel(garbageHandle<offload_queue_handle_t>(),
                                       Device, getKernel("saxpy"), &Args,
                                       sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, ErrorSymbolKindGlobalVariable) {
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_SYMBOL_KIND,
                   "Kernel ('offload_test_global') is a global variable, not "
                   "a kernel",
                   offloadLaunchKernel(nullptr, Device,
                                       getGlobal("offload_test_global"),
                                       nullptr, 0, &L));
}

TEST_P(offloadLaunchKernelTest, InvalidGeometry) {
  SaxpyArgs Args{};
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  auto Launch = [&](offload_kernel_launch_size_args_t L) {
    return offloadLaunchKernel(nullptr, Device, Saxpy, &Args, sizeof(Args), &L);
  };
  auto L = launch1D(0, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "LaunchSizeArgs->NumGroups.x is zero", Launch(L));
  L = launch1D(1, 1);
  L.GroupSize.y = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "LaunchSizeArgs->GroupSize.y is zero", Launch(L));
  L = launch1D(1, 1025);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "GroupSize.x (1025) exceeds the device's maximum of 1024",
                   Launch(L));
  L = launch1D(1, 64);
  L.GroupSize.y = 32;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "a block of 2048 threads exceeds the device's maximum",
                   Launch(L));
  L = launch1D(1, 1);
  L.GroupSize.z = 65;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "GroupSize.z (65)", Launch(L));
}

TEST_P(offloadLaunchKernelTest, InvalidGridThreadsPerDimension) {
  // 2^22 blocks of 1024 threads: 2^32 threads in x.
  SaxpyArgs Args{};
  auto Max = getDeviceInfo<offload_dimensions_t>(
      Device, OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION);
  ASSERT_LT(Max.x, UINT32_MAX) << "the host's limits are not saturated";
  auto L = launch1D(1u << 22, 1024);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE,
      "kernel 'saxpy': a grid of 4194304 blocks of 1024 threads in x "
      "(4294967296 threads) exceeds the device's maximum of " +
          std::to_string(Max.x) + " threads in x",
      offloadLaunchKernel(nullptr, Device, getKernel("saxpy"), &Args,
                          sizeof(Args), &L));
  L = launch1D(1, 1);
  L.Dimensions = 2;
  L.NumGroups.y = Max.y / 2 + 1;
  L.GroupSize.y = 2;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "threads in y",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidGridThreadsInTotal) {
  SaxpyArgs Args{};
  uint32_t Max =
      getDeviceInfo<uint32_t>(Device, OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE);
  ASSERT_LT(Max, UINT32_MAX) << "the host's limits are not saturated";
  offload_kernel_launch_size_args_t L = launch1D(1, 1);
  L.Dimensions = 2;
  // (2^32 - 1)^2 blocks would run for ever.
  L.NumGroups = {UINT32_MAX, UINT32_MAX, 1};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "kernel 'saxpy': a grid of",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
  // 2^16 x 2^16 blocks fit each dimension; in total they are over the limit.
  L.NumGroups = {65536, 65536, 1};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "kernel 'saxpy': a grid of 65536x65536x1 blocks of 1 "
                   "threads (4294967296 threads) exceeds the device's "
                   "maximum of " +
                       std::to_string(Max) + " threads per launch",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
  L.Dimensions = 3;
  L.NumGroups = {65536, 65536, 65536};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "(281474976710656 threads)",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidSharedMemoryAboveTheDevice) {
  SaxpyArgs Args{};
  uint64_t Local = getDeviceInfo<uint64_t>(
      Device, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
  // The limit is one the device meets: all of it, dynamically.
  auto L = launch1D(2, 32, Local);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("saxpy"), &Args,
                                     sizeof(Args), &L));
  L = launch1D(1, 32, Local + 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "kernel 'saxpy': 0 bytes of static and " +
                       std::to_string(Local + 1) +
                       " bytes of dynamic shared memory",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
  L = launch1D(1, 32, size_t(4) << 30);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "WORK_GROUP_LOCAL_MEM_SIZE",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidStaticPlusDynamicSharedMemory) {
  // `reverse` has 4 KiB of static shared memory; the dynamic part adds to it,
  // and a sum that would wrap to a small buffer is refused too.
  uint64_t Local = getDeviceInfo<uint64_t>(
      Device, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
  DeviceBuffer<int32_t> In(Device, 64), Out(Device, 64);
  TwoPointers Args{In.get(), Out.get()};
  offload_symbol_handle_t Reverse = getKernel("reverse");
  auto L = launch1D(1, 64, Local - 4096);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Device, Reverse, &Args, sizeof(Args), &L));
  for (size_t Dyn : {size_t(Local - 4096 + 1), SIZE_MAX - 4096 + 64,
                     SIZE_MAX - 4096 + 1, SIZE_MAX}) {
    L = launch1D(1, 64, Dyn);
    ASSERT_ERROR_MSG(
        OFFLOAD_ERRC_INVALID_SIZE,
        "kernel 'reverse': 4096 bytes of static and " + std::to_string(Dyn) +
            " bytes of dynamic shared memory",
        offloadLaunchKernel(nullptr, Device, Reverse, &Args, sizeof(Args), &L));
  }
}

TEST_P(offloadLaunchKernelTest, SuccessStaticSharedMemoryCountedExactly) {
  // `alignment` has 100 bytes of static shared memory: the limit counts
  // those 100 bytes, not the 128 the block's buffer pads them to so that the
  // dynamic part is 64-byte aligned (issue 20 item 5).
  uint64_t Local = getDeviceInfo<uint64_t>(
      Device, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
  offload_symbol_handle_t Kernel = getKernel("alignment");
  DeviceBuffer<int64_t> Out(Device, 2, OFFLOAD_ALLOC_TYPE_MANAGED);
  int64_t *OutPtr = Out.get();
  auto L = launch1D(1, 8, Local - 100);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, Kernel, &OutPtr,
                                     sizeof(OutPtr), &L));
  EXPECT_EQ(Out[0], 0);
  EXPECT_EQ(Out[1], 0);
  L = launch1D(1, 8, Local - 99);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "kernel 'alignment': 100 bytes of static and " +
                       std::to_string(Local - 99) +
                       " bytes of dynamic shared memory",
                   offloadLaunchKernel(nullptr, Device, Kernel, &OutPtr,
                                       sizeof(OutPtr), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidDimensions) {
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  L.Dimensions = 4;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "LaunchSizeArgs->Dimensions (4) must be 1, 2 or 3",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), &L));
}

TEST_P(offloadLaunchKernelTest, InvalidNullLaunchSizeArgs) {
  SaxpyArgs Args{};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "LaunchSizeArgs is null",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       &Args, sizeof(Args), nullptr));
}

TEST_P(offloadLaunchKernelTest, InvalidArgumentsSize) {
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ARGUMENT,
      "ArgumentsSize (16) does not match the size of the "
      "argument buffer of kernel 'saxpy' (32)",
      offloadLaunchKernel(nullptr, Device, getKernel("saxpy"), &Args, 16, &L));
}

TEST_P(offloadLaunchKernelTest, InvalidNullArgumentsData) {
  // liboffload 22: ArgumentsSize > 0 with null ArgumentsData is
  // INVALID_ARGUMENT.
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "ArgumentsData is null but ArgumentsSize is 32",
                   offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                       nullptr, sizeof(SaxpyArgs), &L));
}

} // namespace
