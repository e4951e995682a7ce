//===- offloadMemAlloc.cpp - Conformance tests of offloadMemAlloc ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadMemAllocTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemAllocTest);

void checkAlloc(offload_device_handle_t Device, offload_alloc_type_t Type) {
  for (size_t Size : {size_t(1), size_t(63), size_t(64), size_t(1 << 20)}) {
    void *Ptr = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Device, Type, Size, &Ptr));
    ASSERT_NE(Ptr, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % 64, 0u) << Size;
    ASSERT_SUCCESS(offloadMemFree(Ptr));
  }
}

TEST_P(offloadMemAllocTest, SuccessAllocHost) {
  checkAlloc(Device, OFFLOAD_ALLOC_TYPE_HOST);
}

TEST_P(offloadMemAllocTest, SuccessAllocDevice) {
  checkAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE);
}

TEST_P(offloadMemAllocTest, SuccessAllocManaged) {
  checkAlloc(Device, OFFLOAD_ALLOC_TYPE_MANAGED);
}

TEST_P(offloadMemAllocTest, SuccessDistinctAddresses) {
  std::vector<void *> Ptrs(64);
  for (void *&P : Ptrs)
    ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 100, &P));
  std::vector<void *> Sorted = Ptrs;
  std::sort(Sorted.begin(), Sorted.end());
  for (size_t I = 1; I < Sorted.size(); ++I)
    EXPECT_GE(static_cast<char *>(Sorted[I]) -
                  static_cast<char *>(Sorted[I - 1]),
              100);
  for (void *P : Ptrs)
    ASSERT_SUCCESS(offloadMemFree(P));
}

TEST_P(offloadMemAllocTest, SuccessHostAllocationIsHostAccessible) {
  if (!isHost())
    GTEST_SKIP() << "host device only";
  void *Ptr = nullptr;
  ASSERT_SUCCESS(
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_MANAGED, 256, &Ptr));
  std::memset(Ptr, 0x5a, 256);
  EXPECT_EQ(static_cast<unsigned char *>(Ptr)[255], 0x5a);
  ASSERT_SUCCESS(offloadMemFree(Ptr));
}

TEST_P(offloadMemAllocTest, InvalidSizeZero) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 0, &Ptr));
}

TEST_P(offloadMemAllocTest, InvalidNullDevice) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
      offloadMemAlloc(nullptr, OFFLOAD_ALLOC_TYPE_DEVICE, 8, &Ptr));
}

TEST_P(offloadMemAllocTest, InvalidDevice) {
  void *Ptr = nullptr;
  auto Garbage = garbageHandle<offload_device_handle_t>();
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
      offloadMemAlloc(Garbage, OFFLOAD_ALLOC_TYPE_DEVICE, 8, &Ptr));
}

TEST_P(offloadMemAllocTest, InvalidNullAllocationOut) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "AllocationOut is null",
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 8, nullptr));
}

TEST_P(offloadMemAllocTest, InvalidEnumerationType) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION, "Type (3) is not a valid enumerator",
      offloadMemAlloc(Device, static_cast<offload_alloc_type_t>(3), 8, &Ptr));
}

TEST_P(offloadMemAllocTest, ErrorOutOfResources) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                   "exceeds the largest allocation the device allows",
                   offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                   size_t(1) << 62, &Ptr));
}

TEST_P(offloadMemAllocTest, ErrorSizeNearSizeMaxDoesNotWrap) {
  // Rounded up to the alignment, these sizes would wrap to a tiny block.
  for (size_t Size : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 63, SIZE_MAX - 64}) {
    void *Ptr = nullptr;
    ASSERT_ERROR_MSG(
        OFFLOAD_ERRC_OUT_OF_RESOURCES, "MAX_MEM_ALLOC_SIZE",
        offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, Size, &Ptr));
    EXPECT_EQ(Ptr, nullptr) << Size;
  }
}

TEST_P(offloadMemAllocTest, ErrorAboveMaxMemAllocSize) {
  uint64_t Max =
      getDeviceInfo<uint64_t>(Device, OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE);
  ASSERT_GT(Max, 0u);
  ASSERT_LT(Max, uint64_t(SIZE_MAX));
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                   "Size (" + std::to_string(Max + 1) + " bytes) exceeds",
                   offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                   size_t(Max + 1), &Ptr));
}

TEST(offloadMemAllocNoValidationTest, ErrorSizeMaxDoesNotWrap) {
  // The size check keeps the runtime from wrapping: it applies without
  // validation too.
  ScopedEnv Env("OFFLOAD_DISABLE_VALIDATION", "1");
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  void *Ptr = nullptr;
  offload_result_t R =
      offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, SIZE_MAX, &Ptr);
  EXPECT_NE(R, OFFLOAD_SUCCESS);
  if (R)
    EXPECT_EQ(R->Code, OFFLOAD_ERRC_OUT_OF_RESOURCES) << describe(R);
  else
    EXPECT_SUCCESS(offloadMemFree(Ptr));
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
