//===- offloadMemUnregister.cpp - Conformance tests -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadMemUnregisterTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemUnregisterTest);

TEST_P(offloadMemUnregisterTest, SuccessAfterRegister) {
  std::vector<double> Data(32);
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(),
                                    Data.size() * sizeof(double), 0, &Pinned));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemUnregisterTest, SuccessUnknownMemoryOnHost) {
  if (!isHost())
    GTEST_SKIP() << "host device only";
  int Data[4];
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data));
}

TEST_P(offloadMemUnregisterTest, InvalidNullDevice) {
  int Data[4];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadMemUnregister(nullptr, Data));
}

TEST_P(offloadMemUnregisterTest, InvalidDevice) {
  int Data[4];
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
      offloadMemUnregister(garbageHandle<offload_device_handle_t>(), Data));
}

TEST_P(offloadMemUnregisterTest, InvalidNullPtr) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadMemUnregister(Device, nullptr));
}

} // namespace
