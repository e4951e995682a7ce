//===- NativeKernels.h - Native baselines of the host kernels ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The native baselines of offload-host-bench: each kernel of
// bench/host/kernels as a C++ programmer would write the same algorithm for
// the CPU, parallelized with OpenMP over all threads (or the number set by
// setNativeThreads) and compiled with -O3 -march=native (NativeKernels.cpp).
// A GPU block becomes one iteration of a parallel loop and its threads an
// inner (vectorized) loop; workgroup memory becomes a local array.
// Reductions may add in another order than the kernels (GPU reduction
// order is unspecified): the inputs are small integers, so results are exact.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_HOST_NATIVEKERNELS_H
#define OFFLOAD_BENCH_HOST_NATIVEKERNELS_H

#include <cstddef>
#include <cstdint>

namespace offload_bench {
namespace host {

/// Whether the baselines were built with OpenMP (else they run serially).
bool nativeHasOpenMP();
/// Runs later baselines on \p Threads threads (0: OpenMP's default).
void setNativeThreads(int Threads);
/// The number of threads the baselines use.
int nativeThreads();
/// The number of processors OpenMP can use (1 without OpenMP).
int nativeProcessors();
/// Lets OpenMP's idle worker threads sleep now instead of spinning for the
/// block time (KMP_BLOCKTIME, 200 ms by default), which would take the CPUs
/// from the next benchmark; no-op without LLVM's OpenMP.
void nativeRelease();

/// 1. y = a x + y.
void nativeSaxpy(size_t N, float A, const float *X, float *Y);
/// 2. Out[i] = W0 In[i-1] + W1 In[i] + W2 In[i+1], ends copied.
void nativeStencil3(size_t N, float W0, float W1, float W2, const float *In,
                    float *Out);
/// 3. C = A B in the i-k-j loop order, the j loop vectorized.
void nativeNaiveMatmul(size_t M, size_t N, size_t K, const float *A,
                       const float *B, float *C);
/// 4. C = A B with 16 x 16 tiles of A and B copied into local arrays per
/// 16-wide slice of K and a 16 x 16 accumulator per tile of C (the kernel's
/// algorithm; the tile's threads become the vectorized loops).
void nativeTiledMatmul(size_t M, size_t N, size_t K, const float *A,
                       const float *B, float *C);
/// 10. C = A B for f16 A and B (converted to f32) with the kernel's
/// algorithm: a 16 x 16 f32 accumulator per tile of C over 16-wide slices
/// of K, the j loops vectorized.
void nativeWmmaMatmul(size_t M, size_t N, size_t K, const _Float16 *A,
                      const _Float16 *B, float *C);
/// 5, 6. Out[b] = the sum of In[b * BlockSize, min(N, (b + 1) * BlockSize)).
void nativeBlockSum(size_t N, size_t BlockSize, const float *In, float *Out);
/// 7. Out (Cols x Rows) = In (Rows x Cols)^T through a local 32 x 33 tile
/// per 32 x 32 tile.
void nativeTranspose(size_t Rows, size_t Cols, const float *In, float *Out);
/// 8. The inclusive prefix sum of every BlockSize-element block, with the
/// kernel's algorithm (Hillis-Steele: log2(BlockSize) shifted adds).
void nativeBlockScan(size_t N, size_t BlockSize, const int32_t *In,
                     int32_t *Out);
/// 9. Hist (256 bins, overwritten) of In with the kernel's algorithm: a local
/// histogram per block of \p Blocks x \p BlockSize threads (grid-stride),
/// merged with atomic adds.
void nativeHistogram(size_t N, size_t Blocks, size_t BlockSize,
                     const uint8_t *In, int32_t *Hist);

} // namespace host
} // namespace offload_bench

#endif // OFFLOAD_BENCH_HOST_NATIVEKERNELS_H
