//===- offload-jit-bench.cpp - Benchmarks of run-time specialization ------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark suite of the JIT on the host device (see bench/README.md):
//
//   BM_<kernel>/generic, BM_<kernel>/specialized
//       one launch of a benchmark kernel (bench/kernels/*.mlir) per
//       iteration, same inputs: the generic kernel (what the JIT runs with
//       specialization off) and the specialization for the inputs' runtime
//       constants and block size. Both symbols are resolved once with
//       offloadJITGetSpecializedKernel and launched with offloadLaunchKernel,
//       so the JIT's lookup is not part of the kernel time.
//   BM_ColdCompile/axpy
//       the first launch of a small kernel with empty memory and disk caches
//       (OFFLOAD_CACHE_DIR is a temporary directory unless set): specialize,
//       lower, generate the host object, load it, launch.
//   BM_ColdCompile/<kernel>
//       the same for each benchmark kernel, without the launch.
//   BM_DiskCacheHit/axpy
//       the first launch with an empty memory cache and a warm disk cache.
//   BM_LaunchOverhead/jit_hit, /aot, /resolve_only, /difference
//       a 1 x 1 launch through offloadJITLaunchKernel (in-memory cache hit),
//       the same launch of the already specialized symbol through
//       offloadLaunchKernel (an ahead-of-time kernel), the JIT lookup alone
//       (offloadJITGetSpecializedKernel), and both launches interleaved in
//       one loop with the per-launch difference as a counter.
//
// After the run a summary (speedups, geometric mean, cold compile, hit
// overhead; medians when repetitions are aggregated) goes to stderr; the
// per-benchmark results go wherever --benchmark_out / --benchmark_format say.
// Every kernel's generic and specialized results are compared once before
// timing, and so are the native C++ versions of NativeBaselines.h
// (BM_<kernel>/native_generic, /native_specialized: one run per iteration,
// timed like the kernels); a mismatch is an error.
//
// Options (before the Google Benchmark ones): --kernel-dir=DIR (default: the
// source tree's bench/kernels, or $OFFLOAD_BENCH_KERNEL_DIR); --quick (one
// iteration of each cold-compile and disk-cache benchmark: with
// --benchmark_min_time small, a check that everything runs, for CI);
// --check (compare the results of every kernel's four versions, JIT generic
// and specialized, native generic and specialized, then exit without
// timing: ctest bench-check-jit).
//
//===----------------------------------------------------------------------===//

#include "BenchKernels.h"
#include "NativeBaselines.h"

#include "OffloadJIT/OffloadJIT.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#ifndef OFFLOAD_BENCH_KERNEL_DIR
#define OFFLOAD_BENCH_KERNEL_DIR "bench/kernels"
#endif

using namespace offload_bench;
using Clock = std::chrono::steady_clock;

/// CPU time of the calling thread, in nanoseconds: what a launch that runs
/// on the calling thread costs, without the time other processes take.
static double threadCpuNs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return T.tv_sec * 1e9 + T.tv_nsec;
}

namespace {

[[noreturn]] void fail(const std::string &What, offload_result_t R = nullptr) {
  std::fprintf(stderr, "offload-jit-bench: %s%s%s%s\n", What.c_str(),
               R ? ": " : "", R ? offloadErrcName(R->Code) : "",
               R ? (std::string(": ") + R->Details).c_str() : "");
  std::exit(1);
}

void check(offload_result_t R, const std::string &What) {
  if (R)
    fail(What, R);
}

offload_device_handle_t Device = nullptr;
std::string KernelDir = OFFLOAD_BENCH_KERNEL_DIR;
std::string CacheDir;
/// Whether kernel and launch times are the launching thread's CPU time.
bool KernelCpuTime = false;
/// --quick: one iteration of each cold-compile benchmark (a check that every
/// benchmark runs and every kernel's results agree, not a measurement).
bool Quick = false;
/// --check: compare every kernel's versions (verify()) and exit, timing
/// nothing.
bool CheckOnly = false;

/// JIT programs by file, created once.
offload_jit_program_handle_t program(const std::string &File) {
  static std::map<std::string, offload_jit_program_handle_t> Programs;
  auto It = Programs.find(File);
  if (It != Programs.end())
    return It->second;
  std::string Error;
  std::string Source = readKernelFile(KernelDir, File, Error);
  if (Source.empty())
    fail(Error + " (use --kernel-dir=DIR)");
  offload_jit_program_handle_t Program = nullptr;
  check(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                     &Program),
        "cannot create the JIT program of " + File);
  Programs[File] = Program;
  return Program;
}

