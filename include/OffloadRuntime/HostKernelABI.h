//===- HostKernelABI.h - Contract between host kernels and runtime -*- C
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The binary contract between kernels compiled for the `#offload.host` target
// (lib/Target/Host, via `convert-gpu-to-offload-host`) and the host plugin of
// the runtime (lib/Runtime/plugins/host). Both sides include this header; the
// compiler side mirrors these layouts in LLVM dialect types.
//
// A host program is an ELF relocatable object. For every kernel `K` of the
// `gpu.module` it defines a global `__offload_kernel.K` holding an
// offload_host_kernel_descriptor_t. offloadGetSymbol(Program, "K", KERNEL)
// finds it.
//
// Execution model. Blocks of a grid run in parallel on a pool of worker
// threads and the launching thread. The threads of one block run on one OS
// thread:
//  - kernels without barriers, shuffles or reductions ("non-cooperative") run
//    through RunBlock, a compiled loop over the block's threads: they pay
//    nothing for cooperation;
//  - cooperative kernels (Flags & OFFLOAD_HOST_KERNEL_COOPERATIVE) run each
//    thread of the block as a fiber through RunThread; gpu.barrier and
//    gpu.shuffle call back into the runtime, which switches fibers. The
//    descriptor's CooperativeReason says why (OFFLOAD_TRACE=1 prints it).
//
// Version history: 2 added the argument layout; 3 added CooperativeReason
// and the barrier id argument of __offload_host_barrier (barriers used to be
// identified by their call's return address, which breaks when the optimizer
// duplicates a barrier call). The runtime loads only kernels of its version.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_HOSTKERNELABI_H
#define OFFLOADRUNTIME_HOSTKERNELABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Version of this contract, stored in each descriptor.
#define OFFLOAD_HOST_KERNEL_ABI_VERSION 4u

/// Prefix of kernel descriptor symbols in a host object.
#define OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX "__offload_kernel."

/// The largest packed argument buffer a kernel may declare (ArgumentsSize),
/// in bytes: the runtime copies and pads the buffer of every queued launch,
/// and refuses a descriptor above this (or above what its argument layout
/// needs) as a corrupt binary.
#define OFFLOAD_HOST_KERNEL_MAX_ARGUMENTS_SIZE (1u << 20)

/// Descriptor flag: the kernel synchronizes threads of a block (barriers,
/// shuffles, subgroup or block reductions) and must run on fibers.
#define OFFLOAD_HOST_KERNEL_COOPERATIVE 1u

/// Per-block state handed to every kernel entry. Field order and types are
/// part of the ABI (all 8-byte fields, no padding).
typedef struct offload_host_kernel_context_t {
  int64_t BlockId[3];  ///< gpu.block_id x, y, z
  int64_t BlockDim[3]; ///< gpu.block_dim x, y, z (threads per block)
  int64_t GridDim[3];  ///< gpu.grid_dim x, y, z (blocks per grid)
  /// Static shared (workgroup) memory of this block: StaticSharedBytes bytes,
  /// 64-byte aligned, zero-initialized content is not guaranteed.
  void *SharedMemory;
  /// Dynamic shared memory of this block (the launch's DynSharedMemory bytes),
  /// 64-byte aligned; what gpu.dynamic_shared_memory returns.
  void *DynamicSharedMemory;
  /// Runtime state of the block's fibers; null for non-cooperative kernels.
  void *Cooperative;
} offload_host_kernel_context_t;

/// Runs every thread of the block (x fastest) in a loop.
typedef void (*offload_host_block_fn_t)(const void *Args,
                                        offload_host_kernel_context_t *Ctx);
/// Runs one thread (\p Tx, \p Ty, \p Tz) of the block.
typedef void (*offload_host_thread_fn_t)(const void *Args,
                                         offload_host_kernel_context_t *Ctx,
                                         int64_t Tx, int64_t Ty, int64_t Tz);

