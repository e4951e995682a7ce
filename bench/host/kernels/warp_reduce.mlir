// warp_reduce: the sum of every block's elements of a float array with warp
// shuffles: a gpu.shuffle xor butterfly within each 32-lane warp, lane 0 of
// each warp stores the warp's sum in workgroup memory, a barrier, then warp 0
// reduces those partial sums the same way and lane 0 writes out[block].
// Blocks of up to 1024 threads, a multiple of 32.
//
//   __global__ void warp_reduce(size_t n, const float *in, float *out) {
//     __shared__ float partial[32];
//     size_t i = blockIdx.x * blockDim.x + threadIdx.x;
//     unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
//     float v = i < n ? in[i] : 0;
//     for (int offset = 16; offset > 0; offset /= 2)
//       v += __shfl_xor_sync(~0u, v, offset);
//     if (lane == 0) partial[warp] = v;
//     __syncthreads();
//     if (warp == 0) {
//       v = lane < blockDim.x / 32 ? partial[lane] : 0;
//       for (int offset = 16; offset > 0; offset /= 2)
//         v += __shfl_xor_sync(~0u, v, offset);
//       if (lane == 0) out[blockIdx.x] = v;
//     }
//   }
module attributes {gpu.container_module} {
  gpu.module @warp_reduce {
    gpu.func @warp_reduce(%n: index, %in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%partial: memref<32xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c5 = arith.constant 5 : index
      %c32 = arith.constant 32 : index
      %c16_i32 = arith.constant 16 : i32
      %c32_i32 = arith.constant 32 : i32
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %lane = arith.remui %tid, %c32 : index
      %warp = arith.divui %tid, %c32 : index
      %inside = arith.cmpi ult, %i, %n : index
      %v = scf.if %inside -> (f32) {
        %x = memref.load %in[%i] : memref<?xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      // offset = 16, 8, 4, 2, 1
      %warp_sum = scf.for %s = %c0 to %c5 step %c1 iter_args(%acc = %v)
          -> (f32) {
        %s_i32 = arith.index_cast %s : index to i32
        %offset = arith.shrui %c16_i32, %s_i32 : i32
        %other, %valid = gpu.shuffle xor %acc, %offset, %c32_i32 : f32
        %sum = arith.addf %acc, %other : f32
        scf.yield %sum : f32
      }
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        memref.store %warp_sum, %partial[%warp]
            : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %warp0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %warp0 {
        %num_warps = arith.divui %bdim, %c32 : index
        %has = arith.cmpi ult, %lane, %num_warps : index
        %w = scf.if %has -> (f32) {
          %x = memref.load %partial[%lane]
              : memref<32xf32, #gpu.address_space<workgroup>>
          scf.yield %x : f32
        } else {
          scf.yield %zero : f32
        }
        %block_sum = scf.for %s = %c0 to %c5 step %c1 iter_args(%acc = %w)
            -> (f32) {
          %s_i32 = arith.index_cast %s : index to i32
          %offset = arith.shrui %c16_i32, %s_i32 : i32
          %other, %valid = gpu.shuffle xor %acc, %offset, %c32_i32 : f32
          %sum = arith.addf %acc, %other : f32
          scf.yield %sum : f32
        }
        scf.if %lane0 {
          memref.store %block_sum, %out[%bid] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
