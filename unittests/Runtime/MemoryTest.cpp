//===- MemoryTest.cpp - offloadMem* ---------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <numeric>

using namespace offload_test;

namespace {

class MemoryTest : public OffloadDeviceTest {};
OFFLOAD_INSTANTIATE_DEVICE_TEST(MemoryTest);

//===----------------------------------------------------------------------===//
// offloadMemAlloc, offloadMemFree
//===----------------------------------------------------------------------===//

TEST_P(MemoryTest, AllocEveryType) {
  for (offload_alloc_type_t Type :
       {OFFLOAD_ALLOC_TYPE_HOST, OFFLOAD_ALLOC_TYPE_DEVICE,
        OFFLOAD_ALLOC_TYPE_MANAGED}) {
    for (size_t Size : {size_t(1), size_t(63), size_t(64), size_t(1 << 20)}) {
      void *Ptr = nullptr;
      ASSERT_SUCCESS(offloadMemAlloc(Device, Type, Size, &Ptr));
      ASSERT_NE(Ptr, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(Ptr) % 64, 0u);
      ASSERT_SUCCESS(offloadMemFree(Ptr));
    }
  }
}

TEST_P(MemoryTest, AllocZeroSize) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 0, &Ptr));
}

TEST_P(MemoryTest, AllocInvalidArguments) {
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "AllocationOut is null",
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 8, nullptr));
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      offloadMemAlloc(Device, static_cast<offload_alloc_type_t>(3), 8, &Ptr));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
      offloadMemAlloc(nullptr, OFFLOAD_ALLOC_TYPE_DEVICE, 8, &Ptr));
}

TEST_P(MemoryTest, AllocTooLarge) {
  void *Ptr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_OUT_OF_RESOURCES,
               offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                               size_t(1) << 62, &Ptr));
}

TEST_P(MemoryTest, FreeInvalid) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Address is null",
                   offloadMemFree(nullptr));
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 128, &Ptr));
  // Not the start of the allocation.
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT,
               offloadMemFree(static_cast<char *>(Ptr) + 8));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
  // Double free.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "was not allocated by offloadMemAlloc or was already freed",
                   offloadMemFree(Ptr));
  // Never allocated.
  int Local;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT, offloadMemFree(&Local));
}

//===----------------------------------------------------------------------===//
// offloadMemcpy
//===----------------------------------------------------------------------===//

TEST_P(MemoryTest, MemcpyRoundTrip) {
  std::vector<int> In(1000), Out(1000, -1);
  std::iota(In.begin(), In.end(), 5);
  DeviceBuffer<int> Buffer(Device, In.size());
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer.get(), Device, In.data(), Host,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Out.data(), Host, Buffer.get(), Device,
                               Buffer.bytes()));
  EXPECT_EQ(In, Out);
}

TEST_P(MemoryTest, MemcpyDeviceToDevice) {
  std::vector<uint8_t> In(333), Out(333, 0);
  std::iota(In.begin(), In.end(), 1);
  DeviceBuffer<uint8_t> A(Device, In.size()), B(Device, In.size());
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, A.get(), Device, In.data(), Host, In.size()));
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, B.get(), Device, A.get(), Device, In.size()));
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Out.data(), Host, B.get(), Device, In.size()));
  EXPECT_EQ(In, Out);
}

TEST_P(MemoryTest, MemcpyOnQueue) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  std::vector<double> In(4096), Out(4096, 0.0);
  std::iota(In.begin(), In.end(), 0.5);
  DeviceBuffer<double> Buffer(Device, In.size());
  ASSERT_SUCCESS(offloadMemcpy(Queue, Buffer.get(), Device, In.data(), Host,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadMemcpy(Queue, Out.data(), Host, Buffer.get(), Device,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(In, Out);
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(MemoryTest, MemcpyInvalidArguments) {
  int A = 1, B = 2;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemcpy(nullptr, &A, Host, &B, Host, 0));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "DstPtr is null",
                   offloadMemcpy(nullptr, nullptr, Host, &B, Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "SrcPtr is null",
                   offloadMemcpy(nullptr, &A, Host, nullptr, Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "DstDevice is null",
                   offloadMemcpy(nullptr, &A, nullptr, &B, Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "SrcDevice is null",
                   offloadMemcpy(nullptr, &A, Host, &B, nullptr, 4));
  auto Garbage = reinterpret_cast<offload_queue_handle_t>(&A);
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE,
               offloadMemcpy(Garbage, &A, Host, &B, Host, 4));
  EXPECT_EQ(A, 1);
}

TEST_P(MemoryTest, MemcpyPastTheEndOfAnAllocation) {
  DeviceBuffer<int32_t> Buffer(Device, 10);
  std::vector<int32_t> Host20(20, 7);
  // 80 bytes into a 40-byte allocation, and out of it.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "DstPtr + Size (80 bytes) runs past the end of its "
                   "allocation: 40 bytes",
                   offloadMemcpy(nullptr, Buffer.get(), Device, Host20.data(),
                                 Host, 80));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "SrcPtr + Size (80 bytes) runs past the end",
                   offloadMemcpy(nullptr, Host20.data(), Host, Buffer.get(),
                                 Device, 80));
  // Starting inside the allocation counts from there.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "DstPtr is at offset 36",
                   offloadMemcpy(nullptr, Buffer.get() + 9, Device,
                                 Host20.data(), Host, 8));
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer.get() + 9, Device,
                               Host20.data(), Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Ptr + Size (44 bytes)",
                   offloadMemFill(nullptr, Buffer.get(), 4, Host20.data(), 44));
}

