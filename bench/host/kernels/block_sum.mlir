// block_sum: the sum of every block's elements of a float array with
// gpu.all_reduce; thread 0 of block b writes it to out[b]. Threads past n
// contribute 0 (every thread of the block takes part in the reduction).
//
//   __global__ void block_sum(size_t n, const float *in, float *out) {
//     size_t i = blockIdx.x * blockDim.x + threadIdx.x;
//     float v = i < n ? in[i] : 0;
//     float s = block_reduce_add(v); // cub::BlockReduce, or the MLIR op
//     if (threadIdx.x == 0) out[blockIdx.x] = s;
//   }
module attributes {gpu.container_module} {
  gpu.module @block_sum {
    gpu.func @block_sum(%n: index, %in: memref<?xf32>, %out: memref<?xf32>)
        kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      %v = scf.if %inside -> (f32) {
        %x = memref.load %in[%i] : memref<?xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
