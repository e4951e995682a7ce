// matmul_tiled: C = A B for row-major A (M x K), B (K x N), C (M x N) with
// 16 x 16 blocks, each computing a 16 x 16 tile of C: per 16-wide slice of K
// the block stages a tile of A and one of B in workgroup memory (zero
// outside the matrices), synchronizes, accumulates from the tiles and
// synchronizes again before they are overwritten; the classic CUDA
// shared-memory GEMM, two gpu.barrier per tile.
//
//   __global__ void matmul_tiled(size_t M, size_t N, size_t K, const float *A,
//                                const float *B, float *C) {
//     __shared__ float tileA[16][16], tileB[16][16];
//     size_t tx = threadIdx.x, ty = threadIdx.y;
//     size_t row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
//     float sum = 0;
//     for (size_t k0 = 0; k0 < K; k0 += 16) {
//       tileA[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0;
//       tileB[ty][tx] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0;
//       __syncthreads();
//       for (int kk = 0; kk < 16; ++kk) sum += tileA[ty][kk] * tileB[kk][tx];
//       __syncthreads();
//     }
//     if (row < M && col < N) C[row * N + col] = sum;
//   }
module attributes {gpu.container_module} {
  gpu.module @matmul_tiled {
    gpu.func @matmul_tiled(%M: index, %N: index, %K: index, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>)
        workgroup(%tileA: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tileB: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %sum = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %zero)
          -> (f32) {
        // Stage one element of each tile per thread.
        %ka = arith.addi %k0, %tx : index
        %ka_in = arith.cmpi ult, %ka, %K : index
        %a_in = arith.andi %in_row, %ka_in : i1
        %a = scf.if %a_in -> (f32) {
          %ar = arith.muli %row, %K : index
          %ai = arith.addi %ar, %ka : index
          %v = memref.load %A[%ai] : memref<?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %a, %tileA[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %kb_in = arith.cmpi ult, %kb, %K : index
        %b_in = arith.andi %kb_in, %in_col : i1
        %b = scf.if %b_in -> (f32) {
          %br = arith.muli %kb, %N : index
          %bi = arith.addi %br, %col : index
          %v = memref.load %B[%bi] : memref<?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %b, %tileB[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %partial = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %acc)
            -> (f32) {
          %x = memref.load %tileA[%ty, %kk]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tileB[%kk, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        gpu.barrier
        scf.yield %partial : f32
      }
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %cr = arith.muli %row, %N : index
        %ci = arith.addi %cr, %col : index
        memref.store %sum, %C[%ci] : memref<?xf32>
      }
      gpu.return
    }
  }
}
