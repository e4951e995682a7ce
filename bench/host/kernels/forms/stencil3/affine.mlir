// stencil3, form affine: the base kernel with affine.apply for the index
// and affine.load / affine.store with the offsets in the access maps
// (in[i - 1], in[i + 1]), as affine frontends emit it.
module attributes {gpu.container_module} {
  gpu.module @stencil3 {
    gpu.func @stencil3(%n: index, %w0: f32, %w1: f32, %w2: f32,
                       %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %i = affine.apply affine_map<()[s0, s1, s2] -> (s0 * s1 + s2)>
          ()[%bid, %bdim, %tid]
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %last = arith.subi %n, %c1 : index
        %first = arith.cmpi eq, %i, %c0 : index
        %end = arith.cmpi eq, %i, %last : index
        %edge = arith.ori %first, %end : i1
        scf.if %edge {
          %v = affine.load %in[%i] : memref<?xf32>
          affine.store %v, %out[%i] : memref<?xf32>
        } else {
          %l = affine.load %in[%i - 1] : memref<?xf32>
          %m = affine.load %in[%i] : memref<?xf32>
          %r = affine.load %in[%i + 1] : memref<?xf32>
          %t0 = arith.mulf %w0, %l : f32
          %t1 = arith.mulf %w1, %m : f32
          %t2 = arith.mulf %w2, %r : f32
          %s0 = arith.addf %t0, %t1 : f32
          %s1 = arith.addf %s0, %t2 : f32
          affine.store %s1, %out[%i] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
