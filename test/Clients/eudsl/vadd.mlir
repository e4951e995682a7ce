// Vector addition: the kernel eudsl-python-extras 0.1.0 emits,
// Inputs/eudsl/vadd.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/eudsl/vadd.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/eudsl/vadd.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [0,  96,  192,  288,  384,  480,  576,  672]

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
  gpu.launch_func @eudsl_kernels::@vadd
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%a : memref<256xf32>, %b : memref<256xf32>, %c : memref<256xf32>)
  %c_head = memref.subview %c[0] [8] [32] : memref<256xf32> to memref<8xf32, strided<[32]>>
  %c_u = memref.cast %c_head : memref<8xf32, strided<[32]>> to memref<*xf32>
  call @printMemrefF32(%c_u) : (memref<*xf32>) -> ()
  return
}
