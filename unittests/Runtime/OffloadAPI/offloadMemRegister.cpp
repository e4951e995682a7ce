//===- offloadMemRegister.cpp - Conformance tests of offloadMemRegister ---===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadMemRegisterTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemRegisterTest);

TEST_P(offloadMemRegisterTest, SuccessRegisterAndUse) {
  std::vector<int> Data(256, 3);
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(),
                                    Data.size() * sizeof(int), 0, &Pinned));
  ASSERT_NE(Pinned, nullptr);
  if (isHost())
    EXPECT_EQ(Pinned, Data.data());
  // The pinned pointer is usable for copies on the device.
  std::vector<int> Out(256, 0);
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Out.data(), Host, Pinned, Device,
                               Out.size() * sizeof(int)));
  EXPECT_EQ(Out, Data);
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemRegisterTest, SuccessAdjacentRanges) {
  std::vector<char> Data(128);
  void *P1 = nullptr, *P2 = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(), 64, 0, &P1));
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data() + 64, 64, 0, &P2));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data() + 64));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
  // Unregistered memory can be registered again.
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(), 128, 0, &P1));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemRegisterTest, SuccessSameRangeTwiceCountsUses) {
  // liboffload's pinned-allocation map (issue 19 item 7): registering a range
  // again is one more use of it, and each registration needs its own
  // unregistration.
  std::vector<char> Data(256);
  void *P1 = nullptr, *P2 = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(), 256, 0, &P1));
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(), 256, 0, &P2));
  EXPECT_EQ(P1, P2);
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
  // Still registered: a partial overlap is still refused.
  void *Other = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT,
               offloadMemRegister(Device, Data.data() + 128, 256, 0, &Other));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "already unregistered",
                   offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemRegisterTest, SuccessRangeInsideARegistration) {
  // A range inside a registration is a use of it, with the device's pointer
  // at the same offset; the registration ends with its last use.
  std::vector<char> Data(256);
  void *Whole = nullptr, *Part = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(), 256, 0, &Whole));
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data() + 64, 64, 0, &Part));
  EXPECT_EQ(Part, static_cast<char *>(Whole) + 64);
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data() + 64));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT,
               offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemRegisterTest, InvalidArgumentPartialOverlap) {
  // Only ranges that overlap a registration without lying inside it are
  // refused, on every device.
  std::vector<char> Data(256);
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data() + 64, 64, 0, &Pinned));
  struct Range {
    size_t Offset, Size;
  };
  for (Range R : {Range{0, 65}, Range{127, 2}, Range{100, 100}, Range{0, 256},
                  Range{63, 66}}) {
    void *Other = nullptr;
    ASSERT_ERROR_MSG(
        OFFLOAD_ERRC_INVALID_ARGUMENT,
        "partially overlap memory already registered with the device (64 "
        "bytes at",
        offloadMemRegister(Device, Data.data() + R.Offset, R.Size, 0, &Other));
  }
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data() + 64));
}

TEST_P(offloadMemRegisterTest, InvalidSizeWrapsAround) {
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "wraps around the address space",
                   offloadMemRegister(Device, garbageHandle<void *>(0x1000),
                                      SIZE_MAX - 0x10, 0, &Pinned));
}

TEST_P(offloadMemRegisterTest, InvalidNullDevice) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadMemRegister(nullptr, Data, sizeof(Data), 0, &Pinned));
}

TEST_P(offloadMemRegisterTest, InvalidDevice) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
                   offloadMemRegister(garbageHandle<offload_device_handle_t>(),
                                      Data, sizeof(Data), 0, &Pinned));
}

TEST_P(offloadMemRegisterTest, InvalidNullPtr) {
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadMemRegister(Device, nullptr, 16, 0, &Pinned));
}

TEST_P(offloadMemRegisterTest, InvalidNullPinnedPtr) {
  int Data[4];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PinnedPtr is null",
                   offloadMemRegister(Device, Data, sizeof(Data), 0, nullptr));
}

TEST_P(offloadMemRegisterTest, InvalidSizeZero) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemRegister(Device, Data, 0, 0, &Pinned));
}

TEST_P(offloadMemRegisterTest, InvalidFlags) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "Flags (0x1) is reserved and must be 0",
                   offloadMemRegister(Device, Data, sizeof(Data), 1, &Pinned));
}

} // namespace
