//===- JITTest.cpp - Run-time specialization through the C API ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each test starts from empty caches (memory and disk) and zero counters, so
// the counters tell exactly what a launch compiled, found in memory or read
// from disk.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "DiskCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace offload_jit_test;

namespace {
class JITTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_OK(offloadInit());
    ASSERT_OK(offloadGetHostDevice(&Device));
    // ctest runs each test in its own process, possibly in parallel: give
    // every process its own cache directory, fixed before the JIT reads its
    // environment (on first use) and kept for the rest of the process.
    static const std::string ProcessDir = [] {
      const char *Base = std::getenv("OFFLOAD_CACHE_DIR");
      std::string Dir =
          std::string(Base && *Base ? Base : "/tmp") + "/" +
          ::testing::UnitTest::GetInstance()->current_test_info()->name() +
          "." + std::to_string(getpid());
      setenv("OFFLOAD_CACHE_DIR", Dir.c_str(), 1);
      return Dir;
    }();
    CacheDir = ProcessDir;
    offloadjit::DiskCache(CacheDir, 0).clear();
    ASSERT_OK(offloadJITClearMemoryCache());
    ASSERT_OK(offloadJITResetStats());
    ASSERT_OK(offloadJITSetEnabled(true));
    ASSERT_OK(offloadCreateProgramFromMLIR(
        Device, KernelsSource, std::strlen(KernelsSource), &Program));
  }
  void TearDown() override {
    offloadjit::DiskCache(CacheDir, 0).clear();
    if (Program)
      EXPECT_EQ(offloadJITDestroyProgram(Program), OFFLOAD_SUCCESS);
    EXPECT_EQ(offloadShutDown(), OFFLOAD_SUCCESS);
  }

  offload_jit_kernel_handle_t kernel(const char *Name) {
    offload_jit_kernel_handle_t K = nullptr;
    EXPECT_EQ(offloadJITGetKernel(Program, Name, &K), OFFLOAD_SUCCESS);
    return K;
  }

  /// Runs `scale` over \p N floats (0, 1, 2, ...) by \p S with blocks of
  /// \p Threads; returns the result.
  std::vector<float> scale(float S, uint32_t Threads = 64, size_t N = 256) {
    std::vector<float> X(N);
    std::iota(X.begin(), X.end(), 0.0f);
    ScaleArgs Args{view(X.data(), N), S};
    auto Sizes = sizes(N / Threads, Threads);
    offload_result_t R = offloadJITLaunchKernel(
        nullptr, Device, kernel("scale"), &Args, sizeof(Args), &Sizes);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return X;
  }

  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
  std::string CacheDir;
};
} // namespace

//===----------------------------------------------------------------------===//
// Results: specialized and generic kernels agree
//===----------------------------------------------------------------------===//

TEST_F(JITTest, ScalarSpecializationComputesTheSameAsGeneric) {
  std::vector<float> Specialized = scale(2.5f);
  ASSERT_OK(offloadJITSetEnabled(false));
  std::vector<float> Generic = scale(2.5f);
  for (size_t I = 0; I < Specialized.size(); ++I) {
    EXPECT_EQ(Specialized[I], 2.5f * I) << "at " << I;
    EXPECT_EQ(Generic[I], Specialized[I]) << "at " << I;
  }
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.Launches, 2u);
  EXPECT_EQ(S.Compiles, 2u); // one specialization, one generic kernel
  EXPECT_EQ(S.GenericLaunches, 1u);
}

