// GELU (erf form, math.erf): the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/gelu.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/gelu.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/gelu.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: mismatches: 0
// CHECK: [-0.00404969,  -0.0455003,  -0.158655,  0,  0.841345,  1.9545,  2.99595]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %y = gpu.alloc host_shared () : memref<256xf32>
  // x in [-4, 4)
  %c128_i32 = arith.constant 128 : i32
  %scale = arith.constant 3.125e-02 : f32
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %d = arith.subi %ii, %c128_i32 : i32
    %f = arith.sitofp %d : i32 to f32
    %v = arith.mulf %f, %scale : f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<256xf32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %y_i = memref.extract_aligned_pointer_as_index %y : memref<256xf32> -> index
  %y_l = arith.index_cast %y_i : index to i64
  %y_p = llvm.inttoptr %y_l : i64 to !llvm.ptr<1>
  %token = gpu.wait async
  call @gelu(%x_p, %y_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  // 0.5 v (1 + erf(v / sqrt(2))) in f32, as the kernel.
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %k = arith.constant 0.70710678 : f32
  %tol = arith.constant 1.0e-6 : f32
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %errors = scf.for %i = %c0 to %c256 step %c1 iter_args(%e = %zero) -> (i32) {
    %v = memref.load %x[%i] : memref<256xf32>
    %t0 = arith.mulf %v, %k : f32
    %t1 = math.erf %t0 : f32
    %t2 = arith.addf %t1, %one : f32
    %t3 = arith.mulf %v, %half : f32
    %r = arith.mulf %t3, %t2 : f32
    %got = memref.load %y[%i] : memref<256xf32>
    %diff = arith.subf %got, %r : f32
    %abs = math.absf %diff : f32
    %bad = arith.cmpf ugt, %abs, %tol : f32
    %add = arith.select %bad, %inc, %zero : i32
    %e1 = arith.addi %e, %add : i32
    scf.yield %e1 : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  // gelu(-3), gelu(-2), ..., gelu(3)
  %y_head = memref.subview %y[32] [7] [32] : memref<256xf32> to memref<7xf32, strided<[32], offset: 32>>
  %y_u = memref.cast %y_head : memref<7xf32, strided<[32], offset: 32>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
