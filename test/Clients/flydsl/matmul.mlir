// A 16x16-tiled matrix product in shared memory (addr_space 3 globals): the kernel FlyDSL 0.5.0 (gfx942, the input of convert-gpu-to-rocdl) emits,
// Inputs/flydsl/matmul.mlir, launched by the host code below.

// RUN: %client-program %S/../Inputs/flydsl/matmul.mlir %s | offload-run - | FileCheck %s
// RUN: %client-program %S/../Inputs/flydsl/matmul.mlir %s | offload-run --jit - | FileCheck %s

// CHECK: mismatches: 0
// CHECK: [0,  62,  66,  0,  60,  62,  0,  63]

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = gpu.alloc host_shared () : memref<32x32xf32>
  %b = gpu.alloc host_shared () : memref<32x32xf32>
  %c = gpu.alloc host_shared () : memref<32x32xf32>
  // A[i][j] = (i + j) % 5, B[i][j] = (i * j) % 3
  %c5_i = arith.constant 5 : index
  %c3_i = arith.constant 3 : index
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c32 step %c1 {
      %s = arith.addi %i, %j : index
      %sa = arith.remui %s, %c5_i : index
      %p = arith.muli %i, %j : index
      %sb = arith.remui %p, %c3_i : index
      %ia = arith.index_cast %sa : index to i32
      %ib = arith.index_cast %sb : index to i32
      %fa = arith.uitofp %ia : i32 to f32
      %fb = arith.uitofp %ib : i32 to f32
      memref.store %fa, %a[%i, %j] : memref<32x32xf32>
      memref.store %fb, %b[%i, %j] : memref<32x32xf32>
    }
  }
  %a_i = memref.extract_aligned_pointer_as_index %a : memref<32x32xf32> -> index
  %a_l = arith.index_cast %a_i : index to i64
  %a_p = llvm.inttoptr %a_l : i64 to !llvm.ptr<1>
  %b_i = memref.extract_aligned_pointer_as_index %b : memref<32x32xf32> -> index
  %b_l = arith.index_cast %b_i : index to i64
  %b_p = llvm.inttoptr %b_l : i64 to !llvm.ptr<1>
  %c_i = memref.extract_aligned_pointer_as_index %c : memref<32x32xf32> -> index
  %c_l = arith.index_cast %c_i : index to i64
  %c_p = llvm.inttoptr %c_l : i64 to !llvm.ptr<1>
  %size = arith.constant 32 : i32
  %token = gpu.wait async
  call @matmul(%a_p, %b_p, %c_p, %size, %token) : (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, i32, !gpu.async.token) -> ()
  gpu.wait [%token]
  // The product on the host; exact in f32 (small integers).
  %zero = arith.constant 0 : i32
  %inc = arith.constant 1 : i32
  %fzero = arith.constant 0.0 : f32
  %errors = scf.for %i = %c0 to %c32 step %c1 iter_args(%e = %zero) -> (i32) {
    %row = scf.for %j = %c0 to %c32 step %c1 iter_args(%er = %e) -> (i32) {
      %sum = scf.for %k = %c0 to %c32 step %c1 iter_args(%acc = %fzero) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<32x32xf32>
        %y = memref.load %b[%k, %j] : memref<32x32xf32>
        %m = arith.mulf %x, %y : f32
        %n = arith.addf %acc, %m : f32
        scf.yield %n : f32
      }
      %got = memref.load %c[%i, %j] : memref<32x32xf32>
      %bad = arith.cmpf une, %got, %sum : f32
      %add = arith.select %bad, %inc, %zero : i32
      %er1 = arith.addi %er, %add : i32
      scf.yield %er1 : i32
    }
    scf.yield %row : i32
  }
  vector.print str "mismatches: "
  vector.print %errors : i32
  %diag = memref.reinterpret_cast %c to offset: [0], sizes: [8], strides: [33] : memref<32x32xf32> to memref<8xf32, strided<[33]>>
  %d_u = memref.cast %diag : memref<8xf32, strided<[33]>> to memref<*xf32>
  call @printMemrefF32(%d_u) : (memref<*xf32>) -> ()
  return
}
