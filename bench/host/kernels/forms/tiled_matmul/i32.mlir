// tiled_matmul, form i32: the base kernel with 32-bit sizes and arithmetic
// (int in CUDA C): ids cast to i32, i32 loops and addresses, cast to index
// at the accesses; 1-D dynamic memrefs, 2-D workgroup tiles, guards.
!tile = memref<16x16xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @matmul_tiled {
    gpu.func @matmul_tiled(%M: i32, %N: i32, %K: i32, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>)
        workgroup(%tileA: !tile, %tileB: !tile) kernel {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %c16 = arith.constant 16 : i32
      %zero = arith.constant 0.0 : f32
      %bxi = gpu.block_id x
      %byi = gpu.block_id y
      %txi = gpu.thread_id x
      %tyi = gpu.thread_id y
      %bx = arith.index_cast %bxi : index to i32
      %by = arith.index_cast %byi : index to i32
      %tx = arith.index_cast %txi : index to i32
      %ty = arith.index_cast %tyi : index to i32
      %row0 = arith.muli %by, %c16 : i32
      %row = arith.addi %row0, %ty : i32
      %col0 = arith.muli %bx, %c16 : i32
      %col = arith.addi %col0, %tx : i32
      %in_row = arith.cmpi slt, %row, %M : i32
      %in_col = arith.cmpi slt, %col, %N : i32
      %sum = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %zero)
          -> (f32) : i32 {
        %ka = arith.addi %k0, %tx : i32
        %ka_in = arith.cmpi slt, %ka, %K : i32
        %a_in = arith.andi %in_row, %ka_in : i1
        %a = scf.if %a_in -> (f32) {
          %ar = arith.muli %row, %K : i32
          %ai = arith.addi %ar, %ka : i32
          %aix = arith.index_cast %ai : i32 to index
          %v = memref.load %A[%aix] : memref<?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %a, %tileA[%tyi, %txi] : !tile
        %kb = arith.addi %k0, %ty : i32
        %kb_in = arith.cmpi slt, %kb, %K : i32
        %b_in = arith.andi %kb_in, %in_col : i1
        %b = scf.if %b_in -> (f32) {
          %br = arith.muli %kb, %N : i32
          %bi = arith.addi %br, %col : i32
          %bix = arith.index_cast %bi : i32 to index
          %v = memref.load %B[%bix] : memref<?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %b, %tileB[%tyi, %txi] : !tile
        gpu.barrier
        %partial = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %acc)
            -> (f32) : i32 {
          %kkx = arith.index_cast %kk : i32 to index
          %x = memref.load %tileA[%tyi, %kkx] : !tile
          %y = memref.load %tileB[%kkx, %txi] : !tile
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        gpu.barrier
        scf.yield %partial : f32
      }
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %cr = arith.muli %row, %N : i32
        %ci = arith.addi %cr, %col : i32
        %cix = arith.index_cast %ci : i32 to index
        memref.store %sum, %C[%cix] : memref<?xf32>
      }
      gpu.return
    }
  }
}
