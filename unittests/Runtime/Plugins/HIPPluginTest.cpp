//===- HIPPluginTest.cpp - Tests only the HIP plugin has ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What only the HIP plugin does (the suites both GPU plugins run, the
// missing and unusable libraries among them, are in GPUPluginTest.cpp): the
// machine's own HIP runtime (Debian 12's libamdhip64-5, which
// scripts/setup.sh installs) without an AMD GPU, where initialization
// succeeds and the trace says why; HIP 5.2's host functions
// (hipStreamAddCallback; it has no hipLaunchHostFunc) on the fake.
//
//===----------------------------------------------------------------------===//

#include "PluginTestSupport.h"
#include "TestKernels.h"

#include <cstring>
#include <dlfcn.h>
#include <link.h>
#include <mutex>

using namespace offload_test;

namespace {

/// The trace line of the HIP platform ("offload: HIP: ..."), or "".
std::string getHIPStatusLine(const std::string &Trace) {
  size_t Begin = Trace.find("offload: HIP: ");
  if (Begin == std::string::npos)
    return "";
  return Trace.substr(Begin, Trace.find('\n', Begin) - Begin);
}

/// The path of the HIP runtime installed on the machine (Debian's
/// libamdhip64.so.5 or a newer one the loader finds), or "".
std::string findInstalledHIPRuntime() {
  for (const char *Name :
       {"libamdhip64.so.5", "libamdhip64.so.6", "libamdhip64.so.7"}) {
    void *Handle = dlopen(Name, RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    bool Loaded = Handle != nullptr;
    if (!Handle)
      Handle = dlopen(Name, RTLD_LAZY | RTLD_LOCAL);
    if (!Handle)
      continue;
    struct link_map *Map = nullptr;
    std::string Path = Name;
    if (dlinfo(Handle, RTLD_DI_LINKMAP, &Map) == 0 && Map && Map->l_name &&
        *Map->l_name)
      Path = Map->l_name;
    // The plugin opens it again; keep it loaded only if it was.
    if (!Loaded)
      dlclose(Handle);
    return Path;
  }
  return "";
}

TEST(HIPPluginTest, InstalledRuntimeIsUsable) {
  // The real HIP runtime (scripts/setup.sh installs Debian's libamdhip64-5):
  // without an AMD GPU the platform has no devices because HIP finds none,
  // not because the plugin rejects the library.
  std::string Path = findInstalledHIPRuntime();
  if (Path.empty())
    GTEST_SKIP() << "no HIP runtime installed (Debian: apt-get install "
                    "libamdhip64-5)";
  ScopedEnv Lib("OFFLOAD_HIP_LIBRARY", Path.c_str());
  std::string Trace = initWithTrace();
  std::string Status = getHIPStatusLine(Trace);
  ASSERT_FALSE(Status.empty()) << Trace;
  EXPECT_EQ(Status.find("is not a usable HIP runtime"), std::string::npos)
      << Status;
  EXPECT_NE(Status.find(" runtime at " + Path), std::string::npos) << Status;
  uint32_t Count = 0;
  offload_device_handle_t D = nullptr;
  while (offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_AMDGPU, Count, &D) ==
         OFFLOAD_SUCCESS)
    ++Count;
  if (Count == 0) {
    // hipInit (hipErrorInvalidDevice on HIP 5.2, hipErrorNoDevice later) or
    // hipGetDeviceCount said so.
    EXPECT_TRUE(Status.find(": hipInit: hipError") != std::string::npos ||
                Status.find("hipGetDeviceCount") != std::string::npos)
        << Status;
  } else {
    EXPECT_NE(Status.find("offload: HIP: " + std::to_string(Count) +
                          " device(s) (HIP "),
              std::string::npos)
        << Status;
  }
  ASSERT_SUCCESS(offloadShutDown());
}

/// Records the first element of a device buffer (host memory in the fake)
/// when it runs, to show where in queue order it ran.
struct Snapshot {
  const int32_t *Data;
  std::vector<int32_t> *Log;
  std::mutex *Mutex;
  static void run(void *S) {
    auto *Self = static_cast<Snapshot *>(S);
    std::lock_guard<std::mutex> Lock(*Self->Mutex);
    Self->Log->push_back(*Self->Data);
  }
};

TEST(HIPPluginTest, HIP52HostFunctionsThroughStreamCallbacks) {
  // HIP 5.2 has no hipLaunchHostFunc. With the driver's own host callbacks
  // (OFFLOAD_GPU_STREAM_WAIT=0) host functions go through
  // hipStreamAddCallback and still run in queue order, between kernels.
  const char *Library = getFakeHIP52Library();
  ScopedEnv Lib("OFFLOAD_HIP_LIBRARY", Library);
  ScopedEnv NoWait("OFFLOAD_GPU_STREAM_WAIT", "0");
  std::string Trace = initWithTrace();
  EXPECT_NE(Trace.find("offload: HIP 5.2.21153 runtime at " +
                       std::string(Library) +
                       ": the driver's host callbacks are "
                       "hipStreamAddCallback (no hipLaunchHostFunc)"),
            std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("offload: HIP: 1 device(s) (HIP 5.2.21153 runtime at "),
            std::string::npos)
      << Trace;
  offload_device_handle_t D = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_AMDGPU, 0, &D));
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(D, &Q));
  std::string Image(64, '\0');
  std::memcpy(Image.data(),
              "\x7f"
              "ELF\x02\x01\x01",
              7);
  uint16_t Machine = 224; // EM_AMDGPU
  std::memcpy(Image.data() + 18, &Machine, 2);
  Image += getTestPTX();
  offload_program_handle_t P = nullptr;
  ASSERT_SUCCESS(offloadCreateProgram(D, Image.data(), Image.size() + 1, &P));
  offload_symbol_handle_t AddOne = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(P, "add_one", OFFLOAD_SYMBOL_KIND_KERNEL, &AddOne));
  int32_t *Data = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(D, OFFLOAD_ALLOC_TYPE_MANAGED, sizeof(int32_t),
                                 reinterpret_cast<void **>(&Data)));
  *Data = 0;
  struct {
    int32_t *Data;
    int64_t N;
  } Args{Data, 1};
  auto L = launch1D(1, 1);
  std::vector<int32_t> Log;
  std::mutex Mutex;
  Snapshot S{Data, &Log, &Mutex};
  long Callbacks = fakeCounter("hipStreamAddCallback", Library);
  for (int I = 0; I < 5; ++I) {
    ASSERT_SUCCESS(offloadLaunchKernel(Q, D, AddOne, &Args, sizeof(Args), &L));
    ASSERT_SUCCESS(offloadLaunchHostFunction(Q, Snapshot::run, &S));
  }
  ASSERT_SUCCESS(offloadSyncQueue(Q));
  EXPECT_EQ(Log, (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(fakeCounter("hipStreamAddCallback", Library) - Callbacks, 5);
  ASSERT_SUCCESS(offloadMemFree(Data));
  ASSERT_SUCCESS(offloadDestroyProgram(P));
  ASSERT_SUCCESS(offloadDestroyQueue(Q));
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
