// A 16x16-tiled matrix product in shared memory: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/matmul.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/matmul.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/matmul.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: mismatches: 0
// CHECK: [0,  62,  66,  0,  60,  62,  0,  63]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = gpu.alloc host_shared () : memref<32x32xf32>
  %b = gpu.alloc host_shared () : memref<32x32xf32>
  %c = gpu.alloc host_shared () : memref<32x32xf32>
  // A[i][j] = (i + j) % 5, B[i][j] = (i * j) % 3
  %c5_i = arith.constant 5 : index
  %c3_i = arith.constant 3 : index
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %s = arith.addi %i, %j : index
      %sa = arith.remui %s, %c5_i : index
      %p = arith.muli %i, %j : index
      %sb = arith.remui %p, %c3_i : index
      %ia = arith.index_cast %sa : index to i32
      %ib = arith.index_cast %sb : index to i32
      %fa = arith.uitofp %ia : i32 to f32
      %fb = arith.uitofp %ib : i32 to f32
      memref.store %fa, %a[%i, %j] : memref<32x32xf32>
      memref.store %fb, %b[%i, %j] : memref<32x32xf32>
    }
  }
  %a_s = memref.cast %a : memref<32x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %b_s = memref.cast %b : memref<32x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  %c_s = memref.cast %c : memref<32x32xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z6matmul5ArrayIfLi2E1A7mutable7alignedE5ArrayIfLi2E1A7mutable7alignedE5ArrayIfLi2E1A7mutable7alignedE
      blocks in (%c2, %c2, %c1) threads in (%c16, %c16, %c1)
      args(%a_s : memref<?x?xf32, strided<[?, ?], offset: ?>>, %b_s : memref<?x?xf32, strided<[?, ?], offset: ?>>, %c_s : memref<?x?xf32, strided<[?, ?], offset: ?>>)
  // The product on the host; exact in f32 (small integers).
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %fzero = arith.constant 0.0 : f32
  %errors = scf.for %i = %c0 to %c32 step %c1 iter_args(%e = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %c32 step %c1 iter_args(%er = %e) -> (i32) {
      %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %fzero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<32x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x32xf32>
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %m : f32
        scf.yield %n : f32
      }
      %got = memref.load %c[%i, %j] : memref<32x32xf32>
      %bad = arith.cmpf une, %got, %sum : f32
      %add = arith.select %bad, %inc, %zero : i32
      %er1 = arith.addi %er, %add : i32
      scf.yield %er1 : i32
    }
    scf.yield %row : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  %diag = memref.reinterpret_cast %c to offset: [0], sizes: [8], strides: [33] : memref<32x32xf32> to memref<8xf32, strided<[33]>>
  %d_u = memref.cast %diag : memref<8xf32, strided<[33]>> to memref<*xf32>
  call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
  return
}