//===----------------------------------------------------------------------===//
// offloadMemFill
//===----------------------------------------------------------------------===//

TEST_P(MemoryTest, FillPatterns) {
  for (size_t PatternSize : {1, 2, 3, 4, 8, 12, 16, 64}) {
    std::vector<uint8_t> Pattern(PatternSize);
    std::iota(Pattern.begin(), Pattern.end(), uint8_t(PatternSize));
    size_t Size = PatternSize * 37;
    DeviceBuffer<uint8_t> Buffer(Device, Size);
    ASSERT_SUCCESS(offloadMemFill(nullptr, Buffer.get(), PatternSize,
                                  Pattern.data(), Size));
    std::vector<uint8_t> Out(Size);
    ASSERT_SUCCESS(
        offloadMemcpy(nullptr, Out.data(), Host, Buffer.get(), Device, Size));
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(Out[I], Pattern[I % PatternSize])
          << "byte " << I << " of pattern size " << PatternSize;
  }
}

TEST_P(MemoryTest, FillOnQueue) {
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  DeviceBuffer<uint32_t> Buffer(Device, 1024);
  {
    // The pattern is copied at enqueue time: it may die right away.
    uint32_t Pattern = 0xdeadbeef;
    ASSERT_SUCCESS(offloadMemFill(Queue, Buffer.get(), sizeof(Pattern),
                                  &Pattern, Buffer.bytes()));
    Pattern = 0;
  }
  std::vector<uint32_t> Out(1024);
  ASSERT_SUCCESS(offloadMemcpy(Queue, Out.data(), Host, Buffer.get(), Device,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (uint32_t V : Out)
    ASSERT_EQ(V, 0xdeadbeefu);
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
}

TEST_P(MemoryTest, FillInvalidSizes) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint32_t Pattern = 1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "Size (10) is not a multiple of PatternSize (4)",
                   offloadMemFill(nullptr, Buffer.get(), 4, &Pattern, 10));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PatternSize is zero",
                   offloadMemFill(nullptr, Buffer.get(), 0, &Pattern, 8));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemFill(nullptr, Buffer.get(), 4, &Pattern, 0));
}

TEST_P(MemoryTest, FillInvalidPointers) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint32_t Pattern = 1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadMemFill(nullptr, nullptr, 4, &Pattern, 8));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PatternPtr is null",
                   offloadMemFill(nullptr, Buffer.get(), 4, nullptr, 8));
}

//===----------------------------------------------------------------------===//
// offloadMemRegister, offloadMemUnregister
//===----------------------------------------------------------------------===//

TEST_P(MemoryTest, Register) {
  std::vector<int> Data(256, 3);
  void *DevicePtr = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(),
                                    Data.size() * sizeof(int), &DevicePtr));
  ASSERT_NE(DevicePtr, nullptr);
  if (Device == Host)
    EXPECT_EQ(DevicePtr, Data.data());
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
}

TEST_P(MemoryTest, RegisterInvalidArguments) {
  int Data[4];
  void *DevicePtr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadMemRegister(nullptr, Data, sizeof(Data), &DevicePtr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemRegister(Device, nullptr, sizeof(Data), &DevicePtr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemRegister(Device, Data, sizeof(Data), nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadMemRegister(Device, Data, 0, &DevicePtr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemUnregister(Device, nullptr));
}

} // namespace
