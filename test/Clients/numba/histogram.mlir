// A histogram with atomic adds: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/histogram.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/histogram.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/histogram.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [64,  64,  0,  0,  64,  0,  0,  0,  0,  64,  0,  0,  0,  0,  0,  0]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xi32>
  %bins = gpu.alloc host_shared () : memref<16xi32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c16_i32 = arith.constant 16 : i32
    %m = arith.muli %ii, %ii : i32
    %v = arith.remui %m, %c16_i32 : i32
    memref.store %v, %x[%i] : memref<256xi32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %bins[%i] : memref<16xi32>
  }
  %x_s = memref.cast %x : memref<256xi32> to memref<?xi32, strided<[?], offset: ?>>
  %bins_s = memref.cast %bins : memref<16xi32> to memref<?xi32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z9histogram5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xi32, strided<[?], offset: ?>>, %bins_s : memref<?xi32, strided<[?], offset: ?>>)
  %bins_head = memref.subview %bins[0] [16] [1] : memref<16xi32> to memref<16xi32, strided<[1]>>
  %bins_u = memref.cast %bins_head : memref<16xi32, strided<[1]>> to memref<*xi32>
  call @printMemrefI32(%bins_u) : (memref<*xi32>) -> ()
  return
}
