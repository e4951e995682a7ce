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

TEST_P(offloadMemUnregisterTest, InvalidArgumentNeverRegistered) {
  // liboffload 22: unregistering memory that was never registered is an
  // error on every device, the host included.
  int Data[4];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "is not memory registered with the device",
                   offloadMemUnregister(Device, Data));
}

TEST_P(offloadMemUnregisterTest, InvalidArgumentTwice) {
  std::vector<int> Data(16);
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(),
                                    Data.size() * sizeof(int), 0, &Pinned));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "already unregistered",
                   offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemUnregisterTest, InvalidArgumentInsideARange) {
  std::vector<int> Data(16);
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(),
                                    Data.size() * sizeof(int), 0, &Pinned));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "is not its start",
                   offloadMemUnregister(Device, Data.data() + 4));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
}

TEST_P(offloadMemUnregisterTest, InvalidArgumentOtherDevice) {
  // Registrations are per device.
  if (isHost())
    GTEST_SKIP() << "needs a device other than the host";
  std::vector<int> Data(16);
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data.data(),
                                    Data.size() * sizeof(int), 0, &Pinned));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT,
               offloadMemUnregister(Host, Data.data()));
  ASSERT_SUCCESS(offloadMemUnregister(Device, Data.data()));
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
