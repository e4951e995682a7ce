//===- offloadIsValidBinary.cpp - Conformance tests -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadIsValidBinaryTest = OffloadBinaryTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadIsValidBinaryTest);

TEST_P(offloadIsValidBinaryTest, SuccessValid) {
  bool Valid = false;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Device, Object.data(), Object.size(), &Valid));
  EXPECT_TRUE(Valid);
}

TEST_P(offloadIsValidBinaryTest, SuccessGarbage) {
  std::string Garbage(256, 'x');
  bool Valid = true;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Device, Garbage.data(), Garbage.size(), &Valid));
  EXPECT_FALSE(Valid);
}

TEST_P(offloadIsValidBinaryTest, SuccessHeaderOnly) {
  bool Valid = true;
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Object.data(), 40, &Valid));
  EXPECT_FALSE(Valid);
}

TEST_P(offloadIsValidBinaryTest, SuccessZeroSize) {
  bool Valid = true;
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Object.data(), 0, &Valid));
  EXPECT_FALSE(Valid);
}

TEST_P(offloadIsValidBinaryTest, SuccessOtherArchitecture) {
  std::string Copy = Object;
  Copy[18] = Copy[18] == char(183) ? char(62) : char(183);
  Copy[19] = 0;
  bool Valid = true;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Device, Copy.data(), Copy.size(), &Valid));
  EXPECT_FALSE(Valid);
}

TEST_P(offloadIsValidBinaryTest, InvalidNullDevice) {
  bool Valid;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadIsValidBinary(nullptr, Object.data(), 4, &Valid));
}

TEST_P(offloadIsValidBinaryTest, InvalidNullProgData) {
  bool Valid;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "ProgData is null",
                   offloadIsValidBinary(Device, nullptr, 4, &Valid));
}

TEST_P(offloadIsValidBinaryTest, InvalidNullValid) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Valid is null",
      offloadIsValidBinary(Device, Object.data(), Object.size(), nullptr));
}

} // namespace
