// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,canonicalize,cse))' | FileCheck %s

// A top-level barrier splits the thread loop in two. The loaded value lives
// across it in a per-thread array; the index arithmetic is recomputed.

// CHECK-LABEL: gpu.func @top_level
// CHECK-SAME: offload.thread_loops
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C63:.*]] = arith.constant 63 : index
// CHECK: %[[V_SLOT:.*]] = memref.alloca() : memref<64xf32>
// CHECK: scf.parallel (%[[T:.*]]) = (%[[C0]]) to (%[[C64]]) step (%[[C1]]) {
// CHECK:   %[[V:.*]] = memref.load %{{.*}}[%[[T]]] : memref<?xf32>
// CHECK:   memref.store %[[V]], %[[V_SLOT]][%[[T]]]
// CHECK:   memref.store %[[V]], %[[TILE:.*]][%[[T]]] : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: }
// CHECK-NOT: gpu.barrier
// CHECK: scf.parallel (%[[T2:.*]]) = (%[[C0]]) to (%[[C64]]) step (%[[C1]]) {
// CHECK:   %[[V2:.*]] = memref.load %[[V_SLOT]][%[[T2]]]
// CHECK:   %[[R:.*]] = arith.subi %[[C63]], %[[T2]] : index
// CHECK:   %[[W:.*]] = memref.load %[[TILE]][%[[R]]]
// CHECK:   arith.addf %[[W]], %[[V2]] : f32
// CHECK: }
// CHECK-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @top_level(%in: memref<?xf32>, %out: memref<?xf32>)
      workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c63 = arith.constant 63 : index
    %tx = gpu.thread_id x
    %v = memref.load %in[%tx] : memref<?xf32>
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c63, %tx : index
    %w = memref.load %tile[%r] : memref<64xf32, #gpu.address_space<workgroup>>
    %s = arith.addf %w, %v : f32
    memref.store %s, %out[%tx] : memref<?xf32>
    gpu.return
  }
}

// -----

// Without a known block size the loops run over (z, y, x) block dimensions,
// x innermost, and per-thread arrays have the block's size.

// CHECK-LABEL: gpu.func @dynamic_block
// CHECK-DAG: %[[BZ:.*]] = gpu.block_dim z
// CHECK-DAG: %[[BY:.*]] = gpu.block_dim y
// CHECK-DAG: %[[BX:.*]] = gpu.block_dim x
// CHECK: %[[ZY:.*]] = arith.muli %[[BZ]], %[[BY]] : index
// CHECK: %[[N:.*]] = arith.muli %[[ZY]], %[[BX]] : index
// CHECK: %[[SLOT:.*]] = memref.alloca(%[[N]]) : memref<?xi32>
// CHECK: scf.parallel (%[[Z:.*]], %[[Y:.*]], %[[X:.*]]) = ({{.*}}) to (%[[BZ]], %[[BY]], %[[BX]])
// CHECK:   %[[ZB:.*]] = arith.muli %[[Z]], %[[BY]] : index
// CHECK:   %[[YZ:.*]] = arith.addi %[[Y]], %[[ZB]] : index
// CHECK:   %[[YZB:.*]] = arith.muli %[[YZ]], %[[BX]] : index
// CHECK:   %[[LIN:.*]] = arith.addi %[[X]], %[[YZB]] : index
// CHECK:   memref.store %{{.*}}, %[[SLOT]][%[[LIN]]]
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = ({{.*}}) to (%[[BZ]], %[[BY]], %[[BX]])
// CHECK:   memref.load %[[SLOT]]
gpu.module @kernels {
  gpu.func @dynamic_block(%a: memref<?x?xi32>) kernel {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %v = memref.load %a[%ty, %tx] : memref<?x?xi32>
    gpu.barrier
    memref.store %v, %a[%tx, %ty] : memref<?x?xi32>
    gpu.return
  }
}

// -----

// A barrier in an scf.for with uniform bounds: the loop moves out of the
// thread loops (interchange). Its loop-carried value differs between threads
// and lives in a per-thread array.

// CHECK-LABEL: gpu.func @uniform_for
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf32>, %[[N:[a-z0-9]+]]: index
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<32xf32>
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK:   memref.store %{{.*}}, %[[ACC]][%[[T]]]
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} {
// CHECK:   scf.parallel (%[[T1:.*]]) =
// CHECK:     memref.load %[[A]][%[[T1]]]
// CHECK:     memref.store
// CHECK:   }
// CHECK:   scf.parallel (%[[T2:.*]]) =
// CHECK:     %[[OLD:.*]] = memref.load %[[ACC]][%[[T2]]]
// CHECK:     %[[NEW:.*]] = arith.addf %[[OLD]], %{{.*}} : f32
// CHECK:     memref.store %[[NEW]], %[[ACC]][%[[T2]]]
// CHECK:   }
// CHECK: }
// CHECK: scf.parallel (%[[T3:.*]]) =
// CHECK:   %[[SUM:.*]] = memref.load %[[ACC]][%[[T3]]]
// CHECK:   memref.store %[[SUM]], %[[A]][%[[T3]]]
gpu.module @kernels {
  gpu.func @uniform_for(%a: memref<?xf32>, %n: index)
      workgroup(%tile: memref<32xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%tx] : memref<?xf32>
      memref.store %v, %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %w = memref.load %tile[%c0] : memref<32xf32, #gpu.address_space<workgroup>>
      %r = arith.addf %acc, %w : f32
      scf.yield %r : f32
    }
    memref.store %s, %a[%tx] : memref<?xf32>
    gpu.return
  }
}

