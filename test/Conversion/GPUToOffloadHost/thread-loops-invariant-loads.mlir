// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops))' | FileCheck %s

// A load of a uniform address of memory the kernel does not write is the
// same for every thread: a loop bound read that way keeps thread loops (the
// loop moves out of them, its bound is read once per block).
// thread-loops-fibers.mlir has the forms that still run on fibers (the
// kernel writes the memory, or writes through a pointer of unknown origin).

// CHECK-LABEL: gpu.func @loaded_trip_count(
// CHECK-SAME: %[[SIZES:[^:]*]]: memref<?xindex>
// CHECK-SAME: offload.thread_loops
// CHECK: scf.parallel
// CHECK: }
// CHECK: %[[N:.*]] = memref.load %[[SIZES]][%{{.*}}] : memref<?xindex>
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK: scf.parallel
// CHECK: memref.load
// CHECK: scf.parallel
// CHECK: memref.store
gpu.module @kernels {
  gpu.func @loaded_trip_count(%sizes: memref<?xindex>, %out: memref<?xf32>)
      workgroup(%sh : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %n = memref.load %sizes[%c0] : memref<?xindex>
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %sh[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %v, %out[%tx] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Through a view of the argument, with the address computed from a uniform
// loop's induction variable: the bound of the inner loop is uniform too.

// CHECK-LABEL: gpu.func @loaded_through_subview(
// CHECK-SAME: offload.thread_loops
// CHECK: scf.for
// CHECK: scf.parallel
// CHECK: }
// CHECK: %[[N:.*]] = memref.load %{{.*}} : memref<4xindex, strided<[1], offset: 4>>
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[N]]
// CHECK: scf.parallel
gpu.module @kernels {
  gpu.func @loaded_through_subview(%sizes: memref<8xindex>, %out: memref<?xf32>)
      kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %f1 = arith.constant 1.0 : f32
    %tx = gpu.thread_id x
    %view = memref.subview %sizes[4] [4] [1]
        : memref<8xindex> to memref<4xindex, strided<[1], offset: 4>>
    scf.for %j = %c0 to %c4 step %c1 {
      %n = memref.load %view[%j] : memref<4xindex, strided<[1], offset: 4>>
      scf.for %i = %c0 to %n step %c1 {
        gpu.barrier
        memref.store %f1, %out[%tx] : memref<?xf32>
      }
    }
    gpu.return
  }
}
