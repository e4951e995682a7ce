// Sums of 4-element slices (memref.subview with a dynamic offset): the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/window_sum.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/window_sum.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/window_sum.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [6,  22,  38,  54,  70,  86,  102,  118]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %out = gpu.alloc host_shared () : memref<64xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.uitofp %ii : i32 to f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %out[%i] : memref<64xf32>
  }
  %x_s = memref.cast %x : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<64xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z10window_sum5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xf32, strided<[?], offset: ?>>, %out_s : memref<?xf32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [8] [1] : memref<64xf32> to memref<8xf32, strided<[1]>>
  %out_u = memref.cast %out_head : memref<8xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
