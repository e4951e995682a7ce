// Lane intrinsics: rocdl.readfirstlane, rocdl.readlane, rocdl.ds_bpermute: the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/lanes.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/lanes.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/lanes.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: [2107,  2100,  2121,  2114,  2135,  2128,  2149,  2142]

func.func private @printMemrefI32(memref<*xi32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %x = gpu.alloc host_shared () : memref<128xi32>
  %out = gpu.alloc host_shared () : memref<128xi32>
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %c7 = arith.constant 7 : i32
    %c50 = arith.constant 50 : i32
    %m = arith.muli %ii, %c7 : i32
    %v = arith.remui %m, %c50 : i32
    memref.store %v, %x[%i] : memref<128xi32>
  }
  scf.for %i = %c0 to %c128 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %v = arith.constant 0 : i32
    memref.store %v, %out[%i] : memref<128xi32>
  }
  %x_i = memref.extract_aligned_pointer_as_index %x : memref<128xi32> -> index
  %x_l = arith.index_cast %x_i : index to i64
  %x_p = llvm.inttoptr %x_l : i64 to !llvm.ptr<1>
  %out_i = memref.extract_aligned_pointer_as_index %out : memref<128xi32> -> index
  %out_l = arith.index_cast %out_i : index to i64
  %out_p = llvm.inttoptr %out_l : i64 to !llvm.ptr<1>
  %token = gpu.wait async
  call @lanes(%x_p, %out_p, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !gpu.async.token) -> ()
  gpu.wait [%token]
  %out_head = memref.subview %out[0] [8] [1] : memref<128xi32> to memref<8xi32, strided<[1]>>
  %out_u = memref.cast %out_head : memref<8xi32, strided<[1]>> to memref<*xi32>
  call @printMemrefI32(%out_u) : (memref<*xi32>) -> ()
  return
}
