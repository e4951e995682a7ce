//===- offload-jit-auto-bench.cpp - Automatic against annotated specialization
//===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark suite of automatic specialization (OFFLOAD_JIT_AUTO) on
// the host device (bench/README.md). For each kernel of bench/kernels, with
// the same inputs, one launch per iteration of:
//
//   BM_<kernel>/generic      the generic kernel (specialization off)
//   BM_<kernel>/annotated    the JIT's specialization of the kernel as
//                            written: its offload.runtime_constant values and
//                            the block size (offload-jit-bench's
//                            "specialized")
//   BM_<kernel>/unannotated  the kernel with every offload.runtime_constant
//                            removed (this binary strips them from the text),
//                            automatic specialization off: the block size only
//   BM_<kernel>/auto         the same unannotated kernel with automatic
//                            specialization on, after enough launches with
//                            these inputs for its scalars to be stable
//   BM_LaunchPath/auto_off, /auto_on
//                            a 1 x 1 JIT launch (in-memory hit) of a kernel
//                            with an unmarked scalar, the mode off and on:
//                            what watching costs per launch
//
// With OFFLOAD_JIT_MEASURE=1 the annotated and automatic specializations
// are first launched through the JIT until their measurement against the
// generic kernel is done, and their symbols are then the versions the JIT
// keeps (NeverSlower.h).
//
// Each symbol is resolved with offloadJITGetSpecializedKernel and launched
// with offloadLaunchKernel, so no lookup is timed. Before timing, every
// version's results are compared with the generic kernel's (exactly, or
// within the case's tolerance where specialization may round differently);
// a mismatch is an error. After the run a table goes to stderr: per kernel
// the three speedups over generic (medians over repetitions), their
// geometric means, and auto's share of the annotated geomean.
//
// Options (before the Google Benchmark ones): --kernel-dir=DIR (default: the
// source tree's bench/kernels, or $OFFLOAD_BENCH_KERNEL_DIR).
//
//===----------------------------------------------------------------------===//

#include "BenchKernels.h"

#include "OffloadJIT/OffloadJIT.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#ifndef OFFLOAD_BENCH_KERNEL_DIR
#define OFFLOAD_BENCH_KERNEL_DIR "bench/kernels"
#endif

using namespace offload_bench;

