//===- offloadGetPlatformInfo.cpp - Conformance tests ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetPlatformInfoTest : public OffloadDeviceTest {
protected:
  std::string getString(offload_platform_info_t Prop) {
    return getInfoString(Platform, Prop, offloadGetPlatformInfoSize,
                         offloadGetPlatformInfo);
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetPlatformInfoTest);

TEST_P(offloadGetPlatformInfoTest, SuccessName) {
  std::string Name = getString(OFFLOAD_PLATFORM_INFO_NAME);
  EXPECT_FALSE(Name.empty());
  if (isHost())
    EXPECT_EQ(Name, "host");
}

TEST_P(offloadGetPlatformInfoTest, SuccessVendorName) {
  std::string Vendor = getString(OFFLOAD_PLATFORM_INFO_VENDOR_NAME);
  EXPECT_FALSE(Vendor.empty());
  if (isHost())
    EXPECT_EQ(Vendor, "offload");
}

TEST_P(offloadGetPlatformInfoTest, SuccessVersion) {
  EXPECT_FALSE(getString(OFFLOAD_PLATFORM_INFO_VERSION).empty());
}

TEST_P(offloadGetPlatformInfoTest, SuccessBackend) {
  offload_platform_backend_t Value = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                        sizeof(Value), &Value));
  EXPECT_NE(Value, OFFLOAD_PLATFORM_BACKEND_UNKNOWN);
  if (isHost())
    EXPECT_EQ(Value, OFFLOAD_PLATFORM_BACKEND_HOST);
}

TEST_P(offloadGetPlatformInfoTest, SuccessLargerBuffer) {
  char Buffer[256];
  std::memset(Buffer, 'x', sizeof(Buffer));
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                        sizeof(Buffer), Buffer));
  EXPECT_EQ(std::string(Buffer), getString(OFFLOAD_PLATFORM_INFO_NAME));
}

TEST_P(offloadGetPlatformInfoTest, InvalidNullHandle) {
  char Buffer[64];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Platform is null",
                   offloadGetPlatformInfo(nullptr, OFFLOAD_PLATFORM_INFO_NAME,
                                          sizeof(Buffer), Buffer));
}

TEST_P(offloadGetPlatformInfoTest, InvalidPlatform) {
  char Buffer[64];
  auto Garbage = reinterpret_cast<offload_platform_handle_t>(Buffer);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PLATFORM, "not a live platform",
                   offloadGetPlatformInfo(Garbage, OFFLOAD_PLATFORM_INFO_NAME,
                                          sizeof(Buffer), Buffer));
}

TEST_P(offloadGetPlatformInfoTest, InvalidEnumeration) {
  char Buffer[64];
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      "PropName (77) is not a valid enumerator",
      offloadGetPlatformInfo(Platform, static_cast<offload_platform_info_t>(77),
                             sizeof(Buffer), Buffer));
}

TEST_P(offloadGetPlatformInfoTest, InvalidNullPropValue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
                   offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                          64, nullptr));
}

TEST_P(offloadGetPlatformInfoTest, InvalidSizeZero) {
  char Buffer[64];
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
      offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME, 0, Buffer));
}

TEST_P(offloadGetPlatformInfoTest, InvalidSizeSmall) {
  char Buffer[64];
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize (2) is smaller than the property",
      offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME, 2, Buffer));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize (1)",
                   offloadGetPlatformInfo(
                       Platform, OFFLOAD_PLATFORM_INFO_BACKEND, 1, Buffer));
}

} // namespace
