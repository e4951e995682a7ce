// A block reduction in shared memory (cuda.shared.array, syncthreads): the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/block_sum.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/block_sum.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/block_sum.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [379,  383]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %out = gpu.alloc host_shared () : memref<2xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c7 = arith.constant 7 : i32
    %r = arith.remui %ii, %c7 : i32
    %v = arith.uitofp %r : i32 to f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %out[%i] : memref<2xf32>
  }
  %x_s = memref.cast %x : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<2xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z9block_sum5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c2, %c1, %c1) threads in (%c128, %c1, %c1)
      args(%x_s : memref<?xf32, strided<[?], offset: ?>>, %out_s : memref<?xf32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [2] [1] : memref<2xf32> to memref<2xf32, strided<[1]>>
  %out_u = memref.cast %out_head : memref<2xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
