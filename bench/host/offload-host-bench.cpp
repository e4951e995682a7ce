//===- offload-host-bench.cpp - Host kernels against native C++ -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark suite of gpu-dialect kernels on the host CPU device
// against native C++ (see bench/README.md). For each kernel of
// bench/host/kernels:
//
//   host/<kernel>/ours/threads:<T>
//       one launch per iteration through the JIT, as a C or Python user
//       launches (offloadCreateProgramFromMLIR, offloadJITGetKernel,
//       offloadJITLaunchKernel on the host device, synchronous);
//   host/<kernel>/native/threads:<T>
//       the same algorithm in C++ (NativeKernels.cpp: OpenMP, -O3
//       -march=native).
//
// T is 1 (--host_threads=1: OFFLOAD_HOST_THREADS=1 before the runtime starts,
// OpenMP on one thread) or the number of processors (--host_threads=all, the
// default: the host device's default thread pool, OpenMP on every
// processor). Times are wall-clock (real) time. Before timing, every kernel
// runs once, ours and native, and the results must be equal (exactly: the
// inputs are small integers); any failure or difference stops the binary
// with a message and exit status 1.
//
// Options (before the Google Benchmark ones):
//   --host_threads=1|all|N         the configuration (default all)
//   --host_bench_scale=S           work of every kernel times S (default 1,
//                                  or $OFFLOAD_HOST_BENCH_SCALE)
//   --host_bench_cooperative_scale=S
//                                  work of the cooperative kernels (4-9)
//                                  times S (default: the scale above)
//   --host_bench_kernels=a,b,...   only these kernels (default: all ten)
//   --host_bench_forms             instead of the above, the forms family:
//                                  every equivalent form of the kernels
//                                  that have them (HostKernelCase::forms,
//                                  bench/host/kernels/forms) as
//                                  BM_Form/<kernel>/<form>/ours/threads:<T>
//                                  and the kernel's baseline once as
//                                  BM_Form/<kernel>/native/threads:<T>;
//                                  every form is checked against native
//                                  before timing, like the kernels
//   --kernel-dir=DIR               the kernels' MLIR (default: the source
//                                  tree's bench/host/kernels, or
//                                  $OFFLOAD_HOST_BENCH_KERNEL_DIR)
//
//===----------------------------------------------------------------------===//

#include "HostKernels.h"
#include "NativeKernels.h"

#include "OffloadJIT/OffloadJIT.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifndef OFFLOAD_HOST_BENCH_KERNEL_DIR
#define OFFLOAD_HOST_BENCH_KERNEL_DIR "bench/host/kernels"
#endif

using namespace offload_bench::host;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void fail(const std::string &What, offload_result_t R = nullptr) {
  std::fprintf(stderr, "offload-host-bench: %s%s%s%s\n", What.c_str(),
               R ? ": " : "", R ? offloadErrcName(R->Code) : "",
               R ? (std::string(": ") + R->Details).c_str() : "");
  std::exit(1);
}

void check(offload_result_t R, const std::string &What) {
  if (R)
    fail(What, R);
}

offload_device_handle_t Device = nullptr;
std::string KernelDir = OFFLOAD_HOST_BENCH_KERNEL_DIR;

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    fail("cannot read " + Path + " (use --kernel-dir=DIR)");
  std::stringstream Contents;
  Contents << In.rdbuf();
  return Contents.str();
}

/// JIT programs by file, created once.
std::map<std::string, offload_jit_program_handle_t> Programs;

offload_jit_kernel_handle_t jitKernel(const KernelForm &F) {
  offload_jit_program_handle_t &Program = Programs[F.File];
  if (!Program) {
    std::string Source = F.specialize(readFile(KernelDir + "/" + F.File));
    check(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                       &Program),
          "cannot create the JIT program of " + F.File);
  }
  offload_jit_kernel_handle_t Kernel = nullptr;
  check(offloadJITGetKernel(Program, F.Kernel.c_str(), &Kernel),
        "no kernel " + F.Kernel + " in " + F.File);
  return Kernel;
}

