//===- CUDAPluginTest.cpp - Tests of the CUDA plugin ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA plugin without a driver (missing library, the toolkit's stub, a
// library that is no driver), and with one: the fake driver of FakeCUDA.cpp
// (instantiation FakeCUDA, always) and the machine's real driver (RealCUDA,
// skipped without a CUDA device). The settings of the plugin are environment
// variables read by offloadInit, so each test sets them before initializing.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"
#include "TestKernels.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <future>
#include <thread>

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

/// The fake drivers built with the tests; OFFLOAD_TEST_FAKE_CUDA_LIBRARY and
/// OFFLOAD_TEST_FAKE_HIP_LIBRARY point elsewhere (scripts/gpu-check.sh runs
/// the tests from a bundle).
const char *getFake(const char *Variable, const char *Default) {
  const char *Value = std::getenv(Variable);
  return Value && *Value ? Value : Default;
}
const char *FakeLibrary =
    getFake("OFFLOAD_TEST_FAKE_CUDA_LIBRARY", OFFLOAD_FAKE_CUDA_LIBRARY);

/// The number of devices of \p Backend.
uint32_t countDevices(offload_platform_backend_t Backend) {
  uint32_t Count = 0;
  offload_device_handle_t D = nullptr;
  while (offloadGetDevice(Backend, Count, &D) == OFFLOAD_SUCCESS)
    ++Count;
  return Count;
}

/// Initializes the runtime with OFFLOAD_TRACE=1 and returns what it printed
/// while initializing.
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

/// A call counter of the fake driver.
long fakeCounter(const char *Name, const char *Library = FakeLibrary) {
  void *Handle = dlopen(Library, RTLD_NOW | RTLD_NOLOAD);
  if (!Handle)
    return -1;
  auto *Fn = reinterpret_cast<long (*)(const char *)>(
      dlsym(Handle, "fakeCudaCounter"));
  long Value = Fn ? Fn(Name) : -1;
  dlclose(Handle);
  return Value;
}

//===----------------------------------------------------------------------===//
// No driver
//===----------------------------------------------------------------------===//

