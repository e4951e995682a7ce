// The naive matmul's i32 form (bench/host/kernels/forms/naive_matmul/i32.mlir)
// at a 16 x 16 block: the thread loops keep the k loop's accumulators in a
// per-thread array, whose pointer LLVM's capture tracking gives up on (the
// edge-block code accesses it more than 100 times). After the host kernel
// pipeline its accesses are in the private-alloca scope and the loads of A
// and B are not (offload-host-private-alloca-scopes): LICM keeps the
// accumulators in registers across the k loop.
//
// RUN: offload-opt %s --pass-pipeline='builtin.module(offload-host-kernel-pipeline)' \
// RUN:   | FileCheck %s

// CHECK: #[[SCOPE:.*]] = #llvm.alias_scope<{{.*}}description = "private allocas">
// CHECK-LABEL: llvm.func internal @matmul_naive(
// CHECK: llvm.alloca %{{.*}} x f32
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE]]]{{.*}} : vector<16xf32>, !llvm.ptr
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[SCOPE]]]{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK: llvm.load %{{.*}}noalias_scopes = [#[[SCOPE]]]} : !llvm.ptr -> f32
// CHECK: llvm.load %{{.*}}noalias_scopes = [#[[SCOPE]]]} : !llvm.ptr -> vector<16xf32>
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[SCOPE]]]{{.*}} : vector<16xf32>, !llvm.ptr

module attributes {gpu.container_module} {
  gpu.module @matmul_naive {
    gpu.func @matmul_naive(%M: i32, %N: i32, %K: i32, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>) kernel attributes {known_block_size = array<i32: 16, 16, 1>} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %zero = arith.constant 0.0 : f32
      %bxi = gpu.block_id x
      %byi = gpu.block_id y
      %dxi = gpu.block_dim x
      %dyi = gpu.block_dim y
      %txi = gpu.thread_id x
      %tyi = gpu.thread_id y
      %bx = arith.index_cast %bxi : index to i32
      %by = arith.index_cast %byi : index to i32
      %dx = arith.index_cast %dxi : index to i32
      %dy = arith.index_cast %dyi : index to i32
      %tx = arith.index_cast %txi : index to i32
      %ty = arith.index_cast %tyi : index to i32
      %ox = arith.muli %bx, %dx : i32
      %oy = arith.muli %by, %dy : i32
      %col = arith.addi %ox, %tx : i32
      %row = arith.addi %oy, %ty : i32
      %in_row = arith.cmpi slt, %row, %M : i32
      %in_col = arith.cmpi slt, %col, %N : i32
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %a_row = arith.muli %row, %K : i32
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero)
            -> (f32) : i32 {
          %ai = arith.addi %a_row, %k : i32
          %kn = arith.muli %k, %N : i32
          %bi = arith.addi %kn, %col : i32
          %aix = arith.index_cast %ai : i32 to index
          %bix = arith.index_cast %bi : i32 to index
          %a = memref.load %A[%aix] : memref<?xf32>
          %b = memref.load %B[%bix] : memref<?xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %c_row = arith.muli %row, %N : i32
        %ci = arith.addi %c_row, %col : i32
        %cix = arith.index_cast %ci : i32 to index
        memref.store %sum, %C[%cix] : memref<?xf32>
      }
      gpu.return
    }
  }
}
