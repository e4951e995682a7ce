// Atomic max, min and add on one array: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/atomics.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/atomics.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/atomics.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [50,  -50,  -51]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xi32>
  %out = gpu.alloc host_shared () : memref<3xi32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c37 = arith.constant 37 : i32
    %c101 = arith.constant 101 : i32
    %c50 = arith.constant 50 : i32
    %m = arith.muli %ii, %c37 : i32
    %r = arith.remui %m, %c101 : i32
    %v = arith.subi %r, %c50 : i32
    memref.store %v, %x[%i] : memref<256xi32>
  }
  scf.for %i = %c0 to %c3 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %out[%i] : memref<3xi32>
  }
  %x_s = memref.cast %x : memref<256xi32> to memref<?xi32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<3xi32> to memref<?xi32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z7atomics5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xi32, strided<[?], offset: ?>>, %out_s : memref<?xi32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [3] [1] : memref<3xi32> to memref<3xi32, strided<[1]>>
  %out_u = memref.cast %out_head : memref<3xi32, strided<[1]>> to memref<*xi32>
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
