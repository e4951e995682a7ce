//===- offloadMemFill.cpp - Conformance tests of offloadMemFill -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <numeric>

using namespace offload_test;

namespace {

using offloadMemFillTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemFillTest);

/// Fills with every pattern size from 1 to 64 bytes (and some larger ones)
/// and checks every byte, synchronously or on \p Q.
void checkPatterns(offload_device_handle_t Device, offload_device_handle_t Host,
                   offload_queue_handle_t Q) {
  std::vector<size_t> PatternSizes(64);
  std::iota(PatternSizes.begin(), PatternSizes.end(), 1);
  PatternSizes.push_back(100);
  PatternSizes.push_back(4096);
  for (size_t PatternSize : PatternSizes) {
    std::vector<uint8_t> Pattern(PatternSize);
    std::iota(Pattern.begin(), Pattern.end(), uint8_t(PatternSize));
    size_t Size = PatternSize * 37;
    DeviceBuffer<uint8_t> Buffer(Device, Size);
    ASSERT_SUCCESS(
        offloadMemFill(Q, Buffer.get(), PatternSize, Pattern.data(), Size));
    std::vector<uint8_t> Out(Size);
    ASSERT_SUCCESS(
        offloadMemcpy(Q, Out.data(), Host, Buffer.get(), Device, Size));
    if (Q)
      ASSERT_SUCCESS(offloadSyncQueue(Q));
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(Out[I], Pattern[I % PatternSize])
          << "byte " << I << " of pattern size " << PatternSize;
  }
}

TEST_P(offloadMemFillTest, SuccessPatternSizes) {
  checkPatterns(Device, Host, nullptr);
}

TEST_P(offloadMemFillTest, SuccessPatternSizesOnQueue) {
  checkPatterns(Device, Host, Queue);
}

TEST_P(offloadMemFillTest, SuccessPatternIsCopied) {
  DeviceBuffer<uint32_t> Buffer(Device, 1024);
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  {
    // Enqueued behind the gate; the pattern dies before the fill runs.
    uint32_t Pattern = 0xdeadbeef;
    ASSERT_SUCCESS(offloadMemFill(Queue, Buffer.get(), sizeof(Pattern),
                                  &Pattern, Buffer.bytes()));
    Pattern = 0;
  }
  G.open();
  std::vector<uint32_t> Out(1024);
  ASSERT_SUCCESS(offloadMemcpy(Queue, Out.data(), Host, Buffer.get(), Device,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (uint32_t V : Out)
    ASSERT_EQ(V, 0xdeadbeefu);
}

TEST_P(offloadMemFillTest, SuccessPartOfAnAllocation) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint8_t Zero = 0, Ones = 0xff;
  ASSERT_SUCCESS(offloadMemFill(nullptr, Buffer.get(), 1, &Zero, 64));
  ASSERT_SUCCESS(offloadMemFill(nullptr, Buffer.get() + 16, 1, &Ones, 32));
  std::vector<uint8_t> Out(64);
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Out.data(), Host, Buffer.get(), Device, 64));
  for (size_t I = 0; I < 64; ++I)
    EXPECT_EQ(Out[I], I >= 16 && I < 48 ? 0xff : 0) << I;
}

TEST_P(offloadMemFillTest, SuccessHostMemory) {
  std::vector<uint16_t> Data(100, 0);
  uint16_t Pattern = 0x1234;
  ASSERT_SUCCESS(offloadMemFill(nullptr, Data.data(), sizeof(Pattern), &Pattern,
                                Data.size() * sizeof(uint16_t)));
  for (uint16_t V : Data)
    ASSERT_EQ(V, 0x1234);
}

TEST_P(offloadMemFillTest, InvalidSizeNotAMultiple) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint32_t Pattern = 1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "FillSize (10) is not a multiple of PatternSize (4)",
                   offloadMemFill(nullptr, Buffer.get(), 4, &Pattern, 10));
}

TEST_P(offloadMemFillTest, InvalidSizeZero) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint32_t Pattern = 1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PatternSize is zero",
                   offloadMemFill(nullptr, Buffer.get(), 0, &Pattern, 8));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "FillSize is zero",
                   offloadMemFill(nullptr, Buffer.get(), 4, &Pattern, 0));
}

TEST_P(offloadMemFillTest, InvalidSizePastTheEnd) {
  DeviceBuffer<int32_t> Buffer(Device, 10);
  int32_t Pattern = 7;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "Ptr + FillSize (44 bytes) runs past the end of its "
                   "allocation: 40 bytes",
                   offloadMemFill(nullptr, Buffer.get(), 4, &Pattern, 44));
}

TEST_P(offloadMemFillTest, InvalidNullPointers) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint32_t Pattern = 1;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadMemFill(nullptr, nullptr, 4, &Pattern, 8));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PatternPtr is null",
                   offloadMemFill(nullptr, Buffer.get(), 4, nullptr, 8));
}

TEST_P(offloadMemFillTest, InvalidQueue) {
  DeviceBuffer<uint8_t> Buffer(Device, 64);
  uint32_t Pattern = 1;
  auto Garbage = garbageHandle<offload_queue_handle_t>();
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x40) is not a live",
                   offloadMemFill(Garbage, Buffer.get(), 4, &Pattern, 8));
}

} // namespace
