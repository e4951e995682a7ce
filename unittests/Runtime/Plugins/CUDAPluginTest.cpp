//===- CUDAPluginTest.cpp - Tests only the CUDA plugin has ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What only the CUDA plugin does (the suites both GPU plugins run are in
// GPUPluginTest.cpp): the toolkit's stub library (the fake playing it, and
// the toolkit's own when installed), PTX parameter lists for drivers without
// cuFuncGetParamInfo (the fake playing CUDA 12.2), host functions as the
// driver's callbacks, and the fallback when streams cannot wait on host
// memory.
//
//===----------------------------------------------------------------------===//

#include "PluginTestSupport.h"
#include "TestKernels.h"

#include <mutex>
#include <unistd.h>
#include <vector>

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

/// The fake CUDA driver's call counter \p Name.
long fakeCounter(const char *Name) {
  return offload_test::fakeCounter(Name, getFakeCUDALibrary());
}

//===----------------------------------------------------------------------===//
// The toolkit's stub library
//===----------------------------------------------------------------------===//

TEST(CUDAPluginTest, StubLibraryMeansNoDevices) {
  // The fake driver playing the toolkit's stub: cuInit returns
  // CUDA_ERROR_STUB_LIBRARY (34).
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", getFakeCUDALibrary());
  ScopedEnv Stub("FAKE_CUDA_INIT_RESULT", "34");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_NE(Trace.find("offload: CUDA: no devices (" +
                       std::string(getFakeCUDALibrary()) +
                       " is the CUDA toolkit's stub library (cuInit: "
                       "CUDA_ERROR_STUB_LIBRARY)"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, ToolkitStubLibraryMeansNoDevices) {
  std::vector<std::string> Candidates;
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (const char *Root = std::getenv(Var))
      Candidates.push_back(std::string(Root) + "/lib64/stubs/libcuda.so");
  Candidates.push_back("/usr/local/cuda/lib64/stubs/libcuda.so");
  Candidates.push_back(
      "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so");
  std::string Stub;
  for (const std::string &C : Candidates)
    if (access(C.c_str(), R_OK) == 0) {
      Stub = C;
      break;
    }
  if (Stub.empty())
    GTEST_SKIP() << "no CUDA toolkit stub libcuda.so on this machine";
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", Stub.c_str());
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_NE(Trace.find("stub library (cuInit: CUDA_ERROR_STUB_LIBRARY)"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

//===----------------------------------------------------------------------===//
// The fake driver's variants and settings
//===----------------------------------------------------------------------===//

TEST(CUDAPluginTest, ArgumentLayoutFromPTXWithoutParamInfo) {
  // CUDA 12.2 has no cuFuncGetParamInfo: the layout of a PTX module's kernels
  // comes from their .param lists (alignment of each type or its .align).
  const char *Library = getFakeCUDA122Library();
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", Library);
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &D));
  std::string PTX = std::string(getTestPTX()) + R"ptx(
.visible .entry mixed(.param .u8 mixed_c, // a comment
    .param .align 16 .b8 mixed_s[20], .param .u64 .ptr .global .align 4 mixed_p,
    .param .f16x2 mixed_h)
{
  ret;
}
)ptx";
  offload_program_handle_t P = nullptr;
  ASSERT_SUCCESS(offloadCreateProgram(D, PTX.data(), PTX.size(), &P));
  auto Kernel = [&](const char *Name) {
    offload_symbol_handle_t K = nullptr;
    EXPECT_SUCCESS(offloadGetSymbol(P, Name, OFFLOAD_SYMBOL_KIND_KERNEL, &K));
    return K;
  };
  Layout L;
  ASSERT_SUCCESS(getLayout(Kernel("saxpy"), L));
  EXPECT_EQ(L.Offsets, (std::vector<uint64_t>{0, 8, 16, 24}));
  EXPECT_EQ(L.Sizes, (std::vector<uint64_t>{4, 8, 8, 8}));
  ASSERT_SUCCESS(getLayout(Kernel("mixed"), L));
  EXPECT_EQ(L.Offsets, (std::vector<uint64_t>{0, 16, 40, 48}));
  EXPECT_EQ(L.Sizes, (std::vector<uint64_t>{1, 20, 8, 4}));
  EXPECT_EQ(L.PackedSize, 56u);
  ASSERT_SUCCESS(getLayout(Kernel("fault"), L));
  EXPECT_TRUE(L.Offsets.empty());
  EXPECT_EQ(offload_test::fakeCounter("cuFuncGetParamInfo", Library), 0);
  ASSERT_SUCCESS(offloadDestroyProgram(P));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, FakeCUDAHostFunctionsOnTheDriverThread) {
  // OFFLOAD_GPU_STREAM_WAIT=0: host functions run as the driver's own
  // callbacks (which may not call the API).
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", getFakeCUDALibrary());
  ScopedEnv NoWait("OFFLOAD_GPU_STREAM_WAIT", "0");
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &D));
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(D, &Q));
  std::vector<int> Log;
  std::mutex Mutex;
  std::vector<LogEntry> Entries;
  for (int I = 0; I < 10; ++I)
    Entries.push_back({&Log, &Mutex, I});
  long Before = fakeCounter("cuLaunchHostFunc");
  for (LogEntry &E : Entries)
    ASSERT_SUCCESS(offloadLaunchHostFunction(Q, LogEntry::append, &E));
  ASSERT_SUCCESS(offloadSyncQueue(Q));
  EXPECT_EQ(fakeCounter("cuLaunchHostFunc") - Before, 10);
  ASSERT_EQ(Log.size(), 10u);
  for (int I = 0; I < 10; ++I)
    EXPECT_EQ(Log[I], I);
  ASSERT_SUCCESS(offloadDestroyQueue(Q));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, FakeCUDAStreamWaitUnsupported) {
  // A driver whose streams cannot wait on host memory: host work falls back
  // to the driver's callbacks, once, and says so.
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", getFakeCUDALibrary());
  ScopedEnv NoWait("FAKE_CUDA_NO_STREAM_WAIT", "1");
  ScopedEnv Trace("OFFLOAD_TRACE", "1");
  ASSERT_SUCCESS(offloadInit());
  CaptureStderr();
  offload_device_handle_t D = nullptr;
  offload_queue_handle_t Q = nullptr;
  std::vector<int> Log;
  std::mutex Mutex;
  std::vector<LogEntry> Entries;
  for (int I = 0; I < 5; ++I)
    Entries.push_back({&Log, &Mutex, I});
  offload_result_t R = offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &D);
  if (!R)
    R = offloadCreateQueue(D, &Q);
  for (LogEntry &E : Entries)
    if (!R)
      R = offloadLaunchHostFunction(Q, LogEntry::append, &E);
  if (!R)
    R = offloadSyncQueue(Q);
  if (Q)
    EXPECT_SUCCESS(offloadDestroyQueue(Q));
  std::string Err = GetCapturedStderr();
  ASSERT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  EXPECT_EQ(Log, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_NE(Err.find("offload: CUDA device 0: host work falls back to the "
                     "driver's host callbacks: OFFLOAD_ERRC_UNSUPPORTED: "
                     "cuStreamWaitValue32_v2 failed: CUDA_ERROR_NOT_SUPPORTED"),
            std::string::npos)
      << Err;
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
