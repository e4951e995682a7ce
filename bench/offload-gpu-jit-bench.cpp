//===- offload-gpu-jit-bench.cpp - Cold GPU specialization times ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// How long libOffloadJIT takes to specialize a small kernel (`axpy` of
// bench/kernels/micro.mlir) for a GPU when nothing is cached: each sample
// launches it with a new value of its runtime constant, so the in-memory
// cache misses (the disk cache is off), and times
// offloadJITGetSpecializedKernel: key, clone, specialize, the NVVM or ROCDL
// kernel steps, code generation, assembly, and loading the image on the device.
//
//   ptx    CUDA, PTX from LLVM's NVPTX backend (OFFLOAD_JIT_NVJITLINK=0: the
//          driver compiles it when it loads it)
//   cubin  CUDA, the PTX assembled by nvJitLink in process (skipped without
//          libnvJitLink)
//   hsaco  HIP, AMDGCN code linked by ld.lld (skipped without a ROCm toolkit)
//
// Without OFFLOAD_CUDA_LIBRARY / OFFLOAD_HIP_LIBRARY the test doubles of the
// driver and the runtime built with the tests are used (they load images
// without compiling them, so the times are the JIT's alone). Prints JSON:
// per target the median, minimum and maximum wall time and the median of the
// JIT's compile counter, in milliseconds, over --samples samples after one
// warm-up.
//
// usage: offload-gpu-jit-bench [--samples=N] [--quick] [--kernel-dir=DIR]
//
//===----------------------------------------------------------------------===//

#include "ArgPack.h"

#include "OffloadJIT/OffloadJIT.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using offload_bench::ArgPack;

namespace {

std::string KernelDir = OFFLOAD_BENCH_KERNEL_DIR;

struct Result {
  std::string Name;
  std::string Skipped;
  std::string Chip;
  std::vector<double> WallMs, CompileMs;
};

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

std::string describe(offload_result_t R) {
  return R ? std::string(offloadErrcName(R->Code)) + ": " + R->Details : "";
}

/// Whether nvJitLink loads where the JIT looks for it by default.
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

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Times cold specializations of axpy on the first device of \p Backend.
Result run(const char *Name, offload_platform_backend_t Backend,
           unsigned Samples) {
  Result Out;
  Out.Name = Name;
  offload_device_handle_t Device = nullptr;
  if (offloadGetDevice(Backend, 0, &Device)) {
    Out.Skipped = "no device";
    return Out;
  }
  char Arch[64] = "";
  offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_ARCHITECTURE, sizeof(Arch),
                       Arch);
  Out.Chip = Arch;
  std::string Source = readFile(KernelDir + "/micro.mlir");
  if (Source.empty()) {
    Out.Skipped = "cannot read " + KernelDir + "/micro.mlir";
    return Out;
  }
  offload_jit_program_handle_t Program = nullptr;
  if (offload_result_t R = offloadCreateProgramFromMLIR(
          Device, Source.data(), Source.size(), &Program)) {
    Out.Skipped = describe(R);
    return Out;
  }
  offload_jit_kernel_handle_t Kernel = nullptr;
  void *X = nullptr, *Y = nullptr;
  if (offloadJITGetKernel(Program, "axpy", &Kernel) ||
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 1024, &X) ||
      offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 1024, &Y)) {
    Out.Skipped = "cannot set up the kernel";
    return Out;
  }
  offload_kernel_launch_size_args_t Sizes{};
  Sizes.Dimensions = 1;
  Sizes.NumGroups = {2, 1, 1};
  Sizes.GroupSize = {128, 1, 1};
  for (unsigned I = 0; I <= Samples; ++I) {
    ArgPack Args;
    Args.memref(static_cast<float *>(X), {256})
        .memref(static_cast<float *>(Y), {256})
        .index(256)
        .scalar(1.0f + static_cast<float>(I)); // a new key every time
    offload_jit_stats_t Before{}, After{};
    offloadJITGetStats(&Before);
    offload_symbol_handle_t Symbol = nullptr;
    auto Start = std::chrono::steady_clock::now();
    offload_result_t R = offloadJITGetSpecializedKernel(
        Device, Kernel, Args.data(), Args.size(), &Sizes, &Symbol);
    auto End = std::chrono::steady_clock::now();
    offloadJITGetStats(&After);
    if (R) {
      Out.Skipped = describe(R);
      break;
    }
    if (I == 0)
      continue; // warm-up: one-time initialization of the backends
    Out.WallMs.push_back(
        std::chrono::duration<double, std::milli>(End - Start).count());
    Out.CompileMs.push_back(After.CompileMilliseconds -
                            Before.CompileMilliseconds);
  }
  offloadMemFree(X);
  offloadMemFree(Y);
  offloadJITDestroyProgram(Program);
  return Out;
}

} // namespace

