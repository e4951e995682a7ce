//===- AutoTest.cpp - Automatic specialization (OFFLOAD_JIT_AUTO) ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A kernel without offload.runtime_constant marks, launched with
// OFFLOAD_JIT_AUTO=1, OFFLOAD_JIT_AUTO_THRESHOLD=3 and
// OFFLOAD_JIT_AUTO_MAX_VARIANTS=2 (set by main before the JIT starts): it is
// specialized on its stable scalar arguments after three launches, launches
// with other values compute what the generic kernel computes, the number of
// variants is bounded, and a second process (this binary run again with
// --child) starts with the variant a first one decided, from the disk cache.
// Each test starts from empty caches and zero counters; the process has its
// own cache directory.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "DiskCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace offload_jit_test;

namespace {

/// x[i] = a * x[i] + k for i < n: three unmarked scalars.
const char *const AutoSource = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @auto {
    gpu.func @axpk(%x: memref<?xf32>, %n: index, %a: f32, %k: i32) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %v = memref.load %x[%i] : memref<?xf32>
        %m = arith.mulf %a, %v : f32
        %kf = arith.sitofp %k : i32 to f32
        %r = arith.addf %m, %kf : f32
        memref.store %r, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
)mlir";

struct AxpkArgs {
  MemRef1D X;
  int64_t N;
  float A;
  int32_t K;
};

constexpr size_t Size = 256;
std::string ExecutablePath;
std::string DumpDir;

offload_device_handle_t hostDevice() {
  offload_device_handle_t Device = nullptr;
  (void)offloadGetHostDevice(&Device);
  return Device;
}

/// Launches axpk(a, k) over 0, 1, 2, ... (n = Size) and returns the result.
std::vector<float> launchAxpk(offload_jit_kernel_handle_t Kernel, float A,
                              int32_t K, offload_result_t *Result = nullptr) {
  std::vector<float> X(Size);
  for (size_t I = 0; I < Size; ++I)
    X[I] = float(I) - 17.0f;
  AxpkArgs Args{view(X.data(), Size), int64_t(Size), A, K};
  auto Sizes = sizes(Size / 64, 64);
  offload_result_t R = offloadJITLaunchKernel(nullptr, hostDevice(), Kernel,
                                              &Args, sizeof(Args), &Sizes);
  if (Result)
    *Result = R;
  return X;
}

std::vector<float> reference(float A, int32_t K) {
  std::vector<float> X(Size);
  for (size_t I = 0; I < Size; ++I) {
    volatile float M = A * (float(I) - 17.0f); // no contraction
    X[I] = M + float(K);
  }
  return X;
}

class AutoTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_OK(offloadInit());
    CacheDir = std::getenv("OFFLOAD_CACHE_DIR");
    offloadjit::DiskCache(CacheDir, 0).clear();
    ASSERT_OK(offloadJITClearMemoryCache());
    ASSERT_OK(offloadJITResetStats());
    ASSERT_OK(offloadJITSetEnabled(true));
    ASSERT_OK(offloadJITSetAutoEnabled(true));
    ASSERT_OK(offloadCreateProgramFromMLIR(hostDevice(), AutoSource,
                                           std::strlen(AutoSource), &Program));
    ASSERT_OK(offloadJITGetKernel(Program, "axpk", &Kernel));
  }
  void TearDown() override {
    offloadjit::DiskCache(CacheDir, 0).clear();
    if (Program)
      EXPECT_EQ(offloadJITDestroyProgram(Program), OFFLOAD_SUCCESS);
    EXPECT_EQ(offloadShutDown(), OFFLOAD_SUCCESS);
  }

  /// Launches axpk(a, k), requires success and the reference's results.
  void expectRight(float A, int32_t K, const char *When) {
    offload_result_t R = nullptr;
    std::vector<float> Got = launchAxpk(Kernel, A, K, &R);
    ASSERT_EQ(R, OFFLOAD_SUCCESS) << When << ": " << describe(R);
    std::vector<float> Want = reference(A, K);
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(Got[I], Want[I])
          << When << ", a = " << A << ", k = " << K << ", at " << I;
  }

  std::string CacheDir;
  offload_jit_program_handle_t Program = nullptr;
  offload_jit_kernel_handle_t Kernel = nullptr;
};

