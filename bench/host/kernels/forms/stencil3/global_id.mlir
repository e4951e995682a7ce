// stencil3, form global_id: the base kernel with gpu.global_id x instead
// of block x dim + thread.
module attributes {gpu.container_module} {
  gpu.module @stencil3 {
    gpu.func @stencil3(%n: index, %w0: f32, %w1: f32, %w2: f32,
                       %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %i = gpu.global_id x
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
