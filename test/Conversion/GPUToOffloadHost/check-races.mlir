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
