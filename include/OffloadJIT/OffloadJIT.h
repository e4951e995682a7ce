/*===- OffloadJIT.h - Run-time kernel specialization (C API) -----*- C -*-===*\
|*                                                                            *|
|* Part of the offload project, under the Apache License v2.0 with LLVM       *|
|* Exceptions.                                                                *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * The JIT layer of the offload runtime (libOffloadJIT): programs created from
 * MLIR (a builtin.module holding gpu.modules, as MLIR bytecode or text) whose
 * kernels are specialized at each launch on the values of their runtime
 * constants and on the launch's block size (LLNL Proteus's idea, done on MLIR
 * before lowering), then compiled for the launch's device, cached in memory
 * and on disk, loaded with offloadCreateProgram and launched with
 * offloadLaunchKernel. It links MLIR; libOffloadRuntime does not.
 *
 * Errors use the runtime's model: OFFLOAD_SUCCESS (NULL) or a pointer to a
 * {code, message} that stays valid until the process exits.
 *
 * Environment:
 *   OFFLOAD_JIT=0                 no specialization: every launch runs the
 *                                 generic kernel (compiled once, cached)
 *   OFFLOAD_JIT_ASYNC=1           a miss compiles in the background and the
 *                                 launch runs the generic kernel meanwhile
 *   OFFLOAD_JIT_THREADS=N         background compile threads (default 2)
 *   OFFLOAD_CACHE_DIR=dir         persistent cache (default
 *                                 $XDG_CACHE_HOME/offload-jit, else
 *                                 ~/.cache/offload-jit); "" disables it
 *   OFFLOAD_CACHE_MAX_BYTES=N     bound of the persistent cache (default 1
 * GiB), least recently used entries evicted OFFLOAD_JIT_DUMP=dir          write
 * each specialized kernel's IR there OFFLOAD_JIT_FOLD_GRID=1       also
 * specialize on the grid size OFFLOAD_JIT_CACHE_MPI=1       MPI ranks sharing
 * the cache directory compile each key once: its owner rank compiles, the
 * others wait for its entry (docs/JIT.md, "Many processes")
 *   OFFLOAD_JIT_CACHE_MPI_TIMEOUT=S  at most S seconds of waiting (120)
 *   OFFLOAD_JIT_STATS=1           print the counters on stderr at exit
 *   OFFLOAD_TRACE=1               one line per JIT event on stderr
 *   OFFLOAD_JIT_AUTO=1            automatic specialization: unmarked scalar
 *                                 arguments that keep their values are
 *                                 specialized on, guarded (default off;
 *                                 also offloadJITSetAutoEnabled)
 *   OFFLOAD_JIT_AUTO_THRESHOLD=N  launches in a row with the same value
 *                                 that make an argument stable (default 8)
 *   OFFLOAD_JIT_AUTO_MAX_VARIANTS=N  automatic variants per kernel
 *                                 (default 4)
 *   OFFLOAD_JIT_MEASURE=1         the first launches of a specialization
 *                                 alternate with the generic kernel, timed
 *                                 on the device's clock; the faster is kept
 *                                 (verdict kept in the disk cache)
 *   OFFLOAD_JIT_MEASURE_LAUNCHES=N  timed launches of each (default 3)
 *
 * Thread safety: every entry point may be called concurrently. A given
 * specialization is compiled once even when many threads launch it at once.
 */

#ifndef OFFLOADJIT_OFFLOADJIT_H
#define OFFLOADJIT_OFFLOADJIT_H

#include "OffloadRuntime/OffloadAPI.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct offload_jit_program_impl_t *offload_jit_program_handle_t;
typedef struct offload_jit_kernel_impl_t *offload_jit_kernel_handle_t;

/// Creates a JIT program for \p Device from MLIR (\p Size bytes at \p Module:
/// bytecode or text of a builtin.module containing gpu.modules). Nothing is
/// compiled yet. Errors: INVALID_NULL_HANDLE, INVALID_NULL_POINTER,
/// INVALID_SIZE, INVALID_BINARY (not parseable; the message holds the parser's
/// diagnostic, or names the crash of an input that crashes upstream MLIR's
/// parser or verifier, which the caller's process survives: docs/JIT.md),
/// UNSUPPORTED (a device whose platform the JIT cannot target).
OFFLOAD_API offload_result_t offloadCreateProgramFromMLIR(
    offload_device_handle_t Device, const void *Module, size_t Size,
    offload_jit_program_handle_t *Program);

