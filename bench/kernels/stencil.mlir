// stencil: a 2D star stencil whose radius is known only at run time, as in
// finite-difference wave propagation codes that choose the order of accuracy
// at run time (HeCBench's stencil benchmarks use a compile-time radius):
//   out(x, y) = w[0] in(x, y)
//             + sum_{r=1..radius} w[r] (in(x-r, y) + in(x+r, y)
//                                       + in(x, y-r) + in(x, y+r))
// for the interior points (radius <= x < nx - radius, same for y), one thread
// per point with 2D blocks. Arrays are [y][x] of pitch nx. Runtime constants:
// the radius (the trip count of the inner loop, at most 16) and the weights
// by contents (w[0..radius], room for radius 16): specialized, the loop is
// fully unrolled with the weights as immediates.
module attributes {gpu.container_module} {
  gpu.module @stencil {
    gpu.func @star2d(%in: memref<?xf32>, %out: memref<?xf32>, %nx: index,
                     %ny: index, %radius_arg: i32,
                     %weights_arg: memref<17xf32>) kernel {
      %radius_i32 = offload.runtime_constant %radius_arg : i32
      %w = offload.runtime_constant %weights_arg contents : memref<17xf32>
      %radius = arith.index_cast %radius_i32 : i32 to index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %ox = arith.muli %bx, %dx : index
      %oy = arith.muli %by, %dy : index
      %gx = arith.addi %ox, %tx : index
      %gy = arith.addi %oy, %ty : index
      %x = arith.addi %gx, %radius : index
      %y = arith.addi %gy, %radius : index
      %xmax = arith.subi %nx, %radius : index
      %ymax = arith.subi %ny, %radius : index
      %in_x = arith.cmpi ult, %x, %xmax : index
      %in_y = arith.cmpi ult, %y, %ymax : index
      %inside = arith.andi %in_x, %in_y : i1
      scf.if %inside {
        %row = arith.muli %y, %nx : index
        %p = arith.addi %row, %x : index
        %center = memref.load %in[%p] : memref<?xf32>
        %w0 = memref.load %w[%c0] : memref<17xf32>
        %acc0 = arith.mulf %w0, %center : f32
        %end = arith.addi %radius, %c1 : index
        %acc = scf.for %r = %c1 to %end step %c1 iter_args(%acc_r = %acc0) -> (f32) {
          %wr = memref.load %w[%r] : memref<17xf32>
          %pl = arith.subi %p, %r : index
          %pr = arith.addi %p, %r : index
          %rn = arith.muli %r, %nx : index
          %pd = arith.subi %p, %rn : index
          %pu = arith.addi %p, %rn : index
          %vl = memref.load %in[%pl] : memref<?xf32>
          %vr = memref.load %in[%pr] : memref<?xf32>
          %vd = memref.load %in[%pd] : memref<?xf32>
          %vu = memref.load %in[%pu] : memref<?xf32>
          %s0 = arith.addf %vl, %vr : f32
          %s1 = arith.addf %s0, %vd : f32
          %s2 = arith.addf %s1, %vu : f32
          %t = arith.mulf %wr, %s2 : f32
          %a = arith.addf %acc_r, %t : f32
          scf.yield %a : f32
        }
        memref.store %acc, %out[%p] : memref<?xf32>
      }
      gpu.return
    }
  }
}
