//===- offload-rodinia-bench.cpp - Rodinia on the host device -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark suite of Rodinia 3.1 programs (Che et al., "Rodinia: A
// benchmark suite for heterogeneous computing", IISWC 2009) on the host CPU
// device against their OpenMP versions (see bench/README.md). Each program's
// kernels are written in the gpu dialect after Rodinia's CUDA kernels
// (bench/rodinia/kernels), with the same block sizes and workgroup memory;
// its host driver (iterations, diagonal sweeps, frontier loop) is below, as
// the CUDA version's host code, launching through the runtime
// (offloadLaunchKernel on a queue of the host device; the kernels are
// compiled through the JIT before timing, once per block size). The
// baselines are Rodinia's OpenMP versions written anew (RodiniaOpenMP.cpp:
// OpenMP, -O3 -march=native).
//
//   rodinia/<program>/ours/threads:<T>     the gpu-dialect version
//   rodinia/<program>/openmp/threads:<T>   the OpenMP version
//
// One iteration runs the whole program on its inputs (copying the initial
// state into the working buffers, in both versions), wall-clock time. Before
// timing, both run once and their results must agree: exactly for integer
// results (pathfinder, nw, bfs, kmeans: its distances are summed in the
// same order, without FMAs, on integer-valued features) and within a
// relative tolerance stated per program for floating point (hotspot, srad,
// lud, nn); a difference stops the binary with exit status 1.
//
// Options (before the Google Benchmark ones):
//   --host_threads=1|all|N       the configuration (default all): the host
//                                device's threads (OFFLOAD_HOST_THREADS) and
//                                OpenMP's
//   --rodinia_quick              small inputs (checked, figures meaningless)
//   --rodinia_programs=a,b,...   only these programs
//   --kernel-dir=DIR             the kernels' MLIR (default: the source tree's
//                                bench/rodinia/kernels)
//
//===----------------------------------------------------------------------===//

#include "ArgPack.h"
#include "NativeKernels.h"
#include "RodiniaOpenMP.h"

#include "OffloadJIT/OffloadJIT.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#ifndef OFFLOAD_RODINIA_KERNEL_DIR
#define OFFLOAD_RODINIA_KERNEL_DIR "bench/rodinia/kernels"
#endif

using namespace offload_bench;
using namespace offload_bench::rodinia;

namespace {

[[noreturn]] void fail(const std::string &What, offload_result_t R = nullptr) {
  std::fprintf(stderr, "offload-rodinia-bench: %s%s%s%s\n", What.c_str(),
               R ? ": " : "", R ? offloadErrcName(R->Code) : "",
               R ? (std::string(": ") + R->Details).c_str() : "");
  std::exit(1);
}

void check(offload_result_t R, const std::string &What) {
  if (R)
    fail(What, R);
}

offload_device_handle_t Device = nullptr;
offload_queue_handle_t Queue = nullptr;
std::string KernelDir = OFFLOAD_RODINIA_KERNEL_DIR;
std::map<std::string, offload_jit_program_handle_t> Programs;

std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    fail("cannot read " + Path + " (use --kernel-dir=DIR)");
  std::stringstream Contents;
  Contents << In.rdbuf();
  return Contents.str();
}

void sync() { check(offloadSyncQueue(Queue), "offloadSyncQueue"); }

struct Dim {
  uint32_t X, Y = 1, Z = 1;
};

/// A kernel of bench/rodinia/kernels: compiled through the JIT at its first
/// launch with a block size (before timing: the verification run), then
/// launched with offloadLaunchKernel on the queue.
class Kernel {
public:
  Kernel(const char *File, const char *Name) : Name(Name) {
    offload_jit_program_handle_t &Program = Programs[File];
    if (!Program) {
      std::string Source = readFile(KernelDir + "/" + File);
      check(offloadCreateProgramFromMLIR(Device, Source.data(), Source.size(),
                                         &Program),
            std::string("cannot create the JIT program of ") + File);
    }
    check(offloadJITGetKernel(Program, Name, &JITKernel),
          std::string("no kernel ") + Name + " in " + File);
  }

  void launch(const ArgPack &Args, Dim Grid, Dim Block) {
    offload_kernel_launch_size_args_t Sizes{};
    Sizes.Dimensions = Grid.Y > 1 || Block.Y > 1 ? 2 : 1;
    Sizes.NumGroups = {Grid.X, Grid.Y, Grid.Z};
    Sizes.GroupSize = {Block.X, Block.Y, Block.Z};
    uint64_t Key = uint64_t(Block.X) << 32 | uint64_t(Block.Y) << 16 | Block.Z;
    offload_symbol_handle_t &Symbol = Symbols[Key];
    if (!Symbol)
      check(offloadJITGetSpecializedKernel(Device, JITKernel, Args.data(),
                                           Args.size(), &Sizes, &Symbol),
            std::string("compile of ") + Name);
    if (offload_result_t R = offloadLaunchKernel(
            Queue, Device, Symbol, Args.data(), Args.size(), &Sizes))
      fail(std::string("launch of ") + Name, R);
  }

private:
  const char *Name;
  offload_jit_kernel_handle_t JITKernel = nullptr;
  std::map<uint64_t, offload_symbol_handle_t> Symbols;
};

