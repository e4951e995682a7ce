// A 1-D three-point stencil: the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/stencil.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/stencil.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/stencil.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [0,  1.5,  4.5,  9.5,  16.5,  25.5,  36.5,  49.5]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<256xf32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %y_i = memref.extract_aligned_pointer_as_index %y : memref<256xf32> -> index
  %y_l = arith.index_cast %y_i : index to i64
  %y_p = llvm.inttoptr %y_l : i64 to !llvm.ptr<1>
  %n = arith.constant 256 : i32
  %token = gpu.wait async
  call @stencil(%x_p, %y_p, %n, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, i32, !gpu.async.token) -> ()
  gpu.wait [%token]
  %y_head = memref.subview %y[0] [8] [1] : memref<256xf32> to memref<8xf32, strided<[1]>>
  %y_u = memref.cast %y_head : memref<8xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