TEST(CUDAPluginTest, MissingLibraryMeansNoDevices) {
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", "/nonexistent/libcuda.so.1");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_GE(countDevices(OFFLOAD_PLATFORM_BACKEND_HOST), 1u);
  EXPECT_NE(Trace.find("offload: CUDA: no devices (OFFLOAD_CUDA_LIBRARY=/"
                       "nonexistent/libcuda.so.1 cannot be loaded: "
                       "/nonexistent/libcuda.so.1: cannot open shared object "
                       "file"),
            std::string::npos)
      << Trace;
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &D));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, LibraryThatIsNoDriver) {
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", "libm.so.6");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_NE(Trace.find("is not a usable CUDA driver: it lacks cuInit"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, StubLibraryMeansNoDevices) {
  // The fake driver playing the toolkit's stub: cuInit returns
  // CUDA_ERROR_STUB_LIBRARY (34).
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", FakeLibrary);
  ScopedEnv Stub("FAKE_CUDA_INIT_RESULT", "34");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_NE(Trace.find("offload: CUDA: no devices (" +
                       std::string(FakeLibrary) +
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

TEST(CUDAPluginTest, DriverWithoutDevices) {
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", FakeLibrary);
  ScopedEnv Count("FAKE_CUDA_DEVICE_COUNT", "0");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 0u);
  EXPECT_NE(Trace.find("offload: CUDA: no devices (CUDA 13.0 driver at " +
                       std::string(FakeLibrary) +
                       ": cuDeviceGetCount found no device)"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, FakeDriverDeviceProperties) {
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", FakeLibrary);
  ScopedEnv Count("FAKE_CUDA_DEVICE_COUNT", "2");
  ScopedEnv Name("FAKE_CUDA_DEVICE_NAME", "Fake H200");
  ScopedEnv CC("FAKE_CUDA_COMPUTE_CAPABILITIES", "90,86");
  std::string Trace = initWithTrace();
  EXPECT_NE(Trace.find("offload: CUDA: 2 device(s) (CUDA 13.0 driver at " +
                       std::string(FakeLibrary) + ")"),
            std::string::npos)
      << Trace;
  ASSERT_EQ(countDevices(OFFLOAD_PLATFORM_BACKEND_CUDA), 2u);
  offload_device_handle_t Host = nullptr, D0 = nullptr, D1 = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &D0));
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 1, &D1));
  // The host device stays first; CUDA devices follow in ordinal order.
  offload_device_handle_t Any1 = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN, 1, &Any1));
  EXPECT_EQ(Any1, D0);

  offload_platform_handle_t Platform = nullptr;
  ASSERT_SUCCESS(offloadGetDeviceInfo(D0, OFFLOAD_DEVICE_INFO_PLATFORM,
                                      sizeof(Platform), &Platform));
  char Text[64];
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                        sizeof(Text), Text));
  EXPECT_STREQ(Text, "cuda");
  ASSERT_SUCCESS(offloadGetPlatformInfo(
      Platform, OFFLOAD_PLATFORM_INFO_VENDOR_NAME, sizeof(Text), Text));
  EXPECT_STREQ(Text, "NVIDIA Corporation");
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_VERSION,
                                        sizeof(Text), Text));
  EXPECT_STREQ(Text, "CUDA 13.0");

  EXPECT_EQ(getDeviceInfo<offload_device_type_t>(D0, OFFLOAD_DEVICE_INFO_TYPE),
            OFFLOAD_DEVICE_TYPE_GPU);
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_NAME), "Fake H200");
  EXPECT_EQ(getDeviceString(D1, OFFLOAD_DEVICE_INFO_NAME), "Fake H200 1");
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_PRODUCT_NAME), "Fake H200");
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_UID),
            "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f");
  EXPECT_EQ(getDeviceString(D1, OFFLOAD_DEVICE_INFO_UID),
            "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_VENDOR),
            "NVIDIA Corporation");
  // The chip from each device's compute capability.
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_ARCHITECTURE), "sm_90");
  EXPECT_EQ(getDeviceString(D1, OFFLOAD_DEVICE_INFO_ARCHITECTURE), "sm_86");
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_DRIVER_VERSION),
            "CUDA 13.0");
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_VENDOR_ID),
            0x10deu);
  EXPECT_EQ(
      getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE),
      1024u);
  auto Block = getDeviceInfo<offload_dimensions_t>(
      D0, OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
  EXPECT_EQ(Block.x, 1024u);
  EXPECT_EQ(Block.y, 1024u);
  EXPECT_EQ(Block.z, 64u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE),
            UINT32_MAX);
  auto Work = getDeviceInfo<offload_dimensions_t>(
      D0, OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION);
  EXPECT_EQ(Work.x, UINT32_MAX);
  EXPECT_EQ(Work.y, 65535u * 1024u);
  EXPECT_EQ(Work.z, 65535u * 64u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS),
            132u);
  EXPECT_EQ(
      getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_MAX_CLOCK_FREQUENCY),
      1755u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_MEMORY_CLOCK_RATE),
            2619u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_ADDRESS_BITS), 64u);
  EXPECT_EQ(getDeviceInfo<uint64_t>(D0, OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE),
            uint64_t(1) << 30);
  EXPECT_EQ(getDeviceInfo<uint64_t>(D0, OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE),
            uint64_t(1) << 30);
  // The opt-in maximum: launches above 48 KiB opt in for the kernel.
  EXPECT_EQ(getDeviceInfo<uint64_t>(
                D0, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE),
            101376u);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE),
            32u);
  auto Single = getDeviceInfo<offload_device_fp_capability_flags_t>(
      D0, OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG);
  EXPECT_TRUE(Single & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA);
  EXPECT_TRUE(Single & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM);
  EXPECT_EQ(getDeviceInfo<uint32_t>(
                D0, OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT),
            1u);
  EXPECT_EQ(
      getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF),
      2u);
  ASSERT_SUCCESS(offloadShutDown());
}

//===----------------------------------------------------------------------===//
// With a driver: the fake one, and the real one when there is a GPU
//===----------------------------------------------------------------------===//

/// The driver a GPUDriverTest runs on.
struct DriverConfig {
  const char *Name;                   ///< for test names
  offload_platform_backend_t Backend; ///< CUDA or AMDGPU
  const char *LibraryVariable;        ///< OFFLOAD_CUDA_LIBRARY, ...
  const char *FakeLibrary;            ///< the fake, or null for the real one
};

void PrintTo(const DriverConfig &C, std::ostream *OS) { *OS << C.Name; }

const char *FakeHIPLibrary =
    getFake("OFFLOAD_TEST_FAKE_HIP_LIBRARY", OFFLOAD_FAKE_HIP_LIBRARY);
/// The fake playing HIP 5.2 (Debian 12's runtime: no hipLaunchHostFunc, HIP
/// 5's pointer attributes).
const char *FakeHIP52Library =
    getFake("OFFLOAD_TEST_FAKE_HIP52_LIBRARY", OFFLOAD_FAKE_HIP52_LIBRARY);