TEST_F(JITTest, ArrayContentsSpecializationComputesTheSameAsGeneric) {
  float Coefficients[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  auto Run = [&] {
    std::vector<float> X(32);
    std::iota(X.begin(), X.end(), -16.0f);
    PolyArgs Args{view(X.data(), X.size()), view(Coefficients, 4)};
    auto Sizes = sizes(1, 32);
    offload_result_t R = offloadJITLaunchKernel(nullptr, Device, kernel("poly"),
                                                &Args, sizeof(Args), &Sizes);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return X;
  };
  std::vector<float> Specialized = Run();
  ASSERT_OK(offloadJITSetEnabled(false));
  std::vector<float> Generic = Run();
  for (size_t I = 0; I < 32; ++I) {
    float V = -16.0f + I;
    float Expected = 1.0f - 2.0f * V + 0.5f * V * V + 0.25f * V * V * V;
    EXPECT_FLOAT_EQ(Specialized[I], Expected) << "at " << I;
    EXPECT_FLOAT_EQ(Generic[I], Expected) << "at " << I;
  }
}

//===----------------------------------------------------------------------===//
// The key: one test per component that reaches it through launches
//===----------------------------------------------------------------------===//

TEST_F(JITTest, KeyScalarValue) {
  EXPECT_EQ(scale(2.0f)[3], 6.0f);
  EXPECT_EQ(scale(3.0f)[3], 9.0f); // another value: another kernel
  EXPECT_EQ(stats().Compiles, 2u);
  EXPECT_EQ(scale(2.0f)[3], 6.0f); // the same value: a hit
  EXPECT_EQ(stats().Compiles, 2u);
  EXPECT_EQ(stats().MemoryHits, 1u);
}

TEST_F(JITTest, KeyIntegerValue) {
  auto Run = [&](int32_t K) {
    std::vector<float> X(8, 1.0f);
    OffsetArgs Args{view(X.data(), 8), K};
    auto Sizes = sizes(1, 8);
    EXPECT_EQ(offloadJITLaunchKernel(nullptr, Device, kernel("offset"), &Args,
                                     sizeof(Args), &Sizes),
              OFFLOAD_SUCCESS);
    return X[7];
  };
  EXPECT_EQ(Run(5), 6.0f);
  EXPECT_EQ(Run(-5), -4.0f);
  EXPECT_EQ(Run(5), 6.0f);
  EXPECT_EQ(stats().Compiles, 2u);
  EXPECT_EQ(stats().MemoryHits, 1u);
}

TEST_F(JITTest, KeyArrayContents) {
  float A[4] = {1, 0, 0, 0}, B[4] = {0, 1, 0, 0};
  auto Run = [&](float *C) {
    std::vector<float> X(4, 3.0f);
    PolyArgs Args{view(X.data(), 4), view(C, 4)};
    auto Sizes = sizes(1, 4);
    EXPECT_EQ(offloadJITLaunchKernel(nullptr, Device, kernel("poly"), &Args,
                                     sizeof(Args), &Sizes),
              OFFLOAD_SUCCESS);
    return X[0];
  };
  EXPECT_EQ(Run(A), 1.0f);
  EXPECT_EQ(Run(B), 3.0f);
  EXPECT_EQ(stats().Compiles, 2u);
  // Same contents at another address: a hit (arrays are keyed by content).
  float ACopy[4] = {1, 0, 0, 0};
  EXPECT_EQ(Run(ACopy), 1.0f);
  EXPECT_EQ(stats().Compiles, 2u);
  EXPECT_EQ(stats().MemoryHits, 1u);
}

TEST_F(JITTest, KeyBlockSize) {
  EXPECT_EQ(scale(2.0f, 64)[100], 200.0f);
  EXPECT_EQ(scale(2.0f, 32)[100], 200.0f);
  EXPECT_EQ(stats().Compiles, 2u);
  EXPECT_EQ(scale(2.0f, 64)[255], 510.0f);
  EXPECT_EQ(stats().Compiles, 2u);
}

TEST_F(JITTest, KeyKernelIdentity) {
  // iota has no runtime constants: specialized on the block size only.
  std::vector<float> X(16, -1.0f);
  MemRef1D Args = view(X.data(), 16);
  auto Sizes = sizes(2, 8);
  ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, kernel("iota"), &Args,
                                   sizeof(Args), &Sizes));
  EXPECT_EQ(X[15], 15.0f);
  scale(1.0f, 8, 16);
  EXPECT_EQ(stats().Compiles, 2u);
}

TEST_F(JITTest, KeyModuleContent) {
  EXPECT_EQ(scale(2.0f)[1], 2.0f);
  // The same kernels with one more space: different content, new compile.
  std::string Other = std::string(KernelsSource) + " ";
  offload_jit_program_handle_t Second = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIR(Device, Other.data(), Other.size(),
                                         &Second));
  offload_jit_kernel_handle_t K = nullptr;
  ASSERT_OK(offloadJITGetKernel(Second, "kernels::scale", &K));
  std::vector<float> X(256, 1.0f);
  ScaleArgs Args{view(X.data(), 256), 2.0f};
  auto Sizes = sizes(4, 64);
  ASSERT_OK(
      offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &Sizes));
  EXPECT_EQ(X[0], 2.0f);
  EXPECT_EQ(stats().Compiles, 2u);
  ASSERT_OK(offloadJITDestroyProgram(Second));
}

//===----------------------------------------------------------------------===//
// Caches
//===----------------------------------------------------------------------===//

TEST_F(JITTest, DiskCacheServesANewProcessImage) {
  scale(4.0f);
  EXPECT_EQ(stats().DiskWrites, 1u);
  // What a second process sees: nothing in memory, the entry on disk.
  ASSERT_OK(offloadJITClearMemoryCache());
  EXPECT_EQ(scale(4.0f)[10], 40.0f);
  EXPECT_EQ(stats().Compiles, 1u);
  EXPECT_EQ(stats().DiskHits, 1u);
}

