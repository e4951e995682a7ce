// A 1-D three-point stencil: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/stencil.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/stencil.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/stencil.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [0,  1.5,  4.5,  9.5,  16.5,  25.5,  36.5,  49.5]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %y = gpu.alloc host_shared () : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %t = arith.muli %ii, %ii : i32
    %v = arith.uitofp %t : i32 to f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %y[%i] : memref<256xf32>
  }
  %x_s = memref.cast %x : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %y_s = memref.cast %y : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z7stencil5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xf32, strided<[?], offset: ?>>, %y_s : memref<?xf32, strided<[?], offset: ?>>)
  %y_head = memref.subview %y[0] [8] [1] : memref<256xf32> to memref<8xf32, strided<[1]>>
  %y_u = memref.cast %y_head : memref<8xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
