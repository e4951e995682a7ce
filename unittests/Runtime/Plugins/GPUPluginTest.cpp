//===- GPUPluginTest.cpp - Tests both GPU plugins run ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The suites the CUDA and the HIP plugin both run, parameterized over the
// vendor:
//  - GPUVendorTest, on the fake CUDA driver and the fake HIP runtime
//    (instantiation FakeVendors): the vendor library missing, a library that
//    is not the vendor's, a library without devices, and the device and
//    platform properties of two fake devices. A vendor's differences (names,
//    messages, attribute values) are its row of kVendors.
//  - GPUDriverTest, on a device: the fake CUDA driver (FakeCUDA), the fake
//    HIP runtime (FakeHIP, FakeHIP52) and the machine's real CUDA driver
//    (RealCUDA, skipped without a CUDA device): launches, argument layouts,
//    shared memory, globals, binary formats, faults, host functions, copies.
// What only one vendor has is in CUDAPluginTest.cpp and HIPPluginTest.cpp.
// The settings of the plugins are environment variables read by offloadInit,
// so each test sets them before initializing.
//
//===----------------------------------------------------------------------===//

#include "PluginTestSupport.h"
#include "TestKernels.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <thread>

using namespace offload_test;

namespace {

//===----------------------------------------------------------------------===//
// Every vendor, without a driver and with the fake one
//===----------------------------------------------------------------------===//

/// A vendor's plugin on its fake library, and what it reports there.
struct VendorConfig {
  const char *Name;                   ///< for test names
  offload_platform_backend_t Backend; ///< CUDA or AMDGPU
  const char *API;                    ///< the trace's name ("CUDA")
  const char *LibraryVariable;        ///< OFFLOAD_CUDA_LIBRARY, ...
  const char *(*FakeLibrary)();       ///< the fake library's path
  const char *MissingLibrary;         ///< a path that does not exist
  const char *LibraryKind;            ///< "CUDA driver", "HIP runtime"
  const char *InitEntry;              ///< the entry point a library must have
  /// The library's version in the trace ("CUDA 13.0 driver"), the
  /// platform's version ("CUDA 13.0") and the entry point that counts
  /// devices.
  const char *TraceVersion, *Version, *CountEntry;
  /// Platform properties.
  const char *PlatformName, *VendorName;
  /// Device properties of the two devices the tests make; the fakes set
  /// the names, compute capabilities (CUDA) and architectures (HIP) from
  /// FAKE_CUDA_DEVICE_NAME, FAKE_CUDA_COMPUTE_CAPABILITIES, FAKE_HIP_ARCHS.
  const char *DeviceName[2], *ProductName[2], *UID[2], *Architecture[2];
  uint32_t VendorId;
  uint32_t SubgroupSize;
  /// WORK_GROUP_LOCAL_MEM_SIZE: CUDA's opt-in maximum, HIP's per block.
  uint64_t LocalMemSize;
};

void PrintTo(const VendorConfig &C, std::ostream *OS) { *OS << C.Name; }

const VendorConfig kVendors[] = {
    {"fake_cuda",
     OFFLOAD_PLATFORM_BACKEND_CUDA,
     "CUDA",
     "OFFLOAD_CUDA_LIBRARY",
     getFakeCUDALibrary,
     "/nonexistent/libcuda.so.1",
     "CUDA driver",
     "cuInit",
     "CUDA 13.0 driver",
     "CUDA 13.0",
     "cuDeviceGetCount",
     "cuda",
     "NVIDIA Corporation",
     {"Fake H200", "Fake H200 1"},
     {"Fake H200", "Fake H200 1"},
     {"GPU-00010203-0405-0607-0809-0a0b0c0d0e0f",
      "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f"},
     // The chip from each device's compute capability.
     {"sm_90", "sm_86"},
     0x10de,
     32,
     // The opt-in maximum: launches above 48 KiB opt in for the kernel.
     101376},
    {"fake_hip",
     OFFLOAD_PLATFORM_BACKEND_AMDGPU,
     "HIP",
     "OFFLOAD_HIP_LIBRARY",
     getFakeHIPLibrary,
     "/nonexistent/libamdhip64.so",
     "HIP runtime",
     "hipInit",
     "HIP 6.2.0 runtime",
     "HIP 6.2.0",
     "hipGetDeviceCount",
     "hip",
     "Advanced Micro Devices, Inc.",
     // The architecture from the device properties as the name, the
     // marketing name as the product name.
     {"gfx90a:sramecc+:xnack-", "gfx942"},
     {"Fake H200", "Fake H200 1"},
     {"GPU-000102030405060708090a0b0c0d0e0f",
      "GPU-101112131415161718191a1b1c1d1e1f"},
     {"gfx90a:sramecc+:xnack-", "gfx942"},
     0x1002,
     // A wavefront.
     64,
     49152},
};

/// Runs each test on one vendor's plugin; the test sets up the library and
/// initializes the runtime, the fixture shuts it down.
class GPUVendorTest : public ::testing::TestWithParam<VendorConfig> {
protected:
  void TearDown() override { EXPECT_SUCCESS(offloadShutDown()); }