TEST_F(JITTest, CorruptDiskEntryIsDetectedAndRebuilt) {
  scale(5.0f);
  std::vector<offloadjit::CacheEntryInfo> Entries =
      offloadjit::DiskCache(CacheDir, 0).list();
  ASSERT_EQ(Entries.size(), 1u);
  // Truncate the entry, as a crash in the middle of a copy would.
  {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
        Entries[0].Path, FD, llvm::sys::fs::CD_OpenExisting));
    ASSERT_FALSE(llvm::sys::fs::resize_file(FD, 30));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  ASSERT_OK(offloadJITClearMemoryCache());
  EXPECT_EQ(scale(5.0f)[10], 50.0f);
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.CorruptEntries, 1u);
  EXPECT_EQ(S.Compiles, 2u);
  EXPECT_EQ(S.DiskHits, 0u);
  EXPECT_EQ(offloadjit::DiskCache::verifyFile(Entries[0].Path), "");
}

TEST_F(JITTest, ConcurrentLaunchesCompileOnce) {
  constexpr int Threads = 8;
  std::vector<std::thread> Workers;
  std::vector<std::vector<float>> Results(Threads);
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] { Results[T] = scale(7.0f); });
  for (std::thread &W : Workers)
    W.join();
  for (const std::vector<float> &R : Results)
    EXPECT_EQ(R[9], 63.0f);
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.Compiles, 1u);
  EXPECT_EQ(S.MemoryHits, uint64_t(Threads - 1));
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TEST_F(JITTest, Errors) {
  offload_jit_program_handle_t P = nullptr;
  const char Bad[] = "module { func.func @f( }";
  offload_result_t R =
      offloadCreateProgramFromMLIR(Device, Bad, sizeof(Bad) - 1, &P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY);
  EXPECT_NE(std::string(R->Details).find("cannot parse the MLIR module"),
            std::string::npos)
      << R->Details;
  R = offloadCreateProgramFromMLIR(nullptr, Bad, 3, &P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_HANDLE);

  offload_jit_kernel_handle_t K = nullptr;
  R = offloadJITGetKernel(Program, "nosuch", &K);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_NOT_FOUND);

  // A buffer of the wrong size is rejected before anything runs.
  std::vector<float> X(8);
  ScaleArgs Args{view(X.data(), 8), 1.0f};
  auto Sizes = sizes(1, 8);
  R = offloadJITLaunchKernel(nullptr, Device, kernel("scale"), &Args,
                             sizeof(Args) - 8, &Sizes);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SIZE);
  EXPECT_NE(std::string(R->Details).find("takes 48"), std::string::npos)
      << R->Details;
  R = offloadJITLaunchKernel(nullptr, Device,
                             reinterpret_cast<offload_jit_kernel_handle_t>(&X),
                             &Args, sizeof(Args), &Sizes);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SYMBOL);
  EXPECT_EQ(stats().Compiles, 0u);
}

// Inputs that crash Debian's MLIR 22 parser or verifier (SIGSEGV) are
// INVALID_BINARY naming the crash, and the process goes on: the same input
// again, then a valid program.
TEST_F(JITTest, InputsThatCrashTheMLIRParserAreRefused) {
  const std::pair<std::string, std::string> Inputs[] = {
      {R"(module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f() kernel { gpu.return }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %t = gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
                    threads(%tx, %ty, %tz) in (%a = %c1, %b = %c1, %c = %c1) {
      gpu.terminator
    }
    return
  }
})",
       "a `gpu.launch` with a result but without `async`"},
      {R"(gpu.module @k {
  gpu.func @f() kernel attributes {a = array<index: 1>} { gpu.return }
})",
       "a dense array of `index`"}};
  for (const auto &[Source, Known] : Inputs) {
    SCOPED_TRACE(Source);
    for (int Attempt = 0; Attempt < 2; ++Attempt) {
      offload_jit_program_handle_t P = nullptr;
      offload_result_t R = offloadCreateProgramFromMLIR(Device, Source.data(),
                                                        Source.size(), &P);
      ASSERT_NE(R, OFFLOAD_SUCCESS);
      EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY);
      std::string Details = R->Details;
      EXPECT_NE(Details.find("parser or verifier crashed on the input "
                             "(SIGSEGV: segmentation fault)"),
                std::string::npos)
          << Details;
      EXPECT_NE(Details.find(Known), std::string::npos) << Details;
      EXPECT_EQ(P, nullptr);
    }
  }
  std::vector<float> X = scale(2.0f);
  EXPECT_EQ(X[3], 6.0f);
}

