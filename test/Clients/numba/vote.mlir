// Warp votes: ballot_sync, any_sync, all_sync: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/vote.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/vote.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/vote.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [2,  0,  1227133514,  -2147483647]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %x = gpu.alloc host_shared () : memref<128xi32>
  %out = gpu.alloc host_shared () : memref<128xi32>
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c32 = arith.constant 32 : i32
    %c3 = arith.constant 3 : i32
    %c31 = arith.constant 31 : i32
    %one = arith.constant 1 : i32
    %mone = arith.constant -1 : i32
    %zero = arith.constant 0 : i32
    %w = arith.divui %ii, %c32 : i32
    %l = arith.remui %ii, %c32 : i32
    %m3 = arith.remui %l, %c3 : i32
    %d3 = arith.cmpi eq, %m3, %zero : i32
    %v2 = arith.select %d3, %one, %mone : i32
    %is31 = arith.cmpi eq, %l, %c31 : i32
    %v3 = arith.select %is31, %one, %zero : i32
    %w0 = arith.cmpi eq, %w, %zero : i32
    %w1 = arith.cmpi eq, %w, %one : i32
    %two = arith.constant 2 : i32
    %w2 = arith.cmpi eq, %w, %two : i32
    %s23 = arith.select %w2, %v2, %v3 : i32
    %s1 = arith.select %w1, %mone, %s23 : i32
    %v = arith.select %w0, %one, %s1 : i32
    memref.store %v, %x[%i] : memref<128xi32>
  }
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %out[%i] : memref<128xi32>
  }
  %x_s = memref.cast %x : memref<128xi32> to memref<?xi32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<128xi32> to memref<?xi32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z4vote5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE
      blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xi32, strided<[?], offset: ?>>, %out_s : memref<?xi32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [4] [32] : memref<128xi32> to memref<4xi32, strided<[32]>>
  %out_u = memref.cast %out_head : memref<4xi32, strided<[32]>> to memref<*xi32>
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
