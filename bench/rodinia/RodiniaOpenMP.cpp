//===- RodiniaOpenMP.cpp - OpenMP versions of the Rodinia programs --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Each function follows the structure of Rodinia 3.1's OpenMP version of the
// program (https://github.com/yuhc/gpu-rodinia, openmp/): the same loops,
// blocking and parallel regions, written anew. See RodiniaOpenMP.h.
//
//===----------------------------------------------------------------------===//

#include "RodiniaOpenMP.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace offload_bench::rodinia;

namespace {
constexpr int Block = 16;
constexpr float AmbientTemp = 80.0f;
} // namespace

void offload_bench::rodinia::hotspotOpenMP(float *Temp, float *Scratch,
                                           const float *Power, int Rows,
                                           int Cols, int Iterations,
                                           float StepDivCap, float Rx1,
                                           float Ry1, float Rz1) {
  float *T = Temp, *R = Scratch;
  int ChunksInRow = Cols / Block, Chunks = Rows / Block * ChunksInRow;
  for (int It = 0; It < Iterations; ++It) {
#pragma omp parallel for schedule(static)
    for (int Chunk = 0; Chunk < Chunks; ++Chunk) {
      int R0 = Block * (Chunk / ChunksInRow),
          C0 = Block * (Chunk % ChunksInRow);
      if (R0 == 0 || C0 == 0 || R0 + Block == Rows || C0 + Block == Cols) {
        // Chunks on the grid's edge: neighbours outside are the cell itself.
        for (int Y = R0; Y < R0 + Block; ++Y)
          for (int X = C0; X < C0 + Block; ++X) {
            int N = Y > 0 ? Y - 1 : Y, S = Y < Rows - 1 ? Y + 1 : Y;
            int W = X > 0 ? X - 1 : X, E = X < Cols - 1 ? X + 1 : X;
            float C = T[Y * Cols + X];
            R[Y * Cols + X] =
                C + StepDivCap *
                        (Power[Y * Cols + X] +
                         (T[S * Cols + X] + T[N * Cols + X] - 2.0f * C) * Ry1 +
                         (T[Y * Cols + E] + T[Y * Cols + W] - 2.0f * C) * Rx1 +
                         (AmbientTemp - C) * Rz1);
          }
        continue;
      }
      for (int Y = R0; Y < R0 + Block; ++Y) {
#pragma omp simd
        for (int X = C0; X < C0 + Block; ++X) {
          float C = T[Y * Cols + X];
          R[Y * Cols + X] =
              C +
              StepDivCap *
                  (Power[Y * Cols + X] +
                   (T[(Y + 1) * Cols + X] + T[(Y - 1) * Cols + X] - 2.0f * C) *
                       Ry1 +
                   (T[Y * Cols + X + 1] + T[Y * Cols + X - 1] - 2.0f * C) *
                       Rx1 +
                   (AmbientTemp - C) * Rz1);
        }
      }
    }
    std::swap(T, R);
  }
  if (T != Temp)
    std::memcpy(Temp, T, sizeof(float) * size_t(Rows) * Cols);
}

void offload_bench::rodinia::pathfinderOpenMP(const int32_t *Wall, int Rows,
                                              int Cols, int32_t *Result,
                                              int32_t *Scratch) {
  int32_t *Src = Result, *Dst = Scratch;
  std::memcpy(Src, Wall, sizeof(int32_t) * Cols);
  for (int T = 0; T < Rows - 1; ++T) {
#pragma omp parallel for schedule(static)
    for (int N = 0; N < Cols; ++N) {
      int32_t Min = Src[N];
      if (N > 0)
        Min = std::min(Min, Src[N - 1]);
      if (N < Cols - 1)
        Min = std::min(Min, Src[N + 1]);
      Dst[N] = Wall[size_t(T + 1) * Cols + N] + Min;
    }
    std::swap(Src, Dst);
  }
  if (Src != Result)
    std::memcpy(Result, Src, sizeof(int32_t) * Cols);
}

