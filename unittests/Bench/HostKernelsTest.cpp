//===- HostKernelsTest.cpp - The host benchmark kernels are right ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every kernel of bench/host/kernels, launched through the JIT on the host
// device at small sizes (odd sizes and partial blocks and tiles where the
// kernel allows them), computes what its serial C++ reference computes, and
// so does the native baseline offload-host-bench times it against. The
// benchmark's own problems, at a tiny scale, too; and every equivalent form
// of the forms family (bench/host/kernels/forms, HostKernelCase::forms).
//
//===----------------------------------------------------------------------===//

#include "HostKernels.h"
#include "NativeKernels.h"

#include "OffloadJIT/OffloadJIT.h"

#include "gtest/gtest.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

using namespace offload_bench::host;

#ifndef OFFLOAD_HOST_BENCH_KERNEL_DIR
#error "OFFLOAD_HOST_BENCH_KERNEL_DIR must name the directory of the kernels"
#endif

namespace {

std::string describe(offload_result_t R) {
  return R ? std::string(offloadErrcName(R->Code)) + ": " + R->Details
           : "OFFLOAD_SUCCESS";
}

#define ASSERT_OK(Call)                                                        \
  do {                                                                         \
    offload_result_t Result_ = (Call);                                         \
    ASSERT_EQ(Result_, OFFLOAD_SUCCESS)                                        \
        << #Call << " -> " << describe(Result_);                               \
  } while (0)

std::string readKernel(const std::string &File) {
  std::ifstream In(std::string(OFFLOAD_HOST_BENCH_KERNEL_DIR) + "/" + File,
                   std::ios::binary);
  std::stringstream Contents;
  Contents << In.rdbuf();
  return Contents.str();
}

/// A case of the test: a name for the test and the kernel at its size.
struct CaseParam {
  std::string Name;
  std::function<std::unique_ptr<HostKernelCase>()> Make;
};

/// Test failures name the case, not its bytes.
void PrintTo(const CaseParam &P, std::ostream *OS) { *OS << P.Name; }

std::vector<CaseParam> params() {
  return {
      {"saxpy_1000", [] { return createSaxpy(1000); }},
      {"saxpy_1", [] { return createSaxpy(1); }},
      {"stencil3_1001", [] { return createStencil3(1001); }},
      {"stencil3_2", [] { return createStencil3(2); }},
      {"naive_matmul_37x29x45", [] { return createNaiveMatmul(37, 45, 29); }},
      {"naive_matmul_16", [] { return createNaiveMatmul(16, 16, 16); }},
      {"tiled_matmul_37x29x45", [] { return createTiledMatmul(37, 45, 29); }},
      {"tiled_matmul_32x64x48", [] { return createTiledMatmul(32, 48, 64); }},
      {"block_sum_1000_256", [] { return createBlockSum(1000, 256); }},
      {"block_sum_777_64", [] { return createBlockSum(777, 64); }},
      {"block_sum_2048_1024", [] { return createBlockSum(2048, 1024); }},
      {"block_sum_100_96", [] { return createBlockSum(100, 96); }},
      {"warp_reduce_1000_256", [] { return createWarpReduce(1000, 256); }},
      {"warp_reduce_3000_1024", [] { return createWarpReduce(3000, 1024); }},
      {"warp_reduce_50_32", [] { return createWarpReduce(50, 32); }},
      {"transpose_45x70", [] { return createTranspose(45, 70); }},
      {"transpose_64x32", [] { return createTranspose(64, 32); }},
      {"block_scan_3000", [] { return createBlockScan(3000); }},
      {"block_scan_1024", [] { return createBlockScan(1024); }},
      {"histogram_10007_256x8", [] { return createHistogram(10007, 256, 8); }},
      {"histogram_100_128x1", [] { return createHistogram(100, 128, 1); }},
      {"wmma_matmul_1024", [] { return createWmmaMatmul(); }},
  };
}

class HostKernelsFixture : public ::testing::Test {
protected:
  // ctest runs each test in its own process, possibly in parallel: every
  // process gets its own empty JIT cache directory (so that kernels compile
  // with the compiler under test), set before the JIT reads its environment.
  static void SetUpTestSuite() {
    const char *Base = std::getenv("OFFLOAD_CACHE_DIR");
    CacheDir = std::string(Base && *Base ? Base : "/tmp") + "/host-kernels." +
               std::to_string(getpid());
    std::error_code EC;
    std::filesystem::remove_all(CacheDir, EC);
    setenv("OFFLOAD_CACHE_DIR", CacheDir.c_str(), 1);
  }
  static void TearDownTestSuite() {
    std::error_code EC;
    std::filesystem::remove_all(CacheDir, EC);
  }
  static inline std::string CacheDir;