template <typename T> ArgPack &vec(ArgPack &A, std::vector<T> &V) {
  return A.memref(V.data(), {int64_t(V.size())});
}
template <typename T> ArgPack &ptr(ArgPack &A, T *Data, size_t Count) {
  return A.memref(Data, {int64_t(Count)});
}

/// Deterministic pseudo-random numbers (a 64-bit LCG), the same everywhere.
class Random {
public:
  explicit Random(uint64_t Seed) : State(Seed) {}
  uint32_t below(uint32_t N) {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<uint32_t>((State >> 33) % N);
  }
  float uniform() { return float(below(1u << 24)) / float(1u << 24); }

private:
  uint64_t State;
};

/// "" if equal, else the first differences.
template <typename T>
std::string compareExact(const char *What, const T *Ours, const T *OpenMP,
                         size_t N) {
  std::ostringstream Out;
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I)
    if (Ours[I] != OpenMP[I] && Bad++ < 5)
      Out << "\n  " << What << "[" << I << "]: ours " << double(Ours[I])
          << ", openmp " << double(OpenMP[I]);
  if (!Bad)
    return "";
  return std::to_string(Bad) + " of " + std::to_string(N) + " elements of " +
         What + " differ" + Out.str();
}

/// "" if |ours - openmp| <= Tol * max(1, |openmp|) everywhere.
std::string compareClose(const char *What, const float *Ours,
                         const float *OpenMP, size_t N, double Tol) {
  std::ostringstream Out;
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    double A = Ours[I], B = OpenMP[I];
    if (std::abs(A - B) <= Tol * std::max(1.0, std::abs(B)))
      continue;
    if (Bad++ < 5)
      Out << "\n  " << What << "[" << I << "]: ours " << A << ", openmp " << B;
  }
  if (!Bad)
    return "";
  return std::to_string(Bad) + " of " + std::to_string(N) + " elements of " +
         What + " differ by more than " + std::to_string(Tol) + " relative" +
         Out.str();
}

/// "" if the changes from Initial agree: |ours - openmp| <= Tol * the
/// largest |openmp - initial| + 16 units in the last place of openmp (for
/// iterative programs whose values move little relative to their size, e.g.
/// temperatures around 330 K, where one rounding is 1.5e-5).
std::string compareChange(const char *What, const float *Ours,
                          const float *OpenMP, const float *Initial, size_t N,
                          double Tol) {
  double Largest = 0;
  for (size_t I = 0; I < N; ++I)
    Largest = std::max(Largest, std::abs(double(OpenMP[I]) - Initial[I]));
  if (Largest == 0)
    return std::string("no element of ") + What + " changed";
  std::ostringstream Out;
  size_t Bad = 0;
  for (size_t I = 0; I < N; ++I) {
    double A = Ours[I], B = OpenMP[I];
    double Ulp = std::abs(double(std::nextafter(OpenMP[I], INFINITY)) - B);
    if (std::abs(A - B) <= Tol * Largest + 16 * Ulp)
      continue;
    if (Bad++ < 5)
      Out << "\n  " << What << "[" << I << "]: ours " << A << ", openmp " << B
          << ", initial " << Initial[I];
  }
  if (!Bad)
    return "";
  return std::to_string(Bad) + " of " + std::to_string(N) + " elements of " +
         What + " differ by more than " + std::to_string(Tol) +
         " of the largest change (" + std::to_string(Largest) + ")" + Out.str();
}

class Program {
public:
  virtual ~Program() = default;
  virtual const char *name() const = 0;
  /// The input, as the table prints it.
  std::string Problem;
  virtual void runOurs() = 0;
  virtual void runOpenMP() = 0;
  /// "" when the results agree, else what differs.
  virtual std::string compare() = 0;
};

//===----------------------------------------------------------------------===//
// hotspot
//===----------------------------------------------------------------------===//

class Hotspot : public Program {
  int N, Pyramid, Iterations;
  std::vector<float> Power, Initial, Ours[2], OpenMP, Scratch;
  int OursResult = 0;
  float Cap, Rx, Ry, Rz, Step;
  Kernel K{"hotspot.mlir", "calculate_temp"};

public:
  Hotspot(bool Quick)
      : N(Quick ? 64 : 1024), Pyramid(2), Iterations(Quick ? 4 : 20) {
    Problem = std::to_string(N) + "x" + std::to_string(N) + ", pyramid " +
              std::to_string(Pyramid) + ", " + std::to_string(Iterations) +
              " steps";
    size_t Size = size_t(N) * N;
    Random R(1);
    Power.resize(Size);
    Initial.resize(Size);
    // Rodinia's inputs: temperatures around 320-340 K, small power densities.
    for (size_t I = 0; I < Size; ++I) {
      Initial[I] = 320.0f + 20.0f * R.uniform();
      Power[I] = 0.5f * R.uniform();
    }
    Ours[0].resize(Size);
    Ours[1].resize(Size);
    OpenMP.resize(Size);
    Scratch.resize(Size);
    // Rodinia's chip parameters (hotspot.cu, compute_tran_temp).
    const float ChipHeight = 0.016f, ChipWidth = 0.016f, TChip = 0.0005f;
    const float SpecHeatSi = 1.75e6f, KSi = 100, FactorChip = 0.5f;
    const float MaxPd = 3.0e6f, Precision = 0.001f;
    float GridHeight = ChipHeight / N, GridWidth = ChipWidth / N;
    Cap = FactorChip * SpecHeatSi * TChip * GridWidth * GridHeight;
    Rx = GridWidth / (2.0f * KSi * TChip * GridHeight);
    Ry = GridHeight / (2.0f * KSi * TChip * GridWidth);
    Rz = TChip / (KSi * GridHeight * GridWidth);
    float MaxSlope = MaxPd / (FactorChip * TChip * SpecHeatSi);
    Step = Precision / MaxSlope;
  }
  const char *name() const override { return "hotspot"; }

