//===- offloadMemAllocAligned.cpp - Conformance tests ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// liboffload 23's olMemAllocAligned: every kind of memory, alignments from
// 8 to 256 and beyond, on every device.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <cstdint>
#include <vector>

using namespace offload_test;

namespace {

using offloadMemAllocAlignedTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemAllocAlignedTest);

constexpr offload_alloc_type_t AllKinds[] = {OFFLOAD_ALLOC_TYPE_HOST,
                                             OFFLOAD_ALLOC_TYPE_DEVICE,
                                             OFFLOAD_ALLOC_TYPE_MANAGED};

/// Copies a pattern into \p Ptr (\p Size bytes of \p Device) and back.
void checkRoundTrip(offload_device_handle_t Device,
                    offload_device_handle_t Host, void *Ptr, size_t Size,
                    uint8_t Seed) {
  std::vector<uint8_t> In(Size), Out(Size, 0);
  for (size_t I = 0; I < Size; ++I)
    In[I] = static_cast<uint8_t>(Seed + I * 7);
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Ptr, Device, In.data(), Host, Size));
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Out.data(), Host, Ptr, Device, Size));
  EXPECT_EQ(In, Out);
}

TEST_P(offloadMemAllocAlignedTest, SuccessEveryKindAndAlignment) {
  // 8..256 as liboffload's tests, then page and larger alignments.
  const size_t Alignments[] = {8,   16,   32,    64,       128,
                               256, 4096, 65536, 1u << 20, 2u << 20};
  constexpr size_t Size = 1000;
  for (offload_alloc_type_t Kind : AllKinds) {
    for (size_t Alignment : Alignments) {
      SCOPED_TRACE("kind " + std::to_string(Kind) + ", alignment " +
                   std::to_string(Alignment));
      void *Ptr = nullptr;
      ASSERT_SUCCESS(
          offloadMemAllocAligned(Device, Kind, Size, Alignment, &Ptr));
      ASSERT_NE(Ptr, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % Alignment, 0u);
      // An allocation like offloadMemAlloc's: its info, its bounds.
      void *Base = nullptr;
      ASSERT_SUCCESS(offloadGetMemInfo(static_cast<char *>(Ptr) + Size - 1,
                                       OFFLOAD_MEM_INFO_BASE, sizeof(Base),
                                       &Base));
      EXPECT_EQ(Base, Ptr);
      size_t InfoSize = 0;
      ASSERT_SUCCESS(offloadGetMemInfo(Ptr, OFFLOAD_MEM_INFO_SIZE,
                                       sizeof(InfoSize), &InfoSize));
      EXPECT_EQ(InfoSize, Size);
      offload_alloc_type_t InfoKind;
      ASSERT_SUCCESS(offloadGetMemInfo(Ptr, OFFLOAD_MEM_INFO_TYPE,
                                       sizeof(InfoKind), &InfoKind));
      EXPECT_EQ(InfoKind, Kind);
      checkRoundTrip(Device, Host, Ptr, Size, static_cast<uint8_t>(Alignment));
      ASSERT_SUCCESS(offloadMemFree(Ptr));
      ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
                   offloadGetMemInfo(Ptr, OFFLOAD_MEM_INFO_SIZE,
                                     sizeof(InfoSize), &InfoSize));
    }
  }
}

TEST_P(offloadMemAllocAlignedTest, SuccessManyLive) {
  // Live aligned allocations of every kind do not overlap.
  std::vector<std::pair<char *, size_t>> Allocs;
  for (size_t I = 1; I <= 24; ++I) {
    size_t Alignment = size_t(8) << (I % 9), Size = 100 * I;
    void *Ptr = nullptr;
    ASSERT_SUCCESS(
        offloadMemAllocAligned(Device, AllKinds[I % 3], Size, Alignment, &Ptr));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % Alignment, 0u);
    for (auto &[P, S] : Allocs)
      EXPECT_TRUE(static_cast<char *>(Ptr) + Size <= P || P + S <= Ptr);
    Allocs.push_back({static_cast<char *>(Ptr), Size});
  }
  for (auto &[P, S] : Allocs)
    ASSERT_SUCCESS(offloadMemFree(P));
}

TEST_P(offloadMemAllocAlignedTest, SuccessHostGigabyteAlignment) {
  if (!isHost())
    GTEST_SKIP() << "only the host device aligns to 1 GiB";
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 64,
                                        size_t(1) << 30, &Ptr));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % (size_t(1) << 30), 0u);
  checkRoundTrip(Device, Host, Ptr, 64, 3);
  ASSERT_SUCCESS(offloadMemFree(Ptr));
}

TEST_P(offloadMemAllocAlignedTest, InvalidAlignmentZero) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ARGUMENT, "Alignment (0) is not a power of two",
      offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 1024, 0, &Ptr));
}

TEST_P(offloadMemAllocAlignedTest, InvalidAlignmentNotAPowerOfTwo) {
  for (size_t Alignment : {3, 24, 96, 1000}) {
    void *Ptr = nullptr;
    ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "is not a power of two",
                     offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_MANAGED,
                                            1024, Alignment, &Ptr));
    EXPECT_EQ(Ptr, nullptr);
  }
}

TEST_P(offloadMemAllocAlignedTest, UnsupportedAlignmentAboveTheDevices) {
  // Above both the host's (1 GiB) and the GPU plugins' (2 MiB) limits.
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNSUPPORTED, "Alignment (2147483648)",
                   offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                          1024, size_t(1) << 31, &Ptr));
  EXPECT_EQ(Ptr, nullptr);
}

TEST_P(offloadMemAllocAlignedTest, InvalidSizeZero) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
      offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 0, 64, &Ptr));
}

TEST_P(offloadMemAllocAlignedTest, InvalidSizeTooLarge) {
  uint64_t Max =
      getDeviceInfo<uint64_t>(Device, OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE);
  void *Ptr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_OUT_OF_RESOURCES,
               offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                      Max + 1, 128, &Ptr));
}

TEST_P(offloadMemAllocAlignedTest, InvalidNullDevice) {
  void *Ptr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadMemAllocAligned(nullptr, OFFLOAD_ALLOC_TYPE_DEVICE, 1024,
                                      16, &Ptr));
}

TEST_P(offloadMemAllocAlignedTest, InvalidEnumeration) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION, "Type (7) is not a valid enumerator",
      offloadMemAllocAligned(Device, static_cast<offload_alloc_type_t>(7), 1024,
                             16, &Ptr));
}

TEST_P(offloadMemAllocAlignedTest, InvalidNullAllocationOut) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "AllocationOut is null",
                   offloadMemAllocAligned(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                          1024, 16, nullptr));
}

} // namespace
