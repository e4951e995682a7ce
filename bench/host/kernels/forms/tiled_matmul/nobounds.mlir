// tiled_matmul, form nobounds: the base kernel without its guards, as
// written when M, N and K are multiples of the 16 x 16 tile (the benchmark
// runs it only then): 1-D dynamic memrefs, index arithmetic.
module attributes {gpu.container_module} {
  gpu.module @matmul_tiled {
    gpu.func @matmul_tiled(%M: index, %N: index, %K: index, %A: memref<?xf32>,
                           %B: memref<?xf32>, %C: memref<?xf32>)
        workgroup(%tileA: memref<16x16xf32, #gpu.address_space<workgroup>>,
                  %tileB: memref<16x16xf32, #gpu.address_space<workgroup>>)
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
      %sum = scf.for %k0 = %c0 to %K step %c16 iter_args(%acc = %zero)
          -> (f32) {
        // Stage one element of each tile per thread.
        %ka = arith.addi %k0, %tx : index
        %ar = arith.muli %row, %K : index
        %ai = arith.addi %ar, %ka : index
        %a = memref.load %A[%ai] : memref<?xf32>
        memref.store %a, %tileA[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        %kb = arith.addi %k0, %ty : index
        %br = arith.muli %kb, %N : index
        %bi = arith.addi %br, %col : index
        %b = memref.load %B[%bi] : memref<?xf32>
        memref.store %b, %tileB[%ty, %tx]
            : memref<16x16xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %partial = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %acc)
            -> (f32) {
          %x = memref.load %tileA[%ty, %kk]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %y = memref.load %tileB[%kk, %tx]
              : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %x, %y : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        gpu.barrier
        scf.yield %partial : f32
      }
      %cr = arith.muli %row, %N : index
      %ci = arith.addi %cr, %col : index
      memref.store %sum, %C[%ci] : memref<?xf32>
      gpu.return
    }
  }
}
