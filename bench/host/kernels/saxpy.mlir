// saxpy: y = a x + y over n floats, one thread per element (barrier-free).
//
//   __global__ void saxpy(size_t n, float a, const float *x, float *y) {
//     size_t i = blockIdx.x * blockDim.x + threadIdx.x;
//     if (i < n) y[i] = a * x[i] + y[i];
//   }
module attributes {gpu.container_module} {
  gpu.module @saxpy {
    gpu.func @saxpy(%n: index, %a: f32, %x: memref<?xf32>, %y: memref<?xf32>)
        kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
