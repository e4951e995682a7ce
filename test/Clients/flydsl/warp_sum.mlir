// A butterfly warp sum with gpu.shuffle xor: the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/warp_sum.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/warp_sum.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/warp_sum.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [61,  61,  65,  65,  64,  64,  63,  63]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %x = gpu.alloc host_shared () : memref<128xf32>
  %out = gpu.alloc host_shared () : memref<128xf32>
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c5 = arith.constant 5 : i32
    %r = arith.remui %ii, %c5 : i32
    %v = arith.uitofp %r : i32 to f32
    memref.store %v, %x[%i] : memref<128xf32>
  }
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0.0 : f32
    memref.store %v, %out[%i] : memref<128xf32>
  }
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<128xf32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %out_i = memref.extract_aligned_pointer_as_index %out : memref<128xf32> -> index
  %out_l = arith.index_cast %out_i : index to i64
  %out_p = llvm.inttoptr %out_l : i64 to !llvm.ptr<1>
  %token = gpu.wait async
  call @warp_sum(%x_p, %out_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  %out_head = memref.subview %out[0] [8] [16] : memref<128xf32> to memref<8xf32, strided<[16]>>
  %out_u = memref.cast %out_head : memref<8xf32, strided<[16]>> to memref<*xf32>
  call @printMemrefF32(%out_u) : (memref<*xf32>) -> ()
  return
}
