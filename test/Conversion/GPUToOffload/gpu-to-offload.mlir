// RUN: offload-opt %s -split-input-file -convert-gpu-to-offload | FileCheck %s
// RUN: offload-opt %s -split-input-file \
// RUN:   -convert-gpu-to-offload="platform=cuda device-index=2" \
// RUN: | FileCheck %s --check-prefix=CUDA

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<?xf32>, %arg1: f32) kernel { gpu.return }
  }

  // CHECK-LABEL: func.func @sync_launch
  // CHECK-SAME: (%[[BUF:.*]]: memref<?xf32>, %[[F:.*]]: f32, %[[N:.*]]: index)
  // CUDA-LABEL: func.func @sync_launch
  func.func @sync_launch(%buf: memref<?xf32>, %f: f32, %n: index) {
    // CHECK: %[[DEV:.*]] = offload.get_device host 0
    // CUDA: offload.get_device cuda 2
    // CHECK: %[[C1:.*]] = arith.constant 1 : index
    %c1 = arith.constant 1 : index
    // CHECK: offload.launch @kernels::@k on %[[DEV]]
    // CHECK-SAME: blocks in (%[[C1]], %[[C1]], %[[C1]])
    // CHECK-SAME: threads in (%[[N]], %[[C1]], %[[C1]])
    // CHECK-SAME: args(%[[BUF]] : memref<?xf32>, %[[F]] : f32)
    // CHECK-NOT: queue
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%n, %c1, %c1) args(%buf : memref<?xf32>, %f : f32)
    // CHECK-NEXT: return
    return
  }

  // One device per function, created once at the start of the entry block.
  // CHECK-LABEL: func.func @i32_sizes
  // CHECK-SAME: (%[[BUF:.*]]: memref<?xf32>, %[[N:.*]]: i32, %[[SMEM:.*]]: i32)
  func.func @i32_sizes(%buf: memref<?xf32>, %n: i32, %smem: i32) {
    // CHECK: %[[DEV:.*]] = offload.get_device host 0
    // CHECK-NOT: offload.get_device
    %c1 = arith.constant 1 : i32
    %f = arith.constant 0.0 : f32
    // CHECK: %[[NX:.*]] = arith.index_castui %[[N]] : i32 to index
    // CHECK: offload.launch @kernels::@k on %[[DEV]]
    // CHECK-SAME: threads in (%[[NX]],
    // CHECK-SAME: dynamic_shared_memory_size %[[SMEM]]
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%n, %c1, %c1) : i32 dynamic_shared_memory_size %smem
        args(%buf : memref<?xf32>, %f : f32)
    // CHECK: offload.launch @kernels::@k on %[[DEV]]
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) : i32 args(%buf : memref<?xf32>, %f : f32)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%arg0: memref<16xf32>, %arg1: f32) kernel { gpu.return }
  }

  // CHECK-LABEL: func.func @async_chain
  // CHECK-SAME: (%[[H:.*]]: memref<16xf32>, %[[F:.*]]: f32)
  func.func @async_chain(%h: memref<16xf32>, %f: f32) {
    // CHECK: %[[DEV:.*]] = offload.get_device host 0
    %c1 = arith.constant 1 : index
    // gpu.wait async without dependencies creates a queue.
    // CHECK: %[[Q0:.*]] = offload.queue_create %[[DEV]]
    %t0 = gpu.wait async
    // An async op uses the queue of its first dependency.
    // CHECK: %[[D:.*]] = offload.alloc device on %[[DEV]] : memref<16xf32>
    %d, %t1 = gpu.alloc async [%t0] () : memref<16xf32>
    // CHECK: offload.memcpy %[[D]], %[[H]] on %[[DEV]] queue %[[Q0]]
    %t2 = gpu.memcpy async [%t1] %d, %h : memref<16xf32>, memref<16xf32>
    // CHECK: %[[Q1:.*]] = offload.queue_create %[[DEV]]
    %t3 = gpu.wait async
    // CHECK: offload.memfill %[[D]], %[[F]] on %[[DEV]] queue %[[Q1]]
    %t4 = gpu.memset async [%t3] %d, %f : memref<16xf32>, f32
    // Other dependencies are waited on through events.
    // CHECK: %[[E:.*]] = offload.event_record %[[Q1]]
    // CHECK: offload.queue_wait %[[Q0]] [%[[E]]]
    // CHECK: offload.event_destroy %[[E]]
    // CHECK: offload.launch @kernels::@k on %[[DEV]] queue %[[Q0]]
    %t5 = gpu.launch_func async [%t2, %t4] @kernels::@k
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%d : memref<16xf32>, %f : f32)
    // gpu.wait async with several dependencies: a new queue waiting on them.
    // CHECK: %[[Q2:.*]] = offload.queue_create %[[DEV]]
    // CHECK: %[[E0:.*]] = offload.event_record %[[Q0]]
    // CHECK: %[[E1:.*]] = offload.event_record %[[Q1]]
    // CHECK: offload.queue_wait %[[Q2]] [%[[E0]], %[[E1]]]
    // CHECK: offload.event_destroy %[[E0]]
    // CHECK: offload.event_destroy %[[E1]]
    %t6 = gpu.wait async [%t5, %t3]
    // A single dependency is reused.
    // CHECK-NOT: offload.queue_create
    %t7 = gpu.wait async [%t6]
    // gpu.dealloc waits for its dependencies before freeing.
    // CHECK: offload.queue_sync %[[Q2]]
    // CHECK: offload.free %[[D]] : memref<16xf32>
    %t8 = gpu.dealloc async [%t7] %d : memref<16xf32>
    // A blocking gpu.wait synchronizes and destroys each queue once.
    // CHECK: offload.queue_sync %[[Q2]]
    // CHECK-NEXT: offload.queue_destroy %[[Q2]]
    // CHECK-NEXT: offload.queue_sync %[[Q1]]
    // CHECK-NEXT: offload.queue_destroy %[[Q1]]
    // CHECK-NEXT: return
    gpu.wait [%t8, %t7, %t3]
    return
  }

  // A synchronous op with dependencies runs on the first dependency's queue,
  // then synchronizes it.
  // CHECK-LABEL: func.func @sync_with_deps
  func.func @sync_with_deps(%h: memref<16xf32>, %d: memref<16xf32>) {
    // CHECK: %[[Q0:.*]] = offload.queue_create
    // CHECK: %[[Q1:.*]] = offload.queue_create
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    // CHECK: %[[E:.*]] = offload.event_record %[[Q1]]
    // CHECK: offload.queue_wait %[[Q0]] [%[[E]]]
    // CHECK: offload.memcpy {{.*}} queue %[[Q0]]
    // CHECK-NEXT: offload.queue_sync %[[Q0]]
    gpu.memcpy [%t0, %t1] %d, %h : memref<16xf32>, memref<16xf32>
    // CHECK: offload.queue_sync %[[Q0]]
    // CHECK-NEXT: offload.queue_sync %[[Q1]]
    // CHECK-NEXT: offload.free
    gpu.dealloc [%t0, %t1] %d : memref<16xf32>
    gpu.wait [%t0, %t1]
    return
  }
}

