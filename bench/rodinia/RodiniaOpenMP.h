//===- RodiniaOpenMP.h - OpenMP versions of the Rodinia programs -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The baselines of offload-rodinia-bench (bench/README.md): each program's
// algorithm as Rodinia 3.1's OpenMP version computes it, written anew in C++
// (RodiniaOpenMP.cpp, built with -O3, OFFLOAD_BENCH_NATIVE_FLAGS and OpenMP),
// and the serial host steps that the GPU versions run on the host between
// kernel launches (kmeans' new centers, srad's q0sqr, nn's selection), built
// the same way and shared by both versions. Sizes are element counts;
// matrices are row-major.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_RODINIAOPENMP_H
#define OFFLOAD_BENCH_RODINIAOPENMP_H

#include <cstdint>

namespace offload_bench {
namespace rodinia {

/// hotspot: Iterations explicit Euler steps of the rows x cols temperature
/// grid (rows and cols multiples of 16) in 16 x 16 chunks; the result is in
/// Temp (Scratch: rows x cols floats). StepDivCap = step / Cap, R*1 = 1 / R*.
void hotspotOpenMP(float *Temp, float *Scratch, const float *Power, int Rows,
                   int Cols, int Iterations, float StepDivCap, float Rx1,
                   float Ry1, float Rz1);

/// pathfinder: the cheapest path costs to each column of the last row of the
/// Rows x Cols Wall, in Result (Cols ints; Scratch: Cols ints).
void pathfinderOpenMP(const int32_t *Wall, int Rows, int Cols, int32_t *Result,
                      int32_t *Scratch);

/// nw: fills the N x N score matrix Items (first row and column set) from the
/// reference scores Ref, 16 x 16 blocks along anti-diagonals ((N - 1) a
/// multiple of 16).
void nwOpenMP(int32_t *Items, const int32_t *Ref, int N, int Penalty);

/// lud: in-place LU decomposition of the N x N matrix A (N a multiple of 16),
/// 16 x 16 blocks.
void ludOpenMP(float *A, int N);

/// bfs: levels from the nodes whose Mask is set (Cost 0 there, -1 elsewhere,
/// Visited set at the sources); Nodes holds (first edge, count) pairs.
void bfsOpenMP(const int32_t *Nodes, const int32_t *Edges, int N, uint8_t *Mask,
               uint8_t *Updating, uint8_t *Visited, int32_t *Cost);

/// nn: the distance of each of the N (lat, lng) records to (Lat, Lng).
void nnDistancesOpenMP(const float *Locations, float *Distances, int N,
                       float Lat, float Lng);
/// nn, serial: the indices of the K smallest Distances, ascending (first of
/// equal ones), in Nearest.
void nnSelect(const float *Distances, int N, int K, int32_t *Nearest);

/// kmeans, serial (the host step of the GPU version): counts the points whose
/// Membership differs from Previous (then copies it there) and recomputes the
/// NClusters x NFeatures Clusters as the means of their points (Features:
/// NPoints x NFeatures, point-major; a cluster without points keeps its
/// center). Returns the count.
int kmeansCenters(const float *Features, int NPoints, int NFeatures,
                  int NClusters, const int32_t *Membership, int32_t *Previous,
                  float *Clusters);
/// kmeans: Rodinia's OpenMP loop: at most MaxIterations assignment steps
/// (Membership: NPoints, initially -1) and center updates with per-thread
/// partial sums, until no point changes cluster. Returns the iterations.
int kmeansOpenMP(const float *Features, int NPoints, int NFeatures,
                 int NClusters, int MaxIterations, int32_t *Membership,
                 float *Clusters);

/// srad, serial: q0sqr, the squared coefficient of variation of J over rows
/// [R1, R2] and columns [C1, C2].
float sradQ0sqr(const float *J, int Cols, int R1, int R2, int C1, int C2);
/// srad: Iterations steps of Rodinia's OpenMP srad_v2 on the Rows x Cols
/// image J; Scratch: 5 * Rows * Cols floats.
void sradOpenMP(float *J, float *Scratch, int Rows, int Cols, int Iterations,
                float Lambda, int R1, int R2, int C1, int C2);

/// backprop, serial: the hidden units from the input layer's partial sums
/// (Partial: Blocks x Hid, one row per block of 16 inputs) and the bias
/// weights (row 0 of the (In + 1) x (Hid + 1) Weights): Hidden[j] =
/// sigmoid(sum), j = 1..Hid.
void backpropHiddenUnits(const float *Partial, int Blocks, int Hid,
                         const float *Weights, float *Hidden);
/// backprop, serial: the rest of a training step after the hidden units:
/// the output unit, the output and hidden errors (HiddenDelta, Hid + 1), and
/// the hidden-to-output weights ((Hid + 1) x 2, HiddenWeights and their
/// previous changes HiddenPrev) adjusted.
void backpropHiddenStep(float *Hidden, int Hid, float *HiddenWeights,
                        float *HiddenPrev, float Target, float *HiddenDelta);
/// backprop: Rodinia's OpenMP training step on In inputs (Input: In + 1,
/// Input[0] the bias unit), Hid hidden units and one output: the input
/// layer's forward pass and weight adjustment (Weights, Prev: (In + 1) x
/// (Hid + 1)) in parallel over the hidden units, the rest serial.
void backpropOpenMP(float *Input, int In, int Hid, float *Weights, float *Prev,
                    float *Hidden, float *HiddenWeights, float *HiddenPrev,
                    float Target, float *HiddenDelta);

} // namespace rodinia
} // namespace offload_bench

#endif // OFFLOAD_BENCH_RODINIAOPENMP_H