  void SetUp() override {
    ASSERT_OK(offloadInit());
    ASSERT_OK(offloadGetHostDevice(&Device));
  }
  void TearDown() override {
    if (Program)
      EXPECT_EQ(offloadJITDestroyProgram(Program), OFFLOAD_SUCCESS);
    EXPECT_EQ(offloadShutDown(), OFFLOAD_SUCCESS);
  }

  /// Launches \p Case's kernel once through the JIT, from the reset state.
  void launch(HostKernelCase &Case) { launchForm(Case, Case.baseForm()); }

  /// Launches form \p F of \p Case (its file, kernel, arguments and launch
  /// sizes) once through the JIT.
  void launchForm(HostKernelCase &Case, const KernelForm &F) {
    std::string Source = F.specialize(readKernel(F.File));
    ASSERT_FALSE(Source.empty()) << "cannot read " << F.File;
    if (Program)
      ASSERT_OK(offloadJITDestroyProgram(Program));
    Program = nullptr;
    ASSERT_OK(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                           &Program));
    offload_jit_kernel_handle_t Kernel = nullptr;
    ASSERT_OK(offloadJITGetKernel(Program, F.Kernel.c_str(), &Kernel));
    Case.beforeLaunch();
    ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, Kernel, F.Args.data(),
                                     F.Args.size(), &F.Sizes));
  }

  /// The kernel and the native baseline compute the reference's results,
  /// which are not trivially zero.
  void checkCase(HostKernelCase &Case) {
    Case.reset();
    ASSERT_NO_FATAL_FAILURE(launch(Case));
    Case.runNative();
    Case.runReference();
    for (const OutputBuffers &O : Case.outputs()) {
      size_t NonZero = 0;
      for (size_t I = 0; I < O.Count; ++I)
        NonZero += O.Type == OutputBuffers::F32
                       ? static_cast<const float *>(O.Reference)[I] != 0
                       : static_cast<const int32_t *>(O.Reference)[I] != 0;
      EXPECT_GT(NonZero, 0u)
          << Case.name() << ": reference " << O.Name << " is all zero";
    }
    EXPECT_EQ(compareOutputs(Case, Producer::Reference, Producer::Ours), "");
    EXPECT_EQ(compareOutputs(Case, Producer::Reference, Producer::Native), "");
  }

  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
};

class HostKernelsTest : public HostKernelsFixture,
                        public ::testing::WithParamInterface<CaseParam> {};

TEST_P(HostKernelsTest, KernelAndNativeMatchTheReference) {
  std::unique_ptr<HostKernelCase> Case = GetParam().Make();
  checkCase(*Case);
}

INSTANTIATE_TEST_SUITE_P(Kernels, HostKernelsTest,
                         ::testing::ValuesIn(params()),
                         [](const ::testing::TestParamInfo<CaseParam> &Info) {
                           return Info.param.Name;
                         });

/// A case of the forms test and how many forms it must have at its size.
struct FormsParam {
  std::string Name;
  std::function<std::unique_ptr<HostKernelCase>()> Make;
  size_t MinForms;
};
void PrintTo(const FormsParam &P, std::ostream *OS) { *OS << P.Name; }