/// The descriptor the object defines for each kernel (symbol
/// OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX + kernel name). `Args` is the packed
/// argument buffer of offloadLaunchKernel.
typedef struct offload_host_kernel_descriptor_t {
  uint32_t Version; ///< OFFLOAD_HOST_KERNEL_ABI_VERSION
  uint32_t Flags;   ///< OFFLOAD_HOST_KERNEL_* bits
  /// Workgroup memory per block in bytes, exactly what the kernel uses (the
  /// device's shared memory limit counts it, unrounded).
  uint64_t StaticSharedBytes;
  /// Size of the packed argument buffer in bytes: at most
  /// OFFLOAD_HOST_KERNEL_MAX_ARGUMENTS_SIZE and, with a recorded layout, the
  /// end of the last argument rounded up to the buffer's alignment.
  uint64_t ArgumentsSize;
  offload_host_block_fn_t RunBlock;
  /// The fiber entry of one thread: set for cooperative kernels that run on
  /// fibers; null otherwise (thread-loops and non-cooperative kernels run
  /// through RunBlock, and generated code leaves it out so that the body is
  /// compiled once, into the block loop).
  offload_host_thread_fn_t RunThread;
  const char *Name; ///< the kernel's name, NUL-terminated
  /// Layout of the packed argument buffer, one entry per lowered argument (a
  /// memref counts 3 + 2 * rank): NumArguments offsets and sizes in bytes.
  /// Lets a caller that has one pointer per argument (cuLaunchKernel-style,
  /// e.g. the mgpu* ABI) build the buffer. Null when unknown (NumArguments 0).
  uint64_t NumArguments;
  const uint64_t *ArgumentOffsets;
  const uint64_t *ArgumentSizes;
  /// For cooperative kernels, a NUL-terminated sentence saying why the kernel
  /// runs on fibers (e.g. "the kernel synchronizes threads with gpu.barrier
  /// or gpu.shuffle"); null for other kernels.
  const char *CooperativeReason;
  /// The block and grid sizes the kernel was compiled for (gpu.func's
  /// known_block_size and known_grid_size, e.g. a run-time specialization),
  /// in threads and blocks per dimension x, y, z; all zero when any size
  /// runs. A launch of other sizes fails with OFFLOAD_ERRC_INVALID_ARGUMENT.
  uint32_t RequiredGroupSize[3];
  uint32_t RequiredNumGroups[3];
} offload_host_kernel_descriptor_t;

/// gpu.shuffle modes, as passed to __offload_host_shuffle.
enum offload_host_shuffle_mode_t {
  OFFLOAD_HOST_SHUFFLE_XOR = 0,
  OFFLOAD_HOST_SHUFFLE_UP = 1,
  OFFLOAD_HOST_SHUFFLE_DOWN = 2,
  OFFLOAD_HOST_SHUFFLE_IDX = 3,
};

/// Subgroup (warp) size of the host device, in threads.
#define OFFLOAD_HOST_SUBGROUP_SIZE 32

//===----------------------------------------------------------------------===//
// Functions a cooperative kernel calls; defined by the runtime's host plugin
// and resolved when the program is loaded.
//===----------------------------------------------------------------------===//

/// gpu.barrier: returns once every thread of the block that has not exited
/// has reached a barrier. \p BarrierId identifies the gpu.barrier op: a
/// compile-time constant, distinct for distinct barriers of a kernel and
/// identical for every copy the optimizer makes of one call. Threads that
/// wait at barriers with different ids (divergent barriers) make the launch
/// fail with a deadlock error naming both threads and both ids.
void __offload_host_barrier(offload_host_kernel_context_t *Ctx,
                            uint32_t BarrierId);

/// gpu.shuffle on the low \p BitWidth (32 or 64) bits of \p Value among the
/// lanes of the calling thread's warp that reach a shuffle together (lane =
/// linear thread id % 32). Returns the value of the source lane; writes 1 to
/// \p Valid if the source lane is < \p Width (>= 0 for UP) and took part,
/// else 0 and returns \p Value.
uint64_t __offload_host_shuffle(offload_host_kernel_context_t *Ctx,
                                uint64_t Value, int32_t Offset, int32_t Width,
                                int32_t Mode, int8_t *Valid);

/// A failing cf.assert of a kernel (CUDA's device-side assert): prints
/// "<File>:<Line>: <Function>: block: [x,y,z], thread: [x,y,z] Assertion
/// `<Message>` failed." on stdout and marks the launch that runs the block
/// failed (its launch, or the queue's next synchronization, reports
/// OFFLOAD_ERRC_BACKEND_FAILURE). The calling thread then returns from its
/// body; other threads are unaffected.
void __offload_host_assert_fail(const char *Message, const char *File,
                                uint32_t Line, const char *Function,
                                int64_t BlockX, int64_t BlockY, int64_t BlockZ,
                                int64_t ThreadX, int64_t ThreadY,
                                int64_t ThreadZ);