namespace {
inline int32_t maximum3(int32_t A, int32_t B, int32_t C) {
  return std::max(std::max(A, B), C);
}

/// One 16 x 16 block of nw at block coordinates (BX, BY), in local copies.
inline void nwBlock(int32_t *Items, const int32_t *Ref, int N, int Penalty,
                    int BX, int BY) {
  alignas(64) int32_t L[(Block + 1) * (Block + 1)];
  alignas(64) int32_t RL[Block * Block];
  for (int I = 0; I < Block; ++I)
#pragma omp simd
    for (int J = 0; J < Block; ++J)
      RL[I * Block + J] =
          Ref[size_t(N) * (BY * Block + I + 1) + BX * Block + J + 1];
  for (int I = 0; I < Block + 1; ++I)
#pragma omp simd
    for (int J = 0; J < Block + 1; ++J)
      L[I * (Block + 1) + J] =
          Items[size_t(N) * (BY * Block + I) + BX * Block + J];
  for (int I = 1; I < Block + 1; ++I)
    for (int J = 1; J < Block + 1; ++J)
      L[I * (Block + 1) + J] = maximum3(L[(I - 1) * (Block + 1) + J - 1] +
                                            RL[(I - 1) * Block + J - 1],
                                        L[I * (Block + 1) + J - 1] - Penalty,
                                        L[(I - 1) * (Block + 1) + J] - Penalty);
  for (int I = 0; I < Block; ++I)
#pragma omp simd
    for (int J = 0; J < Block; ++J)
      Items[size_t(N) * (BY * Block + I + 1) + BX * Block + J + 1] =
          L[(I + 1) * (Block + 1) + J + 1];
}
} // namespace

void offload_bench::rodinia::nwOpenMP(int32_t *Items, const int32_t *Ref, int N,
                                      int Penalty) {
  int Blocks = (N - 1) / Block;
  for (int Blk = 1; Blk <= Blocks; ++Blk) {
#pragma omp parallel for schedule(static)
    for (int BX = 0; BX < Blk; ++BX)
      nwBlock(Items, Ref, N, Penalty, BX, Blk - 1 - BX);
  }
  for (int Blk = 2; Blk <= Blocks; ++Blk) {
#pragma omp parallel for schedule(static)
    for (int BX = Blk - 1; BX < Blocks; ++BX)
      nwBlock(Items, Ref, N, Penalty, BX, Blocks + Blk - 2 - BX);
  }
}

void offload_bench::rodinia::ludOpenMP(float *A, int N) {
  for (int Off = 0; Off < N; Off += Block) {
    // The diagonal block.
    for (int I = 0; I < Block; ++I) {
      for (int J = I; J < Block; ++J) {
        float Sum = A[size_t(Off + I) * N + Off + J];
        for (int K = 0; K < I; ++K)
          Sum -= A[size_t(Off + I) * N + Off + K] *
                 A[size_t(Off + K) * N + Off + J];
        A[size_t(Off + I) * N + Off + J] = Sum;
      }
      float Pivot = A[size_t(Off + I) * N + Off + I];
      for (int J = I + 1; J < Block; ++J) {
        float Sum = A[size_t(Off + J) * N + Off + I];
        for (int K = 0; K < I; ++K)
          Sum -= A[size_t(Off + J) * N + Off + K] *
                 A[size_t(Off + K) * N + Off + I];
        A[size_t(Off + J) * N + Off + I] = Sum / Pivot;
      }
    }
    int Rest = (N - Off) / Block - 1;
    if (Rest == 0)
      break;
    // The perimeter: the blocks right of it (U) and below it (L).
#pragma omp parallel for schedule(static)
    for (int Chunk = 0; Chunk < Rest; ++Chunk) {
      int C0 = Off + (Chunk + 1) * Block;
      for (int J = 0; J < Block; ++J)
        for (int I = 1; I < Block; ++I) {
          float Sum = A[size_t(Off + I) * N + C0 + J];
          for (int K = 0; K < I; ++K)
            Sum -= A[size_t(Off + I) * N + Off + K] *
                   A[size_t(Off + K) * N + C0 + J];
          A[size_t(Off + I) * N + C0 + J] = Sum;
        }
      for (int I = 0; I < Block; ++I)
        for (int J = 0; J < Block; ++J) {
          float Sum = A[size_t(C0 + I) * N + Off + J];
          for (int K = 0; K < J; ++K)
            Sum -= A[size_t(C0 + I) * N + Off + K] *
                   A[size_t(Off + K) * N + Off + J];
          A[size_t(C0 + I) * N + Off + J] =
              Sum / A[size_t(Off + J) * N + Off + J];
        }
    }
    // The trailing matrix, block by block.
#pragma omp parallel for schedule(static)
    for (int Chunk = 0; Chunk < Rest * Rest; ++Chunk) {
      int R0 = Off + (Chunk / Rest + 1) * Block,
          C0 = Off + (Chunk % Rest + 1) * Block;
      alignas(64) float Row[Block * Block], Col[Block * Block];
      for (int I = 0; I < Block; ++I)
        for (int J = 0; J < Block; ++J) {
          Row[I * Block + J] = A[size_t(Off + I) * N + C0 + J];
          Col[I * Block + J] = A[size_t(R0 + I) * N + Off + J];
        }
      for (int I = 0; I < Block; ++I) {
        float Sum[Block] = {};
        for (int K = 0; K < Block; ++K)
#pragma omp simd
          for (int J = 0; J < Block; ++J)
            Sum[J] += Col[I * Block + K] * Row[K * Block + J];
        for (int J = 0; J < Block; ++J)
          A[size_t(R0 + I) * N + C0 + J] -= Sum[J];
      }
    }
  }
}

