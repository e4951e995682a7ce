// An inclusive warp scan with shfl.sync up and the lane id: the kernel numba-cuda-mlir 0.6.0 (`cuda.compile_mlir(fn, sig, device=False)`) emits,
// Inputs/numba/warp_scan.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/numba/warp_scan.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/numba/warp_scan.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [0,  9,  16,  24,  2,  9,  17,  26,  1,  9,  18,  25,  0,  9,  16,  24]

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
    %c3 = arith.constant 3 : i32
    %v = arith.remui %ii, %c3 : i32
    memref.store %v, %x[%i] : memref<128xi32>
  }
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %out[%i] : memref<128xi32>
  }
  %x_s = memref.cast %x : memref<128xi32> to memref<?xi32, strided<[?], offset: ?>>
  %out_s = memref.cast %out : memref<128xi32> to memref<?xi32, strided<[?], offset: ?>>
  gpu.launch_func @numba_cuda_mlir_gpu_module::@_Z9warp_scan5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE
      blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
      args(%x_s : memref<?xi32, strided<[?], offset: ?>>, %out_s : memref<?xi32, strided<[?], offset: ?>>)
  %out_head = memref.subview %out[0] [16] [8] : memref<128xi32> to memref<16xi32, strided<[8]>>
  %out_u = memref.cast %out_head : memref<16xi32, strided<[8]>> to memref<*xi32>
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