int main(int argc, char **argv) {
  unsigned Samples = 15;
  for (int I = 1; I < argc; ++I) {
    std::string Arg = argv[I];
    if (Arg == "--quick")
      Samples = 3;
    else if (Arg.rfind("--samples=", 0) == 0)
      Samples = std::max(1, std::atoi(Arg.c_str() + 10));
    else if (Arg.rfind("--kernel-dir=", 0) == 0)
      KernelDir = Arg.substr(13);
    else {
      std::fprintf(stderr,
                   "usage: offload-gpu-jit-bench [--samples=N] [--quick] "
                   "[--kernel-dir=DIR]\n");
      return 2;
    }
  }
  // Before the runtime and the JIT read their environment.
  setenv("OFFLOAD_CUDA_LIBRARY", OFFLOAD_FAKE_CUDA_LIBRARY, /*overwrite=*/0);
  setenv("OFFLOAD_HIP_LIBRARY", OFFLOAD_FAKE_HIP_LIBRARY, /*overwrite=*/0);
  setenv("OFFLOAD_CACHE_DIR", "", 1);
  unsetenv("OFFLOAD_JIT_DUMP");
  unsetenv("OFFLOAD_JIT_ASYNC");
  if (offload_result_t R = offloadInit()) {
    std::fprintf(stderr, "offloadInit: %s\n", describe(R).c_str());
    return 1;
  }
  const char *Assembler = std::getenv("OFFLOAD_JIT_NVJITLINK");
  std::string Saved = Assembler ? Assembler : "";
  std::vector<Result> Results;
  setenv("OFFLOAD_JIT_NVJITLINK", "0", 1);
  Results.push_back(
      run("cold_specialization/ptx", OFFLOAD_PLATFORM_BACKEND_CUDA, Samples));
  if (Saved.empty())
    unsetenv("OFFLOAD_JIT_NVJITLINK");
  else
    setenv("OFFLOAD_JIT_NVJITLINK", Saved.c_str(), 1);
  if (Saved == "0") {
    Result Off;
    Off.Name = "cold_specialization/cubin";
    Off.Skipped = "OFFLOAD_JIT_NVJITLINK=0";
    Results.push_back(Off);
  } else {
    Result Cubin = run("cold_specialization/cubin",
                       OFFLOAD_PLATFORM_BACKEND_CUDA, Samples);
    // Without nvJitLink the JIT falls back to PTX: not a cubin measurement
    // (OFFLOAD_JIT_NVJITLINK=PATH names one explicitly).
    if (Saved.empty() && !haveNVJitLink()) {
      Cubin.Skipped = "no libnvJitLink.so.13 or .12";
      Cubin.WallMs.clear();
      Cubin.CompileMs.clear();
    }
    Results.push_back(Cubin);
  }
  Results.push_back(run("cold_specialization/hsaco",
                        OFFLOAD_PLATFORM_BACKEND_AMDGPU, Samples));

  std::printf("{\n  \"context\": {\"kernel\": \"micro.mlir::axpy\", "
              "\"samples\": %u, \"unit\": \"ms\", \"cuda_library\": \"%s\", "
              "\"hip_library\": \"%s\"},\n  \"benchmarks\": [\n",
              Samples, std::getenv("OFFLOAD_CUDA_LIBRARY"),
              std::getenv("OFFLOAD_HIP_LIBRARY"));
  for (size_t I = 0; I < Results.size(); ++I) {
    const Result &R = Results[I];
    std::printf("    {\"name\": \"%s\", \"chip\": \"%s\", ", R.Name.c_str(),
                R.Chip.c_str());
    if (!R.Skipped.empty() || R.WallMs.empty()) {
      std::string Why = R.Skipped;
      std::replace(Why.begin(), Why.end(), '"', '\'');
      std::replace(Why.begin(), Why.end(), '\n', ' ');
      std::printf("\"skipped\": \"%s\"}", Why.c_str());
    } else {
      std::printf("\"median_ms\": %.3f, \"min_ms\": %.3f, \"max_ms\": %.3f, "
                  "\"compile_median_ms\": %.3f, \"samples\": %zu}",
                  median(R.WallMs),
                  *std::min_element(R.WallMs.begin(), R.WallMs.end()),
                  *std::max_element(R.WallMs.begin(), R.WallMs.end()),
                  median(R.CompileMs), R.WallMs.size());
    }
    std::printf("%s\n", I + 1 < Results.size() ? "," : "");
  }
  std::printf("  ]\n}\n");
  offloadShutDown();
  return 0;
}
