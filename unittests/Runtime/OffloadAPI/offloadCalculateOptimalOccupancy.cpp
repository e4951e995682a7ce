//===- offloadCalculateOptimalOccupancy.cpp - Conformance tests -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadCalculateOptimalOccupancyTest : public OffloadKernelTest {
protected:
  uint32_t maxGroupSize() {
    return getDeviceInfo<uint32_t>(Device,
                                   OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
  }
  uint64_t localMemory() {
    return getDeviceInfo<uint64_t>(
        Device, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadCalculateOptimalOccupancyTest);

TEST_P(offloadCalculateOptimalOccupancyTest, SuccessNoSharedMemory) {
  size_t GroupSize = 0;
  ASSERT_SUCCESS(
      offloadCalculateOptimalOccupancy(Device, Kernel, 0, &GroupSize));
  EXPECT_GE(GroupSize, 1u);
  EXPECT_LE(GroupSize, maxGroupSize());
  EXPECT_EQ(GroupSize % 32, 0u);
}

TEST_P(offloadCalculateOptimalOccupancyTest, SuccessLimitedBySharedMemory) {
  // 1 KiB per thread: the block is limited by the shared memory.
  size_t GroupSize = 0;
  ASSERT_SUCCESS(
      offloadCalculateOptimalOccupancy(Device, Kernel, 1024, &GroupSize));
  EXPECT_GE(GroupSize, 1u);
  EXPECT_LE(GroupSize * 1024, localMemory());
  if (isHost())
    EXPECT_EQ(GroupSize, 64u);
}

TEST_P(offloadCalculateOptimalOccupancyTest, SuccessFewerThanASubgroup) {
  // A quarter of the shared memory per thread: fewer than 32 threads fit.
  size_t GroupSize = 0;
  ASSERT_SUCCESS(offloadCalculateOptimalOccupancy(
      Device, Kernel, localMemory() / 4, &GroupSize));
  EXPECT_EQ(GroupSize, 4u);
}

TEST_P(offloadCalculateOptimalOccupancyTest, SuccessStaticSharedMemory) {
  // `reverse` has 4 KiB of static shared memory: 60 KiB left, 60 threads of
  // 1 KiB, rounded down to 32.
  if (!isHost())
    GTEST_SKIP() << "host device only";
  size_t GroupSize = 0;
  ASSERT_SUCCESS(offloadCalculateOptimalOccupancy(Device, getKernel("reverse"),
                                                  1024, &GroupSize));
  EXPECT_EQ(GroupSize, 32u);
}

TEST_P(offloadCalculateOptimalOccupancyTest,
       SuccessStaticSharedMemoryCountedExactly) {
  // `alignment` has 100 bytes of static shared memory: one thread with all
  // the rest fits (the launch's limit counts the same 100 bytes).
  if (!isHost())
    GTEST_SKIP() << "host device only";
  size_t GroupSize = 0;
  ASSERT_SUCCESS(offloadCalculateOptimalOccupancy(
      Device, getKernel("alignment"), localMemory() - 100, &GroupSize));
  EXPECT_EQ(GroupSize, 1u);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_OUT_OF_RESOURCES, "(100 bytes are static)",
      offloadCalculateOptimalOccupancy(Device, getKernel("alignment"),
                                       localMemory() - 99, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, ErrorOutOfResources) {
  size_t GroupSize = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                   "does not fit in the 65536 bytes of shared memory per "
                   "block that kernel 'saxpy' leaves",
                   offloadCalculateOptimalOccupancy(
                       Device, Kernel, localMemory() + 1, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, ErrorSymbolKind) {
  size_t GroupSize = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_SYMBOL_KIND,
      "Kernel ('offload_test_global') is a global variable",
      offloadCalculateOptimalOccupancy(Device, getGlobal("offload_test_global"),
                                       0, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, InvalidNullDevice) {
  size_t GroupSize = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
      offloadCalculateOptimalOccupancy(nullptr, Kernel, 0, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, InvalidDevice) {
  size_t GroupSize = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
      offloadCalculateOptimalOccupancy(garbageHandle<offload_device_handle_t>(),
                                       Kernel, 0, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, InvalidNullKernel) {
  size_t GroupSize = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Kernel is null",
      offloadCalculateOptimalOccupancy(Device, nullptr, 0, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, InvalidKernel) {
  size_t GroupSize = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "Kernel (0x40) is not a live",
      offloadCalculateOptimalOccupancy(
          Device, garbageHandle<offload_symbol_handle_t>(), 0, &GroupSize));
}

TEST_P(offloadCalculateOptimalOccupancyTest, InvalidNullGroupSize) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "GroupSize is null",
      offloadCalculateOptimalOccupancy(Device, Kernel, 0, nullptr));
}

} // namespace
