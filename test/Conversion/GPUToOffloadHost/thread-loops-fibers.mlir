// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops))' | FileCheck %s

// Kernels whose synchronization thread loops cannot reproduce are left
// unchanged for the fiber scheduler, with a remark and the reason attached.

// CHECK-LABEL: gpu.func @divergent_barriers
// CHECK-SAME: offload.fiber_reason = "both branches of an scf.if whose condition differs between threads synchronize the block"
// CHECK: gpu.barrier
gpu.module @kernels {
  // expected-remark @below {{kernel 'divergent_barriers' runs on fibers: both branches of an scf.if whose condition differs between threads synchronize the block}}
  gpu.func @divergent_barriers(%a: memref<?xf32>) kernel {
    %c16 = arith.constant 16 : index
    %tx = gpu.thread_id x
    %lo = arith.cmpi ult, %tx, %c16 : index
    // expected-note @below {{here}}
    scf.if %lo {
      gpu.barrier
    } else {
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// The trip count is loaded from memory the kernel writes: not provably the
// same for every thread (thread-loops-invariant-loads.mlir: memory the
// kernel does not write keeps thread loops).

// CHECK-LABEL: gpu.func @loaded_trip_count
// CHECK-SAME: offload.fiber_reason
gpu.module @kernels {
  // expected-remark @below {{kernel 'loaded_trip_count' runs on fibers: threads synchronize inside an scf.for whose bounds are not provably the same for every thread (they depend on the thread id or on memory the kernel writes)}}
  gpu.func @loaded_trip_count(%a: memref<?xindex>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %n = memref.load %a[%c0] : memref<?xindex>
    // expected-note @below {{here}}
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
    }
    memref.store %tx, %a[%tx] : memref<?xindex>
    gpu.return
  }
}

// -----

// The kernel writes through a pointer made from an integer, which may point
// into any argument: no load is known to read unwritten memory.

// CHECK-LABEL: gpu.func @loaded_trip_count_unknown_write
// CHECK-SAME: offload.fiber_reason
gpu.module @kernels {
  // expected-remark @below {{kernel 'loaded_trip_count_unknown_write' runs on fibers: threads synchronize inside an scf.for whose bounds are not provably the same for every thread (they depend on the thread id or on memory the kernel writes)}}
  gpu.func @loaded_trip_count_unknown_write(%a: memref<?xindex>, %address: i64,
                                            %v: i64) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.load %a[%c0] : memref<?xindex>
    // expected-note @below {{here}}
    scf.for %i = %c0 to %n step %c1 {
      gpu.barrier
    }
    %p = llvm.inttoptr %address : i64 to !llvm.ptr
    llvm.store %v, %p : i64, !llvm.ptr
    gpu.return
  }
}

// -----

// Threads that skip a barrier reach another one.

gpu.module @kernels {
  // expected-remark @below {{kernel 'skip_then_barrier' runs on fibers: a block-wide barrier under a condition that differs between threads, and the threads that skip it reach another barrier}}
  gpu.func @skip_then_barrier(%a: memref<?xf32>) kernel {
    %c16 = arith.constant 16 : index
    %tx = gpu.thread_id x
    %lo = arith.cmpi ult, %tx, %c16 : index
    // expected-note @below {{here}}
    scf.if %lo {
      gpu.barrier
    }
    gpu.barrier
    gpu.return
  }
}

// -----

// A barrier under a thread-dependent condition inside a loop.

gpu.module @kernels {
  // expected-remark @below {{kernel 'divergent_in_loop' runs on fibers: a block-wide barrier under a condition that differs between threads, inside a loop}}
  gpu.func @divergent_in_loop(%a: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tx = gpu.thread_id x
    scf.for %i = %c0 to %c4 step %c1 {
      %lo = arith.cmpi ult, %tx, %i : index
      // expected-note @below {{here}}
      scf.if %lo {
        gpu.barrier
      }
    }
    gpu.return
  }
}

// -----

// A barrier in an scf.while whose condition depends on the thread.

gpu.module @kernels {
  // expected-remark @below {{kernel 'divergent_while' runs on fibers: threads synchronize inside an scf.while whose condition is not provably the same for every thread}}
  gpu.func @divergent_while(%a: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    // expected-note @below {{here}}
    %r = scf.while (%s = %tx) : (index) -> index {
      %go = arith.cmpi ugt, %s, %c0 : index
      scf.condition(%go) %s : index
    } do {
    ^bb0(%s: index):
      gpu.barrier
      %n = arith.subi %s, %c1 : index
      scf.yield %n : index
    }
    gpu.return
  }
}
