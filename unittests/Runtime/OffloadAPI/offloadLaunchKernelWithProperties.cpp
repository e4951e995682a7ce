//===- offloadLaunchKernelWithProperties.cpp - Conformance tests ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// liboffload 23's launch properties: cooperative launches, whose blocks all
// run at once (the grid_arrive_wait kernel: every block waits until every
// block of the grid arrived).
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <vector>

using namespace offload_test;

namespace {

class offloadLaunchKernelWithPropertiesTest : public OffloadProgramTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadProgramTest::SetUp());
    Kernel = getKernel("grid_arrive_wait");
    ASSERT_NE(Kernel, nullptr);
    offload_kernel_launch_size_args_t One = launch1D(1, 1);
    ASSERT_SUCCESS(
        offloadGetKernelMaxCooperativeGroupCount(Device, Kernel, &One, &Max));
    ASSERT_GT(Max, 0u);
  }

  /// Launches grid_arrive_wait over \p Blocks blocks of \p Threads threads
  /// with \p Props; returns the counts each block saw.
  std::vector<int64_t> arriveAndWait(uint32_t Blocks, uint32_t Threads,
                                     const offload_kernel_launch_prop_t *Props,
                                     offload_queue_handle_t Q) {
    DeviceBuffer<int64_t> Counter(Device, 1), Seen(Device, Blocks);
    Counter[0] = 0;
    for (uint32_t I = 0; I < Blocks; ++I)
      Seen[I] = -1;
    struct {
      int64_t *Counter;
      int64_t *Seen;
    } Args{Counter.get(), Seen.get()};
    offload_kernel_launch_size_args_t L = launch1D(Blocks, Threads);
    offload_result_t R = offloadLaunchKernelWithProperties(
        Q, Device, Kernel, &Args, sizeof(Args), &L, Props);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    if (Q)
      EXPECT_SUCCESS(offloadSyncQueue(Q));
    return std::vector<int64_t>(Seen.get(), Seen.get() + Blocks);
  }

  offload_symbol_handle_t Kernel = nullptr;
  uint32_t Max = 0;
  bool True = true, False = false;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadLaunchKernelWithPropertiesTest);

TEST_P(offloadLaunchKernelWithPropertiesTest,
       SuccessCooperativeGridRunsAtOnce) {
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  // The largest cooperative grid, on a queue and synchronously: every block
  // saw every other arrive.
  EXPECT_EQ(arriveAndWait(Max, 32, Props, Queue),
            std::vector<int64_t>(Max, Max));
  EXPECT_EQ(arriveAndWait(Max, 1, Props, nullptr),
            std::vector<int64_t>(Max, Max));
  uint32_t Two = std::min(Max, 2u);
  EXPECT_EQ(arriveAndWait(Two, 64, Props, nullptr),
            std::vector<int64_t>(Two, Two));
}

TEST_P(offloadLaunchKernelWithPropertiesTest, SuccessTwoDimensionalGrid) {
  // The blocks along y (and a 2x(Max/2) grid where Max is even) count too.
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  offload_dimensions_t Grids[] = {
      {1, Max, 1}, {Max % 2 ? 1u : 2u, Max % 2 ? Max : Max / 2, 1}};
  for (const offload_dimensions_t &G : Grids) {
    DeviceBuffer<int64_t> Counter(Device, 1), Seen(Device, Max);
    Counter[0] = 0;
    struct {
      int64_t *Counter;
      int64_t *Seen;
    } Args{Counter.get(), Seen.get()};
    offload_kernel_launch_size_args_t L = launch1D(1, 8);
    L.Dimensions = 2;
    L.NumGroups = G;
    ASSERT_SUCCESS(offloadLaunchKernelWithProperties(
        nullptr, Device, Kernel, &Args, sizeof(Args), &L, Props));
    for (uint32_t I = 0; I < Max; ++I)
      EXPECT_EQ(Seen[I], int64_t(Max)) << "block " << I;
  }
}