offload_jit_kernel_handle_t jitKernel(const std::string &File,
                                      const std::string &Name) {
  offload_jit_kernel_handle_t Kernel = nullptr;
  check(offloadJITGetKernel(program(File), Name.c_str(), &Kernel),
        "no kernel " + Name + " in " + File);
  return Kernel;
}

/// The symbol the JIT launches for these arguments, specialized or generic.
offload_symbol_handle_t resolve(offload_jit_kernel_handle_t Kernel,
                                const ArgPack &Args,
                                const offload_kernel_launch_size_args_t &Sizes,
                                bool Specialize) {
  check(offloadJITSetEnabled(Specialize), "offloadJITSetEnabled");
  offload_symbol_handle_t Symbol = nullptr;
  offload_result_t R = offloadJITGetSpecializedKernel(
      Device, Kernel, Args.data(), Args.size(), &Sizes, &Symbol);
  check(offloadJITSetEnabled(true), "offloadJITSetEnabled");
  check(R, "offloadJITGetSpecializedKernel");
  return Symbol;
}

void launch(offload_symbol_handle_t Symbol, const KernelCase &Case) {
  check(offloadLaunchKernel(nullptr, Device, Symbol, Case.args().data(),
                            Case.args().size(), &Case.launchSizes()),
        std::string("launch of ") + Case.name());
}

/// Deletes every file of the persistent cache directory.
void clearDiskCache() {
  std::error_code EC;
  for (const auto &Entry : std::filesystem::directory_iterator(CacheDir, EC))
    std::filesystem::remove_all(Entry.path(), EC);
}

double compileMilliseconds() {
  offload_jit_stats_t S{};
  offloadJITGetStats(&S);
  return S.CompileMilliseconds;
}

//===----------------------------------------------------------------------===//
// Kernel time
//===----------------------------------------------------------------------===//

struct PreparedCase {
  std::unique_ptr<KernelCase> Case;
  offload_symbol_handle_t Generic = nullptr, Specialized = nullptr;
  offload_jit_kernel_handle_t Kernel = nullptr;
  /// The kernel in C++, generic and with the specialized values as
  /// compile-time constants (NativeBaselines.h).
  NativeKernel NativeGeneric = nullptr, NativeSpecialized = nullptr;
};
std::vector<PreparedCase> Cases;

/// Runs both JIT versions and both native versions once each. The JIT's
/// specialized results must equal its generic ones (exactly, unless the
/// output allows SpecializedMayDiffer); the native results must equal the
/// JIT's generic ones within the output's tolerance (the tolerance the unit
/// test allows against the C++ reference).
void verify(PreparedCase &P) {
  KernelCase &Case = *P.Case;
  auto Snapshot = [&] {
    std::vector<std::vector<double>> Values;
    for (const Output &O : Case.outputs())
      Values.push_back(O.values());
    return Values;
  };
  Case.reset();
  launch(P.Generic, Case);
  auto Generic = Snapshot();
  std::vector<Output> Outputs = Case.outputs();
  auto Compare = [&](const std::vector<std::vector<double>> &Other,
                     const char *What, bool Tolerant) {
    for (size_t O = 0; O < Outputs.size(); ++O)
      for (size_t I = 0; I < Generic[O].size(); ++I) {
        double G = Generic[O][I], S = Other[O][I];
        bool Same = G == S || (std::isnan(G) && std::isnan(S));
        if (!Same && (Tolerant || Outputs[O].SpecializedMayDiffer))
          Same = std::fabs(G - S) <=
                 std::max(Outputs[O].AbsTolerance,
                          Outputs[O].RelTolerance * std::fabs(G));
        if (!Same)
          fail(std::string(Case.name()) + ": generic and " + What +
               " differ at " + Outputs[O].Name + "[" + std::to_string(I) +
               "]: " + std::to_string(G) + " vs " + std::to_string(S));
      }
  };
  Case.reset();
  launch(P.Specialized, Case);
  Compare(Snapshot(), "specialized", false);
  Case.reset();
  P.NativeGeneric(Case.args().data());
  Compare(Snapshot(), "native generic", true);
  Case.reset();
  P.NativeSpecialized(Case.args().data());
  Compare(Snapshot(), "native specialized", true);
  Case.reset();
}