//===----------------------------------------------------------------------===//
// offloadJITGetKernelSignature
//===----------------------------------------------------------------------===//

TEST_F(JITTest, KernelSignature) {
  size_t Size = 0;
  ASSERT_OK(offloadJITGetKernelSignature(kernel("poly"), 0, nullptr, &Size));
  std::string Expected =
      "memref<?xf32>\nmemref<4xf32> runtime_constant contents\n";
  ASSERT_EQ(Size, Expected.size() + 1);
  std::vector<char> Text(Size);
  ASSERT_OK(
      offloadJITGetKernelSignature(kernel("poly"), Size, Text.data(), nullptr));
  EXPECT_EQ(std::string(Text.data()), Expected);
  ASSERT_OK(offloadJITGetKernelSignature(kernel("offset"), Text.size(),
                                         Text.data(), nullptr));
  EXPECT_EQ(std::string(Text.data()), "memref<?xf32>\ni32 runtime_constant\n");
}

TEST_F(JITTest, WorkgroupAttributionsAreNotArguments) {
  // The signature and the packed arguments are the kernel's arguments only,
  // not the workgroup attributions that follow them in the entry block.
  size_t Size = 0;
  ASSERT_OK(offloadJITGetKernelSignature(kernel("reverse"), 0, nullptr, &Size));
  std::vector<char> Text(Size);
  ASSERT_OK(offloadJITGetKernelSignature(kernel("reverse"), Size, Text.data(),
                                         nullptr));
  EXPECT_EQ(std::string(Text.data()), "memref<?xf32>\n");
  std::vector<float> X(128);
  std::iota(X.begin(), X.end(), 0.0f);
  MemRef1D Args = view(X.data(), int64_t(X.size()));
  auto Sizes = sizes(2, 64);
  ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, kernel("reverse"), &Args,
                                   sizeof(Args), &Sizes));
  for (size_t I = 0; I < X.size(); ++I)
    EXPECT_EQ(X[I], float(I / 64 * 64 + 63 - I % 64)) << "at " << I;
}

TEST_F(JITTest, KernelSignatureErrors) {
  char Small[4];
  offload_result_t R = offloadJITGetKernelSignature(
      kernel("scale"), sizeof(Small), Small, nullptr);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SIZE);
  R = offloadJITGetKernelSignature(nullptr, 0, nullptr, nullptr);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_HANDLE);
  R = offloadJITGetKernelSignature(kernel("scale"), 0, nullptr, nullptr);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_POINTER);
}

//===----------------------------------------------------------------------===//
// Launch values as the kernel sees them (issue 10 items 2 and 5)
//===----------------------------------------------------------------------===//

TEST_F(JITTest, ContentsAreReadInQueueOrder) {
  // A host function enqueued before the launch rewrites the coefficients;
  // the specialization must use the new ones, as the generic kernel would.
  offload_queue_handle_t Queue = nullptr;
  ASSERT_OK(offloadCreateQueue(Device, &Queue));
  float Coefficients[4] = {1.0f, 1.0f, 1.0f, 1.0f};
  auto Rewrite = [](void *Data) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    float *C = static_cast<float *>(Data);
    C[0] = 3.0f, C[1] = 0.0f, C[2] = 2.0f, C[3] = 0.0f; // 3 + 2x^2
  };
  ASSERT_OK(offloadLaunchHostFunction(Queue, Rewrite, Coefficients));
  std::vector<float> X(32);
  std::iota(X.begin(), X.end(), 0.0f);
  PolyArgs Args{view(X.data(), X.size()), view(Coefficients, 4)};
  auto Sizes = sizes(1, 32);
  ASSERT_OK(offloadJITLaunchKernel(Queue, Device, kernel("poly"), &Args,
                                   sizeof(Args), &Sizes));
  ASSERT_OK(offloadSyncQueue(Queue));
  ASSERT_OK(offloadDestroyQueue(Queue));
  for (size_t I = 0; I < X.size(); ++I)
    EXPECT_EQ(X[I], 3.0f + 2.0f * I * I) << "at " << I;
}

