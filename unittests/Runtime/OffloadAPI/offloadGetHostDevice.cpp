//===- offloadGetHostDevice.cpp - Conformance tests -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadGetHostDeviceTest = OffloadTest;

TEST_F(offloadGetHostDeviceTest, SuccessIsTheHostCPU) {
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&D));
  EXPECT_EQ(D, Host);
  EXPECT_EQ(getDeviceInfo<offload_device_type_t>(D, OFFLOAD_DEVICE_INFO_TYPE),
            OFFLOAD_DEVICE_TYPE_HOST);
  auto Platform =
      getDeviceInfo<offload_platform_handle_t>(D, OFFLOAD_DEVICE_INFO_PLATFORM);
  offload_platform_backend_t Backend = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                        sizeof(Backend), &Backend));
  EXPECT_EQ(Backend, OFFLOAD_PLATFORM_BACKEND_HOST);
}

TEST_F(offloadGetHostDeviceTest, InvalidNullDevice) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Device is null",
                   offloadGetHostDevice(nullptr));
}

} // namespace