/// Looks up both symbols of \p P again: a cold-compile benchmark interleaved
/// before this one clears the JIT's memory cache, which destroys the
/// programs of the symbols resolved earlier (offloadJITClearMemoryCache).
/// A hit in the memory cache costs a lookup; after a clear, the compile or
/// disk load happens here, outside the timed loop.
void refresh(PreparedCase &P) {
  KernelCase &Case = *P.Case;
  P.Generic = resolve(P.Kernel, Case.args(), Case.launchSizes(), false);
  P.Specialized = resolve(P.Kernel, Case.args(), Case.launchSizes(), true);
}

void kernelTime(benchmark::State &State, PreparedCase *P, bool Specialized) {
  refresh(*P);
  offload_symbol_handle_t Symbol = Specialized ? P->Specialized : P->Generic;
  for (auto _ : State)
    launch(Symbol, *P->Case);
  State.SetItemsProcessed(State.iterations());
}

/// One run of the native C++ version per iteration, on the kernel's inputs.
void nativeTime(benchmark::State &State, PreparedCase *P, bool Specialized) {
  NativeKernel Fn = Specialized ? P->NativeSpecialized : P->NativeGeneric;
  const void *Args = P->Case->args().data();
  for (auto _ : State)
    Fn(Args);
  State.SetItemsProcessed(State.iterations());
}

//===----------------------------------------------------------------------===//
// Cold compile
//===----------------------------------------------------------------------===//

struct Axpy {
  std::vector<float> X, Y;
  ArgPack Args;
  offload_kernel_launch_size_args_t Sizes{};
  offload_jit_kernel_handle_t Kernel = nullptr;
  Axpy() : X(256, 1.0f), Y(256, 2.0f) {
    Args.memref(X.data(), {256})
        .memref(Y.data(), {256})
        .index(256)
        .scalar(3.0f);
    Sizes.Dimensions = 1;
    Sizes.NumGroups = {2, 1, 1};
    Sizes.GroupSize = {128, 1, 1};
    Kernel = jitKernel("micro.mlir", "axpy");
  }
  offload_result_t launch() {
    return offloadJITLaunchKernel(nullptr, Device, Kernel, Args.data(),
                                  Args.size(), &Sizes);
  }
};

void coldCompileAxpy(benchmark::State &State) {
  static Axpy A;
  double CompileMs = 0, CpuMs = 0;
  for (auto _ : State) {
    clearDiskCache();
    check(offloadJITClearMemoryCache(), "offloadJITClearMemoryCache");
    double Before = compileMilliseconds();
    double CpuStart = threadCpuNs();
    auto Start = Clock::now();
    check(A.launch(), "cold launch of axpy");
    auto End = Clock::now();
    CpuMs += (threadCpuNs() - CpuStart) * 1e-6;
    CompileMs += compileMilliseconds() - Before;
    State.SetIterationTime(std::chrono::duration<double>(End - Start).count());
  }
  State.counters["compile_ms"] =
      benchmark::Counter(CompileMs, benchmark::Counter::kAvgIterations);
  State.counters["cpu_ms"] =
      benchmark::Counter(CpuMs, benchmark::Counter::kAvgIterations);
}

void diskCacheHitAxpy(benchmark::State &State) {
  static Axpy A;
  check(A.launch(), "launch of axpy"); // fills the disk cache
  for (auto _ : State) {
    check(offloadJITClearMemoryCache(), "offloadJITClearMemoryCache");
    auto Start = Clock::now();
    check(A.launch(), "launch of axpy");
    auto End = Clock::now();
    State.SetIterationTime(std::chrono::duration<double>(End - Start).count());
  }
}

