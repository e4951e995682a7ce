//===- offload-gpu-kernels-bench.cpp - JIT kernels on a CUDA device -------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The eight benchmark kernels of bench/kernels (the suite of
// offload-jit-bench, inputs of BenchKernels.cpp at benchmark size) through
// libOffloadJIT on the first CUDA device, for scripts/gpu-check.sh:
//
//  1. each kernel runs on the host device (generic, through the JIT): the
//     reference results;
//  2. its inputs are copied to device memory, the generic kernel and the
//     specialization for the inputs' runtime constants and block size are
//     compiled for the device (offloadJITGetSpecializedKernel, with the
//     compile times), each is launched once on the inputs, and its outputs
//     are compared with the host's (tolerances below);
//  3. kernel time: batches of launches of one version on a queue, then
//     offloadSyncQueue, wall time per launch; --reps batches of each
//     version, alternating which goes first; medians; the speedup is
//     generic / specialized, measured in this run.
//
// GPU results differ from the host's in rounding (FMA contraction by the
// NVPTX backend, libdevice instead of libm): an element passes when
// |gpu - host| <= max(abs, rel * |host|) with rel = max(the output's own
// tolerance, 1e-4 for f32 or 1e-9 for f64) and abs = max(the output's own,
// 1e-6 * the largest |host| of that output). The JSON reports, per kernel and
// version, the worst ratio of difference to tolerance and how many elements
// failed, so the tolerances can be judged on a real device.
//
// --no-check skips the comparisons (the tests' fake CUDA driver loads the
// images but runs no kernel, so its outputs are the inputs); the report says
// "not checked".
//
// Prints JSON on stdout and one line per kernel on stderr. Exit status 0
// when every kernel compiled, ran and (unless --no-check) matched, 1
// otherwise, 2 on a usage error.
//
// usage: offload-gpu-kernels-bench [--kernel-dir=DIR] [--reps=N]
//          [--batch-ms=MS] [--quick] [--no-check] [--only=a,b]
//
//===----------------------------------------------------------------------===//

#include "BenchKernels.h"

#include "OffloadJIT/OffloadJIT.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#ifndef OFFLOAD_BENCH_KERNEL_DIR
#define OFFLOAD_BENCH_KERNEL_DIR "bench/kernels"
#endif

using namespace offload_bench;
using Clock = std::chrono::steady_clock;

namespace {

std::string KernelDir = OFFLOAD_BENCH_KERNEL_DIR;
unsigned Reps = 9;
double BatchMs = 20;
bool Check = true;

struct Failure {
  std::string What;
};

std::string describe(offload_result_t R) {
  return std::string(offloadErrcName(R->Code)) + ": " + R->Details;
}

void check(offload_result_t R, const std::string &What) {
  if (R)
    throw Failure{What + ": " + describe(R)};
}

double msSince(Clock::time_point Start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - Start)
      .count();
}

double median(std::vector<double> V) {
  if (V.empty())
    return 0;
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

std::string jsonString(std::string S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\', Out += C;
    else if (C == '\n')
      Out += "\\n";
    else if (static_cast<unsigned char>(C) < 0x20)
      Out += ' ';
    else
      Out += C;
  }
  return Out + "\"";
}

/// One version's comparison with the host.
struct Comparison {
  bool Ran = false, Passed = false;
  double WorstRatio = 0; // max |gpu - host| / tolerance
  size_t Mismatches = 0, Elements = 0;
  std::string First; // the first mismatch
};

struct KernelResult {
  std::string Name, Error;
  double HostCompileMs = 0, GenericCompileMs = 0, SpecializedCompileMs = 0;
  double GenericUs = 0, SpecializedUs = 0;
  unsigned Batch = 0;
  Comparison Generic, Specialized;
  bool ok() const {
    return Error.empty() && (!Check || (Generic.Passed && Specialized.Passed));
  }
};

using Snapshot = std::vector<std::vector<double>>;

Snapshot snapshot(const KernelCase &Case) {
  Snapshot S;
  for (const Output &O : Case.outputs())
    S.push_back(O.values());
  return S;
}

