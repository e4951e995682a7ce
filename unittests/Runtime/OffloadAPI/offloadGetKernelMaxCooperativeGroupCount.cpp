//===- offloadGetKernelMaxCooperativeGroupCount.cpp - Conformance tests ---===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// liboffload 23's olGetKernelMaxCooperativeGroupCount and device info
// COOPERATIVE_LAUNCH_SUPPORT.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadCooperativeSupportTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadCooperativeSupportTest);

TEST_P(offloadCooperativeSupportTest, SuccessDeviceInfo) {
  bool Supported = getDeviceInfo<bool>(
      Device, OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT);
  // The host runs each block of a cooperative grid on a thread of its own;
  // CUDA devices say what the driver says (CU_DEVICE_ATTRIBUTE_COOPERATIVE_
  // LAUNCH; GPUDriverTest.CooperativeLaunch checks the fake's); the HIP
  // plugin does not launch cooperatively yet.
  if (Backend == OFFLOAD_PLATFORM_BACKEND_HOST)
    EXPECT_TRUE(Supported);
  if (Backend == OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    EXPECT_FALSE(Supported);
}

class offloadGetKernelMaxCooperativeGroupCountTest : public OffloadKernelTest {
protected:
  offload_kernel_launch_size_args_t Launch = launch1D(7, 64);
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetKernelMaxCooperativeGroupCountTest);

TEST_P(offloadGetKernelMaxCooperativeGroupCountTest, SuccessOneBlockPerThread) {
  uint32_t Count = 0;
  ASSERT_SUCCESS(offloadGetKernelMaxCooperativeGroupCount(Device, Kernel,
                                                          &Launch, &Count));
  // Without OFFLOAD_HOST_THREADS the host runs a block per hardware thread.
  if (!std::getenv("OFFLOAD_HOST_THREADS"))
    EXPECT_EQ(Count, getDeviceInfo<uint32_t>(
                         Device, OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS));
  EXPECT_GT(Count, 0u);
  // The grid of LaunchSizeArgs does not matter, nor does the block size.
  uint32_t Again = 0;
  Launch = launch1D(1, 1024);
  ASSERT_SUCCESS(offloadGetKernelMaxCooperativeGroupCount(Device, Kernel,
                                                          &Launch, &Again));
  EXPECT_EQ(Again, Count);
}

TEST_P(offloadGetKernelMaxCooperativeGroupCountTest, InvalidBlockSize) {
  uint32_t Count = 0;
  Launch.GroupSize.x = 0;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadGetKernelMaxCooperativeGroupCount(Device, Kernel, &Launch,
                                                        &Count));
  Launch.GroupSize.x = 4096;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadGetKernelMaxCooperativeGroupCount(Device, Kernel, &Launch,
                                                        &Count));
}

TEST_P(offloadGetKernelMaxCooperativeGroupCountTest, InvalidGlobal) {
  offload_symbol_handle_t Global = getGlobal("offload_test_global");
  uint32_t Count = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_SYMBOL_KIND, "is a global variable",
                   offloadGetKernelMaxCooperativeGroupCount(Device, Global,
                                                            &Launch, &Count));
}

TEST_P(offloadGetKernelMaxCooperativeGroupCountTest, InvalidNullHandles) {
  uint32_t Count = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadGetKernelMaxCooperativeGroupCount(nullptr, Kernel,
                                                            &Launch, &Count));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Kernel is null",
                   offloadGetKernelMaxCooperativeGroupCount(Device, nullptr,
                                                            &Launch, &Count));
}

TEST_P(offloadGetKernelMaxCooperativeGroupCountTest, InvalidNullPointers) {
  uint32_t Count = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "LaunchSizeArgs is null",
                   offloadGetKernelMaxCooperativeGroupCount(Device, Kernel,
                                                            nullptr, &Count));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "GroupCountRet is null",
                   offloadGetKernelMaxCooperativeGroupCount(Device, Kernel,
                                                            &Launch, nullptr));
}

/// OFFLOAD_HOST_THREADS sets how many blocks run at once; a process-wide
/// setting read when the runtime is initialized, so the test initializes it
/// itself.
TEST(offloadGetKernelMaxCooperativeGroupCountHostTest, SuccessHostThreads) {
  ScopedEnv Threads("OFFLOAD_HOST_THREADS", "5");
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  offload_program_handle_t Program = nullptr;
  offload_symbol_handle_t Kernel = nullptr;
  const std::string &Object = getTestKernels();
  EXPECT_SUCCESS(offloadGetHostDevice(&Host));
  EXPECT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  EXPECT_SUCCESS(offloadGetSymbol(Program, "grid_arrive_wait",
                                  OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel));
  uint32_t Count = 0;
  offload_kernel_launch_size_args_t L = launch1D(1, 32);
  EXPECT_SUCCESS(
      offloadGetKernelMaxCooperativeGroupCount(Host, Kernel, &L, &Count));
  EXPECT_EQ(Count, 5u);
  {
    // A cooperative grid of all 5 blocks: each sees all 5 arrive.
    DeviceBuffer<int64_t> Counter(Host, 1), Seen(Host, 5);
    Counter[0] = 0;
    struct {
      int64_t *Counter;
      int64_t *Seen;
    } Args{Counter.get(), Seen.get()};
    bool True = true;
    offload_kernel_launch_prop_t Props[] = {
        {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
        OFFLOAD_KERNEL_LAUNCH_PROP_END};
    L = launch1D(5, 32);
    EXPECT_SUCCESS(offloadLaunchKernelWithProperties(
        nullptr, Host, Kernel, &Args, sizeof(Args), &L, Props));
    for (int I = 0; I < 5; ++I)
      EXPECT_EQ(Seen[I], 5) << "block " << I;
    L = launch1D(6, 32);
    offload_result_t R = offloadLaunchKernelWithProperties(
        nullptr, Host, Kernel, &Args, sizeof(Args), &L, Props);
    EXPECT_EQ(R ? R->Code : OFFLOAD_ERRC_SUCCESS, OFFLOAD_ERRC_INVALID_SIZE)
        << describe(R);
  }
  EXPECT_SUCCESS(offloadDestroyProgram(Program));
  EXPECT_SUCCESS(offloadShutDown());
}

} // namespace