void offload_bench::rodinia::bfsOpenMP(const int32_t *Nodes,
                                       const int32_t *Edges, int N,
                                       uint8_t *Mask, uint8_t *Updating,
                                       uint8_t *Visited, int32_t *Cost) {
  bool Stop;
  do {
    Stop = false;
#pragma omp parallel for schedule(static)
    for (int Tid = 0; Tid < N; ++Tid) {
      if (!Mask[Tid])
        continue;
      Mask[Tid] = 0;
      for (int I = Nodes[2 * Tid]; I < Nodes[2 * Tid] + Nodes[2 * Tid + 1];
           ++I) {
        int Id = Edges[I];
        if (!Visited[Id]) {
          Cost[Id] = Cost[Tid] + 1;
          Updating[Id] = 1;
        }
      }
    }
#pragma omp parallel for schedule(static) reduction(|| : Stop)
    for (int Tid = 0; Tid < N; ++Tid) {
      if (!Updating[Tid])
        continue;
      Mask[Tid] = 1;
      Visited[Tid] = 1;
      Stop = true;
      Updating[Tid] = 0;
    }
  } while (Stop);
}

void offload_bench::rodinia::nnDistancesOpenMP(const float *Locations,
                                               float *Distances, int N,
                                               float Lat, float Lng) {
#pragma omp parallel for schedule(static)
  for (int I = 0; I < N; ++I) {
    float DX = Lat - Locations[2 * I], DY = Lng - Locations[2 * I + 1];
    Distances[I] = std::sqrt(DX * DX + DY * DY);
  }
}

void offload_bench::rodinia::nnSelect(const float *Distances, int N, int K,
                                      int32_t *Nearest) {
  // Rodinia's selection: keep the K best seen so far, replacing the worst.
  std::vector<float> Best(K, FLT_MAX);
  std::fill(Nearest, Nearest + K, -1);
  for (int I = 0; I < N; ++I) {
    int Worst = 0;
    for (int J = 1; J < K; ++J)
      if (Best[J] > Best[Worst])
        Worst = J;
    if (Distances[I] < Best[Worst]) {
      Best[Worst] = Distances[I];
      Nearest[Worst] = I;
    }
  }
  // Ascending distance, then index.
  std::vector<int> Order(K);
  for (int J = 0; J < K; ++J)
    Order[J] = J;
  std::sort(Order.begin(), Order.end(), [&](int A, int B) {
    return Best[A] != Best[B] ? Best[A] < Best[B] : Nearest[A] < Nearest[B];
  });
  std::vector<int32_t> Sorted(K);
  for (int J = 0; J < K; ++J)
    Sorted[J] = Nearest[Order[J]];
  std::copy(Sorted.begin(), Sorted.end(), Nearest);
}

int offload_bench::rodinia::kmeansCenters(const float *Features, int NPoints,
                                          int NFeatures, int NClusters,
                                          const int32_t *Membership,
                                          int32_t *Previous, float *Clusters) {
  std::vector<float> Sums(size_t(NClusters) * NFeatures, 0.0f);
  std::vector<int> Counts(NClusters, 0);
  int Delta = 0;
  for (int P = 0; P < NPoints; ++P) {
    int C = Membership[P];
    if (C != Previous[P])
      ++Delta;
    Previous[P] = C;
    ++Counts[C];
    for (int F = 0; F < NFeatures; ++F)
      Sums[size_t(C) * NFeatures + F] += Features[size_t(P) * NFeatures + F];
  }
  for (int C = 0; C < NClusters; ++C)
    if (Counts[C])
      for (int F = 0; F < NFeatures; ++F)
        Clusters[size_t(C) * NFeatures + F] =
            Sums[size_t(C) * NFeatures + F] / float(Counts[C]);
  return Delta;
}

