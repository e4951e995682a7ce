// Block and grid dimensions, thread id and warp size: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/dims.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/dims.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/dims.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [64232,  64241,  64250,  64259,  64268,  64277,  64286,  64295]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %out = gpu.alloc host_shared () : memref<128xi32>
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %out[%i] : memref<128xi32>
  }
  %out_s = memref.cast %out : memref<128xi32> to memref<?xi32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z4dims5ArrayIiLi1E1A7mutable7alignedE
      blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%out_s : memref<?xi32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [8] [9] : memref<128xi32> to memref<8xi32, strided<[9]>>
  %out_u = memref.cast %out_head : memref<8xi32, strided<[9]>> to memref<*xi32>
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
