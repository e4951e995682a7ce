//===- HostKernels.h - Host kernels against native C++ ----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The kernels of bench/host/kernels/*.mlir as runnable cases: for each,
// deterministic inputs, the packed kernel arguments and launch geometry, a
// native C++ baseline of the same algorithm (NativeKernels.h: OpenMP, -O3
// -march=native) and a straightforward serial C++ reference. Each case keeps
// three copies of its outputs (what the kernel wrote, what the baseline
// wrote, what the reference wrote) so that any two can be compared. Shared by
// offload-host-bench and its correctness test (unittests/Bench), so that what
// is timed is what is checked.
//
// Every input is a small integer (or a byte), so that every result, also of
// the floating-point kernels, is an integer below 2^24 whatever the order of
// the additions: outputs are compared exactly.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_HOST_HOSTKERNELS_H
#define OFFLOAD_BENCH_HOST_HOSTKERNELS_H

#include "ArgPack.h"

#include "OffloadRuntime/OffloadAPI.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace offload_bench {
namespace host {

/// A 64-byte aligned array (the kernel and the baseline get the same
/// alignment), zero-initialized. With OFFLOAD_HOST_BENCH_MEMORY=managed
/// (and the runtime initialized) it is an offloadMemAlloc managed
/// allocation of the host device, which initcheck tracks
/// (bench/run-check-cost.sh); otherwise host memory the runtime does not
/// know.
template <typename T> class Buffer {
public:
  Buffer() = default;
  explicit Buffer(size_t Count) : Count(Count) {
    size_t Bytes = (std::max<size_t>(Count * sizeof(T), 1) + 63) / 64 * 64;
    offload_device_handle_t Host = nullptr;
    const char *Memory = std::getenv("OFFLOAD_HOST_BENCH_MEMORY");
    void *Managed = nullptr;
    if (Memory && std::string(Memory) == "managed" &&
        offloadGetHostDevice(&Host) == OFFLOAD_SUCCESS &&
        offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_MANAGED, Bytes, &Managed) ==
            OFFLOAD_SUCCESS)
      Data = static_cast<T *>(Managed);
    else
      Data = static_cast<T *>(std::aligned_alloc(64, Bytes));
    Owned = Managed != nullptr;
    if (!Data)
      std::abort();
    std::fill(Data, Data + Count, T());
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() {
    if (!Owned)
      std::free(Data);
    else // (fails once the runtime is shut down: the process is ending)
      (void)offloadMemFree(Data);
  }

  T *data() { return Data; }
  const T *data() const { return Data; }
  size_t size() const { return Count; }
  T &operator[](size_t I) { return Data[I]; }
  const T &operator[](size_t I) const { return Data[I]; }
  T *begin() { return Data; }
  T *end() { return Data + Count; }

private:
  T *Data = nullptr;
  size_t Count = 0;
  /// Whether Data is an offloadMemAlloc allocation.
  bool Owned = false;
};

/// Who computed a copy of the outputs.
enum class Producer { Ours, Native, Reference };

/// One output of a kernel, in its three copies.
struct OutputBuffers {
  std::string Name;
  enum Kind { F32, I32 } Type = F32;
  size_t Count = 0;
  const void *Ours = nullptr, *Native = nullptr, *Reference = nullptr;
  const void *of(Producer P) const {
    return P == Producer::Ours     ? Ours
           : P == Producer::Native ? Native
                                   : Reference;
  }
};

/// One equivalent form of a case's kernel (bench/host/kernels/forms): the
/// same algorithm on the same buffers, written another way (2-D memrefs,
/// static shapes, subviews, i32 arithmetic, gpu.global_id, no bounds check,
/// affine ops, ...). A form writes the case's Ours outputs, so that it is
/// checked against the case's native baseline and reference like the case's
/// own kernel.
struct KernelForm {
  /// Short name ("2d_static"); "base" is the case's own kernel file.
  std::string Name;
  /// The MLIR file, relative to bench/host/kernels ("forms/<case>/<form>.mlir"
  /// or, for base, the case's file).
  std::string File;
  /// The gpu.func symbol.
  std::string Kernel;
  /// Its arguments, over the case's buffers.
  ArgPack Args;
  offload_kernel_launch_size_args_t Sizes{};
  /// Whole numbers of the file replaced before compiling, {from, to}: a
  /// static-shape form is written at the benchmark's full size (512 x 512
  /// matrices, ...) and gets the case's size this way (a number is replaced
  /// only where it is not part of a longer number or name).
  std::vector<std::pair<std::string, std::string>> Substitutions;
  /// The source with the substitutions applied.
  std::string specialize(const std::string &Source) const;
};

/// One kernel with its inputs and outputs.
class HostKernelCase {
public:
  virtual ~HostKernelCase() = default;

