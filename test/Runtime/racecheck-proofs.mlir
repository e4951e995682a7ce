// Issue 25: the accesses offload-check-races proves race-free and leaves
// out (test/Conversion/GPUToOffloadHost/check-races.mlir) run without a
// report, and their near misses, which the proofs must not cover, are still
// reported, compiled ahead of time (the loops as written) and by the JIT
// (specialized and unrolled: the loops' accesses become forms apart by
// constants).
//
// RUN: split-file %s %t
// RUN: offload-run --check=race %t/clean.mlir | FileCheck %s --check-prefix=CLEAN
// RUN: env OFFLOAD_CACHE_DIR= offload-run --jit --check=race %t/clean.mlir | FileCheck %s --check-prefix=CLEAN
// RUN: not offload-run --check=race %t/tile_step.mlir 2>%t/step.err | FileCheck %s --check-prefix=STEP
// RUN: FileCheck %s --check-prefix=STEP-ERR < %t/step.err
// RUN: env OFFLOAD_CACHE_DIR= not offload-run --jit --check=race %t/tile_step.mlir 2>/dev/null | FileCheck %s --check-prefix=STEP
// RUN: not offload-run --check=race %t/tile_mixed.mlir 2>/dev/null | FileCheck %s --check-prefix=MIXED
// RUN: env OFFLOAD_CACHE_DIR= not offload-run --jit --check=race %t/tile_mixed.mlir 2>/dev/null | FileCheck %s --check-prefix=MIXED
// RUN: not offload-run --check=race %t/slots_stride.mlir 2>/dev/null | FileCheck %s --check-prefix=STRIDE
// RUN: not offload-run --check=race %t/two_pins.mlir 2>/dev/null | FileCheck %s --check-prefix=PINS
// RUN: not offload-run --check=race %t/rows_edge.mlir 2>/dev/null | FileCheck %s --check-prefix=EDGE
// RUN: env OFFLOAD_CACHE_DIR= not offload-run --jit --check=race %t/rows_edge.mlir 2>/dev/null | FileCheck %s --check-prefix=EDGE

// The tile's last element (row 15 = ty 3 + j 12), the two warps' lane ids
// summed (0 + 32) in out[1] by block 1, out[1 * 3 + 1] = 4.
// CLEAN: 255
// CLEAN-NEXT: 32
// CLEAN-NEXT: 4
// CLEAN-NEXT: ========= ERROR SUMMARY: 0 errors

// STEP: ========= Error: Race reported between Write access at {{.*}}tile_step.mlir:[[#STEP:]]:9
// STEP-NEXT: =========     and Write access at {{.*}}tile_step.mlir:[[#STEP]]:9 in kernel 'tile_step'
// STEP-NEXT: =========     block: [0,0,0], threads: [0,2,0] (write) and [0,0,0] (write)
// STEP: ERROR SUMMARY: 1 error
// STEP-ERR: kernel 'tile_step'{{.*}}: 1 race hazard(s) between threads of a block (racecheck)

// MIXED: ========= Error: Race reported between Write access at {{.*}}tile_mixed.mlir:[[#MIXED:]]:9
// MIXED-NEXT: =========     and Write access at {{.*}}tile_mixed.mlir:[[#MIXED-3]]:9 in kernel 'tile_mixed'
// MIXED-NEXT: =========     block: [0,0,0], threads: [1,0,0] (write) and [0,1,0] (write)
// MIXED: ERROR SUMMARY: 2 errors

// STRIDE: ========= Error: Race reported between Write access at {{.*}}slots_stride.mlir:[[#STRIDE:]]:9
// STRIDE-NEXT: =========     and Write access at {{.*}}slots_stride.mlir:[[#STRIDE]]:9 in kernel 'slots_stride'
// STRIDE-NEXT: =========     block: [0,0,0], threads: [0,0,0] (write) and [2,0,0] (write)
// STRIDE: ERROR SUMMARY: 1 error

// PINS: ========= Error: Race reported between Write access at {{.*}}two_pins.mlir:[[#PIN:]]:9
// PINS-NEXT: =========     and Write access at {{.*}}two_pins.mlir:[[#PIN+5]]:9 in kernel 'two_pins'
// PINS-NEXT: =========     block: [0,0,0], threads: [0,0,0] (write) and [1,0,0] (write)
// PINS: ERROR SUMMARY: 1 error

// EDGE: ========= Error: Race reported between Write access at {{.*}}rows_edge.mlir:[[#EDGE:]]:9
// EDGE-NEXT: =========     and Write access at {{.*}}rows_edge.mlir:[[#EDGE]]:9 in kernel 'rows_edge'
// EDGE-NEXT: =========     block: [0,0,0], threads: [3,0,0] (write) and [0,1,0] (write)
// EDGE-NEXT: =========     global memory at 0x{{[0-9A-F]+}}, index 3,
// EDGE: ERROR SUMMARY: 1 error

