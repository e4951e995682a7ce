//===- MPIMain.cpp - One rank of the MPI cache test -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-jit-mpi-rank: one rank of `mpirun -np 4 offload-jit-mpi-rank` with
// OFFLOAD_JIT_CACHE_MPI=1 and one OFFLOAD_CACHE_DIR (ctest JITMPI*, run by
// mpi-cache-test.sh): launches 6 specializations (`scale` by 4 values,
// `offset` by 2), each twice, checks every result and prints one line
//
//   rank R of N (SOURCE): launches=L compiles=C disk-hits=D memory-hits=M ok
//
// that the script sums over the ranks: each specialization compiled once in
// total, read from disk by each other rank. With --mpi it initializes MPI
// first (Open MPI's libmpi.so.40 through dlopen, as an MPI application that
// links it would have it; this program links no MPI), without it the JIT
// takes the rank from Open MPI's launcher's environment. Exit status 0 when
// every value is right.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <numeric>
#include <vector>

using namespace offload_jit_test;

int main(int argc, char **argv) {
  bool UseMPI = argc > 1 && std::strcmp(argv[1], "--mpi") == 0;
  int (*Finalize)() = nullptr;
  const char *Source = "environment";
  if (UseMPI) {
    void *MPI = dlopen("libmpi.so.40", RTLD_NOW | RTLD_GLOBAL);
    if (!MPI) {
      std::fprintf(stderr, "offload-jit-mpi-rank: %s\n", dlerror());
      return 1;
    }
    auto Init =
        reinterpret_cast<int (*)(int *, char ***)>(dlsym(MPI, "MPI_Init"));
    Finalize = reinterpret_cast<int (*)()>(dlsym(MPI, "MPI_Finalize"));
    if (!Init || !Finalize || Init(&argc, &argv) != 0) {
      std::fprintf(stderr, "offload-jit-mpi-rank: MPI_Init failed\n");
      return 1;
    }
    Source = "MPI";
  }
  const char *RankText = std::getenv("OMPI_COMM_WORLD_RANK");
  int Rank = RankText ? std::atoi(RankText) : 0;

  offload_device_handle_t Device = nullptr;
  offload_jit_program_handle_t Program = nullptr;
  offload_jit_kernel_handle_t Scale = nullptr, Offset = nullptr;
  offload_result_t R = offloadInit();
  if (!R)
    R = offloadGetHostDevice(&Device);
  if (!R)
    R = offloadCreateProgramFromMLIR(Device, KernelsSource,
                                     std::strlen(KernelsSource), &Program);
  if (!R)
    R = offloadJITGetKernel(Program, "scale", &Scale);
  if (!R)
    R = offloadJITGetKernel(Program, "offset", &Offset);
  if (R) {
    std::fprintf(stderr, "offload-jit-mpi-rank %d: %s\n", Rank,
                 describe(R).c_str());
    return 1;
  }
  int Failures = 0;
  constexpr size_t N = 256;
  auto Sizes = sizes(4, 64);
  for (int Round = 0; Round < 2; ++Round) {
    for (float S : {2.0f, 3.0f, -1.0f, 0.5f}) {
      std::vector<float> X(N);
      std::iota(X.begin(), X.end(), 0.0f);
      ScaleArgs Args{view(X.data(), N), S};
      if ((R = offloadJITLaunchKernel(nullptr, Device, Scale, &Args,
                                      sizeof(Args), &Sizes))) {
        std::fprintf(stderr, "rank %d: %s\n", Rank, describe(R).c_str());
        return 1;
      }
      for (size_t I = 0; I < N; ++I)
        if (X[I] != S * I && Failures++ < 5)
          std::fprintf(stderr, "rank %d: scale by %g: x[%zu] = %g\n", Rank, S,
                       I, X[I]);
    }
    for (int K : {7, -3}) {
      std::vector<float> X(64);
      std::iota(X.begin(), X.end(), 0.0f);
      OffsetArgs Args{view(X.data(), X.size()), K};
      auto One = sizes(1, 64);
      if ((R = offloadJITLaunchKernel(nullptr, Device, Offset, &Args,
                                      sizeof(Args), &One))) {
        std::fprintf(stderr, "rank %d: %s\n", Rank, describe(R).c_str());
        return 1;
      }
      for (size_t I = 0; I < X.size(); ++I)
        if (X[I] != static_cast<float>(I) + K && Failures++ < 5)
          std::fprintf(stderr, "rank %d: offset by %d: x[%zu] = %g\n", Rank, K,
                       I, X[I]);
    }
  }
  offload_jit_stats_t S = stats();
  const char *SizeText = std::getenv("OMPI_COMM_WORLD_SIZE");
  std::printf("rank %d of %s (%s): launches=%llu compiles=%llu disk-hits=%llu "
              "memory-hits=%llu %s\n",
              Rank, SizeText ? SizeText : "1", Source,
              (unsigned long long)S.Launches, (unsigned long long)S.Compiles,
              (unsigned long long)S.DiskHits, (unsigned long long)S.MemoryHits,
              Failures ? "WRONG" : "ok");
  std::fflush(stdout);
  offloadJITDestroyProgram(Program);
  offloadShutDown();
  if (Finalize)
    Finalize();
  return Failures ? 1 : 0;
}