Comparison compare(const KernelCase &Case, const Snapshot &Host,
                   const Snapshot &Gpu) {
  Comparison C;
  C.Ran = true;
  std::vector<Output> Outputs = Case.outputs();
  for (size_t O = 0; O < Outputs.size(); ++O) {
    const Output &Out = Outputs[O];
    double Largest = 0;
    for (double H : Host[O])
      if (std::isfinite(H))
        Largest = std::max(Largest, std::fabs(H));
    double Rel = std::max(Out.RelTolerance, Out.IsDouble ? 1e-9 : 1e-4);
    double Abs = std::max(Out.AbsTolerance, 1e-6 * Largest);
    for (size_t I = 0; I < Host[O].size(); ++I) {
      double H = Host[O][I], G = Gpu[O][I];
      ++C.Elements;
      if (H == G || (std::isnan(H) && std::isnan(G)))
        continue;
      double Tolerance = std::max(Abs, Rel * std::fabs(H));
      double Ratio = std::isfinite(G) && std::isfinite(H)
                         ? std::fabs(G - H) / Tolerance
                         : INFINITY;
      C.WorstRatio = std::max(C.WorstRatio, Ratio);
      if (Ratio <= 1)
        continue;
      if (C.Mismatches++ == 0) {
        std::ostringstream S;
        S.precision(17);
        S << Out.Name << "[" << I << "]: host " << H << ", gpu " << G;
        C.First = S.str();
      }
    }
  }
  C.Passed = C.Mismatches == 0;
  return C;
}

/// A kernel's buffers in device memory, with the argument buffer pointing
/// at them.
class DeviceBuffers {
public:
  DeviceBuffers(offload_device_handle_t Host, offload_device_handle_t Device,
                const KernelCase &Case)
      : Host(Host), Device(Device) {
    std::map<void *, void *> Seen;
    std::vector<void *> Pointers;
    for (const ArgPack::MemrefArg &M : Case.args().memrefs()) {
      auto It = Seen.find(M.Data);
      if (It == Seen.end()) {
        void *P = nullptr;
        check(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                              std::max<size_t>(M.Bytes, 1), &P),
              "offloadMemAlloc of " + std::to_string(M.Bytes) + " bytes");
        Allocations.push_back(P);
        Copies.push_back({M.Data, P, M.Bytes});
        It = Seen.emplace(M.Data, P).first;
      }
      Pointers.push_back(It->second);
    }
    Args = Case.args().withPointers(Pointers);
  }
  ~DeviceBuffers() {
    for (void *P : Allocations)
      offloadMemFree(P);
  }
  /// Host buffers (as the case's reset() leaves them) to the device.
  void upload() {
    for (const Copy &C : Copies)
      if (C.Bytes)
        check(offloadMemcpy(nullptr, C.Device, Device, C.Host, Host, C.Bytes),
              "copy to the device");
  }
  /// Every device buffer back into the host buffers.
  void download() {
    for (const Copy &C : Copies)
      if (C.Bytes)
        check(offloadMemcpy(nullptr, C.Host, Host, C.Device, Device, C.Bytes),
              "copy from the device");
  }
  const std::vector<char> &args() const { return Args; }

private:
  struct Copy {
    void *Host, *Device;
    size_t Bytes;
  };
  offload_device_handle_t Host, Device;
  std::vector<void *> Allocations;
  std::vector<Copy> Copies;
  std::vector<char> Args;
};

offload_symbol_handle_t resolve(offload_device_handle_t Device,
                                offload_jit_kernel_handle_t Kernel,
                                const void *Args, size_t Size,
                                const offload_kernel_launch_size_args_t &Sizes,
                                bool Specialize, double &Ms) {
  check(offloadJITSetEnabled(Specialize), "offloadJITSetEnabled");
  offload_symbol_handle_t Symbol = nullptr;
  auto Start = Clock::now();
  offload_result_t R = offloadJITGetSpecializedKernel(Device, Kernel, Args,
                                                      Size, &Sizes, &Symbol);
  Ms = msSince(Start);
  offloadJITSetEnabled(true);
  check(R, std::string(Specialize ? "specialization" : "generic kernel") +
               " (offloadJITGetSpecializedKernel)");
  return Symbol;
}