namespace {
/// The nearest center of point P: the kernels' distance, summed in the same
/// order without contraction into FMAs, so that both versions agree exactly.
inline int nearestCenter(const float *Point, int NFeatures, int NClusters,
                         const float *Clusters) {
#pragma clang fp contract(off)
  int Index = -1;
  float Min = FLT_MAX;
  for (int C = 0; C < NClusters; ++C) {
    float Dist = 0.0f;
    for (int F = 0; F < NFeatures; ++F) {
      float D = Point[F] - Clusters[size_t(C) * NFeatures + F];
      Dist += D * D;
    }
    if (Dist < Min) {
      Min = Dist;
      Index = C;
    }
  }
  return Index;
}
} // namespace

int offload_bench::rodinia::kmeansOpenMP(const float *Features, int NPoints,
                                         int NFeatures, int NClusters,
                                         int MaxIterations, int32_t *Membership,
                                         float *Clusters) {
  int Threads = 1;
#ifdef _OPENMP
  Threads = omp_get_max_threads();
#endif
  size_t Size = size_t(NClusters) * NFeatures;
  std::vector<float> PartialSums(size_t(Threads) * Size);
  std::vector<int> PartialCounts(size_t(Threads) * NClusters);
  int Iteration = 0;
  int Delta;
  do {
    std::fill(PartialSums.begin(), PartialSums.end(), 0.0f);
    std::fill(PartialCounts.begin(), PartialCounts.end(), 0);
    Delta = 0;
#pragma omp parallel reduction(+ : Delta)
    {
      int T = 0;
#ifdef _OPENMP
      T = omp_get_thread_num();
#endif
      float *Sums = PartialSums.data() + size_t(T) * Size;
      int *Counts = PartialCounts.data() + size_t(T) * NClusters;
#pragma omp for schedule(static)
      for (int P = 0; P < NPoints; ++P) {
        const float *Point = Features + size_t(P) * NFeatures;
        int C = nearestCenter(Point, NFeatures, NClusters, Clusters);
        if (Membership[P] != C)
          ++Delta;
        Membership[P] = C;
        ++Counts[C];
        for (int F = 0; F < NFeatures; ++F)
          Sums[size_t(C) * NFeatures + F] += Point[F];
      }
    }
    for (int C = 0; C < NClusters; ++C) {
      int Count = 0;
      for (int T = 0; T < Threads; ++T)
        Count += PartialCounts[size_t(T) * NClusters + C];
      if (!Count)
        continue;
      for (int F = 0; F < NFeatures; ++F) {
        float Sum = 0.0f;
        for (int T = 0; T < Threads; ++T)
          Sum += PartialSums[size_t(T) * Size + size_t(C) * NFeatures + F];
        Clusters[size_t(C) * NFeatures + F] = Sum / float(Count);
      }
    }
    ++Iteration;
  } while (Delta > 0 && Iteration < MaxIterations);
  return Iteration;
}

float offload_bench::rodinia::sradQ0sqr(const float *J, int Cols, int R1,
                                        int R2, int C1, int C2) {
  float Sum = 0, Sum2 = 0;
  for (int I = R1; I <= R2; ++I)
    for (int K = C1; K <= C2; ++K) {
      float V = J[size_t(I) * Cols + K];
      Sum += V;
      Sum2 += V * V;
    }
  float Size = float((R2 - R1 + 1) * (C2 - C1 + 1));
  float Mean = Sum / Size;
  float Var = Sum2 / Size - Mean * Mean;
  return Var / (Mean * Mean);
}