TEST_F(JITTest, ContentsOfAStridedMemRef) {
  // Argument 1 as memref<4xf32, strided<[2]>> over 8 floats: its contents
  // are elements 0, 2, 4, 6 (the kernel's type says 4 elements).
  const char *Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @gather(%out: memref<?xf32>, %c: memref<4xf32, strided<[2]>>) kernel {
      %t = offload.runtime_constant %c contents : memref<4xf32, strided<[2]>>
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xf32, strided<[2]>>
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
})mlir";
  offload_jit_program_handle_t P = nullptr;
  ASSERT_OK(
      offloadCreateProgramFromMLIR(Device, Source, std::strlen(Source), &P));
  offload_jit_kernel_handle_t K = nullptr;
  ASSERT_OK(offloadJITGetKernel(P, "gather", &K));
  float Data[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  for (bool Enabled : {true, false}) {
    ASSERT_OK(offloadJITSetEnabled(Enabled));
    std::vector<float> Out(4, -1.0f);
    struct {
      MemRef1D Out, C;
    } Args{view(Out.data(), 4), {Data, Data, 0, 4, 2}};
    auto Sizes = sizes(1, 4);
    ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args),
                                     &Sizes));
    EXPECT_EQ(Out, (std::vector<float>{10, 30, 50, 70}))
        << (Enabled ? "specialized" : "generic");
  }
  // A view whose size is not the kernel's static size is refused.
  ASSERT_OK(offloadJITSetEnabled(true));
  std::vector<float> Out(4);
  struct {
    MemRef1D Out, C;
  } Bad{view(Out.data(), 4), {Data, Data, 0, 3, 2}};
  auto Sizes = sizes(1, 4);
  offload_result_t R =
      offloadJITLaunchKernel(nullptr, Device, K, &Bad, sizeof(Bad), &Sizes);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_ARGUMENT);
  EXPECT_NE(std::string(R->Details)
                .find("dimension 0 of the memref is 3 at "
                      "launch but 4 in the kernel's type"),
            std::string::npos)
      << R->Details;
  ASSERT_OK(offloadJITDestroyProgram(P));
}

TEST_F(JITTest, SpecializationRefusesAnotherBlockSize) {
  std::vector<float> X(256, -1.0f);
  MemRef1D Args = view(X.data(), 256);
  auto Sizes32 = sizes(1, 32);
  offload_symbol_handle_t Symbol = nullptr;
  ASSERT_OK(offloadJITGetSpecializedKernel(Device, kernel("iota"), &Args,
                                           sizeof(Args), &Sizes32, &Symbol));
  auto Sizes128 = sizes(1, 128);
  offload_result_t R = offloadLaunchKernel(nullptr, Device, Symbol, &Args,
                                           sizeof(Args), &Sizes128);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_ARGUMENT);
  EXPECT_NE(std::string(R->Details)
                .find("compiled for blocks of 32x1x1 but "
                      "is launched with 128x1x1"),
            std::string::npos)
      << R->Details;
  EXPECT_EQ(X[0], -1.0f); // nothing ran
  ASSERT_OK(offloadLaunchKernel(nullptr, Device, Symbol, &Args, sizeof(Args),
                                &Sizes32));
  EXPECT_EQ(X[31], 31.0f);
}

TEST_F(JITTest, DiskEntryOfAnotherKernelIsRejectedAndRebuilt) {
  // Issue 10 item 3: the entry of `offset` copied over the file of `scale`
  // must not run as `scale`.
  scale(2.0f);
  std::vector<float> X(64, 1.0f);
  OffsetArgs Args{view(X.data(), 64), 5};
  auto Sizes = sizes(1, 64);
  ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, kernel("offset"), &Args,
                                   sizeof(Args), &Sizes));
  std::vector<offloadjit::CacheEntryInfo> Entries =
      offloadjit::DiskCache(CacheDir, 0).list();
  ASSERT_EQ(Entries.size(), 2u);
  std::string ScalePath, OffsetPath;
  for (const auto &E : Entries)
    (E.Kernel == "kernels::scale" ? ScalePath : OffsetPath) = E.Path;
  ASSERT_FALSE(ScalePath.empty());
  ASSERT_FALSE(llvm::sys::fs::copy_file(OffsetPath, ScalePath));
  ASSERT_OK(offloadJITClearMemoryCache());
  ASSERT_OK(offloadJITResetStats());
  EXPECT_EQ(scale(2.0f)[100], 200.0f);
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.CorruptEntries, 1u);
  EXPECT_EQ(S.Compiles, 1u);
  EXPECT_EQ(offloadjit::DiskCache::verifyFile(ScalePath), "");
}

