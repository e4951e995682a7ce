//===- NativeBaselines.h - Native versions of the bench kernels -*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The native baselines of offload-jit-bench (bench/README.md): each of the
// eight kernels of bench/kernels written in C++ for the CPU (one GPU thread
// = one iteration of the outer loop, serial) and compiled with clang++-22
// -O3 -march=native (NativeBaselines.cpp), in two versions:
//
//   Generic      every value is read from the kernel's packed arguments at
//                run time, as the generic JIT kernel does;
//   Specialized  the values the JIT's specialization folds for the
//                benchmark's inputs (the kernel's offload.runtime_constant
//                scalars and contents tables, Scale::Bench) are compile-time
//                constants (static constexpr members of a parameter type
//                the kernel template is instantiated with), so that clang
//                folds, unrolls and vectorizes with them.
//
// The ratio of the two is what specialization gains a C++ compiler: the
// headroom against which the JIT's specialized/generic ratio is judged.
// Both versions perform the kernel's floating-point operations in the
// kernel's order (the file is compiled with -ffp-contract=off), so their
// results equal the JIT kernels' within the cases' tolerances.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_NATIVEBASELINES_H
#define OFFLOAD_BENCH_NATIVEBASELINES_H

#include <string>

namespace offload_bench {

enum class NativeVersion { Generic, Specialized };

/// One run of a native kernel over all of its elements, on the kernel's
/// packed argument buffer (ArgPack's layout, the same bytes the JIT kernel
/// is launched with). It writes the buffers the arguments point to.
using NativeKernel = void (*)(const void *Args);

/// The native version \p Version of the benchmark kernel of case \p Case
/// (KernelCase::name(): "adam", ..., "matmul") for the packed arguments
/// \p Args. Returns null with a message in \p Error when there is no such
/// case, or, for Specialized, when a value the version has as a constant
/// differs from the arguments' (it is compiled for Scale::Bench's inputs).
NativeKernel getNativeKernel(const std::string &Case, NativeVersion Version,
                             const void *Args, std::string &Error);

} // namespace offload_bench

#endif // OFFLOAD_BENCH_NATIVEBASELINES_H
