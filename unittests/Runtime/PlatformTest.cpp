//===- PlatformTest.cpp - offloadGetPlatformInfo(Size) --------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace offload_test;

namespace {

class PlatformTest : public OffloadDeviceTest {
protected:
  void SetUp() override {
    OffloadDeviceTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_SUCCESS(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_PLATFORM,
                                        sizeof(Platform), &Platform));
  }

  std::string getString(offload_platform_info_t Prop) {
    size_t Size = 0;
    offload_result_t R = offloadGetPlatformInfoSize(Platform, Prop, &Size);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    std::string Value(Size, '\0');
    R = offloadGetPlatformInfo(Platform, Prop, Size, Value.data());
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    EXPECT_EQ(Value.back(), '\0');
    EXPECT_EQ(strlen(Value.c_str()) + 1, Size);
    return Value.c_str();
  }

  offload_platform_handle_t Platform = nullptr;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(PlatformTest);

TEST_P(PlatformTest, Strings) {
  EXPECT_FALSE(getString(OFFLOAD_PLATFORM_INFO_NAME).empty());
  EXPECT_FALSE(getString(OFFLOAD_PLATFORM_INFO_VENDOR_NAME).empty());
  EXPECT_FALSE(getString(OFFLOAD_PLATFORM_INFO_VERSION).empty());
}

TEST_P(PlatformTest, Backend) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetPlatformInfoSize(
      Platform, OFFLOAD_PLATFORM_INFO_BACKEND, &Size));
  ASSERT_EQ(Size, sizeof(offload_platform_backend_t));
  offload_platform_backend_t Backend = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                        sizeof(Backend), &Backend));
  EXPECT_NE(Backend, OFFLOAD_PLATFORM_BACKEND_UNKNOWN);
  if (Device == Host) {
    EXPECT_EQ(Backend, OFFLOAD_PLATFORM_BACKEND_HOST);
    EXPECT_EQ(getString(OFFLOAD_PLATFORM_INFO_NAME), "host");
  }
}

TEST_P(PlatformTest, InvalidHandle) {
  char Buffer[64];
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadGetPlatformInfo(nullptr, OFFLOAD_PLATFORM_INFO_NAME,
                                      sizeof(Buffer), Buffer));
  auto Garbage = reinterpret_cast<offload_platform_handle_t>(Buffer);
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_PLATFORM,
               offloadGetPlatformInfo(Garbage, OFFLOAD_PLATFORM_INFO_NAME,
                                      sizeof(Buffer), Buffer));
  size_t Size = 0;
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_PLATFORM,
      offloadGetPlatformInfoSize(Garbage, OFFLOAD_PLATFORM_INFO_NAME, &Size));
}

TEST_P(PlatformTest, InvalidArguments) {
  char Buffer[64];
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ENUMERATION,
               offloadGetPlatformInfo(Platform,
                                      static_cast<offload_platform_info_t>(77),
                                      sizeof(Buffer), Buffer));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                      sizeof(Buffer), nullptr));
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_SIZE,
      offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME, 2, Buffer));
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_SIZE,
      offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME, 0, Buffer));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetPlatformInfoSize(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                          nullptr));
}

} // namespace
