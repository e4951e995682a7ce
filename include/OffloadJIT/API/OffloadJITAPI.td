//===- OffloadJITAPI.td - The JIT's C API, described once --*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C API of libOffloadJIT (classes in include/OffloadRuntime/API/
// APIDefs.td; the runtime's types it uses come from OffloadAPI.td, included
// below). tools/offload-tblgen generates from the records of this file the
// public header include/OffloadJIT/OffloadJIT.h (-gen-jit-header), the entry
// points with validation and tracing (-gen-jit-entry-points), the
// declarations of their implementations in lib/JIT/CAPI.cpp
// (-gen-jit-impl-decls), the list of exported symbols (-gen-jit-exports) and
// docs/JITAPIReference.md (-gen-jit-docs). docs/JIT.md, "The C API".
//
//===----------------------------------------------------------------------===//

include "OffloadAPI.td"

/// A handle of the JIT. A non-optional handle parameter is checked by the
/// engine: INVALID_NULL_HANDLE when null, \c InvalidCode when it names no
/// live object (both with validation only). Handles of the runtime
/// (devices, queues) get the null check here; whether they are live is
/// checked by the runtime calls the JIT makes with them.
class JITHandle<string name, string kind, string invalidCode>
    : Handle<name, kind> {
  string InvalidCode = invalidCode;
}

def : Preamble<[{The JIT layer of the offload runtime (libOffloadJIT): programs created from
MLIR (a builtin.module holding gpu.modules, as MLIR bytecode or text) whose
kernels are specialized at each launch on the values of their runtime
constants and on the launch's block size (LLNL Proteus's idea, done on MLIR
before lowering), then compiled for the launch's device, cached in memory
and on disk, loaded with offloadCreateProgram and launched with
offloadLaunchKernel. It links MLIR; libOffloadRuntime does not.

Errors, validation and tracing
------------------------------
The runtime's model (OffloadRuntime/OffloadAPI.h): every entry point
returns OFFLOAD_SUCCESS (NULL) or a pointer to a {code, message} that stays
valid until the process exits. Arguments are checked in declaration order:
a null handle that is not optional is INVALID_NULL_HANDLE, a JIT program or
kernel that was destroyed or never created INVALID_PROGRAM or
INVALID_SYMBOL, a null pointer that is not optional INVALID_NULL_POINTER.
OFFLOAD_DISABLE_VALIDATION=1 turns these checks off (the caller promises
valid arguments), except those marked always-checked below. OFFLOAD_TRACE=1
prints every call on stderr, one line each, as the runtime does:
  offloadJITGetKernel(Program=0x..., Name="scale", Kernel=0x...)
      -> OFFLOAD_SUCCESS
besides one "offload-jit: ..." line per JIT event (compiles, disk hits,
automatic specialization decisions).

Environment
-----------
  OFFLOAD_JIT=0                 no specialization: every launch runs the
                                generic kernel (compiled once, cached)
  OFFLOAD_JIT_ASYNC=1           a miss compiles in the background and the
                                launch runs the generic kernel meanwhile
  OFFLOAD_JIT_THREADS=N         background compile threads (default 2)
  OFFLOAD_CACHE_DIR=dir         persistent cache (default
                                $XDG_CACHE_HOME/offload-jit, else
                                ~/.cache/offload-jit); "" disables it
  OFFLOAD_CACHE_MAX_BYTES=N     bound of the persistent cache (default
                                1 GiB), least recently used entries evicted
  OFFLOAD_JIT_DUMP=dir          write each specialized kernel's IR there
  OFFLOAD_JIT_FOLD_GRID=1       also specialize on the grid size
  OFFLOAD_JIT_CACHE_MPI=1       MPI ranks sharing the cache directory
                                compile each key once: its owner rank
                                compiles, the others wait for its entry
                                (docs/JIT.md, "Many processes")
  OFFLOAD_JIT_CACHE_MPI_TIMEOUT=S  at most S seconds of waiting (120)
  OFFLOAD_JIT_STATS=1           print the counters on stderr at exit
  OFFLOAD_TRACE=1               one line per JIT call and per JIT event
                                on stderr
  OFFLOAD_DISABLE_VALIDATION=1  no argument checks (see above)
  OFFLOAD_JIT_AUTO=1            automatic specialization: unmarked scalar
                                arguments that keep their values are
                                specialized on, guarded (default off;
                                also offloadJITSetAutoEnabled)
  OFFLOAD_JIT_AUTO_THRESHOLD=N  launches in a row with the same value
                                that make an argument stable (default 8)
  OFFLOAD_JIT_AUTO_MAX_VARIANTS=N  automatic variants per kernel
                                (default 4)
  OFFLOAD_JIT_MEASURE=1         the first launches of a specialization
                                alternate with the generic kernel, timed
                                on the device's clock; the faster is kept
                                (verdict kept in the disk cache)
  OFFLOAD_JIT_MEASURE_LAUNCHES=N  timed launches of each (default 3)

Thread safety
-------------
Every entry point may be called concurrently. A given specialization is
compiled once even when many threads launch it at once.
}]>;

