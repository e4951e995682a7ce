//===- Passes.td - Offload conversion passes --------------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CONVERSION_PASSES_TD
#define OFFLOAD_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGPUToOffload : Pass<"convert-gpu-to-offload", "ModuleOp"> {
  let summary = "convert host-side gpu ops to offload ops";
  let description = [{
    Rewrites the host-side operations of the `gpu` dialect into `offload`
    ops so that unmodified upstream gpu programs run on the offload runtime:

    - `gpu.launch_func` -> `offload.launch` (synchronous, or on the queue of
      its async dependencies when it has them);
    - `gpu.alloc` -> `offload.alloc device` (`host_shared` -> `managed`),
      `gpu.dealloc` -> `offload.free`;
    - `gpu.memcpy` -> `offload.memcpy`, `gpu.memset` -> `offload.memfill`;
    - `gpu.host_register` / `gpu.host_unregister` -> `offload.host_register`
      / `offload.host_unregister`;
    - `!gpu.async.token` values become `!offload.queue`s (also through
      function signatures, calls, `scf` and `cf` ops): an async op runs on
      the queue of its first dependency (a new queue without dependencies)
      after waiting on events recorded on the others, and its token is that
      queue; a synchronous op with dependencies does the same, then
      synchronizes the queue (`gpu.alloc` / `gpu.dealloc` synchronize their
      dependencies first); `gpu.wait async` creates a queue waiting on its
      dependencies, or reuses its single dependency; a blocking `gpu.wait`
      synchronizes and destroys each queue it waits on.

    Every op uses the device selected by `platform` and `device-index`,
    materialized once per function with `offload.get_device` at the start of
    its entry block (ops nested in regions, e.g. `async.execute`, use it too).
    `gpu.launch` must have been outlined (`gpu-kernel-outlining`); cluster
    launches are not supported.

    ```mlir
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%buf : memref<?xf32>)
    // becomes
    %dev = offload.get_device host 0
    offload.launch @kernels::@k on %dev blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%buf : memref<?xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::offload::OffloadDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"host\"",
           "platform of the device: host, cuda, hip or any">,
    Option<"deviceIndex", "device-index", "unsigned", /*default=*/"0",
           "index of the device within its platform">,
  ];
}

def ConvertOffloadToLLVM : Pass<"convert-offload-to-llvm", "ModuleOp"> {
  let summary = "lower offload ops to calls into the offload runtime C API";
  let description = [{
    Lowers host-side `offload` ops to LLVM dialect calls into the C API of
    `include/OffloadRuntime/OffloadAPI.h` (one declaration table mirrors the
    header), and `gpu.binary` ops to constant globals holding the device
    image. Kernel arguments are packed into one buffer laid out as an LLVM
    struct of the lowered argument types (memrefs expanded into allocated
    pointer, aligned pointer, offset, sizes and strides); the host target's
    kernels unpack the same layout. A runtime call that fails prints the
    runtime's code and message to stderr and aborts the program
    (`offloadAbortOnError`).

    Launches must refer to a `gpu.binary` (run `gpu-module-to-binary`
    first); its object is chosen by the binary's `#gpu.select_object`
    handler (the first one by default). Copies and fills whose size is not
    known at compile time are skipped when empty under an `scf.if`.
    Out-parameters live in allocas at the start of the function (or of an
    `async.execute` body), never in loops.

    Other dialects are left alone; run the usual `convert-*-to-llvm` passes
    (with `convert-scf-to-cf`, or `convert-to-llvm`) afterwards.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def OffloadCheckMemoryAccesses : Pass<"offload-check-memory-accesses",
                                      "::mlir::gpu::GPUModuleOp"> {
  let summary = "bounds-check every memref access of the kernels";
  let description = [{
    What `compute-sanitizer --tool memcheck` gives CUDA users, for the host
    target (`offload-run --check=memcheck`, `OFFLOAD_CHECK=memcheck` for the
    JIT; run before
    `offload-host-thread-loops`): before each `memref.load`, `memref.store`,
    `memref.atomic_rmw`, `memref.generic_atomic_rmw`, `vector.load` and
    `vector.store` of a kernel, every index is compared with its dimension
    (a vector's last index plus its length minus one). A thread whose access
    is out of bounds calls `__offload_host_bounds_fail`, which prints

    ```
    ========= <file>:<line>:<col>: out-of-bounds memref.store in kernel 'K', block: [x,y,z], thread: [x,y,z]: index 12 of dimension 0 is not below its size 8
    ```

    on stdout, and the access is made harmless (`scf.if` around it: a bad
    store is skipped, a bad load or atomic yields zero); the thread goes on,
    later bad accesses of a thread that faulted are not reported, and the
    launch fails. No thread stops alone, so checked kernels that synchronize
    still run as thread loops, not on fibers.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def OffloadCheckRaces : Pass<"offload-check-races", "::mlir::gpu::GPUModuleOp"> {
  let summary = "report hazards between threads of a block and divergent "
                "barriers (racecheck, synccheck)";
  let description = [{
    What `compute-sanitizer --tool racecheck` and `--tool synccheck` give
    CUDA users, for the host target (`offload-run --check=race,sync`,
    `OFFLOAD_CHECK=race,sync` for the JIT; run before
    `offload-host-thread-loops`, which serializes the threads of one barrier
    interval, so every hazard of an interval is seen exactly, not sampled).

    With `race`, before each non-atomic `memref.load`, `memref.store`,
    `vector.load` and `vector.store` of a kernel on global or workgroup
    memory (private memory and `memref.alloca` are left alone, atomics are
    never races), the thread calls `__offload_host_check_access` with the
    access's location, address, element size and count, whether it writes,
    and its linear index. Before each `gpu.barrier` (with `race` or `sync`)
    and each `gpu.all_reduce` (with `race`: it synchronizes the block), the
    thread calls `__offload_host_check_barrier`, which ends its barrier
    interval. The runtime keeps, per block and address, the last writer and
    two readers of the current interval and reports a write-write,
    write-read (read after write) or read-write (write after read) hazard
    between two threads once per (locations, interval), in
    compute-sanitizer's shape:

    ```
    ========= Error: Race reported between Write access at race.mlir:9:7
    =========     and Read access at race.mlir:10:12 in kernel 'k'
    =========     block: [0,0,0], threads: [1,0,0] (write) and [0,0,0] (read)
    =========     workgroup memory at 0x7f..., index 0, barrier interval 0 (from the kernel's start)
    ```

    The launch then fails ("N race hazard(s)"). Checked writes to global
    memory also go to a shadow of the whole launch, which reports two blocks
    writing one location once per location ("between blocks of one
    launch").

    Accesses that cannot race are left out (their loops stay vector code):
    per memref root and barrier-free segment of the kernel, accesses that
    only read, or that all have one index injective in the thread ids; a
    global write also needs all writes of its root to have one index
    injective in (block, thread). Barriers are instrumented for racecheck
    only when an access is, and for synccheck only in kernels where threads
    can diverge (an early return, an assert, a barrier under a loop or
    branch that is not block-uniform). With `sync`, the barrier locations
    name the barrier in the synccheck reports of kernels that run on fibers
    (docs/HostTarget.md).

    Example: `offload-opt --pass-pipeline='builtin.module(gpu.module(offload-check-races{race=true}))'`.
  }];
  let options = [
    Option<"race", "race", "bool", /*default=*/"true",
           "instrument memory accesses and barriers for racecheck">,
    Option<"sync", "sync", "bool", /*default=*/"false",
           "instrument barriers for synccheck">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect"];
}

def OffloadCheckInitialization : Pass<"offload-check-initialization",
                                      "::mlir::gpu::GPUModuleOp"> {
  let summary = "report reads of device memory never written (initcheck)";
  let description = [{
    What `compute-sanitizer --tool initcheck` gives CUDA users, for the host
    target (`offload-run --check=init`, `OFFLOAD_CHECK=init` for the JIT;
    run before `offload-host-thread-loops`). Before each `memref.load`,
    `vector.load`, `memref.store`, `vector.store`, `memref.atomic_rmw` and
    `memref.generic_atomic_rmw` of a kernel on global memory (workgroup and
    private memory, `memref.alloca` and `memref.alloc` are left alone), the
    thread calls `__offload_host_check_init` with the access's location,
    address, size and whether it reads, writes or both (atomics), while
    `__offload_host_check_init_pending` says that the allocation of the
    memref still has bytes nothing wrote (a call without effects on memory,
    which LLVM hoists out of loops: once every byte of a kernel's buffers is
    written, its accesses cost a branch). The
    runtime (lib/Runtime/InitCheck.cpp) keeps a shadow byte per byte of
    every `offloadMemAlloc` allocation of the host device, set by copies,
    fills and kernel stores, and reports a read of a byte never set, once
    per launch, location and allocation:

    ```
    ========= Uninitialized __global__ memory read of size 4 bytes
    =========     at init.mlir:12:10 in kernel 'k'
    =========     by thread (4,0,0) in block (0,0,0)
    =========     Address 0x... is at offset 16 (element 4) of an allocation of 32 bytes of device memory
    =========     allocated at make_buffers (prog.c:10:3)
    ```

    The launch then fails ("N uninitialized read(s)"). Any other op that
    may write through a memref of global memory (`vector.transfer_write`,
    `memref.copy`, a `func.call`, ...) calls
    `__offload_host_check_init_write_all` with the memref's address first,
    which marks the whole allocation written; a kernel with a write through
    a pointer (`llvm.store`, ...) marks every allocation its memref and
    pointer arguments point into at its start. So no write goes unseen, and
    reads of those ops are not checked.

    Example: `offload-opt --pass-pipeline='builtin.module(gpu.module(offload-check-initialization))'`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def OffloadUnrollNDVectorMemoryOps : Pass<"offload-unroll-nd-vector-memory-ops"> {
  let summary = "unroll n-D vector.load and vector.store into 1-D ones";
  let description = [{
    MLIR 22's `convert-vector-to-llvm` lowers `vector.load` and
    `vector.store` of 1-D vectors only. This pass rewrites those of a
    statically shaped vector of rank 2 or more into one 1-D load or store per
    row of the innermost dimension (at most 4096 rows), assembled with
    `vector.insert` or taken apart with `vector.extract`. The host pipelines
    run it on host code and kernels.

    ```mlir
    %v = vector.load %m[%i, %j] : memref<4x8xf32>, vector<2x8xf32>
    // becomes
    %r0 = vector.load %m[%i, %j] : memref<4x8xf32>, vector<8xf32>
    %a = vector.insert %r0, %zero [0] : vector<8xf32> into vector<2x8xf32>
    %i1 = arith.addi %i, %c1 : index
    %r1 = vector.load %m[%i1, %j] : memref<4x8xf32>, vector<8xf32>
    %v = vector.insert %r1, %a [1] : vector<8xf32> into vector<2x8xf32>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def OffloadHostWorkgroupMemory : Pass<"offload-host-workgroup-memory",
                                      "::mlir::gpu::GPUModuleOp"> {
  let summary = "give each running block its own copy of workgroup globals";
  let description = [{
    On a GPU, a global in workgroup (shared) memory is one object per running
    block: upstream's NVVM and ROCDL lowerings put `memref.global`s in
    `#gpu.address_space<workgroup>` (or memory space 3) and LLVM globals in
    `addr_space = 3` into the block's shared memory. The host runs many
    blocks at once in one address space, so such a global must not stay one
    process-wide object. This pass turns every workgroup global of the
    `gpu.module` into a workgroup attribution of each kernel that uses it,
    directly or through the `func.func` device functions it calls; those
    functions get the memory as extra trailing arguments (a memref for a
    `memref.global`, an `!llvm.ptr<3>` for an LLVM global), and their call
    sites pass it on. `memref.get_global` and `llvm.mlir.addressof` of such
    globals are replaced, and the globals erased. It runs before
    `offload-host-thread-loops` and `convert-gpu-to-offload-host` (which also
    calls it), so that fibers and thread loops alike see attributions.

    Workgroup memory starts undefined on a GPU: an initial value of such a
    global is not applied, with a warning. Diagnosed: a global with a
    dynamic shape, a non-identity layout or an alignment above 16 bytes, and
    one referenced other than by `memref.get_global` / `llvm.mlir.addressof`
    in a kernel or in a device function reached only by direct calls, and a
    `memref.alloca` or `memref.alloc` of workgroup memory inside a function
    (it would be per thread).

    ```mlir
    memref.global "private" @tile : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.func @k(%out: memref<?xf32>) kernel {
      %t = memref.get_global @tile : memref<256xf32, #gpu.address_space<workgroup>>
      ...
    }
    // becomes
    gpu.func @k(%out: memref<?xf32>)
        workgroup(%t : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      ...
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def OffloadHostLowerMMA : Pass<"offload-host-lower-mma",
                               "::mlir::gpu::GPUModuleOp"> {
  let summary = "lower gpu.subgroup_mma_* ops to vector ops for the host";
  let description = [{
    Rewrites `gpu.subgroup_mma_load_matrix`, `_store_matrix`, `_compute`,
    `_constant_matrix` and `_elementwise` and the `!gpu.mma_matrix` type for
    the host target (run first, before `offload-host-thread-loops` and
    `convert-gpu-to-offload-host`, which also calls it): a fragment is opaque
    on a GPU, so the first lane of each subgroup (`gpu.lane_id` == 0) holds
    the whole matrix as a `vector<MxNxT>` and does the subgroup's matrix work;
    the other lanes hold zeros and skip it. Loads and stores move one row per
    vector load or store through a view with `leadDimension` as row stride
    (`transpose`: columns and a `vector.transpose`); the product is K
    `vector.outerproduct`s (f16 accumulators in f32, i8 operands sign- or
    zero-extended by their type to i32). `scf`, `cf` and `func` ops carrying
    fragments (accumulators of loops over K tiles) are converted with them.
    Fragments of more than 4096 elements, other element types and
    `gpu.subgroup_mma_{extract,insert}_thread_local` are diagnosed.

    ```mlir
    %a = gpu.subgroup_mma_load_matrix %m[%i, %j] {leadDimension = 32 : index}
        : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
    // becomes
    %lane = gpu.lane_id
    %first = arith.cmpi eq, %lane, %c0 : index
    %a = scf.if %first -> (vector<16x16xf16>) {
      %view = memref.reinterpret_cast ... to memref<16x16xf16, strided<[32, 1], offset: ?>>
      %row0 = vector.load %view[%c0, %c0] : ..., vector<16xf16>
      ...
    } else {
      scf.yield %zeros : vector<16x16xf16>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def OffloadHostLegalizeVendorOps : Pass<"offload-host-legalize-vendor-ops",
                                        "::mlir::gpu::GPUModuleOp"> {
  let summary = "rewrite GPU vendor ops with a meaning on the CPU to gpu ops";
  let description = [{
    Rewrites the `nvvm`, `rocdl` and `amdgpu` ops that kernels written for
    one GPU use and that have a meaning on the host into portable ops, as
    `offload-host-thread-loops` and `convert-gpu-to-offload-host` do first
    (lib/Conversion/GPUToOffloadHost/VendorOps.cpp; docs/HostTarget.md has
    the table): barriers become `gpu.barrier`; special registers (`tid`,
    `ctaid`, `laneid`, `workitem.id`, ...) the gpu ids; `nvvm.shfl.sync`,
    `rocdl.readlane`, `ds_bpermute`, `ds_swizzle`, DPP moves and
    `permlanex16` `gpu.shuffle`s of the host's 32-lane subgroups; votes and
    ballots `gpu.subgroup_reduce`s. Other vendor ops are left alone (the host
    lowering diagnoses them).

    ```mlir
    %r = nvvm.shfl.sync bfly %mask, %v, %c1, %c31 : f32 -> f32
    // becomes
    %r, %valid = gpu.shuffle xor %v, %c1, %c32 : f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def OffloadHostThreadLoops : Pass<"offload-host-thread-loops",
                                  "::mlir::gpu::GPUModuleOp"> {
  let summary = "run the threads of each block as loops split at barriers";
  let description = [{
    Prepares the kernels of a `gpu.module` for the host CPU (run before
    `convert-gpu-to-offload-host`): the body of each kernel that synchronizes
    threads becomes loops over the threads of its block (`scf.parallel`
    over z, y, x; x innermost, so that LLVM vectorizes across threads),
    split at each `gpu.barrier` (loop fission, as Polygeist's parallel loop
    distribution, PPoPP 2023). Values live across a split are recomputed or
    kept in per-thread arrays; barriers under `scf.for`, `scf.while` and
    `scf.if` with conditions the same for the whole block are handled by
    moving that control flow out of the thread loops; barriers under
    conditions that differ between threads by predication, when the threads
    that skip them reach no other barrier (early exit). `gpu.shuffle`,
    `gpu.subgroup_reduce` (subgroups of 32 threads, clusters) and
    `gpu.all_reduce` (every operation, region form) become exchanges and
    reductions over per-thread arrays. Such kernels get the unit attribute
    `offload.thread_loops`; their body runs once per block.

    A kernel whose synchronization cannot be proven equivalent as loops
    (e.g. a barrier in a loop whose trip count differs between threads) is
    left unchanged, gets `offload.fiber_reason` with the reason, and a remark
    is emitted: it runs on fibers at run time.

    ```mlir
    %v = memref.load %in[%tx] : memref<?xf32>
    memref.store %v, %tile[%tx] : memref<256xf32, 3>
    gpu.barrier
    %w = memref.load %tile[%r] : memref<256xf32, 3>
    // becomes (block of 256 threads)
    scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c256) ... {
      %v = memref.load %in[%x] : memref<?xf32>
      memref.store %v, %tile[%x] : memref<256xf32, 3>
    }
    scf.parallel (%z, %y, %x) = (%c0, %c0, %c0) to (%c1, %c1, %c256) ... {
      %w = memref.load %tile[%r] : memref<256xf32, 3>
    }
    ```
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::ub::UBDialect"];
  let options = [
    Option<"interchange", "interchange", "bool", /*default=*/"true",
           "move loops whose bounds are the same for every thread out of "
           "the thread loops when that makes accesses along thread x "
           "contiguous (vectorization across threads)">,
  ];
}

def OffloadHostVectorizeThreadLoops
    : Pass<"offload-host-vectorize-thread-loops", "::mlir::gpu::GPUModuleOp"> {
  let summary = "run thread x of the thread loops as vector lanes";
  let description = [{
    Vectorization across threads (whole-function vectorization, Karrenberg
    and Hack, CGO 2011), run after `offload-host-thread-loops` on the kernels
    it converted (`offload.thread_loops`): the innermost dimension of each
    innermost thread loop runs W threads per iteration, one vector lane per
    thread: W = 16, 8 or 4, dividing the trip count, when it is static (full
    blocks, see the thread loops' versioning of clamped bounds); otherwise
    W = 8 over the largest multiple of 8 threads, and the rest in a scalar
    copy of the loop after it.
    Values that depend on thread x become `vector<W x T>`, the others stay
    scalars; indices `base + stride * x` keep that form, so that accesses
    with unit stride along x become `vector.load`/`vector.store`, uniform ones
    stay scalar and others go lane by lane. Uniform `scf.for`/`scf.if` in the
    body stay loops and branches around vector code; `scf.if` on a
    thread-dependent condition without memory effects becomes selects.
    A loop with anything else (atomics, calls, effects on a thread-dependent
    condition, reductions), or with more accesses lane by lane than as
    vectors, is left as it is, for LLVM's loop vectorizer.

    ```mlir
    scf.parallel (%y, %x) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
      %v = memref.load %in[%y, %x] : memref<16x16xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %out[%y, %x] : memref<16x16xf32>
    }
    // becomes
    scf.parallel (%y, %x) = (%c0, %c0) to (%c16, %c16) step (%c1, %c16) {
      %v = vector.load %in[%y, %x] : memref<16x16xf32>, vector<16xf32>
      %s16 = vector.broadcast %s : f32 to vector<16xf32>
      %w = arith.mulf %v, %s16 : vector<16xf32>
      vector.store %w, %out[%y, %x] : memref<16x16xf32>, vector<16xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::arith::ArithDialect"];
}

def ConvertGPUToOffloadHost : Pass<"convert-gpu-to-offload-host",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "lower gpu kernels to functions of the host kernel ABI";
  let description = [{
    The first step of lowering the kernels of a `gpu.module` to LLVM dialect
    functions following the host kernel ABI
    (`include/OffloadRuntime/HostKernelABI.h`): each kernel `K` becomes a
    per-thread body function (`func.func`, thread ids and the block context
    as arguments), a per-block loop over the block's threads and the
    declaration of a thread entry. Thread and block ids come from arguments
    and the block context; workgroup attributions and dynamic shared memory
    are carved out of the block's shared memory; `gpu.barrier` and
    `gpu.shuffle` call the runtime (and make the kernel *cooperative*, run
    on fibers); `gpu.all_reduce` and `gpu.subgroup_reduce` are first
    rewritten into shuffles and barriers with upstream patterns;
    `gpu.printf` calls `printf`; math ops become libm calls. The subgroup
    size is 32. `offload.runtime_constant` ops that were not specialized
    become their operand. Each body carries what the later steps need in an
    `offload.host_kernel` attribute.

    The rest of the lowering are steps of the `offload-host-kernel-to-llvm`
    pipeline (run it on each `gpu.module`: `gpu.module(offload-host-kernel-to-llvm)`):
    `convert-linalg-to-loops`, this pass, upstream's vector, affine, SCF and
    memref lowerings, `offload-host-lower-asserts`, `convert-to-llvm`,
    `offload-host-private-alloca-scopes` and
    `offload-host-emit-kernel-entries`. Run `gpu-module-to-binary`
    afterwards with `#offload.host` on the module.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::ub::UBDialect"];
}

def OffloadHostLowerAsserts : Pass<"offload-host-lower-asserts",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "device-side asserts of host kernels to runtime reports";
  let description = [{
    A step of the `offload-host-kernel-to-llvm` pipeline, after
    `convert-scf-to-cf`: each `cf.assert` in a kernel body that
    `convert-gpu-to-offload-host` made becomes a branch to a call of
    `__offload_host_assert_fail` (message, file, line, function, block and
    thread ids) and a return of the thread. A `cf.assert` left in a device
    function is an error (inline the function into its kernel).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::arith::ArithDialect"];
}

def OffloadHostPrivateAllocaScopes
    : Pass<"offload-host-private-alloca-scopes", "::mlir::LLVM::LLVMFuncOp"> {
  let summary = "alias scopes separating non-escaping allocas from other memory";
  let description = [{
    A step of the `offload-host-kernel-to-llvm` pipeline, once the kernels
    are LLVM dialect: in each `llvm.func`, the allocas whose address does not
    escape (every value derived from it, through `llvm.getelementptr` and
    the `llvm.insertvalue` / `llvm.extractvalue` of memref descriptors, is
    only the address of loads, stores, masked loads and stores, atomics,
    memcpy, memmove, memset or lifetime markers) are private: the accesses to
    them get an alias scope of a new domain in `alias_scopes`, every other
    access of the function (loads, stores, atomics, memory intrinsics) gets
    it in `noalias_scopes`. LLVM can then keep the accesses of the host
    kernels' per-thread arrays (offload-host-thread-loops) apart from those
    of the kernel's buffers even where its capture tracking gives up (more
    than 100 uses of the array's pointer): LICM moves their stores out of
    loops. Sound for any alloca: an alloca that escapes is left alone.

    ```mlir
    %a = llvm.alloca %n x f32 : (i64) -> !llvm.ptr
    llvm.store %v, %a {alias_scopes = [#scope]} : f32, !llvm.ptr
    %x = llvm.load %arg0 {noalias_scopes = [#scope]} : !llvm.ptr -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OffloadHostEmitKernelEntries : Pass<"offload-host-emit-kernel-entries",
                                        "::mlir::gpu::GPUModuleOp"> {
  let summary = "entry points and descriptors of host kernels in LLVM dialect";
  let description = [{
    The last step of the `offload-host-kernel-to-llvm` pipeline, once the
    module is LLVM dialect: for each body that `convert-gpu-to-offload-host`
    made (its `offload.host_kernel` attribute, removed here), the thread
    entry's body (unpacking the packed argument buffer), internal linkage of
    the kernel's functions, and the descriptor global `__offload_kernel.K`
    the runtime finds. An op that is not LLVM dialect by then is an error
    that names it (and the offload pipeline for a vendor's op).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // OFFLOAD_CONVERSION_PASSES_TD
