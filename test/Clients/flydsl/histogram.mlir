// A histogram with atomic adds (llvm.atomicrmw): the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/histogram.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/histogram.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/histogram.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [64,  64,  0,  0,  64,  0,  0,  0,  0,  64,  0,  0,  0,  0,  0,  0]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %x = gpu.alloc host_shared () : memref<256xi32>
  %bins = gpu.alloc host_shared () : memref<16xi32>
  scf.for %i = %c0 to %c256 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c16_i32 = arith.constant 16 : i32
    %m = arith.muli %ii, %ii : i32
    %v = arith.remui %m, %c16_i32 : i32
    memref.store %v, %x[%i] : memref<256xi32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %bins[%i] : memref<16xi32>
  }
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<256xi32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %bins_i = memref.extract_aligned_pointer_as_index %bins : memref<16xi32> -> index
  %bins_l = arith.index_cast %bins_i : index to i64
  %bins_p = llvm.inttoptr %bins_l : i64 to !llvm.ptr<1>
  %token = gpu.wait async
  call @histogram(%x_p, %bins_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  %bins_head = memref.subview %bins[0] [16] [1] : memref<16xi32> to memref<16xi32, strided<[1]>>
  %bins_u = memref.cast %bins_head : memref<16xi32, strided<[1]>> to memref<*xi32>
  call @printMemrefI32(%bins_u) : (memref<*xi32>) -> ()
  return
}