struct PreparedCase {
  std::unique_ptr<HostKernelCase> Case;
  offload_jit_kernel_handle_t Kernel = nullptr;
  /// In --host_bench_forms: the form this entry launches (Case is shared by
  /// the entries of its forms and set to the form before each use).
  HostKernelCase *Shared = nullptr;
  KernelForm Form;
  HostKernelCase &the() { return Shared ? *Shared : *Case; }
  /// Seconds of the verification runs; a timed run starts with an untimed
  /// warm-up call when it takes under a second.
  double OursSeconds = 0, NativeSeconds = 0;
};

void launchOurs(PreparedCase &P) {
  HostKernelCase &Case = P.the();
  Case.beforeLaunch();
  // The message is built only on failure: nothing but the launch is timed.
  if (offload_result_t R =
          offloadJITLaunchKernel(nullptr, Device, P.Kernel, Case.args().data(),
                                 Case.args().size(), &Case.launchSizes()))
    fail(std::string("launch of ") + Case.name() + " (" + Case.problem() + ")",
         R);
}

/// Compiles ours, runs it and native once and requires equal results.
void verify(PreparedCase &P) {
  HostKernelCase &Case = P.the();
  if (P.Shared)
    Case.useForm(P.Form);
  Case.reset();
  auto Start = Clock::now();
  offload_symbol_handle_t Symbol = nullptr;
  check(offloadJITGetSpecializedKernel(Device, P.Kernel, Case.args().data(),
                                       Case.args().size(), &Case.launchSizes(),
                                       &Symbol),
        std::string("compile of ") + Case.name() +
            (P.Shared ? " form " + P.Form.Name : ""));
  auto Mid = Clock::now();
  launchOurs(P);
  auto End = Clock::now();
  P.OursSeconds = std::chrono::duration<double>(End - Mid).count();
  std::fprintf(
      stderr, "offload-host-bench: %-28s %-44s compile %.3f s, launch %.3f s",
      P.Shared ? (std::string(Case.name()) + "/" + P.Form.Name).c_str()
               : Case.name(),
      Case.problem().c_str(),
      std::chrono::duration<double>(Mid - Start).count(), P.OursSeconds);
  Start = Clock::now();
  Case.runNative();
  P.NativeSeconds = std::chrono::duration<double>(Clock::now() - Start).count();
  std::string Diff = compareOutputs(Case, Producer::Ours, Producer::Native);
  if (!Diff.empty())
    fail(P.Shared ? "\nresults of form " + P.Form.Name + " (" + P.Form.File +
                        ") and the native baseline differ: " + Diff
                  : "\nresults of the kernel and the native baseline differ: " +
                        Diff);
  std::fprintf(stderr, ", native %.4f s: equal\n", P.NativeSeconds);
  Case.reset();
}

void oursTime(benchmark::State &State, PreparedCase *P) {
  if (P->Shared)
    P->Shared->useForm(P->Form);
  if (P->OursSeconds < 1)
    launchOurs(*P);
  for (auto _ : State)
    launchOurs(*P);
  State.SetItemsProcessed(State.iterations() * P->the().items());
  State.SetLabel(P->the().problem());
}

void nativeTime(benchmark::State &State, PreparedCase *P) {
  if (P->NativeSeconds < 1)
    P->Case->runNative();
  for (auto _ : State)
    P->Case->runNative();
  State.SetItemsProcessed(State.iterations() * P->Case->items());
  State.SetLabel(P->Case->problem());
  // OpenMP's workers would spin for a while, competing with the next
  // benchmark (the host device's pool).
  nativeRelease();
}

bool startsWith(const char *Arg, const char *Prefix, const char *&Value) {
  size_t N = std::strlen(Prefix);
  if (std::strncmp(Arg, Prefix, N) != 0)
    return false;
  Value = Arg + N;
  return true;
}