/// A device of a GPU plugin on the fake CUDA driver, the fake HIP runtime or
/// the machine's CUDA driver, a queue, and the test kernels loaded (PTX for
/// CUDA; for the fake HIP runtime the same text behind an AMDGPU ELF header).
class GPUDriverTest : public ::testing::TestWithParam<DriverConfig> {
protected:
  void SetUp() override {
    const DriverConfig &C = GetParam();
    if (isFake()) {
      Lib.emplace(C.LibraryVariable, C.FakeLibrary);
      Count.emplace("FAKE_CUDA_DEVICE_COUNT", "2");
    } else if (const char *L = std::getenv(C.LibraryVariable);
               L && std::string(L) == FakeLibrary) {
      GTEST_SKIP() << C.LibraryVariable << " names the fake driver";
    }
    ASSERT_SUCCESS(offloadInit());
    Initialized = true;
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
    if (offloadGetDevice(C.Backend, 0, &Device)) {
      if (isFake())
        FAIL() << "the fake driver has no device";
      GTEST_SKIP() << "no " << C.Name << " device";
    }
    ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
    size_t Size;
    if (isHIP()) {
      // The fake HIP runtime reads NUL-terminated text after the header.
      Image = makeElfHeader(224) + getTestPTX();
      Size = Image.size() + 1;
    } else {
      // The image is not NUL-terminated: what follows it must not be read.
      Image = std::string(getTestPTX()) + ".entry past_the_end";
      Size = std::strlen(getTestPTX());
    }
    ASSERT_SUCCESS(offloadCreateProgram(Device, Image.data(), Size, &Program));
  }
  void TearDown() override {
    if (Program)
      EXPECT_SUCCESS(offloadDestroyProgram(Program));
    if (Queue)
      EXPECT_SUCCESS(offloadDestroyQueue(Queue));
    if (Initialized)
      EXPECT_SUCCESS(offloadShutDown());
  }

  bool isFake() const { return GetParam().FakeLibrary != nullptr; }
  bool isHIP() const {
    return GetParam().Backend == OFFLOAD_PLATFORM_BACKEND_AMDGPU;
  }
  /// A call counter of the fake driver (of the fake CUDA driver inside the
  /// fake HIP runtime); -1 for a real driver.
  long counter(const char *Name) const {
    return isFake() ? fakeCounter(Name, GetParam().FakeLibrary) : -1;
  }

  /// A 64-bit little-endian ELF header for machine \p Machine.
  static std::string makeElfHeader(uint16_t Machine) {
    std::string H(64, '\0');
    std::memcpy(H.data(),
                "\x7f"
                "ELF\x02\x01\x01",
                7);
    std::memcpy(H.data() + 18, &Machine, 2);
    return H;
  }

  offload_symbol_handle_t getKernel(const char *Name) {
    offload_symbol_handle_t K = nullptr;
    offload_result_t R =
        offloadGetSymbol(Program, Name, OFFLOAD_SYMBOL_KIND_KERNEL, &K);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return K;
  }

  std::optional<ScopedEnv> Lib, Count;
  bool Initialized = false;
  offload_device_handle_t Host = nullptr, Device = nullptr;
  offload_queue_handle_t Queue = nullptr;
  offload_program_handle_t Program = nullptr;
  std::string Image;
};

std::string configName(const ::testing::TestParamInfo<DriverConfig> &Info) {
  return Info.param.Name;
}

INSTANTIATE_TEST_SUITE_P(FakeCUDA, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "fake_cuda", OFFLOAD_PLATFORM_BACKEND_CUDA,
                             "OFFLOAD_CUDA_LIBRARY", FakeLibrary}),
                         configName);
INSTANTIATE_TEST_SUITE_P(RealCUDA, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "cuda", OFFLOAD_PLATFORM_BACKEND_CUDA,
                             "OFFLOAD_CUDA_LIBRARY", nullptr}),
                         configName);
INSTANTIATE_TEST_SUITE_P(FakeHIP, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "fake_hip", OFFLOAD_PLATFORM_BACKEND_AMDGPU,
                             "OFFLOAD_HIP_LIBRARY", FakeHIPLibrary}),
                         configName);
INSTANTIATE_TEST_SUITE_P(FakeHIP52, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "fake_hip52", OFFLOAD_PLATFORM_BACKEND_AMDGPU,
                             "OFFLOAD_HIP_LIBRARY", FakeHIP52Library}),
                         configName);

struct AddOneArgs {
  int32_t *Data;
  int64_t N;
};

TEST_P(GPUDriverTest, LaunchOnQueueAndSynchronously) {
  constexpr int N = 1000;
  DeviceBuffer<int32_t> Data(Device, N);
  std::vector<int32_t> In(N), Out(N);
  for (int I = 0; I < N; ++I)
    In[I] = I;
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Data.get(), Device, In.data(), Host,
                               Data.bytes()));
  offload_symbol_handle_t AddOne = getKernel("add_one");
  AddOneArgs Args{Data.get(), N};
  auto L = launch1D((N + 127) / 128, 128);
  ASSERT_SUCCESS(
      offloadLaunchKernel(Queue, Device, AddOne, &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Device, AddOne, &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, Out.data(), Host, Data.get(), Device, Data.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (int I = 0; I < N; ++I)
    ASSERT_EQ(Out[I], I + 2) << I;
}

TEST_P(GPUDriverTest, PackedArgumentBuffer) {
  constexpr int N = 256;
  DeviceBuffer<float> X(Device, N), Y(Device, N);
  std::vector<float> HX(N, 2.0f), HY(N, 1.0f);
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, X.get(), Device, HX.data(), Host, X.bytes()));
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, Y.get(), Device, HY.data(), Host, Y.bytes()));
  SaxpyArgs Args{3.0f, X.get(), Y.get(), N};
  auto L = launch1D(2, 128);
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("saxpy"), &Args,
                                     sizeof(Args), &L));
  // The buffer is copied at the launch: changing it now changes nothing.
  Args.A = 100.0f;
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, HY.data(), Host, Y.get(), Device, Y.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (float V : HY)
    ASSERT_EQ(V, 7.0f);
}

