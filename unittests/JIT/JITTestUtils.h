//===- JITTestUtils.h - Helpers of the JIT tests ----------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_UNITTESTS_JIT_JITTESTUTILS_H
#define OFFLOAD_UNITTESTS_JIT_JITTESTUTILS_H

#include "OffloadJIT/OffloadJIT.h"

#include <cstdint>
#include <string>

namespace offload_jit_test {

/// The kernels of the JIT tests: `scale` multiplies by a runtime-constant
/// scalar; `poly` evaluates a cubic whose coefficients are runtime-constant
/// contents; `offset` adds a runtime-constant integer; `iota` writes the
/// global thread id (block-size specialization only); `reverse` reverses
/// each block's elements through a workgroup attribution (blocks of at most
/// 64 threads).
extern const char *const KernelsSource;

/// A 1-D float memref as packed in kernel arguments.
struct MemRef1D {
  float *Allocated;
  float *Aligned;
  int64_t Offset, Size, Stride;
};
inline MemRef1D view(float *Data, int64_t Size) {
  return {Data, Data, 0, Size, 1};
}

struct ScaleArgs {
  MemRef1D X;
  float S;
};
struct PolyArgs {
  MemRef1D X;
  MemRef1D Coefficients; // memref<4xf32>
};
struct OffsetArgs {
  MemRef1D X;
  int32_t K;
};

inline offload_kernel_launch_size_args_t sizes(uint32_t Blocks,
                                               uint32_t Threads) {
  offload_kernel_launch_size_args_t S{};
  S.Dimensions = 1;
  S.NumGroups = {Blocks, 1, 1};
  S.GroupSize = {Threads, 1, 1};
  return S;
}

inline offload_jit_stats_t stats() {
  offload_jit_stats_t S{};
  offloadJITGetStats(&S);
  return S;
}

inline std::string describe(offload_result_t R) {
  return R ? std::string(offloadErrcName(R->Code)) + ": " + R->Details
           : "OFFLOAD_SUCCESS";
}

} // namespace offload_jit_test

#define ASSERT_OK(Call)                                                        \
  do {                                                                         \
    offload_result_t Result_ = (Call);                                         \
    ASSERT_EQ(Result_, OFFLOAD_SUCCESS)                                        \
        << #Call << " -> " << offload_jit_test::describe(Result_);             \
  } while (0)

#endif // OFFLOAD_UNITTESTS_JIT_JITTESTUTILS_H
