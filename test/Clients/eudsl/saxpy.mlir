// SAXPY in place (y = a x + y): the kernel eudsl-python-extras 0.1.0 emits,
// Inputs/eudsl/saxpy.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/eudsl/saxpy.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/eudsl/saxpy.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [1,  65,  129,  193,  257,  321,  385,  449]

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
    %v = arith.uitofp %ii : i32 to f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 1.0 : f32
    memref.store %v, %y[%i] : memref<256xf32>
  }
  %alpha = arith.constant 2.0 : f32
  gpu.launch_func @eudsl_kernels::@saxpy
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%alpha : f32, %x : memref<256xf32>, %y : memref<256xf32>)
  %y_head = memref.subview %y[0] [8] [32] : memref<256xf32> to memref<8xf32, strided<[32]>>
  %y_u = memref.cast %y_head : memref<8xf32, strided<[32]>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
