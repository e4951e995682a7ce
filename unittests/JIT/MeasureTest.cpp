//===- MeasureTest.cpp - Specializations measured against generic kernels -===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// OFFLOAD_JIT_MEASURE=1 with OFFLOAD_JIT_MEASURE_LAUNCHES=2 (set by main):
// the first six launches of a specialization alternate with the generic
// kernel (a warm-up and two timed launches of each), then the faster runs. The
// decision is forced with OFFLOAD_JIT_MEASURE_SCALE (the specialization's times
// multiplied by 1000: slower; by 0.001: faster). Every case runs in a child
// process (this binary with --child) with its own settings, sharing a cache
// directory with the next where the case needs a second process.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace offload_jit_test;

namespace {

const char *const Source = R"mlir(
module attributes {gpu.container_module} {
  gpu.module @measure {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %k = offload.runtime_constant %s : f32
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %k : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
)mlir";

std::string ExecutablePath, BaseDir;

/// Runs this binary with --child=LAUNCHES in cache directory \p Cache with
/// OFFLOAD_JIT_MEASURE_SCALE=\p Scale; returns what it prints.
std::string runChild(const std::string &Cache, const char *Scale,
                     int Launches) {
  std::string Command = "OFFLOAD_CACHE_DIR='" + BaseDir + "/" + Cache +
                        "' OFFLOAD_JIT_MEASURE_SCALE=" + Scale + " '" +
                        ExecutablePath +
                        "' --child=" + std::to_string(Launches);
  std::string Output;
  FILE *Pipe = popen(Command.c_str(), "r");
  if (!Pipe)
    return "popen failed";
  char Buffer[512];
  while (fgets(Buffer, sizeof(Buffer), Pipe))
    Output += Buffer;
  if (int Status = pclose(Pipe))
    Output += " (exit status " + std::to_string(Status) + ")";
  return Output;
}

} // namespace

TEST(MeasureTest, SlowerSpecializationIsReplacedByTheGenericKernel) {
  // Six measured launches (three of each), then the generic kernel runs;
  // both were compiled.
  EXPECT_EQ(runChild("slow", "1000", 8),
            "ok measured=6 faster=0 slower=1 verdict-loads=0 compiles=2 "
            "generic-chosen=1\n");
  // The next process reads the verdict: no measurement, nothing compiled.
  EXPECT_EQ(runChild("slow", "1000", 3),
            "ok measured=0 faster=0 slower=0 verdict-loads=1 compiles=0 "
            "generic-chosen=1\n");
}

TEST(MeasureTest, FasterSpecializationIsKept) {
  EXPECT_EQ(runChild("fast", "0.001", 7),
            "ok measured=6 faster=1 slower=0 verdict-loads=0 compiles=2 "
            "generic-chosen=0\n");
  EXPECT_EQ(runChild("fast", "0.001", 1),
            "ok measured=0 faster=0 slower=0 verdict-loads=1 compiles=0 "
            "generic-chosen=0\n");
}

/// --child=N: N launches of scale(x, 2.5) on the host device without a
/// queue and, for every third launch, on a queue; each result checked.
/// Prints the counters and whether the JIT now resolves the launch to the
/// generic kernel's symbol.
static int childMain(int Launches) {
  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
  offload_jit_kernel_handle_t Kernel = nullptr;
  offload_queue_handle_t Queue = nullptr;
  if (offloadInit() || offloadGetHostDevice(&Device) ||
      offloadCreateQueue(Device, &Queue) ||
      offloadCreateProgramFromMLIR(Device, Source, std::strlen(Source),
                                   &Program) ||
      offloadJITGetKernel(Program, "scale", &Kernel))
    return 2;
  std::vector<float> X(256);
  ScaleArgs Args{view(X.data(), 256), 2.5f};
  auto Sizes = sizes(4, 64);
  for (int L = 0; L < Launches; ++L) {
    for (size_t I = 0; I < X.size(); ++I)
      X[I] = float(I);
    offload_queue_handle_t On = L % 3 == 2 ? Queue : nullptr;
    offload_result_t R =
        offloadJITLaunchKernel(On, Device, Kernel, &Args, sizeof(Args), &Sizes);
    if (!R && On)
      R = offloadSyncQueue(On);
    if (R) {
      std::printf("launch %d failed: %s\n", L + 1, describe(R).c_str());
      return 3;
    }
    for (size_t I = 0; I < X.size(); ++I)
      if (X[I] != 2.5f * float(I)) {
        std::printf("launch %d: wrong result at %zu\n", L + 1, I);
        return 4;
      }
  }
  offload_jit_stats_t S = stats();
  offload_symbol_handle_t Chosen = nullptr, Generic = nullptr;
  if (offloadJITGetSpecializedKernel(Device, Kernel, &Args, sizeof(Args),
                                     &Sizes, &Chosen) ||
      offloadJITSetEnabled(false) ||
      offloadJITGetSpecializedKernel(Device, Kernel, &Args, sizeof(Args),
                                     &Sizes, &Generic))
    return 5;
  std::printf("ok measured=%llu faster=%llu slower=%llu verdict-loads=%llu "
              "compiles=%llu generic-chosen=%d\n",
              (unsigned long long)S.MeasuredLaunches,
              (unsigned long long)S.MeasuredFaster,
              (unsigned long long)S.MeasuredSlower,
              (unsigned long long)S.VerdictLoads,
              (unsigned long long)S.Compiles, Chosen == Generic);
  return 0;
}

int main(int argc, char **argv) {
  setenv("OFFLOAD_JIT_MEASURE", "1", 1);
  setenv("OFFLOAD_JIT_MEASURE_LAUNCHES", "2", 1);
  unsetenv("OFFLOAD_JIT_AUTO");
  ExecutablePath = argv[0];
  if (argc == 2 && std::strncmp(argv[1], "--child=", 8) == 0)
    return childMain(std::atoi(argv[1] + 8));
  // Cache directories of this process's own (ctest may run tests in
  // parallel).
  BaseDir =
      std::string(OFFLOAD_MEASURE_TEST_DIR) + "/" + std::to_string(getpid());
  llvm::sys::fs::create_directories(BaseDir);
  ::testing::InitGoogleTest(&argc, argv);
  int Result = RUN_ALL_TESTS();
  llvm::sys::fs::remove_directories(BaseDir);
  return Result;
}
