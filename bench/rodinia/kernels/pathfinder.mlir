// pathfinder (Rodinia 3.1): dynamic programming over a rows x cols grid of
// weights, the cheapest path from the top row to each cell of the bottom row
// moving down, down-left or down-right. One block of 256 threads advances
// `iteration` rows of its 256-column strip in workgroup memory (the pyramid:
// the strip shrinks by one column per side and row, consecutive blocks
// overlap by 2 * iteration), two gpu.barrier per row. Written after
// Rodinia's CUDA kernel dynproc_kernel (BLOCK_SIZE 256, HALO 1); i32 costs.
module attributes {gpu.container_module} {
  gpu.module @pathfinder {
    gpu.func @dynproc(%iteration: index, %wall: memref<?xi32>,
                      %src: memref<?xi32>, %results: memref<?xi32>,
                      %cols: index, %start_step: index, %border: index)
        workgroup(%prev: memref<256xi32, #gpu.address_space<workgroup>>,
                  %result: memref<256xi32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c254 = arith.constant 254 : index
      %c255 = arith.constant 255 : index
      %c256 = arith.constant 256 : index
      %false = arith.constant false
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %it2 = arith.muli %iteration, %c2 : index
      %small = arith.subi %c256, %it2 : index
      %sb = arith.muli %small, %bx : index
      %blkX = arith.subi %sb, %border : index
      %blkXmax = arith.addi %blkX, %c255 : index
      %xidx = arith.addi %blkX, %tx : index
      %cols1 = arith.subi %cols, %c1 : index
      %x_neg = arith.cmpi slt, %blkX, %c0 : index
      %nx = arith.subi %c0, %blkX : index
      %vxmin = arith.select %x_neg, %nx, %c0 : index
      %x_over = arith.cmpi sgt, %blkXmax, %cols1 : index
      %dx = arith.subi %blkXmax, %cols1 : index
      %vxmax_o = arith.subi %c255, %dx : index
      %vxmax = arith.select %x_over, %vxmax_o, %c255 : index
      %w0 = arith.subi %tx, %c1 : index
      %W = arith.maxsi %w0, %vxmin : index
      %e0 = arith.addi %tx, %c1 : index
      %E = arith.minsi %e0, %vxmax : index
      %v_lo = arith.cmpi sge, %tx, %vxmin : index
      %v_hi = arith.cmpi sle, %tx, %vxmax : index
      %valid = arith.andi %v_lo, %v_hi : i1
      %x_ge = arith.cmpi sge, %xidx, %c0 : index
      %x_le = arith.cmpi sle, %xidx, %cols1 : index
      %x_in = arith.andi %x_ge, %x_le : i1
      scf.if %x_in {
        %v = memref.load %src[%xidx] : memref<?xi32>
        memref.store %v, %prev[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %last = arith.subi %iteration, %c1 : index
      %computed = scf.for %i = %c0 to %iteration step %c1
          iter_args(%was = %false) -> (i1) {
        %lo = arith.addi %i, %c1 : index
        %hi = arith.subi %c254, %i : index
        %t_lo = arith.cmpi sge, %tx, %lo : index
        %t_hi = arith.cmpi sle, %tx, %hi : index
        %t_in = arith.andi %t_lo, %t_hi : i1
        %cond = arith.andi %t_in, %valid : i1
        scf.if %cond {
          %left = memref.load %prev[%W] : memref<256xi32, #gpu.address_space<workgroup>>
          %up = memref.load %prev[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
          %right = memref.load %prev[%E] : memref<256xi32, #gpu.address_space<workgroup>>
          %m0 = arith.minsi %left, %up : i32
          %m1 = arith.minsi %m0, %right : i32
          %row = arith.addi %start_step, %i : index
          %roff = arith.muli %cols, %row : index
          %idx = arith.addi %roff, %xidx : index
          %w = memref.load %wall[%idx] : memref<?xi32>
          %r = arith.addi %m1, %w : i32
          memref.store %r, %result[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %more = arith.cmpi slt, %i, %last : index
        %copy = arith.andi %more, %cond : i1
        scf.if %copy {
          %r = memref.load %result[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
          memref.store %r, %prev[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %cond : i1
      }
      scf.if %computed {
        %r = memref.load %result[%tx] : memref<256xi32, #gpu.address_space<workgroup>>
        memref.store %r, %results[%xidx] : memref<?xi32>
      }
      gpu.return
    }
  }
}
