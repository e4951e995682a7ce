// block_scan: the inclusive prefix sum of every 1024-element block of an i32
// array (a segmented scan), Hillis-Steele in workgroup memory: blocks of 1024
// threads, one element each, log2(1024) = 10 steps, each a read of the
// element `offset` to the left, a barrier, an add, a barrier. Elements past n
// read as 0 and are not stored.
//
//   __global__ void block_scan(size_t n, const int *in, int *out) {
//     __shared__ int buf[1024];
//     size_t i = blockIdx.x * 1024 + threadIdx.x;
//     buf[threadIdx.x] = i < n ? in[i] : 0;
//     __syncthreads();
//     #pragma unroll
//     for (int offset = 1; offset < 1024; offset *= 2) {
//       int t = threadIdx.x >= offset ? buf[threadIdx.x - offset] : 0;
//       __syncthreads();
//       buf[threadIdx.x] += t;
//       __syncthreads();
//     }
//     if (i < n) out[i] = buf[threadIdx.x];
//   }
module attributes {gpu.container_module} {
  gpu.module @block_scan {
    gpu.func @block_scan(%n: index, %in: memref<?xi32>, %out: memref<?xi32>)
        workgroup(%buf: memref<1024xi32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c10 = arith.constant 10 : index
      %c1024 = arith.constant 1024 : index
      %zero = arith.constant 0 : i32
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %c1024 : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      %v = scf.if %inside -> (i32) {
        %x = memref.load %in[%i] : memref<?xi32>
        scf.yield %x : i32
      } else {
        scf.yield %zero : i32
      }
      memref.store %v, %buf[%tid]
          : memref<1024xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %step = %c0 to %c10 step %c1 {
        %offset = arith.shli %c1, %step : index
        %has = arith.cmpi uge, %tid, %offset : index
        %t = scf.if %has -> (i32) {
          %src = arith.subi %tid, %offset : index
          %x = memref.load %buf[%src]
              : memref<1024xi32, #gpu.address_space<workgroup>>
          scf.yield %x : i32
        } else {
          scf.yield %zero : i32
        }
        gpu.barrier
        %cur = memref.load %buf[%tid]
            : memref<1024xi32, #gpu.address_space<workgroup>>
        %new = arith.addi %cur, %t : i32
        memref.store %new, %buf[%tid]
            : memref<1024xi32, #gpu.address_space<workgroup>>
        gpu.barrier
      }
      scf.if %inside {
        %r = memref.load %buf[%tid]
            : memref<1024xi32, #gpu.address_space<workgroup>>
        memref.store %r, %out[%i] : memref<?xi32>
      }
      gpu.return
    }
  }
}
