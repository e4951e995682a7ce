// tiled_matmul, form affine: the 2d_dynamic kernel with its loops and tile
// accesses as affine.for / affine.load / affine.store (as affine frontends
// emit), ids with affine.apply; the guarded global accesses stay scf.if.
#tile_map = affine_map<()[s0, s1] -> (s0 * 16 + s1)>
!mat = memref<?x?xf32>
!tile = memref<16x16xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @matmul_tiled {
    gpu.func @matmul_tiled(%A: !mat, %B: !mat, %C: !mat)
        workgroup(%tileA: !tile, %tileB: !tile) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %M = memref.dim %A, %c0 : !mat
      %K = memref.dim %A, %c1 : !mat
      %N = memref.dim %B, %c1 : !mat
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row = affine.apply #tile_map()[%by, %ty]
      %col = affine.apply #tile_map()[%bx, %tx]
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %sum = affine.for %k0 = 0 to %K step 16 iter_args(%acc = %zero)
          -> (f32) {
        %ka = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k0)[%tx]
        %ka_in = arith.cmpi ult, %ka, %K : index
        %a_in = arith.andi %in_row, %ka_in : i1
        %a = scf.if %a_in -> (f32) {
          %v = memref.load %A[%row, %ka] : !mat
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        affine.store %a, %tileA[%ty, %tx] : !tile
        %kb = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k0)[%ty]
        %kb_in = arith.cmpi ult, %kb, %K : index
        %b_in = arith.andi %kb_in, %in_col : i1
        %b = scf.if %b_in -> (f32) {
          %v = memref.load %B[%kb, %col] : !mat
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        affine.store %b, %tileB[%ty, %tx] : !tile
        gpu.barrier
        %partial = affine.for %kk = 0 to 16 iter_args(%s = %acc) -> (f32) {
          %x = affine.load %tileA[%ty, %kk] : !tile
          %y = affine.load %tileB[%kk, %tx] : !tile
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          affine.yield %t : f32
        }
        gpu.barrier
        affine.yield %partial : f32
      }
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        memref.store %sum, %C[%row, %col] : !mat
      }
      gpu.return
    }
  }
}