struct Layout {
  uint64_t PackedSize = 0;
  std::vector<uint64_t> Offsets, Sizes;
};

offload_result_t getLayout(offload_symbol_handle_t K, Layout &L) {
  uint64_t Count = 0;
  if (offload_result_t R = offloadGetSymbolInfo(
          K, OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS, sizeof(Count), &Count))
    return R;
  if (offload_result_t R =
          offloadGetSymbolInfo(K, OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE,
                               sizeof(L.PackedSize), &L.PackedSize))
    return R;
  L.Offsets.assign(Count, ~uint64_t(0));
  L.Sizes.assign(Count, ~uint64_t(0));
  if (!Count)
    return OFFLOAD_SUCCESS;
  if (offload_result_t R =
          offloadGetSymbolInfo(K, OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS,
                               Count * sizeof(uint64_t), L.Offsets.data()))
    return R;
  return offloadGetSymbolInfo(K, OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES,
                              Count * sizeof(uint64_t), L.Sizes.data());
}

TEST_P(GPUDriverTest, CooperativeLaunch) {
  // Cooperative grids map to cuLaunchCooperativeKernel (the fake CUDA driver
  // runs 2048 threads per multiprocessor, 132 of them); the HIP plugin has
  // none yet.
  bool Supported = getDeviceInfo<bool>(
      Device, OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT);
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  auto L = launch1D(2, 128);
  uint32_t Max = 0;
  offload_result_t R =
      offloadGetKernelMaxCooperativeGroupCount(Device, Saxpy, &L, &Max);
  constexpr int N = 256;
  DeviceBuffer<float> X(Device, N), Y(Device, N);
  std::vector<float> HX(N, 2.0f), HY(N, 1.0f);
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, X.get(), Device, HX.data(), Host, X.bytes()));
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Y.get(), Device, HY.data(), Host, Y.bytes()));
  SaxpyArgs Args{3.0f, X.get(), Y.get(), N};
  bool True = true;
  offload_kernel_launch_prop_t Props[] = {
      {OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE, &True},
      OFFLOAD_KERNEL_LAUNCH_PROP_END};
  if (isHIP()) {
    EXPECT_FALSE(Supported);
    ASSERT_NE(R, OFFLOAD_SUCCESS);
    EXPECT_EQ(R->Code, OFFLOAD_ERRC_UNSUPPORTED) << describe(R);
    ASSERT_ERROR(OFFLOAD_ERRC_UNSUPPORTED,
                 offloadLaunchKernelWithProperties(Queue, Device, Saxpy, &Args,
                                                   sizeof(Args), &L, Props));
    return;
  }
  if (!Supported)
    GTEST_SKIP() << "the CUDA device has no cooperative launches";
  ASSERT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  if (isFake())
    EXPECT_EQ(Max, 2048u / 128 * 132);
  ASSERT_SUCCESS(offloadLaunchKernelWithProperties(Queue, Device, Saxpy, &Args,
                                                   sizeof(Args), &L, Props));
  // The parameters were read at the launch.
  Args.A = 100.0f;
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, HY.data(), Host, Y.get(), Device, Y.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (float V : HY)
    ASSERT_EQ(V, 7.0f);
  if (isFake()) {
    EXPECT_EQ(counter("cuLaunchCooperativeKernel"), 1);
  }
  // A grid above what runs at once is refused before the driver sees it.
  L = launch1D(Max + 1, 128);
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadLaunchKernelWithProperties(nullptr, Device, Saxpy, &Args,
                                                 sizeof(Args), &L, Props));
  if (isFake())
    EXPECT_EQ(counter("cuLaunchCooperativeKernel"), 1);
}

