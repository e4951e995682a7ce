//===- offloadLaunchKernelWithArguments.cpp - Conformance tests -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The launch with one pointer and size per argument (liboffload 23's
// olLaunchKernel form, cuLaunchKernel's kernelParams), packed by the
// kernel's recorded layout.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <memory>
#include <vector>

using namespace offload_test;

namespace {

class offloadLaunchKernelWithArgumentsTest : public OffloadKernelTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadKernelTest::SetUp());
    XBuf = std::make_unique<DeviceBuffer<float>>(Device, N,
                                                 OFFLOAD_ALLOC_TYPE_MANAGED);
    YBuf = std::make_unique<DeviceBuffer<float>>(Device, N,
                                                 OFFLOAD_ALLOC_TYPE_MANAGED);
    XPtr = XBuf->get();
    YPtr = YBuf->get();
    ASSERT_NE(XPtr, nullptr);
    ASSERT_NE(YPtr, nullptr);
    for (int64_t I = 0; I < N; ++I) {
      XPtr[I] = float(I);
      YPtr[I] = 1.0f;
    }
  }
  void TearDown() override {
    XBuf.reset();
    YBuf.reset();
    OffloadKernelTest::TearDown();
  }

  static constexpr int64_t N = 100;
  std::unique_ptr<DeviceBuffer<float>> XBuf, YBuf;
  float A = 2.0f;
  float *XPtr = nullptr, *YPtr = nullptr;
  int64_t Count = N;
  // saxpy's lowered arguments: float A, float *X, float *Y, int64_t N.
  const void *Args[4] = {&A, &XPtr, &YPtr, &Count};
  size_t Sizes[4] = {sizeof(float), sizeof(float *), sizeof(float *),
                     sizeof(int64_t)};
  offload_kernel_launch_size_args_t Launch = launch1D(2, 64);
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadLaunchKernelWithArgumentsTest);

TEST_P(offloadLaunchKernelWithArgumentsTest, SuccessOnQueue) {
  ASSERT_SUCCESS(offloadLaunchKernelWithArguments(
      Queue, Device, Kernel, 4, Args, Sizes, &Launch, nullptr));
  // The values were read by the call: changing them now changes nothing.
  A = 100.0f;
  Count = 0;
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (int64_t I = 0; I < N; ++I)
    ASSERT_EQ(YPtr[I], 2.0f * float(I) + 1.0f) << "element " << I;
}

TEST_P(offloadLaunchKernelWithArgumentsTest, SuccessSynchronous) {
  ASSERT_SUCCESS(offloadLaunchKernelWithArguments(
      nullptr, Device, Kernel, 4, Args, Sizes, &Launch, nullptr));
  for (int64_t I = 0; I < N; ++I)
    ASSERT_EQ(YPtr[I], 2.0f * float(I) + 1.0f) << "element " << I;
}

TEST_P(offloadLaunchKernelWithArgumentsTest, SuccessSameAsPacked) {
  // The packed launch of the same values gives the same result.
  SaxpyArgs Packed{A, XPtr, YPtr, Count};
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, Kernel, &Packed,
                                     sizeof(Packed), &Launch));
  std::vector<float> AfterPacked(YPtr, YPtr + N);
  for (int64_t I = 0; I < N; ++I)
    YPtr[I] = 1.0f;
  ASSERT_SUCCESS(offloadLaunchKernelWithArguments(
      nullptr, Device, Kernel, 4, Args, Sizes, &Launch, nullptr));
  EXPECT_EQ(std::vector<float>(YPtr, YPtr + N), AfterPacked);
}

TEST_P(offloadLaunchKernelWithArgumentsTest, SuccessCooperative) {
  offload_symbol_handle_t Grid = getKernel("grid_arrive_wait");
  uint32_t Max = 0;
  offload_kernel_launch_size_args_t L = launch1D(1, 8);
  ASSERT_SUCCESS(
      offloadGetKernelMaxCooperativeGroupCount(Device, Grid, &L, &Max));
  DeviceBuffer<int64_t> Counter(Device, 1), Seen(Device, Max);
  Counter[0] = 0;
  int64_t *CounterPtr = Counter.get(), *SeenPtr = Seen.get();
  const void *GridArgs[] = {&CounterPtr, &SeenPtr};
  size_t GridSizes[] = {8, 8};
  bool True = true;
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  L = launch1D(Max, 8);
  ASSERT_SUCCESS(offloadLaunchKernelWithArguments(
      Queue, Device, Grid, 2, GridArgs, GridSizes, &L, Props));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (uint32_t I = 0; I < Max; ++I)
    EXPECT_EQ(Seen[I], Max) << "block " << I;
}

TEST_P(offloadLaunchKernelWithArgumentsTest, InvalidNumArguments) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "NumArguments (3) is not the number of arguments of kernel "
                   "'saxpy' (4)",
                   offloadLaunchKernelWithArguments(Queue, Device, Kernel, 3,
                                                    Args, Sizes, &Launch,
                                                    nullptr));
}

TEST_P(offloadLaunchKernelWithArgumentsTest, InvalidArgumentSize) {
  Sizes[0] = sizeof(double);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "ArgumentSizes[0] (8) is not the size of argument 0 of "
                   "kernel 'saxpy' (4 bytes)",
                   offloadLaunchKernelWithArguments(Queue, Device, Kernel, 4,
                                                    Args, Sizes, &Launch,
                                                    nullptr));
}

TEST_P(offloadLaunchKernelWithArgumentsTest, InvalidNullArrays) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Arguments is null",
                   offloadLaunchKernelWithArguments(Queue, Device, Kernel, 4,
                                                    nullptr, Sizes, &Launch,
                                                    nullptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "ArgumentSizes is null",
                   offloadLaunchKernelWithArguments(Queue, Device, Kernel, 4,
                                                    Args, nullptr, &Launch,
                                                    nullptr));
  Args[2] = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Arguments[2] is null",
                   offloadLaunchKernelWithArguments(Queue, Device, Kernel, 4,
                                                    Args, Sizes, &Launch,
                                                    nullptr));
}

TEST_P(offloadLaunchKernelWithArgumentsTest, UnsupportedWithoutLayout) {
  // "ids" records no argument layout.
  offload_symbol_handle_t Ids = getKernel("ids");
  void *Out = nullptr;
  const void *IdsArgs[] = {&Out};
  size_t IdsSizes[] = {sizeof(Out)};
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_UNSUPPORTED, "cannot pack the arguments of kernel 'ids'",
      offloadLaunchKernelWithArguments(Queue, Device, Ids, 1, IdsArgs, IdsSizes,
                                       &Launch, nullptr));
}

TEST_P(offloadLaunchKernelWithArgumentsTest, InvalidGlobal) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_SYMBOL_KIND, "is a global variable",
                   offloadLaunchKernelWithArguments(
                       Queue, Device, getGlobal("offload_test_global"), 4, Args,
                       Sizes, &Launch, nullptr));
}

TEST_P(offloadLaunchKernelWithArgumentsTest, InvalidLaunchSize) {
  Launch.GroupSize.x = 0;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadLaunchKernelWithArguments(Queue, Device, Kernel, 4, Args,
                                                Sizes, &Launch, nullptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "LaunchSizeArgs is null",
                   offloadLaunchKernelWithArguments(Queue, Device, Kernel, 4,
                                                    Args, Sizes, nullptr,
                                                    nullptr));
}

} // namespace