// -----

// Nested uniform loops: both move out; a loop-carried value that is the same
// for every thread stays an iteration argument of the moved loop.

// CHECK-LABEL: gpu.func @nested
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args(%[[K:.*]] = %{{.*}}) -> (index) {
// CHECK:   scf.for %[[J:.*]] = %{{.*}} to %[[K]] step
// CHECK:     scf.parallel
// CHECK:     scf.parallel
// CHECK:   }
// CHECK:   %[[K2:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:   scf.yield %[[K2]] : index
// CHECK: }
gpu.module @kernels {
  gpu.func @nested(%a: memref<?xi32>, %n: index) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tx = gpu.thread_id x
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%k = %c1) -> index {
      scf.for %j = %c0 to %k step %c1 {
        %v = memref.load %a[%tx] : memref<?xi32>
        gpu.barrier
        memref.store %v, %a[%j] : memref<?xi32>
      }
      %k2 = arith.addi %k, %c1 : index
      scf.yield %k2 : index
    }
    gpu.return
  }
}

// -----

// A barrier in an scf.while whose condition is the same for every thread:
// the condition runs once per iteration outside the thread loops.

// CHECK-LABEL: gpu.func @uniform_while
// CHECK: scf.while (%[[S:.*]] = %{{.*}}) : (index) -> index {
// CHECK:   %[[GO:.*]] = arith.cmpi ugt, %[[S]], %{{.*}} : index
// CHECK:   scf.condition(%[[GO]]) %[[S]] : index
// CHECK: } do {
// CHECK: ^bb0(%[[S2:.*]]: index):
// CHECK:   scf.parallel
// CHECK:   scf.parallel
// CHECK:     memref.store %{{.*}}, %{{.*}}[%[[S2]]]
// CHECK:   %[[H:.*]] = arith.divui %[[S2]], %{{.*}} : index
// CHECK:   scf.yield %[[H]] : index
gpu.module @kernels {
  gpu.func @uniform_while(%a: memref<?xf32>, %n: index) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %tx = gpu.thread_id x
    %r = scf.while (%s = %n) : (index) -> index {
      %go = arith.cmpi ugt, %s, %c0 : index
      scf.condition(%go) %s : index
    } do {
    ^bb0(%s: index):
      %v = memref.load %a[%tx] : memref<?xf32>
      gpu.barrier
      memref.store %v, %a[%s] : memref<?xf32>
      %h = arith.divui %s, %c2 : index
      scf.yield %h : index
    }
    gpu.return
  }
}

// -----

// A barrier under a uniform scf.if: the if moves out, its body is split.

// CHECK-LABEL: gpu.func @uniform_if
// CHECK-SAME: %[[FLAG:[a-z0-9]+]]: i1
// CHECK: scf.parallel
// CHECK:   memref.load
// CHECK:   memref.store
// CHECK: scf.if %[[FLAG]] {
// CHECK:   scf.parallel
// CHECK:     memref.load
// CHECK:     memref.store
// CHECK:   }
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @uniform_if(%a: memref<?xf32>, %flag: i1) kernel
      attributes {known_block_size = array<i32: 32, 1, 1>} {
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xf32>
    scf.if %flag {
      gpu.barrier
      memref.store %v, %a[%tx] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Early return of some threads (unstructured control flow): the CFG is
// lifted to scf, and the rest of the kernel runs as thread loops predicated
// on the remaining threads' condition; `x < n` becomes the x loop's bound.

// CHECK-LABEL: gpu.func @early_return
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG: %[[BX:.*]] = gpu.block_dim x
// CHECK: %[[POS:.*]] = arith.cmpi ugt, %[[N]], %[[C0]] : index
// CHECK: %[[CNT:.*]] = arith.select %[[POS]], %[[N]], %[[C0]] : index
// CHECK: %[[UB:.*]] = arith.minsi %[[BX]], %[[CNT]] : index
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%{{.*}}, %{{.*}}, %[[UB]])
// CHECK-NOT: scf.if
// CHECK:   memref.load
// CHECK:   memref.store
// CHECK: scf.parallel ({{.*}}) = ({{.*}}) to (%{{.*}}, %{{.*}}, %[[UB]])
// CHECK-NOT: scf.if
// CHECK:   memref.load
// CHECK:   memref.store
// CHECK-NOT: cf.cond_br
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @early_return(%a: memref<?xf32>, %n: index) kernel {
    %tx = gpu.thread_id x
    %out = arith.cmpi uge, %tx, %n : index
    cf.cond_br %out, ^exit, ^body
  ^body:
    %v = memref.load %a[%tx] : memref<?xf32>
    gpu.barrier
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.return
  ^exit:
    gpu.return
  }
}

// -----

// Private memory used across a barrier becomes each thread's slice of a
// per-block array (a view at the thread's offset).

