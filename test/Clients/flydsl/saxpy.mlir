// SAXPY: the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/saxpy.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/saxpy.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/saxpy.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [1,  65,  129,  193,  257,  321,  385,  449]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<256xf32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %y_i = memref.extract_aligned_pointer_as_index %y : memref<256xf32> -> index
  %y_l = arith.index_cast %y_i : index to i64
  %y_p = llvm.inttoptr %y_l : i64 to !llvm.ptr<1>
  %out_i = memref.extract_aligned_pointer_as_index %out : memref<256xf32> -> index
  %out_l = arith.index_cast %out_i : index to i64
  %out_p = llvm.inttoptr %out_l : i64 to !llvm.ptr<1>
  %alpha = arith.constant 2.0 : f32
  %token = gpu.wait async
  call @saxpy(%alpha, %x_p, %y_p, %out_p, %token) : (f32, !llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  %out_head = memref.subview %out[0] [8] [32] : memref<256xf32> to memref<8xf32, strided<[32]>>
  %out_u = memref.cast %out_head : memref<8xf32, strided<[32]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
