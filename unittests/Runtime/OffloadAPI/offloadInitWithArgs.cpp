//===- offloadInitWithArgs.cpp - Conformance tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// liboffload 23's olInit(const ol_init_args_t *): the platforms to
// initialize. Like offloadInit's tests, each test initializes the runtime
// itself. The fake CUDA driver (OFFLOAD_CUDA_LIBRARY) gives the selection a
// platform with devices to leave out.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <vector>

using namespace offload_test;

namespace {

std::vector<offload_platform_backend_t> platformBackends() {
  std::vector<offload_platform_handle_t> Platforms;
  offload_result_t R = offloadIteratePlatforms(
      [](offload_platform_handle_t P, void *Data) {
        static_cast<std::vector<offload_platform_handle_t> *>(Data)->push_back(
            P);
        return true;
      },
      &Platforms);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  std::vector<offload_platform_backend_t> Backends;
  for (offload_platform_handle_t P : Platforms) {
    offload_platform_backend_t B = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
    R = offloadGetPlatformInfo(P, OFFLOAD_PLATFORM_INFO_BACKEND, sizeof(B), &B);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    Backends.push_back(B);
  }
  return Backends;
}

uint32_t countDevices(offload_platform_backend_t Backend) {
  for (uint32_t I = 0;; ++I) {
    offload_device_handle_t D = nullptr;
    if (offloadGetDevice(Backend, I, &D) != OFFLOAD_SUCCESS)
      return I;
  }
}

constexpr offload_platform_backend_t AllBackends[] = {
    OFFLOAD_PLATFORM_BACKEND_HOST, OFFLOAD_PLATFORM_BACKEND_CUDA,
    OFFLOAD_PLATFORM_BACKEND_AMDGPU};

TEST(offloadInitWithArgsTest, SuccessNullIsOffloadInit) {
  ASSERT_SUCCESS(offloadInitWithArgs(nullptr));
  EXPECT_EQ(platformBackends(),
            std::vector<offload_platform_backend_t>(std::begin(AllBackends),
                                                    std::end(AllBackends)));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitWithArgsTest, SuccessDefaults) {
  offload_init_args_t Args = OFFLOAD_INIT_ARGS_INIT;
  EXPECT_EQ(Args.Size, sizeof(offload_init_args_t));
  ASSERT_SUCCESS(offloadInitWithArgs(&Args));
  EXPECT_EQ(platformBackends().size(), 3u);
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitWithArgsTest, SuccessSelectsPlatforms) {
  ScopedEnv Fake("OFFLOAD_CUDA_LIBRARY", OFFLOAD_FAKE_CUDA_LIBRARY);
  // Everything: the fake's devices are there.
  ASSERT_SUCCESS(offloadInitWithArgs(nullptr));
  uint32_t CudaDevices = countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA);
  EXPECT_GT(CudaDevices, 0u);
  ASSERT_SUCCESS(offloadShutDown());

  // The host platform only.
  offload_init_args_t Args = OFFLOAD_INIT_ARGS_INIT;
  offload_platform_backend_t HostOnly[] = {OFFLOAD_PLATFORM_BACKEND_HOST};
  Args.NumPlatforms = 1;
  Args.Platforms = HostOnly;
  ASSERT_SUCCESS(offloadInitWithArgs(&Args));
  EXPECT_EQ(platformBackends(), std::vector<offload_platform_backend_t>{
                                    OFFLOAD_PLATFORM_BACKEND_HOST});
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_UNKNOWN), 1u);
  ASSERT_SUCCESS(offloadShutDown());

  // HIP (no library, no devices) but not CUDA: the host is always there.
  offload_platform_backend_t Hip[] = {OFFLOAD_PLATFORM_BACKEND_AMDGPU,
                                      OFFLOAD_PLATFORM_BACKEND_AMDGPU};
  Args.NumPlatforms = 2;
  Args.Platforms = Hip;
  ASSERT_SUCCESS(offloadInitWithArgs(&Args));
  EXPECT_EQ(platformBackends(), (std::vector<offload_platform_backend_t>{
                                    OFFLOAD_PLATFORM_BACKEND_HOST,
                                    OFFLOAD_PLATFORM_BACKEND_AMDGPU}));
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  ASSERT_SUCCESS(offloadShutDown());

  // CUDA: its devices after the host's.
  offload_platform_backend_t Cuda[] = {OFFLOAD_PLATFORM_BACKEND_CUDA};
  Args.NumPlatforms = 1;
  Args.Platforms = Cuda;
  ASSERT_SUCCESS(offloadInitWithArgs(&Args));
  EXPECT_EQ(platformBackends(),
            (std::vector<offload_platform_backend_t>{
                OFFLOAD_PLATFORM_BACKEND_HOST, OFFLOAD_PLATFORM_BACKEND_CUDA}));
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), CudaDevices);
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitWithArgsTest, SuccessOnlyTheFirstInitSelects) {
  offload_init_args_t Args = OFFLOAD_INIT_ARGS_INIT;
  offload_platform_backend_t HostOnly[] = {OFFLOAD_PLATFORM_BACKEND_HOST};
  Args.NumPlatforms = 1;
  Args.Platforms = HostOnly;
  ASSERT_SUCCESS(offloadInitWithArgs(&Args));
  // Reference counted: later calls count, they do not re-initialize.
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadInitWithArgs(nullptr));
  EXPECT_EQ(platformBackends().size(), 1u);
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_SUCCESS(offloadShutDown());
  offload_device_handle_t Host = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadGetHostDevice(&Host));
}

TEST(offloadInitWithArgsTest, SuccessWithCodeLoc) {
  offload_code_location_t Loc = {"SuccessWithCodeLoc", __FILE__, __LINE__, 0};
  ASSERT_SUCCESS(offloadInitWithArgsWithCodeLoc(nullptr, &Loc));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadInitWithArgsTest, InvalidSize) {
  offload_init_args_t Args = OFFLOAD_INIT_ARGS_INIT;
  Args.Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "InitArgs->Size (0) is smaller than "
                   "sizeof(offload_init_args_t)",
                   offloadInitWithArgs(&Args));
  Args.Size = sizeof(Args) - 1;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE, offloadInitWithArgs(&Args));
  // Nothing was initialized.
  offload_device_handle_t Host = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadGetHostDevice(&Host));
}

TEST(offloadInitWithArgsTest, InvalidNullPlatforms) {
  offload_init_args_t Args = OFFLOAD_INIT_ARGS_INIT;
  Args.NumPlatforms = 2;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                   "InitArgs->Platforms is null but NumPlatforms is 2",
                   offloadInitWithArgs(&Args));
}

TEST(offloadInitWithArgsTest, InvalidEnumeration) {
  offload_init_args_t Args = OFFLOAD_INIT_ARGS_INIT;
  offload_platform_backend_t Bad[] = {
      OFFLOAD_PLATFORM_BACKEND_HOST,
      static_cast<offload_platform_backend_t>(42)};
  Args.NumPlatforms = 2;
  Args.Platforms = Bad;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "InitArgs->Platforms[1] (42) is not a valid enumerator",
                   offloadInitWithArgs(&Args));
  offload_device_handle_t Host = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_UNINITIALIZED, offloadGetHostDevice(&Host));
}

} // namespace
