// stencil3: the 3-point stencil out[i] = w0 in[i-1] + w1 in[i] + w2 in[i+1]
// over n floats, one thread per element; the two end points are copied
// (barrier-free).
//
//   __global__ void stencil3(size_t n, float w0, float w1, float w2,
//                            const float *in, float *out) {
//     size_t i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i >= n) return;
//     if (i == 0 || i == n - 1) out[i] = in[i];
//     else out[i] = w0 * in[i - 1] + w1 * in[i] + w2 * in[i + 1];
//   }
module attributes {gpu.container_module} {
  gpu.module @stencil3 {
    gpu.func @stencil3(%n: index, %w0: f32, %w1: f32, %w2: f32,
                       %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %last = arith.subi %n, %c1 : index
        %first = arith.cmpi eq, %i, %c0 : index
        %end = arith.cmpi eq, %i, %last : index
        %edge = arith.ori %first, %end : i1
        scf.if %edge {
          %v = memref.load %in[%i] : memref<?xf32>
          memref.store %v, %out[%i] : memref<?xf32>
        } else {
          %im1 = arith.subi %i, %c1 : index
          %ip1 = arith.addi %i, %c1 : index
          %l = memref.load %in[%im1] : memref<?xf32>
          %m = memref.load %in[%i] : memref<?xf32>
          %r = memref.load %in[%ip1] : memref<?xf32>
          %t0 = arith.mulf %w0, %l : f32
          %t1 = arith.mulf %w1, %m : f32
          %t2 = arith.mulf %w2, %r : f32
          %s0 = arith.addf %t0, %t1 : f32
          %s1 = arith.addf %s0, %t2 : f32
          memref.store %s1, %out[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