TEST_P(GPUDriverTest, LaunchWithArguments) {
  // One pointer per argument, packed by the layout the driver reports.
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  constexpr int64_t N = 256;
  DeviceBuffer<float> X(Device, N), Y(Device, N);
  std::vector<float> HX(N, 2.0f), HY(N, 1.0f);
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, X.get(), Device, HX.data(), Host, X.bytes()));
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Y.get(), Device, HY.data(), Host, Y.bytes()));
  float A = 3.0f;
  float *XPtr = X.get(), *YPtr = Y.get();
  int64_t Count = N;
  const void *Args[] = {&A, &XPtr, &YPtr, &Count};
  size_t Sizes[] = {4, 8, 8, 8};
  auto L = launch1D(2, 128);
  Layout Known;
  if (offload_result_t R = getLayout(Saxpy, Known)) {
    ASSERT_EQ(R->Code, OFFLOAD_ERRC_UNSUPPORTED) << describe(R);
    ASSERT_ERROR(OFFLOAD_ERRC_UNSUPPORTED,
                 offloadLaunchKernelWithArguments(Queue, Device, Saxpy, 4, Args,
                                                  Sizes, &L, nullptr));
    return;
  }
  ASSERT_SUCCESS(offloadLaunchKernelWithArguments(Queue, Device, Saxpy, 4, Args,
                                                  Sizes, &L, nullptr));
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, HY.data(), Host, Y.get(), Device, Y.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (float V : HY)
    ASSERT_EQ(V, 7.0f);
}

TEST_P(GPUDriverTest, ArgumentLayout) {
  Layout L;
  if (isHIP()) {
    // HIP has no query for it: the layout comes from the code object's
    // amdhsa.kernels metadata, which the test's fake image has not (the
    // success case, a real HSACO, is test/MGPU/fake-hip.mlir): UNSUPPORTED,
    // saying why.
    offload_result_t R = getLayout(getKernel("saxpy"), L);
    ASSERT_ERROR(OFFLOAD_ERRC_UNSUPPORTED, R);
    EXPECT_NE(std::string(R->Details)
                  .find("the code object has no AMDGPU metadata note"),
              std::string::npos)
        << R->Details;
    return;
  }
  // cuFuncGetParamInfo: each parameter at its natural alignment.
  ASSERT_SUCCESS(getLayout(getKernel("saxpy"), L));
  EXPECT_EQ(L.Offsets, (std::vector<uint64_t>{0, 8, 16, 24}));
  EXPECT_EQ(L.Sizes, (std::vector<uint64_t>{4, 8, 8, 8}));
  EXPECT_EQ(L.PackedSize, sizeof(SaxpyArgs));
  ASSERT_SUCCESS(getLayout(getKernel("store_n"), L));
  EXPECT_EQ(L.Offsets, (std::vector<uint64_t>{0, 8}));
  EXPECT_EQ(L.Sizes, (std::vector<uint64_t>{8, 4}));
  // The size of a struct of the parameters, tail padding included.
  EXPECT_EQ(L.PackedSize, 16u);
  ASSERT_SUCCESS(getLayout(getKernel("fault"), L));
  EXPECT_TRUE(L.Offsets.empty());
  EXPECT_EQ(L.PackedSize, 0u);
}