  void runOurs() override {
    std::copy(Initial.begin(), Initial.end(), Ours[0].begin());
    int Border = Pyramid, Small = 16 - 2 * Pyramid;
    uint32_t Blocks = uint32_t((N + Small - 1) / Small);
    int Src = 1, Dst = 0;
    for (int T = 0; T < Iterations; T += Pyramid) {
      std::swap(Src, Dst);
      ArgPack A;
      A.index(std::min(Pyramid, Iterations - T));
      vec(A, Power);
      vec(A, Ours[Src]);
      vec(A, Ours[Dst]);
      A.index(N).index(N).index(Border).index(Border);
      A.scalar(Cap).scalar(Rx).scalar(Ry).scalar(Rz).scalar(Step);
      K.launch(A, {Blocks, Blocks}, {16, 16});
    }
    sync();
    OursResult = Dst;
  }
  void runOpenMP() override {
    std::copy(Initial.begin(), Initial.end(), OpenMP.begin());
    hotspotOpenMP(OpenMP.data(), Scratch.data(), Power.data(), N, N, Iterations,
                  Step / Cap, 1 / Rx, 1 / Ry, 1 / Rz);
  }
  std::string compare() override {
    return compareChange("temperature", Ours[OursResult].data(), OpenMP.data(),
                         Initial.data(), OpenMP.size(), 1e-4);
  }
};

//===----------------------------------------------------------------------===//
// pathfinder
//===----------------------------------------------------------------------===//

class Pathfinder : public Program {
  int Rows, Cols, Pyramid;
  std::vector<int32_t> Wall, Ours[2], OpenMP, Scratch;
  int OursResult = 0;
  Kernel K{"pathfinder.mlir", "dynproc"};

public:
  Pathfinder(bool Quick)
      : Rows(Quick ? 20 : 100), Cols(Quick ? 2000 : 400000), Pyramid(20) {
    Problem = std::to_string(Cols) + " cols x " + std::to_string(Rows) +
              " rows, pyramid " + std::to_string(Pyramid);
    Random R(9);
    Wall.resize(size_t(Rows) * Cols);
    for (int32_t &W : Wall)
      W = int32_t(R.below(10));
    Ours[0].resize(Cols);
    Ours[1].resize(Cols);
    OpenMP.resize(Cols);
    Scratch.resize(Cols);
  }
  const char *name() const override { return "pathfinder"; }

  void runOurs() override {
    // Rodinia's calc_path: the first row is the source, the kernel's wall
    // starts at the second.
    std::copy(Wall.begin(), Wall.begin() + Cols, Ours[0].begin());
    int Border = Pyramid, Small = 256 - 2 * Pyramid;
    uint32_t Blocks = uint32_t((Cols + Small - 1) / Small);
    int Src = 1, Dst = 0;
    for (int T = 0; T < Rows - 1; T += Pyramid) {
      std::swap(Src, Dst);
      ArgPack A;
      A.index(std::min(Pyramid, Rows - T - 1));
      ptr(A, Wall.data() + Cols, Wall.size() - Cols);
      vec(A, Ours[Src]);
      vec(A, Ours[Dst]);
      A.index(Cols).index(T).index(Border);
      K.launch(A, {Blocks}, {256});
    }
    sync();
    OursResult = Dst;
  }
  void runOpenMP() override {
    pathfinderOpenMP(Wall.data(), Rows, Cols, OpenMP.data(), Scratch.data());
  }
  std::string compare() override {
    return compareExact("cost", Ours[OursResult].data(), OpenMP.data(),
                        size_t(Cols));
  }
};

//===----------------------------------------------------------------------===//
// nw
//===----------------------------------------------------------------------===//