namespace {

[[noreturn]] void fail(const std::string &What, offload_result_t R = nullptr) {
  std::fprintf(stderr, "offload-jit-auto-bench: %s%s%s%s\n", What.c_str(),
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
bool KernelCpuTime = false;

/// \p Source without its offload.runtime_constant ops: each line
/// `%r = offload.runtime_constant %v [contents] : T` is deleted and every
/// other use of %r becomes %v.
std::string stripRuntimeConstants(const std::string &Source, int &Removed) {
  auto IsIdChar = [](char C) {
    return std::isalnum(static_cast<unsigned char>(C)) || C == '_' ||
           C == '$' || C == '.' || C == '-';
  };
  std::map<std::string, std::string> Renamed;
  std::string Kept;
  size_t Start = 0;
  Removed = 0;
  while (Start < Source.size()) {
    size_t End = Source.find('\n', Start);
    if (End == std::string::npos)
      End = Source.size();
    std::string Line = Source.substr(Start, End - Start);
    Start = End + 1;
    size_t Op = Line.find("= offload.runtime_constant %");
    size_t Def = Line.find('%');
    if (Op != std::string::npos && Def < Op) {
      std::string Result = Line.substr(Def, Line.find(' ', Def) - Def);
      size_t Operand = Op + std::strlen("= offload.runtime_constant ");
      size_t OperandEnd = Operand + 1;
      while (OperandEnd < Line.size() && IsIdChar(Line[OperandEnd]))
        ++OperandEnd;
      Renamed[Result] = Line.substr(Operand, OperandEnd - Operand);
      ++Removed;
      continue;
    }
    Kept += Line;
    Kept += '\n';
  }
  std::string Out;
  for (size_t I = 0; I < Kept.size();) {
    if (Kept[I] != '%') {
      Out += Kept[I++];
      continue;
    }
    size_t J = I + 1;
    while (J < Kept.size() && IsIdChar(Kept[J]))
      ++J;
    std::string Id = Kept.substr(I, J - I);
    auto It = Renamed.find(Id);
    Out += It == Renamed.end() ? Id : It->second;
    I = J;
  }
  return Out;
}

/// JIT programs by file, annotated (as written) or stripped.
offload_jit_program_handle_t program(const std::string &File, bool Strip) {
  static std::map<std::pair<std::string, bool>, offload_jit_program_handle_t>
      Programs;
  auto It = Programs.find({File, Strip});
  if (It != Programs.end())
    return It->second;
  std::string Error;
  std::string Source = readKernelFile(KernelDir, File, Error);
  if (Source.empty())
    fail(Error + " (use --kernel-dir=DIR)");
  if (Strip) {
    int Removed = 0;
    Source = stripRuntimeConstants(Source, Removed);
    if (Removed == 0 ||
        Source.find("offload.runtime_constant") != std::string::npos)
      fail("cannot strip the runtime constants of " + File);
  }
  offload_jit_program_handle_t Program = nullptr;
  check(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                     &Program),
        "cannot create the JIT program of " + File +
            (Strip ? " (runtime constants stripped)" : ""));
  Programs[{File, Strip}] = Program;
  return Program;
}

offload_jit_kernel_handle_t jitKernel(const std::string &File,
                                      const std::string &Name, bool Strip) {
  offload_jit_kernel_handle_t Kernel = nullptr;
  check(offloadJITGetKernel(program(File, Strip), Name.c_str(), &Kernel),
        "no kernel " + Name + " in " + File);
  return Kernel;
}

offload_jit_stats_t stats() {
  offload_jit_stats_t S{};
  check(offloadJITGetStats(&S), "offloadJITGetStats");
  return S;
}

enum Version { Generic, Annotated, Unannotated, Auto, NumVersions };
const char *const VersionNames[] = {"generic", "annotated", "unannotated",
                                    "auto"};

struct PreparedCase {
  std::unique_ptr<KernelCase> Case;
  offload_jit_kernel_handle_t Marked = nullptr, Stripped = nullptr;
  offload_symbol_handle_t Symbols[NumVersions] = {};
  /// Launches until the automatic variant ran (0: none).
  int AutoAfter = 0;
};
std::vector<PreparedCase> Cases;

/// The symbol the JIT launches for these inputs with specialization
/// \p Specialize and automatic specialization \p AutoOn.
offload_symbol_handle_t resolve(offload_jit_kernel_handle_t Kernel,
                                const KernelCase &Case, bool Specialize,
                                bool AutoOn) {
  check(offloadJITSetEnabled(Specialize), "offloadJITSetEnabled");
  check(offloadJITSetAutoEnabled(AutoOn), "offloadJITSetAutoEnabled");
  offload_symbol_handle_t Symbol = nullptr;
  offload_result_t R = offloadJITGetSpecializedKernel(
      Device, Kernel, Case.args().data(), Case.args().size(),
      &Case.launchSizes(), &Symbol);
  check(offloadJITSetEnabled(true), "offloadJITSetEnabled");
  check(offloadJITSetAutoEnabled(false), "offloadJITSetAutoEnabled");
  check(R, std::string("offloadJITGetSpecializedKernel of ") + Case.name());
  return Symbol;
}

void prepare(PreparedCase &P) {
  KernelCase &Case = *P.Case;
  P.Symbols[Generic] = resolve(P.Marked, Case, false, false);
  P.Symbols[Annotated] = resolve(P.Marked, Case, true, false);
  P.Symbols[Unannotated] = resolve(P.Stripped, Case, true, false);
  // Automatic: resolve until a variant runs (OFFLOAD_JIT_AUTO_THRESHOLD
  // lookups with the same values), at most 1000 times.
  uint64_t Before = stats().AutoLaunches;
  for (int I = 1; I <= 1000; ++I) {
    P.Symbols[Auto] = resolve(P.Stripped, Case, true, true);
    if (stats().AutoLaunches > Before) {
      P.AutoAfter = I;
      break;
    }
  }
}

/// OFFLOAD_JIT_MEASURE=1: launches the annotated and the automatic
/// specialization through the JIT until their measurement against the
/// generic kernel is done (NeverSlower.h), so that the symbols resolved
/// afterwards are the versions the JIT keeps.
void settleMeasurements(PreparedCase &P) {
  for (auto [Kernel, AutoOn] :
       {std::pair{P.Marked, false}, {P.Stripped, true}}) {
    check(offloadJITSetAutoEnabled(AutoOn), "offloadJITSetAutoEnabled");
    for (int I = 0; I < 64; ++I) {
      uint64_t Before = stats().MeasuredLaunches;
      P.Case->reset();
      check(offloadJITLaunchKernel(nullptr, Device, Kernel,
                                   P.Case->args().data(), P.Case->args().size(),
                                   &P.Case->launchSizes()),
            std::string("JIT launch of ") + P.Case->name());
      if (stats().MeasuredLaunches == Before)
        break; // decided
    }
    check(offloadJITSetAutoEnabled(false), "offloadJITSetAutoEnabled");
  }
  P.Case->reset();
  P.Symbols[Annotated] = resolve(P.Marked, *P.Case, true, false);
  P.Symbols[Auto] = resolve(P.Stripped, *P.Case, true, true);
}

void launch(offload_symbol_handle_t Symbol, const KernelCase &Case) {
  check(offloadLaunchKernel(nullptr, Device, Symbol, Case.args().data(),
                            Case.args().size(), &Case.launchSizes()),
        std::string("launch of ") + Case.name());
}

/// Runs every version once and requires the generic kernel's results.
void verify(PreparedCase &P) {
  KernelCase &Case = *P.Case;
  auto Run = [&](Version V) {
    Case.reset();
    launch(P.Symbols[V], Case);
    std::vector<std::vector<double>> Values;
    for (const Output &O : Case.outputs())
      Values.push_back(O.values());
    return Values;
  };
  auto Reference = Run(Generic);
  std::vector<Output> Outputs = Case.outputs();
  for (Version V : {Annotated, Unannotated, Auto}) {
    auto Got = Run(V);
    for (size_t O = 0; O < Outputs.size(); ++O)
      for (size_t I = 0; I < Reference[O].size(); ++I) {
        double G = Reference[O][I], S = Got[O][I];
        bool Same = G == S || (std::isnan(G) && std::isnan(S));
        if (!Same && Outputs[O].SpecializedMayDiffer)
          Same = std::fabs(G - S) <=
                 std::max(Outputs[O].AbsTolerance,
                          Outputs[O].RelTolerance * std::fabs(G));
        if (!Same)
          fail(std::string(Case.name()) + ": generic and " + VersionNames[V] +
               " differ at " + Outputs[O].Name + "[" + std::to_string(I) +
               "]: " + std::to_string(G) + " vs " + std::to_string(S));
      }
  }
  Case.reset();
}

void kernelTime(benchmark::State &State, PreparedCase *P, Version V) {
  for (auto _ : State)
    launch(P->Symbols[V], *P->Case);
  State.SetItemsProcessed(State.iterations());
}

/// The launch path with automatic specialization off and on: a 1 x 1
/// launch of micro.mlir's axpy (its unmarked n watched; stable, so with the
/// mode on the launch runs the variant on n) through offloadJITLaunchKernel,
/// an in-memory hit, timed in the calling thread's CPU time (the launch runs
/// on it). The difference is what watching costs per launch.
void launchPath(benchmark::State &State, bool AutoOn) {
  static float X[1] = {1}, Y[1] = {2};
  static ArgPack Args = [] {
    ArgPack A;
    A.memref(X, {1}).memref(Y, {1}).index(1).scalar(3.0f);
    return A;
  }();
  static offload_jit_kernel_handle_t Kernel =
      jitKernel("micro.mlir", "axpy", false);
  offload_kernel_launch_size_args_t Sizes{};
  Sizes.Dimensions = 1;
  Sizes.NumGroups = {1, 1, 1};
  Sizes.GroupSize = {1, 1, 1};
  check(offloadJITSetAutoEnabled(AutoOn), "offloadJITSetAutoEnabled");
  auto Launch = [&] {
    check(offloadJITLaunchKernel(nullptr, Device, Kernel, Args.data(),
                                 Args.size(), &Sizes),
          "JIT launch of axpy");
  };
  for (int I = 0; I < 100; ++I) // past the threshold: the variant is hit
    Launch();
  for (auto _ : State)
    Launch();
  check(offloadJITSetAutoEnabled(false), "offloadJITSetAutoEnabled");
}

/// Passes everything on and keeps every repetition's time per benchmark.
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
    for (const Run &R : Runs)
      if (R.run_type != Run::RT_Aggregate)
        Times[R.run_name.function_name].push_back(
            (KernelCpuTime ? R.GetAdjustedCPUTime() : R.GetAdjustedRealTime()) *
            (R.time_unit == benchmark::kMicrosecond   ? 1e3
             : R.time_unit == benchmark::kMillisecond ? 1e6
                                                      : 1));
  }
  double median(const std::string &Name) const {
    auto It = Times.find(Name);
    if (It == Times.end() || It->second.empty())
      return 0;
    std::vector<double> V = It->second;
    std::sort(V.begin(), V.end());
    size_t N = V.size();
    return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
  }
  void printSummary() const {

    std::fprintf(stderr, "\n%-12s %12s %10s %12s %10s %10s %7s\n", "kernel",
                 "generic ns", "annotated", "unannotated", "auto", "auto/annot",
                 "after");
    double Logs[NumVersions] = {};
    int N = 0;
    for (const PreparedCase &P : Cases) {
      std::string Base = std::string("BM_") + P.Case->name() + "/";
      double T[NumVersions];
      bool Complete = true;
      for (int V = 0; V < NumVersions; ++V)
        Complete &= (T[V] = median(Base + VersionNames[V])) > 0;
      if (!Complete)
        continue;
      ++N;
      for (int V = 1; V < NumVersions; ++V)
        Logs[V] += std::log(T[Generic] / T[V]);
      std::fprintf(stderr, "%-12s %12.0f %9.2fx %11.2fx %9.2fx %10.2f %7d\n",
                   P.Case->name(), T[Generic], T[Generic] / T[Annotated],
                   T[Generic] / T[Unannotated], T[Generic] / T[Auto],
                   T[Annotated] / T[Auto], P.AutoAfter);
    }
    if (!N)
      return;
    double G[NumVersions];
    for (int V = 1; V < NumVersions; ++V)
      G[V] = std::exp(Logs[V] / N);
    std::fprintf(stderr, "%-12s %12s %9.2fx %11.2fx %9.2fx %10.2f\n", "geomean",
                 "", G[Annotated], G[Unannotated], G[Auto],
                 G[Auto] / G[Annotated]);
    std::fprintf(stderr,
                 "(speedups over generic; auto/annot: annotated time over "
                 "auto time; after: lookups until the automatic variant "
                 "ran)\nauto reaches %.0f%% of the annotated geomean "
                 "speedup\n",
                 100 * G[Auto] / G[Annotated]);
    double Off = median("BM_LaunchPath/auto_off"),
           On = median("BM_LaunchPath/auto_on");
    if (Off > 0 && On > 0)
      std::fprintf(stderr,
                   "JIT launch (in-memory hit, 1 x 1 axpy): %.0f ns with "
                   "automatic specialization off, %.0f ns on (%+.0f ns)\n",
                   Off, On, On - Off);
  }

private:
  std::unique_ptr<BenchmarkReporter> Inner;
  std::map<std::string, std::vector<double>> Times;
};

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> Rest{argv[0]};
  if (const char *Dir = std::getenv("OFFLOAD_BENCH_KERNEL_DIR"))
    KernelDir = Dir;
  std::string Format = "console";
  for (int I = 1; I < argc; ++I) {
    if (std::strncmp(argv[I], "--kernel-dir=", 13) == 0) {
      KernelDir = argv[I] + 13;
      continue;
    }
    if (std::strncmp(argv[I], "--benchmark_format=", 19) == 0)
      Format = argv[I] + 19;
    Rest.push_back(argv[I]);
  }
  int RestCount = static_cast<int>(Rest.size());

  // A private persistent cache unless one is set: the automatic decisions
  // of an earlier run (kept there) must not shorten this one's.
  std::string CacheDir;
  bool OwnCache = false;
  if (const char *Dir = std::getenv("OFFLOAD_CACHE_DIR"); Dir && *Dir) {
    CacheDir = Dir;
  } else {
    std::string Template = (std::filesystem::temp_directory_path() /
                            "offload-jit-auto-bench-XXXXXX")
                               .string();
    if (!mkdtemp(Template.data()))
      fail("cannot create a temporary cache directory");
    CacheDir = Template;
    setenv("OFFLOAD_CACHE_DIR", CacheDir.c_str(), 1);
    OwnCache = true;
  }
  if (const char *Threads = std::getenv("OFFLOAD_HOST_THREADS"))
    KernelCpuTime = std::string(Threads) == "1";
  benchmark::AddCustomContext("kernel_time",
                              KernelCpuTime ? "cpu_time" : "real_time");
  benchmark::AddCustomContext("offload_cache_dir", CacheDir);

  check(offloadInit(), "offloadInit");
  check(offloadGetHostDevice(&Device), "offloadGetHostDevice");
  for (std::unique_ptr<KernelCase> &Case : createKernelCases(Scale::Bench)) {
    PreparedCase P;
    P.Marked = jitKernel(Case->file(), Case->kernel(), false);
    P.Stripped = jitKernel(Case->file(), Case->kernel(), true);
    P.Case = std::move(Case);
    prepare(P);
    if (!P.AutoAfter)
      fail(std::string(P.Case->name()) +
           ": no automatic variant after 1000 launches");
    if (const char *M = std::getenv("OFFLOAD_JIT_MEASURE");
        M && std::strcmp(M, "1") == 0)
      settleMeasurements(P);
    Cases.push_back(std::move(P));
  }
  for (PreparedCase &P : Cases)
    verify(P);
  offload_jit_stats_t S = stats();
  benchmark::AddCustomContext("auto_variants", std::to_string(S.AutoVariants));

  for (PreparedCase &P : Cases)
    for (int V = 0; V < NumVersions; ++V) {
      auto *B = benchmark::RegisterBenchmark(
          (std::string("BM_") + P.Case->name() + "/" + VersionNames[V]).c_str(),
          kernelTime, &P, Version(V));
      B->Unit(benchmark::kMicrosecond);
      if (!KernelCpuTime)
        B->UseRealTime();
    }

  benchmark::RegisterBenchmark("BM_LaunchPath/auto_off", launchPath, false);
  benchmark::RegisterBenchmark("BM_LaunchPath/auto_on", launchPath, true);

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
