//===- StressMain.cpp - One process of the two-process cache test ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-jit-stress: 8 threads launch `scale` with 4 different values, many
// times each, and check every result. Two of these run at once on one
// OFFLOAD_CACHE_DIR (ctest JITTwoProcesses): they share disk entries, must
// never read a torn one, and must compute right. Exit status 0 on success.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <thread>
#include <vector>

using namespace offload_jit_test;

int main() {
  if (offloadInit())
    return 1;
  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
  offload_jit_kernel_handle_t Kernel = nullptr;
  if (offloadGetHostDevice(&Device) ||
      offloadCreateProgramFromMLIR(Device, KernelsSource,
                                   std::strlen(KernelsSource), &Program) ||
      offloadJITGetKernel(Program, "scale", &Kernel))
    return 1;
  std::atomic<int> Failures{0};
  std::vector<std::thread> Threads;
  for (int T = 0; T < 8; ++T)
    Threads.emplace_back([&, T] {
      for (int I = 0; I < 50; ++I) {
        float S = float(1 + (T + I) % 4);
        std::vector<float> X(128);
        std::iota(X.begin(), X.end(), 0.0f);
        ScaleArgs Args{view(X.data(), 128), S};
        auto Sizes = sizes(2, 64);
        offload_result_t R = offloadJITLaunchKernel(
            nullptr, Device, Kernel, &Args, sizeof(Args), &Sizes);
        if (R) {
          std::fprintf(stderr, "launch failed: %s\n", describe(R).c_str());
          ++Failures;
          return;
        }
        for (int J = 0; J < 128; ++J)
          if (X[J] != S * J) {
            std::fprintf(stderr, "wrong result %f at %d for %f\n", X[J], J, S);
            ++Failures;
            return;
          }
      }
    });
  for (std::thread &T : Threads)
    T.join();
  offload_jit_stats_t Stats = stats();
  std::printf("launches=%llu compiles=%llu disk-hits=%llu corrupt=%llu\n",
              (unsigned long long)Stats.Launches,
              (unsigned long long)Stats.Compiles,
              (unsigned long long)Stats.DiskHits,
              (unsigned long long)Stats.CorruptEntries);
  // Four keys: each compiled here or read from the other process's entries.
  bool Consistent = Stats.Launches == 400 &&
                    Stats.Compiles + Stats.DiskHits == 4 &&
                    Stats.CorruptEntries == 0;
  return Failures == 0 && Consistent ? 0 : 1;
}
