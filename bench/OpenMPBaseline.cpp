//===- OpenMPBaseline.cpp - Native baselines of the host runtime bench ----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The OpenMP side of offload-host-runtime-bench, the only file compiled with
// -fopenmp (LLVM's libomp): a `#pragma omp parallel for` whose iterations do
// what one block of an empty kernel does, a call that the compiler cannot
// remove.
//
//===----------------------------------------------------------------------===//

#include "OpenMPBaseline.h"

#include <omp.h>

/// One iteration's work: nothing, but not optimized away.
__attribute__((noinline)) static void emptyIteration(int I) {
  asm volatile("" : : "r"(I) : "memory");
}

void offload_bench::ompParallelFor(int Iterations) {
#pragma omp parallel for schedule(static)
  for (int I = 0; I < Iterations; ++I)
    emptyIteration(I);
}

int offload_bench::ompMaxThreads() { return omp_get_max_threads(); }