/// The kernels of the forms family (bench/host/kernels/forms) at sizes that
/// are multiples of their blocks (every form applies, at least 6 with base)
/// and at sizes that are not (the forms with bounds checks).
std::vector<FormsParam> formsParams() {
  return {
      {"naive_matmul_48", [] { return createNaiveMatmul(48, 48, 48); }, 8},
      {"naive_matmul_37x29x45", [] { return createNaiveMatmul(37, 45, 29); },
       5},
      {"tiled_matmul_48", [] { return createTiledMatmul(48, 48, 48); }, 7},
      {"tiled_matmul_37x29x45", [] { return createTiledMatmul(37, 45, 29); },
       5},
      {"stencil3_1024", [] { return createStencil3(1024); }, 8},
      {"stencil3_1001", [] { return createStencil3(1001); }, 7},
      {"block_sum_1024_256", [] { return createBlockSum(1024, 256); }, 8},
      {"block_sum_1000_256", [] { return createBlockSum(1000, 256); }, 6},
      {"block_sum_100_96", [] { return createBlockSum(100, 96); }, 5},
      {"transpose_64x64", [] { return createTranspose(64, 64); }, 7},
      {"transpose_45x70", [] { return createTranspose(45, 70); }, 5},
      {"histogram_10007_256x8", [] { return createHistogram(10007, 256, 8); },
       6},
      {"histogram_4096_128x4", [] { return createHistogram(4096, 128, 4); }, 6},
  };
}

class HostKernelFormsTest : public HostKernelsFixture,
                            public ::testing::WithParamInterface<FormsParam> {};

/// Every form of the kernel computes what the reference computes (and the
/// kernel has its forms: a form missing from forms() is a failure too).
TEST_P(HostKernelFormsTest, EveryFormMatchesTheReference) {
  std::unique_ptr<HostKernelCase> Case = GetParam().Make();
  std::vector<KernelForm> Forms = Case->forms();
  ASSERT_GE(Forms.size(), GetParam().MinForms);
  EXPECT_EQ(Forms.front().Name, "base");
  Case->reset();
  Case->runReference();
  for (const KernelForm &F : Forms) {
    SCOPED_TRACE("form " + F.Name + " (" + F.File + ")");
    Case->reset();
    Case->runReference();
    ASSERT_NO_FATAL_FAILURE(launchForm(*Case, F));
    EXPECT_EQ(compareOutputs(*Case, Producer::Reference, Producer::Ours), "");
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, HostKernelFormsTest,
                         ::testing::ValuesIn(formsParams()),
                         [](const ::testing::TestParamInfo<FormsParam> &Info) {
                           return Info.param.Name;
                         });

/// Substitutions replace whole numbers only.
TEST(KernelFormTest, SpecializeReplacesWholeNumbers) {
  KernelForm F;
  F.Substitutions = {{"512", "48"}};
  EXPECT_EQ(F.specialize("memref<512x512xf32> %c512 = arith.constant 512 : "
                         "index 1512 5120 [512]"),
            "memref<48x48xf32> %c512 = arith.constant 48 : index 1512 5120 "
            "[48]");
}

/// The benchmark's nine problems, scaled down 4096 times in work.
using HostBenchCasesTest = HostKernelsFixture;

TEST_F(HostBenchCasesTest, TinyScaleMatchesTheReference) {
  BenchScale Scale;
  Scale.BarrierFree = Scale.Cooperative = 1.0 / 4096;
  std::vector<std::unique_ptr<HostKernelCase>> Cases = createBenchCases(Scale);
  // The WMMA product (10) has one size: it runs at full size.
  ASSERT_EQ(Cases.size(), 10u);
  size_t Cooperative = 0;
  for (std::unique_ptr<HostKernelCase> &Case : Cases) {
    SCOPED_TRACE(std::string(Case->name()) + " " + Case->problem());
    Cooperative += Case->cooperative();
    checkCase(*Case);
  }
  // Kernels 4-9 synchronize their threads, 1-3 and 10 do not.
  EXPECT_EQ(Cooperative, 6u);
  EXPECT_STREQ(Cases.back()->group(), "subgroup-mma");
}

} // namespace
