// tiled_matmul, form flat_tiles: the base kernel with 1-D workgroup tiles
// (`__shared__ float tileA[256]`, indexed ty * 16 + tx by hand, as C
// programmers and 1-D frontends write them); 1-D dynamic memrefs, guards.
module attributes {gpu.container_module} {
  gpu.module @matmul_tiled {
    gpu.func @matmul_tiled(%M: index, %N: index, %K: index, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>)
        workgroup(%tileA: memref<256xf32, #gpu.address_space<workgroup>>,
                  %tileB: memref<256xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %row0 = arith.muli %by, %c16 : index
      %row = arith.addi %row0, %ty : index
      %col0 = arith.muli %bx, %c16 : index
      %col = arith.addi %col0, %tx : index
      %ty16 = arith.muli %ty, %c16 : index
      %own = arith.addi %ty16, %tx : index
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %sum = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %zero)
          -> (f32) {
        // Stage one element of each tile per thread.
        %ka = arith.addi %k0, %tx : index
        %ka_in = arith.cmpi ult, %ka, %K : index
        %a_in = arith.andi %in_row, %ka_in : i1
        %a = scf.if %a_in -> (f32) {
          %ar = arith.muli %row, %K : index
          %ai = arith.addi %ar, %ka : index
          %v = memref.load %A[%ai] : memref<?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %a, %tileA[%own]
            : memref<256xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %kb_in = arith.cmpi ult, %kb, %K : index
        %b_in = arith.andi %kb_in, %in_col : i1
        %b = scf.if %b_in -> (f32) {
          %br = arith.muli %kb, %N : index
          %bi = arith.addi %br, %col : index
          %v = memref.load %B[%bi] : memref<?xf32>
          scf.yield %v : f32
        } else {
          scf.yield %zero : f32
        }
        memref.store %b, %tileB[%own]
            : memref<256xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %partial = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %acc)
            -> (f32) {
          %xi = arith.addi %ty16, %kk : index
          %kk16 = arith.muli %kk, %c16 : index
          %yi = arith.addi %kk16, %tx : index
          %x = memref.load %tileA[%xi]
              : memref<256xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tileB[%yi]
              : memref<256xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        gpu.barrier
        scf.yield %partial : f32
      }
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %cr = arith.muli %row, %N : index
        %ci = arith.addi %cr, %col : index
        memref.store %sum, %C[%ci] : memref<?xf32>
      }
      gpu.return
    }
  }
}
