// Issue 11 item 7: vector transfers at indices of 2^31 and more. A read at
// index 2^32 + 2 of an 8-element memref is entirely out of bounds: every
// lane is the padding. With 32-bit vector indices the mask was computed from
// the truncated distance to the end (2) and two lanes were loaded from
// 4 GiB past the buffer. The same in a kernel and in host code.
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm))' \
// RUN:   | FileCheck %s --check-prefix=IR

// CHECK: ( 7, 7, 7, 7 )
// CHECK: ( 7, 7, 7, 7 )
// CHECK: ( 6, 7, 7, 7 )
// IR: llvm.icmp "sgt" %{{.*}}, %{{.*}} : vector<4xi64>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @read(%m: memref<?xi8>, %i: index, %out: memref<4xi8>) kernel {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 7 : i8
      %v = vector.transfer_read %m[%i], %pad : memref<?xi8>, vector<4xi8>
      vector.transfer_write %v, %out[%c0] : vector<4xi8>, memref<4xi8>
      gpu.return
    }
  }
  func.func private @far() -> index {
    %i = arith.constant 4294967298 : index
    return %i : index
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %m = memref.alloc(%c8) : memref<?xi8>
    scf.for %k = %c0 to %c8 step %c1 {
      %kk = arith.index_cast %k : index to i8
      memref.store %kk, %m[%k] : memref<?xi8>
    }
    %out = memref.alloc() : memref<4xi8>
    %i = call @far() : () -> index
    gpu.launch_func @kernels::@read blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1)
        args(%m : memref<?xi8>, %i : index, %out : memref<4xi8>)
    %zero = arith.constant 0 : i8
    %v = vector.transfer_read %out[%c0], %zero : memref<4xi8>, vector<4xi8>
    vector.print %v : vector<4xi8>
    // Host code: the same read.
    %pad = arith.constant 7 : i8
    %h = vector.transfer_read %m[%i], %pad : memref<?xi8>, vector<4xi8>
    vector.print %h : vector<4xi8>
    // Partly in bounds: elements 6 and 7, then padding.
    %w = vector.transfer_read %m[%c6], %pad : memref<?xi8>, vector<4xi8>
    vector.print %w : vector<4xi8>
    return
  }
}