void coldCompileKernel(benchmark::State &State, PreparedCase *P) {
  double CompileMs = 0, CpuMs = 0;
  for (auto _ : State) {
    clearDiskCache();
    check(offloadJITClearMemoryCache(), "offloadJITClearMemoryCache");
    double Before = compileMilliseconds();
    double CpuStart = threadCpuNs();
    auto Start = Clock::now();
    resolve(P->Kernel, P->Case->args(), P->Case->launchSizes(), true);
    auto End = Clock::now();
    CpuMs += (threadCpuNs() - CpuStart) * 1e-6;
    CompileMs += compileMilliseconds() - Before;
    State.SetIterationTime(std::chrono::duration<double>(End - Start).count());
  }
  State.counters["compile_ms"] =
      benchmark::Counter(CompileMs, benchmark::Counter::kAvgIterations);
  State.counters["cpu_ms"] =
      benchmark::Counter(CpuMs, benchmark::Counter::kAvgIterations);
}

//===----------------------------------------------------------------------===//
// Launch overhead
//===----------------------------------------------------------------------===//

struct Touch {
  float X[1] = {0};
  ArgPack Args;
  offload_kernel_launch_size_args_t Sizes{};
  offload_jit_kernel_handle_t Kernel = nullptr;
  offload_symbol_handle_t Symbol = nullptr;
  Touch() {
    Args.memref(X, {1}).scalar(1.5f);
    Sizes.Dimensions = 1;
    Sizes.NumGroups = {1, 1, 1};
    Sizes.GroupSize = {1, 1, 1};
    Kernel = jitKernel("micro.mlir", "touch");
    Symbol = resolve(Kernel, Args, Sizes, true);
    jit(); // in the memory cache from now on
  }
  void jit() {
    check(offloadJITLaunchKernel(nullptr, Device, Kernel, Args.data(),
                                 Args.size(), &Sizes),
          "JIT launch of touch");
  }
  void aot() {
    check(offloadLaunchKernel(nullptr, Device, Symbol, Args.data(), Args.size(),
                              &Sizes),
          "launch of touch");
  }
};

/// The launch-overhead kernel, in the memory cache, and its symbol looked up
/// again (a cold-compile benchmark interleaved before may have emptied the
/// cache, destroying the program of the symbol resolved earlier).
Touch &touch() {
  static Touch T;
  T.Symbol = resolve(T.Kernel, T.Args, T.Sizes, true);
  T.jit();
  return T;
}

void launchJITHit(benchmark::State &State) {
  Touch &T = touch();
  for (auto _ : State)
    T.jit();
}

void launchAOT(benchmark::State &State) {
  Touch &T = touch();
  for (auto _ : State)
    T.aot();
}

void resolveOnly(benchmark::State &State) {
  Touch &T = touch();
  for (auto _ : State) {
    offload_symbol_handle_t Symbol = nullptr;
    check(offloadJITGetSpecializedKernel(Device, T.Kernel, T.Args.data(),
                                         T.Args.size(), &T.Sizes, &Symbol),
          "offloadJITGetSpecializedKernel");
    benchmark::DoNotOptimize(Symbol);
  }
}

/// Batches of both launches, alternating which goes first; the iteration
/// time is the JIT launch's, the counters the per-launch means. A 1 x 1
/// launch runs on the calling thread, so its thread CPU time is the launch's
/// cost without the time other processes take.
void launchDifference(benchmark::State &State) {
  Touch &T = touch();
  constexpr int Batch = 64;
  double JitNs = 0, AotNs = 0;
  bool JitFirst = true;
  for (auto _ : State) {
    auto TimeBatch = [&](bool Jit) {
      double Start = threadCpuNs();
      for (int I = 0; I < Batch; ++I)
        Jit ? T.jit() : T.aot();
      return (threadCpuNs() - Start) / Batch;
    };
    double J, A;
    if (JitFirst) {
      J = TimeBatch(true);
      A = TimeBatch(false);
    } else {
      A = TimeBatch(false);
      J = TimeBatch(true);
    }
    JitFirst = !JitFirst;
    JitNs += J;
    AotNs += A;
    State.SetIterationTime(J * 1e-9);
  }
  State.counters["jit_ns"] =
      benchmark::Counter(JitNs, benchmark::Counter::kAvgIterations);
  State.counters["aot_ns"] =
      benchmark::Counter(AotNs, benchmark::Counter::kAvgIterations);
  State.counters["overhead_ns"] =
      benchmark::Counter(JitNs - AotNs, benchmark::Counter::kAvgIterations);
}

