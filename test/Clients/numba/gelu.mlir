// GELU (tanh form): the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/gelu.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/gelu.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/gelu.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: mismatches: 0
// CHECK: [-7.0246e-05,  -0.00363739,  -0.0454023,  -0.158808,  0,  0.841192,  1.9546,  2.99636]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
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
  %x_s = memref.cast %x : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  %y_s = memref.cast %y : memref<256xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z4gelu5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xf32, strided<[?], offset: ?>>, %y_s : memref<?xf32, strided<[?], offset: ?>>)
  // 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3))) in f64, as the kernel.
  %half = arith.constant 0.5 : f64
  %one = arith.constant 1.0 : f64
  %k0 = arith.constant 0.7978845608 : f64
  %k1 = arith.constant 0.044715 : f64
  %tol = arith.constant 1.0e-6 : f32
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %errors = scf.for %i = %c0 to %c256 step %c1 iter_args(%e = %zero) -> (i32) {
    %v32 = memref.load %x[%i] : memref<256xf32>
    %v = arith.extf %v32 : f32 to f64
    %v2 = arith.mulf %v, %v : f64
    %v3 = arith.mulf %v2, %v : f64
    %t0 = arith.mulf %k1, %v3 : f64
    %t1 = arith.addf %v, %t0 : f64
    %t2 = arith.mulf %k0, %t1 : f64
    %t3 = math.tanh %t2 : f64
    %t4 = arith.addf %one, %t3 : f64
    %t5 = arith.mulf %half, %v : f64
    %r64 = arith.mulf %t5, %t4 : f64
    %r = arith.truncf %r64 : f64 to f32
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
  // gelu(-4 + 8 k / 8), k = 0..7
  %y_head = memref.subview %y[0] [8] [32] : memref<256xf32> to memref<8xf32, strided<[32]>>
  %y_u = memref.cast %y_head : memref<8xf32, strided<[32]>> to memref<*xf32>
  call @printMemrefF32(%y_u) : (memref<*xf32>) -> ()
  return
}