  const VendorConfig &vendor() const { return GetParam(); }
  offload_platform_backend_t backend() const { return vendor().Backend; }
  /// The trace line that says why the vendor's platform has no devices.
  std::string noDevices(const std::string &Why) const {
    return "offload: " + std::string(vendor().API) + ": no devices (" + Why;
  }
};

INSTANTIATE_TEST_SUITE_P(
    FakeVendors, GPUVendorTest, ::testing::ValuesIn(kVendors),
    [](const ::testing::TestParamInfo<VendorConfig> &Info) {
      return std::string(Info.param.Name);
    });

TEST_P(GPUVendorTest, MissingLibraryMeansNoDevices) {
  const char *Missing = vendor().MissingLibrary;
  ScopedEnv Lib(vendor().LibraryVariable, Missing);
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(backend()), 0u);
  EXPECT_GE(countDevices(OFFLOAD_PLATFORM_BACKEND_HOST), 1u);
  EXPECT_NE(Trace.find(noDevices(std::string(vendor().LibraryVariable) + "=" +
                                 Missing + " cannot be loaded: " + Missing +
                                 ": cannot open shared object file")),
            std::string::npos)
      << Trace;
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND, offloadGetDevice(backend(), 0, &D));
}

TEST_P(GPUVendorTest, LibraryThatIsNotTheVendors) {
  ScopedEnv Lib(vendor().LibraryVariable, "libm.so.6");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(backend()), 0u);
  EXPECT_GE(countDevices(OFFLOAD_PLATFORM_BACKEND_HOST), 1u);
  EXPECT_NE(Trace.find("is not a usable " + std::string(vendor().LibraryKind) +
                       ": it lacks " + vendor().InitEntry),
            std::string::npos)
      << Trace;
  offload_device_handle_t D = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND, offloadGetDevice(backend(), 0, &D));
}

TEST_P(GPUVendorTest, LibraryWithoutDevices) {
  ScopedEnv Lib(vendor().LibraryVariable, vendor().FakeLibrary());
  ScopedEnv Count("FAKE_CUDA_DEVICE_COUNT", "0");
  std::string Trace = initWithTrace();
  EXPECT_EQ(countDevices(backend()), 0u);
  EXPECT_NE(Trace.find(noDevices(std::string(vendor().TraceVersion) + " at " +
                                 vendor().FakeLibrary() + ": " +
                                 vendor().CountEntry + " found no device)")),
            std::string::npos)
      << Trace;
}

