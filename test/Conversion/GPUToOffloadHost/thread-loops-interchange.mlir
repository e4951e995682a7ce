// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,canonicalize,cse))' | FileCheck %s

// Grid-stride loops in the forms other than an index scf.for move out of the
// thread loop like it (Interchange.cpp): the loop over thread x, innermost,
// walks the data contiguously, with what is left of the range as its bound.

// The scf.while a C frontend emits for `while (i < n) { ...; i += stride; }`
// over size_t (ult) is the unsigned scf.for it stands for.

// CHECK-LABEL: gpu.func @while_grid_stride
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK-NOT: scf.while
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[STRIDE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: scf.for unsigned %[[J:.*]] = %[[BASE]] to %[[N]] step %[[STRIDE]] {
// CHECK:   %[[LEFT:.*]] = arith.subi %[[N]], %[[J]] : index
// CHECK:   %[[UB:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK:   scf.parallel (%[[X:.*]]) = (%{{.*}}) to (%[[UB]])
// CHECK:     %[[I:.*]] = arith.addi %[[J]], %[[X]] : index
// CHECK-NOT: scf.if
// CHECK:     memref.load %{{.*}}[%[[I]]]
gpu.module @kernels {
  gpu.func @while_grid_stride(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32,
                              %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %bd = gpu.block_dim x
    %gd = gpu.grid_dim x
    %base = arith.muli %bx, %bd : index
    %i0 = arith.addi %base, %tx : index
    %stride = arith.muli %gd, %bd : index
    %end = scf.while (%i = %i0) : (index) -> index {
      %more = arith.cmpi ult, %i, %n : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%i: index):
      %xv = memref.load %x[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      memref.store %p, %y[%i] : memref<?xf32>
      %next = arith.addi %i, %stride : index
      scf.yield %next : index
    }
    gpu.return
  }
}

// -----

// A signed counting scf.while (`n > i`, operands swapped) whose other
// loop-carried value is a per-thread sum and whose final induction variable
// is used: the sum stays an iteration argument and the final value is
// carried by one more (the first value that failed the comparison, the
// initial one when the loop does not run).

// CHECK-LABEL: gpu.func @while_final_value
// CHECK-SAME: %[[N:[a-z0-9]+]]: index) kernel
// CHECK-NOT: scf.while
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[FINAL:.*]] = memref.alloca(%{{.*}}) : memref<?xindex>
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[X0:.*]]) =
// CHECK:   memref.store %[[X0]], %[[FINAL]]
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %[[C4]] {
// CHECK:   scf.parallel (%{{.*}}, %{{.*}}, %[[X:.*]]) =
// CHECK:     %[[I:.*]] = arith.addi %[[J]], %[[X]] : index
// CHECK:     memref.load %{{.*}}[%[[I]]] : memref<?xf32>
// CHECK:     %[[NEXT:.*]] = arith.addi %[[I]], %[[C4]] : index
// CHECK:     memref.store %[[NEXT]]
gpu.module @kernels {
  gpu.func @while_final_value(%x: memref<?xf32>, %out: memref<?xf32>,
                              %last: memref<?xindex>, %n: index) kernel {
    %tx = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %zero = arith.constant 0.0 : f32
    %end:2 = scf.while (%s = %zero, %i = %tx) : (f32, index) -> (f32, index) {
      %more = arith.cmpi sgt, %n, %i : index
      scf.condition(%more) %s, %i : f32, index
    } do {
    ^bb0(%s: f32, %i: index):
      %v = memref.load %x[%i] : memref<?xf32>
      %s2 = arith.addf %s, %v : f32
      %next = arith.addi %c4, %i : index
      scf.yield %s2, %next : f32, index
    }
    memref.store %end#0, %out[%tx] : memref<?xf32>
    memref.store %end#1, %last[%tx] : memref<?xindex>
    gpu.barrier
    gpu.return
  }
}

// -----

// An i32 grid-stride loop (`int` in CUDA C: ids index_cast to i32): the
// thread offset is non-negative and small (a thread id of a host block of
// at most 1024 threads), so the loop is normalized like an index one; the
// guard `tid < n - j` compares zero-extended values, without the wrap of
// `j + tid < n` in i32, and becomes the thread loop's bound. Where the body
// runs, j + tid < n does not wrap, so its extension to index is index(j) +
// tid: the accesses step in index (no sign extension per access).

// CHECK-LABEL: gpu.func @i32_grid_stride
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} : i32 {
// CHECK:   %[[LEFT:.*]] = arith.subi %[[N]], %[[J]] : i32
// CHECK:   %[[LEFTX:.*]] = arith.index_castui %[[LEFT]] : i32 to index
// CHECK:   %[[UB:.*]] = arith.minsi %[[LEFTX]], %{{.*}} : index
// CHECK:   scf.parallel (%[[X:.*]]) = (%{{.*}}) to (%[[UB]])
// CHECK-NOT: scf.if
// CHECK:     %[[JX:.*]] = arith.index_cast %[[J]] : i32 to index
// CHECK:     %[[I:.*]] = arith.addi %[[JX]], %[[X]] : index
// CHECK:     memref.load %{{.*}}[%[[I]]]
// CHECK:     memref.store %{{.*}}, %{{.*}}[%[[I]]]
gpu.module @kernels {
  gpu.func @i32_grid_stride(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32,
                            %n: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %txi = gpu.thread_id x
    %bxi = gpu.block_id x
    %bdi = gpu.block_dim x
    %gdi = gpu.grid_dim x
    %tx = arith.index_cast %txi : index to i32
    %bx = arith.index_cast %bxi : index to i32
    %bd = arith.index_cast %bdi : index to i32
    %gd = arith.index_cast %gdi : index to i32
    %base = arith.muli %bx, %bd : i32
    %i0 = arith.addi %base, %tx : i32
    %stride = arith.muli %gd, %bd : i32
    scf.for %i = %i0 to %n step %stride : i32 {
      %ix = arith.index_cast %i : i32 to index
      %xv = memref.load %x[%ix] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      memref.store %p, %y[%ix] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// The same with `unsigned` ids and loop (C's `unsigned i`): the body's
// zero extension of i = j + tid, which does not wrap below n, is
// index(j) + tid.

// CHECK-LABEL: gpu.func @u32_grid_stride
// CHECK: scf.for unsigned %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// CHECK:   scf.parallel (%[[X:.*]]) = (%{{.*}}) to (%{{.*}})
// CHECK:     %[[JX:.*]] = arith.index_castui %[[J]] : i32 to index
// CHECK:     %[[I:.*]] = arith.addi %[[JX]], %[[X]] : index
// CHECK:     memref.load %{{.*}}[%[[I]]]
// CHECK:     memref.store %{{.*}}, %{{.*}}[%[[I]]]
gpu.module @kernels {
  gpu.func @u32_grid_stride(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32,
                            %n: i32) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %txi = gpu.thread_id x
    %bxi = gpu.block_id x
    %bdi = gpu.block_dim x
    %gdi = gpu.grid_dim x
    %tx = arith.index_castui %txi : index to i32
    %bx = arith.index_castui %bxi : index to i32
    %bd = arith.index_castui %bdi : index to i32
    %gd = arith.index_castui %gdi : index to i32
    %base = arith.muli %bx, %bd : i32
    %i0 = arith.addi %base, %tx : i32
    %stride = arith.muli %gd, %bd : i32
    scf.for unsigned %i = %i0 to %n step %stride : i32 {
      %ix = arith.index_castui %i : i32 to index
      %xv = memref.load %x[%ix] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      memref.store %p, %y[%ix] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A grid-stride loop over memrefs of dynamic strided layout (views a caller
// passes): the dynamic innermost stride scales the steps along thread x and
// along the loop alike, so thread x is still the contiguous one.

// CHECK-LABEL: gpu.func @strided_grid_stride
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:   scf.parallel (%[[X:.*]]) =
// CHECK:     %[[I:.*]] = arith.addi %[[J]], %[[X]] : index
// CHECK-NOT: scf.if
// CHECK:     memref.load %{{.*}}[%[[I]]] : memref<?xf32, strided<[?], offset: ?>>
gpu.module @kernels {
  gpu.func @strided_grid_stride(%x: memref<?xf32, strided<[?], offset: ?>>,
                                %y: memref<?xf32, strided<[?], offset: ?>>,
                                %a: f32, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %bd = gpu.block_dim x
    %gd = gpu.grid_dim x
    %base = arith.muli %bx, %bd : index
    %i0 = arith.addi %base, %tx : index
    %stride = arith.muli %gd, %bd : index
    scf.for %i = %i0 to %n step %stride {
      %xv = memref.load %x[%i] : memref<?xf32, strided<[?], offset: ?>>
      %p = arith.mulf %a, %xv : f32
      memref.store %p, %y[%i] : memref<?xf32, strided<[?], offset: ?>>
    }
    gpu.return
  }
}

// -----

// An scf.while that does not count by addition (`i >>= 1`) stays a while
// loop of each thread (in the thread loop before the barrier).

// CHECK-LABEL: gpu.func @while_not_counting
// CHECK: scf.parallel
// CHECK:   scf.while
// CHECK:     arith.shrui
gpu.module @kernels {
  gpu.func @while_not_counting(%x: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %end = scf.while (%i = %n) : (index) -> index {
      %more = arith.cmpi ugt, %i, %c0 : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%i: index):
      %j = arith.addi %i, %tx : index
      %v = memref.load %x[%j] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %x[%j] : memref<?xf32>
      %next = arith.shrui %i, %c1 : index
      scf.yield %next : index
    }
    gpu.barrier
    gpu.return
  }
}