TEST_P(GPUDriverTest, LaunchChecksArgumentsSize) {
  if (isHIP())
    GTEST_SKIP() << "the HIP plugin does not know argument layouts";
  DeviceBuffer<uint32_t> Out(Device, 1, OFFLOAD_ALLOC_TYPE_MANAGED);
  offload_symbol_handle_t StoreN = getKernel("store_n");
  struct {
    uint32_t *Out;
    uint32_t N;
  } Args{Out.get(), 7};
  static_assert(sizeof(Args) == 16, "a pointer and a 32-bit integer");
  auto L = launch1D(1, 1);
  // 12 bytes of parameters: with or without the struct's tail padding.
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, StoreN, &Args, 12, &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(*Out.get(), 7u);
  Args.N = 9;
  ASSERT_SUCCESS(
      offloadLaunchKernel(Queue, Device, StoreN, &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(*Out.get(), 9u);
  // Too short (the last parameter cut off) or too long.
  for (size_t Size : {size_t(8), size_t(24)}) {
    offload_result_t R =
        offloadLaunchKernel(Queue, Device, StoreN, &Args, Size, &L);
    ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT, R);
    EXPECT_NE(std::string(R->Details)
                  .find("ArgumentsSize (" + std::to_string(Size) +
                        ") does not match the size of the argument buffer "
                        "of kernel 'store_n' (12 bytes of parameters, 16 "
                        "with a struct's tail padding)"),
              std::string::npos)
        << R->Details;
  }
}

TEST_P(GPUDriverTest, DynamicSharedMemoryAboveTheDefault) {
  DeviceBuffer<uint32_t> Out(Device, 8, OFFLOAD_ALLOC_TYPE_MANAGED);
  struct {
    uint32_t *Out;
  } Args{Out.get()};
  offload_symbol_handle_t Report = getKernel("report_launch");
  offload_kernel_launch_size_args_t L;
  L.Dimensions = 3;
  L.NumGroups = {3, 2, 1};
  L.GroupSize = {32, 2, 2};
  L.DynSharedMemory = 64 * 1024;
  long Before = counter("cuFuncSetAttribute");
  ASSERT_SUCCESS(
      offloadLaunchKernel(Queue, Device, Report, &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(
      offloadLaunchKernel(Queue, Device, Report, &Args, sizeof(Args), &L));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  std::vector<uint32_t> Got(8);
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Got.data(), Host, Out.get(), Device, Out.bytes()));
  EXPECT_EQ(Got, (std::vector<uint32_t>{3, 2, 1, 32, 2, 2, 64 * 1024, 8}));
  // A CUDA kernel opted in once; AMD GPUs need no opt-in.
  if (isFake())
    EXPECT_EQ(counter("cuFuncSetAttribute") - Before, isHIP() ? 0 : 1);
}

TEST_P(GPUDriverTest, DynamicSharedMemoryTooLarge) {
  if (isHIP())
    GTEST_SKIP() << "no opt-in on AMD GPUs: the launch reports it";
  uint64_t Max = getDeviceInfo<uint64_t>(
      Device, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
  DeviceBuffer<uint32_t> Out(Device, 8);
  struct {
    uint32_t *Out;
  } Args{Out.get()};
  auto L = launch1D(1, 32, Max + 1024);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                   "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
                   offloadLaunchKernel(nullptr, Device,
                                       getKernel("report_launch"), &Args,
                                       sizeof(Args), &L));
}

TEST_P(GPUDriverTest, GlobalVariables) {
  offload_symbol_handle_t Counter = nullptr, Table = nullptr;
  ASSERT_SUCCESS(offloadGetSymbol(
      Program, "counter", OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &Counter));
  ASSERT_SUCCESS(offloadGetSymbol(Program, "table",
                                  OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &Table));
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetSymbolInfo(
      Counter, OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE, sizeof(Size), &Size));
  EXPECT_EQ(Size, 4u);
  ASSERT_SUCCESS(offloadGetSymbolInfo(
      Table, OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE, sizeof(Size), &Size));
  EXPECT_EQ(Size, 32u);
  void *Address = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbolInfo(Counter, OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS,
                           sizeof(Address), &Address));
  uint32_t Value = 0;
  ASSERT_SUCCESS(offloadMemcpy(nullptr, &Value, Host, Address, Device, 4));
  EXPECT_EQ(Value, 42u);
  Value = 7;
  ASSERT_SUCCESS(offloadMemcpy(Queue, Address, Device, &Value, Host, 4));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  Value = 0;
  ASSERT_SUCCESS(offloadMemcpy(nullptr, &Value, Host, Address, Device, 4));
  EXPECT_EQ(Value, 7u);
}

TEST_P(GPUDriverTest, KernelNotFound) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_NOT_FOUND, "kernel 'nope' is not in the program",
      offloadGetSymbol(Program, "nope", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  if (isHIP())
    return;
  // Past the end of the image, so not in the program.
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetSymbol(Program, "past_the_end",
                                OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(GPUDriverTest, BinaryFormatsHIP) {
  if (!isHIP())
    GTEST_SKIP() << "HIP only";
  bool Valid = false;
  std::string Elf = makeElfHeader(224);
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Elf.data(), Elf.size(), &Valid));
  EXPECT_TRUE(Valid);
  Elf = makeElfHeader(190);
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Elf.data(), Elf.size(), &Valid));
  EXPECT_FALSE(Valid);
  const char Bundle[] = "__CLANG_OFFLOAD_BUNDLE__\x02";
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Bundle, sizeof(Bundle), &Valid));
  EXPECT_TRUE(Valid);
  const char *PTX = getTestPTX();
  ASSERT_SUCCESS(offloadIsValidBinary(Device, PTX, std::strlen(PTX), &Valid));
  EXPECT_FALSE(Valid);
  offload_program_handle_t P = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_BINARY, "not an AMDGPU code object",
                   offloadCreateProgram(Device, PTX, std::strlen(PTX), &P));
}