class NeedlemanWunsch : public Program {
  int N, Penalty = 10; // N - 1 residues per sequence
  std::vector<int32_t> Ref, Initial, Ours, OpenMP;
  Kernel K1{"nw.mlir", "needle_1"}, K2{"nw.mlir", "needle_2"};

public:
  NeedlemanWunsch(bool Quick) : N((Quick ? 256 : 4096) + 1) {
    Problem = std::to_string(N - 1) + " x " + std::to_string(N - 1) +
              ", penalty " + std::to_string(Penalty);
    Random R(7);
    std::vector<int> A(N), B(N);
    for (int I = 1; I < N; ++I)
      A[I] = int(R.below(10)) + 1;
    for (int J = 1; J < N; ++J)
      B[J] = int(R.below(10)) + 1;
    // Substitution scores in BLOSUM62's range: a match scores 4-11, a
    // mismatch -4-3, from the pair of residues.
    int Score[11][11];
    Random S(62);
    for (int I = 0; I < 11; ++I)
      for (int J = 0; J <= I; ++J)
        Score[I][J] = Score[J][I] =
            I == J ? 4 + int(S.below(8)) : int(S.below(8)) - 4;
    Ref.assign(size_t(N) * N, 0);
    Initial.assign(size_t(N) * N, 0);
    for (int I = 1; I < N; ++I)
      for (int J = 1; J < N; ++J)
        Ref[size_t(I) * N + J] = Score[A[I]][B[J]];
    for (int I = 1; I < N; ++I)
      Initial[size_t(I) * N] = -I * Penalty;
    for (int J = 1; J < N; ++J)
      Initial[J] = -J * Penalty;
    Ours.resize(Initial.size());
    OpenMP.resize(Initial.size());
  }
  const char *name() const override { return "nw"; }

  void runOurs() override {
    std::copy(Initial.begin(), Initial.end(), Ours.begin());
    int BlockWidth = (N - 1) / 16;
    auto Args = [&](int I) {
      ArgPack A;
      vec(A, Ref);
      vec(A, Ours);
      A.index(N).scalar<int32_t>(Penalty).index(I).index(BlockWidth);
      return A;
    };
    for (int I = 1; I <= BlockWidth; ++I)
      K1.launch(Args(I), {uint32_t(I)}, {16});
    for (int I = BlockWidth - 1; I >= 1; --I)
      K2.launch(Args(I), {uint32_t(I)}, {16});
    sync();
  }
  void runOpenMP() override {
    std::copy(Initial.begin(), Initial.end(), OpenMP.begin());
    nwOpenMP(OpenMP.data(), Ref.data(), N, Penalty);
  }
  std::string compare() override {
    return compareExact("score", Ours.data(), OpenMP.data(), Ours.size());
  }
};

//===----------------------------------------------------------------------===//
// lud
//===----------------------------------------------------------------------===//

class LUD : public Program {
  int N;
  std::vector<float> Initial, Ours, OpenMP;
  Kernel Diagonal{"lud.mlir", "lud_diagonal"},
      Perimeter{"lud.mlir", "lud_perimeter"},
      Internal{"lud.mlir", "lud_internal"};

public:
  LUD(bool Quick) : N(Quick ? 128 : 1024) {
    Problem = std::to_string(N) + "x" + std::to_string(N);
    // A diagonally dominant matrix (no pivoting needed), as Rodinia's
    // generator makes.
    Random R(3);
    Initial.resize(size_t(N) * N);
    for (int I = 0; I < N; ++I)
      for (int J = 0; J < N; ++J)
        Initial[size_t(I) * N + J] = R.uniform() + (I == J ? float(N) : 0.0f);
    Ours.resize(Initial.size());
    OpenMP.resize(Initial.size());
  }
  const char *name() const override { return "lud"; }

  void runOurs() override {
    std::copy(Initial.begin(), Initial.end(), Ours.begin());
    auto Args = [&](int Offset) {
      ArgPack A;
      vec(A, Ours);
      A.index(N).index(Offset);
      return A;
    };
    int I = 0;
    for (; I < N - 16; I += 16) {
      Diagonal.launch(Args(I), {1}, {16});
      uint32_t Rest = uint32_t((N - I) / 16 - 1);
      Perimeter.launch(Args(I), {Rest}, {32});
      Internal.launch(Args(I), {Rest, Rest}, {16, 16});
    }
    Diagonal.launch(Args(I), {1}, {16});
    sync();
  }
  void runOpenMP() override {
    std::copy(Initial.begin(), Initial.end(), OpenMP.begin());
    ludOpenMP(OpenMP.data(), N);
  }
  std::string compare() override {
    return compareClose("LU", Ours.data(), OpenMP.data(), Ours.size(), 1e-4);
  }
};

//===----------------------------------------------------------------------===//
// bfs
//===----------------------------------------------------------------------===//

class BFS : public Program {
  int N;
  std::vector<int32_t> Nodes, Edges, Ours, OpenMP;
  std::vector<uint8_t> Mask, Updating, Visited, Over;
  Kernel Expand{"bfs.mlir", "bfs_expand"}, Update{"bfs.mlir", "bfs_update"};

  void init(std::vector<int32_t> &Cost) {
    std::fill(Mask.begin(), Mask.end(), 0);
    std::fill(Updating.begin(), Updating.end(), 0);
    std::fill(Visited.begin(), Visited.end(), 0);
    std::fill(Cost.begin(), Cost.end(), -1);
    Mask[0] = Visited[0] = 1;
    Cost[0] = 0;
  }

public:
  BFS(bool Quick) : N(Quick ? 8192 : 1000000) {
    // Rodinia's graph generator: each node gets a random number of edges to
    // random nodes (here 1-10, 5.5 on average, as graph1MW_6).
    Random R(6);
    Nodes.resize(2 * size_t(N));
    for (int I = 0; I < N; ++I) {
      int Degree = 1 + int(R.below(10));
      Nodes[2 * I] = int32_t(Edges.size());
      Nodes[2 * I + 1] = Degree;
      for (int E = 0; E < Degree; ++E)
        Edges.push_back(int32_t(R.below(uint32_t(N))));
    }
    Problem = std::to_string(N) + " nodes, " + std::to_string(Edges.size()) +
              " edges";
    Ours.resize(N);
    OpenMP.resize(N);
    Mask.resize(N);
    Updating.resize(N);
    Visited.resize(N);
    Over.resize(1);
  }
  const char *name() const override { return "bfs"; }

