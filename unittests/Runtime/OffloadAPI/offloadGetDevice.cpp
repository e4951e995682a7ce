//===- offloadGetDevice.cpp - Conformance tests of offloadGetDevice -------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadGetDeviceTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetDeviceTest);

TEST_P(offloadGetDeviceTest, SuccessAnyBackend) {
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(
      offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN, GetParam().Index, &D));
  EXPECT_EQ(D, Device);
}

TEST_P(offloadGetDeviceTest, SuccessOwnBackend) {
  // The device is found among the devices of its backend.
  bool Found = false;
  for (uint32_t I = 0;; ++I) {
    offload_device_handle_t D = nullptr;
    if (offloadGetDevice(Backend, I, &D) != OFFLOAD_SUCCESS)
      break;
    Found |= D == Device;
  }
  EXPECT_TRUE(Found);
}

TEST_P(offloadGetDeviceTest, SuccessHostIsFirstHostDevice) {
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 0, &D));
  EXPECT_EQ(D, Host);
}

TEST_P(offloadGetDeviceTest, ErrorIndexOutOfRange) {
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND,
                   "no device with Index 1: 1 device(s) of that backend",
                   offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 1, &D));
}

TEST_P(offloadGetDeviceTest, ErrorNoDeviceOfBackend) {
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_NOT_FOUND, "0 device(s) of that backend",
      offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_LEVEL_ZERO, 0, &D));
}

TEST_P(offloadGetDeviceTest, ErrorNoDeviceSaysWhy) {
  // A platform without devices (no CUDA driver, no GPU) names the reason its
  // plugin reports (OFFLOAD_PLATFORM_INFO_STATUS).
  for (offload_platform_backend_t Backend :
       {OFFLOAD_PLATFORM_BACKEND_CUDA, OFFLOAD_PLATFORM_BACKEND_AMDGPU}) {
    offload_device_handle_t D = nullptr;
    offload_result_t R = offloadGetDevice(Backend, 0, &D);
    if (R == OFFLOAD_SUCCESS)
      continue; // this machine has such a device
    ASSERT_EQ(R->Code, OFFLOAD_ERRC_NOT_FOUND);
    std::string Details = R->Details;
    EXPECT_NE(Details.find("platform has no devices: "), std::string::npos)
        << Details;
    EXPECT_NE(Details.find("no devices ("), std::string::npos) << Details;
  }
}

TEST_P(offloadGetDeviceTest, InvalidEnumerationBackend) {
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION, "Backend (9) is not a valid enumerator",
      offloadGetDevice(static_cast<offload_platform_backend_t>(9), 0, &D));
}

TEST_P(offloadGetDeviceTest, InvalidNullDevice) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Device is null",
                   offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_HOST, 0, nullptr));
}

} // namespace