TEST_P(GPUDriverTest, BinaryFormats) {
  if (isHIP())
    GTEST_SKIP() << "CUDA only";
  bool Valid = false;
  const char *PTX = getTestPTX();
  ASSERT_SUCCESS(offloadIsValidBinary(Device, PTX, std::strlen(PTX), &Valid));
  EXPECT_TRUE(Valid);
  const unsigned char Fatbin[16] = {0x50, 0xed, 0x55, 0xba, 1, 0, 16, 0};
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Fatbin, sizeof(Fatbin), &Valid));
  EXPECT_TRUE(Valid);
  // A 64-bit ELF file: a cubin only for EM_CUDA (190), not x86-64 (62).
  std::vector<unsigned char> Elf(64, 0);
  std::memcpy(Elf.data(),
              "\x7f"
              "ELF\x02\x01\x01",
              7);
  Elf[18] = 62;
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Elf.data(), Elf.size(), &Valid));
  EXPECT_FALSE(Valid);
  Elf[18] = 190;
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Elf.data(), Elf.size(), &Valid));
  EXPECT_TRUE(Valid);
  const char Junk[] = "not a GPU binary";
  ASSERT_SUCCESS(offloadIsValidBinary(Device, Junk, sizeof(Junk), &Valid));
  EXPECT_FALSE(Valid);

  offload_program_handle_t P = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_BINARY,
                   "neither a cubin (ELF), a fatbin nor PTX",
                   offloadCreateProgram(Device, Junk, sizeof(Junk), &P));
  // A truncated cubin: the driver rejects it.
  offload_result_t R = offloadCreateProgram(Device, Elf.data(), Elf.size(), &P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY) << describe(R);
  EXPECT_NE(std::string(R->Details)
                .find("cuModuleLoadDataEx failed to load "
                      "the cubin image"),
            std::string::npos)
      << R->Details;
  if (isFake())
    EXPECT_NE(std::string(R->Details).find("JIT log: fake ptxas"),
              std::string::npos)
        << R->Details;
}

TEST_P(GPUDriverTest, KernelFaultIsReportedBySynchronize) {
  if (!isFake())
    GTEST_SKIP() << "a fault ends the CUDA context of the process";
  auto L = launch1D(1, 1);
  ASSERT_SUCCESS(
      offloadLaunchKernel(Queue, Device, getKernel("fault"), nullptr, 0, &L));
  std::string Message =
      isHIP() ? "hipStreamSynchronize failed: hipErrorIllegalAddress (an "
                "illegal memory access was encountered)"
              : "cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS (an "
                "illegal memory access was encountered)";
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_BACKEND_FAILURE, Message,
                   offloadSyncQueue(Queue));
  // Without a queue, the launch reports it.
  DeviceBuffer<int32_t> Data(Device, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_BACKEND_FAILURE,
      isHIP() ? "hipErrorIllegalAddress" : "CUDA_ERROR_ILLEGAL_ADDRESS",
      offloadLaunchKernel(nullptr, Device, getKernel("fault"), nullptr, 0, &L));
  // The fixture's queue keeps its sticky error: replace it.
  EXPECT_NE(offloadDestroyQueue(Queue), OFFLOAD_SUCCESS);
  Queue = nullptr;
}

/// A host function that uses the API (a synchronous copy to the device).
struct CopyInHostFunction {
  offload_device_handle_t Device, Host;
  int32_t *Dst;
  int32_t Value;
  offload_result_t Result = OFFLOAD_SUCCESS;
  static void run(void *P) {
    auto *C = static_cast<CopyInHostFunction *>(P);
    C->Result =
        offloadMemcpy(nullptr, C->Dst, C->Device, &C->Value, C->Host, 4);
  }
};

TEST_P(GPUDriverTest, HostFunctionsMayCallTheAPI) {
  DeviceBuffer<int32_t> Data(Device, 1);
  CopyInHostFunction Copy{Device, Host, Data.get(), 1234};
  ASSERT_SUCCESS(
      offloadLaunchHostFunction(Queue, CopyInHostFunction::run, &Copy));
  AddOneArgs Args{Data.get(), 1};
  auto L = launch1D(1, 1);
  ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("add_one"), &Args,
                                     sizeof(Args), &L));
  int32_t Out = 0;
  ASSERT_SUCCESS(offloadMemcpy(Queue, &Out, Host, Data.get(), Device, 4));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Copy.Result, OFFLOAD_SUCCESS) << describe(Copy.Result);
  EXPECT_EQ(Out, 1235);
}

TEST_P(GPUDriverTest, PageableCopiesDoNotBlockTheCaller) {
  // Behind a closed gate, a copy from pageable memory must be enqueued
  // without waiting for the gate (the driver would stage it synchronously).
  DeviceBuffer<int32_t> Data(Device, 1024);
  std::vector<int32_t> Src(1024, 5), Dst(1024, 0);
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Gate::wait, &G));
  std::atomic<bool> Opened{false};
  std::thread Watchdog([&] {
    std::this_thread::sleep_for(std::chrono::seconds(5));
    Opened = true;
    G.open();
  });
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, Data.get(), Device, Src.data(), Host, Data.bytes()));
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, Dst.data(), Host, Data.get(), Device, Data.bytes()));
  bool Blocked = Opened.load();
  G.open();
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  Watchdog.join();
  EXPECT_FALSE(Blocked) << "the copy waited for the host function";
  EXPECT_EQ(Dst, Src);
}

