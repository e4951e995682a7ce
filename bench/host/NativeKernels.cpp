//===- NativeKernels.cpp - Native baselines of the host kernels -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Compiled with -O3 -march=native and OpenMP (bench/host/CMakeLists.txt).
// Parallel loops use the static schedule: iterations of equal cost, the
// cheapest schedule, as the host device splits a grid into contiguous chunks.
//
//===----------------------------------------------------------------------===//

#include "NativeKernels.h"

#include <algorithm>
#include <cstring>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace offload_bench::host;

bool offload_bench::host::nativeHasOpenMP() {
#ifdef _OPENMP
  return true;
#else
  return false;
#endif
}

void offload_bench::host::setNativeThreads(int Threads) {
#ifdef _OPENMP
  omp_set_num_threads(Threads > 0 ? Threads : omp_get_num_procs());
#else
  (void)Threads;
#endif
}

int offload_bench::host::nativeThreads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

int offload_bench::host::nativeProcessors() {
#ifdef _OPENMP
  return omp_get_num_procs();
#else
  return 1;
#endif
}

void offload_bench::host::nativeRelease() {
#if defined(_OPENMP) && defined(KMP_VERSION_MAJOR)
  // LLVM's OpenMP: the workers of a region run with a block time of 0 go to
  // sleep as soon as it ends; later regions get the saved block time back.
  int Saved = kmp_get_blocktime();
  kmp_set_blocktime(0);
#pragma omp parallel
  {
  }
  kmp_set_blocktime(Saved);
#endif
}

void offload_bench::host::nativeSaxpy(size_t N, float A,
                                      const float *__restrict X,
                                      float *__restrict Y) {
#pragma omp parallel for simd schedule(static)
  for (size_t I = 0; I < N; ++I)
    Y[I] = A * X[I] + Y[I];
}

void offload_bench::host::nativeStencil3(size_t N, float W0, float W1, float W2,
                                         const float *__restrict In,
                                         float *__restrict Out) {
  if (N == 0)
    return;
#pragma omp parallel for simd schedule(static)
  for (size_t I = 1; I < N - 1; ++I)
    Out[I] = W0 * In[I - 1] + W1 * In[I] + W2 * In[I + 1];
  Out[0] = In[0];
  Out[N - 1] = In[N - 1];
}

void offload_bench::host::nativeNaiveMatmul(size_t M, size_t N, size_t K,
                                            const float *__restrict A,
                                            const float *__restrict B,
                                            float *__restrict C) {
#pragma omp parallel for schedule(static)
  for (size_t I = 0; I < M; ++I) {
    float *__restrict Row = C + I * N;
    std::fill(Row, Row + N, 0.0f);
    for (size_t Kk = 0; Kk < K; ++Kk) {
      float Aik = A[I * K + Kk];
      const float *__restrict BRow = B + Kk * N;
#pragma omp simd
      for (size_t J = 0; J < N; ++J)
        Row[J] += Aik * BRow[J];
    }
  }
}

void offload_bench::host::nativeTiledMatmul(size_t M, size_t N, size_t K,
                                            const float *__restrict A,
                                            const float *__restrict B,
                                            float *__restrict C) {
  constexpr size_t T = 16;
  size_t TilesM = (M + T - 1) / T, TilesN = (N + T - 1) / T;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t TI = 0; TI < TilesM; ++TI)
    for (size_t TJ = 0; TJ < TilesN; ++TJ) {
      alignas(64) float TileA[T][T], TileB[T][T], Acc[T][T] = {};
      size_t Row0 = TI * T, Col0 = TJ * T;
      for (size_t K0 = 0; K0 < K; K0 += T) {
        for (size_t I = 0; I < T; ++I)
          for (size_t Kk = 0; Kk < T; ++Kk) {
            bool In = Row0 + I < M && K0 + Kk < K;
            TileA[I][Kk] = In ? A[(Row0 + I) * K + K0 + Kk] : 0.0f;
          }
        for (size_t Kk = 0; Kk < T; ++Kk)
          for (size_t J = 0; J < T; ++J) {
            bool In = K0 + Kk < K && Col0 + J < N;
            TileB[Kk][J] = In ? B[(K0 + Kk) * N + Col0 + J] : 0.0f;
          }
        for (size_t I = 0; I < T; ++I)
          for (size_t Kk = 0; Kk < T; ++Kk) {
            float Aik = TileA[I][Kk];
#pragma omp simd
            for (size_t J = 0; J < T; ++J)
              Acc[I][J] += Aik * TileB[Kk][J];
          }
      }
      for (size_t I = 0; I < T && Row0 + I < M; ++I)
        for (size_t J = 0; J < T && Col0 + J < N; ++J)
          C[(Row0 + I) * N + Col0 + J] = Acc[I][J];
    }
}

