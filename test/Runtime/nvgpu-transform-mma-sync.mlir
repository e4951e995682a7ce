// A program that carries its own transform script: offload-run applies it
// first (--transform=auto), so the linalg.matmul in the kernel becomes
// per-lane fragment loads, nvgpu.mma.sync (m16n8k16, f16 x f16 -> f16) and
// per-lane stores, which run on the host as a warp collective. main counts
// the elements of the result that differ from a scalar product (small
// integers: exact in f16).
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --transform=auto --print-lowered-ir %s | FileCheck %s --check-prefix=IR

// CHECK: mismatches: 0
// IR-NOT: linalg.matmul
// IR-NOT: transform.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %a = memref.alloc() : memref<16x16xf16>
  %b = memref.alloc() : memref<16x8xf16>
  %c = memref.alloc() : memref<16x8xf16>
  %ref = memref.alloc() : memref<16x8xf16>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %k = %c0 to %c16 step %c1 {
      %s = arith.addi %i, %k : index
      %r = arith.remui %s, %c3 : index
      %v = arith.index_cast %r : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %a[%i, %k] : memref<16x16xf16>
    }
  }
  scf.for %k = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %s = arith.muli %k, %j : index
      %r = arith.remui %s, %c8 : index
      %v = arith.index_cast %r : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %b[%k, %j] : memref<16x8xf16>
    }
  }
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = arith.index_cast %i : index to i32
      %f = arith.sitofp %v : i32 to f16
      memref.store %f, %c[%i, %j] : memref<16x8xf16>
      %f32 = arith.extf %f : f16 to f32
      %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%acc = %f32) -> (f32) {
        %x = memref.load %a[%i, %k] : memref<16x16xf16>
        %y = memref.load %b[%k, %j] : memref<16x8xf16>
        %x32 = arith.extf %x : f16 to f32
        %y32 = arith.extf %y : f16 to f32
        %p = arith.mulf %x32, %y32 : f32
        %n = arith.addf %acc, %p : f32
        scf.yield %n : f32
      }
      %sum16 = arith.truncf %sum : f32 to f16
      memref.store %sum16, %ref[%i, %j] : memref<16x8xf16>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    linalg.matmul ins(%a, %b : memref<16x16xf16>, memref<16x8xf16>)
                  outs(%c : memref<16x8xf16>)
    gpu.terminator
  }
  %bad = scf.for %i = %c0 to %c16 step %c1 iter_args(%n0 = %c0) -> (index) {
    %row = scf.for %j = %c0 to %c8 step %c1 iter_args(%n1 = %n0) -> (index) {
      %got = memref.load %c[%i, %j] : memref<16x8xf16>
      %want = memref.load %ref[%i, %j] : memref<16x8xf16>
      %ne = arith.cmpf une, %got, %want : f16
      %one = arith.select %ne, %c1, %c0 : index
      %n2 = arith.addi %n1, %one : index
      scf.yield %n2 : index
    }
    scf.yield %row : index
  }
  vector.print str "mismatches: "
  vector.print %bad : index
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %matmul = transform.structured.match ops{["linalg.matmul"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %matmul : (!transform.any_op) -> ()
    transform.yield
  }
}