// CHECK-LABEL: gpu.func @private_memory
// CHECK: %[[BUF:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1024xi8, #gpu.address_space<private>>
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK:   %[[OFF:.*]] = arith.muli %[[T]], %{{.*}} : index
// CHECK:   %[[MINE:.*]] = memref.view %[[BUF]][%[[OFF]]][] : memref<1024xi8, #gpu.address_space<private>> to memref<4xf32, #gpu.address_space<private>>
// CHECK:   memref.store %{{.*}}, %[[MINE]]
// CHECK: scf.parallel (%[[T2:.*]]) =
// CHECK:   %[[OFF2:.*]] = arith.muli %[[T2]], %{{.*}} : index
// CHECK:   %[[MINE2:.*]] = memref.view %[[BUF]][%[[OFF2]]][]
// CHECK:   memref.load %[[MINE2]]
gpu.module @kernels {
  gpu.func @private_memory(%a: memref<?xf32>)
      private(%mine: memref<4xf32, #gpu.address_space<private>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xf32>
    memref.store %v, %mine[%c0] : memref<4xf32, #gpu.address_space<private>>
    gpu.barrier
    %w = memref.load %mine[%c0] : memref<4xf32, #gpu.address_space<private>>
    memref.store %w, %a[%tx] : memref<?xf32>
    gpu.return
  }
}

// -----

// gpu.all_reduce: the thread loop that computes the operand reduces it
// (floating-point: reassociable, from the identity), and the result is the
// same value for every thread of the next thread loops.

// CHECK-LABEL: gpu.func @all_reduce
// CHECK-DAG: %[[ID:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SUM:.*]] = scf.parallel (%[[T:.*]]) = {{.*}} init (%[[ID]]) -> f32 {
// CHECK:   %[[V:.*]] = memref.load %{{.*}}[%[[T]]]
// CHECK:   scf.reduce(%[[V]] : f32) {
// CHECK:   ^bb0(%[[L:.*]]: f32, %[[R:.*]]: f32):
// CHECK:     %[[ADD:.*]] = arith.addf %[[R]], %[[L]] fastmath<reassoc> : f32
// CHECK:     scf.reduce.return %[[ADD]]
// CHECK: scf.parallel
// CHECK:   memref.store %[[SUM]]
// CHECK: }
// A thread loop whose body is `if (tid == 0)` runs thread 0 only: a loop of
// one iteration, which canonicalization removes.
// CHECK-NEXT: memref.store %[[SUM]], %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @all_reduce(%a: memref<?xf32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xf32>
    %r = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %r, %out[%tx] : memref<?xf32>
    gpu.barrier
    %c0 = arith.constant 0 : index
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %a[%c0] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// gpu.shuffle: the value is stored per thread; the next thread loop reads the
// source lane's element, valid when the source is in [0, width) and exists.

// CHECK-LABEL: gpu.func @shuffle
// CHECK: %[[VALS:.*]] = memref.alloca() : memref<48xi32>
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK:   memref.store %{{.*}}, %[[VALS]][%[[T]]]
// CHECK: scf.parallel (%[[T2:.*]]) =
// CHECK:   %[[LANE:.*]] = arith.remui %[[T2]], %{{.*}} : index
// CHECK:   %[[BASE:.*]] = arith.subi %[[T2]], %[[LANE]] : index
// CHECK:   %[[LANE32:.*]] = arith.index_cast %[[LANE]] : index to i32
// CHECK:   %[[SRC:.*]] = arith.subi %[[LANE32]], %{{.*}} : i32
// CHECK:   %[[IDX:.*]] = arith.select %{{.*}}, %{{.*}}, %[[T2]] : index
// CHECK:   %[[R:.*]] = memref.load %[[VALS]][%[[IDX]]]
// CHECK:   memref.store %[[R]]
gpu.module @kernels {
  gpu.func @shuffle(%a: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 48, 1, 1>} {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xi32>
    %r, %ok = gpu.shuffle up %v, %c1, %c32 : i32
    memref.store %r, %a[%tx] : memref<?xi32>
    gpu.return
  }
}

// -----

// gpu.subgroup_reduce: one reduction per cluster, stored at its first lane,
// read by every member.

// CHECK-LABEL: gpu.func @subgroup_reduce
// CHECK: %[[VALS:.*]] = memref.alloca() : memref<64xi32>
// CHECK: %[[RES:.*]] = memref.alloca() : memref<64xi32>
// CHECK: scf.parallel
// CHECK:   memref.store %{{.*}}, %[[VALS]]
// CHECK: scf.for
// CHECK:   scf.for {{.*}} iter_args
// CHECK:     memref.load %[[VALS]]
// CHECK:     arith.maxsi
// CHECK:   memref.store %{{.*}}, %[[RES]]
// CHECK: scf.parallel
// CHECK:   memref.load %[[RES]]
gpu.module @kernels {
  gpu.func @subgroup_reduce(%a: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xi32>
    %r = gpu.subgroup_reduce maxsi %v cluster(size = 8) : (i32) -> i32
    memref.store %r, %a[%tx] : memref<?xi32>
    gpu.return
  }
}

// -----

// A condition that does not bound a thread id stays a guard in each thread
// loop of the predicated branch.

