// RUN: offload-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(offload-prepare-gpu-kernels))' \
// RUN:   | FileCheck %s
// RUN: offload-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(offload-prepare-gpu-kernels{nvvm-reqntid}))' \
// RUN:   | FileCheck %s --check-prefix=REQNTID
// RUN: offload-opt %s -split-input-file \
// RUN:   -pass-pipeline='builtin.module(gpu.module(offload-prepare-gpu-kernels{rocdl-max-flat-work-group-size=1024 subgroup-size=64}))' \
// RUN:   | FileCheck %s --check-prefix=ROCDL

// Unspecialized runtime constants are the identity.
// CHECK-LABEL: gpu.func @scale(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[N:.*]]: i32)
// CHECK-NOT: offload.runtime_constant
// CHECK: arith.sitofp %[[N]] : i32 to f32
// CHECK-NOT: offload.runtime_constant
// CHECK: gpu.return

// The block size known from specialization becomes .reqntid for NVVM; the
// kernel without one gets HIP's limit for ROCDL.
// REQNTID-LABEL: gpu.func @scale(
// REQNTID-SAME: kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>}
// REQNTID-NOT: known_block_size
// REQNTID-LABEL: gpu.func @dynamic(
// REQNTID-SAME: kernel {
// ROCDL-LABEL: gpu.func @scale(
// ROCDL-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// ROCDL-LABEL: gpu.func @dynamic(
// ROCDL-SAME: kernel attributes {rocdl.flat_work_group_size = "1,1024"}
gpu.module @kernels {
  gpu.func @scale(%x: memref<?xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c = offload.runtime_constant %n : i32
    %t = gpu.thread_id x
    %f = arith.sitofp %c : i32 to f32
    %v = memref.load %x[%t] : memref<?xf32>
    %r = arith.mulf %v, %f : f32
    memref.store %r, %x[%t] : memref<?xf32>
    gpu.return
  }
  gpu.func @dynamic(%x: memref<?xf32>) kernel {
    gpu.return
  }
}

// -----

// Subgroup reductions become shuffle butterflies over the subgroup: five
// steps for 32 lanes, six for 64.
// CHECK-LABEL: gpu.func @reduce(
// CHECK-NOT: gpu.subgroup_reduce
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
// ROCDL-LABEL: gpu.func @reduce(
// ROCDL-COUNT-6: gpu.shuffle xor
// ROCDL-NOT: gpu.shuffle
// ROCDL: gpu.return
gpu.module @reductions {
  gpu.func @reduce(%x: memref<?xf32>) kernel {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<?xf32>
    %r = gpu.subgroup_reduce add %v : (f32) -> f32
    memref.store %r, %x[%t] : memref<?xf32>
    gpu.return
  }
}