//===----------------------------------------------------------------------===//
// Summary
//===----------------------------------------------------------------------===//

/// Passes everything to the reporter of --benchmark_format and collects
/// (median when aggregated, else mean) real times and counters.
class SummaryReporter : public benchmark::BenchmarkReporter {
public:
  explicit SummaryReporter(std::unique_ptr<BenchmarkReporter> Inner)
      : Inner(std::move(Inner)) {}
  bool ReportContext(const Context &C) override {
    Inner->SetOutputStream(&GetOutputStream());
    Inner->SetErrorStream(&GetErrorStream());
    return Inner->ReportContext(C);
  }
  void Finalize() override { Inner->Finalize(); }
  void ReportRuns(const std::vector<Run> &Runs) override {
    Inner->ReportRuns(Runs);
    for (const Run &R : Runs) {
      std::string Name = R.run_name.function_name;
      bool Aggregate = R.run_type == Run::RT_Aggregate;
      if (Aggregate && R.aggregate_name != "median")
        continue;
      // A median replaces the single runs.
      Entry &E = Entries[Name];
      if (E.FromMedian && !Aggregate)
        continue;
      if (Aggregate && !E.FromMedian) {
        E = Entry();
        E.FromMedian = true;
      }
      if (!Aggregate) {
        E.SumRealNs += R.GetAdjustedRealTime() * toNs(R.time_unit);
        E.SumCpuNs += R.GetAdjustedCPUTime() * toNs(R.time_unit);
        ++E.Count;
        for (const auto &[Key, C] : R.counters)
          E.Counters[Key] += C.value;
      } else {
        E.SumRealNs = R.GetAdjustedRealTime() * toNs(R.time_unit);
        E.SumCpuNs = R.GetAdjustedCPUTime() * toNs(R.time_unit);
        E.Count = 1;
        for (const auto &[Key, C] : R.counters)
          E.Counters[Key] = C.value;
      }
    }
  }
  void printSummary() const {
    // ours: specialized/generic JIT kernel; native: the same for the C++
    // versions; captured: ln(ours) / ln(native), the share of the native
    // headroom (log scale) the JIT's specialization reaches.
    std::fprintf(stderr, "\n%-12s %12s %12s %8s %12s %12s %8s %9s\n", "kernel",
                 "generic ns", "special. ns", "ours", "native gen",
                 "native spec", "native", "captured");
    double LogSum = 0, NativeLogSum = 0;
    int N = 0, NativeN = 0;
    for (const PreparedCase &P : Cases) {
      std::string Base = std::string("BM_") + P.Case->name();
      const Entry *G = find(Base + "/generic");
      const Entry *S = find(Base + "/specialized");
      if (!G || !S)
        continue;
      double Speedup = G->ns() / S->ns();
      LogSum += std::log(Speedup);
      ++N;
      std::fprintf(stderr, "%-12s %12.0f %12.0f %7.2fx", P.Case->name(),
                   G->ns(), S->ns(), Speedup);
      const Entry *NG = find(Base + "/native_generic");
      const Entry *NS = find(Base + "/native_specialized");
      if (NG && NS) {
        double Native = NG->ns() / NS->ns();
        NativeLogSum += std::log(Native);
        ++NativeN;
        std::fprintf(stderr, " %12.0f %12.0f %7.2fx", NG->ns(), NS->ns(),
                     Native);
        // Below 1.05x there is no headroom to share.
        if (std::fabs(std::log(Native)) >= std::log(1.05))
          std::fprintf(stderr, " %8.0f%%",
                       100 * std::log(Speedup) / std::log(Native));
      }
      std::fprintf(stderr, "\n");
    }
    if (N) {
      std::fprintf(stderr, "%-12s %12s %12s %7.2fx", "geomean", "", "",
                   std::exp(LogSum / N));
      if (NativeN)
        std::fprintf(stderr, " %12s %12s %7.2fx", "", "",
                     std::exp(NativeLogSum / NativeN));
      std::fprintf(stderr, "\n");
    }
    if (const Entry *C = find("BM_ColdCompile/axpy"))
      std::fprintf(stderr,
                   "cold specialization of axpy (first launch, wall): %.2f "
                   "ms (compile %.2f ms, thread CPU %.2f ms)\n",
                   C->realNs() / 1e6, C->counter("compile_ms"),
                   C->counter("cpu_ms"));
    if (const Entry *D = find("BM_LaunchOverhead/difference"))
      std::fprintf(stderr,
                   "cache-hit overhead per launch: %.0f ns (JIT launch %.0f "
                   "ns, AOT launch %.0f ns)\n",
                   D->counter("overhead_ns"), D->counter("jit_ns"),
                   D->counter("aot_ns"));
    if (const Entry *R = find("BM_LaunchOverhead/resolve_only"))
      std::fprintf(stderr,
                   "JIT lookup alone (cache hit, thread CPU): %.0f ns\n",
                   R->cpuNs());
  }

private:
  struct Entry {
    double SumRealNs = 0, SumCpuNs = 0;
    int Count = 0;
    bool FromMedian = false;
    std::map<std::string, double> Counters;
    /// Manual time (cold compiles) is real time.
    double realNs() const { return Count ? SumRealNs / Count : 0; }
    double cpuNs() const { return Count ? SumCpuNs / Count : 0; }
    /// Kernel and launch time: CPU time of the launching thread when the
    /// host device runs kernels on it (OFFLOAD_HOST_THREADS=1), else real.
    double ns() const {
      return Count ? (KernelCpuTime ? SumCpuNs : SumRealNs) / Count : 0;
    }
    double counter(const std::string &Key) const {
      auto It = Counters.find(Key);
      return It == Counters.end() || !Count ? 0 : It->second / Count;
    }
  };
  static double toNs(benchmark::TimeUnit Unit) {
    switch (Unit) {
    case benchmark::kNanosecond:
      return 1;
    case benchmark::kMicrosecond:
      return 1e3;
    case benchmark::kMillisecond:
      return 1e6;
    case benchmark::kSecond:
      return 1e9;
    }
    return 1;
  }
  const Entry *find(const std::string &Name) const {
    auto It = Entries.find(Name);
    return It == Entries.end() ? nullptr : &It->second;
  }
  std::unique_ptr<BenchmarkReporter> Inner;
  std::map<std::string, Entry> Entries;
};

} // namespace

