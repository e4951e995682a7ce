// block_sum, form nobounds: the base kernel without the bounds scf.if, as
// written when n is a multiple of the block (the benchmark runs it only
// then).
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
      %v = memref.load %in[%i] : memref<?xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
