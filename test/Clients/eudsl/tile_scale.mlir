// 4x4 tiles doubled with 2-D vector.transfer_read/write (their lowering makes affine.apply): the kernel eudsl-python-extras 0.1.0 emits,
// Inputs/eudsl/tile_scale.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/eudsl/tile_scale.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/eudsl/tile_scale.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: mismatches: 0
// CHECK: [0,  1170,  2340,  3510,  4680,  5850,  7020,  8190]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %a = gpu.alloc host_shared () : memref<64x64xf32>
  %b = gpu.alloc host_shared () : memref<64x64xf32>
  // A[i][j] = 64 i + j
  scf.for %i = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c64 step %c1 {
      %r = arith.muli %i, %c64 : index
      %s = arith.addi %r, %j : index
      %si = arith.index_cast %s : index to i32
      %f = arith.uitofp %si : i32 to f32
      memref.store %f, %a[%i, %j] : memref<64x64xf32>
    }
  }
  // 16 blocks of 16 threads, a 4x4 tile each.
  gpu.launch_func @eudsl_kernels::@tile_scale
      blocks in (%c16, %c1, %c1) threads in (%c16, %c1, %c1)
      args(%a : memref<64x64xf32>, %b : memref<64x64xf32>)
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %errors = scf.for %i = %c0 to %c64 step %c1 iter_args(%e = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %c64 step %c1 iter_args(%er = %e) -> (i32) {
      %x = memref.load %a[%i, %j] : memref<64x64xf32>
      %want = arith.addf %x, %x : f32
      %got = memref.load %b[%i, %j] : memref<64x64xf32>
      %bad = arith.cmpf une, %got, %want : f32
      %add = arith.select %bad, %inc, %zero : i32
      %er1 = arith.addi %er, %add : i32
      scf.yield %er1 : i32
    }
    scf.yield %row : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  %diag = memref.reinterpret_cast %b to offset: [0], sizes: [8], strides: [585] : memref<64x64xf32> to memref<8xf32, strided<[585]>>
  %d_u = memref.cast %diag : memref<8xf32, strided<[585]>> to memref<*xf32>
  call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
  return
}