//--- clean.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // transpose's tile: rows ty + j, j stepping by the 4 threads along y.
    gpu.func @tile_rows(%out: memref<?xi32>)
        workgroup(%tile: memref<16x16xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %j = %c0 to %c16 step %c4 {
        %r = arith.addi %ty, %j : index
        %l = arith.muli %r, %c16 : index
        %v = arith.addi %l, %tx : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %tile[%r, %tx] : memref<16x16xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %first = arith.cmpi eq, %tx, %c0 : index
      %top = arith.cmpi eq, %ty, %c0 : index
      %one = arith.andi %first, %top : i1
      scf.if %one {
        %c15 = arith.constant 15 : index
        %v = memref.load %tile[%c15, %c15] : memref<16x16xi32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%c0] : memref<?xi32>
      }
      gpu.return
    }
    // Lane 0 of each 32-thread warp writes the warp's slot, thread 0 sums.
    gpu.func @warp_slots(%out: memref<?xi32>)
        workgroup(%partial: memref<2xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c32 = arith.constant 32 : index
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %lane = arith.remui %t, %c32 : index
      %warp = arith.divui %t, %c32 : index
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        %ti = arith.index_cast %t : index to i32
        memref.store %ti, %partial[%warp] : memref<2xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %warp0 = arith.cmpi eq, %warp, %c0 : index
      %one = arith.andi %warp0, %lane0 : i1
      scf.if %one {
        %x = memref.load %partial[%c0] : memref<2xi32, #gpu.address_space<workgroup>>
        %y = memref.load %partial[%c1] : memref<2xi32, #gpu.address_space<workgroup>>
        %s = arith.addi %x, %y : i32
        memref.store %s, %out[%b] : memref<?xi32>
      }
      gpu.return
    }
    // out[row * n + col] under col < n: one element per thread.
    gpu.func @rows(%n: index, %out: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 4, 2, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %inside = arith.cmpi ult, %tx, %n : index
      scf.if %inside {
        %r = arith.muli %ty, %n : index
        %i = arith.addi %r, %tx : index
        %ii = arith.index_cast %i : index to i32
        memref.store %ii, %out[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc(%c16) : memref<?xi32>
    gpu.launch_func @kernels::@tile_rows blocks in (%c1, %c1, %c1)
        threads in (%c16, %c4, %c1) args(%out : memref<?xi32>)
    %v = memref.load %out[%c0] : memref<?xi32>
    vector.print %v : i32
    gpu.launch_func @kernels::@warp_slots blocks in (%c2, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%out : memref<?xi32>)
    %w = memref.load %out[%c1] : memref<?xi32>
    vector.print %w : i32
    gpu.launch_func @kernels::@rows blocks in (%c1, %c1, %c1)
        threads in (%c4, %c2, %c1) args(%c3 : index, %out : memref<?xi32>)
    %x = memref.load %out[%c4] : memref<?xi32>
    vector.print %x : i32
    return
  }
}

//--- tile_step.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Rows ty + j with j stepping by 2 for 4 threads along y: thread (x, 2)
    // at j = 0 and thread (x, 0) at j = 2 write row 2.
    gpu.func @tile_step(%out: memref<?xi32>)
        workgroup(%tile: memref<16x16xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 16, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %j = %c0 to %c12 step %c2 {
        %r = arith.addi %ty, %j : index
        %l = arith.muli %ty, %c16 : index
        %v = arith.addi %l, %tx : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %tile[%r, %tx] : memref<16x16xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc(%c16) : memref<?xi32>
    gpu.launch_func @kernels::@tile_step blocks in (%c1, %c1, %c1)
        threads in (%c16, %c4, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- tile_mixed.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // tile[ty + j][tx] and tile[tx][ty + j], j = 0, 8, both thread-own
    // alone: thread (x, y) and thread (y, x) write tile[y][x] at j = 0.
    gpu.func @tile_mixed(%out: memref<?xi32>)
        workgroup(%tile: memref<16x16xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 8, 8, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c100 = arith.constant 100 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %j = %c0 to %c16 step %c8 {
        %r = arith.addi %ty, %j : index
        %l = arith.muli %ty, %c8 : index
        %v = arith.addi %l, %tx : index
        %vi = arith.index_cast %v : index to i32
        memref.store %vi, %tile[%r, %tx] : memref<16x16xi32, #gpu.address_space<workgroup>>
        %w = arith.addi %v, %c100 : index
        %wi = arith.index_cast %w : index to i32
        memref.store %wi, %tile[%tx, %r] : memref<16x16xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc(%c16) : memref<?xi32>
    gpu.launch_func @kernels::@tile_mixed blocks in (%c1, %c1, %c1)
        threads in (%c8, %c8, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- slots_stride.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // tid % 2 == 0 is not tid % 4: threads 0 and 2 write partial[0].
    gpu.func @slots_stride(%out: memref<?xi32>)
        workgroup(%partial: memref<16xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %t = gpu.thread_id x
      %even = arith.remui %t, %c2 : index
      %slot = arith.divui %t, %c4 : index
      %lane0 = arith.cmpi eq, %even, %c0 : index
      scf.if %lane0 {
        %ti = arith.index_cast %t : index to i32
        memref.store %ti, %partial[%slot] : memref<16xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc(%c16) : memref<?xi32>
    gpu.launch_func @kernels::@slots_stride blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- two_pins.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Threads 0 and 1 each under their own pin, one slot.
    gpu.func @two_pins(%out: memref<?xi32>)
        workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = gpu.thread_id x
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %v = arith.constant 1 : i32
        memref.store %v, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      %second = arith.cmpi eq, %t, %c1 : index
      scf.if %second {
        %v = arith.constant 2 : i32
        memref.store %v, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc(%c16) : memref<?xi32>
    gpu.launch_func @kernels::@two_pins blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- rows_edge.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[row * n + col] under col <= n: thread (3, 0) and thread (0, 1)
    // both write out[3] for n = 3.
    gpu.func @rows_edge(%n: index, %out: memref<?xi32>) kernel
        attributes {known_block_size = array<i32: 4, 2, 1>} {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %inside = arith.cmpi ule, %tx, %n : index
      scf.if %inside {
        %r = arith.muli %ty, %n : index
        %i = arith.addi %r, %tx : index
        %ti = arith.index_cast %tx : index to i32
        memref.store %ti, %out[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %out = memref.alloc(%c16) : memref<?xi32>
    gpu.launch_func @kernels::@rows_edge blocks in (%c1, %c1, %c1)
        threads in (%c4, %c2, %c1) args(%c3 : index, %out : memref<?xi32>)
    return
  }
}
