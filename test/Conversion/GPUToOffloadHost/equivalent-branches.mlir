// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,offload-host-kernel-to-llvm))' | FileCheck %s

// Thread loops version the thread loop of a bounds-checked kernel on a
// uniform test; when the check became the loop bound in both versions, the
// two copies are the same and convert-gpu-to-offload-host keeps one: a
// single loop over the threads (the single-iteration y and z dimensions of
// the 1-D block are dropped too), one load of each operand.

// CHECK-LABEL: gpu.module @axpy
// CHECK: llvm.func internal @axpy(
// CHECK-COUNT-1: llvm.fmul
// CHECK-NOT: llvm.fmul
// CHECK: llvm.func internal @__offload_thread.axpy(
gpu.module @axpy {
  gpu.func @axpy(%x: memref<?xf32>, %y: memref<?xf32>, %n: index, %a: f32)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %ax = arith.mulf %a, %xv : f32
      %r = arith.addf %ax, %yv : f32
      memref.store %r, %y[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Branches that differ in one operand are not merged: the condition still
// chooses between the two values (the lowering to cf sinks the common
// multiply into the join block).

// CHECK-LABEL: gpu.module @different
// CHECK: llvm.func internal @pick(%{{.*}}: i1, %[[A:.*]]: f32, %{{.*}}: f32, %[[B:.*]]: f32, %{{.*}}: !llvm.ptr
// CHECK: llvm.cond_br %{{.*}}, ^[[JOIN:.*]](%[[A]] : f32), ^[[JOIN]](%[[B]] : f32)
// CHECK: ^[[JOIN]](%[[V:.*]]: f32):
// CHECK: llvm.fmul %[[A]], %[[V]]
// CHECK: llvm.func internal @__offload_thread.pick(
gpu.module @different {
  gpu.func @pick(%x: memref<?xf32>, %c: i1, %a: f32, %d: f32, %b: f32) kernel {
    %tid = gpu.thread_id x
    scf.if %c {
      %p = arith.mulf %a, %a : f32
      memref.store %p, %x[%tid] : memref<?xf32>
    } else {
      %p = arith.mulf %a, %b : f32
      memref.store %p, %x[%tid] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Equivalent branches with results: the then branch's values replace the
// results.

// CHECK-LABEL: gpu.module @results
// CHECK: llvm.func internal @twice(
// CHECK-NOT: llvm.cond_br
// CHECK: llvm.fadd
// CHECK-NOT: llvm.fadd
// CHECK: llvm.func internal @__offload_thread.twice(
gpu.module @results {
  gpu.func @twice(%x: memref<?xf32>, %c: i1, %a: f32) kernel {
    %tid = gpu.thread_id x
    %v = scf.if %c -> f32 {
      %s = arith.addf %a, %a : f32
      scf.yield %s : f32
    } else {
      %s = arith.addf %a, %a : f32
      scf.yield %s : f32
    }
    memref.store %v, %x[%tid] : memref<?xf32>
    gpu.return
  }
}
