//===- offloadGetDeviceInfoSize.cpp - Conformance tests -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadGetDeviceInfoSizeTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetDeviceInfoSizeTest);

/// One test per fixed-size property: its size is that of its type.
#define OFFLOAD_DEVICE_INFO_SIZE_TEST(TestName, Type, Prop)                    \
  TEST_P(offloadGetDeviceInfoSizeTest, Success##TestName) {                    \
    size_t Size = 0;                                                           \
    ASSERT_SUCCESS(offloadGetDeviceInfoSize(Device, Prop, &Size));             \
    EXPECT_EQ(Size, sizeof(Type));                                             \
  }

OFFLOAD_DEVICE_INFO_SIZE_TEST(Type, offload_device_type_t,
                              OFFLOAD_DEVICE_INFO_TYPE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(Platform, offload_platform_handle_t,
                              OFFLOAD_DEVICE_INFO_PLATFORM)
OFFLOAD_DEVICE_INFO_SIZE_TEST(MaxWorkGroupSize, uint32_t,
                              OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(
    MaxWorkGroupSizePerDimension, offload_dimensions_t,
    OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION)
OFFLOAD_DEVICE_INFO_SIZE_TEST(MaxWorkSize, uint32_t,
                              OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(MaxWorkSizePerDimension, offload_dimensions_t,
                              OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION)
OFFLOAD_DEVICE_INFO_SIZE_TEST(VendorId, uint32_t, OFFLOAD_DEVICE_INFO_VENDOR_ID)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NumComputeUnits, uint32_t,
                              OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS)
OFFLOAD_DEVICE_INFO_SIZE_TEST(MaxClockFrequency, uint32_t,
                              OFFLOAD_DEVICE_INFO_MAX_CLOCK_FREQUENCY)
OFFLOAD_DEVICE_INFO_SIZE_TEST(MemoryClockRate, uint32_t,
                              OFFLOAD_DEVICE_INFO_MEMORY_CLOCK_RATE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(AddressBits, uint32_t,
                              OFFLOAD_DEVICE_INFO_ADDRESS_BITS)
OFFLOAD_DEVICE_INFO_SIZE_TEST(MaxMemAllocSize, uint64_t,
                              OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(GlobalMemSize, uint64_t,
                              OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(WorkGroupLocalMemSize, uint64_t,
                              OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(SingleFPConfig,
                              offload_device_fp_capability_flags_t,
                              OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG)
OFFLOAD_DEVICE_INFO_SIZE_TEST(DoubleFPConfig,
                              offload_device_fp_capability_flags_t,
                              OFFLOAD_DEVICE_INFO_DOUBLE_FP_CONFIG)
OFFLOAD_DEVICE_INFO_SIZE_TEST(HalfFPConfig,
                              offload_device_fp_capability_flags_t,
                              OFFLOAD_DEVICE_INFO_HALF_FP_CONFIG)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthChar, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthShort, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthInt, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthLong, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthFloat, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthDouble, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE)
OFFLOAD_DEVICE_INFO_SIZE_TEST(NativeVectorWidthHalf, uint32_t,
                              OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF)
OFFLOAD_DEVICE_INFO_SIZE_TEST(SubgroupSize, uint32_t,
                              OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE)

TEST_P(offloadGetDeviceInfoSizeTest, SuccessStrings) {
  // Strings: their length plus the NUL.
  for (offload_device_info_t Prop :
       {OFFLOAD_DEVICE_INFO_NAME, OFFLOAD_DEVICE_INFO_PRODUCT_NAME,
        OFFLOAD_DEVICE_INFO_UID, OFFLOAD_DEVICE_INFO_VENDOR,
        OFFLOAD_DEVICE_INFO_DRIVER_VERSION, OFFLOAD_DEVICE_INFO_ARCHITECTURE}) {
    size_t Size = 0;
    ASSERT_SUCCESS(offloadGetDeviceInfoSize(Device, Prop, &Size));
    ASSERT_GT(Size, 1u) << Prop;
    std::string Value(Size, 'x');
    ASSERT_SUCCESS(offloadGetDeviceInfo(Device, Prop, Size, Value.data()));
    EXPECT_EQ(strlen(Value.c_str()) + 1, Size) << Prop;
  }
}

TEST_P(offloadGetDeviceInfoSizeTest, InvalidNullHandle) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
      offloadGetDeviceInfoSize(nullptr, OFFLOAD_DEVICE_INFO_TYPE, &Size));
}

TEST_P(offloadGetDeviceInfoSizeTest, InvalidDevice) {
  size_t Size = 0;
  auto Garbage = reinterpret_cast<offload_device_handle_t>(&Size);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
      offloadGetDeviceInfoSize(Garbage, OFFLOAD_DEVICE_INFO_TYPE, &Size));
}

TEST_P(offloadGetDeviceInfoSizeTest, InvalidEnumeration) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (32) is not a valid enumerator",
                   offloadGetDeviceInfoSize(
                       Device, static_cast<offload_device_info_t>(32), &Size));
}

TEST_P(offloadGetDeviceInfoSizeTest, InvalidNullPropSizeRet) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
      offloadGetDeviceInfoSize(Device, OFFLOAD_DEVICE_INFO_NAME, nullptr));
}

} // namespace
