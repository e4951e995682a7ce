// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,offload-host-vectorize-thread-loops,canonicalize,cse))' | FileCheck %s

// Kernels without synchronization whose bodies branch on bounds checks that
// are no loop bounds (bench/host/kernels/forms/stencil3: `nobounds`, the end
// point checks without an `i < n` around them; `i32`, an i32 `i < n`) take
// thread loops versioned on the checks, and the interior blocks' copy runs
// across threads as vector lanes: three contiguous loads and one store of
// 16 lanes, as the index form (`i < n` a loop bound) does. Before, these
// kernels kept their per-thread body and ran 3.5x slower.

// CHECK-LABEL: gpu.func @stencil_nobounds
// CHECK-SAME: offload.thread_loops
// CHECK: scf.if
// CHECK:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c16)
// CHECK-COUNT-3: vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK:     vector.store %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK: } else {
gpu.module @kernels {
  gpu.func @stencil_nobounds(%n: index, %w0: f32, %w1: f32, %w2: f32,
                             %in: memref<?xf32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %last = arith.subi %n, %c1 : index
    %first = arith.cmpi eq, %i, %c0 : index
    %end = arith.cmpi eq, %i, %last : index
    %edge = arith.ori %first, %end : i1
    scf.if %edge {
      %v = memref.load %in[%i] : memref<?xf32>
      memref.store %v, %out[%i] : memref<?xf32>
    } else {
      %im1 = arith.subi %i, %c1 : index
      %ip1 = arith.addi %i, %c1 : index
      %l = memref.load %in[%im1] : memref<?xf32>
      %m = memref.load %in[%i] : memref<?xf32>
      %r = memref.load %in[%ip1] : memref<?xf32>
      %t0 = arith.mulf %w0, %l : f32
      %t1 = arith.mulf %w1, %m : f32
      %t2 = arith.mulf %w2, %r : f32
      %s0 = arith.addf %t0, %t1 : f32
      %s1 = arith.addf %s0, %t2 : f32
      memref.store %s1, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @stencil_i32
// CHECK-SAME: offload.thread_loops
// CHECK: scf.if
// CHECK:   scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%c16)
// CHECK-COUNT-3: vector.load %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK:     vector.store %{{.*}} : memref<?xf32>, vector<16xf32>
// CHECK: } else {
gpu.module @kernels {
  gpu.func @stencil_i32(%n: i32, %w0: f32, %w1: f32, %w2: f32,
                        %in: memref<?xf32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c256 = arith.constant 256 : i32
    %bidx = gpu.block_id x
    %tidx = gpu.thread_id x
    %bid = arith.index_cast %bidx : index to i32
    %tid = arith.index_cast %tidx : index to i32
    %base = arith.muli %bid, %c256 : i32
    %i = arith.addi %base, %tid : i32
    %inside = arith.cmpi slt, %i, %n : i32
    scf.if %inside {
      %ix = arith.index_cast %i : i32 to index
      %last = arith.subi %n, %c1 : i32
      %first = arith.cmpi eq, %i, %c0 : i32
      %end = arith.cmpi eq, %i, %last : i32
      %edge = arith.ori %first, %end : i1
      scf.if %edge {
        %v = memref.load %in[%ix] : memref<?xf32>
        memref.store %v, %out[%ix] : memref<?xf32>
      } else {
        %im1 = arith.subi %i, %c1 : i32
        %ip1 = arith.addi %i, %c1 : i32
        %im1x = arith.index_cast %im1 : i32 to index
        %ip1x = arith.index_cast %ip1 : i32 to index
        %l = memref.load %in[%im1x] : memref<?xf32>
        %m = memref.load %in[%ix] : memref<?xf32>
        %r = memref.load %in[%ip1x] : memref<?xf32>
        %t0 = arith.mulf %w0, %l : f32
        %t1 = arith.mulf %w1, %m : f32
        %t2 = arith.mulf %w2, %r : f32
        %s0 = arith.addf %t0, %t1 : f32
        %s1 = arith.addf %s0, %t2 : f32
        memref.store %s1, %out[%ix] : memref<?xf32>
      }
    }
    gpu.return
  }
}