double parseScale(const char *Text, const char *What) {
  char *End = nullptr;
  double V = std::strtod(Text, &End);
  if (!*Text || *End || !(V > 0))
    fail(std::string("invalid ") + What + " '" + Text +
         "' (a positive number)");
  return V;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> Rest{argv[0]};
  if (const char *Dir = std::getenv("OFFLOAD_HOST_BENCH_KERNEL_DIR"))
    KernelDir = Dir;
  BenchScale Scale;
  if (const char *S = std::getenv("OFFLOAD_HOST_BENCH_SCALE"); S && *S)
    Scale.BarrierFree = Scale.Cooperative =
        parseScale(S, "OFFLOAD_HOST_BENCH_SCALE");
  const char *CooperativeScale = nullptr;
  std::string Threads = "all";
  std::set<std::string> Only;
  bool Forms = false;
  for (int I = 1; I < argc; ++I) {
    const char *V;
    if (std::strcmp(argv[I], "--host_bench_forms") == 0) {
      Forms = true;
    } else if (startsWith(argv[I], "--kernel-dir=", V)) {
      KernelDir = V;
    } else if (startsWith(argv[I], "--host_threads=", V)) {
      Threads = V;
    } else if (startsWith(argv[I], "--host_bench_scale=", V)) {
      Scale.BarrierFree = Scale.Cooperative =
          parseScale(V, "--host_bench_scale");
    } else if (startsWith(argv[I], "--host_bench_cooperative_scale=", V)) {
      CooperativeScale = V;
    } else if (startsWith(argv[I], "--host_bench_kernels=", V)) {
      std::stringstream List(V);
      for (std::string Name; std::getline(List, Name, ',');)
        if (!Name.empty())
          Only.insert(Name);
    } else {
      Rest.push_back(argv[I]);
    }
  }
  if (CooperativeScale)
    Scale.Cooperative =
        parseScale(CooperativeScale, "--host_bench_cooperative_scale");

  // The configuration, before the runtime and OpenMP start.
  int NumThreads = 0;
  if (Threads != "all") {
    char *End = nullptr;
    long N = std::strtol(Threads.c_str(), &End, 10);
    if (Threads.empty() || *End || N < 1 || N > 1024)
      fail("invalid --host_threads=" + Threads + " (1..1024 or all)");
    NumThreads = int(N);
  }
  if (NumThreads > 0)
    setenv("OFFLOAD_HOST_THREADS", std::to_string(NumThreads).c_str(), 1);
  else
    unsetenv("OFFLOAD_HOST_THREADS"); // the default pool: every processor
  setNativeThreads(NumThreads);
  int Label = NumThreads > 0 ? NumThreads : nativeProcessors();
  std::string Suffix = "/threads:" + std::to_string(Label);

  // A private JIT cache: kernels compile with the compiler being measured,
  // not from entries of an earlier build.
  bool OwnCache = false;
  std::string CacheDir;
  if (const char *Dir = std::getenv("OFFLOAD_CACHE_DIR"); Dir && *Dir) {
    CacheDir = Dir;
  } else {
    std::string Template =
        (std::filesystem::temp_directory_path() / "offload-host-bench-XXXXXX")
            .string();
    if (!mkdtemp(Template.data()))
      fail("cannot create a temporary cache directory");
    CacheDir = Template;
    setenv("OFFLOAD_CACHE_DIR", CacheDir.c_str(), 1);
    OwnCache = true;
  }

  check(offloadInit(), "offloadInit");
  check(offloadGetHostDevice(&Device), "offloadGetHostDevice");

  // Forms: one entry owns the case and times its native baseline, one
  // entry per form shares it (std::deque: stable addresses).
  std::deque<PreparedCase> Cases;
  std::set<std::string> Known;
  for (std::unique_ptr<HostKernelCase> &Case : createBenchCases(Scale)) {
    Known.insert(Case->name());
    if (!Only.empty() && !Only.count(Case->name()))
      continue;
    std::vector<KernelForm> CaseForms;
    if (Forms) {
      CaseForms = Case->forms();
      if (CaseForms.empty())
        continue;
    }
    PreparedCase P;
    P.Kernel = jitKernel(Case->baseForm());
    P.Case = std::move(Case);
    Cases.push_back(std::move(P));
    HostKernelCase *Owner = Cases.back().Case.get();
    for (KernelForm &F : CaseForms) {
      PreparedCase FP;
      FP.Shared = Owner;
      FP.Kernel = jitKernel(F);
      FP.Form = std::move(F);
      Cases.push_back(std::move(FP));
    }
  }
  if (Forms && Cases.empty())
    fail("no kernel with forms selected (--host_bench_kernels)");
  for (const std::string &Name : Only)
    if (!Known.count(Name))
      fail("no kernel " + Name + " (--host_bench_kernels)");
  for (PreparedCase &P : Cases)
    if (!Forms || P.Shared)
      verify(P);
  nativeRelease();

  char Buffer[64];
  std::snprintf(Buffer, sizeof(Buffer), "%g", Scale.BarrierFree);
  benchmark::AddCustomContext("host_bench_scale", Buffer);
  std::snprintf(Buffer, sizeof(Buffer), "%g", Scale.Cooperative);
  benchmark::AddCustomContext("host_bench_cooperative_scale", Buffer);
  benchmark::AddCustomContext("host_threads", Threads);
  benchmark::AddCustomContext("threads_label", std::to_string(Label));
  benchmark::AddCustomContext("native_threads",
                              std::to_string(nativeThreads()));
  benchmark::AddCustomContext("native_openmp",
                              nativeHasOpenMP() ? "true" : "false");
  benchmark::AddCustomContext("offload_cache_dir", CacheDir);
  benchmark::AddCustomContext("host_bench_forms", Forms ? "true" : "false");
  for (PreparedCase &P : Cases) {
    if (Forms) {
      std::string Base = std::string("BM_Form/") + P.the().name();
      if (P.Shared) {
        benchmark::AddCustomContext("file:" + std::string(P.the().name()) +
                                        "/" + P.Form.Name,
                                    P.Form.File);
        benchmark::RegisterBenchmark(
            (Base + "/" + P.Form.Name + "/ours" + Suffix).c_str(), oursTime, &P)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
        continue;
      }
      benchmark::AddCustomContext("problem:" + std::string(P.Case->name()),
                                  P.Case->problem());
      benchmark::RegisterBenchmark((Base + "/native" + Suffix).c_str(),
                                   nativeTime, &P)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      continue;
    }
    std::string Base = std::string("host/") + P.Case->name();
    benchmark::AddCustomContext("problem:" + std::string(P.Case->name()),
                                P.Case->problem());
    benchmark::AddCustomContext("group:" + std::string(P.Case->name()),
                                P.Case->group());
    benchmark::RegisterBenchmark((Base + "/ours" + Suffix).c_str(), oursTime,
                                 &P)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((Base + "/native" + Suffix).c_str(),
                                 nativeTime, &P)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }

  int RestCount = static_cast<int>(Rest.size());
  benchmark::Initialize(&RestCount, Rest.data());
  if (benchmark::ReportUnrecognizedArguments(RestCount, Rest.data()))
    return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  for (auto &[File, Program] : Programs)
    check(offloadJITDestroyProgram(Program), "offloadJITDestroyProgram");
  // The buffers (OFFLOAD_HOST_BENCH_MEMORY=managed: allocations of the
  // runtime) before the runtime: leakcheck reports none.
  Cases.clear();
  check(offloadShutDown(), "offloadShutDown");
  if (OwnCache) {
    std::error_code EC;
    std::filesystem::remove_all(CacheDir, EC);
  }
  return 0;
}
