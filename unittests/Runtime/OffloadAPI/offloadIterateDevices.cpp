//===- offloadIterateDevices.cpp - Conformance tests ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadIterateDevicesTest = OffloadTest;

std::vector<offload_device_handle_t> allDevices() {
  std::vector<offload_device_handle_t> Devices;
  offload_result_t R = offloadIterateDevices(
      [](offload_device_handle_t D, void *Data) {
        static_cast<std::vector<offload_device_handle_t> *>(Data)->push_back(D);
        return true;
      },
      &Devices);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  return Devices;
}

TEST_F(offloadIterateDevicesTest, SuccessHostFirst) {
  std::vector<offload_device_handle_t> Devices = allDevices();
  ASSERT_GE(Devices.size(), 1u);
  EXPECT_EQ(Devices.front(), Host);
}

TEST_F(offloadIterateDevicesTest, SuccessSameOrderAsGetDevice) {
  std::vector<offload_device_handle_t> Devices = allDevices();
  for (uint32_t I = 0; I < Devices.size(); ++I) {
    offload_device_handle_t D = nullptr;
    ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN, I, &D));
    EXPECT_EQ(D, Devices[I]) << "device " << I;
  }
  // Repeated iteration gives the same handles.
  EXPECT_EQ(allDevices(), Devices);
}

TEST_F(offloadIterateDevicesTest, SuccessStops) {
  int Calls = 0;
  ASSERT_SUCCESS(offloadIterateDevices(
      [](offload_device_handle_t, void *Data) {
        ++*static_cast<int *>(Data);
        return false;
      },
      &Calls));
  EXPECT_EQ(Calls, 1);
}

TEST_F(offloadIterateDevicesTest, SuccessCallbackMayCallTheAPI) {
  // No lock is held while the callback runs.
  int Named = 0;
  ASSERT_SUCCESS(offloadIterateDevices(
      [](offload_device_handle_t D, void *Data) {
        size_t Size = 0;
        if (offloadGetDeviceInfoSize(D, OFFLOAD_DEVICE_INFO_NAME, &Size) ==
                OFFLOAD_SUCCESS &&
            Size > 1)
          ++*static_cast<int *>(Data);
        return true;
      },
      &Named));
  EXPECT_EQ(size_t(Named), allDevices().size());
}

TEST_F(offloadIterateDevicesTest, InvalidNullCallback) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Callback is null",
                   offloadIterateDevices(nullptr, nullptr));
}

} // namespace
