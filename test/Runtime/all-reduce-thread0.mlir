// The result of a gpu.all_reduce that only thread 0 uses, for block sizes
// 32 ... 1024 (including sizes that are not multiples of the subgroup), at
// every optimization level, ahead of time and through the JIT, with thread
// loops and on fibers. Each line is
// n * (n - 1) / 2.
//
// RUN: offload-run -O0 %s | FileCheck %s
// RUN: offload-run -O1 %s | FileCheck %s
// RUN: offload-run -O2 %s | FileCheck %s
// RUN: offload-run -O3 %s | FileCheck %s
// RUN: offload-run --jit -O0 %s | FileCheck %s
// RUN: offload-run --jit -O3 %s | FileCheck %s
// RUN: offload-run --thread-loops=false -O0 %s | FileCheck %s
// RUN: offload-run --thread-loops=false -O3 %s | FileCheck %s

// CHECK: [496]
// CHECK: [2016]
// CHECK: [4560]
// CHECK: [4950]
// CHECK: [8128]
// CHECK: [32640]
// CHECK: [130816]
// CHECK: [523776]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = gpu.alloc host_shared () : memref<1xi32>
  %u = memref.cast %out : memref<1xi32> to memref<*xi32>
  %n32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n32, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n64, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n96 = arith.constant 96 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n96, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n100 = arith.constant 100 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n100, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n128, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n256, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n512 = arith.constant 512 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n512, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %n1024 = arith.constant 1024 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %n1024, %sy = %c1, %sz = %c1) {
    %v = arith.index_cast %tx : index to i32
    %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %r, %out[%c0] : memref<1xi32>
    }
    gpu.terminator
  }
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  gpu.dealloc %out : memref<1xi32>
  return
}
func.func private @printMemrefI32(memref<*xi32>)
