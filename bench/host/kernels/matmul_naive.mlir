// matmul_naive: C = A B for row-major A (M x K), B (K x N), C (M x N), one
// thread per element of C (x: column, y: row) with the whole k loop in the
// thread (barrier-free).
//
//   __global__ void matmul_naive(size_t M, size_t N, size_t K, const float *A,
//                                const float *B, float *C) {
//     size_t col = blockIdx.x * blockDim.x + threadIdx.x;
//     size_t row = blockIdx.y * blockDim.y + threadIdx.y;
//     if (row < M && col < N) {
//       float sum = 0;
//       for (size_t k = 0; k < K; ++k) sum += A[row * K + k] * B[k * N + col];
//       C[row * N + col] = sum;
//     }
//   }
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
