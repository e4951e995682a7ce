// stencil3, form subview: the base kernel reading its three inputs through
// a 3-element memref.subview window of in at i - 1.
module attributes {gpu.container_module} {
  gpu.module @stencil3 {
    gpu.func @stencil3(%n: index, %w0: f32, %w1: f32, %w2: f32,
                       %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
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
          %win = memref.subview %in[%im1] [3] [1]
              : memref<?xf32> to memref<3xf32, strided<[1], offset: ?>>
          %l = memref.load %win[%c0] : memref<3xf32, strided<[1], offset: ?>>
          %m = memref.load %win[%c1] : memref<3xf32, strided<[1], offset: ?>>
          %r = memref.load %win[%c2] : memref<3xf32, strided<[1], offset: ?>>
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