offload_jit_kernel_handle_t kernelOn(offload_device_handle_t Device,
                                     const KernelCase &Case) {
  std::string Error;
  std::string Source = readKernelFile(KernelDir, Case.file(), Error);
  if (Source.empty())
    throw Failure{Error + " (use --kernel-dir=DIR)"};
  offload_jit_program_handle_t Program = nullptr;
  check(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                     &Program),
        std::string("offloadCreateProgramFromMLIR of ") + Case.file());
  offload_jit_kernel_handle_t Kernel = nullptr;
  check(offloadJITGetKernel(Program, Case.kernel(), &Kernel),
        std::string("offloadJITGetKernel ") + Case.kernel());
  return Kernel;
}

/// Wall time per launch of \p Symbol, \p Batch launches on \p Queue.
double timeBatch(offload_queue_handle_t Queue, offload_device_handle_t Device,
                 offload_symbol_handle_t Symbol, const DeviceBuffers &B,
                 const KernelCase &Case, unsigned Batch) {
  auto Start = Clock::now();
  for (unsigned I = 0; I < Batch; ++I)
    check(offloadLaunchKernel(Queue, Device, Symbol, B.args().data(),
                              B.args().size(), &Case.launchSizes()),
          "offloadLaunchKernel");
  check(offloadSyncQueue(Queue), "offloadSyncQueue");
  return msSince(Start) * 1e3 / Batch;
}

KernelResult runCase(offload_device_handle_t Host, offload_device_handle_t Gpu,
                     offload_queue_handle_t Queue, KernelCase &Case) {
  KernelResult R;
  R.Name = Case.name();
  try {
    // 1. The host's results.
    offload_jit_kernel_handle_t HostKernel = kernelOn(Host, Case);
    offload_symbol_handle_t HostGeneric =
        resolve(Host, HostKernel, Case.args().data(), Case.args().size(),
                Case.launchSizes(), false, R.HostCompileMs);
    Case.reset();
    check(offloadLaunchKernel(nullptr, Host, HostGeneric, Case.args().data(),
                              Case.args().size(), &Case.launchSizes()),
          "launch on the host device");
    Snapshot HostResult = snapshot(Case);

    // 2. Compile for the GPU, run each version once, compare.
    Case.reset();
    DeviceBuffers B(Host, Gpu, Case);
    B.upload(); // `contents` runtime constants are read from the device
    offload_jit_kernel_handle_t Kernel = kernelOn(Gpu, Case);
    const std::vector<char> &Args = B.args();
    offload_symbol_handle_t Generic =
        resolve(Gpu, Kernel, Args.data(), Args.size(), Case.launchSizes(),
                false, R.GenericCompileMs);
    offload_symbol_handle_t Specialized =
        resolve(Gpu, Kernel, Args.data(), Args.size(), Case.launchSizes(), true,
                R.SpecializedCompileMs);
    for (bool Spec : {false, true}) {
      Case.reset();
      B.upload();
      check(offloadLaunchKernel(nullptr, Gpu, Spec ? Specialized : Generic,
                                Args.data(), Args.size(), &Case.launchSizes()),
            std::string("launch of the ") +
                (Spec ? "specialization" : "generic kernel"));
      B.download();
      if (Check)
        (Spec ? R.Specialized : R.Generic) =
            compare(Case, HostResult, snapshot(Case));
    }

    // 3. Kernel time (the buffers keep whatever the launches leave).
    Case.reset();
    B.upload();
    // One untimed launch of each first (first-launch costs), then one timed
    // launch of each sizes the batches.
    timeBatch(Queue, Gpu, Generic, B, Case, 1);
    timeBatch(Queue, Gpu, Specialized, B, Case, 1);
    double One = std::max(timeBatch(Queue, Gpu, Generic, B, Case, 1),
                          timeBatch(Queue, Gpu, Specialized, B, Case, 1));
    R.Batch = static_cast<unsigned>(
        std::clamp(BatchMs * 1e3 / std::max(One, 1e-3), 1.0, 2000.0));
    std::vector<double> G, S;
    for (unsigned Rep = 0; Rep < Reps; ++Rep) {
      bool GenericFirst = Rep % 2 == 0;
      for (int K = 0; K < 2; ++K) {
        bool Spec = (K == 0) != GenericFirst;
        double Us = timeBatch(Queue, Gpu, Spec ? Specialized : Generic, B, Case,
                              R.Batch);
        (Spec ? S : G).push_back(Us);
      }
    }
    R.GenericUs = median(G);
    R.SpecializedUs = median(S);
  } catch (const Failure &F) {
    R.Error = F.What;
    // A failed launch may leave errors on the queue.
    offloadSyncQueue(Queue);
  }
  return R;
}

