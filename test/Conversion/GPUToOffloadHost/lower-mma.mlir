// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-lower-mma))' | FileCheck %s

// A K loop of products with a transposed B operand, an elementwise op and a
// store with a wider leading dimension: every fragment is a vector of the
// first lane (lane 0 computes, the others yield zeros); rows move with one
// vector.load or vector.store each through a view whose row stride is the
// leading dimension.

// CHECK-LABEL: gpu.func @wmma
// CHECK-SAME: (%[[A:.*]]: memref<32x32xf16>, %[[C:.*]]: memref<?x?xf32>, %[[I:.*]]: index)
// CHECK: %[[INIT:.*]] = vector.broadcast %{{.*}} : f32 to vector<16x16xf32>
// CHECK: %[[ACC:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC0:.*]] = %[[INIT]]) -> (vector<16x16xf32>)
// CHECK:   %[[LANE:.*]] = gpu.lane_id
// CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %[[LANE]], %{{.*}} : index
// CHECK:   %[[AV:.*]] = scf.if %[[FIRST]] -> (vector<16x16xf16>)
// CHECK:     %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:     %[[ROW:.*]] = arith.muli %[[I]], %[[STRIDES]]#0
// CHECK:     %[[START:.*]] = arith.addi %[[OFF]], %[[ROW]]
// CHECK:     %[[COL:.*]] = arith.muli %[[K]], %[[STRIDES]]#1
// CHECK:     %[[ELT:.*]] = arith.addi %[[START]], %[[COL]]
// CHECK:     %[[VIEW:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[ELT]]], sizes: [16, 16], strides: [32, 1]
// CHECK-COUNT-16: vector.load %[[VIEW]]{{.*}} vector<16xf16>
// CHECK-NOT: vector.transpose
// CHECK:     scf.yield %{{.*}} : vector<16x16xf16>
// CHECK:   } else {
// CHECK:     %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<16x16xf16>
// CHECK:     scf.yield %[[Z]]
// CHECK:   %[[BV:.*]] = scf.if %{{.*}} -> (vector<16x16xf16>)
// CHECK-COUNT-16: vector.load
// CHECK:     %[[BT:.*]] = vector.transpose %{{.*}}, [1, 0]
// CHECK:     scf.yield %[[BT]]
// CHECK:   %[[D:.*]] = scf.if %{{.*}} -> (vector<16x16xf32>)
// CHECK:     %[[AF:.*]] = arith.extf %[[AV]] : vector<16x16xf16> to vector<16x16xf32>
// CHECK:     %[[BF:.*]] = arith.extf %[[BV]] : vector<16x16xf16> to vector<16x16xf32>
// CHECK:     %[[ACOLS:.*]] = vector.transpose %[[AF]], [1, 0]
// CHECK:     %[[COL0:.*]] = vector.extract %[[ACOLS]][0]
// CHECK:     %[[ROW0:.*]] = vector.extract %[[BF]][0]
// CHECK:     %[[P0:.*]] = vector.outerproduct %[[COL0]], %[[ROW0]], %[[ACC0]] {kind = #vector.kind<add>}
// CHECK-COUNT-15: vector.outerproduct
// CHECK:   scf.yield %[[D]] : vector<16x16xf32>
// CHECK: %[[E:.*]] = scf.if %{{.*}} -> (vector<16x16xf32>)
// CHECK:   arith.maximumf %[[ACC]], %[[INIT]] : vector<16x16xf32>
// CHECK: scf.if %{{.*}} {
// CHECK:   memref.extract_strided_metadata %[[C]]
// CHECK:   %[[CVIEW:.*]] = memref.reinterpret_cast {{.*}} sizes: [16, 16], strides: [48, 1]
// CHECK:   %[[R0:.*]] = vector.extract %[[E]][0] : vector<16xf32> from vector<16x16xf32>
// CHECK:   vector.store %[[R0]], %[[CVIEW]]
// CHECK-COUNT-15: vector.store
// CHECK-NOT: gpu.subgroup_mma
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @wmma(%a: memref<32x32xf16>, %c: memref<?x?xf32>, %i: index) kernel {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %zero = arith.constant 0.0 : f32
    %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
    %acc = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc0 = %init) -> (!gpu.mma_matrix<16x16xf32, "COp">) {
      %A = gpu.subgroup_mma_load_matrix %a[%i, %k] {leadDimension = 32 : index} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %a[%k, %i] {leadDimension = 32 : index, transpose} : memref<32x32xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %D = gpu.subgroup_mma_compute %A, %B, %acc0 : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      scf.yield %D : !gpu.mma_matrix<16x16xf32, "COp">
    }
    %E = gpu.subgroup_mma_elementwise maxf %acc, %init : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
    gpu.subgroup_mma_store_matrix %E, %c[%c0, %i] {leadDimension = 48 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<?x?xf32>
    gpu.return
  }
}
