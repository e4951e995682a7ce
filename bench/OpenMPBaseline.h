//===- OpenMPBaseline.h - OpenMP baselines of the bench ---------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// OpenMP entry points of offload-host-runtime-bench (OpenMPBaseline.cpp, the
// only file built with -fopenmp).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_OPENMPBASELINE_H
#define OFFLOAD_BENCH_OPENMPBASELINE_H

namespace offload_bench {

/// `#pragma omp parallel for schedule(static)` over \p Iterations empty
/// iterations (each a call the compiler keeps).
void ompParallelFor(int Iterations);

/// The number of threads a parallel region uses.
int ompMaxThreads();

} // namespace offload_bench

#endif // OFFLOAD_BENCH_OPENMPBASELINE_H