  void runOurs() override {
    init(Ours);
    uint32_t Blocks = uint32_t((N + 511) / 512);
    ArgPack A;
    vec(A, Nodes);
    vec(A, Edges);
    vec(A, Mask);
    vec(A, Updating);
    vec(A, Visited);
    vec(A, Ours);
    A.index(N);
    ArgPack B;
    vec(B, Mask);
    vec(B, Updating);
    vec(B, Visited);
    vec(B, Over);
    B.index(N);
    do {
      Over[0] = 0;
      Expand.launch(A, {Blocks}, {512});
      Update.launch(B, {Blocks}, {512});
      sync();
    } while (Over[0]);
  }
  void runOpenMP() override {
    init(OpenMP);
    bfsOpenMP(Nodes.data(), Edges.data(), N, Mask.data(), Updating.data(),
              Visited.data(), OpenMP.data());
  }
  std::string compare() override {
    return compareExact("cost", Ours.data(), OpenMP.data(), size_t(N));
  }
};

//===----------------------------------------------------------------------===//
// nn
//===----------------------------------------------------------------------===//

class NearestNeighbor : public Program {
  int N, K = 10;
  float Lat = 30.0f, Lng = 90.0f;
  std::vector<float> Locations, Ours, OpenMP;
  std::vector<int32_t> OursNearest, OpenMPNearest;
  Kernel Euclid{"nn.mlir", "euclid"};

public:
  NearestNeighbor(bool Quick) : N(Quick ? 16384 : 4000000) {
    Problem = std::to_string(N) + " records, k " + std::to_string(K);
    // Rodinia's hurricane generator: latitudes 7-70, longitudes 0-358.
    Random R(11);
    Locations.resize(2 * size_t(N));
    for (int I = 0; I < N; ++I) {
      Locations[2 * I] = 7.0f + 63.0f * R.uniform();
      Locations[2 * I + 1] = 358.0f * R.uniform();
    }
    Ours.resize(N);
    OpenMP.resize(N);
    OursNearest.resize(K);
    OpenMPNearest.resize(K);
  }
  const char *name() const override { return "nn"; }

  void runOurs() override {
    // Rodinia's grid: at most 65535 blocks in x, the rest in y.
    uint32_t Blocks = uint32_t((N + 255) / 256);
    uint32_t X = std::min<uint32_t>(Blocks, 65535), Y = (Blocks + X - 1) / X;
    ArgPack A;
    vec(A, Locations);
    vec(A, Ours);
    A.index(N).scalar(Lat).scalar(Lng);
    Euclid.launch(A, {X, Y}, {256});
    sync();
    nnSelect(Ours.data(), N, K, OursNearest.data());
  }
  void runOpenMP() override {
    nnDistancesOpenMP(Locations.data(), OpenMP.data(), N, Lat, Lng);
    nnSelect(OpenMP.data(), N, K, OpenMPNearest.data());
  }
  std::string compare() override {
    std::string D =
        compareClose("distance", Ours.data(), OpenMP.data(), Ours.size(), 1e-6);
    if (!D.empty())
      return D;
    // The neighbours themselves: their distances (equal ones may come in
    // either order when the two versions round differently).
    std::vector<float> A(K), B(K);
    for (int I = 0; I < K; ++I) {
      A[I] = OpenMP[OursNearest[I]];
      B[I] = OpenMP[OpenMPNearest[I]];
    }
    return compareClose("neighbour distance", A.data(), B.data(), size_t(K),
                        1e-6);
  }
};

//===----------------------------------------------------------------------===//
// kmeans
//===----------------------------------------------------------------------===//

class KMeans : public Program {
  int NPoints, NFeatures = 34, NClusters = 5, MaxIterations = 10;
  std::vector<float> Features, Inverted, OursClusters, OpenMPClusters;
  std::vector<int32_t> OursMembership, Previous, OpenMPMembership;
  int OursIterations = 0, OpenMPIterations = 0;
  Kernel Point{"kmeans.mlir", "kmeans_point"};

