//===- BenchKernels.h - Inputs and references of the benchmark kernels -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The benchmark kernels of bench/kernels/*.mlir as runnable cases: for each,
// deterministic inputs, the packed kernel arguments, the launch geometry and
// a C++ reference implementation. Shared by the benchmark (offload-jit-bench)
// and its correctness test (unittests/Bench), so that what is timed is what is
// checked.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_BENCHKERNELS_H
#define OFFLOAD_BENCH_BENCHKERNELS_H

#include "ArgPack.h"

#include "OffloadRuntime/OffloadAPI.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace offload_bench {

/// One output of a kernel, read back as doubles for comparison.
struct Output {
  std::string Name;
  const void *Data = nullptr;
  size_t Count = 0;
  bool IsDouble = false;
  /// Allowed relative difference to the C++ reference (an absolute floor of
  /// AbsTolerance). Generic and specialized results must agree exactly
  /// unless SpecializedMayDiffer.
  double RelTolerance = 0, AbsTolerance = 0;
  bool SpecializedMayDiffer = false;

  std::vector<double> values() const;
};

/// Problem sizes: small for tests, large enough to time for benchmarks.
enum class Scale { Test, Bench };

/// One benchmark kernel with its inputs.
class KernelCase {
public:
  virtual ~KernelCase() = default;

  /// Short name ("adam"), MLIR file under bench/kernels and kernel symbol.
  virtual const char *name() const = 0;
  virtual const char *file() const = 0;
  virtual const char *kernel() const = 0;
  /// The program the model follows and what is specialized (one line).
  virtual const char *description() const = 0;

  /// Restores every buffer (inputs and outputs) to its initial contents.
  virtual void reset() = 0;
  /// Computes in C++ what one launch computes, on the buffers as reset()
  /// leaves them (outputs written in place, like the kernel).
  virtual void reference() = 0;
  /// The buffers a launch writes.
  virtual std::vector<Output> outputs() const = 0;

  const ArgPack &args() const { return Args; }
  const offload_kernel_launch_size_args_t &launchSizes() const { return Sizes; }

protected:
  ArgPack Args;
  offload_kernel_launch_size_args_t Sizes{};
  void setSizes(uint32_t BlocksX, uint32_t BlocksY, uint32_t ThreadsX,
                uint32_t ThreadsY) {
    Sizes.Dimensions = ThreadsY > 1 || BlocksY > 1 ? 2 : 1;
    Sizes.NumGroups = {BlocksX, BlocksY, 1};
    Sizes.GroupSize = {ThreadsX, ThreadsY, 1};
    Sizes.DynSharedMemory = 0;
  }
};

/// The eight benchmark kernels, in a fixed order.
std::vector<std::unique_ptr<KernelCase>> createKernelCases(Scale S);

/// The contents of file \p Name of \p Directory ("" and a message in
/// \p Error when unreadable).
std::string readKernelFile(const std::string &Directory,
                           const std::string &Name, std::string &Error);

} // namespace offload_bench

#endif // OFFLOAD_BENCH_BENCHKERNELS_H