TEST_F(JITTest, KernelsOfDialectsNotLoadedUpFrontCompile) {
  // Compile contexts load only a few dialects when made (Engine.cpp); the
  // others come with the module (parser) and the pipelines' passes. A kernel
  // of vector, math, index and affine operations specializes, lowers and
  // computes the right values, also when the specialization hits later.
  const char *Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @dialects {
    gpu.func @mix(%x: memref<?xf32>, %s_arg: f32) kernel {
      %s = offload.runtime_constant %s_arg : f32
      %tid = gpu.thread_id x
      %two = index.constant 2
      %i = index.mul %tid, %two
      %v = vector.load %x[%i] : memref<?xf32>, vector<2xf32>
      %sv = vector.broadcast %s : f32 to vector<2xf32>
      %m = arith.mulf %v, %sv : vector<2xf32>
      %r = math.sqrt %m : vector<2xf32>
      vector.store %r, %x[%i] : memref<?xf32>, vector<2xf32>
      %i1 = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
      %e = memref.load %x[%i1] : memref<?xf32>
      %f = math.floor %e : f32
      memref.store %f, %x[%i1] : memref<?xf32>
      gpu.return
    }
  }
}
)mlir";
  offload_jit_program_handle_t P = nullptr;
  ASSERT_OK(
      offloadCreateProgramFromMLIR(Device, Source, std::strlen(Source), &P));
  offload_jit_kernel_handle_t K = nullptr;
  ASSERT_OK(offloadJITGetKernel(P, "mix", &K));
  for (int Run = 0; Run < 2; ++Run) {
    std::vector<float> X(16);
    std::iota(X.begin(), X.end(), 0.0f);
    ScaleArgs Args{view(X.data(), X.size()), 4.0f};
    auto Sizes = sizes(1, 8);
    ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args),
                                     &Sizes));
    for (int I = 0; I < 16; ++I) {
      float Root = std::sqrt(4.0f * I);
      EXPECT_FLOAT_EQ(X[I], I % 2 ? std::floor(Root) : Root) << "at " << I;
    }
  }
  EXPECT_EQ(stats().Compiles, 1u);
  EXPECT_EQ(stats().MemoryHits, 1u);
  ASSERT_OK(offloadJITDestroyProgram(P));
}

TEST_F(JITTest, ClearMemoryCacheReleasesPrograms) {
  // Issue 10 item 7: the cleared entries' programs are destroyed, not leaked:
  // their symbols are no longer live runtime handles.
  std::vector<float> X(64, 1.0f);
  MemRef1D Args = view(X.data(), 64);
  auto Sizes = sizes(1, 64);
  offload_symbol_handle_t Symbol = nullptr;
  ASSERT_OK(offloadJITGetSpecializedKernel(Device, kernel("iota"), &Args,
                                           sizeof(Args), &Sizes, &Symbol));
  ASSERT_OK(offloadLaunchKernel(nullptr, Device, Symbol, &Args, sizeof(Args),
                                &Sizes));
  ASSERT_OK(offloadJITClearMemoryCache());
  offload_result_t R =
      offloadLaunchKernel(nullptr, Device, Symbol, &Args, sizeof(Args), &Sizes);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SYMBOL) << describe(R);
  // The kernel is found again (on disk) and runs.
  ASSERT_OK(offloadJITLaunchKernel(nullptr, Device, kernel("iota"), &Args,
                                   sizeof(Args), &Sizes));
  EXPECT_EQ(stats().DiskHits, 1u);
  EXPECT_EQ(X[63], 63.0f);
}

TEST_F(JITTest, CachedKernelsOutliveTheApplicationsRuntimeSession) {
  // The JIT holds its own reference to the runtime: a kernel cached before
  // the application's offloadShutDown/offloadInit still runs after it.
  EXPECT_EQ(scale(2.0f)[10], 20.0f);
  ASSERT_OK(offloadShutDown());
  ASSERT_OK(offloadInit());
  ASSERT_OK(offloadJITResetStats());
  EXPECT_EQ(scale(2.0f)[10], 20.0f);
  EXPECT_EQ(stats().MemoryHits, 1u);
}

TEST_F(JITTest, ConcurrentMissesOfDifferentKeysCompileOnSeveralContexts) {
  // Each thread misses on its own key; compiles run on the pool of compile
  // contexts (OFFLOAD_JIT_THREADS, default 2) at the same time. Every
  // result is right and every key compiled exactly once, also when threads
  // of a second round hit what the first compiled.
  constexpr int Threads = 8;
  for (int Round = 0; Round < 2; ++Round) {
    std::vector<std::thread> Workers;
    std::vector<std::vector<float>> Results(Threads);
    for (int T = 0; T < Threads; ++T)
      Workers.emplace_back([&, T] { Results[T] = scale(float(T + 2)); });
    for (std::thread &W : Workers)
      W.join();
    for (int T = 0; T < Threads; ++T)
      EXPECT_EQ(Results[T][9], 9.0f * (T + 2)) << "thread " << T;
  }
  offload_jit_stats_t S = stats();
  EXPECT_EQ(S.Compiles, uint64_t(Threads));
  EXPECT_EQ(S.MemoryHits, uint64_t(Threads));
}

