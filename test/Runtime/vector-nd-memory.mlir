// n-D vector.load and vector.store in kernels and host code (eudsl and
// upstream's vector tests write them; MLIR 22's convert-vector-to-llvm lowers
// 1-D ones only, and the host target said "'vector.load' op is not supported
// by the host target").
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s
// RUN: offload-run -O0 %s | FileCheck %s

// Rows 2 and 3 of plane 1 are rows 0 and 1 plus one; the 3-D store wrote
// 7s into plane 0's rows 1-2, columns 4-7.
// CHECK: ( ( 0, 1, 2, 3, 4, 5, 6, 7 ), ( 8, 9, 10, 11, 7, 7, 7, 7 ), ( 16, 17, 18, 19, 7, 7, 7, 7 ), ( 24, 25, 26, 27, 28, 29, 30, 31 ) )
// CHECK: ( ( 32, 33, 34, 35, 36, 37, 38, 39 ), ( 40, 41, 42, 43, 44, 45, 46, 47 ), ( 33, 34, 35, 36, 37, 38, 39, 40 ), ( 41, 42, 43, 44, 45, 46, 47, 48 ) )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%m: memref<2x4x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %v = vector.load %m[%c1, %c0, %c0] : memref<2x4x8xf32>, vector<2x8xf32>
      %one = arith.constant dense<1.0> : vector<2x8xf32>
      %w = arith.addf %v, %one : vector<2x8xf32>
      vector.store %w, %m[%c1, %c2, %c0] : memref<2x4x8xf32>, vector<2x8xf32>
      %seven = arith.constant dense<7.0> : vector<1x2x4xf32>
      vector.store %seven, %m[%c0, %c1, %c4] : memref<2x4x8xf32>, vector<1x2x4xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %m = memref.alloc() : memref<2x4x8xf32>
    scf.for %p = %c0 to %c2 step %c1 {
      scf.for %r = %c0 to %c4 step %c1 {
        scf.for %c = %c0 to %c8 step %c1 {
          %pr = arith.muli %p, %c4 : index
          %row = arith.addi %pr, %r : index
          %rc = arith.muli %row, %c8 : index
          %i = arith.addi %rc, %c : index
          %ii = arith.index_cast %i : index to i32
          %f = arith.sitofp %ii : i32 to f32
          memref.store %f, %m[%p, %r, %c] : memref<2x4x8xf32>
        }
      }
    }
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<2x4x8xf32>)
    // Host code reads back with 2-D loads too.
    %p0 = vector.load %m[%c0, %c0, %c0] : memref<2x4x8xf32>, vector<4x8xf32>
    %p1 = vector.load %m[%c1, %c0, %c0] : memref<2x4x8xf32>, vector<4x8xf32>
    vector.print %p0 : vector<4x8xf32>
    vector.print %p1 : vector<4x8xf32>
    memref.dealloc %m : memref<2x4x8xf32>
    return
  }
}
