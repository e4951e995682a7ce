// block_sum, form 2d: in as a 2-D memref of blocks x blockDim (a row per
// block: in[blockIdx][threadIdx]), no bounds check (n a multiple of the
// block; the benchmark runs it only then).
module attributes {gpu.container_module} {
  gpu.module @block_sum {
    gpu.func @block_sum(%in: memref<?x?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %v = memref.load %in[%bid, %tid] : memref<?x?xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