TEST_F(JITTest, ProgramOptionsInitcheckNamesTheAllocationsOrigin) {
  // Issue 25: CheckTools "init" starts tracking allocations when the program
  // is created; a read of the half of an allocation no fill wrote is
  // reported with the code location of offloadMemAllocWithCodeLoc, the
  // launch fails; the kernel's own stores wrote the rest.
  const char *Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @twice(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
})mlir";
  offload_jit_program_options_t Options{};
  Options.Size = sizeof(Options);
  Options.CheckTools = "init";
  offload_jit_program_handle_t P = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIRWithOptions(
      Device, Source, std::strlen(Source), &Options, &P));
  offload_code_location_t Where{"make_input", "init.c", 3, 5};
  void *X = nullptr;
  ASSERT_OK(offloadMemAllocWithCodeLoc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                       4 * sizeof(float), &X, &Where));
  float One = 1.0f;
  ASSERT_OK(offloadMemFill(nullptr, X, sizeof(One), &One, 2 * sizeof(float)));
  offload_jit_kernel_handle_t K = nullptr;
  ASSERT_OK(offloadJITGetKernel(P, "twice", &K));
  MemRef1D Args = view(static_cast<float *>(X), 4);
  auto Sizes = sizes(1, 4);
  testing::internal::CaptureStdout();
  offload_result_t R =
      offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &Sizes);
  std::string Printed = testing::internal::GetCapturedStdout();
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_BACKEND_FAILURE);
  EXPECT_NE(std::string(R->Details).find("1 uninitialized read(s)"),
            std::string::npos)
      << R->Details;
  EXPECT_NE(Printed.find("========= Uninitialized __global__ memory read of "
                         "size 4 bytes\n"),
            std::string::npos)
      << Printed;
  EXPECT_NE(Printed.find("by thread (2,0,0) in block (0,0,0)\n"),
            std::string::npos)
      << Printed;
  EXPECT_NE(Printed.find("is at offset 8 of an allocation of 16 bytes of "
                         "device memory"),
            std::string::npos)
      << Printed;
  EXPECT_NE(Printed.find("allocated at make_input (init.c:3:5)\n"),
            std::string::npos)
      << Printed;
  EXPECT_EQ(Printed.find("thread (0,0,0)"), std::string::npos) << Printed;
  // Every element is now written: no report.
  testing::internal::CaptureStdout();
  R = offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &Sizes);
  Printed = testing::internal::GetCapturedStdout();
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << (R ? R->Details : "");
  EXPECT_EQ(Printed, "");
  EXPECT_EQ(static_cast<float *>(X)[0], 4.0f);
  ASSERT_OK(offloadMemFree(X));
  ASSERT_OK(offloadJITDestroyProgram(P));
}

TEST_F(JITTest, HostFunctionsOfTheModuleAreIgnored) {
  // A whole program (host code launching the kernel) given to the JIT: only
  // the gpu.module is compiled, also when its kernel is specialized (the
  // host function's launch of the generic kernel does not matter).
  const char *Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @twice(%x: memref<?xf32>, %k: f32) kernel {
      %kk = offload.runtime_constant %k : f32
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %kk : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main(%x: memref<?xf32>, %k: f32) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@twice blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%x : memref<?xf32>, %k : f32)
    return
  }
})mlir";
  offload_jit_program_handle_t P = nullptr;
  ASSERT_OK(
      offloadCreateProgramFromMLIR(Device, Source, std::strlen(Source), &P));
  offload_jit_kernel_handle_t K = nullptr;
  ASSERT_OK(offloadJITGetKernel(P, "twice", &K));
  std::vector<float> X(4, 3.0f);
  ScaleArgs Args{view(X.data(), 4), 2.0f};
  auto Sizes = sizes(1, 4);
  ASSERT_OK(
      offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &Sizes));
  EXPECT_EQ(X, (std::vector<float>{6, 6, 6, 6}));
  ASSERT_OK(offloadJITDestroyProgram(P));
}