  void initClusters(std::vector<float> &Clusters) {
    // Rodinia's initial centers: the first points.
    Clusters.assign(Features.begin(),
                    Features.begin() + size_t(NClusters) * NFeatures);
  }

public:
  KMeans(bool Quick) : NPoints(Quick ? 8192 : 200000) {
    Problem = std::to_string(NPoints) + " points, " +
              std::to_string(NFeatures) + " features, " +
              std::to_string(NClusters) +
              " clusters, <= " + std::to_string(MaxIterations) + " iterations";
    // Integer-valued features (0-15, as kdd_cup's are small integers): sums
    // of any order are exact, so both versions find the same centers.
    Random R(5);
    Features.resize(size_t(NPoints) * NFeatures);
    for (float &F : Features)
      F = float(R.below(16));
    // The kernel reads feature-major data (Rodinia's invert_mapping, once
    // before the loop, not timed in either version).
    Inverted.resize(Features.size());
    for (int P = 0; P < NPoints; ++P)
      for (int F = 0; F < NFeatures; ++F)
        Inverted[size_t(F) * NPoints + P] = Features[size_t(P) * NFeatures + F];
    OursMembership.resize(NPoints);
    Previous.resize(NPoints);
    OpenMPMembership.resize(NPoints);
  }
  const char *name() const override { return "kmeans"; }

  void runOurs() override {
    initClusters(OursClusters);
    std::fill(Previous.begin(), Previous.end(), -1);
    uint32_t Blocks = uint32_t((NPoints + 255) / 256);
    ArgPack A;
    vec(A, Inverted);
    A.index(NFeatures).index(NPoints).index(NClusters);
    vec(A, OursMembership);
    vec(A, OursClusters);
    int Delta;
    OursIterations = 0;
    do {
      Point.launch(A, {Blocks}, {256});
      sync();
      // Rodinia's CUDA version: new centers on the host.
      Delta = kmeansCenters(Features.data(), NPoints, NFeatures, NClusters,
                            OursMembership.data(), Previous.data(),
                            OursClusters.data());
      ++OursIterations;
    } while (Delta > 0 && OursIterations < MaxIterations);
  }
  void runOpenMP() override {
    initClusters(OpenMPClusters);
    std::fill(OpenMPMembership.begin(), OpenMPMembership.end(), -1);
    OpenMPIterations = kmeansOpenMP(
        Features.data(), NPoints, NFeatures, NClusters, MaxIterations,
        OpenMPMembership.data(), OpenMPClusters.data());
  }
  std::string compare() override {
    if (OursIterations != OpenMPIterations)
      return "iterations: ours " + std::to_string(OursIterations) +
             ", openmp " + std::to_string(OpenMPIterations);
    std::string D = compareExact("membership", OursMembership.data(),
                                 OpenMPMembership.data(), size_t(NPoints));
    if (!D.empty())
      return D;
    return compareExact("center", OursClusters.data(), OpenMPClusters.data(),
                        OursClusters.size());
  }
};

//===----------------------------------------------------------------------===//
// srad
//===----------------------------------------------------------------------===//

class SRAD : public Program {
  int Rows, Cols, Iterations;
  float Lambda = 0.5f;
  int R1 = 0, R2 = 127, C1 = 0, C2 = 127;
  std::vector<float> Initial, Ours, OpenMP, Scratch, DE, DW, DN, DS, C;
  Kernel K1{"srad.mlir", "srad_1"}, K2{"srad.mlir", "srad_2"};

public:
  SRAD(bool Quick)
      : Rows(Quick ? 128 : 2048), Cols(Quick ? 128 : 2048),
        Iterations(Quick ? 2 : 10) {
    Problem = std::to_string(Rows) + "x" + std::to_string(Cols) + ", " +
              std::to_string(Iterations) + " iterations, lambda 0.5";
    // Rodinia's srad_v2 input: J = exp(uniform random).
    Random R(2);
    size_t Size = size_t(Rows) * Cols;
    Initial.resize(Size);
    for (float &V : Initial)
      V = std::exp(R.uniform());
    for (auto *V : {&Ours, &OpenMP, &DE, &DW, &DN, &DS, &C})
      V->resize(Size);
    Scratch.resize(5 * Size);
  }
  const char *name() const override { return "srad"; }

  void runOurs() override {
    std::copy(Initial.begin(), Initial.end(), Ours.begin());
    Dim Grid{uint32_t(Cols / 16), uint32_t(Rows / 16)};
    for (int It = 0; It < Iterations; ++It) {
      // Rodinia's CUDA version: q0sqr on the host from the image.
      float Q0sqr = sradQ0sqr(Ours.data(), Cols, R1, R2, C1, C2);
      ArgPack A;
      for (auto *V : {&DE, &DW, &DN, &DS, &Ours, &C})
        vec(A, *V);
      A.index(Cols);
      ArgPack B = A;
      A.scalar(Q0sqr);
      B.scalar(Lambda);
      K1.launch(A, Grid, {16, 16});
      K2.launch(B, Grid, {16, 16});
      sync();
    }
  }
  void runOpenMP() override {
    std::copy(Initial.begin(), Initial.end(), OpenMP.begin());
    sradOpenMP(OpenMP.data(), Scratch.data(), Rows, Cols, Iterations, Lambda,
               R1, R2, C1, C2);
  }
  std::string compare() override {
    return compareChange("image", Ours.data(), OpenMP.data(), Initial.data(),
                         Ours.size(), 1e-4);
  }
};

//===----------------------------------------------------------------------===//
// backprop
//===----------------------------------------------------------------------===//

