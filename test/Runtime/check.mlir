// Issue 11 item 13: offload-run --check (OFFLOAD_CHECK=1 for the JIT)
// bounds-checks every memref access of the kernels. Each thread's first bad
// access is reported with the op's location, the kernel, block, thread,
// index and size; the access is skipped (a load reads zero), later bad
// accesses of that thread are not reported, and the launch fails (offload-run
// exits 1). Without --check the same program runs and exits 0. Kernels that
// synchronize keep their thread loops under memcheck (issue 25).
//
// RUN: split-file %s %t
// RUN: not offload-run --check %t/store.mlir > %t/store.out 2> %t/store.err
// RUN: FileCheck %s --check-prefix=STORE < %t/store.out
// RUN: FileCheck %s --check-prefix=ERR < %t/store.err
// RUN: offload-run %t/store.mlir | FileCheck %s --check-prefix=UNCHECKED
// RUN: not offload-run --jit --check %t/store.mlir 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: env OFFLOAD_CHECK=1 OFFLOAD_CACHE_DIR= not offload-run --jit %t/store.mlir 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not offload-run --check %t/shared.mlir 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not offload-run --check --device=cuda %t/store.mlir 2>&1 | FileCheck %s --check-prefix=CUDA
// RUN: not offload-run --check %t/twice.mlir > %t/twice.out 2> %t/twice.err
// RUN: FileCheck %s --check-prefix=TWICE < %t/twice.out
// RUN: FileCheck %s --check-prefix=TWICE-ERR < %t/twice.err
// RUN: not offload-run --check --thread-loops=false %t/twice.mlir 2>/dev/null | FileCheck %s --check-prefix=TWICE
// RUN: offload-opt %t/twice.mlir --pass-pipeline='builtin.module(gpu.module(offload-check-memory-accesses,offload-host-thread-loops))' 2>&1 | FileCheck %s --check-prefix=LOOPS

// STORE: store.mlir:11:7: out-of-bounds memref.store in kernel 'copy', block: [1,0,0], thread: [3,0,0]: index 7 of dimension 0 is not below its size 7
// STORE-NOT: out-of-bounds
// ERR: offload error: offload.launch @kernels::@copy{{.*}}: OFFLOAD_ERRC_BACKEND_FAILURE: kernel 'copy'{{.*}}: 1 thread(s) accessed memory out of bounds (offload-check-memory-accesses)
// UNCHECKED: done
// SHARED: shared.mlir:8:7: out-of-bounds memref.store in kernel 'tile', block: [0,0,0], thread: [4,0,0]: index 4 of dimension 0 is not below its size 4
// SHARED: OFFLOAD_ERRC_BACKEND_FAILURE
// CUDA: offload-run: --check is supported for --device=host only
// Threads 2 and 3 load out of bounds, then store there after a barrier: one
// report each (their loads), none for their stores; the loads read zero.
// TWICE: twice.mlir:[[#LOAD:]]:12: out-of-bounds memref.load in kernel 'twice', block: [0,0,0], thread: [2,0,0]: index 4 of dimension 0 is not below its size 4
// TWICE-NEXT: twice.mlir:[[#LOAD]]:12: out-of-bounds memref.load in kernel 'twice', block: [0,0,0], thread: [3,0,0]: index 5 of dimension 0 is not below its size 4
// TWICE-NOT: out-of-bounds
// TWICE: ERROR SUMMARY: 2 errors
// TWICE-ERR: kernel 'twice'{{.*}}: 2 thread(s) accessed memory out of bounds
// LOOPS-NOT: runs on fibers
// LOOPS: scf.parallel
// LOOPS-NOT: gpu.barrier

//--- store.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %in[%i] : memref<?xf32>
      // Bug: %out has one element less than %in.
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %in = memref.alloc(%c8) : memref<?xf32>
    %out = memref.alloc(%c7) : memref<?xf32>
    gpu.launch_func @kernels::@copy blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>)
    vector.print str "done\n"
    return
  }
}

//--- shared.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @tile(%x: memref<?xf32>)
        workgroup(%s: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<?xf32>
      // Bug: 5 threads, 4 slots of workgroup memory.
      memref.store %v, %s[%t] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %w = memref.load %s[%c0] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%t] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : index
    %x = memref.alloc(%c5) : memref<?xf32>
    gpu.launch_func @kernels::@tile blocks in (%c1, %c1, %c1)
        threads in (%c5, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}

//--- twice.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%x: memref<?xf32>)
        workgroup(%s: memref<4xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %i = arith.addi %t, %c2 : index
      // Bug: threads 2 and 3 read past the end, and write there below.
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %s[%t] : memref<4xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %s[%t] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc(%c4) : memref<?xf32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}
