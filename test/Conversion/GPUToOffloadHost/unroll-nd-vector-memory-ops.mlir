// RUN: offload-opt %s -split-input-file -offload-unroll-nd-vector-memory-ops | FileCheck %s

// A 2-D load from the trailing dims of a 3-D memref: one 1-D load per row,
// the row's index shifted, assembled with vector.insert.
// CHECK-LABEL: func.func @load_2d
// CHECK-SAME: (%[[M:.*]]: memref<2x4x8xf32>, %[[I:.*]]: index, %[[J:.*]]: index)
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<2x8xf32>
// CHECK: %[[R0:.*]] = vector.load %[[M]][%{{.*}}, %[[I]], %[[J]]] : memref<2x4x8xf32>, vector<8xf32>
// CHECK: %[[A:.*]] = vector.insert %[[R0]], %[[ZERO]] [0] : vector<8xf32> into vector<2x8xf32>
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %{{.*}} : index
// CHECK: %[[R1:.*]] = vector.load %[[M]][%{{.*}}, %[[I1]], %[[J]]] : memref<2x4x8xf32>, vector<8xf32>
// CHECK: %[[B:.*]] = vector.insert %[[R1]], %[[A]] [1] : vector<8xf32> into vector<2x8xf32>
// CHECK: return %[[B]]
func.func @load_2d(%m: memref<2x4x8xf32>, %i: index, %j: index) -> vector<2x8xf32> {
  %c1 = arith.constant 1 : index
  %v = vector.load %m[%c1, %i, %j] : memref<2x4x8xf32>, vector<2x8xf32>
  return %v : vector<2x8xf32>
}

// -----

// A 3-D store: rows in row-major order of the leading dims.
// CHECK-LABEL: func.func @store_3d
// CHECK-COUNT-6: vector.extract %{{.*}}[{{[0-9]+}}, {{[0-9]+}}] : vector<4xi32> from vector<2x3x4xi32>
// CHECK-NOT: vector.store %{{.*}} vector<2x3x4xi32>
func.func @store_3d(%m: memref<4x4x4xi32>, %v: vector<2x3x4xi32>) {
  %c0 = arith.constant 0 : index
  vector.store %v, %m[%c0, %c0, %c0] : memref<4x4x4xi32>, vector<2x3x4xi32>
  return
}

// -----

// 1-D and scalable vectors are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK: vector.load %{{.*}} : memref<8xf32>, vector<8xf32>
// CHECK: vector.load %{{.*}} : memref<?x?xf32>, vector<2x[4]xf32>
func.func @untouched(%m: memref<8xf32>, %n: memref<?x?xf32>) -> (vector<8xf32>, vector<2x[4]xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<8xf32>, vector<8xf32>
  %w = vector.load %n[%c0, %c0] : memref<?x?xf32>, vector<2x[4]xf32>
  return %v, %w : vector<8xf32>, vector<2x[4]xf32>
}
