// srad (Rodinia 3.1, srad_v2): speckle reducing anisotropic diffusion (Yu
// and Acton, IEEE TIP 2002) of a rows x cols image J, 16 x 16 blocks.
// srad_1 computes each pixel's differences to its four neighbours (clamped
// at the image's edges) and its diffusion coefficient c (equation 33,
// saturated to [0, 1]) from the speckle scale q0sqr of the iteration;
// srad_2 updates J with the divergence (equations 58 and 61). The host
// computes q0sqr from a region of interest and loops. Written after
// Rodinia's CUDA kernels srad_cuda_1/2: the tile and its halos staged in
// workgroup memory with the same gpu.barrier; halo indices at the image's
// edges are clamped before the load (the CUDA kernel reads outside the
// image there and discards the value).
module attributes {gpu.container_module} {
  gpu.module @srad {
    gpu.func @srad_1(%ec: memref<?xf32>, %wc: memref<?xf32>,
                     %nc: memref<?xf32>, %sc: memref<?xf32>,
                     %j: memref<?xf32>, %c: memref<?xf32>, %cols: index,
                     %q0sqr: f32)
        workgroup(%temp: memref<16x16xf32, #gpu.address_space<workgroup>>, %temp_result: memref<16x16xf32, #gpu.address_space<workgroup>>, %north: memref<16x16xf32, #gpu.address_space<workgroup>>, %south: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %east: memref<16x16xf32, #gpu.address_space<workgroup>>, %west: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %f0 = arith.constant 0.0 : f32
      %f1 = arith.constant 1.0 : f32
      %half = arith.constant 0.5 : f32
      %sixteenth = arith.constant 0.0625 : f32
      %quarter = arith.constant 0.25 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r16 = arith.muli %cols, %c16 : index
      %rb = arith.muli %r16, %by : index
      %cb = arith.muli %c16, %bx : index
      %blk = arith.addi %rb, %cb : index
      %rt = arith.muli %cols, %ty : index
      %b0 = arith.addi %blk, %rt : index
      %index = arith.addi %b0, %tx : index
      %bxt = arith.addi %blk, %tx : index
      %index_n0 = arith.subi %bxt, %cols : index
      %index_s0 = arith.addi %bxt, %r16 : index
      %index_w0 = arith.subi %b0, %c1 : index
      %index_e0 = arith.addi %b0, %c16 : index
      %gy1 = arith.subi %gy, %c1 : index
      %gx1 = arith.subi %gx, %c1 : index
      %top = arith.cmpi eq, %by, %c0 : index
      %bottom = arith.cmpi eq, %by, %gy1 : index
      %left = arith.cmpi eq, %bx, %c0 : index
      %right = arith.cmpi eq, %bx, %gx1 : index
      // At the image's edges the neighbour is the edge pixel itself.
      %index_n = arith.select %top, %cb, %index_n0 : index
      %last_row0 = arith.muli %c15, %cols : index
      %last_row = arith.addi %bxt, %last_row0 : index
      %index_s = arith.select %bottom, %last_row, %index_s0 : index
      %index_w = arith.select %left, %rt, %index_w0 : index
      %w_first = arith.addi %rb, %rt : index
      %index_w1 = arith.addi %w_first, %c0 : index
      %index_ww = arith.select %left, %index_w1, %index_w0 : index
      %last_col0 = arith.addi %b0, %c15 : index
      %index_e = arith.select %right, %last_col0, %index_e0 : index
      %index_nt = arith.addi %index_n, %tx : index
      %index_nn = arith.select %top, %index_nt, %index_n0 : index
      %vn = memref.load %j[%index_nn] : memref<?xf32>
      memref.store %vn, %north[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %vs = memref.load %j[%index_s] : memref<?xf32>
      memref.store %vs, %south[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %vw = memref.load %j[%index_ww] : memref<?xf32>
      memref.store %vw, %west[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %ve = memref.load %j[%index_e] : memref<?xf32>
      memref.store %ve, %east[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %vj = memref.load %j[%index] : memref<?xf32>
      memref.store %vj, %temp[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %jc = memref.load %temp[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %ty0 = arith.cmpi eq, %ty, %c0 : index
      %ty15 = arith.cmpi eq, %ty, %c15 : index
      %tx0 = arith.cmpi eq, %tx, %c0 : index
      %tx15 = arith.cmpi eq, %tx, %c15 : index
      %n = scf.if %ty0 -> (f32) {
        %v = memref.load %north[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      } else {
        %y = arith.subi %ty, %c1 : index
        %v = memref.load %temp[%y, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      }
      %s = scf.if %ty15 -> (f32) {
        %v = memref.load %south[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      } else {
        %y = arith.addi %ty, %c1 : index
        %v = memref.load %temp[%y, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      }
      %w = scf.if %tx0 -> (f32) {
        %v = memref.load %west[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      } else {
        %x = arith.subi %tx, %c1 : index
        %v = memref.load %temp[%ty, %x] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      }
      %e = scf.if %tx15 -> (f32) {
        %v = memref.load %east[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      } else {
        %x = arith.addi %tx, %c1 : index
        %v = memref.load %temp[%ty, %x] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      }
      %dn = arith.subf %n, %jc : f32
      %ds = arith.subf %s, %jc : f32
      %dw = arith.subf %w, %jc : f32
      %de = arith.subf %e, %jc : f32
      %n2 = arith.mulf %dn, %dn : f32
      %s2 = arith.mulf %ds, %ds : f32
      %w2 = arith.mulf %dw, %dw : f32
      %e2 = arith.mulf %de, %de : f32
      %g0 = arith.addf %n2, %s2 : f32
      %g1 = arith.addf %g0, %w2 : f32
      %gs = arith.addf %g1, %e2 : f32
      %jc2 = arith.mulf %jc, %jc : f32
      %g2 = arith.divf %gs, %jc2 : f32
      %l0 = arith.addf %dn, %ds : f32
      %l1 = arith.addf %l0, %dw : f32
      %ls = arith.addf %l1, %de : f32
      %l = arith.divf %ls, %jc : f32
      %hg = arith.mulf %half, %g2 : f32
      %ll = arith.mulf %l, %l : f32
      %sl = arith.mulf %sixteenth, %ll : f32
      %num = arith.subf %hg, %sl : f32
      %ql = arith.mulf %quarter, %l : f32
      %den = arith.addf %f1, %ql : f32
      %den2 = arith.mulf %den, %den : f32
      %qsqr = arith.divf %num, %den2 : f32
      %qd = arith.subf %qsqr, %q0sqr : f32
      %q1 = arith.addf %f1, %q0sqr : f32
      %qq = arith.mulf %q0sqr, %q1 : f32
      %den3 = arith.divf %qd, %qq : f32
      %cd = arith.addf %f1, %den3 : f32
      %cv = arith.divf %f1, %cd : f32
      %neg = arith.cmpf olt, %cv, %f0 : f32
      %big = arith.cmpf ogt, %cv, %f1 : f32
      %c_hi = arith.select %big, %f1, %cv : f32
      %c_sat = arith.select %neg, %f0, %c_hi : f32
      memref.store %c_sat, %temp_result[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %cr = memref.load %temp_result[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      memref.store %cr, %c[%index] : memref<?xf32>
      memref.store %de, %ec[%index] : memref<?xf32>
      memref.store %dw, %wc[%index] : memref<?xf32>
      memref.store %ds, %sc[%index] : memref<?xf32>
      memref.store %dn, %nc[%index] : memref<?xf32>
      gpu.return
    }

    gpu.func @srad_2(%ec: memref<?xf32>, %wc: memref<?xf32>,
                     %nc: memref<?xf32>, %sc: memref<?xf32>,
                     %j: memref<?xf32>, %c: memref<?xf32>, %cols: index,
                     %lambda: f32)
        workgroup(%south_c: memref<16x16xf32, #gpu.address_space<workgroup>>, %east_c: memref<16x16xf32, #gpu.address_space<workgroup>>, %c_temp: memref<16x16xf32, #gpu.address_space<workgroup>>, %c_result: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %temp: memref<16x16xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c15 = arith.constant 15 : index
      %c16 = arith.constant 16 : index
      %quarter = arith.constant 0.25 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %gy = gpu.grid_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %r16 = arith.muli %cols, %c16 : index
      %rb = arith.muli %r16, %by : index
      %cb = arith.muli %c16, %bx : index
      %blk = arith.addi %rb, %cb : index
      %rt = arith.muli %cols, %ty : index
      %b0 = arith.addi %blk, %rt : index
      %index = arith.addi %b0, %tx : index
      %bxt = arith.addi %blk, %tx : index
      %index_s0 = arith.addi %bxt, %r16 : index
      %index_e0 = arith.addi %b0, %c16 : index
      %gy1 = arith.subi %gy, %c1 : index
      %gx1 = arith.subi %gx, %c1 : index
      %bottom = arith.cmpi eq, %by, %gy1 : index
      %right = arith.cmpi eq, %bx, %gx1 : index
      %last_row0 = arith.muli %c15, %cols : index
      %last_row = arith.addi %bxt, %last_row0 : index
      %index_s = arith.select %bottom, %last_row, %index_s0 : index
      %last_col = arith.addi %b0, %c15 : index
      %index_e = arith.select %right, %last_col, %index_e0 : index
      %vj = memref.load %j[%index] : memref<?xf32>
      memref.store %vj, %temp[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %vs = memref.load %c[%index_s] : memref<?xf32>
      memref.store %vs, %south_c[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %ve = memref.load %c[%index_e] : memref<?xf32>
      memref.store %ve, %east_c[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %vc = memref.load %c[%index] : memref<?xf32>
      memref.store %vc, %c_temp[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %cc = memref.load %c_temp[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %ty15 = arith.cmpi eq, %ty, %c15 : index
      %tx15 = arith.cmpi eq, %tx, %c15 : index
      %cs = scf.if %ty15 -> (f32) {
        %v = memref.load %south_c[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      } else {
        %y = arith.addi %ty, %c1 : index
        %v = memref.load %c_temp[%y, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      }
      %ce = scf.if %tx15 -> (f32) {
        %v = memref.load %east_c[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      } else {
        %x = arith.addi %tx, %c1 : index
        %v = memref.load %c_temp[%ty, %x] : memref<16x16xf32, #gpu.address_space<workgroup>>
        scf.yield %v : f32
      }
      %vn = memref.load %nc[%index] : memref<?xf32>
      %vss = memref.load %sc[%index] : memref<?xf32>
      %vw = memref.load %wc[%index] : memref<?xf32>
      %vee = memref.load %ec[%index] : memref<?xf32>
      %t0 = arith.mulf %cc, %vn : f32
      %t1 = arith.mulf %cs, %vss : f32
      %t2 = arith.mulf %cc, %vw : f32
      %t3 = arith.mulf %ce, %vee : f32
      %d0 = arith.addf %t0, %t1 : f32
      %d1 = arith.addf %d0, %t2 : f32
      %dsum = arith.addf %d1, %t3 : f32
      %ql = arith.mulf %quarter, %lambda : f32
      %upd = arith.mulf %ql, %dsum : f32
      %tj = memref.load %temp[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %nj = arith.addf %tj, %upd : f32
      memref.store %nj, %c_result[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %r = memref.load %c_result[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      memref.store %r, %j[%index] : memref<?xf32>
      gpu.return
    }
  }
}