  /// Short name ("tiled_matmul"), MLIR file under bench/host/kernels and
  /// kernel symbol.
  virtual const char *name() const = 0;
  virtual const char *file() const = 0;
  virtual const char *kernel() const = 0;
  /// Whether the kernel synchronizes its threads (gpu.barrier, gpu.shuffle,
  /// gpu.all_reduce): the cooperative kernels whose speed barrier fission is
  /// about.
  virtual bool cooperative() const = 0;
  /// The group of the benchmark's geometric means: "cooperative",
  /// "barrier-free" or "subgroup-mma".
  virtual const char *group() const {
    return cooperative() ? "cooperative" : "barrier-free";
  }
  /// The problem, for labels and tables ("n=16777216 f32").
  std::string problem() const { return Problem; }
  /// Elements processed per launch (the benchmark's items).
  uint64_t items() const { return Items; }

  /// Restores the inputs the kernel overwrites and clears every copy of the
  /// outputs.
  virtual void reset() = 0;
  /// What must precede every launch of the kernel and is part of its time
  /// (zeroing an output the kernel accumulates into); nothing by default.
  virtual void beforeLaunch() {}
  /// Runs the native baseline (including what beforeLaunch does for the
  /// kernel) into the Native copy of the outputs.
  virtual void runNative() = 0;
  /// Runs the serial reference into the Reference copy of the outputs.
  virtual void runReference() = 0;
  virtual std::vector<OutputBuffers> outputs() const = 0;

  const ArgPack &args() const { return Args; }
  const offload_kernel_launch_size_args_t &launchSizes() const { return Sizes; }