TEST_F(JITTest, FailingAssertStopsOnlyItsThread) {
  // Issue 11 item 5: thread 2 asserts and stops before its store; the other
  // threads store; the launch reports the failure.
  const char *Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @inc(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %zero = arith.constant 0.0 : f32
      %ok = arith.cmpf oge, %v, %zero : f32
      cf.assert %ok, "x[i] >= 0"
      %one = arith.constant 1.0 : f32
      %w = arith.addf %v, %one : f32
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
})mlir";
  offload_jit_program_handle_t P = nullptr;
  ASSERT_OK(
      offloadCreateProgramFromMLIR(Device, Source, std::strlen(Source), &P));
  offload_jit_kernel_handle_t K = nullptr;
  ASSERT_OK(offloadJITGetKernel(P, "inc", &K));
  std::vector<float> X{0, 1, -2, 3};
  MemRef1D Args = view(X.data(), 4);
  auto Sizes = sizes(1, 4);
  offload_result_t R =
      offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &Sizes);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_BACKEND_FAILURE);
  EXPECT_NE(std::string(R->Details)
                .find("a device-side assertion failed in 1 thread(s)"),
            std::string::npos)
      << R->Details;
  EXPECT_EQ(X, (std::vector<float>{1, 2, -2, 4}));
  ASSERT_OK(offloadJITDestroyProgram(P));
}

TEST_F(JITTest, ProgramOptionsCheckBoundsForThatProgramOnly) {
  // offloadCreateProgramFromMLIRWithOptions{Check}: the checked program
  // reports the out-of-bounds store and its launch fails; the same module
  // unchecked is another specialization and runs unchecked.
  std::vector<float> X(16, 0.0f);
  auto Run = [&](offload_jit_program_handle_t P) {
    offload_jit_kernel_handle_t K = nullptr;
    EXPECT_EQ(offloadJITGetKernel(P, "iota", &K), OFFLOAD_SUCCESS);
    MemRef1D Args = view(X.data(), 8); // 16 threads, 8 elements
    auto Sizes = sizes(1, 16);
    return offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args),
                                  &Sizes);
  };
  offload_jit_program_options_t Options{};
  Options.Size = sizeof(Options);
  Options.Check = true;
  offload_jit_program_handle_t Checked = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIRWithOptions(
      Device, KernelsSource, std::strlen(KernelsSource), &Options, &Checked));
  offload_result_t R = Run(Checked);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_BACKEND_FAILURE);
  EXPECT_NE(std::string(R->Details)
                .find("8 thread(s) accessed memory out of "
                      "bounds"),
            std::string::npos)
      << R->Details;
  EXPECT_EQ(X[7], 7.0f);
  EXPECT_EQ(X[8], 0.0f); // not written: that thread stopped
  ASSERT_OK(offloadJITDestroyProgram(Checked));
  ASSERT_OK(Run(Program)); // unchecked: writes past the view (into X)
  EXPECT_EQ(X[8], 8.0f);
  EXPECT_EQ(stats().Compiles, 2u);

  Options.Size = 3;
  R = offloadCreateProgramFromMLIRWithOptions(
      Device, KernelsSource, std::strlen(KernelsSource), &Options, &Checked);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SIZE);
}

TEST_F(JITTest, ProgramOptionsCheckToolsNameTheTools) {
  // CheckTools "memcheck" is Check: the same key, no new compile; the size
  // before CheckTools existed is still accepted; a word that names no tool
  // is INVALID_VALUE.
  std::vector<float> X(16, 0.0f);
  auto Run = [&](offload_jit_program_handle_t P) {
    offload_jit_kernel_handle_t K = nullptr;
    EXPECT_EQ(offloadJITGetKernel(P, "iota", &K), OFFLOAD_SUCCESS);
    MemRef1D Args = view(X.data(), 8);
    auto Sizes = sizes(1, 16);
    return offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args),
                                  &Sizes);
  };
  offload_jit_program_options_t Options{};
  Options.Size = offsetof(offload_jit_program_options_t, CheckTools);
  Options.Check = true;
  offload_jit_program_handle_t Old = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIRWithOptions(
      Device, KernelsSource, std::strlen(KernelsSource), &Options, &Old));
  offload_result_t R = Run(Old);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_BACKEND_FAILURE);
  EXPECT_EQ(stats().Compiles, 1u);
  ASSERT_OK(offloadJITDestroyProgram(Old));

  Options = {};
  Options.Size = sizeof(Options);
  Options.CheckTools = "memcheck";
  offload_jit_program_handle_t Named = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIRWithOptions(
      Device, KernelsSource, std::strlen(KernelsSource), &Options, &Named));
  R = Run(Named);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_NE(std::string(R->Details).find("accessed memory out of bounds"),
            std::string::npos)
      << R->Details;
  EXPECT_EQ(stats().Compiles, 1u);
  ASSERT_OK(offloadJITDestroyProgram(Named));

  Options.CheckTools = "memcheck,racy";
  R = offloadCreateProgramFromMLIRWithOptions(
      Device, KernelsSource, std::strlen(KernelsSource), &Options, &Named);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_VALUE);
  EXPECT_NE(std::string(R->Details).find("'racy' is not a checking tool"),
            std::string::npos)
      << R->Details;
}