TEST_P(GPUDriverTest, OtherThreadsUseTheDevice) {
  // Each thread makes the device's context current before using it.
  std::vector<std::thread> Threads;
  std::atomic<int> Failures{0};
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&, T] {
      void *Ptr = nullptr;
      int32_t Value = T, Back = -1;
      if (offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 4, &Ptr) ||
          offloadMemcpy(nullptr, Ptr, Device, &Value, Host, 4) ||
          offloadMemcpy(nullptr, &Back, Host, Ptr, Device, 4) || Back != T ||
          offloadMemFree(Ptr))
        ++Failures;
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Failures.load(), 0);
}

TEST_P(GPUDriverTest, EventsAcrossDevicesAndPlatforms) {
  // A host queue's event, waited on by the CUDA queue (on the host), and,
  // with two CUDA devices, an event of one waited on by the other (on the
  // device).
  offload_queue_handle_t HostQueue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &HostQueue));
  Gate G;
  ASSERT_SUCCESS(offloadLaunchHostFunction(HostQueue, Gate::wait, &G));
  offload_event_handle_t HostEvent = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(HostQueue, &HostEvent));
  ASSERT_SUCCESS(offloadWaitEvents(Queue, &HostEvent, 1));
  ASSERT_SUCCESS(offloadDestroyEvent(HostEvent));
  std::atomic<int> Step{0};
  ASSERT_SUCCESS(offloadLaunchHostFunction(
      Queue, [](void *S) { static_cast<std::atomic<int> *>(S)->store(1); },
      &Step));
  offload_event_handle_t CudaEvent = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &CudaEvent));

  offload_device_handle_t Other = nullptr;
  offload_queue_handle_t OtherQueue = nullptr;
  if (offloadGetDevice(GetParam().Backend, 1, &Other) == OFFLOAD_SUCCESS) {
    ASSERT_SUCCESS(offloadCreateQueue(Other, &OtherQueue));
    ASSERT_SUCCESS(offloadWaitEvents(OtherQueue, &CudaEvent, 1));
    ASSERT_SUCCESS(offloadLaunchHostFunction(
        OtherQueue,
        [](void *S) {
          auto *Step = static_cast<std::atomic<int> *>(S);
          int One = 1;
          Step->compare_exchange_strong(One, 2);
        },
        &Step));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  bool CompleteEarly = true;
  ASSERT_SUCCESS(offloadGetEventInfo(CudaEvent, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                     sizeof(CompleteEarly), &CompleteEarly));
  EXPECT_FALSE(CompleteEarly);
  EXPECT_EQ(Step.load(), 0);
  G.open();
  ASSERT_SUCCESS(offloadSyncEvent(CudaEvent));
  if (OtherQueue) {
    ASSERT_SUCCESS(offloadSyncQueue(OtherQueue));
    EXPECT_EQ(Step.load(), 2);
    ASSERT_SUCCESS(offloadDestroyQueue(OtherQueue));
  } else {
    EXPECT_EQ(Step.load(), 1);
  }
  ASSERT_SUCCESS(offloadDestroyEvent(CudaEvent));
  ASSERT_SUCCESS(offloadDestroyQueue(HostQueue));
}

TEST_P(GPUDriverTest, FillPatternsUseDeviceMemsets) {
  DeviceBuffer<uint8_t> Buffer(Device, 4096);
  long Strided = counter("cuMemsetD2D32Async");
  long Copies = counter("cuMemcpyAsync");
  uint64_t Pattern8 = 0x0102030405060708ull;
  ASSERT_SUCCESS(
      offloadMemFill(Queue, Buffer.get(), 8, &Pattern8, Buffer.size()));
  std::vector<uint64_t> Out(512);
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, Out.data(), Host, Buffer.get(), Device, 4096));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  for (uint64_t V : Out)
    ASSERT_EQ(V, Pattern8);
  if (isFake() && !isHIP()) {
    // Two strided 32-bit memsets, no staging copy.
    EXPECT_EQ(counter("cuMemsetD2D32Async") - Strided, 2);
    EXPECT_EQ(counter("cuMemcpyAsync") - Copies, 1);
  }
}

TEST(CUDAPluginTest, ArgumentLayoutFromPTXWithoutParamInfo) {
  // CUDA 12.2 has no cuFuncGetParamInfo: the layout of a PTX module's kernels
  // comes from their .param lists (alignment of each type or its .align).
  const char *Library = getFake("OFFLOAD_TEST_FAKE_CUDA122_LIBRARY",
                                OFFLOAD_FAKE_CUDA122_LIBRARY);
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
  EXPECT_EQ(fakeCounter("cuFuncGetParamInfo", Library), 0);
  ASSERT_SUCCESS(offloadDestroyProgram(P));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(CUDAPluginTest, FakeCUDAHostFunctionsOnTheDriverThread) {
  // OFFLOAD_GPU_STREAM_WAIT=0: host functions run as the driver's own
  // callbacks (which may not call the API).
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", FakeLibrary);
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
  ScopedEnv Lib("OFFLOAD_CUDA_LIBRARY", FakeLibrary);
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