TEST_P(GPUVendorTest, FakeDeviceProperties) {
  const VendorConfig &V = vendor();
  ScopedEnv Lib(V.LibraryVariable, V.FakeLibrary());
  ScopedEnv Count("FAKE_CUDA_DEVICE_COUNT", "2");
  ScopedEnv Name("FAKE_CUDA_DEVICE_NAME", "Fake H200");
  ScopedEnv CC("FAKE_CUDA_COMPUTE_CAPABILITIES", "90,86");
  ScopedEnv Archs("FAKE_HIP_ARCHS", "gfx90a:sramecc+:xnack-,gfx942");
  std::string Trace = initWithTrace();
  EXPECT_NE(Trace.find("offload: " + std::string(V.API) + ": 2 device(s) (" +
                       V.TraceVersion + " at " + V.FakeLibrary() + ")"),
            std::string::npos)
      << Trace;
  ASSERT_EQ(countDevices(backend()), 2u);
  offload_device_handle_t Host = nullptr, D[2] = {nullptr, nullptr};
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_SUCCESS(offloadGetDevice(backend(), 0, &D[0]));
  ASSERT_SUCCESS(offloadGetDevice(backend(), 1, &D[1]));
  // The host device stays first; the vendor's devices follow in ordinal
  // order.
  offload_device_handle_t Any1 = nullptr;
  ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN, 1, &Any1));
  EXPECT_EQ(Any1, D[0]);

  offload_platform_handle_t Platform = nullptr;
  ASSERT_SUCCESS(offloadGetDeviceInfo(D[0], OFFLOAD_DEVICE_INFO_PLATFORM,
                                      sizeof(Platform), &Platform));
  char Text[64];
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                                        sizeof(Text), Text));
  EXPECT_STREQ(Text, V.PlatformName);
  ASSERT_SUCCESS(offloadGetPlatformInfo(
      Platform, OFFLOAD_PLATFORM_INFO_VENDOR_NAME, sizeof(Text), Text));
  EXPECT_STREQ(Text, V.VendorName);
  ASSERT_SUCCESS(offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_VERSION,
                                        sizeof(Text), Text));
  EXPECT_STREQ(Text, V.Version);

  for (int I = 0; I < 2; ++I) {
    SCOPED_TRACE("device " + std::to_string(I));
    EXPECT_EQ(getDeviceString(D[I], OFFLOAD_DEVICE_INFO_NAME), V.DeviceName[I]);
    EXPECT_EQ(getDeviceString(D[I], OFFLOAD_DEVICE_INFO_PRODUCT_NAME),
              V.ProductName[I]);
    EXPECT_EQ(getDeviceString(D[I], OFFLOAD_DEVICE_INFO_UID), V.UID[I]);
    EXPECT_EQ(getDeviceString(D[I], OFFLOAD_DEVICE_INFO_ARCHITECTURE),
              V.Architecture[I]);
  }
  offload_device_handle_t D0 = D[0];
  EXPECT_EQ(getDeviceInfo<offload_device_type_t>(D0, OFFLOAD_DEVICE_INFO_TYPE),
            OFFLOAD_DEVICE_TYPE_GPU);
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_VENDOR), V.VendorName);
  EXPECT_EQ(getDeviceString(D0, OFFLOAD_DEVICE_INFO_DRIVER_VERSION), V.Version);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_VENDOR_ID),
            V.VendorId);
  // The fakes' attributes (the fake HIP runtime answers those of the fake
  // CUDA driver it is built on, but for the wavefront size).
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
  EXPECT_EQ(getDeviceInfo<uint64_t>(
                D0, OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE),
            V.LocalMemSize);
  EXPECT_EQ(getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE),
            V.SubgroupSize);
  auto Single = getDeviceInfo<offload_device_fp_capability_flags_t>(
      D0, OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG);
  EXPECT_TRUE(Single & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA);
  EXPECT_TRUE(Single & OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM);
  EXPECT_EQ(getDeviceInfo<uint32_t>(
                D0, OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT),
            1u);
  // Half precision: every AMD GPU, NVIDIA's from compute capability 5.3.
  EXPECT_EQ(
      getDeviceInfo<uint32_t>(D0, OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF),
      2u);
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

/// A device of a GPU plugin on the fake CUDA driver, the fake HIP runtime
/// (also playing HIP 5.2, Debian 12's runtime: no hipLaunchHostFunc, HIP 5's
/// pointer attributes) or
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
               L && std::string(L) == getFakeCUDALibrary()) {
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

  /// Where the fake driver's last cuMemPrefetchAsync_v2 moved memory to
  /// (CUmemLocationType, id) and how much; false for a real driver or none.
  bool lastPrefetch(int &Type, int &Id, size_t &Size) const {
    if (!isFake())
      return false;
    void *Handle = dlopen(GetParam().FakeLibrary, RTLD_NOW | RTLD_NOLOAD);
    if (!Handle)
      return false;
    auto *Fn = reinterpret_cast<int (*)(int *, int *, size_t *)>(
        dlsym(Handle, "fakeCudaGetLastPrefetch"));
    bool Found = Fn && Fn(&Type, &Id, &Size);
    dlclose(Handle);
    return Found;
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
                             "OFFLOAD_CUDA_LIBRARY", getFakeCUDALibrary()}),
                         configName);