def : Section<"Programs and kernels">;

def : JITHandle<"offload_jit_program_handle_t", "JITProgram",
                "INVALID_PROGRAM">;
def : JITHandle<"offload_jit_kernel_handle_t", "JITKernel", "INVALID_SYMBOL">;

def offloadCreateProgramFromMLIR : Function {
  let CodeLoc = 0;
  let Desc = [{Creates a JIT program for \p Device from MLIR (\p Size bytes at \p Module:
bytecode or text of a builtin.module containing gpu.modules). Nothing is
compiled yet.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"const void *", "Module", "", PARAM_IN>,
    Param<"size_t", "Size", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"offload_jit_program_handle_t *", "Program", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER,
INVALID_SIZE, INVALID_BINARY (not parseable; the message holds the parser's
diagnostic, or names the crash of an input that crashes upstream MLIR's
parser or verifier, which the caller's process survives: docs/JIT.md),
INVALID_VALUE (an OFFLOAD_JIT* setting whose value means nothing),
UNSUPPORTED (a device whose platform the JIT cannot target).}];
}

def offload_jit_program_options_t : Struct {
  let Desc = [{Options of a JIT program (offloadCreateProgramFromMLIRWithOptions).}];
  let Members = [
    Member<"size_t", "Size", "sizeof(offload_jit_program_options_t): lets the struct grow.">,
    Member<"bool", "Check", [{Host kernels bounds-check every memref access, like OFFLOAD_CHECK=1
for this program only (offload-check-memory-accesses; part of the key).
The same as "memcheck" in CheckTools.}]>,
    Member<"const char *", "CheckTools", [{The checking tools of this program's host kernels, in addition to
those of OFFLOAD_CHECK: a comma-separated list of memcheck, race, sync,
leak, or "all" (docs/HostTarget.md); NULL or "" for none. Part of the key.
Options of an older size without this field are accepted.}]>,
  ];
}

def offloadCreateProgramFromMLIRWithOptions : Function {
  let CodeLoc = 0;
  let Desc = [{offloadCreateProgramFromMLIR with \p Options (NULL: the defaults, as
offloadCreateProgramFromMLIR).}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"const void *", "Module", "", PARAM_IN>,
    Param<"size_t", "Size", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"const offload_jit_program_options_t *", "Options", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"offload_jit_program_handle_t *", "Program", "", PARAM_OUT>,
  ];
  let Errors = [{those of offloadCreateProgramFromMLIR (INVALID_NULL_HANDLE,
INVALID_DEVICE, INVALID_NULL_POINTER, INVALID_SIZE, INVALID_BINARY,
INVALID_VALUE, UNSUPPORTED), INVALID_SIZE (Options->Size is not a size this
library knows), INVALID_VALUE (CheckTools names no tool).}];
}

def offloadJITDestroyProgram : Function {
  let CodeLoc = 0;
  let Desc = [{Destroys a JIT program; its compiled kernels stay cached.}];
  let Params = [
    Param<"offload_jit_program_handle_t", "Program", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_PROGRAM.}];
}

def offloadJITGetKernel : Function {
  let CodeLoc = 0;
  let Desc = [{Looks up kernel \p Name (a gpu.func with the `kernel` attribute; with
several gpu.modules, "module::kernel" or the first match).}];
  let Params = [
    Param<"offload_jit_program_handle_t", "Program", "", PARAM_IN>,
    Param<"const char *", "Name", "", PARAM_IN>,
    Param<"offload_jit_kernel_handle_t *", "Kernel", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_PROGRAM, INVALID_NULL_POINTER,
NOT_FOUND, UNSUPPORTED (an argument type the JIT cannot pass).}];
}

