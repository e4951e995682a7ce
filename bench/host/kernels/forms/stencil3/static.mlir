// stencil3, form static: the base kernel on memrefs of static shape
// (16777216 floats; the benchmark substitutes its size), n a constant;
// index arithmetic, block x dim + thread, bounds scf.if.
module attributes {gpu.container_module} {
  gpu.module @stencil3 {
    gpu.func @stencil3(%w0: f32, %w1: f32, %w2: f32,
                       %in: memref<16777216xf32>, %out: memref<16777216xf32>)
        kernel {
      %n = arith.constant 16777216 : index
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
          %v = memref.load %in[%i] : memref<16777216xf32>
          memref.store %v, %out[%i] : memref<16777216xf32>
        } else {
          %im1 = arith.subi %i, %c1 : index
          %ip1 = arith.addi %i, %c1 : index
          %l = memref.load %in[%im1] : memref<16777216xf32>
          %m = memref.load %in[%i] : memref<16777216xf32>
          %r = memref.load %in[%ip1] : memref<16777216xf32>
          %t0 = arith.mulf %w0, %l : f32
          %t1 = arith.mulf %w1, %m : f32
          %t2 = arith.mulf %w2, %r : f32
          %s0 = arith.addf %t0, %t1 : f32
          %s1 = arith.addf %s0, %t2 : f32
          memref.store %s1, %out[%i] : memref<16777216xf32>
        }
      }
      gpu.return
    }
  }
}