INSTANTIATE_TEST_SUITE_P(RealCUDA, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "cuda", OFFLOAD_PLATFORM_BACKEND_CUDA,
                             "OFFLOAD_CUDA_LIBRARY", nullptr}),
                         configName);
INSTANTIATE_TEST_SUITE_P(FakeHIP, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "fake_hip", OFFLOAD_PLATFORM_BACKEND_AMDGPU,
                             "OFFLOAD_HIP_LIBRARY", getFakeHIPLibrary()}),
                         configName);
INSTANTIATE_TEST_SUITE_P(FakeHIP52, GPUDriverTest,
                         ::testing::Values(DriverConfig{
                             "fake_hip52", OFFLOAD_PLATFORM_BACKEND_AMDGPU,
                             "OFFLOAD_HIP_LIBRARY", getFakeHIP52Library()}),
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

TEST_P(GPUDriverTest, PrefetchMovesManagedMemoryOnly) {
  // offloadMemPrefetch is a hint the GPU plugins carry out on the queue for
  // managed memory (cuMemPrefetchAsync_v2, hipMemPrefetchAsync) and ignore
  // for other memory: device memory, memory the runtime does not know.
  constexpr size_t Size = 4096;
  int32_t *Managed = nullptr;
  void *DeviceMemory = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_MANAGED, Size,
                                 reinterpret_cast<void **>(&Managed)));
  ASSERT_SUCCESS(
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, Size, &DeviceMemory));
  std::vector<char> Pageable(Size);
  for (size_t I = 0; I < Size / sizeof(int32_t); ++I)
    Managed[I] = int32_t(I);
  const char *Entry = isHIP() ? "hipMemPrefetchAsync" : "cuMemPrefetchAsync_v2";
  long Before = counter(Entry);
  const void *Ptrs[] = {Managed, DeviceMemory, Pageable.data()};
  size_t Sizes[] = {Size, Size, Size};
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 3, Ptrs, Sizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  int Type = 0, Id = -1;
  size_t Bytes = 0;
  if (isFake()) {
    EXPECT_EQ(counter(Entry) - Before, 1);
    ASSERT_TRUE(lastPrefetch(Type, Id, Bytes));
    EXPECT_EQ(Type, 1); // CU_MEM_LOCATION_TYPE_DEVICE
    EXPECT_EQ(Id, 0);
    EXPECT_EQ(Bytes, Size);
  }
  // Part of the allocation, back to the host; a range of 0 bytes is
  // ignored.
  const void *Part[] = {Managed + 256, Managed};
  size_t PartSizes[] = {1024, 0};
  ASSERT_SUCCESS(offloadMemPrefetch(Queue, 2, Part, PartSizes,
                                    OFFLOAD_MEM_MIGRATION_FLAG_DEVICE_TO_HOST));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  if (isFake()) {
    EXPECT_EQ(counter(Entry) - Before, 2);
    ASSERT_TRUE(lastPrefetch(Type, Id, Bytes));
    EXPECT_EQ(Type, 2); // CU_MEM_LOCATION_TYPE_HOST
    EXPECT_EQ(Bytes, 1024u);
  }
  // A hint: the contents stay.
  for (size_t I = 0; I < Size / sizeof(int32_t); ++I)
    ASSERT_EQ(Managed[I], int32_t(I)) << I;
  // Past the end of the allocation is an error, before the driver sees it.
  size_t TooLarge[] = {Size + 1};
  const void *Start[] = {Managed};
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadMemPrefetch(Queue, 1, Start, TooLarge,
                                  OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE));
  if (isFake())
    EXPECT_EQ(counter(Entry) - Before, 2);
  EXPECT_SUCCESS(offloadMemFree(DeviceMemory));
  EXPECT_SUCCESS(offloadMemFree(Managed));
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

} // namespace
