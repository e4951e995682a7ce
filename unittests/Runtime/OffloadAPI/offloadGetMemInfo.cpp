//===- offloadGetMemInfo.cpp - Conformance tests of offloadGetMemInfo -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetMemInfoTest : public OffloadDeviceTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadDeviceTest::SetUp());
    ASSERT_SUCCESS(
        offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_MANAGED, Size, &Ptr));
  }
  void TearDown() override {
    if (Ptr)
      EXPECT_SUCCESS(offloadMemFree(Ptr));
    OffloadDeviceTest::TearDown();
  }

  template <typename T> T get(const void *P, offload_mem_info_t Prop) {
    return getInfoAs<T>(P, Prop, offloadGetMemInfoSize, offloadGetMemInfo);
  }

  static constexpr size_t Size = 1000;
  void *Ptr = nullptr;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetMemInfoTest);

TEST_P(offloadGetMemInfoTest, SuccessDevice) {
  EXPECT_EQ(get<offload_device_handle_t>(Ptr, OFFLOAD_MEM_INFO_DEVICE), Device);
}

TEST_P(offloadGetMemInfoTest, SuccessBase) {
  EXPECT_EQ(get<void *>(Ptr, OFFLOAD_MEM_INFO_BASE), Ptr);
}

TEST_P(offloadGetMemInfoTest, SuccessSize) {
  EXPECT_EQ(get<size_t>(Ptr, OFFLOAD_MEM_INFO_SIZE), Size);
}

TEST_P(offloadGetMemInfoTest, SuccessType) {
  EXPECT_EQ(get<offload_alloc_type_t>(Ptr, OFFLOAD_MEM_INFO_TYPE),
            OFFLOAD_ALLOC_TYPE_MANAGED);
  for (offload_alloc_type_t Type :
       {OFFLOAD_ALLOC_TYPE_HOST, OFFLOAD_ALLOC_TYPE_DEVICE}) {
    void *Other = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Device, Type, 8, &Other));
    EXPECT_EQ(get<offload_alloc_type_t>(Other, OFFLOAD_MEM_INFO_TYPE), Type);
    ASSERT_SUCCESS(offloadMemFree(Other));
  }
}

TEST_P(offloadGetMemInfoTest, SuccessInteriorPointer) {
  // Any address inside the allocation answers for it, the last byte too.
  for (size_t Offset : {size_t(1), size_t(500), Size - 1}) {
    const char *Inside = static_cast<const char *>(Ptr) + Offset;
    EXPECT_EQ(get<void *>(Inside, OFFLOAD_MEM_INFO_BASE), Ptr);
    EXPECT_EQ(get<size_t>(Inside, OFFLOAD_MEM_INFO_SIZE), Size);
  }
}

TEST_P(offloadGetMemInfoTest, ErrorNotFoundPastTheEnd) {
  // One past the end (the allocation is padded to 64 bytes, so this address
  // belongs to no allocation).
  size_t Value = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "is not inside a live allocation",
                   offloadGetMemInfo(static_cast<char *>(Ptr) + Size,
                                     OFFLOAD_MEM_INFO_SIZE, sizeof(Value),
                                     &Value));
}

TEST_P(offloadGetMemInfoTest, ErrorNotFoundForeignMemory) {
  int Local = 0;
  size_t Value = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_NOT_FOUND, "Ptr (0x",
      offloadGetMemInfo(&Local, OFFLOAD_MEM_INFO_SIZE, sizeof(Value), &Value));
}

TEST_P(offloadGetMemInfoTest, InvalidNullPtr) {
  size_t Value = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
      offloadGetMemInfo(nullptr, OFFLOAD_MEM_INFO_SIZE, sizeof(Value), &Value));
}

TEST_P(offloadGetMemInfoTest, InvalidEnumeration) {
  size_t Value = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (4) is not a valid enumerator",
                   offloadGetMemInfo(Ptr, static_cast<offload_mem_info_t>(4),
                                     sizeof(Value), &Value));
}

TEST_P(offloadGetMemInfoTest, InvalidNullPropValue) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
      offloadGetMemInfo(Ptr, OFFLOAD_MEM_INFO_SIZE, sizeof(size_t), nullptr));
}

TEST_P(offloadGetMemInfoTest, InvalidSizeZero) {
  size_t Value = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
                   offloadGetMemInfo(Ptr, OFFLOAD_MEM_INFO_SIZE, 0, &Value));
}

TEST_P(offloadGetMemInfoTest, InvalidSizeSmall) {
  size_t Value = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "PropSize (4) is smaller than the property's size (8",
                   offloadGetMemInfo(Ptr, OFFLOAD_MEM_INFO_BASE, 4, &Value));
}

} // namespace