/// Options of a JIT program (offloadCreateProgramFromMLIRWithOptions).
typedef struct offload_jit_program_options_t {
  /// sizeof(offload_jit_program_options_t): lets the struct grow.
  size_t Size;
  /// Host kernels bounds-check every memref access, like OFFLOAD_CHECK=1
  /// for this program only (offload-check-memory-accesses; part of the
  /// key). The same as "memcheck" in CheckTools.
  bool Check;
  /// The checking tools of this program's host kernels, in addition to
  /// those of OFFLOAD_CHECK: a comma-separated list of memcheck, race, sync,
  /// leak, or "all" (docs/HostTarget.md); NULL or "" for none. Part
  /// of the key. Options of an older size without this field are accepted.
  const char *CheckTools;
} offload_jit_program_options_t;

/// offloadCreateProgramFromMLIR with \p Options (NULL: the defaults, as
/// offloadCreateProgramFromMLIR). Errors: those of
/// offloadCreateProgramFromMLIR, INVALID_SIZE (Options->Size is not a size
/// this library knows), INVALID_VALUE (CheckTools names no tool).
OFFLOAD_API offload_result_t offloadCreateProgramFromMLIRWithOptions(
    offload_device_handle_t Device, const void *Module, size_t Size,
    const offload_jit_program_options_t *Options,
    offload_jit_program_handle_t *Program);

/// Destroys a JIT program; its compiled kernels stay cached.
OFFLOAD_API offload_result_t
offloadJITDestroyProgram(offload_jit_program_handle_t Program);

/// Looks up kernel \p Name (a gpu.func with the `kernel` attribute; with
/// several gpu.modules, "module::kernel" or the first match). Errors:
/// INVALID_NULL_HANDLE, INVALID_NULL_POINTER, NOT_FOUND.
OFFLOAD_API offload_result_t
offloadJITGetKernel(offload_jit_program_handle_t Program, const char *Name,
                    offload_jit_kernel_handle_t *Kernel);

/// Like offloadJITGetKernel on a program created from \p Image (\p ImageSize
/// bytes) for \p Device, created on first use and cached per (device, image
/// address): what compiler-generated code calls.
OFFLOAD_API offload_result_t offloadJITGetKernelFromImage(
    offload_device_handle_t Device, const void *Image, size_t ImageSize,
    const char *KernelName, offload_jit_kernel_handle_t *Kernel);

/// Launches \p Kernel like offloadLaunchKernel (same packed argument buffer
/// and sizes): reads the values of the kernel's runtime constants from the
/// buffer (arrays by content), forms the specialization key, finds or
/// compiles the specialization and launches it. Arrays marked `contents` are
/// read as the kernel would see them when it runs: a launch on \p Queue of a
/// kernel with such arrays first waits for the work enqueued before it
/// (offloadSyncQueue), and returns that work's error if it failed. A
/// specialization runs only at the block size (and, with
/// OFFLOAD_JIT_FOLD_GRID=1, the grid size) it was compiled for. Errors: those
/// of offloadLaunchKernel, INVALID_SIZE (ArgumentsSize does not match the
/// kernel's signature), COMPILE_FAILURE (with the compiler's diagnostics).
OFFLOAD_API offload_result_t offloadJITLaunchKernel(
    offload_queue_handle_t Queue, offload_device_handle_t Device,
    offload_jit_kernel_handle_t Kernel, const void *ArgumentsData,
    size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs);

/// What offloadJITLaunchKernel would launch for these arguments and sizes,
/// without launching it: the runtime kernel symbol of the specialization
/// (found or compiled, or the generic kernel when the JIT is off), written to
/// \p Symbol. Lets a caller launch it with offloadLaunchKernel directly, e.g.
/// to measure the JIT's per-launch overhead. The symbol knows the block size
/// (and folded grid size) it was specialized for: offloadLaunchKernel of it
/// at another size fails with INVALID_ARGUMENT. `contents` arrays are read
/// now. Errors: as offloadJITLaunchKernel.
OFFLOAD_API offload_result_t offloadJITGetSpecializedKernel(
    offload_device_handle_t Device, offload_jit_kernel_handle_t Kernel,
    const void *ArgumentsData, size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    offload_symbol_handle_t *Symbol);

