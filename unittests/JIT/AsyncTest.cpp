//===- AsyncTest.cpp - Asynchronous compilation (OFFLOAD_JIT_ASYNC=1) -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Runs with OFFLOAD_JIT_ASYNC=1 (set below, before the JIT reads its
// environment on first use): a miss starts the compile in
// the background and the launch runs the generic kernel; once the compile is
// done, launches run the specialization.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "DiskCache.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <cstring>
#include <numeric>
#include <vector>

using namespace offload_jit_test;

TEST(AsyncJITTest, MissRunsGenericThenSpecialized) {
  ASSERT_EQ(setenv("OFFLOAD_JIT_ASYNC", "1", 1), 0);
  ASSERT_EQ(setenv("OFFLOAD_CACHE_DIR", OFFLOAD_ASYNC_TEST_CACHE_DIR, 1), 0);
  offloadjit::DiskCache(OFFLOAD_ASYNC_TEST_CACHE_DIR, 0).clear();
  ASSERT_OK(offloadInit());
  offload_device_handle_t Device = nullptr;
  ASSERT_OK(offloadGetHostDevice(&Device));
  offload_jit_program_handle_t Program = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIR(Device, KernelsSource,
                                         std::strlen(KernelsSource), &Program));
  offload_jit_kernel_handle_t Kernel = nullptr;
  ASSERT_OK(offloadJITGetKernel(Program, "scale", &Kernel));
  ASSERT_OK(offloadJITResetStats());

  auto Run = [&] {
    std::vector<float> X(64);
    std::iota(X.begin(), X.end(), 0.0f);
    ScaleArgs Args{view(X.data(), 64), 3.0f};
    auto Sizes = sizes(2, 32);
    EXPECT_EQ(offloadJITLaunchKernel(nullptr, Device, Kernel, &Args,
                                     sizeof(Args), &Sizes),
              OFFLOAD_SUCCESS);
    return X;
  };
  std::vector<float> First = Run();
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.AsyncCompiles, 1u);
  EXPECT_EQ(S.GenericLaunches, 1u);
  ASSERT_OK(offloadJITWaitForCompiles());
  std::vector<float> Second = Run();
  S = stats();
  EXPECT_EQ(S.AsyncCompiles, 1u);
  EXPECT_EQ(S.GenericLaunches, 1u); // the second launch was specialized
  EXPECT_EQ(S.Compiles, 2u);        // generic + specialization
  for (size_t I = 0; I < 64; ++I) {
    EXPECT_EQ(First[I], 3.0f * I);
    EXPECT_EQ(Second[I], 3.0f * I);
  }
  ASSERT_OK(offloadJITDestroyProgram(Program));
  ASSERT_OK(offloadShutDown());
}
