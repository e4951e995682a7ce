// SAXPY: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/saxpy.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/saxpy.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/saxpy.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [1,  3,  5,  7,  9,  11,  13,  15]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %y = gpu.alloc host_shared () : memref<256xf32>
  %out = gpu.alloc host_shared () : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.uitofp %ii : i32 to f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 1.0 : f32
    memref.store %v, %y[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %out[%i] : memref<256xf32>
  }
  %alpha = arith.constant 2.0 : f32
  %x_s = memref.cast %x : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %y_s = memref.cast %y : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z5saxpyf5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%alpha : f32, %x_s : memref<?xf32, strided<[?], offset: ?>>, %y_s : memref<?xf32, strided<[?], offset: ?>>, %out_s : memref<?xf32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [8] [1] : memref<256xf32> to memref<8xf32, strided<[1]>>
  %out_u = memref.cast %out_head : memref<8xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
