// naive_matmul, form global_id: the base kernel with gpu.global_id x / y for
// the column and row instead of block x dim + thread (1-D dynamic memrefs,
// index arithmetic, bounds scf.if).
module attributes {gpu.container_module} {
  gpu.module @matmul_naive {
    gpu.func @matmul_naive(%M: index, %N: index, %K: index, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %col = gpu.global_id x
      %row = gpu.global_id y
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %a_row = arith.muli %row, %K : index
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero)
            -> (f32) {
          %ai = arith.addi %a_row, %k : index
          %kn = arith.muli %k, %N : index
          %bi = arith.addi %kn, %col : index
          %a = memref.load %A[%ai] : memref<?xf32>
          %b = memref.load %B[%bi] : memref<?xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          scf.yield %s : f32
        }
        %c_row = arith.muli %row, %N : index
        %ci = arith.addi %c_row, %col : index
        memref.store %sum, %C[%ci] : memref<?xf32>
      }
      gpu.return
    }
  }
}
