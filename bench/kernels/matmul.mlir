// matmul: C = A B for row-major A (M x K), B (K x N), C (M x N) whose inner
// sizes K and N are known only at run time, one thread per element of C
// (x: column, y: row) with 2D blocks, the straightforward CUDA kernel:
//   C[i*N + j] = sum_{k < K} A[i*K + k] * B[k*N + j].
// Runtime constants: K (the trip count of the dot product) and N (the row
// pitch of B and C). Specialized, the dot product of small K is fully
// unrolled and the address arithmetic uses immediates.
module attributes {gpu.container_module} {
  gpu.module @matmul {
    gpu.func @matmul(%A: memref<?xf32>, %B: memref<?xf32>, %C: memref<?xf32>,
                     %M: index, %K_arg: i32, %N_arg: i32) kernel {
      %K_i32 = offload.runtime_constant %K_arg : i32
      %N_i32 = offload.runtime_constant %N_arg : i32
      %K = arith.index_cast %K_i32 : i32 to index
      %N = arith.index_cast %N_i32 : i32 to index
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
      %in_col = arith.cmpi ult, %col, %N : index
      %in_row = arith.cmpi ult, %row, %M : index
      %inside = arith.andi %in_col, %in_row : i1
      scf.if %inside {
        %a_row = arith.muli %row, %K : index
        %sum = scf.for %k = %c0 to %K step %c1 iter_args(%acc = %zero) -> (f32) {
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
