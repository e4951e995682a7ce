//===- TraceTest.cpp - OFFLOAD_TRACE=1 ------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <regex>

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

/// Runs the test with OFFLOAD_TRACE=1, read when the runtime initializes.
class TraceTest : public OffloadTest {
protected:
  void SetUp() override {
    Env.emplace("OFFLOAD_TRACE", "1");
    OffloadTest::SetUp();
  }
  void TearDown() override {
    OffloadTest::TearDown();
    Env.reset();
  }

  std::optional<ScopedEnv> Env;
};

TEST_F(TraceTest, SuccessLine) {
  CaptureStderr();
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, 64, &Ptr));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
  std::string Trace = GetCapturedStderr();
  EXPECT_TRUE(std::regex_search(
      Trace, std::regex(R"(offloadMemAlloc\(Device=0x[0-9a-f]+, Type=DEVICE, )"
                        R"(Size=64, AllocationOut=0x[0-9a-f]+\) -> )"
                        R"(OFFLOAD_SUCCESS\n)")))
      << Trace;
  EXPECT_TRUE(std::regex_search(
      Trace, std::regex(R"(offloadMemFree\(Address=0x[0-9a-f]+\) -> )"
                        R"(OFFLOAD_SUCCESS\n)")))
      << Trace;
}

TEST_F(TraceTest, ErrorLine) {
  CaptureStderr();
  void *Ptr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 0, &Ptr));
  std::string Trace = GetCapturedStderr();
  EXPECT_NE(Trace.find("Type=HOST, Size=0"), std::string::npos) << Trace;
  EXPECT_NE(Trace.find(") -> OFFLOAD_ERRC_INVALID_SIZE: Size is zero\n"),
            std::string::npos)
      << Trace;
}

TEST_F(TraceTest, LaunchArguments) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  CaptureStderr();
  offload_symbol_handle_t K = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  float X = 1, Y = 2;
  SaxpyArgs Args{2.0f, &X, &Y, 1};
  auto L = launch1D(1, 32);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Host, K, &Args, sizeof(Args), &L));
  std::string Trace = GetCapturedStderr();
  EXPECT_EQ(Y, 4.0f);
  EXPECT_NE(Trace.find("offloadGetSymbol(Program="), std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("Name=\"saxpy\", Kind=KERNEL"), std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("offloadLaunchKernel(Queue=0x0, Device=0x"),
            std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("ArgumentsSize=32, LaunchSizeArgs={Dimensions=1, "
                       "NumGroups={1,1,1}, GroupSize={32,1,1}, "
                       "DynSharedMemory=0}) -> OFFLOAD_SUCCESS"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

TEST(TraceOffTest, SilentByDefault) {
  ScopedEnv Env("OFFLOAD_TRACE", "0");
  CaptureStderr();
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_SUCCESS(offloadShutDown());
  EXPECT_EQ(GetCapturedStderr(), "");
}

} // namespace