// -----

// CHECK-LABEL: func.func @memory
// CHECK-SAME: (%[[N:.*]]: index, %[[H:.*]]: memref<?xi32>)
func.func @memory(%n: index, %h: memref<?xi32>) {
  // CHECK: %[[DEV:.*]] = offload.get_device host 0
  // CHECK: %[[M:.*]] = offload.alloc managed on %[[DEV]] (%[[N]]) : memref<?xi32>
  %m = gpu.alloc host_shared (%n) : memref<?xi32>
  // CHECK: %[[D:.*]] = offload.alloc device on %[[DEV]] (%[[N]]) : memref<?xi32>
  %d = gpu.alloc (%n) : memref<?xi32>
  // CHECK: offload.memcpy %[[D]], %[[H]] on %[[DEV]] : memref<?xi32>, memref<?xi32>
  gpu.memcpy %d, %h : memref<?xi32>, memref<?xi32>
  // CHECK: %[[V:.*]] = arith.constant 7 : i32
  %v = arith.constant 7 : i32
  // CHECK: offload.memfill %[[M]], %[[V]] on %[[DEV]] : memref<?xi32>, i32
  gpu.memset %m, %v : memref<?xi32>, i32
  // CHECK: %[[U:.*]] = memref.cast %[[H]]
  %u = memref.cast %h : memref<?xi32> to memref<*xi32>
  // CHECK: offload.host_register %[[U]] on %[[DEV]] : memref<*xi32>
  gpu.host_register %u : memref<*xi32>
  // CHECK: offload.host_unregister %[[U]] on %[[DEV]] : memref<*xi32>
  gpu.host_unregister %u : memref<*xi32>
  // CHECK: offload.free %[[D]] : memref<?xi32>
  // CHECK: offload.free %[[M]] : memref<?xi32>
  gpu.dealloc %d : memref<?xi32>
  gpu.dealloc %m : memref<?xi32>
  return
}

// -----

// Tokens flowing through functions, calls, scf and cf become queues. Ops in
// nested regions use the device of the enclosing function.

// CHECK-LABEL: func.func @structural
// CHECK-SAME: (%[[Q:.*]]: !offload.queue, %[[N:.*]]: index, %[[B:.*]]: i1) -> !offload.queue
func.func @structural(%t: !gpu.async.token, %n: index, %b: i1) -> !gpu.async.token {
  // CHECK: %[[DEV:.*]] = offload.get_device host 0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[IT:.*]] = %[[Q]]) -> (!offload.queue)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %t) -> !gpu.async.token {
    // CHECK: offload.alloc device on %[[DEV]]
    // CHECK: scf.yield %[[IT]] : !offload.queue
    %d, %t1 = gpu.alloc async [%it] () : memref<4xf32>
    scf.yield %t1 : !gpu.async.token
  }
  // CHECK: cf.cond_br %[[B]], ^[[BB1:.*]](%[[R]] : !offload.queue), ^[[BB2:.*]]
  cf.cond_br %b, ^bb1(%r : !gpu.async.token), ^bb2
// CHECK: ^[[BB1]](%[[X:.*]]: !offload.queue):
^bb1(%x: !gpu.async.token):
  // CHECK: return %[[X]] : !offload.queue
  return %x : !gpu.async.token
^bb2:
  // CHECK: %[[C:.*]] = call @structural(%[[R]], %[[N]], %[[B]]) : (!offload.queue, index, i1) -> !offload.queue
  %c = call @structural(%r, %n, %b) : (!gpu.async.token, index, i1) -> !gpu.async.token
  return %c : !gpu.async.token
}

// CHECK-LABEL: func.func @in_async_execute
func.func @in_async_execute(%h: memref<4xf32>) {
  // CHECK: %[[DEV:.*]] = offload.get_device host 0
  // CHECK: async.execute
  %token = async.execute {
    // CHECK: %[[D:.*]] = offload.alloc device on %[[DEV]]
    // CHECK: offload.memcpy %[[D]], %{{.*}} on %[[DEV]]
    %d = gpu.alloc () : memref<4xf32>
    gpu.memcpy %d, %h : memref<4xf32>, memref<4xf32>
    async.yield
  }
  async.await %token : !async.token
  return
}
