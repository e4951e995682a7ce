// histogram: a 256-bin histogram of n bytes. Each block counts its part of
// a grid-stride loop into a 256-bin histogram in workgroup memory with
// workgroup atomics, then adds its nonzero bins to the global histogram
// with global atomics. The global histogram must be zero before the launch.
//
//   __global__ void histogram(size_t n, const unsigned char *in,
//                             unsigned *hist) {
//     __shared__ unsigned local[256];
//     for (size_t b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
//     __syncthreads();
//     for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//          i += gridDim.x * blockDim.x)
//       atomicAdd(&local[in[i]], 1);
//     __syncthreads();
//     for (size_t b = threadIdx.x; b < 256; b += blockDim.x)
//       if (local[b]) atomicAdd(&hist[b], local[b]);
//   }
module attributes {gpu.container_module} {
  gpu.module @histogram {
    gpu.func @histogram(%n: index, %in: memref<?xi8>, %hist: memref<256xi32>)
        workgroup(%local: memref<256xi32, #gpu.address_space<workgroup>>)
        kernel {
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %tid = gpu.thread_id x
      scf.for %b = %tid to %c256 step %bdim {
        memref.store %zero, %local[%b]
            : memref<256xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %base = arith.muli %bid, %bdim : index
      %start = arith.addi %base, %tid : index
      %stride = arith.muli %gdim, %bdim : index
      scf.for %i = %start to %n step %stride {
        %byte = memref.load %in[%i] : memref<?xi8>
        %bin_i32 = arith.extui %byte : i8 to i32
        %bin = arith.index_cast %bin_i32 : i32 to index
        %old = memref.atomic_rmw addi %one, %local[%bin]
            : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
      }
      gpu.barrier
      scf.for %b = %tid to %c256 step %bdim {
        %count = memref.load %local[%b]
            : memref<256xi32, #gpu.address_space<workgroup>>
        %nonzero = arith.cmpi ne, %count, %zero : i32
        scf.if %nonzero {
          %old = memref.atomic_rmw addi %count, %hist[%b]
              : (i32, memref<256xi32>) -> i32
        }
      }
      gpu.return
    }
  }
}
