// A butterfly warp maximum with shfl.sync bfly: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/warp_max.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/warp_max.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/warp_max.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [31,  31,  131,  131,  231,  231,  331,  331]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %x = gpu.alloc host_shared () : memref<128xf32>
  %out = gpu.alloc host_shared () : memref<128xf32>
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c7 = arith.constant 7 : i32
    %c32 = arith.constant 32 : i32
    %c100 = arith.constant 100 : i32
    %m = arith.muli %ii, %c7 : i32
    %r = arith.remui %m, %c32 : i32
    %w = arith.divui %ii, %c32 : i32
    %h = arith.muli %w, %c100 : i32
    %s = arith.addi %r, %h : i32
    %v = arith.uitofp %s : i32 to f32
    memref.store %v, %x[%i] : memref<128xf32>
  }
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %out[%i] : memref<128xf32>
  }
  %x_s = memref.cast %x : memref<128xf32> to memref<?xf32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<128xf32> to memref<?xf32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z8warp_max5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE
      blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xf32, strided<[?], offset: ?>>, %out_s : memref<?xf32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [8] [16] : memref<128xf32> to memref<8xf32, strided<[16]>>
  %out_u = memref.cast %out_head : memref<8xf32, strided<[16]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