TEST_P(offloadLaunchKernelWithPropertiesTest, SuccessCooperativeFiberKernel) {
  // A kernel whose threads use barriers (fibers) in a cooperative grid.
  offload_symbol_handle_t Coop = getKernel("count_blocks_cooperative");
  ASSERT_NE(Coop, nullptr);
  DeviceBuffer<int64_t> Counts(Device, Max);
  for (uint32_t I = 0; I < Max; ++I)
    Counts[I] = 0;
  int64_t *Ptr = Counts.get();
  offload_kernel_launch_size_args_t L = launch1D(Max, 16);
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  ASSERT_SUCCESS(offloadLaunchKernelWithProperties(Queue, Device, Coop, &Ptr,
                                                   sizeof(Ptr), &L, Props));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (uint32_t I = 0; I < Max; ++I)
    EXPECT_EQ(Counts[I], 32) << "block " << I;
}

TEST_P(offloadLaunchKernelWithPropertiesTest, SuccessNoPropertiesIsALaunch) {
  // Null, an empty list and IS_COOPERATIVE false are ordinary launches (one
  // block here, which sees itself arrive).
  offload_kernel_launch_prop_t Empty[] = {OFFLOAD_KERNEL_LAUNCH_PROP_END};
  offload_kernel_launch_prop_t NotCoop[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &False},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  EXPECT_EQ(arriveAndWait(1, 4, nullptr, Queue), std::vector<int64_t>{1});
  EXPECT_EQ(arriveAndWait(1, 4, Empty, nullptr), std::vector<int64_t>{1});
  EXPECT_EQ(arriveAndWait(1, 4, NotCoop, Queue), std::vector<int64_t>{1});
}

TEST_P(offloadLaunchKernelWithPropertiesTest, SuccessLastValueCounts) {
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &False},
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  EXPECT_EQ(arriveAndWait(Max, 2, Props, Queue),
            std::vector<int64_t>(Max, Max));
}

TEST_P(offloadLaunchKernelWithPropertiesTest, InvalidTooManyGroups) {
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  DeviceBuffer<int64_t> Counter(Device, 1), Seen(Device, Max + 1);
  struct {
    int64_t *Counter;
    int64_t *Seen;
  } Args{Counter.get(), Seen.get()};
  offload_kernel_launch_size_args_t L = launch1D(Max + 1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "blocks that run at once",
                   offloadLaunchKernelWithProperties(
                       Queue, Device, Kernel, &Args, sizeof(Args), &L, Props));
  L = launch1D(Max, 1);
  L.Dimensions = 2;
  L.NumGroups.y = 2;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadLaunchKernelWithProperties(nullptr, Device, Kernel, &Args,
                                                 sizeof(Args), &L, Props));
}

TEST_P(offloadLaunchKernelWithPropertiesTest, InvalidPropertyType) {
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &False},
      {static_cast<offload_kernel_launch_prop_type_t>(99), &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  int64_t Dummy[2];
  struct {
    int64_t *Counter;
    int64_t *Seen;
  } Args{&Dummy[0], &Dummy[1]};
  offload_kernel_launch_size_args_t L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "Properties[1].Type (99) is not a valid enumerator",
                   offloadLaunchKernelWithProperties(
                       Queue, Device, Kernel, &Args, sizeof(Args), &L, Props));
}

TEST_P(offloadLaunchKernelWithPropertiesTest, InvalidNullPropertyData) {
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, nullptr},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  int64_t Dummy[2];
  struct {
    int64_t *Counter;
    int64_t *Seen;
  } Args{&Dummy[0], &Dummy[1]};
  offload_kernel_launch_size_args_t L = launch1D(1, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER,
      "Properties[0].Data (IS_COOPERATIVE, a const bool *) is null",
      offloadLaunchKernelWithProperties(Queue, Device, Kernel, &Args,
                                        sizeof(Args), &L, Props));
}

TEST_P(offloadLaunchKernelWithPropertiesTest, InvalidArgumentsSize) {
  // offloadLaunchKernel's checks apply.
  int64_t Dummy[2];
  offload_kernel_launch_size_args_t L = launch1D(1, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "ArgumentsSize (8)",
                   offloadLaunchKernelWithProperties(Queue, Device, Kernel,
                                                     Dummy, 8, &L, nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadLaunchKernelWithProperties(Queue, Device, nullptr, Dummy,
                                                 16, &L, nullptr));
}

} // namespace
