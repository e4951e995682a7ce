//===- DeviceJITTest.cpp - JIT launches on CUDA and HIP devices -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Run-time specialization for CUDA and HIP devices, on the test doubles of
// the CUDA driver and the HIP runtime (libfakecuda.so, libfakehip.so): they
// load the real PTX, cubin and HSACO the JIT produces and record each launch
// but run no JIT kernel, so these tests check the code (dumped by
// OFFLOAD_JIT_DUMP, cached in OFFLOAD_CACHE_DIR) and what reaches the driver.
//
// The fakes have three devices each: CUDA compute capabilities 9.0, 8.0 and
// 0.0 (no chip), HIP gfx90a:sramecc+:xnack-, gfx1100 and one without an
// architecture. main() sets the environment before the runtime starts and
// gives every process its own cache and dump directories.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "DiskCache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace offload_jit_test;
namespace fs = std::filesystem;

namespace {

std::string TempDir;

std::string cacheDir() { return TempDir + "/cache"; }
std::string dumpDir() { return TempDir + "/dump"; }

std::string readFile(const fs::path &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// The images in the disk cache (payload: kernel name, NUL, image), by file.
std::vector<std::pair<std::string, std::string>> cachedImages() {
  std::vector<std::pair<std::string, std::string>> Images;
  offloadjit::DiskCache Cache(cacheDir(), 0);
  for (const offloadjit::CacheEntryInfo &E : Cache.list()) {
    std::string Problem;
    std::optional<std::vector<char>> Payload =
        Cache.read({E.Key, E.Kernel, E.Target}, Problem);
    if (!Payload)
      continue;
    std::string Bytes(Payload->begin(), Payload->end());
    size_t Nul = Bytes.find('\0');
    Images.push_back({Bytes.substr(0, Nul), Bytes.substr(Nul + 1)});
  }
  return Images;
}

/// The dumped files whose names end in \p Suffix.
std::vector<fs::path> dumped(const std::string &Suffix) {
  std::vector<fs::path> Files;
  std::error_code EC;
  for (const fs::directory_entry &E : fs::directory_iterator(dumpDir(), EC)) {
    std::string Name = E.path().filename().string();
    if (Name.size() >= Suffix.size() &&
        Name.compare(Name.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
      Files.push_back(E.path());
  }
  return Files;
}

uint16_t elfMachine(const std::string &Image) {
  uint16_t Machine = 0;
  if (Image.size() > 20 && Image.compare(0, 4,
                                         "\x7f"
                                         "ELF") == 0)
    std::memcpy(&Machine, Image.data() + 18, 2);
  return Machine;
}

/// The last launch the fake driver saw.
struct FakeLaunch {
  std::string Name;
  unsigned Grid[3] = {0, 0, 0}, Block[3] = {0, 0, 0};
  std::vector<char> Args;
};

FakeLaunch lastLaunch(const char *Library) {
  FakeLaunch L;
  void *Handle = dlopen(Library, RTLD_NOW | RTLD_NOLOAD);
  if (!Handle)
    return L;
  using Fn =
      int (*)(char *, size_t, unsigned *, unsigned *, void *, size_t, size_t *);
  auto Get = reinterpret_cast<Fn>(dlsym(Handle, "fakeCudaGetLastLaunch"));
  char Name[256];
  std::vector<char> Args(4096);
  size_t Size = 0;
  if (Get && Get(Name, sizeof(Name), L.Grid, L.Block, Args.data(), Args.size(),
                 &Size)) {
    L.Name = Name;
    Args.resize(Size);
    L.Args = std::move(Args);
  }
  dlclose(Handle);
  return L;
}

/// Whether a ROCm toolkit layout with ld.lld is where the JIT looks
/// (resolveROCDLTarget): $ROCM_PATH, $ROCM_ROOT, $ROCM_HOME, /opt/rocm, the
/// build's layout.
bool haveROCmLinker() {
  std::vector<std::string> Dirs;
  for (const char *Var : {"ROCM_PATH", "ROCM_ROOT", "ROCM_HOME"})
    if (const char *Dir = std::getenv(Var); Dir && *Dir)
      Dirs.push_back(Dir);
  Dirs.push_back("/opt/rocm");
  Dirs.push_back(OFFLOAD_ROCM_TOOLKIT_DIR);
  for (const std::string &Dir : Dirs)
    if (access((Dir + "/llvm/bin/ld.lld").c_str(), X_OK) == 0)
      return true;
  return false;
}

struct Backend {
  const char *Name;
  offload_platform_backend_t Platform;
  const char *Library;
  /// The chips of devices 0 and 1, as they appear in dump file names.
  const char *Chips[2];
  /// The dump of a specialization's device code.
  const char *Suffix;
};

/// Test names and ctest names show the backend, not its bytes.
void PrintTo(const Backend &B, std::ostream *OS) { *OS << B.Name; }

const Backend CUDA = {"cuda",
                      OFFLOAD_PLATFORM_BACKEND_CUDA,
                      OFFLOAD_FAKE_CUDA_LIBRARY,
                      {"sm_90", "sm_80"},
                      ".ptx"};
const Backend HIP = {"hip",
                     OFFLOAD_PLATFORM_BACKEND_AMDGPU,
                     OFFLOAD_FAKE_HIP_LIBRARY,
                     {"gfx90a", "gfx1100"},
                     ".amdgcn"};

class DeviceJITTest : public ::testing::TestWithParam<Backend> {
protected:
  void SetUp() override {
    if (GetParam().Platform == OFFLOAD_PLATFORM_BACKEND_AMDGPU &&
        !haveROCmLinker())
      GTEST_SKIP() << "no ROCm toolkit with llvm/bin/ld.lld to link HSACO";
    ASSERT_OK(offloadInit());
    ASSERT_OK(offloadJITClearMemoryCache());
    ASSERT_OK(offloadJITResetStats());
    fs::remove_all(cacheDir());
    fs::remove_all(dumpDir());
  }
  void TearDown() override {
    if (IsSkipped())
      return;
    for (offload_jit_program_handle_t P : Programs)
      EXPECT_EQ(offloadJITDestroyProgram(P), OFFLOAD_SUCCESS);
    for (void *Ptr : Allocations)
      EXPECT_EQ(offloadMemFree(Ptr), OFFLOAD_SUCCESS);
    EXPECT_EQ(offloadJITClearMemoryCache(), OFFLOAD_SUCCESS);
    EXPECT_EQ(offloadShutDown(), OFFLOAD_SUCCESS);
  }

  offload_device_handle_t device(uint32_t Index) {
    offload_device_handle_t D = nullptr;
    EXPECT_EQ(offloadGetDevice(GetParam().Platform, Index, &D),
              OFFLOAD_SUCCESS);
    return D;
  }

  /// The JIT program of the test kernels on \p Device, or the error. Skips
  /// the test when HIP has no ROCm toolkit to link with.
  offload_jit_program_handle_t program(offload_device_handle_t Device) {
    offload_jit_program_handle_t P = nullptr;
    offload_result_t R = offloadCreateProgramFromMLIR(
        Device, KernelsSource, std::strlen(KernelsSource), &P);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    if (P)
      Programs.push_back(P);
    return P;
  }

  offload_jit_kernel_handle_t kernel(offload_jit_program_handle_t P,
                                     const char *Name) {
    offload_jit_kernel_handle_t K = nullptr;
    EXPECT_EQ(offloadJITGetKernel(P, Name, &K), OFFLOAD_SUCCESS);
    return K;
  }

  float *deviceFloats(offload_device_handle_t Device, size_t N) {
    void *Ptr = nullptr;
    EXPECT_EQ(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                              N * sizeof(float), &Ptr),
              OFFLOAD_SUCCESS);
    Allocations.push_back(Ptr);
    return static_cast<float *>(Ptr);
  }

  /// Launches `scale` by \p S on \p Device with blocks of \p Threads; skips
  /// the test (false) when the toolchain for it is missing.
  bool launchScale(offload_device_handle_t Device, float S, uint32_t Threads,
                   ScaleArgs *ArgsOut = nullptr) {
    offload_jit_program_handle_t P = program(Device);
    if (!P)
      return false;
    ScaleArgs Args{view(deviceFloats(Device, 256), 256), S};
    auto Sizes = sizes(256 / Threads, Threads);
    offload_result_t R = offloadJITLaunchKernel(
        nullptr, Device, kernel(P, "scale"), &Args, sizeof(Args), &Sizes);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    if (ArgsOut)
      *ArgsOut = Args;
    return R == OFFLOAD_SUCCESS;
  }

  std::vector<offload_jit_program_handle_t> Programs;
  std::vector<void *> Allocations;
};

/// The one dumped device code file for \p Chip, read.
std::string dumpedCode(const Backend &B, const std::string &Chip) {
  std::vector<fs::path> Files = dumped("." + Chip + B.Suffix);
  EXPECT_EQ(Files.size(), 1u) << "dumps for " << Chip;
  return Files.empty() ? "" : readFile(Files.front());
}

} // namespace

TEST_P(DeviceJITTest, DumpHasTheFoldedConstantAndTheBlockSize) {
  const Backend &B = GetParam();
  offload_device_handle_t D = device(0);
  ASSERT_TRUE(launchScale(D, 2.5f, 64));
  std::string Code = dumpedCode(B, B.Chips[0]);
  // 2.5f is 0x40200000: an immediate operand of the multiplication.
  if (B.Platform == OFFLOAD_PLATFORM_BACKEND_CUDA) {
    EXPECT_NE(Code.find(".target sm_90"), std::string::npos) << Code;
    EXPECT_NE(Code.find(".reqntid 64, 1, 1"), std::string::npos) << Code;
    EXPECT_NE(Code.find("0f40200000"), std::string::npos) << Code;
    // The scalar is not read from the parameters.
    EXPECT_EQ(Code.find("ld.param.b32"), std::string::npos) << Code;
  } else {
    EXPECT_NE(Code.find(".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a:sramecc+:"
                        "xnack-\""),
              std::string::npos)
        << Code;
    EXPECT_NE(Code.find(".max_flat_workgroup_size: 64"), std::string::npos)
        << Code;
    EXPECT_NE(Code.find("0x40200000"), std::string::npos) << Code;
  }
  // The MLIR of the specialization lies next to it.
  std::vector<fs::path> MLIR = dumped(".mlir");
  ASSERT_EQ(MLIR.size(), 1u);
  EXPECT_NE(readFile(MLIR.front())
                .find("known_block_size = array<i32: 64, 1, "
                      "1>"),
            std::string::npos);
}

TEST_P(DeviceJITTest, GenericKernelHasNoLaunchBound) {
  const Backend &B = GetParam();
  ASSERT_OK(offloadJITSetEnabled(false));
  bool Launched = launchScale(device(0), 2.5f, 64);
  ASSERT_OK(offloadJITSetEnabled(true));
  ASSERT_TRUE(Launched);
  std::string Code = dumpedCode(B, B.Chips[0]);
  if (B.Platform == OFFLOAD_PLATFORM_BACKEND_CUDA) {
    EXPECT_EQ(Code.find(".reqntid"), std::string::npos) << Code;
    EXPECT_EQ(Code.find("0f40200000"), std::string::npos) << Code;
    EXPECT_NE(Code.find("ld.param.b32"), std::string::npos) << Code;
  } else {
    // HIP's limit, not the block size.
    EXPECT_NE(Code.find(".max_flat_workgroup_size: 1024"), std::string::npos)
        << Code;
  }
}

TEST_P(DeviceJITTest, DriverReceivesTheImageAndTheArgumentBuffer) {
  const Backend &B = GetParam();
  ScaleArgs Args;
  ASSERT_TRUE(launchScale(device(0), 3.0f, 32, &Args));
  FakeLaunch L = lastLaunch(B.Library);
  EXPECT_EQ(L.Name.rfind("scale_spec_", 0), 0u) << L.Name;
  EXPECT_EQ(L.Grid[0], 8u);
  EXPECT_EQ(L.Block[0], 32u);
  EXPECT_EQ(L.Block[1], 1u);
  // The packed buffer as the launch passed it: the memref descriptor, then
  // the (folded, still passed) scalar.
  ASSERT_EQ(L.Args.size(), sizeof(ScaleArgs));
  EXPECT_EQ(std::memcmp(L.Args.data(), &Args, sizeof(ScaleArgs)), 0);

  // The cached image is what the driver loads: cubin (nvJitLink) or PTX;
  // HSACO.
  auto Images = cachedImages();
  ASSERT_EQ(Images.size(), 1u);
  EXPECT_EQ(Images[0].first, L.Name);
  const std::string &Image = Images[0].second;
  if (B.Platform == OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    EXPECT_EQ(elfMachine(Image), 224); // EM_AMDGPU
  else if (elfMachine(Image))
    EXPECT_EQ(elfMachine(Image), 190); // EM_CUDA
  else
    EXPECT_NE(Image.find(".target sm_90"), std::string::npos);
}

TEST_P(DeviceJITTest, ChipChangesTheKeyAndCacheEntriesCoexist) {
  const Backend &B = GetParam();
  ASSERT_TRUE(launchScale(device(0), 2.0f, 64));
  ASSERT_TRUE(launchScale(device(1), 2.0f, 64));
  // Same kernel, values and sizes: only the chip differs.
  EXPECT_EQ(stats().Compiles, 2u);
  auto Images = cachedImages();
  ASSERT_EQ(Images.size(), 2u);
  EXPECT_EQ(Images[0].first, Images[1].first);
  EXPECT_NE(Images[0].second, Images[1].second);
  std::string Second = dumpedCode(B, B.Chips[1]);
  if (B.Platform == OFFLOAD_PLATFORM_BACKEND_CUDA)
    EXPECT_NE(Second.find(".target sm_80"), std::string::npos) << Second;
  else
    EXPECT_NE(Second.find("amdgcn-amd-amdhsa--gfx1100"), std::string::npos)
        << Second;
  EXPECT_FALSE(dumpedCode(B, B.Chips[0]).empty());

  // A new process (an empty memory cache) finds both on disk.
  ASSERT_OK(offloadJITClearMemoryCache());
  ASSERT_OK(offloadJITResetStats());
  ASSERT_TRUE(launchScale(device(1), 2.0f, 64));
  ASSERT_TRUE(launchScale(device(0), 2.0f, 64));
  EXPECT_EQ(stats().Compiles, 0u);
  EXPECT_EQ(stats().DiskHits, 2u);
}

TEST_P(DeviceJITTest, ContentsAreReadFromDeviceMemory) {
  const Backend &B = GetParam();
  offload_device_handle_t D = device(0), Host = nullptr;
  ASSERT_OK(offloadGetHostDevice(&Host));
  offload_jit_program_handle_t P = program(D);
  ASSERT_NE(P, nullptr);
  float *X = deviceFloats(D, 64);
  float *C = deviceFloats(D, 4);
  auto Launch = [&](std::vector<float> Coefficients) {
    ASSERT_OK(offloadMemcpy(nullptr, C, D, Coefficients.data(), Host,
                            4 * sizeof(float)));
    PolyArgs Args{view(X, 64), view(C, 4)};
    auto Sizes = sizes(1, 64);
    ASSERT_OK(offloadJITLaunchKernel(nullptr, D, kernel(P, "poly"), &Args,
                                     sizeof(Args), &Sizes));
  };
  Launch({1.5f, 0.0f, 0.0f, 0.0f});
  EXPECT_EQ(stats().Compiles, 1u);
  Launch({1.5f, 0.0f, 0.0f, 0.0f});
  EXPECT_EQ(stats().Compiles, 1u);
  Launch({2.5f, 0.0f, 0.0f, 0.0f}); // new contents: a new specialization
  EXPECT_EQ(stats().Compiles, 2u);
  // 2.5 = 0x40200000 from device memory became an immediate.
  bool Found = false;
  for (const fs::path &F : dumped(B.Suffix))
    Found |= readFile(F).find(B.Platform == OFFLOAD_PLATFORM_BACKEND_CUDA
                                  ? "0f40200000"
                                  : "0x40200000") != std::string::npos;
  EXPECT_TRUE(Found);
}

TEST_P(DeviceJITTest, InvalidDeviceWithoutAChip) {
  const Backend &B = GetParam();
  offload_jit_program_handle_t P = nullptr;
  offload_result_t R = offloadCreateProgramFromMLIR(
      device(2), KernelsSource, std::strlen(KernelsSource), &P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_UNSUPPORTED);
  if (B.Platform == OFFLOAD_PLATFORM_BACKEND_CUDA)
    EXPECT_NE(std::string(R->Details).find("unknown NVVM chip 'sm_0'"),
              std::string::npos)
        << R->Details;
  else
    EXPECT_NE(std::string(R->Details)
                  .find("reports the architecture '', not a gfx target id"),
              std::string::npos)
        << R->Details;
}

INSTANTIATE_TEST_SUITE_P(Fake, DeviceJITTest, ::testing::Values(CUDA, HIP),
                         [](const ::testing::TestParamInfo<Backend> &Info) {
                           return std::string(Info.param.Name);
                         });

//===----------------------------------------------------------------------===//
// CUDA assemblers
//===----------------------------------------------------------------------===//

namespace {
class CUDAAssemblerTest : public DeviceJITTest {};

/// Whether nvJitLink loads the way the JIT looks for it.
bool haveNVJitLink() {
  for (const char *Name : {"libnvJitLink.so.13", "libnvJitLink.so.12",
                           "/usr/local/cuda/lib64/libnvJitLink.so.13",
                           "/usr/local/cuda/lib64/libnvJitLink.so.12"})
    if (void *H = dlopen(Name, RTLD_NOW | RTLD_LOCAL)) {
      dlclose(H);
      return true;
    }
  return false;
}
} // namespace

TEST_P(CUDAAssemblerTest, DriverJITLoadsPTX) {
  setenv("OFFLOAD_JIT_NVJITLINK", "0", 1);
  bool Launched = launchScale(device(0), 4.0f, 64);
  unsetenv("OFFLOAD_JIT_NVJITLINK");
  ASSERT_TRUE(Launched);
  auto Images = cachedImages();
  ASSERT_EQ(Images.size(), 1u);
  EXPECT_EQ(elfMachine(Images[0].second), 0);
  EXPECT_NE(Images[0].second.find(".reqntid 64, 1, 1"), std::string::npos);
}

TEST_P(CUDAAssemblerTest, NVJitLinkMakesACubinWithADistinctKey) {
  if (!haveNVJitLink())
    GTEST_SKIP() << "no libnvJitLink.so.13 or .12";
  ASSERT_TRUE(launchScale(device(0), 4.0f, 64));
  setenv("OFFLOAD_JIT_NVJITLINK", "0", 1);
  bool Launched = launchScale(device(0), 4.0f, 64);
  unsetenv("OFFLOAD_JIT_NVJITLINK");
  ASSERT_TRUE(Launched);
  // The assembler is part of the key: a cubin and a PTX entry.
  EXPECT_EQ(stats().Compiles, 2u);
  auto Images = cachedImages();
  ASSERT_EQ(Images.size(), 2u);
  int Cubins = 0;
  for (auto &[Name, Image] : Images)
    Cubins += elfMachine(Image) == 190;
  EXPECT_EQ(Cubins, 1);
}

TEST_P(CUDAAssemblerTest, InvalidNVJitLinkLibrary) {
  setenv("OFFLOAD_JIT_NVJITLINK", "/nonexistent/libnvJitLink.so.13", 1);
  // A library that does not load: the driver compiles the PTX.
  bool Launched = launchScale(device(0), 5.0f, 64);
  unsetenv("OFFLOAD_JIT_NVJITLINK");
  ASSERT_TRUE(Launched);
  auto Images = cachedImages();
  ASSERT_EQ(Images.size(), 1u);
  EXPECT_EQ(elfMachine(Images[0].second), 0);
}

INSTANTIATE_TEST_SUITE_P(Fake, CUDAAssemblerTest, ::testing::Values(CUDA),
                         [](const ::testing::TestParamInfo<Backend> &Info) {
                           return std::string(Info.param.Name);
                         });

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  char Template[] = "/tmp/offload-device-jit-XXXXXX";
  if (!mkdtemp(Template))
    return 1;
  TempDir = Template;
  // Before the runtime and the JIT read their environment.
  const char *FakeCUDA = std::getenv("OFFLOAD_TEST_FAKE_CUDA_LIBRARY");
  const char *FakeHIP = std::getenv("OFFLOAD_TEST_FAKE_HIP_LIBRARY");
  setenv("OFFLOAD_CUDA_LIBRARY",
         FakeCUDA && *FakeCUDA ? FakeCUDA : OFFLOAD_FAKE_CUDA_LIBRARY, 1);
  setenv("OFFLOAD_HIP_LIBRARY",
         FakeHIP && *FakeHIP ? FakeHIP : OFFLOAD_FAKE_HIP_LIBRARY, 1);
  setenv("FAKE_CUDA_DEVICE_COUNT", "3", 1);
  setenv("FAKE_CUDA_COMPUTE_CAPABILITIES", "90,80,0", 1);
  setenv("FAKE_HIP_ARCHS", "gfx90a:sramecc+:xnack-,gfx1100,none", 1);
  setenv("OFFLOAD_CACHE_DIR", cacheDir().c_str(), 1);
  setenv("OFFLOAD_JIT_DUMP", dumpDir().c_str(), 1);
  unsetenv("OFFLOAD_JIT");
  unsetenv("OFFLOAD_JIT_ASYNC");
  int Result = RUN_ALL_TESTS();
  std::error_code EC;
  fs::remove_all(TempDir, EC);
  return Result;
}
