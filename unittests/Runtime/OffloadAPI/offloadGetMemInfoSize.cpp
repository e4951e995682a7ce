//===- offloadGetMemInfoSize.cpp - Conformance tests ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetMemInfoSizeTest : public OffloadDeviceTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadDeviceTest::SetUp());
    ASSERT_SUCCESS(
        offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 64, &Ptr));
  }
  void TearDown() override {
    if (Ptr)
      EXPECT_SUCCESS(offloadMemFree(Ptr));
    OffloadDeviceTest::TearDown();
  }

  size_t sizeOf(offload_mem_info_t Prop) {
    size_t Size = 0;
    offload_result_t R = offloadGetMemInfoSize(Ptr, Prop, &Size);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return Size;
  }

  void *Ptr = nullptr;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetMemInfoSizeTest);

TEST_P(offloadGetMemInfoSizeTest, SuccessDevice) {
  EXPECT_EQ(sizeOf(OFFLOAD_MEM_INFO_DEVICE), sizeof(offload_device_handle_t));
}

TEST_P(offloadGetMemInfoSizeTest, SuccessBase) {
  EXPECT_EQ(sizeOf(OFFLOAD_MEM_INFO_BASE), sizeof(void *));
}

TEST_P(offloadGetMemInfoSizeTest, SuccessSize) {
  EXPECT_EQ(sizeOf(OFFLOAD_MEM_INFO_SIZE), sizeof(size_t));
}

TEST_P(offloadGetMemInfoSizeTest, SuccessType) {
  EXPECT_EQ(sizeOf(OFFLOAD_MEM_INFO_TYPE), sizeof(offload_alloc_type_t));
}

TEST_P(offloadGetMemInfoSizeTest, ErrorNotFound) {
  size_t Size = 0;
  int Local = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "is not inside a live allocation",
                   offloadGetMemInfoSize(&Local, OFFLOAD_MEM_INFO_SIZE, &Size));
}

TEST_P(offloadGetMemInfoSizeTest, InvalidNullPtr) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
      offloadGetMemInfoSize(nullptr, OFFLOAD_MEM_INFO_SIZE, &Size));
}

TEST_P(offloadGetMemInfoSizeTest, InvalidEnumeration) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      "PropName (9) is not a valid enumerator",
      offloadGetMemInfoSize(Ptr, static_cast<offload_mem_info_t>(9), &Size));
}

TEST_P(offloadGetMemInfoSizeTest, InvalidNullPropSizeRet) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
                   offloadGetMemInfoSize(Ptr, OFFLOAD_MEM_INFO_SIZE, nullptr));
}

} // namespace