/// The dumped specializations of axpk (OFFLOAD_JIT_DUMP) that hold \p Text.
int countDumpsContaining(const std::string &Text) {
  int Count = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(DumpDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    if (!llvm::StringRef(llvm::sys::path::filename(It->path()))
             .starts_with("axpk_spec_"))
      continue;
    std::ifstream File(It->path());
    std::stringstream Contents;
    Contents << File.rdbuf();
    Count += Contents.str().find(Text) != std::string::npos;
  }
  return Count;
}

void clearDumps() {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(DumpDir, EC), End; It != End && !EC;
       It.increment(EC))
    llvm::sys::fs::remove(It->path());
}

} // namespace

TEST_F(AutoTest, UnmarkedKernelIsSpecializedAfterThresholdLaunches) {
  clearDumps();
  // Launches 1 and 2: the block-size specialization only.
  expectRight(2.5f, 3, "launch 1");
  expectRight(2.5f, 3, "launch 2");
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.Compiles, 1u);
  EXPECT_EQ(S.AutoVariants, 0u);
  EXPECT_EQ(S.AutoLaunches, 0u);
  // Launch 3: n, a and k were the same three times: a variant on them.
  expectRight(2.5f, 3, "launch 3");
  S = stats();
  EXPECT_EQ(S.Compiles, 2u);
  EXPECT_EQ(S.AutoVariants, 1u);
  EXPECT_EQ(S.AutoLaunches, 1u);
  // Later launches hit it in memory.
  for (int I = 0; I < 4; ++I)
    expectRight(2.5f, 3, "after the variant");
  S = stats();
  EXPECT_EQ(S.Compiles, 2u);
  EXPECT_EQ(S.AutoLaunches, 5u);
  EXPECT_EQ(S.AutoGuardMisses, 0u);
  EXPECT_EQ(S.Launches, 7u);
  // The variant has the values folded in (a as an f32 constant).
  EXPECT_EQ(countDumpsContaining("2.500000e+00 : f32"), 1);
}

TEST_F(AutoTest, ChangedValuesAfterSpecializationRunRight) {
  for (int I = 0; I < 4; ++I)
    expectRight(2.5f, 3, "before the change");
  ASSERT_EQ(stats().AutoVariants, 1u);
  // a changes: variant 1's guard fails. n and k are still stable, so the
  // launch runs (and decides) a variant on them alone.
  expectRight(-1.0f, 3, "a changed");
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.AutoVariants, 2u);
  // k changes too: no variant holds; the kernel without automatic values
  // (compiled for the first launches) runs.
  expectRight(-1.0f, 7, "a and k changed");
  S = stats();
  EXPECT_EQ(S.AutoGuardMisses, 1u);
  EXPECT_EQ(S.Compiles, 3u);
  // Back to the first values: variant 1 again, no compile.
  expectRight(2.5f, 3, "first values again");
  EXPECT_EQ(stats().Compiles, 3u);
  // Every result equals the generic kernel's.
  ASSERT_OK(offloadJITSetEnabled(false));
  for (auto [A, K] : {std::pair{2.5f, 3}, {-1.0f, 3}, {-1.0f, 7}}) {
    std::vector<float> Generic = launchAxpk(Kernel, A, K);
    ASSERT_OK(offloadJITSetEnabled(true));
    std::vector<float> Auto = launchAxpk(Kernel, A, K);
    ASSERT_OK(offloadJITSetEnabled(false));
    for (size_t I = 0; I < Size; ++I)
      ASSERT_EQ(Auto[I], Generic[I])
          << "a = " << A << ", k = " << K << ", at " << I;
  }
}

TEST_F(AutoTest, VariantsPerKernelAreBounded) {
  // OFFLOAD_JIT_AUTO_MAX_VARIANTS=2.
  for (int I = 0; I < 3; ++I)
    expectRight(1.0f, 1, "values 1"); // variant 1: n, a, k
  expectRight(2.0f, 1, "a = 2");      // variant 2: n, k
  ASSERT_EQ(stats().AutoVariants, 2u);
  unsigned Compiles = stats().Compiles;
  for (int I = 0; I < 4; ++I)
    expectRight(2.0f, 1, "a = 2 again"); // would be n, a = 2, k: bound
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.AutoVariants, 2u);
  EXPECT_EQ(S.AutoBoundReached, 1u);
  EXPECT_EQ(S.Compiles, Compiles);
  // Variant 2 (n, k) still serves a = 2 (launches 4 to 8) and any other a.
  EXPECT_EQ(S.AutoLaunches, 6u);
  expectRight(5.0f, 1, "a = 5");
  EXPECT_EQ(stats().AutoLaunches, 7u);
  EXPECT_EQ(stats().Compiles, Compiles);
}