class Backprop : public Program {
  int In, Hid = 16;
  float Target = 0.1f;
  std::vector<float> Input, InitialWeights, InitialHiddenWeights;
  struct State {
    std::vector<float> Weights, Prev, Hidden, HiddenWeights, HiddenPrev,
        HiddenDelta;
  } Ours, OpenMP;
  std::vector<float> Partial;
  Kernel Forward{"backprop.mlir", "layerforward"},
      Adjust{"backprop.mlir", "adjust_weights"};

  void reset(State &S) {
    S.Weights = InitialWeights;
    S.Prev.assign(InitialWeights.size(), 0.0f);
    S.Hidden.assign(size_t(Hid) + 1, 0.0f);
    S.HiddenWeights = InitialHiddenWeights;
    S.HiddenPrev.assign(InitialHiddenWeights.size(), 0.0f);
    S.HiddenDelta.assign(size_t(Hid) + 1, 0.0f);
  }

public:
  Backprop(bool Quick) : In(Quick ? 4096 : 262144) {
    Problem = std::to_string(In) + " inputs, 16 hidden units, 1 output";
    // Random inputs in [0, 1) as Rodinia's facetrain; the input weights in
    // [-a, a) with a = 3 / sqrt(In), so that the hidden units' sums have a
    // standard deviation near 1 (Rodinia's weights in [0, 1) saturate every
    // sigmoid, which would hide errors in the sums).
    Random R(4);
    Input.resize(size_t(In) + 1);
    for (float &V : Input)
      V = R.uniform();
    Input[0] = 1.0f;
    InitialWeights.resize((size_t(In) + 1) * (Hid + 1));
    float Scale = 3.0f / std::sqrt(float(In));
    for (float &V : InitialWeights)
      V = Scale * (2.0f * R.uniform() - 1.0f);
    InitialHiddenWeights.resize((size_t(Hid) + 1) * 2);
    for (float &V : InitialHiddenWeights)
      V = R.uniform();
    Partial.resize(size_t(In / 16) * Hid);
  }
  const char *name() const override { return "backprop"; }

  void runOurs() override {
    reset(Ours);
    uint32_t Blocks = uint32_t(In / 16);
    ArgPack F;
    vec(F, Input);
    vec(F, Ours.Weights);
    vec(F, Partial);
    F.index(Hid);
    Forward.launch(F, {1, Blocks}, {16, 16});
    sync();
    // Rodinia's CUDA host code: the hidden units and the small layer on the
    // host.
    backpropHiddenUnits(Partial.data(), int(Blocks), Hid, Ours.Weights.data(),
                        Ours.Hidden.data());
    backpropHiddenStep(Ours.Hidden.data(), Hid, Ours.HiddenWeights.data(),
                       Ours.HiddenPrev.data(), Target, Ours.HiddenDelta.data());
    ArgPack A;
    vec(A, Ours.HiddenDelta);
    A.index(Hid);
    vec(A, Input);
    vec(A, Ours.Weights);
    vec(A, Ours.Prev);
    Adjust.launch(A, {1, Blocks}, {16, 16});
    sync();
  }
  void runOpenMP() override {
    reset(OpenMP);
    backpropOpenMP(Input.data(), In, Hid, OpenMP.Weights.data(),
                   OpenMP.Prev.data(), OpenMP.Hidden.data(),
                   OpenMP.HiddenWeights.data(), OpenMP.HiddenPrev.data(),
                   Target, OpenMP.HiddenDelta.data());
  }
  std::string compare() override {
    std::string D =
        compareClose("hidden unit", Ours.Hidden.data(), OpenMP.Hidden.data(),
                     Ours.Hidden.size(), 1e-4);
    if (D.empty())
      D = compareChange("hidden weight", Ours.HiddenWeights.data(),
                        OpenMP.HiddenWeights.data(),
                        InitialHiddenWeights.data(),
                        InitialHiddenWeights.size(), 1e-4);
    if (D.empty())
      D = compareChange("input weight", Ours.Weights.data(),
                        OpenMP.Weights.data(), InitialWeights.data(),
                        InitialWeights.size(), 1e-4);
    return D;
  }
};

//===----------------------------------------------------------------------===//

std::vector<std::unique_ptr<Program>>
createPrograms(bool Quick, const std::set<std::string> &Only) {
  using Factory = std::unique_ptr<Program> (*)(bool);
  static const std::pair<const char *, Factory> All[] = {
      {"hotspot",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<Hotspot>(Q);
       }},
      {"pathfinder",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<Pathfinder>(Q);
       }},
      {"srad",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<SRAD>(Q);
       }},
      {"nw",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<NeedlemanWunsch>(Q);
       }},
      {"lud",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<LUD>(Q);
       }},
      {"bfs",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<BFS>(Q);
       }},
      {"kmeans",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<KMeans>(Q);
       }},
      {"nn",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<NearestNeighbor>(Q);
       }},
      {"backprop",
       [](bool Q) -> std::unique_ptr<Program> {
         return std::make_unique<Backprop>(Q);
       }},
  };
  std::set<std::string> Known;
  std::vector<std::unique_ptr<Program>> Result;
  for (auto &[Name, Make] : All) {
    Known.insert(Name);
    if (Only.empty() || Only.count(Name))
      Result.push_back(Make(Quick));
  }
  for (const std::string &Name : Only)
    if (!Known.count(Name))
      fail("no program " + Name + " (--rodinia_programs)");
  return Result;
}

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point Start) {
  return std::chrono::duration<double>(Clock::now() - Start).count();
}

