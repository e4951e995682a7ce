// Vector addition: the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/vadd.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/vadd.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/vadd.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [0,  96,  192,  288,  384,  480,  576,  672]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
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
  %a_i = memref.extract_aligned_pointer_as_index %a : memref<256xf32> -> index
  %a_l = arith.index_cast %a_i : index to i64
  %a_p = llvm.inttoptr %a_l : i64 to !llvm.ptr<1>
  %b_i = memref.extract_aligned_pointer_as_index %b : memref<256xf32> -> index
  %b_l = arith.index_cast %b_i : index to i64
  %b_p = llvm.inttoptr %b_l : i64 to !llvm.ptr<1>
  %c_i = memref.extract_aligned_pointer_as_index %c : memref<256xf32> -> index
  %c_l = arith.index_cast %c_i : index to i64
  %c_p = llvm.inttoptr %c_l : i64 to !llvm.ptr<1>
  %token = gpu.wait async
  call @vadd(%a_p, %b_p, %c_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  %c_head = memref.subview %c[0] [8] [32] : memref<256xf32> to memref<8xf32, strided<[32]>>
  %c_u = memref.cast %c_head : memref<8xf32, strided<[32]>> to memref<*xf32>
  call @printMemrefF32(%c_u) : (memref<*xf32>) -> ()
  return
}
