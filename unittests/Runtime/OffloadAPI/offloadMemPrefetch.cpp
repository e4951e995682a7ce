//===- offloadMemPrefetch.cpp - Conformance tests -------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// liboffload 23's olMemPrefetch: a hint for several ranges of managed
// memory, ignored for other memory; the contents never change.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <vector>

using namespace offload_test;

namespace {

using offloadMemPrefetchTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemPrefetchTest);

constexpr size_t Size = 1024;

/// A managed allocation filled with \p Byte on the device.
void *allocFilled(offload_device_handle_t Device, offload_alloc_type_t Kind,
                  uint8_t Byte) {
  void *Ptr = nullptr;
  offload_result_t R = offloadMemAlloc(Device, Kind, Size, &Ptr);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  if (!Ptr)
    return nullptr;
  R = offloadMemFill(nullptr, Ptr, 1, &Byte, Size);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  return Ptr;
}

/// Expects \p Size bytes of \p Byte at \p Ptr of \p Device.
void expectFilled(offload_device_handle_t Device, offload_device_handle_t Host,
                  const void *Ptr, uint8_t Byte) {
  std::vector<uint8_t> Out(Size, 0);
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Out.data(), Host, Ptr, Device, Size));
  EXPECT_EQ(Out, std::vector<uint8_t>(Size, Byte));
}

TEST_P(offloadMemPrefetchTest, SuccessBothDirections) {
  void *Alloc = allocFilled(Device, OFFLOAD_ALLOC_TYPE_MANAGED, 0x42);
  ASSERT_NE(Alloc, nullptr);
  const void *Ptrs[] = {Alloc};
  const size_t Sizes[] = {Size};
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 1, Ptrs, Sizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 1, Ptrs, Sizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_DEVICE_TO_HOST));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  expectFilled(Device, Host, Alloc, 0x42);
  ASSERT_SUCCESS(offloadMemFree(Alloc));
}

TEST_P(offloadMemPrefetchTest, SuccessSeveralRangesAndParts) {
  void *Allocs[3];
  for (int I = 0; I < 3; ++I) {
    Allocs[I] = allocFilled(Device, OFFLOAD_ALLOC_TYPE_MANAGED, 0x10 + I);
    ASSERT_NE(Allocs[I], nullptr);
  }
  // Whole allocations, a range inside one, and one up to its end.
  const void *Ptrs[] = {Allocs[0], Allocs[1],
                        static_cast<char *>(Allocs[2]) + 24,
                        static_cast<char *>(Allocs[0]) + Size - 8};
  const size_t Sizes[] = {Size, Size, 100, 8};
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 4, Ptrs, Sizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (int I = 0; I < 3; ++I) {
    expectFilled(Device, Host, Allocs[I], 0x10 + I);
    ASSERT_SUCCESS(offloadMemFree(Allocs[I]));
  }
}

TEST_P(offloadMemPrefetchTest, SuccessZeroCount) {
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 0, nullptr, nullptr,
                                    OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_P(offloadMemPrefetchTest, SuccessZeroSize) {
  void *Alloc = allocFilled(Device, OFFLOAD_ALLOC_TYPE_MANAGED, 1);
  ASSERT_NE(Alloc, nullptr);
  const void *Ptrs[] = {Alloc};
  const size_t Sizes[] = {0};
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 1, Ptrs, Sizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(offloadMemFree(Alloc));
}

TEST_P(offloadMemPrefetchTest, SuccessNotManagedIsIgnored) {
  // Device and host allocations and memory the runtime does not know are
  // not managed: the hint is ignored without an error.
  void *DeviceAlloc = allocFilled(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 7);
  void *HostAlloc = allocFilled(Device, OFFLOAD_ALLOC_TYPE_HOST, 9);
  ASSERT_NE(DeviceAlloc, nullptr);
  ASSERT_NE(HostAlloc, nullptr);
  std::vector<uint8_t> Unknown(Size, 5);
  const void *Ptrs[] = {DeviceAlloc, HostAlloc, Unknown.data()};
  const size_t Sizes[] = {Size, Size, Size};
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 3, Ptrs, Sizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_DEVICE_TO_HOST));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  expectFilled(Device, Host, DeviceAlloc, 7);
  expectFilled(Device, Host, HostAlloc, 9);
  EXPECT_EQ(Unknown, std::vector<uint8_t>(Size, 5));
  ASSERT_SUCCESS(offloadMemFree(DeviceAlloc));
  ASSERT_SUCCESS(offloadMemFree(HostAlloc));
}

TEST_P(offloadMemPrefetchTest, InvalidFlags) {
  int Value = 0;
  const void *Ptrs[] = {&Value};
  const size_t Sizes[] = {sizeof(Value)};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "Flags (-559038737) is not a valid enumerator",
                   offloadMemPrefetch(
                       Queue, 1, Ptrs, Sizes,
                       static_cast<offload_mem_migration_flag_t>(0xdeadbeef)));
}

TEST_P(offloadMemPrefetchTest, InvalidNullPtrs) {
  const size_t Sizes[] = {0};
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptrs is null",
      offloadMemPrefetch(Queue, 1, nullptr, Sizes,
                         OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
}

TEST_P(offloadMemPrefetchTest, InvalidNullSizes) {
  int Value = 0;
  const void *Ptrs[] = {&Value};
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Sizes is null",
      offloadMemPrefetch(Queue, 1, Ptrs, nullptr,
                         OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
}

TEST_P(offloadMemPrefetchTest, InvalidNullEntry) {
  int Value = 0;
  const void *Ptrs[] = {&Value, nullptr};
  const size_t Sizes[] = {sizeof(Value), 4};
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptrs[1] is null",
      offloadMemPrefetch(Queue, 2, Ptrs, Sizes,
                         OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
}

TEST_P(offloadMemPrefetchTest, InvalidSizePastTheAllocation) {
  void *Alloc = allocFilled(Device, OFFLOAD_ALLOC_TYPE_MANAGED, 1);
  ASSERT_NE(Alloc, nullptr);
  const void *Ptrs[] = {Alloc, static_cast<char *>(Alloc) + 1000};
  const size_t Sizes[] = {Size, 100};
  offload_result_t R = offloadMemPrefetch(
      Queue, 2, Ptrs, Sizes, OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE);
  ASSERT_SUCCESS(offloadMemFree(Alloc));
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SIZE) << describe(R);
  EXPECT_NE(std::string(R->Details).find("Sizes[1]"), std::string::npos)
      << R->Details;
}

TEST_P(offloadMemPrefetchTest, InvalidNullQueue) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
      offloadMemPrefetch(nullptr, 0, nullptr, nullptr,
                         OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
}

} // namespace