  /// The equivalent forms of the kernel that fit the case's problem (a form
  /// without bounds checks only when the problem is a multiple of the
  /// block), the first being "base" (file(), kernel(), args(),
  /// launchSizes()); empty for the kernels that have no forms.
  virtual std::vector<KernelForm> forms() const { return {}; }
  /// Makes \p F the kernel that offload-host-bench launches for this case:
  /// its arguments and launch sizes replace args() and launchSizes().
  void useForm(const KernelForm &F) {
    Args = F.Args;
    Sizes = F.Sizes;
  }

protected:
  ArgPack Args;
  offload_kernel_launch_size_args_t Sizes{};
  std::string Problem;
  uint64_t Items = 0;
  void setSizes(uint32_t BlocksX, uint32_t BlocksY, uint32_t ThreadsX,
                uint32_t ThreadsY) {
    Sizes = makeSizes(BlocksX, BlocksY, ThreadsX, ThreadsY);
  }
  static offload_kernel_launch_size_args_t makeSizes(uint32_t BlocksX,
                                                     uint32_t BlocksY,
                                                     uint32_t ThreadsX,
                                                     uint32_t ThreadsY) {
    offload_kernel_launch_size_args_t S{};
    S.Dimensions = ThreadsY > 1 || BlocksY > 1 ? 2 : 1;
    S.NumGroups = {BlocksX, BlocksY, 1};
    S.GroupSize = {ThreadsX, ThreadsY, 1};
    S.DynSharedMemory = 0;
    return S;
  }

public:
  /// The form "base": the case's own kernel.
  KernelForm baseForm() const {
    KernelForm F;
    F.Name = "base";
    F.File = file();
    F.Kernel = kernel();
    F.Args = Args;
    F.Sizes = Sizes;
    return F;
  }

protected:
  /// The form \p Name of forms/<name()>/<Name>.mlir, kernel symbol \p Kernel
  /// (default: the case's), with the case's launch sizes.
  KernelForm form(const std::string &Name, ArgPack FormArgs,
                  std::string Kernel = "") const {
    KernelForm F;
    F.Name = Name;
    F.File = std::string("forms/") + name() + "/" + Name + ".mlir";
    F.Kernel = Kernel.empty() ? std::string(kernel()) : Kernel;
    F.Args = std::move(FormArgs);
    F.Sizes = Sizes;
    return F;
  }
};

/// "" when copies \p A and \p B of every output of \p Case are equal, else
/// which elements differ (the count and the first few).
std::string compareOutputs(const HostKernelCase &Case, Producer A, Producer B);
const char *producerName(Producer P);

//===----------------------------------------------------------------------===//
// The kernels, at any size
//===----------------------------------------------------------------------===//

/// 1. y = a x + y over \p N floats; 256 threads per block.
std::unique_ptr<HostKernelCase> createSaxpy(size_t N);
/// 2. 3-point stencil over \p N floats (ends copied); 256 threads per block.
std::unique_ptr<HostKernelCase> createStencil3(size_t N);
/// 3. C = A B (M x K times K x N), one thread per element of C, 16 x 16
/// blocks; the baseline is the vectorized i-k-j loop order.
std::unique_ptr<HostKernelCase> createNaiveMatmul(size_t M, size_t N, size_t K);
/// 4. The same product with 16 x 16 tiles in workgroup memory, two barriers
/// per tile; the baseline is the same tiled algorithm.
std::unique_ptr<HostKernelCase> createTiledMatmul(size_t M, size_t N, size_t K);
/// 5. Per-block sums of \p N floats with gpu.all_reduce, \p BlockSize threads
/// per block.
std::unique_ptr<HostKernelCase> createBlockSum(size_t N, uint32_t BlockSize);
/// 6. The same sums with a gpu.shuffle xor tree per warp, warp sums combined
/// through workgroup memory and a barrier. \p BlockSize: a multiple of 32, at
/// most 1024.
std::unique_ptr<HostKernelCase> createWarpReduce(size_t N, uint32_t BlockSize);
/// 7. Transpose of a \p Rows x \p Cols matrix through a 32 x 33 workgroup
/// tile, 32 x 8 threads per block.
std::unique_ptr<HostKernelCase> createTranspose(size_t Rows, size_t Cols);
/// 8. Inclusive scan of every 1024-element block of \p N i32 (Hillis-Steele,
/// 1024 threads per block).
std::unique_ptr<HostKernelCase> createBlockScan(size_t N);
/// 9. 256-bin histogram of \p N bytes with workgroup atomics merged by
/// global atomics; 256 threads per block (\p BlockSize), a grid-stride loop
/// over about \p PerThread bytes per thread.
std::unique_ptr<HostKernelCase> createHistogram(size_t N, uint32_t BlockSize,
                                                size_t PerThread);

/// 10. C = A B for f16 A and B and f32 C, 1024 x 1024 each (the sizes are
/// the kernel's leadDimension attributes), one subgroup per 16 x 16 tile of
/// C with gpu.subgroup_mma_* ops, 4 subgroups (128 threads) per block.
std::unique_ptr<HostKernelCase> createWmmaMatmul();

/// Benchmark sizes multiplied by a factor of the work.
struct BenchScale {
  /// Factor of the barrier-free kernels (1-3) and of the cooperative ones
  /// (4-9).
  double BarrierFree = 1, Cooperative = 1;
};

/// The ten kernels at the benchmark's sizes (bench/README.md) scaled by
/// \p Scale (the WMMA product has one size): element counts of the 1-D problems
/// times the factor, the sides of the transposed matrix times its square root
/// and those of the matrix products times its cube root (rounded to whole
/// tiles, at least one).
std::vector<std::unique_ptr<HostKernelCase>> createBenchCases(BenchScale Scale);

} // namespace host
} // namespace offload_bench

#endif // OFFLOAD_BENCH_HOST_HOSTKERNELS_H
