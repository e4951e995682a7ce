// hotspot (Rodinia 3.1): transient temperature of a chip on a rows x cols
// grid, explicit Euler steps of a 5-point stencil with the power input and
// the ambient temperature. One 16 x 16 block computes `iteration` time steps
// of its tile (the "pyramid": the tile shrinks by one cell per side and step,
// so consecutive blocks overlap by 2 * iteration cells) in workgroup memory,
// two gpu.barrier per step. Neighbours outside the grid are clamped to the
// cell itself (the boundary condition of Rodinia's OpenMP version). Written
// after Rodinia's CUDA kernel calculate_temp (BLOCK_SIZE 16); all arithmetic
// in f32.
module attributes {gpu.container_module} {
  gpu.module @hotspot {
    gpu.func @calculate_temp(%iteration: index, %power: memref<?xf32>,
                             %src: memref<?xf32>, %dst: memref<?xf32>,
                             %cols: index, %rows: index, %border_cols: index,
                             %border_rows: index, %cap: f32, %rx: f32,
                             %ry: f32, %rz: f32, %step: f32)
        workgroup(%temp: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %pw: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tt: memref<16x16xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c14 = arith.constant 14 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %one = arith.constant 1.0 : f32
      %two = arith.constant 2.0 : f32
      %amb = arith.constant 80.0 : f32
      %false = arith.constant false
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %sdc = arith.divf %step, %cap : f32
      %rx1 = arith.divf %one, %rx : f32
      %ry1 = arith.divf %one, %ry : f32
      %rz1 = arith.divf %one, %rz : f32
      // The tile this block finally computes, and its halo.
      %it2 = arith.muli %iteration, %c2 : index
      %small = arith.subi %c16, %it2 : index
      %sy = arith.muli %small, %by : index
      %blkY = arith.subi %sy, %border_rows : index
      %sx = arith.muli %small, %bx : index
      %blkX = arith.subi %sx, %border_cols : index
      %blkYmax = arith.addi %blkY, %c15 : index
      %blkXmax = arith.addi %blkX, %c15 : index
      %yidx = arith.addi %blkY, %ty : index
      %xidx = arith.addi %blkX, %tx : index
      %rows1 = arith.subi %rows, %c1 : index
      %cols1 = arith.subi %cols, %c1 : index
      %yoff = arith.muli %cols, %yidx : index
      %index = arith.addi %yoff, %xidx : index
      %y_ge = arith.cmpi sge, %yidx, %c0 : index
      %y_le = arith.cmpi sle, %yidx, %rows1 : index
      %x_ge = arith.cmpi sge, %xidx, %c0 : index
      %x_le = arith.cmpi sle, %xidx, %cols1 : index
      %y_in = arith.andi %y_ge, %y_le : i1
      %x_in = arith.andi %x_ge, %x_le : i1
      %in = arith.andi %y_in, %x_in : i1
      scf.if %in {
        %t = memref.load %src[%index] : memref<?xf32>
        memref.store %t, %temp[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        %p = memref.load %power[%index] : memref<?xf32>
        memref.store %p, %pw[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // The part of the tile inside the grid.
      %y_neg = arith.cmpi slt, %blkY, %c0 : index
      %ny = arith.subi %c0, %blkY : index
      %vymin = arith.select %y_neg, %ny, %c0 : index
      %y_over = arith.cmpi sgt, %blkYmax, %rows1 : index
      %dy = arith.subi %blkYmax, %rows1 : index
      %vymax_o = arith.subi %c15, %dy : index
      %vymax = arith.select %y_over, %vymax_o, %c15 : index
      %x_neg = arith.cmpi slt, %blkX, %c0 : index
      %nx = arith.subi %c0, %blkX : index
      %vxmin = arith.select %x_neg, %nx, %c0 : index
      %x_over = arith.cmpi sgt, %blkXmax, %cols1 : index
      %dx = arith.subi %blkXmax, %cols1 : index
      %vxmax_o = arith.subi %c15, %dx : index
      %vxmax = arith.select %x_over, %vxmax_o, %c15 : index
      %n0 = arith.subi %ty, %c1 : index
      %N = arith.maxsi %n0, %vymin : index
      %s0 = arith.addi %ty, %c1 : index
      %S = arith.minsi %s0, %vymax : index
      %w0 = arith.subi %tx, %c1 : index
      %W = arith.maxsi %w0, %vxmin : index
      %e0 = arith.addi %tx, %c1 : index
      %E = arith.minsi %e0, %vxmax : index
      %vx_lo = arith.cmpi sge, %tx, %vxmin : index
      %vx_hi = arith.cmpi sle, %tx, %vxmax : index
      %vy_lo = arith.cmpi sge, %ty, %vymin : index
      %vy_hi = arith.cmpi sle, %ty, %vymax : index
      %vx = arith.andi %vx_lo, %vx_hi : i1
      %vy = arith.andi %vy_lo, %vy_hi : i1
      %valid = arith.andi %vx, %vy : i1
      %last = arith.subi %iteration, %c1 : index
      %computed = scf.for %i = %c0 to %iteration step %c1
          iter_args(%was = %false) -> (i1) {
        %lo = arith.addi %i, %c1 : index
        %hi = arith.subi %c14, %i : index
        %tx_lo = arith.cmpi sge, %tx, %lo : index
        %tx_hi = arith.cmpi sle, %tx, %hi : index
        %ty_lo = arith.cmpi sge, %ty, %lo : index
        %ty_hi = arith.cmpi sle, %ty, %hi : index
        %a0 = arith.andi %tx_lo, %tx_hi : i1
        %a1 = arith.andi %ty_lo, %ty_hi : i1
        %a2 = arith.andi %a0, %a1 : i1
        %cond = arith.andi %a2, %valid : i1
        scf.if %cond {
          %c = memref.load %temp[%ty, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = memref.load %pw[%ty, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %ts = memref.load %temp[%S, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %tn = memref.load %temp[%N, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %te = memref.load %temp[%ty, %E]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %tw = memref.load %temp[%ty, %W]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %c2x = arith.mulf %two, %c : f32
          %sn = arith.addf %ts, %tn : f32
          %sn2 = arith.subf %sn, %c2x : f32
          %yterm = arith.mulf %sn2, %ry1 : f32
          %ew = arith.addf %te, %tw : f32
          %ew2 = arith.subf %ew, %c2x : f32
          %xterm = arith.mulf %ew2, %rx1 : f32
          %ac = arith.subf %amb, %c : f32
          %zterm = arith.mulf %ac, %rz1 : f32
          %q0 = arith.addf %p, %yterm : f32
          %q1 = arith.addf %q0, %xterm : f32
          %q2 = arith.addf %q1, %zterm : f32
          %d = arith.mulf %sdc, %q2 : f32
          %v = arith.addf %c, %d : f32
          memref.store %v, %tt[%ty, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %more = arith.cmpi slt, %i, %last : index
        %copy = arith.andi %more, %cond : i1
        scf.if %copy {
          %v = memref.load %tt[%ty, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          memref.store %v, %temp[%ty, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        scf.yield %cond : i1
      }
      scf.if %computed {
        %v = memref.load %tt[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        memref.store %v, %dst[%index] : memref<?xf32>
      }
      gpu.return
    }
  }
}