void printComparison(const char *Key, const Comparison &C) {
  std::printf("\"%s\": ", Key);
  if (!Check || !C.Ran) {
    std::printf("{\"check\": \"%s\"}", Check ? "not run" : "not checked");
    return;
  }
  std::printf("{\"check\": \"%s\", \"elements\": %zu, \"mismatches\": %zu, "
              "\"worst_diff_over_tolerance\": %.4g",
              C.Passed ? "pass" : "fail", C.Elements, C.Mismatches,
              std::isfinite(C.WorstRatio) ? C.WorstRatio : 1e308);
  if (!C.First.empty())
    std::printf(", \"first_mismatch\": %s", jsonString(C.First).c_str());
  std::printf("}");
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> Only;
  for (int I = 1; I < argc; ++I) {
    std::string Arg = argv[I];
    if (Arg.rfind("--kernel-dir=", 0) == 0)
      KernelDir = Arg.substr(13);
    else if (Arg.rfind("--reps=", 0) == 0)
      Reps = std::max(1, std::atoi(Arg.c_str() + 7));
    else if (Arg.rfind("--batch-ms=", 0) == 0)
      BatchMs = std::max(0.1, std::atof(Arg.c_str() + 11));
    else if (Arg == "--quick")
      Reps = 3, BatchMs = 5;
    else if (Arg == "--no-check")
      Check = false;
    else if (Arg.rfind("--only=", 0) == 0) {
      std::stringstream S(Arg.substr(7));
      for (std::string Name; std::getline(S, Name, ',');)
        Only.push_back(Name);
    } else {
      std::fprintf(stderr,
                   "usage: offload-gpu-kernels-bench [--kernel-dir=DIR] "
                   "[--reps=N] [--batch-ms=MS] [--quick] [--no-check] "
                   "[--only=a,b]\n");
      return 2;
    }
  }
  // Compiles are cold: no disk cache.
  setenv("OFFLOAD_CACHE_DIR", "", 1);
  unsetenv("OFFLOAD_JIT_ASYNC");
  if (offload_result_t R = offloadInit()) {
    std::fprintf(stderr, "offloadInit: %s\n", describe(R).c_str());
    return 1;
  }
  offload_device_handle_t Host = nullptr, Gpu = nullptr;
  if (offloadGetHostDevice(&Host) ||
      offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &Gpu)) {
    std::fprintf(stderr, "offload-gpu-kernels-bench: no CUDA device "
                         "(OFFLOAD_TRACE=1 says why)\n");
    return 1;
  }
  char Name[256] = "", Arch[64] = "";
  offloadGetDeviceInfo(Gpu, OFFLOAD_DEVICE_INFO_NAME, sizeof(Name), Name);
  offloadGetDeviceInfo(Gpu, OFFLOAD_DEVICE_INFO_ARCHITECTURE, sizeof(Arch),
                       Arch);
  offload_queue_handle_t Queue = nullptr;
  if (offload_result_t R = offloadCreateQueue(Gpu, &Queue)) {
    std::fprintf(stderr, "offloadCreateQueue: %s\n", describe(R).c_str());
    return 1;
  }

  std::vector<KernelResult> Results;
  for (std::unique_ptr<KernelCase> &Case : createKernelCases(Scale::Bench)) {
    if (!Only.empty() &&
        std::find(Only.begin(), Only.end(), Case->name()) == Only.end())
      continue;
    Results.push_back(runCase(Host, Gpu, Queue, *Case));
    const KernelResult &R = Results.back();
    if (!R.Error.empty()) {
      std::fprintf(stderr, "%-12s ERROR %s\n", R.Name.c_str(), R.Error.c_str());
      continue;
    }
    auto Verdict = [](const Comparison &C) -> std::string {
      if (!Check)
        return "not checked";
      if (C.Passed)
        return "match";
      return std::to_string(C.Mismatches) + " mismatches (" + C.First + ")";
    };
    std::fprintf(stderr,
                 "%-12s generic %10.1f us  specialized %10.1f us  speedup "
                 "%6.2fx  compile %7.1f ms  results: generic %s, "
                 "specialized %s\n",
                 R.Name.c_str(), R.GenericUs, R.SpecializedUs,
                 R.GenericUs / R.SpecializedUs, R.SpecializedCompileMs,
                 Verdict(R.Generic).c_str(), Verdict(R.Specialized).c_str());
  }

  double LogSum = 0;
  int Timed = 0, Failed = 0;
  for (const KernelResult &R : Results) {
    if (R.Error.empty() && R.GenericUs > 0 && R.SpecializedUs > 0) {
      LogSum += std::log(R.GenericUs / R.SpecializedUs);
      ++Timed;
    }
    Failed += !R.ok();
  }
  double Geomean = Timed ? std::exp(LogSum / Timed) : 0;

  std::printf("{\n  \"context\": {\"device\": %s, \"chip\": %s, "
              "\"cuda_library\": %s, \"reps\": %u, \"batch_ms\": %g, "
              "\"checked\": %s, \"kernel_time\": \"wall time per launch, "
              "batches on a queue, median (us)\"},\n  \"kernels\": [\n",
              jsonString(Name).c_str(), jsonString(Arch).c_str(),
              jsonString(std::getenv("OFFLOAD_CUDA_LIBRARY")
                             ? std::getenv("OFFLOAD_CUDA_LIBRARY")
                             : "libcuda.so.1")
                  .c_str(),
              Reps, BatchMs, Check ? "true" : "false");
  for (size_t I = 0; I < Results.size(); ++I) {
    const KernelResult &R = Results[I];
    std::printf("    {\"name\": %s, ", jsonString(R.Name).c_str());
    if (!R.Error.empty()) {
      std::printf("\"error\": %s}", jsonString(R.Error).c_str());
    } else {
      std::printf("\"generic_us\": %.3f, \"specialized_us\": %.3f, "
                  "\"speedup\": %.4f, \"launches_per_batch\": %u, "
                  "\"host_compile_ms\": %.2f, \"generic_compile_ms\": %.2f, "
                  "\"specialized_compile_ms\": %.2f, ",
                  R.GenericUs, R.SpecializedUs, R.GenericUs / R.SpecializedUs,
                  R.Batch, R.HostCompileMs, R.GenericCompileMs,
                  R.SpecializedCompileMs);
      printComparison("generic", R.Generic);
      std::printf(", ");
      printComparison("specialized", R.Specialized);
      std::printf("}");
    }
    std::printf("%s\n", I + 1 < Results.size() ? "," : "");
  }
  std::printf("  ],\n  \"geomean_speedup\": %.4f,\n  \"failed\": %d\n}\n",
              Geomean, Failed);
  std::fprintf(stderr,
               "geomean speedup (specialized over generic, %d "
               "kernels): %.2fx; %d kernel(s) failed\n",
               Timed, Geomean, Failed);
  offloadDestroyQueue(Queue);
  offloadShutDown();
  return Failed || Results.empty() ? 1 : 0;
}
