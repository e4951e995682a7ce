// wmma_matmul: C = A B for row-major f16 A (1024 x 1024), B (1024 x 1024) and
// f32 C, the classic WMMA kernel (CUDA's wmma::mma_sync sample) with one
// subgroup per 16 x 16 tile of C: blocks of 128 threads, 4 subgroups, cover a
// 32 x 32 square of C; each subgroup walks K in tiles of 16, loading its A
// and B fragments from global memory, with the accumulator fragment carried
// by the loop. The leading dimensions are attributes, so the sizes are fixed.
//
//   __global__ void wmma_matmul(const half *A, const half *B, float *C) {
//     int warp = threadIdx.x / 32;
//     int row = blockIdx.y * 32 + warp / 2 * 16;
//     int col = blockIdx.x * 32 + warp % 2 * 16;
//     wmma::fragment<accumulator, 16, 16, 16, float> acc;
//     wmma::fill_fragment(acc, 0.0f);
//     for (int k = 0; k < 1024; k += 16) {
//       wmma::fragment<matrix_a, 16, 16, 16, half, row_major> a;
//       wmma::fragment<matrix_b, 16, 16, 16, half, row_major> b;
//       wmma::load_matrix_sync(a, A + row * 1024 + k, 1024);
//       wmma::load_matrix_sync(b, B + k * 1024 + col, 1024);
//       wmma::mma_sync(acc, a, b, acc);
//     }
//     wmma::store_matrix_sync(C + row * 1024 + col, acc, 1024, mem_row_major);
//   }
module attributes {gpu.container_module} {
  gpu.module @wmma_matmul {
    gpu.func @wmma_matmul(%A: memref<?xf16>, %B: memref<?xf16>,
                          %C: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %warp = gpu.subgroup_id : index
      %wr = arith.divui %warp, %c2 : index
      %wc = arith.remui %warp, %c2 : index
      %by32 = arith.muli %by, %c32 : index
      %wr16 = arith.muli %wr, %c16 : index
      %row = arith.addi %by32, %wr16 : index
      %bx32 = arith.muli %bx, %c32 : index
      %wc16 = arith.muli %wc, %c16 : index
      %col = arith.addi %bx32, %wc16 : index
      %a_row = arith.muli %row, %c1024 : index
      %init = gpu.subgroup_mma_constant_matrix %zero
          : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc0 = %init)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %ai = arith.addi %a_row, %k : index
        %kn = arith.muli %k, %c1024 : index
        %bi = arith.addi %kn, %col : index
        %a = gpu.subgroup_mma_load_matrix %A[%ai] {leadDimension = 1024 : index}
            : memref<?xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %b = gpu.subgroup_mma_load_matrix %B[%bi] {leadDimension = 1024 : index}
            : memref<?xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %d = gpu.subgroup_mma_compute %a, %b, %acc0
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %d : !gpu.mma_matrix<16x16xf32, "COp">
      }
      %ci = arith.addi %a_row, %col : index
      gpu.subgroup_mma_store_matrix %acc, %C[%ci] {leadDimension = 1024 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<?xf32>
      gpu.return
    }
  }
}
