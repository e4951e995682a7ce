//===- BenchKernelsTest.cpp - The benchmark kernels compute correctly -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// For every kernel of bench/kernels, with the inputs offload-jit-bench times
// (at a smaller scale): the generic kernel, the specialization for the
// inputs' runtime constants and block size, and the specialization for
// another block size all produce the C++ reference's results; generic and
// specialized agree exactly (their floating-point operations are the same,
// folded or not).
//
//===----------------------------------------------------------------------===//

#include "BenchKernels.h"

#include "OffloadJIT/OffloadJIT.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <unistd.h>

using namespace offload_bench;

#ifndef OFFLOAD_BENCH_KERNEL_DIR
#error "OFFLOAD_BENCH_KERNEL_DIR must name the directory of the kernels"
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

using Values = std::vector<std::vector<double>>;

Values snapshot(const KernelCase &Case) {
  Values V;
  for (const Output &O : Case.outputs())
    V.push_back(O.values());
  return V;
}

class BenchKernelsTest : public ::testing::TestWithParam<size_t> {
protected:
  // ctest runs each test in its own process, possibly in parallel: every
  // process gets its own empty cache directory (so that it compiles with the
  // compiler under test, not entries of an earlier build), fixed before the
  // JIT reads its environment on first use, and removed at the end.
  static void SetUpTestSuite() {
    const char *Base = std::getenv("OFFLOAD_CACHE_DIR");
    CacheDir = std::string(Base && *Base ? Base : "/tmp") + "/bench-kernels." +
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
    ASSERT_OK(offloadJITSetEnabled(true));
    Cases = createKernelCases(Scale::Test);
    ASSERT_LT(GetParam(), Cases.size());
    Case = Cases[GetParam()].get();
    std::string Error;
    std::string Source =
        readKernelFile(OFFLOAD_BENCH_KERNEL_DIR, Case->file(), Error);
    ASSERT_FALSE(Source.empty()) << Error;
    ASSERT_OK(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                           &Program));
    ASSERT_OK(offloadJITGetKernel(Program, Case->kernel(), &Kernel));
  }
  void TearDown() override {
    ASSERT_OK(offloadJITSetEnabled(true));
    if (Program)
      EXPECT_EQ(offloadJITDestroyProgram(Program), OFFLOAD_SUCCESS);
    EXPECT_EQ(offloadShutDown(), OFFLOAD_SUCCESS);
  }

  /// Launches through the JIT from the initial state; returns the outputs.
  Values run(bool Specialize, const offload_kernel_launch_size_args_t &Sizes) {
    EXPECT_EQ(offloadJITSetEnabled(Specialize), OFFLOAD_SUCCESS);
    Case->reset();
    offload_result_t R =
        offloadJITLaunchKernel(nullptr, Device, Kernel, Case->args().data(),
                               Case->args().size(), &Sizes);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    EXPECT_EQ(offloadJITSetEnabled(true), OFFLOAD_SUCCESS);
    return snapshot(*Case);
  }

  offload_symbol_handle_t symbol(bool Specialize) {
    offload_symbol_handle_t Symbol = nullptr;
    EXPECT_EQ(offloadJITSetEnabled(Specialize), OFFLOAD_SUCCESS);
    offload_result_t R = offloadJITGetSpecializedKernel(
        Device, Kernel, Case->args().data(), Case->args().size(),
        &Case->launchSizes(), &Symbol);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    EXPECT_EQ(offloadJITSetEnabled(true), OFFLOAD_SUCCESS);
    return Symbol;
  }

  /// Expects \p Actual to equal \p Expected exactly, or within the outputs'
  /// tolerances when \p Tolerant. Reports the first few differences.
  void compare(const Values &Expected, const Values &Actual, bool Tolerant,
               const char *What) {
    std::vector<Output> Outputs = Case->outputs();
    ASSERT_EQ(Expected.size(), Outputs.size());
    ASSERT_EQ(Actual.size(), Outputs.size());
    for (size_t O = 0; O < Outputs.size(); ++O) {
      const Output &Out = Outputs[O];
      bool Exact = !Tolerant && !Out.SpecializedMayDiffer;
      size_t Bad = 0;
      std::ostringstream First;
      First.precision(17);
      for (size_t I = 0; I < Expected[O].size(); ++I) {
        double E = Expected[O][I], A = Actual[O][I];
        bool Ok = Exact ? (E == A || (std::isnan(E) && std::isnan(A)))
                        : std::fabs(E - A) <=
                              std::max(Out.AbsTolerance,
                                       Out.RelTolerance * std::fabs(E));
        if (!Ok && Bad++ < 5)
          First << "\n  " << Out.Name << "[" << I << "]: expected " << E
                << ", got " << A;
      }
      EXPECT_EQ(Bad, 0u) << What << ": " << Bad << " of " << Expected[O].size()
                         << " elements of " << Out.Name << " differ"
                         << First.str();
    }
  }

  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
  offload_jit_kernel_handle_t Kernel = nullptr;
  std::vector<std::unique_ptr<KernelCase>> Cases;
  KernelCase *Case = nullptr;
};