/// An out-of-bounds access found by offload-check-memory-accesses: prints
/// "========= <Location>: out-of-bounds <Op> in kernel '<Kernel>', block:
/// [x,y,z], thread: [x,y,z]: index <Index> of dimension <Dim> is not below its
/// size <Size>" on stdout and marks the launch failed, like
/// __offload_host_assert_fail; the kernel then skips the access (a load
/// yields zero) and the thread goes on. Only a thread's first bad access of
/// a launch is printed and counted.
void __offload_host_bounds_fail(const char *Location, const char *Op,
                                const char *Kernel, int64_t Dim, int64_t Index,
                                int64_t Size, int64_t BlockX, int64_t BlockY,
                                int64_t BlockZ, int64_t ThreadX,
                                int64_t ThreadY, int64_t ThreadZ);

/// Flags of __offload_host_check_access and __offload_host_check_barrier.
enum {
  OFFLOAD_HOST_CHECK_WRITE = 1,      ///< the access writes
  OFFLOAD_HOST_CHECK_WORKGROUP = 2,  ///< the access is to workgroup memory
  OFFLOAD_HOST_CHECK_VALUE = 4,      ///< Value holds what a scalar write writes
  OFFLOAD_HOST_CHECK_COLLECTIVE = 1, ///< a gpu.all_reduce, not a gpu.barrier
  OFFLOAD_HOST_CHECK_SYNC = 2,       ///< the kernel is checked by synccheck
};

/// racecheck (offload-check-races): thread (ThreadX, ThreadY, ThreadZ) of
/// the running block is about to access \p Count elements of \p Bytes bytes
/// each from address \p Address (the element of linear index \p Index of
/// its memref), at \p Location ("file:line:col") of kernel \p Kernel;
/// \p Flags holds
/// OFFLOAD_HOST_CHECK_WRITE, OFFLOAD_HOST_CHECK_WORKGROUP and, for a scalar
/// write of \p Value (its bits, zero-extended), OFFLOAD_HOST_CHECK_VALUE: a
/// write of the value the memory already holds is no hazard. A hazard with
/// another thread's access of the same barrier interval is printed on
/// stdout in compute-sanitizer's shape and fails the launch; the access
/// itself happens after the call.
void __offload_host_check_access(const char *Location, const char *Kernel,
                                 int64_t Address, int64_t Bytes, int64_t Count,
                                 int64_t Flags, int64_t Index, int64_t Value,
                                 int64_t ThreadX, int64_t ThreadY,
                                 int64_t ThreadZ);

/// racecheck and synccheck: the thread is about to synchronize with its
/// block at \p Location (a gpu.barrier, or a gpu.all_reduce with
/// OFFLOAD_HOST_CHECK_COLLECTIVE), which ends its barrier interval.
void __offload_host_check_barrier(const char *Location, const char *Kernel,
                                  int64_t Flags, int64_t ThreadX,
                                  int64_t ThreadY, int64_t ThreadZ);

/// Flags of __offload_host_check_init.
enum {
  OFFLOAD_HOST_CHECK_INIT_READ = 1,  ///< the access reads
  OFFLOAD_HOST_CHECK_INIT_WRITE = 2, ///< the access writes (both: atomics)
};

/// initcheck (offload-check-initialization): thread (ThreadX, ThreadY,
/// ThreadZ) of the running block is about to access the \p Bytes bytes at
/// \p Address at \p Location ("file:line:col") of kernel \p Kernel, reading,
/// writing or both as \p Flags says. A read of bytes of an offloadMemAlloc
/// allocation that no copy, fill or kernel store wrote is printed on stdout
/// in compute-sanitizer's shape (once per launch, location and allocation)
/// and fails the launch; a write marks the bytes written. Addresses outside
/// the host device's allocations are not checked.
void __offload_host_check_init(const char *Location, const char *Kernel,
                               int64_t Address, int64_t Bytes, int64_t Flags,
                               int64_t ThreadX, int64_t ThreadY,
                               int64_t ThreadZ);

/// initcheck: whether the accesses of a memref whose aligned pointer is
/// \p Address must call __offload_host_check_init: nonzero while the
/// tracked allocation containing it has bytes nothing wrote (or tracking has
/// not started), 0 once every byte was written or when no tracked
/// allocation contains it. Within a launch the answer only goes from
/// nonzero to 0, so the instrumentation declares it without effects on
/// memory and LLVM computes it once per loop nest.
int32_t __offload_host_check_init_pending(int64_t Address);

/// initcheck: allocations of the host device made from now on are tracked
/// (what OFFLOAD_CHECK=init does from the start). libOffloadJIT calls it
/// when it creates a program whose kernels are instrumented for initcheck.
void __offload_host_check_init_start(void);

/// initcheck: an access the instrumentation cannot describe may write the
/// allocation \p Address points into; all of it is marked written.
void __offload_host_check_init_write_all(int64_t Address);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // OFFLOADRUNTIME_HOSTKERNELABI_H