void offload_bench::host::nativeBlockSum(size_t N, size_t BlockSize,
                                         const float *__restrict In,
                                         float *__restrict Out) {
  size_t Blocks = (N + BlockSize - 1) / BlockSize;
#pragma omp parallel for schedule(static)
  for (size_t Bk = 0; Bk < Blocks; ++Bk) {
    size_t Begin = Bk * BlockSize, End = std::min(N, Begin + BlockSize);
    float Sum = 0;
#pragma omp simd reduction(+ : Sum)
    for (size_t I = Begin; I < End; ++I)
      Sum += In[I];
    Out[Bk] = Sum;
  }
}

void offload_bench::host::nativeTranspose(size_t Rows, size_t Cols,
                                          const float *__restrict In,
                                          float *__restrict Out) {
  constexpr size_t T = 32;
  size_t TilesR = (Rows + T - 1) / T, TilesC = (Cols + T - 1) / T;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t TR = 0; TR < TilesR; ++TR)
    for (size_t TC = 0; TC < TilesC; ++TC) {
      alignas(64) float Tile[T][T + 1];
      size_t R0 = TR * T, C0 = TC * T;
      size_t NR = std::min(T, Rows - R0), NC = std::min(T, Cols - C0);
      for (size_t I = 0; I < NR; ++I)
        for (size_t J = 0; J < NC; ++J)
          Tile[I][J] = In[(R0 + I) * Cols + C0 + J];
      for (size_t J = 0; J < NC; ++J)
        for (size_t I = 0; I < NR; ++I)
          Out[(C0 + J) * Rows + R0 + I] = Tile[I][J];
    }
}

void offload_bench::host::nativeBlockScan(size_t N, size_t BlockSize,
                                          const int32_t *__restrict In,
                                          int32_t *__restrict Out) {
  // The kernel's algorithm (Hillis-Steele) on each block: log2(BlockSize)
  // steps, each adding the element `Offset` to the left.
  size_t Blocks = (N + BlockSize - 1) / BlockSize;
#pragma omp parallel
  {
    std::vector<int32_t> Buf(BlockSize), Shifted(BlockSize);
#pragma omp for schedule(static)
    for (size_t Bk = 0; Bk < Blocks; ++Bk) {
      size_t Begin = Bk * BlockSize, Count = std::min(N - Begin, BlockSize);
      int32_t *__restrict B = Buf.data(), *__restrict S = Shifted.data();
      for (size_t I = 0; I < BlockSize; ++I)
        B[I] = I < Count ? In[Begin + I] : 0;
      for (size_t Offset = 1; Offset < BlockSize; Offset *= 2) {
        for (size_t I = 0; I < BlockSize; ++I)
          S[I] = I >= Offset ? B[I - Offset] : 0;
        for (size_t I = 0; I < BlockSize; ++I)
          B[I] += S[I];
      }
      std::memcpy(Out + Begin, B, Count * sizeof(int32_t));
    }
  }
}

void offload_bench::host::nativeHistogram(size_t N, size_t Blocks,
                                          size_t BlockSize,
                                          const uint8_t *__restrict In,
                                          int32_t *__restrict Hist) {
  // The kernel's algorithm: a local histogram per block of the grid, filled
  // by a grid-stride loop of its threads, merged with atomic adds.
  std::memset(Hist, 0, 256 * sizeof(int32_t));
  size_t Stride = Blocks * BlockSize;
#pragma omp parallel for schedule(static)
  for (size_t Bk = 0; Bk < Blocks; ++Bk) {
    int32_t Local[256] = {};
    for (size_t Base = Bk * BlockSize; Base < N; Base += Stride)
      for (size_t T = 0, E = std::min(BlockSize, N - Base); T < E; ++T)
        ++Local[In[Base + T]];
    for (int Bin = 0; Bin < 256; ++Bin)
      if (Local[Bin]) {
#pragma omp atomic
        Hist[Bin] += Local[Bin];
      }
  }
}

void offload_bench::host::nativeWmmaMatmul(size_t M, size_t N, size_t K,
                                           const _Float16 *__restrict A,
                                           const _Float16 *__restrict B,
                                           float *__restrict C) {
  constexpr size_t T = 16;
#pragma omp parallel for collapse(2) schedule(static)
  for (size_t TI = 0; TI < M / T; ++TI)
    for (size_t TJ = 0; TJ < N / T; ++TJ) {
      alignas(64) float Acc[T][T] = {};
      size_t Row0 = TI * T, Col0 = TJ * T;
      for (size_t K0 = 0; K0 < K; K0 += T)
        for (size_t I = 0; I < T; ++I)
          for (size_t Kk = 0; Kk < T; ++Kk) {
            float Aik = float(A[(Row0 + I) * K + K0 + Kk]);
            const _Float16 *__restrict BRow = B + (K0 + Kk) * N + Col0;
#pragma omp simd
            for (size_t J = 0; J < T; ++J)
              Acc[I][J] += Aik * float(BRow[J]);
          }
      for (size_t I = 0; I < T; ++I)
        for (size_t J = 0; J < T; ++J)
          C[(Row0 + I) * N + Col0 + J] = Acc[I][J];
    }
}
