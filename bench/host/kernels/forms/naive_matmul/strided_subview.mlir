// naive_matmul, form strided_subview: A, B and C as strided 2-D memrefs
// (`strided<[?, 1], offset: ?>`: the layout of a submatrix a caller passes),
// the thread's row of A and column of B taken as rank-reduced
// memref.subview, then 1-D loads; bounds scf.if.
!mat = memref<?x?xf32, strided<[?, 1], offset: ?>>
!row = memref<?xf32, strided<[1], offset: ?>>
!col = memref<?xf32, strided<[?], offset: ?>>
module attributes {gpu.container_module} {
  gpu.module @matmul_naive {
    gpu.func @matmul_naive(%A: !mat, %B: !mat, %C: !mat) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %M = memref.dim %A, %c0 : !mat
      %K = memref.dim %A, %c1 : !mat
      %N = memref.dim %B, %c1 : !mat
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
        %a_row = memref.subview %A[%row, 0] [1, %K] [1, 1] : !mat to !row
        %b_col = memref.subview %B[0, %col] [%K, 1] [1, 1] : !mat to !col
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero)
            -> (f32) {
          %a = memref.load %a_row[%k] : !row
          %b = memref.load %b_col[%k] : !col
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        memref.store %sum, %C[%row, %col] : !mat
      }
      gpu.return
    }
  }
}