void offload_bench::rodinia::sradOpenMP(float *J, float *Scratch, int Rows,
                                        int Cols, int Iterations, float Lambda,
                                        int R1, int R2, int C1, int C2) {
  size_t Size = size_t(Rows) * Cols;
  float *C = Scratch, *DN = C + Size, *DS = DN + Size, *DW = DS + Size,
        *DE = DW + Size;
  for (int It = 0; It < Iterations; ++It) {
    float Q0sqr = sradQ0sqr(J, Cols, R1, R2, C1, C2);
#pragma omp parallel for schedule(static)
    for (int I = 0; I < Rows; ++I) {
      int IN = I > 0 ? I - 1 : 0, IS = I < Rows - 1 ? I + 1 : Rows - 1;
      for (int K = 0; K < Cols; ++K) {
        int JW = K > 0 ? K - 1 : 0, JE = K < Cols - 1 ? K + 1 : Cols - 1;
        size_t At = size_t(I) * Cols + K;
        float Jc = J[At];
        DN[At] = J[size_t(IN) * Cols + K] - Jc;
        DS[At] = J[size_t(IS) * Cols + K] - Jc;
        DW[At] = J[size_t(I) * Cols + JW] - Jc;
        DE[At] = J[size_t(I) * Cols + JE] - Jc;
        float G2 = (DN[At] * DN[At] + DS[At] * DS[At] + DW[At] * DW[At] +
                    DE[At] * DE[At]) /
                   (Jc * Jc);
        float L = (DN[At] + DS[At] + DW[At] + DE[At]) / Jc;
        float Num = 0.5f * G2 - (1.0f / 16.0f) * (L * L);
        float Den = 1 + 0.25f * L;
        float Qsqr = Num / (Den * Den);
        Den = (Qsqr - Q0sqr) / (Q0sqr * (1 + Q0sqr));
        float Cv = 1.0f / (1.0f + Den);
        C[At] = Cv < 0 ? 0 : (Cv > 1 ? 1 : Cv);
      }
    }
#pragma omp parallel for schedule(static)
    for (int I = 0; I < Rows; ++I) {
      int IS = I < Rows - 1 ? I + 1 : Rows - 1;
      for (int K = 0; K < Cols; ++K) {
        int JE = K < Cols - 1 ? K + 1 : Cols - 1;
        size_t At = size_t(I) * Cols + K;
        float CN = C[At], CS = C[size_t(IS) * Cols + K], CW = C[At],
              CE = C[size_t(I) * Cols + JE];
        float D = CN * DN[At] + CS * DS[At] + CW * DW[At] + CE * DE[At];
        J[At] = J[At] + 0.25f * Lambda * D;
      }
    }
  }
}

namespace {
constexpr float Eta = 0.3f, Momentum = 0.3f;
inline float squash(float X) { return 1.0f / (1.0f + std::exp(-X)); }
} // namespace

void offload_bench::rodinia::backpropHiddenUnits(const float *Partial,
                                                 int Blocks, int Hid,
                                                 const float *Weights,
                                                 float *Hidden) {
  for (int J = 1; J <= Hid; ++J) {
    float Sum = 0.0f;
    for (int K = 0; K < Blocks; ++K)
      Sum += Partial[size_t(K) * Hid + J - 1];
    Sum += Weights[J];
    Hidden[J] = squash(Sum);
  }
}

void offload_bench::rodinia::backpropHiddenStep(float *Hidden, int Hid,
                                                float *HiddenWeights,
                                                float *HiddenPrev, float Target,
                                                float *HiddenDelta) {
  // The output layer (one unit, column 1 of the (Hid + 1) x 2 weights).
  Hidden[0] = 1.0f;
  float Sum = 0.0f;
  for (int K = 0; K <= Hid; ++K)
    Sum += HiddenWeights[2 * K + 1] * Hidden[K];
  float Out = squash(Sum);
  float OutDelta = Out * (1.0f - Out) * (Target - Out);
  for (int J = 1; J <= Hid; ++J) {
    float H = Hidden[J];
    HiddenDelta[J] = H * (1.0f - H) * (OutDelta * HiddenWeights[2 * J + 1]);
  }
  for (int K = 0; K <= Hid; ++K) {
    float Dw = Eta * OutDelta * Hidden[K] + Momentum * HiddenPrev[2 * K + 1];
    HiddenWeights[2 * K + 1] += Dw;
    HiddenPrev[2 * K + 1] = Dw;
  }
}

void offload_bench::rodinia::backpropOpenMP(float *Input, int In, int Hid,
                                            float *Weights, float *Prev,
                                            float *Hidden, float *HiddenWeights,
                                            float *HiddenPrev, float Target,
                                            float *HiddenDelta) {
  size_t Stride = size_t(Hid) + 1;
  Input[0] = 1.0f;
#pragma omp parallel for schedule(static)
  for (int J = 1; J <= Hid; ++J) {
    float Sum = 0.0f;
    for (int K = 0; K <= In; ++K)
      Sum += Weights[size_t(K) * Stride + J] * Input[K];
    Hidden[J] = squash(Sum);
  }
  backpropHiddenStep(Hidden, Hid, HiddenWeights, HiddenPrev, Target,
                     HiddenDelta);
#pragma omp parallel for schedule(static)
  for (int J = 1; J <= Hid; ++J)
    for (int K = 0; K <= In; ++K) {
      float Dw = Eta * HiddenDelta[J] * Input[K] +
                 Momentum * Prev[size_t(K) * Stride + J];
      Weights[size_t(K) * Stride + J] += Dw;
      Prev[size_t(K) * Stride + J] = Dw;
    }
}
