// tiled_matmul, form 2d_dynamic: the 16 x 16 shared-memory GEMM of the base
// kernel on 2-D memrefs of dynamic shape (sizes from memref.dim), 2-D
// workgroup tiles, index arithmetic, guarded tile loads and store.
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
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %sum = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %zero)
          -> (f32) {
        %ka = arith.addi %k0, %tx : index
        %ka_in = arith.cmpi ult, %ka, %K : index
        %a_in = arith.andi %in_row, %ka_in : i1
        %a = scf.if %a_in -> (f32) {
          %v = memref.load %A[%row, %ka] : !mat
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %a, %tileA[%ty, %tx] : !tile
        %kb = arith.addi %k0, %ty : index
        %kb_in = arith.cmpi ult, %kb, %K : index
        %b_in = arith.andi %kb_in, %in_col : i1
        %b = scf.if %b_in -> (f32) {
          %v = memref.load %B[%kb, %col] : !mat
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %b, %tileB[%ty, %tx] : !tile
        gpu.barrier
        %partial = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %acc)
            -> (f32) {
          %x = memref.load %tileA[%ty, %kk] : !tile
          %y = memref.load %tileB[%kk, %tx] : !tile
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        gpu.barrier
        scf.yield %partial : f32
      }
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        memref.store %sum, %C[%row, %col] : !mat
      }
      gpu.return
    }
  }
}