/// The arguments of \p Kernel as text, one line per argument (each ending in
/// '\n'): its MLIR type as MLIR prints it ("memref<?xf32>", "f32", "index"),
/// followed by " runtime_constant" when the kernel marks it with
/// offload.runtime_constant, or " runtime_constant contents" when it marks an
/// array by its contents. Writes the NUL-terminated text to \p Signature
/// (\p Size bytes) unless \p Signature is NULL, and its size in bytes with
/// the NUL to \p SizeRet unless \p SizeRet is NULL. Lets bindings check and
/// pack launch arguments. Errors: INVALID_NULL_HANDLE, INVALID_SYMBOL (not a
/// live kernel), INVALID_NULL_POINTER (both pointers NULL), INVALID_SIZE
/// (\p Size too small).
OFFLOAD_API offload_result_t
offloadJITGetKernelSignature(offload_jit_kernel_handle_t Kernel, size_t Size,
                             char *Signature, size_t *SizeRet);

/// Counters of this process's JIT activity.
typedef struct offload_jit_stats_t {
  uint64_t Launches;          ///< offloadJITLaunchKernel calls
  uint64_t Compiles;          ///< specializations compiled
  uint64_t MemoryHits;        ///< launches served by the in-memory cache
  uint64_t DiskHits;          ///< compilations avoided by the disk cache
  uint64_t DiskWrites;        ///< entries written to the disk cache
  uint64_t CorruptEntries;    ///< disk entries found corrupt and rebuilt
  uint64_t GenericLaunches;   ///< launches of the generic kernel (JIT off or
                              ///< an asynchronous compile still running)
  uint64_t AsyncCompiles;     ///< compiles started in the background
  double CompileMilliseconds; ///< wall time spent compiling, all threads
  /// Automatic specialization (offloadJITSetAutoEnabled):
  uint64_t AutoVariants;     ///< variants decided (arguments found stable)
  uint64_t AutoLaunches;     ///< launches that ran a variant
  uint64_t AutoGuardMisses;  ///< launches of a kernel with variants whose
                             ///< values matched none (ran without them)
  uint64_t AutoProfileLoads; ///< variants read from the disk cache's
                             ///< profiles (decided by an earlier process)
  uint64_t AutoBoundReached; ///< kernels whose new stable values were not
                             ///< specialized: OFFLOAD_JIT_AUTO_MAX_VARIANTS
  /// Measurement against the generic kernel (OFFLOAD_JIT_MEASURE=1):
  uint64_t MeasuredLaunches; ///< launches timed
  uint64_t MeasuredFaster;   ///< specializations measured faster: kept
  uint64_t MeasuredSlower;   ///< measured slower: the generic kernel runs
  uint64_t VerdictLoads;     ///< verdicts read from the disk cache
} offload_jit_stats_t;

/// Turns specialization on or off for later launches (the initial state
/// comes from OFFLOAD_JIT); off, launches run the generic kernel.
OFFLOAD_API offload_result_t offloadJITSetEnabled(bool Enabled);

/// Turns automatic specialization on or off for later launches (the initial
/// state comes from OFFLOAD_JIT_AUTO, default off). On, the JIT watches each
/// kernel's scalar arguments (integers of 8 to 64 bits, index, floats) that
/// no offload.runtime_constant marks; once some have had the same values for
/// OFFLOAD_JIT_AUTO_THRESHOLD launches in a row, it specializes the kernel
/// on them as runtime constants (a variant; at most
/// OFFLOAD_JIT_AUTO_MAX_VARIANTS per kernel). A launch runs the variant whose
/// values all hold, else the kernel without them: results never depend on
/// the mode. The decisions are kept in the disk cache (OFFLOAD_CACHE_DIR), so
/// a later process launches the variants from its first launch. Only
/// launches with specialization on (offloadJITSetEnabled) are watched;
/// offloadJITGetSpecializedKernel counts as a launch.
OFFLOAD_API offload_result_t offloadJITSetAutoEnabled(bool Enabled);

/// Writes the counters to \p Stats. Errors: INVALID_NULL_POINTER.
OFFLOAD_API offload_result_t offloadJITGetStats(offload_jit_stats_t *Stats);
/// Sets every counter to zero.
OFFLOAD_API offload_result_t offloadJITResetStats(void);
/// Drops the in-memory cache (compiled kernels stay on disk) and destroys its
/// loaded programs: symbols returned by offloadJITGetSpecializedKernel become
/// invalid. Call it when no launch of a JIT kernel is pending (queues that ran
/// them synchronized); a compile still running keeps its entry until it ends.
/// Later launches look in the disk cache again.
OFFLOAD_API offload_result_t offloadJITClearMemoryCache(void);
/// Waits until every background compile has finished.
OFFLOAD_API offload_result_t offloadJITWaitForCompiles(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif /* OFFLOADJIT_OFFLOADJIT_H */
