// naive_matmul, form 2d_dynamic: C = A B on 2-D memrefs of dynamic shape
// (A: M x K, B: K x N, C: M x N, sizes from memref.dim), index arithmetic,
// block x dim + thread, bounds scf.if. As a frontend that keeps the arrays'
// ranks writes it.
module attributes {gpu.container_module} {
  gpu.module @matmul_naive {
    gpu.func @matmul_naive(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                           %C: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %M = memref.dim %A, %c0 : memref<?x?xf32>
      %K = memref.dim %A, %c1 : memref<?x?xf32>
      %N = memref.dim %B, %c1 : memref<?x?xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %ox = arith.muli %bx, %dx : index
      %oy = arith.muli %by, %dy : index
      %col = arith.addi %ox, %tx : index
      %row = arith.addi %oy, %ty : index
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero)
            -> (f32) {
          %a = memref.load %A[%row, %k] : memref<?x?xf32>
          %b = memref.load %B[%k, %col] : memref<?x?xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
