// block_sum, form i32: the base kernel with a 32-bit n and index
// arithmetic (int in CUDA C), cast to index at the accesses.
module attributes {gpu.container_module} {
  gpu.module @block_sum {
    gpu.func @block_sum(%n: i32, %in: memref<?xf32>, %out: memref<?xf32>)
        kernel {
      %c0 = arith.constant 0 : i32
      %zero = arith.constant 0.0 : f32
      %bidx = gpu.block_id x
      %bdimx = gpu.block_dim x
      %tidx = gpu.thread_id x
      %bid = arith.index_cast %bidx : index to i32
      %bdim = arith.index_cast %bdimx : index to i32
      %tid = arith.index_cast %tidx : index to i32
      %base = arith.muli %bid, %bdim : i32
      %i = arith.addi %base, %tid : i32
      %inside = arith.cmpi slt, %i, %n : i32
      %v = scf.if %inside -> (f32) {
        %ix = arith.index_cast %i : i32 to index
        %x = memref.load %in[%ix] : memref<?xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : i32
      scf.if %first {
        memref.store %sum, %out[%bidx] : memref<?xf32>
      }
      gpu.return
    }
  }
}
