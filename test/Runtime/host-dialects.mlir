// Issue 15 items 2 and 3: linalg, 2-D vector, complex, index and ub code
// inside kernels, and
// vendor ops with a meaning on the CPU (amdgpu.sched_barrier: a hint;
// amdgpu.lds_barrier: a barrier; amdgpu.raw_buffer_load/store: accesses that
// read 0 and drop stores out of bounds), run on the host device.
//
// RUN: split-file %s %t
// RUN: offload-run %t/linalg-vector.mlir | FileCheck %s --check-prefix=LINALG
// RUN: offload-run %t/vendor.mlir | FileCheck %s --check-prefix=VENDOR
// RUN: offload-run %t/complex-index.mlir | FileCheck %s --check-prefix=COMPLEX
// RUN: offload-opt %t/vendor.mlir --offload-lower-to-host 2>&1 >/dev/null | FileCheck %s --check-prefix=NOFIBERS --allow-empty

// linalg.matmul of A (a[i][j] = i + j) by the identity is A.
// LINALG:      [0,   1,   2,   3],
// LINALG-NEXT: [1,   2,   3,   4],
// LINALG-NEXT: [2,   3,   4,   5],
// LINALG-NEXT: [3,   4,   5,   6]]
// A * A^T with vector.transfer_read/transpose/contract/transfer_write.
// LINALG:      [14,   20,   26,   32],
// LINALG-NEXT: [20,   30,   40,   50],
// LINALG-NEXT: [26,   40,   54,   68],
// LINALG-NEXT: [32,   50,   68,   86]]

// complex, index and ub ops: |(1 + i t)^2| = 1 + t^2 at (t + 1) mod 4.
// COMPLEX: [10,  1,  2,  5]
// VENDOR: [1,  2,  3,  4,  5,  6,  7,  8,  0,  0,  0,  0]
// VENDOR: [2,  4,  6,  8,  10,  12,  14,  16]
// The barrier splits thread loops: no fibers.
// NOFIBERS-NOT: runs on fibers

//--- linalg-vector.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @mm(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %c: memref<4x4xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
      }
      gpu.return
    }
    gpu.func @vec(%a: memref<4x4xf32>, %c: memref<4x4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %a[%c0, %c0], %pad : memref<4x4xf32>, vector<4x4xf32>
      %w = vector.transpose %v, [1, 0] : vector<4x4xf32> to vector<4x4xf32>
      %acc = arith.constant dense<0.0> : vector<4x4xf32>
      %r = vector.contract {indexing_maps = [affine_map<(i,j,k)->(i,k)>, affine_map<(i,j,k)->(k,j)>, affine_map<(i,j,k)->(i,j)>], iterator_types = ["parallel","parallel","reduction"], kind = #vector.kind<add>} %v, %w, %acc : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
      vector.transfer_write %r, %c[%c0, %c0] : vector<4x4xf32>, memref<4x4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %a = memref.alloc() : memref<4x4xf32>
    %b = memref.alloc() : memref<4x4xf32>
    %c = memref.alloc() : memref<4x4xf32>
    %d = memref.alloc() : memref<4x4xf32>
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c4 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %s = arith.addi %ii, %jj : i32
        %f = arith.sitofp %s : i32 to f32
        memref.store %f, %a[%i, %j] : memref<4x4xf32>
        %e = arith.cmpi eq, %i, %j : index
        %one = arith.constant 1.0 : f32
        %zero = arith.constant 0.0 : f32
        %v = arith.select %e, %one, %zero : f32
        memref.store %v, %b[%i, %j] : memref<4x4xf32>
        memref.store %zero, %c[%i, %j] : memref<4x4xf32>
      }
    }
    gpu.launch_func @kernels::@mm blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<4x4xf32>, %b : memref<4x4xf32>, %c : memref<4x4xf32>)
    gpu.launch_func @kernels::@vec blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : memref<4x4xf32>, %d : memref<4x4xf32>)
    %u = memref.cast %c : memref<4x4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %w = memref.cast %d : memref<4x4xf32> to memref<*xf32>
    call @printMemrefF32(%w) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

//--- vendor.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @buf(%x: memref<8xf32>, %out: memref<12xf32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      // Reads past the 8 elements return 0.
      %v = amdgpu.raw_buffer_load %x[%ti] : memref<8xf32>, i32 -> f32
      amdgpu.sched_barrier allow = <none>
      memref.store %v, %out[%t] : memref<12xf32>
      amdgpu.lds_barrier
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      // Stores past the end are dropped.
      amdgpu.raw_buffer_store %w -> %x[%ti] : f32 -> memref<8xf32>, i32
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c12 = arith.constant 12 : index
    %x = memref.alloc() : memref<8xf32>
    %out = memref.alloc() : memref<12xf32>
    scf.for %k = %c0 to %c8 step %c1 {
      %kk = arith.index_cast %k : index to i32
      %f = arith.sitofp %kk : i32 to f32
      %g = arith.addf %f, %f : f32
      %one = arith.constant 1.0 : f32
      %h = arith.addf %f, %one : f32
      memref.store %h, %x[%k] : memref<8xf32>
    }
    gpu.launch_func @kernels::@buf blocks in (%c1, %c1, %c1) threads in (%c12, %c1, %c1)
        args(%x : memref<8xf32>, %out : memref<12xf32>)
    %u = memref.cast %out : memref<12xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %w = memref.cast %x : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%w) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

//--- complex-index.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%x: memref<4xf32>) kernel {
      %t = gpu.thread_id x
      %re = arith.constant 1.0 : f32
      %tf = arith.index_cast %t : index to i32
      %im = arith.sitofp %tf : i32 to f32
      %z = complex.create %re, %im : complex<f32>
      %z2 = complex.mul %z, %z : complex<f32>
      %a = complex.abs %z2 : complex<f32>
      %c1 = index.constant 1
      %j = index.add %t, %c1
      %c4 = index.constant 4
      %jm = index.rems %j, %c4
      %p = ub.poison : f32
      memref.store %a, %x[%jm] : memref<4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc() : memref<4xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>)
    %u = memref.cast %x : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
