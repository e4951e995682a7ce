// Issue 25: offload-run --check=sync reports a barrier that some threads of
// a block reach and others do not, in compute-sanitizer's synccheck shape,
// with the block, the threads that arrived and those that did not, and the
// barrier's location; the launch fails. Without it, threads that return
// early count as arrived (as on CUDA) and the kernel runs silently; threads
// at different barriers are a deadlock error.
//
// RUN: split-file %s %t
// RUN: not offload-run --check=sync %t/exit.mlir 2>%t/exit.err | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=EXIT-ERR < %t/exit.err
// RUN: not offload-run --check=sync --thread-loops=false %t/exit.mlir 2>/dev/null | FileCheck %s --check-prefix=EXIT
// RUN: env OFFLOAD_CACHE_DIR= not offload-run --jit --check=sync %t/exit.mlir 2>/dev/null | FileCheck %s --check-prefix=EXIT
// RUN: offload-run %t/exit.mlir | FileCheck %s --check-prefix=UNCHECKED
// RUN: not offload-run --check=sync %t/two.mlir 2>%t/two.err | FileCheck %s --check-prefix=TWO
// RUN: FileCheck %s --check-prefix=TWO-ERR < %t/two.err
// RUN: not offload-run %t/two.mlir 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: offload-run --check=sync %t/uniform.mlir | FileCheck %s --check-prefix=UNIFORM

// EXIT: ========= Barrier error detected. Divergent thread(s) in block
// EXIT-NEXT: =========     at the barrier at {{.*}}exit.mlir:[[#BARRIER:]]:7 in kernel 'early_exit', block: [1,0,0]
// EXIT-NEXT: =========     arrived: 2 thread(s): [0,0,0] [1,0,0]
// EXIT-NEXT: =========     exited without arriving: 2 thread(s): [2,0,0] [3,0,0]
// EXIT-NOT: Barrier error
// EXIT: ========= ERROR SUMMARY: 1 error
// EXIT-ERR: OFFLOAD_ERRC_BACKEND_FAILURE: kernel 'early_exit'{{.*}}: 1 barrier error(s) (synccheck)
// UNCHECKED: done
// UNCHECKED-NOT: =========

// TWO: ========= Barrier error detected. Divergent thread(s) in block
// TWO-NEXT: =========     threads of kernel 'two_barriers', block: [0,0,0] wait at different barriers
// TWO-NEXT: =========     at the barrier at {{.*}}two.mlir:[[#EVEN:]]:9: 2 thread(s): [0,0,0] [2,0,0]
// TWO-NEXT: =========     at the barrier at {{.*}}two.mlir:[[#EVEN+2]]:9: 2 thread(s): [1,0,0] [3,0,0]
// TWO: ========= ERROR SUMMARY: 1 error
// TWO-ERR: kernel 'two_barriers'{{.*}}: 1 barrier error(s) (synccheck)
// DEADLOCK: deadlock in kernel 'two_barriers'{{.*}}: in block (0,0,0), threads wait at different barriers
// UNIFORM: 10
// UNIFORM-NEXT: ========= ERROR SUMMARY: 0 errors

//--- exit.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // In block 1, threads 2 and 3 return before the barrier.
    gpu.func @early_exit(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %late = arith.cmpi uge, %t, %c2 : index
      %second = arith.cmpi eq, %b, %c1 : index
      %done = arith.andi %late, %second : i1
      cf.cond_br %done, ^exit, ^work
    ^work:
      gpu.barrier
      %one = arith.constant 1 : i32
      memref.store %one, %out[%t] : memref<?xi32>
      gpu.return
    ^exit:
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc(%c4) : memref<?xi32>
    gpu.launch_func @kernels::@early_exit blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    vector.print str "done\n"
    return
  }
}

//--- two.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Even and odd threads wait at different barriers.
    gpu.func @two_barriers(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c0 = arith.constant 0 : index
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      %one = arith.constant 1 : i32
      // (The store makes the branches differ: identical branches are merged
      // into one barrier, which all threads then reach.)
      scf.if %even {
        gpu.barrier
      } else {
        gpu.barrier
        memref.store %one, %out[%t] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc(%c4) : memref<?xi32>
    gpu.launch_func @kernels::@two_barriers blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- uniform.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Every thread reaches every barrier of a loop.
    gpu.func @loop(%out: memref<?xi32>)
        workgroup(%s: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %s[%t] : memref<4xi32, #gpu.address_space<workgroup>>
      scf.for %i = %c0 to %c3 step %c1 {
        gpu.barrier
      }
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %a = memref.load %s[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
        %b = memref.load %s[%c1] : memref<4xi32, #gpu.address_space<workgroup>>
        %c = memref.load %s[%c3] : memref<4xi32, #gpu.address_space<workgroup>>
        %ab = arith.addi %a, %b : i32
        %abc = arith.addi %ab, %c : i32
        %c2 = arith.constant 2 : index
        %d = memref.load %s[%c2] : memref<4xi32, #gpu.address_space<workgroup>>
        %s4 = arith.addi %abc, %d : i32
        %c4i = arith.constant 4 : i32
        %r = arith.addi %s4, %c4i : i32
        memref.store %r, %out[%c0] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc(%c1) : memref<?xi32>
    gpu.launch_func @kernels::@loop blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    %r = memref.load %out[%c0] : memref<?xi32>
    vector.print %r : i32
    return
  }
}
