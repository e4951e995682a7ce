// offload-check-races leaves out the accesses that cannot race (issue 25):
// per memref and barrier-free segment, accesses that only read, or that all
// use one index injective in the thread ids; global writes also need an
// index injective in (block, thread) for the check between blocks. Barriers
// are instrumented only where an access is checked (racecheck) or threads
// can diverge (synccheck).
//
// RUN: offload-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(offload-check-races{race=true sync=true}))' | FileCheck %s

// saxpy: x is only read, y[i] with i = block * size + thread: nothing to
// check within a block, and between blocks only when the grid has more than
// one block along y or z (the index does not name those); no barrier.
// CHECK-LABEL: gpu.func @saxpy
// CHECK-NOT: call @__offload_host_check
// CHECK: %[[GY:.*]] = gpu.grid_dim y
// CHECK: arith.cmpi ne, %[[GY]]
// CHECK: %[[GZ:.*]] = gpu.grid_dim z
// CHECK: %[[MORE:.*]] = arith.ori
// CHECK: scf.if %[[MORE]] {
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: }
// CHECK-NEXT: memref.store
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @saxpy_grid
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %xv = memref.load %x[%i] : memref<?xf32>
    %yv = memref.load %y[%i] : memref<?xf32>
    %m = arith.mulf %a, %xv : f32
    %r = arith.addf %m, %yv : f32
    memref.store %r, %y[%i] : memref<?xf32>
    gpu.return
  }
  // A known grid of one row of blocks: nothing at all.
  gpu.func @saxpy_grid(%x: memref<?xf32>, %y: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>,
                  known_grid_size = array<i32: 8, 1, 1>} {
    %bid = gpu.block_id x
    %tid = gpu.thread_id x
    %c64 = arith.constant 64 : index
    %base = arith.muli %bid, %c64 : index
    %i = arith.addi %base, %tid : index
    %xv = memref.load %x[%i] : memref<?xf32>
    memref.store %xv, %y[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// Without a known block size, thread y may differ with the same index: the
// accesses of y are checked (x is only read).
// CHECK-LABEL: gpu.func @any_block
// CHECK: memref.load %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NEXT: memref.extract_strided_metadata
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.load
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @any_block(%x: memref<?xf32>, %y: memref<?xf32>) kernel {
    %tid = gpu.thread_id x
    %xv = memref.load %x[%tid] : memref<?xf32>
    %yv = memref.load %y[%tid] : memref<?xf32>
    %r = arith.addf %xv, %yv : f32
    memref.store %r, %y[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// Each thread its own workgroup element in one segment, neighbours only read
// in the next: nothing checked. Global out[tid] is written by every block:
// checked between blocks when the grid has more than one block; no barrier
// intervals needed for that.
// CHECK-LABEL: gpu.func @shift
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.barrier
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.grid_dim x
// CHECK: scf.if
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NEXT: gpu.return
gpu.module @kernels {
  gpu.func @shift(%out: memref<?xf32>)
      workgroup(%s: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c1 = arith.constant 1 : index
    %c63 = arith.constant 63 : index
    %tid = gpu.thread_id x
    %f = arith.constant 1.0 : f32
    memref.store %f, %s[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %n = arith.addi %tid, %c1 : index
    %j = arith.minui %n, %c63 : index
    %v = memref.load %s[%j] : memref<64xf32, #gpu.address_space<workgroup>>
    %w = memref.load %s[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    %r = arith.addf %v, %w : f32
    memref.store %r, %out[%tid] : memref<?xf32>
    gpu.return
  }
}

// -----

// A write and a read of different elements in one segment (the barrier is
// inside the loop, whose end flows back to its start): checked.
// CHECK-LABEL: gpu.func @scan_step
// CHECK: scf.for
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.load
// CHECK: call @__offload_host_check_barrier
// CHECK-NEXT: gpu.barrier
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
gpu.module @kernels {
  gpu.func @scan_step(%out: memref<?xf32>)
      workgroup(%s: memref<64xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c63 = arith.constant 63 : index
    %tid = gpu.thread_id x
    scf.for %k = %c0 to %c4 step %c1 {
      %n = arith.addi %tid, %c1 : index
      %j = arith.minui %n, %c63 : index
      %v = memref.load %s[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %v, %s[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// synccheck: a barrier under a branch on the thread id is instrumented, one
// under a uniform loop is not (racecheck has nothing to check either).
// CHECK-LABEL: gpu.func @divergent
// CHECK: scf.if
// CHECK: call @__offload_host_check_barrier
// CHECK-NEXT: gpu.barrier
// CHECK-LABEL: gpu.func @uniform
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @divergent(%out: memref<?xi32>) kernel {
    %tid = gpu.thread_id x
    %c2 = arith.constant 2 : index
    %low = arith.cmpi ult, %tid, %c2 : index
    scf.if %low {
      gpu.barrier
    }
    gpu.return
  }
  gpu.func @uniform(%n: index) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %k = %c0 to %n step %c1 {
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// transpose (issue 25's cost): tile[ty + j][tx] with j stepping by the 8
// threads along y is each thread's own element, so is tile[tx][ty + j]
// after the barrier (only read); out[(y + j) * rows + x] under x < rows is
// the pair (y + j, x): distinct per thread and, the block ids scaled by 32
// (the span of ty + j and of tx), per block. Only the grid's z dimension,
// which no index names, needs a test at run time; no barrier is checked.
// CHECK-LABEL: gpu.func @transpose
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.barrier
// CHECK-NOT: call @__offload_host_check
// CHECK: %[[GZ:.*]] = gpu.grid_dim z
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ne, %[[GZ]]
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @transpose(%rows: index, %cols: index, %in: memref<?xf32>,
                      %out: memref<?xf32>)
      workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %bx32 = arith.muli %bx, %c32 : index
    %by32 = arith.muli %by, %c32 : index
    %x_in = arith.addi %bx32, %tx : index
    %y_in = arith.addi %by32, %ty : index
    scf.for %j = %c0 to %c32 step %c8 {
      %y = arith.addi %y_in, %j : index
      %r = arith.muli %y, %cols : index
      %idx = arith.addi %r, %x_in : index
      %v = memref.load %in[%idx] : memref<?xf32>
      %ty_j = arith.addi %ty, %j : index
      memref.store %v, %tile[%ty_j, %tx]
          : memref<32x33xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %x_out = arith.addi %by32, %tx : index
    %y_out = arith.addi %bx32, %ty : index
    %x_ok = arith.cmpi ult, %x_out, %rows : index
    scf.for %j = %c0 to %c32 step %c8 {
      %y = arith.addi %y_out, %j : index
      %y_ok = arith.cmpi ult, %y, %cols : index
      %ok = arith.andi %x_ok, %y_ok : i1
      scf.if %ok {
        %ty_j = arith.addi %ty, %j : index
        %v = memref.load %tile[%tx, %ty_j]
            : memref<32x33xf32, #gpu.address_space<workgroup>>
        %r = arith.muli %y, %rows : index
        %idx = arith.addi %r, %x_out : index
        memref.store %v, %out[%idx] : memref<?xf32>
      }
    }
    gpu.return
  }
}

// -----

// Near misses of the tile proofs: j stepping by 4 for 8 threads along y
// (thread y = 4 at j = 0 and thread y = 0 at j = 4 meet), and the two forms
// tile[ty + j][tx], tile[tx][ty + j] in one interval (threads (x, y) and
// (y, x) meet): checked, and so the barrier.
// CHECK-LABEL: gpu.func @tile_step
// CHECK: scf.for
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
// CHECK: call @__offload_host_check_barrier
// CHECK-LABEL: gpu.func @tile_mixed
// CHECK: scf.for
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
gpu.module @kernels {
  gpu.func @tile_step(%v: f32)
      workgroup(%tile: memref<32x32xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    %c24 = arith.constant 24 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    scf.for %j = %c0 to %c24 step %c4 {
      %r = arith.addi %ty, %j : index
      memref.store %v, %tile[%r, %tx]
          : memref<32x32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    gpu.return
  }
  gpu.func @tile_mixed(%v: f32)
      workgroup(%tile: memref<16x16xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 8, 8, 1>} {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    scf.for %j = %c0 to %c16 step %c8 {
      %r = arith.addi %ty, %j : index
      memref.store %v, %tile[%r, %tx]
          : memref<16x16xf32, #gpu.address_space<workgroup>>
      memref.store %v, %tile[%tx, %r]
          : memref<16x16xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// The JIT's unrolled loop: tile[ty][tx] and tile[ty + 8][tx] for 8 threads
// along y are apart by the block's extent: nothing checked. With 16
// threads along y they meet (thread y = 8 and thread y = 0 at + 8): both
// checked.
// CHECK-LABEL: gpu.func @unrolled
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @unrolled_overlap
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
gpu.module @kernels {
  gpu.func @unrolled(%v: f32)
      workgroup(%tile: memref<16x32xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 8, 1>} {
    %c8 = arith.constant 8 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    memref.store %v, %tile[%ty, %tx]
        : memref<16x32xf32, #gpu.address_space<workgroup>>
    %r = arith.addi %ty, %c8 : index
    memref.store %v, %tile[%r, %tx]
        : memref<16x32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
  gpu.func @unrolled_overlap(%v: f32)
      workgroup(%tile: memref<24x32xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 16, 1>} {
    %c8 = arith.constant 8 : index
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    memref.store %v, %tile[%ty, %tx]
        : memref<24x32xf32, #gpu.address_space<workgroup>>
    %r = arith.addi %ty, %c8 : index
    memref.store %v, %tile[%r, %tx]
        : memref<24x32xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    gpu.return
  }
}

// -----

// warp_reduce: lane 0 (tid % 32 == 0) writes partial[tid / 32], one slot
// per warp; lane 0 of warp 0 (tid / 32 == 0 too: thread 0) writes out[bid],
// one element per block; block_sum's thread 0 likewise. Nothing checked
// (the grid has one row of blocks), no barrier.
// CHECK-LABEL: gpu.func @warp_slots
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @first_thread
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @warp_slots(%v: f32, %out: memref<?xf32>)
      workgroup(%partial: memref<32xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 256, 1, 1>,
                         known_grid_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %lane = arith.remui %tid, %c32 : index
    %warp = arith.divui %tid, %c32 : index
    %lane0 = arith.cmpi eq, %lane, %c0 : index
    scf.if %lane0 {
      memref.store %v, %partial[%warp]
          : memref<32xf32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %warp0 = arith.cmpi eq, %warp, %c0 : index
    scf.if %warp0 {
      %w = memref.load %partial[%lane]
          : memref<32xf32, #gpu.address_space<workgroup>>
      scf.if %lane0 {
        memref.store %w, %out[%bid] : memref<?xf32>
      }
    }
    gpu.return
  }
  gpu.func @first_thread(%v: f32, %out: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 256, 1, 1>,
                  known_grid_size = array<i32: 16, 1, 1>} {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %bid = gpu.block_id x
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      memref.store %sum, %out[%bid] : memref<?xf32>
    }
    gpu.return
  }
}

// -----

// Near misses of the guard proofs: threads 0 and 1 each under their own pin
// write one slot; tid % 2 == 0 does not make tid / 4 one slot per thread.
// CHECK-LABEL: gpu.func @two_pins
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
// CHECK-LABEL: gpu.func @stride
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
gpu.module @kernels {
  gpu.func @two_pins(%v: f32)
      workgroup(%s: memref<1xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      memref.store %v, %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    %second = arith.cmpi eq, %tid, %c1 : index
    scf.if %second {
      memref.store %v, %s[%c0] : memref<1xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
  gpu.func @stride(%v: f32)
      workgroup(%s: memref<16xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %even = arith.remui %tid, %c2 : index
    %slot = arith.divui %tid, %c4 : index
    %is_even = arith.cmpi eq, %even, %c0 : index
    scf.if %is_even {
      memref.store %v, %s[%slot] : memref<16xf32, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// naive and tiled matmul's C[row * N + col] under col < N: the pair
// (by * 16 + ty, bx * 16 + tx), one element per thread of the launch:
// checked only when the grid has more than one block along z. Under
// col <= N, thread (N, y) and thread (0, y + 1) meet: checked.
// CHECK-LABEL: gpu.func @rows
// CHECK-NOT: call @__offload_host_check
// CHECK: %[[GZ:.*]] = gpu.grid_dim z
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi ne, %[[GZ]]
// CHECK-NEXT: scf.if %[[MORE]] {
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: }
// CHECK-NEXT: memref.store
// CHECK-NOT: call @__offload_host_check
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @rows_edge
// CHECK: call @__offload_host_check_access
// CHECK-NEXT: memref.store
gpu.module @kernels {
  gpu.func @rows(%M: index, %N: index, %v: f32, %C: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>} {
    %c16 = arith.constant 16 : index
    %bx = gpu.block_id x
    %by = gpu.block_id y
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %row0 = arith.muli %by, %c16 : index
    %row = arith.addi %row0, %ty : index
    %col0 = arith.muli %bx, %c16 : index
    %col = arith.addi %col0, %tx : index
    %in_row = arith.cmpi ult, %row, %M : index
    %in_col = arith.cmpi ult, %col, %N : index
    %inside = arith.andi %in_row, %in_col : i1
    scf.if %inside {
      %cr = arith.muli %row, %N : index
      %ci = arith.addi %cr, %col : index
      memref.store %v, %C[%ci] : memref<?xf32>
    }
    gpu.return
  }
  gpu.func @rows_edge(%N: index, %v: f32, %C: memref<?xf32>) kernel
      attributes {known_block_size = array<i32: 16, 16, 1>,
                  known_grid_size = array<i32: 1, 1, 1>} {
    %tx = gpu.thread_id x
    %ty = gpu.thread_id y
    %in_col = arith.cmpi ule, %tx, %N : index
    scf.if %in_col {
      %cr = arith.muli %ty, %N : index
      %ci = arith.addi %cr, %tx : index
      memref.store %v, %C[%ci] : memref<?xf32>
    }
    gpu.return
  }
}