TEST_F(AutoTest, OffWatchesNothing) {
  ASSERT_OK(offloadJITSetAutoEnabled(false));
  for (int I = 0; I < 5; ++I)
    expectRight(2.5f, 3, "auto off");
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.AutoVariants, 0u);
  EXPECT_EQ(S.AutoLaunches, 0u);
  EXPECT_EQ(S.Compiles, 1u);
}

/// Runs this binary with --child=LAUNCHES (same cache directory): it
/// launches axpk(2.5, 3) that often and prints its counters.
static std::string runChild(int Launches) {
  std::string Command =
      "'" + ExecutablePath + "' --child=" + std::to_string(Launches);
  std::string Output;
  FILE *Pipe = popen(Command.c_str(), "r");
  if (!Pipe)
    return "popen failed";
  char Buffer[512];
  while (fgets(Buffer, sizeof(Buffer), Pipe))
    Output += Buffer;
  int Status = pclose(Pipe);
  if (Status != 0)
    Output += " (exit status " + std::to_string(Status) + ")";
  return Output;
}

TEST_F(AutoTest, SecondProcessStartsSpecializedFromTheDiskCache) {
  // The first process decides the variant at its third launch.
  EXPECT_EQ(runChild(4), "ok compiles=2 disk-hits=0 auto-variants=1 "
                         "auto-launches=2 auto-profile-loads=0\n");
  // The second runs it from its first launch, read from the disk cache.
  EXPECT_EQ(runChild(1), "ok compiles=0 disk-hits=1 auto-variants=0 "
                         "auto-launches=1 auto-profile-loads=1\n");
}

/// --child=N: N launches of axpk(2.5, 3), checked; prints the counters.
static int childMain(int Launches) {
  if (offloadInit())
    return 2;
  offload_jit_program_handle_t Program = nullptr;
  offload_jit_kernel_handle_t Kernel = nullptr;
  if (offloadCreateProgramFromMLIR(hostDevice(), AutoSource,
                                   std::strlen(AutoSource), &Program) ||
      offloadJITGetKernel(Program, "axpk", &Kernel))
    return 3;
  std::vector<float> Want = reference(2.5f, 3);
  for (int I = 0; I < Launches; ++I) {
    offload_result_t R = nullptr;
    if (launchAxpk(Kernel, 2.5f, 3, &R) != Want || R) {
      std::printf("wrong results at launch %d: %s\n", I + 1,
                  describe(R).c_str());
      return 4;
    }
  }
  offload_jit_stats_t S = stats();
  std::printf("ok compiles=%llu disk-hits=%llu auto-variants=%llu "
              "auto-launches=%llu auto-profile-loads=%llu\n",
              (unsigned long long)S.Compiles, (unsigned long long)S.DiskHits,
              (unsigned long long)S.AutoVariants,
              (unsigned long long)S.AutoLaunches,
              (unsigned long long)S.AutoProfileLoads);
  return 0;
}

int main(int argc, char **argv) {
  // The JIT reads its settings once, on first use.
  setenv("OFFLOAD_JIT_AUTO", "1", 1);
  setenv("OFFLOAD_JIT_AUTO_THRESHOLD", "3", 1);
  setenv("OFFLOAD_JIT_AUTO_MAX_VARIANTS", "2", 1);
  ExecutablePath = argv[0];
  if (argc == 2 && std::strncmp(argv[1], "--child=", 8) == 0) {
    unsetenv("OFFLOAD_JIT_DUMP");
    return childMain(std::atoi(argv[1] + 8));
  }
  // A cache and dump directory of this process's own (ctest may run tests
  // in parallel); the children inherit the cache directory.
  std::string Base =
      std::string(OFFLOAD_AUTO_TEST_DIR) + "/" + std::to_string(getpid());
  std::string Cache = Base + "/cache";
  DumpDir = Base + "/dump";
  llvm::sys::fs::create_directories(Cache);
  llvm::sys::fs::create_directories(DumpDir);
  setenv("OFFLOAD_CACHE_DIR", Cache.c_str(), 1);
  setenv("OFFLOAD_JIT_DUMP", DumpDir.c_str(), 1);
  ::testing::InitGoogleTest(&argc, argv);
  int Result = RUN_ALL_TESTS();
  llvm::sys::fs::remove_directories(Base);
  return Result;
}
