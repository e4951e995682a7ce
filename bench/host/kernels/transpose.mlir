// transpose: out = in^T for a row-major rows x cols matrix in (out is cols x
// rows) through a 32 x 33 tile of workgroup memory (the padding column
// avoids shared-memory bank conflicts on GPUs), blocks of 32 x 8 threads, each
// thread moving 4 elements in and 4 out; the classic CUDA coalesced
// transpose, with bounds checks for partial tiles.
//
//   __global__ void transpose(size_t rows, size_t cols, const float *in,
//                             float *out) {
//     __shared__ float tile[32][33];
//     size_t x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
//     for (int j = 0; j < 32; j += 8)
//       if (x < cols && y + j < rows)
//         tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
//     __syncthreads();
//     x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
//     for (int j = 0; j < 32; j += 8)
//       if (x < rows && y + j < cols)
//         out[(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
//   }
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose(%rows: index, %cols: index, %in: memref<?xf32>,
                        %out: memref<?xf32>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx32 = arith.muli %bx, %c32 : index
      %by32 = arith.muli %by, %c32 : index
      // Load: rows by32.., columns bx32.. of in.
      %x_in = arith.addi %bx32, %tx : index
      %y_in = arith.addi %by32, %ty : index
      %x_in_ok = arith.cmpi ult, %x_in, %cols : index
      scf.for %j = %c0 to %c32 step %c8 {
        %y = arith.addi %y_in, %j : index
        %y_ok = arith.cmpi ult, %y, %rows : index
        %ok = arith.andi %x_in_ok, %y_ok : i1
        scf.if %ok {
          %r = arith.muli %y, %cols : index
          %idx = arith.addi %r, %x_in : index
          %v = memref.load %in[%idx] : memref<?xf32>
          %ty_j = arith.addi %ty, %j : index
          memref.store %v, %tile[%ty_j, %tx]
              : memref<32x33xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Store: rows bx32.., columns by32.. of out.
      %x_out = arith.addi %by32, %tx : index
      %y_out = arith.addi %bx32, %ty : index
      %x_out_ok = arith.cmpi ult, %x_out, %rows : index
      scf.for %j = %c0 to %c32 step %c8 {
        %y = arith.addi %y_out, %j : index
        %y_ok = arith.cmpi ult, %y, %cols : index
        %ok = arith.andi %x_out_ok, %y_ok : i1
        scf.if %ok {
          %ty_j = arith.addi %ty, %j : index
          %v = memref.load %tile[%tx, %ty_j]
              : memref<32x33xf32, #gpu.address_space<workgroup>>
          %r = arith.muli %y, %rows : index
          %idx = arith.addi %r, %x_out : index
          memref.store %v, %out[%idx] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
