//===- HIPPluginTest.cpp - Tests of the HIP plugin without a GPU ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The HIP plugin's "no devices" paths: a missing HIP runtime and a library
// that is not one. Initialization succeeds and the trace says why.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

std::string initWithTrace() {
  std::string Err;
  {
    ScopedEnv Trace("OFFLOAD_TRACE", "1");
    CaptureStderr();
    offload_result_t R = offloadInit();
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    if (!R)
      offloadShutDown();
    Err = GetCapturedStderr();
  }
  // Again without the trace, for the rest of the test.
  offload_result_t R = offloadInit();
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  return Err;
}

TEST(HIPPluginTest, MissingLibraryMeansNoDevices) {
  ScopedEnv Lib("OFFLOAD_HIP_LIBRARY", "/nonexistent/libamdhip64.so");
  std::string Trace = initWithTrace();
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_AMDGPU, 0, &D));
  EXPECT_NE(Trace.find("offload: HIP: no devices (OFFLOAD_HIP_LIBRARY=/"
                       "nonexistent/libamdhip64.so cannot be loaded: "),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(HIPPluginTest, LibraryThatIsNoRuntime) {
  ScopedEnv Lib("OFFLOAD_HIP_LIBRARY", "libm.so.6");
  std::string Trace = initWithTrace();
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_AMDGPU, 0, &D));
  EXPECT_NE(Trace.find("is not a usable HIP runtime: it lacks hipInit"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(HIPPluginTest, FakeRuntimeDeviceProperties) {
  const char *Fake = std::getenv("OFFLOAD_TEST_FAKE_HIP_LIBRARY");
  ScopedEnv Lib("OFFLOAD_HIP_LIBRARY",
                Fake && *Fake ? Fake : OFFLOAD_FAKE_HIP_LIBRARY);
  std::string Trace = initWithTrace();
  EXPECT_NE(Trace.find("offload: HIP: 1 device(s) (HIP 6.2.0 runtime at "),
            std::string::npos)
      << Trace;
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_AMDGPU, 0, &D));
  offload_platform_handle_t Platform = nullptr;
  ASSERT_SUCCESS(offloadGetDeviceInfo(D, OFFLOAD_DEVICE_INFO_PLATFORM,
                                      sizeof(Platform), &Platform));
  char Text[64];
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                        sizeof(Text), Text));
  EXPECT_STREQ(Text, "hip");
  // The architecture from the device properties, the marketing name as the
  // product name.
  EXPECT_EQ(getDeviceString(D, OFFLOAD_DEVICE_INFO_NAME),
            "gfx90a:sramecc+:xnack-");
  EXPECT_EQ(getDeviceString(D, OFFLOAD_DEVICE_INFO_PRODUCT_NAME),
            "Fake CUDA Device");
  EXPECT_EQ(getDeviceString(D, OFFLOAD_DEVICE_INFO_ARCHITECTURE),
            "gfx90a:sramecc+:xnack-");
  EXPECT_EQ(getDeviceString(D, OFFLOAD_DEVICE_INFO_VENDOR),
            "Advanced Micro Devices, Inc.");
  EXPECT_EQ(getDeviceString(D, OFFLOAD_DEVICE_INFO_DRIVER_VERSION),
            "HIP 6.2.0");
  EXPECT_EQ(getDeviceString(D, OFFLOAD_DEVICE_INFO_UID),
            "GPU-000102030405060708090a0b0c0d0e0f");
  EXPECT_EQ(getDeviceInfo<uint32_t>(D, OFFLOAD_DEVICE_INFO_VENDOR_ID), 0x1002u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE), 64u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D, OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE),
            1024u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D, OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS),
            132u);
  EXPECT_EQ(getDeviceInfo<uint64_t>(D, OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE),
            uint64_t(1) << 30);
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
