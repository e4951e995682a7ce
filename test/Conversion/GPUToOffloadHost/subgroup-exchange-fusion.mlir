// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,offload-host-vectorize-thread-loops,canonicalize,cse))' | FileCheck %s

// The warp reduction tree of bench/host/kernels/warp_reduce.mlir for a
// 256-thread block: the thread loops around each constant shuffle exchange
// run 32 lanes wide (one subgroup per iteration) and fuse with the exchange
// loops, so each butterfly is one loop over subgroups with the permutation
// a vector.shuffle in it, no exchange loop between thread loops.

// CHECK-LABEL: gpu.func @warp_reduce
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.*}}) = (%c0) to (%c256) step (%c32)
// CHECK-COUNT-5: vector.shuffle
// CHECK: memref.store {{.*}}#gpu.address_space<workgroup>>
// CHECK-NEXT: scf.reduce
// CHECK-NOT: scf.for
// CHECK-COUNT-5: vector.shuffle
// CHECK-NOT: scf.for
// CHECK: gpu.return
module attributes {gpu.container_module} {
  gpu.module @warp_reduce {
    gpu.func @warp_reduce(%n: index, %in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%partial: memref<32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c32 = arith.constant 32 : index
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %lane = arith.remui %tid, %c32 : index
      %warp = arith.divui %tid, %c32 : index
      %inside = arith.cmpi ult, %i, %n : index
      %v = scf.if %inside -> (f32) {
        %x = memref.load %in[%i] : memref<?xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      // offset = 16, 8, 4, 2, 1
      %warp_sum = scf.for %s = %c0 to %c5 step %c1 iter_args(%acc = %v)
          -> (f32) {
        %s_i32 = arith.index_cast %s : index to i32
        %offset = arith.shrui %c16_i32, %s_i32 : i32
        %other, %valid = gpu.shuffle xor %acc, %offset, %c32_i32 : f32
        %sum = arith.addf %acc, %other : f32
        scf.yield %sum : f32
      }
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        memref.store %warp_sum, %partial[%warp]
            : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %warp0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %warp0 {
        %num_warps = arith.divui %bdim, %c32 : index
        %has = arith.cmpi ult, %lane, %num_warps : index
        %w = scf.if %has -> (f32) {
          %x = memref.load %partial[%lane]
              : memref<32xf32, #gpu.address_space<workgroup>>
          scf.yield %x : f32
        } else {
          scf.yield %zero : f32
        }
        %block_sum = scf.for %s = %c0 to %c5 step %c1 iter_args(%acc = %w)
            -> (f32) {
          %s_i32 = arith.index_cast %s : index to i32
          %offset = arith.shrui %c16_i32, %s_i32 : i32
          %other, %valid = gpu.shuffle xor %acc, %offset, %c32_i32 : f32
          %sum = arith.addf %acc, %other : f32
          scf.yield %sum : f32
        }
        scf.if %lane0 {
          memref.store %block_sum, %out[%bid] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
