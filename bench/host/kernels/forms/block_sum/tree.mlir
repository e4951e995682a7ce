// block_sum, form tree: the classic CUDA shared-memory tree reduction
// instead of gpu.all_reduce (blockDim a power of two, at most 1024; the
// benchmark runs it only then): every thread stores its element (0 past n),
// then for s = blockDim / 2, blockDim / 4, ..., 1 the threads below s add
// the element s above theirs, a barrier after each step; the loop as the
// scf.while a C frontend emits for `for (s = blockDim / 2; s > 0; s >>= 1)`.
//
//   __shared__ float part[1024];
//   part[tid] = i < n ? in[i] : 0;
//   __syncthreads();
//   for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
//     if (tid < s) part[tid] += part[tid + s];
//     __syncthreads();
//   }
//   if (tid == 0) out[blockIdx.x] = part[0];
!part = memref<1024xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @block_sum {
    gpu.func @block_sum(%n: index, %in: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%part: !part) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
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
      memref.store %v, %part[%tid] : !part
      gpu.barrier
      %s0 = arith.shrui %bdim, %c1 : index
      %last = scf.while (%s = %s0) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %low = arith.cmpi ult, %tid, %s : index
        scf.if %low {
          %j = arith.addi %tid, %s : index
          %a = memref.load %part[%tid] : !part
          %b = memref.load %part[%j] : !part
          %t = arith.addf %a, %b : f32
          memref.store %t, %part[%tid] : !part
        }
        gpu.barrier
        %next = arith.shrui %s, %c1 : index
        scf.yield %next : index
      }
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        %sum = memref.load %part[%c0] : !part
        memref.store %sum, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
