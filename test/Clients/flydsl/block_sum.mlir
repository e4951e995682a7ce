// A block reduction in shared memory (addr_space 3 llvm.mlir.global, gpu.barrier): the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/block_sum.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/block_sum.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/block_sum.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [379,  383]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xf32>
  %out = gpu.alloc host_shared () : memref<2xf32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c7 = arith.constant 7 : i32
    %r = arith.remui %ii, %c7 : i32
    %v = arith.uitofp %r : i32 to f32
    memref.store %v, %x[%i] : memref<256xf32>
  }
  scf.for %i = %c0 to %c2 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %out[%i] : memref<2xf32>
  }
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<256xf32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %out_i = memref.extract_aligned_pointer_as_index %out : memref<2xf32> -> index
  %out_l = arith.index_cast %out_i : index to i64
  %out_p = llvm.inttoptr %out_l : i64 to !llvm.ptr<1>
  %token = gpu.wait async
  call @block_sum(%x_p, %out_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  %out_head = memref.subview %out[0] [2] [1] : memref<2xf32> to memref<2xf32, strided<[1]>>
  %out_u = memref.cast %out_head : memref<2xf32, strided<[1]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