void oursTime(benchmark::State &State, Program *P) {
  for (auto _ : State)
    P->runOurs();
  State.SetLabel(P->Problem);
}

void openmpTime(benchmark::State &State, Program *P) {
  for (auto _ : State)
    P->runOpenMP();
  State.SetLabel(P->Problem);
  // OpenMP's workers would spin for a while, competing with the next
  // benchmark (the host device's pool).
  host::nativeRelease();
}

bool startsWith(const char *Arg, const char *Prefix, const char *&Value) {
  size_t N = std::strlen(Prefix);
  if (std::strncmp(Arg, Prefix, N) != 0)
    return false;
  Value = Arg + N;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<char *> Rest{argv[0]};
  std::string Threads = "all";
  bool Quick = false;
  std::set<std::string> Only;
  for (int I = 1; I < argc; ++I) {
    const char *V;
    if (startsWith(argv[I], "--kernel-dir=", V)) {
      KernelDir = V;
    } else if (startsWith(argv[I], "--host_threads=", V)) {
      Threads = V;
    } else if (std::strcmp(argv[I], "--rodinia_quick") == 0) {
      Quick = true;
    } else if (startsWith(argv[I], "--rodinia_programs=", V)) {
      std::stringstream List(V);
      for (std::string Name; std::getline(List, Name, ',');)
        if (!Name.empty())
          Only.insert(Name);
    } else {
      Rest.push_back(argv[I]);
    }
  }

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
    unsetenv("OFFLOAD_HOST_THREADS");
  host::setNativeThreads(NumThreads);
  int Label = NumThreads > 0 ? NumThreads : host::nativeProcessors();
  std::string Suffix = "/threads:" + std::to_string(Label);

  // A private JIT cache: kernels compile with the compiler being measured.
  bool OwnCache = false;
  std::string CacheDir;
  if (const char *Dir = std::getenv("OFFLOAD_CACHE_DIR"); Dir && *Dir) {
    CacheDir = Dir;
  } else {
    std::string Template = (std::filesystem::temp_directory_path() /
                            "offload-rodinia-bench-XXXXXX")
                               .string();
    if (!mkdtemp(Template.data()))
      fail("cannot create a temporary cache directory");
    CacheDir = Template;
    setenv("OFFLOAD_CACHE_DIR", CacheDir.c_str(), 1);
    OwnCache = true;
  }

  check(offloadInit(), "offloadInit");
  check(offloadGetHostDevice(&Device), "offloadGetHostDevice");
  check(offloadCreateQueue(Device, &Queue), "offloadCreateQueue");

  std::vector<std::unique_ptr<Program>> All = createPrograms(Quick, Only);
  // Verification: both versions once (ours compiles its kernels here), the
  // results must agree.
  for (std::unique_ptr<Program> &P : All) {
    auto Start = Clock::now();
    P->runOurs();
    double Ours = seconds(Start);
    Start = Clock::now();
    P->runOpenMP();
    double OpenMP = seconds(Start);
    std::string Diff = P->compare();
    if (!Diff.empty())
      fail(std::string("results of ") + P->name() + " (" + P->Problem +
           ") differ from the OpenMP version: " + Diff);
    std::fprintf(stderr,
                 "offload-rodinia-bench: %-10s %-52s ours %.3f s (with "
                 "compiles), openmp %.3f s: agree\n",
                 P->name(), P->Problem.c_str(), Ours, OpenMP);
  }
  host::nativeRelease();

  benchmark::AddCustomContext("host_threads", Threads);
  benchmark::AddCustomContext("threads_label", std::to_string(Label));
  benchmark::AddCustomContext("openmp_threads",
                              std::to_string(host::nativeThreads()));
  benchmark::AddCustomContext("rodinia_quick", Quick ? "true" : "false");
  for (std::unique_ptr<Program> &P : All) {
    std::string Base = std::string("rodinia/") + P->name();
    benchmark::AddCustomContext("problem:" + std::string(P->name()),
                                P->Problem);
    benchmark::RegisterBenchmark((Base + "/ours" + Suffix).c_str(), oursTime,
                                 P.get())
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark((Base + "/openmp" + Suffix).c_str(),
                                 openmpTime, P.get())
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }

  int RestCount = static_cast<int>(Rest.size());
  benchmark::Initialize(&RestCount, Rest.data());
  bool BadArguments =
      benchmark::ReportUnrecognizedArguments(RestCount, Rest.data());
  if (!BadArguments)
    benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  All.clear();
  check(offloadDestroyQueue(Queue), "offloadDestroyQueue");
  for (auto &[File, Program] : Programs)
    check(offloadJITDestroyProgram(Program), "offloadJITDestroyProgram");
  check(offloadShutDown(), "offloadShutDown");
  if (OwnCache) {
    std::error_code EC;
    std::filesystem::remove_all(CacheDir, EC);
  }
  return BadArguments ? 1 : 0;
}