int main(int argc, char **argv) {
  // Our options first; the rest goes to Google Benchmark.
  std::vector<char *> Rest{argv[0]};
  if (const char *Dir = std::getenv("OFFLOAD_BENCH_KERNEL_DIR"))
    KernelDir = Dir;
  std::string Format = "console";
  for (int I = 1; I < argc; ++I) {
    if (std::strcmp(argv[I], "--quick") == 0) {
      Quick = true;
      continue;
    }
    if (std::strcmp(argv[I], "--check") == 0) {
      CheckOnly = true;
      continue;
    }
    if (std::strncmp(argv[I], "--kernel-dir=", 13) == 0) {
      KernelDir = argv[I] + 13;
      continue;
    }
    if (std::strncmp(argv[I], "--benchmark_format=", 19) == 0)
      Format = argv[I] + 19;
    Rest.push_back(argv[I]);
  }
  int RestCount = static_cast<int>(Rest.size());

  // A private persistent cache, so that cold compiles are cold.
  bool OwnCache = false;
  if (const char *Dir = std::getenv("OFFLOAD_CACHE_DIR"); Dir && *Dir) {
    CacheDir = Dir;
  } else {
    std::string Template =
        (std::filesystem::temp_directory_path() / "offload-jit-bench-XXXXXX")
            .string();
    if (!mkdtemp(Template.data()))
      fail("cannot create a temporary cache directory");
    CacheDir = Template;
    setenv("OFFLOAD_CACHE_DIR", CacheDir.c_str(), 1);
    OwnCache = true;
  }

  // With one host thread, kernels run on the launching thread: its CPU time
  // is the kernel's time, undisturbed by other processes on a shared
  // machine. With a thread pool, real time.
  if (const char *Threads = std::getenv("OFFLOAD_HOST_THREADS"))
    KernelCpuTime = std::string(Threads) == "1";
  benchmark::AddCustomContext("kernel_time",
                              KernelCpuTime ? "cpu_time" : "real_time");
  benchmark::AddCustomContext("offload_cache_dir", CacheDir);

  check(offloadInit(), "offloadInit");
  check(offloadGetHostDevice(&Device), "offloadGetHostDevice");

  for (std::unique_ptr<KernelCase> &Case : createKernelCases(Scale::Bench)) {
    PreparedCase P;
    P.Kernel = jitKernel(Case->file(), Case->kernel());
    P.Case = std::move(Case);
    std::string Error;
    const void *Args = P.Case->args().data();
    P.NativeGeneric =
        getNativeKernel(P.Case->name(), NativeVersion::Generic, Args, Error);
    P.NativeSpecialized = getNativeKernel(
        P.Case->name(), NativeVersion::Specialized, Args, Error);
    if (!P.NativeGeneric || !P.NativeSpecialized)
      fail(Error);
    refresh(P);
    Cases.push_back(std::move(P));
  }
  for (PreparedCase &P : Cases) {
    verify(P);
    if (CheckOnly)
      std::printf("%-12s JIT generic = JIT specialized = native generic = "
                  "native specialized\n",
                  P.Case->name());
  }
  if (CheckOnly) {
    check(offloadShutDown(), "offloadShutDown");
    if (OwnCache) {
      std::error_code EC;
      std::filesystem::remove_all(CacheDir, EC);
    }
    return 0;
  }

  for (PreparedCase &P : Cases) {
    std::string Base = std::string("BM_") + P.Case->name();
    for (bool Specialized : {false, true}) {
      auto *B = benchmark::RegisterBenchmark(
          (Base + (Specialized ? "/specialized" : "/generic")).c_str(),
          kernelTime, &P, Specialized);
      B->Unit(benchmark::kMicrosecond);
      if (!KernelCpuTime)
        B->UseRealTime();
    }
    // The native versions run on this thread: timed like the kernels.
    for (bool Specialized : {false, true}) {
      auto *B = benchmark::RegisterBenchmark(
          (Base + (Specialized ? "/native_specialized" : "/native_generic"))
              .c_str(),
          nativeTime, &P, Specialized);
      B->Unit(benchmark::kMicrosecond);
      if (!KernelCpuTime)
        B->UseRealTime();
    }
  }
  benchmark::RegisterBenchmark("BM_ColdCompile/axpy", coldCompileAxpy)
      ->UseManualTime()
      ->Iterations(Quick ? 1 : 10)
      ->Unit(benchmark::kMillisecond);
  for (PreparedCase &P : Cases)
    benchmark::RegisterBenchmark(
        (std::string("BM_ColdCompile/") + P.Case->name()).c_str(),
        coldCompileKernel, &P)
        ->UseManualTime()
        ->Iterations(Quick ? 1 : 3)
        ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_DiskCacheHit/axpy", diskCacheHitAxpy)
      ->UseManualTime()
      ->Iterations(Quick ? 1 : 10)
      ->Unit(benchmark::kMillisecond);
  // 1 x 1 launches run on the calling thread: CPU time is their cost.
  benchmark::RegisterBenchmark("BM_LaunchOverhead/jit_hit", launchJITHit);
  benchmark::RegisterBenchmark("BM_LaunchOverhead/aot", launchAOT);
  benchmark::RegisterBenchmark("BM_LaunchOverhead/resolve_only", resolveOnly);
  benchmark::RegisterBenchmark("BM_LaunchOverhead/difference", launchDifference)
      ->UseManualTime();

  benchmark::Initialize(&RestCount, Rest.data());
  if (benchmark::ReportUnrecognizedArguments(RestCount, Rest.data()))
    return 1;
  std::unique_ptr<benchmark::BenchmarkReporter> Display;
  if (Format == "json")
    Display = std::make_unique<benchmark::JSONReporter>();
  else
    Display = std::make_unique<benchmark::ConsoleReporter>();
  SummaryReporter Reporter(std::move(Display));
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  Reporter.printSummary();
  benchmark::Shutdown();

  check(offloadShutDown(), "offloadShutDown");
  if (OwnCache) {
    std::error_code EC;
    std::filesystem::remove_all(CacheDir, EC);
  }
  return 0;
}
