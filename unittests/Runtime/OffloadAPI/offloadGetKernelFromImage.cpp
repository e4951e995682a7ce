//===- offloadGetKernelFromImage.cpp - Conformance tests ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <thread>

using namespace offload_test;

namespace {

using offloadGetKernelFromImageTest = OffloadBinaryTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetKernelFromImageTest);

TEST_P(offloadGetKernelFromImageTest, SuccessLoadsOnceAndCaches) {
  offload_symbol_handle_t K1 = nullptr, K2 = nullptr, K3 = nullptr;
  ASSERT_SUCCESS(offloadGetKernelFromImage(Device, Object.data(), Object.size(),
                                           "saxpy", &K1));
  ASSERT_SUCCESS(offloadGetKernelFromImage(Device, Object.data(), Object.size(),
                                           "saxpy", &K2));
  ASSERT_SUCCESS(offloadGetKernelFromImage(Device, Object.data(), Object.size(),
                                           "reverse", &K3));
  EXPECT_EQ(K1, K2);
  EXPECT_NE(K1, K3);

  std::vector<float> X(100, 1.0f), Y(100, 2.0f);
  SaxpyArgs Args{3.0f, X.data(), Y.data(), 100};
  auto L = launch1D(4, 32);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Device, K1, &Args, sizeof(Args), &L));
  for (float V : Y)
    ASSERT_EQ(V, 5.0f);
}

TEST_P(offloadGetKernelFromImageTest, SuccessConcurrentFirstUse) {
  std::vector<offload_symbol_handle_t> Kernels(8, nullptr);
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < Kernels.size(); ++I)
    Threads.emplace_back([&, I] {
      EXPECT_SUCCESS(offloadGetKernelFromImage(
          Device, Object.data(), Object.size(), "saxpy", &Kernels[I]));
    });
  for (std::thread &T : Threads)
    T.join();
  for (offload_symbol_handle_t K : Kernels)
    EXPECT_EQ(K, Kernels[0]);
  EXPECT_NE(Kernels[0], nullptr);
}

TEST_P(offloadGetKernelFromImageTest, ErrorMissingKernel) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "kernel 'missing_kernel' not found",
                   offloadGetKernelFromImage(Device, Object.data(),
                                             Object.size(), "missing_kernel",
                                             &K));
}

TEST_P(offloadGetKernelFromImageTest, ErrorInvalidBinary) {
  std::string Garbage(100, 'g');
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_BINARY, "not an ELF object",
                   offloadGetKernelFromImage(Device, Garbage.data(),
                                             Garbage.size(), "saxpy", &K));
}

TEST_P(offloadGetKernelFromImageTest, InvalidArguments) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadGetKernelFromImage(nullptr, Object.data(),
                                             Object.size(), "saxpy", &K));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Image is null",
      offloadGetKernelFromImage(Device, nullptr, Object.size(), "saxpy", &K));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "KernelName is null",
                   offloadGetKernelFromImage(Device, Object.data(),
                                             Object.size(), nullptr, &K));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Kernel is null",
                   offloadGetKernelFromImage(Device, Object.data(),
                                             Object.size(), "saxpy", nullptr));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "ImageSize is zero",
      offloadGetKernelFromImage(Device, Object.data(), 0, "saxpy", &K));
}

} // namespace