TEST_P(BenchKernelsTest, GenericAndSpecializedMatchTheReference) {
  const offload_kernel_launch_size_args_t &Sizes = Case->launchSizes();

  // A specialization really is another kernel than the generic one.
  offload_symbol_handle_t Generic = symbol(false);
  offload_symbol_handle_t Specialized = symbol(true);
  ASSERT_NE(Generic, nullptr);
  ASSERT_NE(Specialized, nullptr);
  EXPECT_NE(Generic, Specialized);

  Values GenericOut = run(false, Sizes);
  Values SpecializedOut = run(true, Sizes);
  Case->reset();
  Case->reference();
  Values Reference = snapshot(*Case);

  // The inputs exercise the kernel: the reference is not all zero.
  for (size_t O = 0; O < Reference.size(); ++O) {
    size_t NonZero = 0;
    for (double V : Reference[O])
      NonZero += V != 0.0 && std::isfinite(V);
    EXPECT_GT(NonZero, Reference[O].size() / 4)
        << Case->name() << ": output " << Case->outputs()[O].Name
        << " is mostly zero or not finite";
  }

  compare(GenericOut, SpecializedOut, /*Tolerant=*/false,
          "specialized vs generic");
  compare(Reference, GenericOut, /*Tolerant=*/true, "generic vs reference");
  compare(Reference, SpecializedOut, /*Tolerant=*/true,
          "specialized vs reference");
}

TEST_P(BenchKernelsTest, AnotherBlockSizeComputesTheSame) {
  // Half the threads per block in x, twice the blocks: the same threads.
  offload_kernel_launch_size_args_t Sizes = Case->launchSizes();
  ASSERT_EQ(Sizes.GroupSize.x % 2, 0u);
  Sizes.GroupSize.x /= 2;
  Sizes.NumGroups.x *= 2;
  Values Default = run(true, Case->launchSizes());
  offload_jit_stats_t Before{};
  ASSERT_OK(offloadJITGetStats(&Before));
  Values Other = run(true, Sizes);
  offload_jit_stats_t After{};
  ASSERT_OK(offloadJITGetStats(&After));
  // The block size is part of the key: another specialization.
  EXPECT_EQ(After.Compiles + After.DiskHits,
            Before.Compiles + Before.DiskHits + 1);
  compare(Default, Other, /*Tolerant=*/false, "block size");
}

std::string caseName(const ::testing::TestParamInfo<size_t> &Info) {
  static std::vector<std::unique_ptr<KernelCase>> Cases =
      createKernelCases(Scale::Test);
  std::string Name = Cases[Info.param]->name();
  for (char &C : Name)
    if (!std::isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return Name;
}

INSTANTIATE_TEST_SUITE_P(Kernels, BenchKernelsTest,
                         ::testing::Range<size_t>(0, 8), caseName);

} // namespace
