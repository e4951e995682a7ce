// stencil3, form i32: the base kernel with a 32-bit n and index arithmetic
// (int in CUDA C), cast to index at the accesses.
module attributes {gpu.container_module} {
  gpu.module @stencil3 {
    gpu.func @stencil3(%n: i32, %w0: f32, %w1: f32, %w2: f32,
                       %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %bidx = gpu.block_id x
      %bdimx = gpu.block_dim x
      %tidx = gpu.thread_id x
      %bid = arith.index_cast %bidx : index to i32
      %bdim = arith.index_cast %bdimx : index to i32
      %tid = arith.index_cast %tidx : index to i32
      %base = arith.muli %bid, %bdim : i32
      %i = arith.addi %base, %tid : i32
      %inside = arith.cmpi slt, %i, %n : i32
      scf.if %inside {
        %ix = arith.index_cast %i : i32 to index
        %last = arith.subi %n, %c1 : i32
        %first = arith.cmpi eq, %i, %c0 : i32
        %end = arith.cmpi eq, %i, %last : i32
        %edge = arith.ori %first, %end : i1
        scf.if %edge {
          %v = memref.load %in[%ix] : memref<?xf32>
          memref.store %v, %out[%ix] : memref<?xf32>
        } else {
          %im1 = arith.subi %i, %c1 : i32
          %ip1 = arith.addi %i, %c1 : i32
          %im1x = arith.index_cast %im1 : i32 to index
          %ip1x = arith.index_cast %ip1 : i32 to index
          %l = memref.load %in[%im1x] : memref<?xf32>
          %m = memref.load %in[%ix] : memref<?xf32>
          %r = memref.load %in[%ip1x] : memref<?xf32>
          %t0 = arith.mulf %w0, %l : f32
          %t1 = arith.mulf %w1, %m : f32
          %t2 = arith.mulf %w2, %r : f32
          %s0 = arith.addf %t0, %t1 : f32
          %s1 = arith.addf %s0, %t2 : f32
          memref.store %s1, %out[%ix] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
