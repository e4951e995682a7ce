//===- offloadGetPlatformInfoSize.cpp - Conformance tests -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadGetPlatformInfoSizeTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetPlatformInfoSizeTest);

TEST_P(offloadGetPlatformInfoSizeTest, SuccessStrings) {
  for (offload_platform_info_t Prop :
       {OFFLOAD_PLATFORM_INFO_NAME, OFFLOAD_PLATFORM_INFO_VENDOR_NAME,
        OFFLOAD_PLATFORM_INFO_VERSION}) {
    size_t Size = 0;
    ASSERT_SUCCESS(offloadGetPlatformInfoSize(Platform, Prop, &Size));
    EXPECT_GT(Size, 1u) << Prop;
  }
}

TEST_P(offloadGetPlatformInfoSizeTest, SuccessHostName) {
  if (!isHost())
    GTEST_SKIP() << "host device only";
  size_t Size = 0;
  ASSERT_SUCCESS(
      offloadGetPlatformInfoSize(Platform, OFFLOAD_PLATFORM_INFO_NAME, &Size));
  EXPECT_EQ(Size, sizeof("host"));
}

TEST_P(offloadGetPlatformInfoSizeTest, SuccessBackend) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetPlatformInfoSize(
      Platform, OFFLOAD_PLATFORM_INFO_BACKEND, &Size));
  EXPECT_EQ(Size, sizeof(offload_platform_backend_t));
}

TEST_P(offloadGetPlatformInfoSizeTest, InvalidNullHandle) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Platform is null",
      offloadGetPlatformInfoSize(nullptr, OFFLOAD_PLATFORM_INFO_NAME, &Size));
}

TEST_P(offloadGetPlatformInfoSizeTest, InvalidPlatform) {
  size_t Size = 0;
  auto Garbage = reinterpret_cast<offload_platform_handle_t>(&Size);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_PLATFORM, "not a live platform",
      offloadGetPlatformInfoSize(Garbage, OFFLOAD_PLATFORM_INFO_NAME, &Size));
}

TEST_P(offloadGetPlatformInfoSizeTest, InvalidEnumeration) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      "PropName (-1) is not a valid enumerator",
      offloadGetPlatformInfoSize(
          Platform, static_cast<offload_platform_info_t>(-1), &Size));
}

TEST_P(offloadGetPlatformInfoSizeTest, InvalidNullPropSizeRet) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
                   offloadGetPlatformInfoSize(
                       Platform, OFFLOAD_PLATFORM_INFO_NAME, nullptr));
}

} // namespace