// CHECK-LABEL: gpu.func @odd_threads
// CHECK: scf.parallel ({{.*}}, %[[X:.*]]) =
// CHECK:   %[[R:.*]] = arith.remui %[[X]], %{{.*}} : index
// CHECK:   %[[ODD:.*]] = arith.cmpi ne, %[[R]], %{{.*}} : index
// CHECK:   scf.if %[[ODD]] {
// CHECK: scf.parallel ({{.*}}, %[[X2:.*]]) =
// CHECK:   %[[R2:.*]] = arith.remui %[[X2]], %{{.*}} : index
// CHECK:   %[[ODD2:.*]] = arith.cmpi ne, %[[R2]], %{{.*}} : index
// CHECK:   scf.if %[[ODD2]] {
gpu.module @kernels {
  gpu.func @odd_threads(%a: memref<?xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %tx = gpu.thread_id x
    %r = arith.remui %tx, %c2 : index
    %odd = arith.cmpi ne, %r, %c0 : index
    scf.if %odd {
      %v = memref.load %a[%tx] : memref<?xf32>
      gpu.barrier
      memref.store %v, %a[%tx] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A kernel without synchronization is left alone.

// CHECK-LABEL: gpu.func @plain
// CHECK-NOT: offload.thread_loops
// CHECK-NOT: scf.parallel
// CHECK: gpu.thread_id x
gpu.module @kernels {
  gpu.func @plain(%a: memref<?xf32>) kernel {
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xf32>
    memref.store %v, %a[%tx] : memref<?xf32>
    gpu.return
  }
}

// -----

// A thread body with a uniform loop whose accesses are contiguous along
// thread x (B[k, col]) rather than along the loop: the loop moves out of the
// thread loops (interchange), the bounds check becomes loop bounds, and the
// loop-carried sum lives in a per-thread array.

// CHECK-LABEL: gpu.func @naive_matmul
// CHECK-SAME: offload.thread_loops
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<256xf32>
// CHECK: scf.parallel
// CHECK:   memref.store %{{.*}}, %[[ACC]]
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   scf.parallel (%[[Y:.*]], %[[X:.*]]) =
// CHECK-NOT: scf.if
// CHECK:     %[[OLD:.*]] = memref.load %[[ACC]]
// CHECK:     memref.load %{{.*}}[%{{.*}}, %[[K]]] : memref<?x?xf32>
// CHECK:     memref.load %{{.*}}[%[[K]], %{{.*}}] : memref<?x?xf32>
// CHECK:     memref.store %{{.*}}, %[[ACC]]
// CHECK: scf.parallel
// CHECK:   memref.load %[[ACC]]
gpu.module @kernels {
  gpu.func @naive_matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                         %C: memref<?x?xf32>, %K: index) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %M = memref.dim %C, %c0 : memref<?x?xf32>
    %N = memref.dim %C, %c1 : memref<?x?xf32>
    %by = gpu.block_id y
    %ty = gpu.thread_id y
    %bx = gpu.block_id x
    %tx = gpu.thread_id x
    %c16 = arith.constant 16 : index
    %r0 = arith.muli %by, %c16 : index
    %row = arith.addi %r0, %ty : index
    %c0x = arith.muli %bx, %c16 : index
    %col = arith.addi %c0x, %tx : index
    %inr = arith.cmpi ult, %row, %M : index
    %inc = arith.cmpi ult, %col, %N : index
    %in = arith.andi %inr, %inc : i1
    scf.if %in {
      %sum = scf.for %j = %c0 to %K step %c1 iter_args(%s = %zero) -> f32 {
        %a = memref.load %A[%row, %j] : memref<?x?xf32>
        %b = memref.load %B[%j, %col] : memref<?x?xf32>
        %p = arith.mulf %a, %b : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      memref.store %sum, %C[%row, %col] : memref<?x?xf32>
    }
    gpu.return
  }
}

// -----

// Each thread walks its own contiguous row: the loop vectorizes better as it
// is, and the kernel is left alone.

// CHECK-LABEL: gpu.func @row_per_thread
// CHECK-NOT: offload.thread_loops
// CHECK: scf.for
gpu.module @kernels {
  gpu.func @row_per_thread(%a: memref<?x?xf32>, %out: memref<?xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %s = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %a[%tx, %j] : memref<?x?xf32>
      %r = arith.addf %acc, %v : f32
      scf.yield %r : f32
    }
    memref.store %s, %out[%tx] : memref<?xf32>
    gpu.return
  }
}

// -----

// A grid-stride loop (lower bound: block offset plus thread id) runs over
// uniform bounds with the thread id added inside; it then moves out of the
// thread loop, whose bound is what is left of the range.

// CHECK-LABEL: gpu.func @grid_stride
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK: %[[BASE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: %[[STRIDE:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK: scf.for %[[J:.*]] = %[[BASE]] to %[[N]] step %[[STRIDE]] {
// CHECK:   %[[LEFT:.*]] = arith.subi %[[N]], %[[J]] : index
// CHECK:   %[[UB:.*]] = arith.minsi %[[LEFT]], %{{.*}} : index
// CHECK:   scf.parallel (%[[X:.*]]) = (%{{.*}}) to (%[[UB]])
// CHECK:     %[[I:.*]] = arith.addi %[[J]], %[[X]] : index
// CHECK-NOT: scf.if
// CHECK:     memref.load %{{.*}}[%[[I]]]
gpu.module @kernels {
  gpu.func @grid_stride(%x: memref<?xf32>, %y: memref<?xf32>, %a: f32,
                        %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %tx = gpu.thread_id x
    %bx = gpu.block_id x
    %bd = gpu.block_dim x
    %gd = gpu.grid_dim x
    %base = arith.muli %bx, %bd : index
    %i0 = arith.addi %base, %tx : index
    %stride = arith.muli %gd, %bd : index
    scf.for %i = %i0 to %n step %stride {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Affine loops are handled as scf loops.

// CHECK-LABEL: gpu.func @affine_loop
// CHECK-SAME: offload.thread_loops
// CHECK: scf.for
// CHECK:   scf.parallel
// CHECK-NOT: gpu.barrier
gpu.module @kernels {
  gpu.func @affine_loop(%a: memref<?xf32>, %n: index)
      workgroup(%t: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tx = gpu.thread_id x
    affine.for %i = 0 to %n {
      %v = memref.load %a[%tx] : memref<?xf32>
      memref.store %v, %t[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// A kernel without synchronization whose body is a bounds check: the check
// becomes the thread loop's bound (no branch per thread).

// CHECK-LABEL: gpu.func @guarded_saxpy
// CHECK-SAME: offload.thread_loops
// CHECK: %[[UB:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[UB]])
// CHECK-NOT: scf.if
// CHECK: memref.store
gpu.module @kernels {
  gpu.func @guarded_saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>,
                          %n: index) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %inside = arith.cmpi ult, %i, %n : index
    scf.if %inside {
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

// A kernel without synchronization whose body is a 2D bounds check that
// depends on the block (a stencil's interior, `x < nx - 1`): the check
// becomes clamped bounds min(nx - 1 - (bx * 32 + 1), 32), and the thread loop
// is versioned on every clamp being the block size, so that interior blocks
// run static 4 x 32 trip counts (fully vectorizable, no remainder). The
// guard's comparisons, left without uses, version nothing (one scf.if).

// CHECK-LABEL: gpu.func @guard_only_2d
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[COLS:.*]] = arith.minsi %{{.*}}, %[[C32]] : index
// CHECK: %[[ROWS:.*]] = arith.minsi %{{.*}}, %[[C4]] : index
// CHECK: %[[FULLC:.*]] = arith.cmpi eq, %[[COLS]], %[[C32]] : index
// CHECK: %[[FULLR:.*]] = arith.cmpi eq, %[[ROWS]], %[[C4]] : index
// CHECK: %[[FULL:.*]] = arith.andi %[[FULLC]], %[[FULLR]] : i1
// CHECK: scf.if %[[FULL]] {
// CHECK-NEXT: scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[C4]], %[[C32]])
// CHECK-NOT: scf.if
// CHECK: } else {
// CHECK-NEXT: scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[COLS]])
// CHECK-NOT: scf.if
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @guard_only_2d(%in: memref<?xf32>, %out: memref<?xf32>, %nx: index,
                          %ny: index) kernel
      attributes {known_block_size = array<i32: 32, 4, 1>} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %ox = arith.muli %bx, %c32 : index
    %oy = arith.muli %by, %c4 : index
    %gx = arith.addi %ox, %tx : index
    %gy = arith.addi %oy, %ty : index
    %x = arith.addi %gx, %c1 : index
    %y = arith.addi %gy, %c1 : index
    %xmax = arith.subi %nx, %c1 : index
    %ymax = arith.subi %ny, %c1 : index
    %in_x = arith.cmpi ult, %x, %xmax : index
    %in_y = arith.cmpi ult, %y, %ymax : index
    %inside = arith.andi %in_x, %in_y : i1
    scf.if %inside {
      %row = arith.muli %y, %nx : index
      %p = arith.addi %row, %x : index
      %pl = arith.subi %p, %c1 : index
      %pr = arith.addi %p, %c1 : index
      %vl = memref.load %in[%pl] : memref<?xf32>
      %vr = memref.load %in[%pr] : memref<?xf32>
      %s = arith.addf %vl, %vr : f32
      memref.store %s, %out[%p] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A kernel without synchronization and without a bounds check around its
// body, which branches on checks of i = block * 256 + tid (a 3-point
// stencil's end points, i == 0 || i == n - 1): the thread loop is versioned
// on them, and blocks that hold neither end point run a copy without the
// branch (the check's interior outcome: false).

// CHECK-LABEL: gpu.func @edges_versioned
// CHECK-SAME: offload.thread_loops
// CHECK: %[[FAST:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   scf.parallel
// CHECK-NOT: scf.if
// CHECK:     memref.load
// CHECK:     memref.load
// CHECK:     memref.store
// CHECK: } else {
// CHECK:   scf.parallel
// CHECK:     arith.cmpi eq
// CHECK:     scf.if
gpu.module @kernels {
  gpu.func @edges_versioned(%n: index, %in: memref<?xf32>,
                            %out: memref<?xf32>) kernel
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
      %l = memref.load %in[%im1] : memref<?xf32>
      %m = memref.load %in[%i] : memref<?xf32>
      %s = arith.addf %l, %m : f32
      memref.store %s, %out[%i] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A kernel without synchronization whose body is an i32 bounds check
// (`int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n)`): i32 checks
// are no loop bounds (x + u may wrap), but the thread loop is versioned on
// the check and its not wrapping, and interior blocks run it branch-free.

// CHECK-LABEL: gpu.func @i32_guard_versioned
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32
// CHECK-SAME: offload.thread_loops
// CHECK: %[[LAST:.*]] = arith.addi %[[BASE:.*]], %{{.*}} : i32
// CHECK: %[[ALL:.*]] = arith.cmpi slt, %[[LAST]], %[[N]] : i32
// CHECK: %[[NOWRAP:.*]] = arith.cmpi sle, %[[BASE]], %[[LAST]] : i32
// CHECK: %[[FAST:.*]] = arith.andi %[[ALL]], %[[NOWRAP]] : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   scf.parallel
// CHECK-NOT: scf.if
// CHECK:     memref.store
// CHECK: } else {
// CHECK:   scf.parallel
// CHECK:     arith.cmpi slt, %{{.*}}, %[[N]] : i32
// CHECK:     scf.if
gpu.module @kernels {
  gpu.func @i32_guard_versioned(%n: i32, %x: memref<?xf32>,
                                %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
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
      %v = memref.load %x[%ix] : memref<?xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %y[%ix] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Lane and warp conditions become a step and bounds: `lane == 0` runs one
// thread per subgroup.

// CHECK-LABEL: gpu.func @lane_zero
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[C32]])
// CHECK-NOT: scf.if
// CHECK: memref.store
gpu.module @kernels {
  gpu.func @lane_zero(%a: memref<?xf32>, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xf32>
    %r = gpu.subgroup_reduce add %v : (f32) -> f32
    %lane = arith.remui %tx, %c32 : index
    %warp = arith.divui %tx, %c32 : index
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      memref.store %r, %out[%warp] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// A bounds check that depends on the block (i = block * 256 + tid < n) runs
// a branch-free copy of the thread loop when every thread of the block
// passes it (a uniform test), the checked loop otherwise.

// CHECK-LABEL: gpu.func @versioned
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK: %[[BASE:.*]] = arith.muli
// CHECK: %[[LAST:.*]] = arith.addi %[[BASE]], %{{.*}} : index
// CHECK: %[[ALL:.*]] = arith.cmpi ult, %[[LAST]], %[[N]] : index
// CHECK: %[[FAST:.*]] = arith.andi %[[ALL]], %{{.*}} : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   scf.parallel
// CHECK-NOT: scf.if
// CHECK:     memref.load
// CHECK: } else {
// CHECK:   scf.parallel
// CHECK:     scf.if %{{.*}} -> (f32)
gpu.module @kernels {
  gpu.func @versioned(%in: memref<?xf32>, %out: memref<?xf32>, %n: index)
      workgroup(%t: memref<256xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %zero = arith.constant 0.0 : f32
    %c255 = arith.constant 255 : index
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %c256 = arith.constant 256 : index
    %base = arith.muli %bid, %c256 : index
    %i = arith.addi %base, %tid : index
    %inside = arith.cmpi ult, %i, %n : index
    %v = scf.if %inside -> (f32) {
      %x = memref.load %in[%i] : memref<?xf32>
      scf.yield %x : f32
    } else {
      scf.yield %zero : f32
    }
    memref.store %v, %t[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c255, %tid : index
    %w = memref.load %t[%r] : memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %w, %out[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// A check whose split point is the same for every block (tid >= offset, a
// step of a scan) splits the thread loop there: two loops without it.

// CHECK-LABEL: gpu.func @split
// CHECK-SAME: %[[OFF:[a-z0-9]+]]: index
// CHECK: %[[K:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[K]])
// CHECK-NOT: scf.if
// CHECK:   memref.store %{{.*}}, %{{.*}} : memref<64xi32>
// CHECK: scf.parallel (%[[X:.*]]) = (%[[K]]) to
// CHECK-NOT: scf.if
// CHECK:   arith.subi %[[X]], %[[OFF]] : index
gpu.module @kernels {
  gpu.func @split(%a: memref<?xi32>, %offset: index)
      workgroup(%buf: memref<64xi32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %zero = arith.constant 0 : i32
    %tid = gpu.thread_id x
    %has = arith.cmpi uge, %tid, %offset : index
    %t = scf.if %has -> (i32) {
      %src = arith.subi %tid, %offset : index
      %x = memref.load %buf[%src] : memref<64xi32, #gpu.address_space<workgroup>>
      scf.yield %x : i32
    } else {
      scf.yield %zero : i32
    }
    gpu.barrier
    memref.store %t, %a[%tid] : memref<?xi32>
    gpu.return
  }
}

// -----

// A shuffle with a constant offset over whole subgroups is one vector
// permutation per subgroup.

// CHECK-LABEL: gpu.func @constant_shuffle
// CHECK: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[LANES:.*]] = vector.load %{{.*}}[%[[W]]] : memref<64xi32>, vector<32xi32>
// CHECK:   %[[SWAPPED:.*]] = vector.shuffle %[[LANES]], %[[LANES]] [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
// CHECK:   vector.store %[[SWAPPED]], %{{.*}}[%[[W]]]
gpu.module @kernels {
  gpu.func @constant_shuffle(%a: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %c32 = arith.constant 32 : i32
    %tx = gpu.thread_id x
    %v = memref.load %a[%tx] : memref<?xi32>
    %r, %ok = gpu.shuffle xor %v, %c16, %c32 : i32
    memref.store %r, %a[%tx] : memref<?xi32>
    gpu.return
  }
}

// -----

// The same exchange under `if (warp == 0)` in a block of 256 threads
// permutes that one subgroup, not all eight: the exchange is narrowed to the
// subgroups its reader's thread loop covers, here one (its loop of one step
// is then folded away).

// CHECK-LABEL: gpu.func @warp0_shuffle
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NEXT: memref.load %{{.*}}[%[[T]]] : memref<?xi32>
// CHECK-NOT: scf.for
// CHECK: %[[LANES:.*]] = vector.load %{{.*}} : memref<256xi32>, vector<32xi32>
// CHECK-NEXT: vector.shuffle %[[LANES]], %[[LANES]] [1, 0, 3, 2,
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c32) step
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @warp0_shuffle(%a: memref<?xi32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c1_i32 = arith.constant 1 : i32
    %c32_i32 = arith.constant 32 : i32
    %tx = gpu.thread_id x
    %warp = arith.divui %tx, %c32 : index
    %first = arith.cmpi eq, %warp, %c0 : index
    %v = memref.load %a[%tx] : memref<?xi32>
    scf.if %first {
      %r, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : i32
      memref.store %r, %a[%tx] : memref<?xi32>
    }
    gpu.return
  }
}

// -----

// The naive matmul: the bounds check `row < m && col < n` becomes clamped
// bounds of the thread loops (min(n - offset, 16)); the code after the clamps
// is versioned so that interior blocks (every clamp equal to the block size)
// run loops with the static trip count 16, without remainder loops.

// CHECK-LABEL: gpu.func @clamp_versioned
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK: %[[ROWS:.*]] = arith.minsi %{{.*}}, %[[C16]] : index
// CHECK: %[[COLS:.*]] = arith.minsi %{{.*}}, %[[C16]] : index
// CHECK: %[[FULLR:.*]] = arith.cmpi eq, %[[ROWS]], %[[C16]] : index
// CHECK: %[[FULLC:.*]] = arith.cmpi eq, %[[COLS]], %[[C16]] : index
// CHECK: %[[FULL:.*]] = arith.andi %{{.*}}, %[[FULLC]] : i1
// CHECK: scf.if %[[FULL]] {
// CHECK:   scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[C16]], %[[C16]])
// CHECK:   scf.for
// CHECK:     scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[C16]], %[[C16]])
// CHECK:   scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[C16]], %[[C16]])
// CHECK: } else {
// CHECK:   scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[COLS]])
// CHECK:   scf.for
// CHECK:     scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[COLS]])
// CHECK:   scf.parallel ({{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[COLS]])
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @clamp_versioned(%m: index, %n: index, %k: index, %a: memref<?xf32>,
                            %b: memref<?xf32>, %c: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %zero = arith.constant 0.0 : f32
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %ox = arith.muli %bx, %c16 : index
    %oy = arith.muli %by, %c16 : index
    %col = arith.addi %ox, %tx : index
    %row = arith.addi %oy, %ty : index
    %in_row = arith.cmpi ult, %row, %m : index
    %in_col = arith.cmpi ult, %col, %n : index
    %inside = arith.andi %in_row, %in_col : i1
    scf.if %inside {
      %a_row = arith.muli %row, %k : index
      %sum = scf.for %kk = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %ai = arith.addi %a_row, %kk : index
        %kn = arith.muli %kk, %n : index
        %bi = arith.addi %kn, %col : index
        %x = memref.load %a[%ai] : memref<?xf32>
        %y = memref.load %b[%bi] : memref<?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %c_row = arith.muli %row, %n : index
      %ci = arith.addi %c_row, %col : index
      memref.store %sum, %c[%ci] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// i32 index arithmetic (numba-cuda-mlir, hand-written CUDA ports): a bounds
// check `bid * 16 + tid < n` in i32 is not a loop bound (tid + u may wrap at
// 2^32), but versions the loop on a uniform test that also checks that
// lo = u + 0 and hi = u + 15 do not wrap (lo <= hi).

// CHECK-LABEL: gpu.func @narrow_versioned
// CHECK-SAME: %[[N:[a-z0-9]+]]: i32
// CHECK: %[[U:.*]] = arith.muli %{{.*}}, %{{.*}} : i32
// CHECK: %[[HI:.*]] = arith.addi %[[U]], %{{.*}} : i32
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[HI]], %[[N]] : i32
// CHECK: %[[NOWRAP:.*]] = arith.cmpi sle, %[[U]], %[[HI]] : i32
// CHECK: %[[FAST:.*]] = arith.andi %[[IN]], %[[NOWRAP]] : i1
// CHECK: scf.if %[[FAST]] {
// CHECK:   scf.parallel
// CHECK-NOT: scf.if
// CHECK:     memref.load
// CHECK: } else {
// CHECK:   scf.parallel
// CHECK:     scf.if
gpu.module @kernels {
  gpu.func @narrow_versioned(%in: memref<?xf32>, %out: memref<?xf32>, %n: i32)
      workgroup(%t: memref<16xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %c16 = arith.constant 16 : i32
    %c15 = arith.constant 15 : index
    %bidx = gpu.block_id x
    %tidx = gpu.thread_id x
    %bid = arith.index_cast %bidx : index to i32
    %tid = arith.index_cast %tidx : index to i32
    %base = arith.muli %bid, %c16 : i32
    %i = arith.addi %base, %tid : i32
    %ix = arith.index_cast %i : i32 to index
    %inside = arith.cmpi slt, %i, %n : i32
    scf.if %inside {
      %x = memref.load %in[%ix] : memref<?xf32>
      memref.store %x, %t[%tidx] : memref<16xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %r = arith.subi %c15, %tidx : index
    %w = memref.load %t[%r] : memref<16xf32, #gpu.address_space<workgroup>>
    scf.if %inside {
      memref.store %w, %out[%ix] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// An i1 that lives across a barrier (hotspot's `computed` flag) is kept as a
// byte: a per-thread array of i8, stored extended and read truncated, so
// that a row of flags is one vector access and not one byte per thread.

// CHECK-LABEL: gpu.func @bool_across_barrier
// CHECK: %[[SLOT:.*]] = memref.alloca() : memref<64xi8>
// CHECK-NOT: xi1>
// CHECK: scf.parallel (%[[T:.*]]) =
// CHECK:   %[[F:.*]] = arith.cmpf olt
// CHECK:   %[[B:.*]] = arith.extui %[[F]] : i1 to i8
// CHECK:   memref.store %[[B]], %[[SLOT]][%[[T]]] : memref<64xi8>
// CHECK: scf.parallel (%[[T2:.*]]) =
// CHECK:   %[[L:.*]] = memref.load %[[SLOT]][%[[T2]]] : memref<64xi8>
// CHECK:   %[[F2:.*]] = arith.trunci %[[L]] : i8 to i1
// CHECK:   scf.if %[[F2]] {
gpu.module @kernels {
  gpu.func @bool_across_barrier(%io: memref<?xf32>)
      workgroup(%tile: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c63 = arith.constant 63 : index
    %zero = arith.constant 0.0 : f32
    %tx = gpu.thread_id x
    %v = memref.load %io[%tx] : memref<?xf32>
    %neg = arith.cmpf olt, %v, %zero : f32
    memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    scf.if %neg {
      %r = arith.subi %c63, %tx : index
      %w = memref.load %tile[%r] : memref<64xf32, #gpu.address_space<workgroup>>
      memref.store %w, %io[%tx] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// i32 bounds checks (`row < m` on int ids) version each thread loop on a
// uniform test; inside the interchanged k loop those versions are hoisted:
// one test before the code, whose copy has the interior's loops only (the
// k loop then holds no branch on the block's position).

// CHECK-LABEL: gpu.func @narrow_hoisted
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT:   scf.parallel
// CHECK-NOT:      scf.if
// CHECK:   scf.for {{.*}} : i32 {
// CHECK-NEXT:     scf.parallel
// CHECK-NOT:        scf.if
// CHECK:   }
// CHECK: } else {
// CHECK:   scf.for {{.*}} : i32 {
// CHECK:     scf.if
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @narrow_hoisted(%M: i32, %N: i32, %K: i32, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c16 = arith.constant 16 : i32
    %zero = arith.constant 0.0 : f32
    %bxi = gpu.block_id x
    %byi = gpu.block_id y
    %txi = gpu.thread_id x
    %tyi = gpu.thread_id y
    %bx = arith.index_cast %bxi : index to i32
    %by = arith.index_cast %byi : index to i32
    %tx = arith.index_cast %txi : index to i32
    %ty = arith.index_cast %tyi : index to i32
    %ox = arith.muli %bx, %c16 : i32
    %oy = arith.muli %by, %c16 : i32
    %col = arith.addi %ox, %tx : i32
    %row = arith.addi %oy, %ty : i32
    %in_row = arith.cmpi slt, %row, %M : i32
    %in_col = arith.cmpi slt, %col, %N : i32
    %inside = arith.andi %in_row, %in_col : i1
    scf.if %inside {
      %a_row = arith.muli %row, %K : i32
      %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero) -> (f32) : i32 {
        %ai = arith.addi %a_row, %k : i32
        %kn = arith.muli %k, %N : i32
        %bi = arith.addi %kn, %col : i32
        %aix = arith.index_cast %ai : i32 to index
        %bix = arith.index_cast %bi : i32 to index
        %a = memref.load %A[%aix] : memref<?xf32>
        %b = memref.load %B[%bix] : memref<?xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %c_row = arith.muli %row, %N : i32
      %ci = arith.addi %c_row, %col : i32
      %cix = arith.index_cast %ci : i32 to index
      memref.store %sum, %C[%cix] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// The classic shared-memory tree reduction, its halving stride `s` the
// argument of the scf.while a C frontend emits: `s` is defined outside the
// thread loops that fission makes inside the while, so it does not depend on
// the thread id (coefficient 0), `tid < s` becomes the bound of the thread
// loop (no per-thread test) and `tid + s` a unit-stride index along x.
// CHECK-LABEL: gpu.func @tree
// CHECK: scf.while (%[[S0:.*]] = %{{.*}}) : (index) -> index
// CHECK: ^bb0(%[[S:.*]]: index):
// CHECK:   arith.minsi %[[S]], %{{.*}} : index
// CHECK:   scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%{{.*}}) step
// CHECK-NOT: scf.if
// CHECK:     %[[J:.*]] = arith.addi %[[T]], %[[S]] : index
// CHECK:     memref.load %{{.*}}[%[[T]]]
// CHECK:     memref.load %{{.*}}[%[[J]]]
// CHECK:   arith.shrui %[[S]]
gpu.module @kernels {
  gpu.func @tree(%in: memref<?xf32>, %out: memref<?xf32>)
      workgroup(%part: memref<256xf32, #gpu.address_space<workgroup>>) kernel
      attributes {offload.thread_loops, known_block_size = array<i32: 256, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %x = memref.load %in[%tid] : memref<?xf32>
    memref.store %x, %part[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %s0 = arith.shrui %bdim, %c1 : index
    %last = scf.while (%s = %s0) : (index) -> index {
      %more = arith.cmpi ugt, %s, %c0 : index
      scf.condition(%more) %s : index
    } do {
    ^bb0(%s: index):
      %low = arith.cmpi ult, %tid, %s : index
      scf.if %low {
        %j = arith.addi %tid, %s : index
        %a = memref.load %part[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
        %b = memref.load %part[%j] : memref<256xf32, #gpu.address_space<workgroup>>
        %t = arith.addf %a, %b : f32
        memref.store %t, %part[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %next = arith.shrui %s, %c1 : index
      scf.yield %next : index
    }
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      %sum = memref.load %part[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %sum, %out[%c0] : memref<?xf32>
    }
    gpu.return
  }
}
