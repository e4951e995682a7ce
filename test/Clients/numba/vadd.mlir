// Vector addition: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/vadd.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/vadd.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/vadd.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [0,  3,  6,  9,  12,  15,  18,  21]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %a = gpu.alloc host_shared () : memref<256xf32>
  %b = gpu.alloc host_shared () : memref<256xf32>
  %c = gpu.alloc host_shared () : memref<256xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.uitofp %ii : i32 to f32
    memref.store %v, %a[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %t = arith.uitofp %ii : i32 to f32
    %v = arith.addf %t, %t : f32
    memref.store %v, %b[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %c[%i] : memref<256xf32>
  }
  %a_s = memref.cast %a : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %b_s = memref.cast %b : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %c_s = memref.cast %c : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z4vadd5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%a_s : memref<?xf32, strided<[?], offset: ?>>, %b_s : memref<?xf32, strided<[?], offset: ?>>, %c_s : memref<?xf32, strided<[?], offset: ?>>)
  %c_head = memref.subview %c[0] [8] [1] : memref<256xf32> to memref<8xf32, strided<[1]>>
  %c_u = memref.cast %c_head : memref<8xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%c_u) : (memref<*xf32>) -> ()
  return
}