def offloadJITGetKernelFromImage : Function {
  let CodeLoc = 0;
  let LoweringUses = 1;
  let Desc = [{Like offloadJITGetKernel on a program created from \p Image (\p ImageSize
bytes) for \p Device, created on first use and cached per (device, image
address): what compiler-generated code calls.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"const void *", "Image", "", PARAM_IN>,
    Param<"size_t", "ImageSize", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"const char *", "KernelName", "", PARAM_IN>,
    Param<"offload_jit_kernel_handle_t *", "Kernel", "", PARAM_OUT>,
  ];
  let Errors = [{those of offloadCreateProgramFromMLIR and offloadJITGetKernel
(INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER, INVALID_SIZE,
INVALID_BINARY, INVALID_VALUE, UNSUPPORTED, NOT_FOUND).}];
}

def : Section<"Launches">;

def offloadJITLaunchKernel : Function {
  let CodeLoc = 0;
  let LoweringUses = 1;
  let Desc = [{Launches \p Kernel like offloadLaunchKernel (same packed argument buffer
and sizes; \p Queue optional): reads the values of the kernel's runtime
constants from the buffer (arrays by content), forms the specialization
key, finds or compiles the specialization and launches it. Arrays marked
`contents` are read as the kernel would see them when it runs: a launch on
\p Queue of a kernel with such arrays first waits for the work enqueued
before it (offloadSyncQueue), and returns that work's error if it failed. A
specialization runs only at the block size (and, with
OFFLOAD_JIT_FOLD_GRID=1, the grid size) it was compiled for.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_jit_kernel_handle_t", "Kernel", "", PARAM_IN>,
    Param<"const void *", "ArgumentsData", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"size_t", "ArgumentsSize", "", PARAM_IN>,
    Param<"const offload_kernel_launch_size_args_t *", "LaunchSizeArgs", "", PARAM_IN>,
  ];
  let Errors = [{those of offloadLaunchKernel, INVALID_NULL_HANDLE,
INVALID_SYMBOL (Kernel is not a live JIT kernel), INVALID_NULL_POINTER,
INVALID_SIZE (ArgumentsSize does not match the kernel's signature),
INVALID_ARGUMENT (ArgumentsData null with ArgumentsSize > 0; a `contents`
array that cannot be read), COMPILE_FAILURE (with the compiler's
diagnostics).}];
}

def offloadJITGetSpecializedKernel : Function {
  let CodeLoc = 0;
  let Desc = [{What offloadJITLaunchKernel would launch for these arguments and sizes,
without launching it: the runtime kernel symbol of the specialization
(found or compiled, or the generic kernel when the JIT is off), written to
\p Symbol. Lets a caller launch it with offloadLaunchKernel directly, e.g.
to measure the JIT's per-launch overhead. The symbol knows the block size
(and folded grid size) it was specialized for: offloadLaunchKernel of it
at another size fails with INVALID_ARGUMENT. `contents` arrays are read
now.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_jit_kernel_handle_t", "Kernel", "", PARAM_IN>,
    Param<"const void *", "ArgumentsData", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"size_t", "ArgumentsSize", "", PARAM_IN>,
    Param<"const offload_kernel_launch_size_args_t *", "LaunchSizeArgs", "", PARAM_IN>,
    Param<"offload_symbol_handle_t *", "Symbol", "", PARAM_OUT>,
  ];
  let Errors = [{as offloadJITLaunchKernel (INVALID_NULL_HANDLE, INVALID_SYMBOL,
INVALID_NULL_POINTER, INVALID_SIZE, INVALID_ARGUMENT, COMPILE_FAILURE, and
those of the runtime calls it makes).}];
}

def offloadJITGetKernelSignature : Function {
  let CodeLoc = 0;
  let Desc = [{The arguments of \p Kernel as text, one line per argument (each ending in
'\n'): its MLIR type as MLIR prints it ("memref<?xf32>", "f32", "index"),
followed by " runtime_constant" when the kernel marks it with
offload.runtime_constant, or " runtime_constant contents" when it marks an
array by its contents. Writes the NUL-terminated text to \p Signature
(\p Size bytes) unless \p Signature is NULL, and its size in bytes with
the NUL to \p SizeRet unless \p SizeRet is NULL. Lets bindings check and
pack launch arguments.}];
  let Params = [
    Param<"offload_jit_kernel_handle_t", "Kernel", "", PARAM_IN>,
    Param<"size_t", "Size", "", PARAM_IN>,
    Param<"char *", "Signature", "", !or(PARAM_OUT, PARAM_OPTIONAL)>,
    Param<"size_t *", "SizeRet", "", !or(PARAM_OUT, PARAM_OPTIONAL)>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_SYMBOL (not a live kernel),
INVALID_NULL_POINTER (both pointers NULL, always checked), INVALID_SIZE
(\p Size too small).}];
}

def : Section<"Settings, counters and caches">;

def offload_jit_stats_t : Struct {
  let Desc = [{Counters of this process's JIT activity.}];
  let Members = [
    Member<"uint64_t", "Launches", "offloadJITLaunchKernel calls">,
    Member<"uint64_t", "Compiles", "specializations compiled">,
    Member<"uint64_t", "MemoryHits", "launches served by the in-memory cache">,
    Member<"uint64_t", "DiskHits", "compilations avoided by the disk cache">,
    Member<"uint64_t", "DiskWrites", "entries written to the disk cache">,
    Member<"uint64_t", "CorruptEntries", "disk entries found corrupt and rebuilt">,
    Member<"uint64_t", "GenericLaunches", [{launches of the generic kernel (JIT off or an asynchronous compile
still running)}]>,
    Member<"uint64_t", "AsyncCompiles", "compiles started in the background">,
    Member<"double", "CompileMilliseconds", "wall time spent compiling, all threads">,
    Member<"uint64_t", "AutoVariants", [{automatic specialization (offloadJITSetAutoEnabled): variants decided
(arguments found stable)}]>,
    Member<"uint64_t", "AutoLaunches", "launches that ran a variant">,
    Member<"uint64_t", "AutoGuardMisses", [{launches of a kernel with variants whose values matched none (ran
without them)}]>,
    Member<"uint64_t", "AutoProfileLoads", [{variants read from the disk cache's profiles (decided by an earlier
process)}]>,
    Member<"uint64_t", "AutoBoundReached", [{kernels whose new stable values were not specialized:
OFFLOAD_JIT_AUTO_MAX_VARIANTS}]>,
    Member<"uint64_t", "MeasuredLaunches", [{measurement against the generic kernel (OFFLOAD_JIT_MEASURE=1):
launches timed}]>,
    Member<"uint64_t", "MeasuredFaster", "specializations measured faster: kept">,
    Member<"uint64_t", "MeasuredSlower", "measured slower: the generic kernel runs">,
    Member<"uint64_t", "VerdictLoads", "verdicts read from the disk cache">,
  ];
}

def offloadJITSetEnabled : Function {
  let CodeLoc = 0;
  let Desc = [{Turns specialization on or off for later launches (the initial state
comes from OFFLOAD_JIT); off, launches run the generic kernel.}];
  let Params = [
    Param<"bool", "Enabled", "", PARAM_IN>,
  ];
  let Errors = [{none.}];
}

def offloadJITSetAutoEnabled : Function {
  let CodeLoc = 0;
  let Desc = [{Turns automatic specialization on or off for later launches (the initial
state comes from OFFLOAD_JIT_AUTO, default off). On, the JIT watches each
kernel's scalar arguments (integers of 8 to 64 bits, index, floats) that
no offload.runtime_constant marks; once some have had the same values for
OFFLOAD_JIT_AUTO_THRESHOLD launches in a row, it specializes the kernel on
them as runtime constants (a variant; at most
OFFLOAD_JIT_AUTO_MAX_VARIANTS per kernel). A launch runs the variant whose
values all hold, else the kernel without them: results never depend on the
mode. The decisions are kept in the disk cache (OFFLOAD_CACHE_DIR), so a
later process launches the variants from its first launch. Only launches
with specialization on (offloadJITSetEnabled) are watched;
offloadJITGetSpecializedKernel counts as a launch.}];
  let Params = [
    Param<"bool", "Enabled", "", PARAM_IN>,
  ];
  let Errors = [{none.}];
}

def offloadJITGetStats : Function {
  let CodeLoc = 0;
  let Desc = [{Writes the counters to \p Stats.}];
  let Params = [
    Param<"offload_jit_stats_t *", "Stats", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_POINTER.}];
}

def offloadJITResetStats : Function {
  let CodeLoc = 0;
  let Desc = [{Sets every counter to zero.}];
  let Params = [
  ];
  let Errors = [{none.}];
}

def offloadJITClearMemoryCache : Function {
  let CodeLoc = 0;
  let Desc = [{Drops the in-memory cache (compiled kernels stay on disk) and destroys its
loaded programs: symbols returned by offloadJITGetSpecializedKernel become
invalid. Call it when no launch of a JIT kernel is pending (queues that ran
them synchronized); a compile still running keeps its entry until it ends.
Later launches look in the disk cache again.}];
  let Params = [
  ];
  let Errors = [{none.}];
}

def offloadJITWaitForCompiles : Function {
  let CodeLoc = 0;
  let Desc = [{Waits until every background compile has finished.}];
  let Params = [
  ];
  let Errors = [{none.}];
}
