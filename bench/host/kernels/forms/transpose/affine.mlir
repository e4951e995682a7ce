// transpose, form affine: the 2d_dynamic kernel with its row loops and
// accesses as affine.for / affine.load / affine.store (as affine frontends
// emit); the partial-tile guards stay scf.if.
!mat = memref<?x?xf32>
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose(%in: !mat, %out: !mat)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %rows = memref.dim %in, %c0 : !mat
      %cols = memref.dim %in, %c1 : !mat
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx32 = arith.muli %bx, %c32 : index
      %by32 = arith.muli %by, %c32 : index
      // Load: rows by32.., columns bx32.. of in.
      %x_in = arith.addi %bx32, %tx : index
      %y_in = arith.addi %by32, %ty : index
      %x_in_ok = arith.cmpi ult, %x_in, %cols : index
      affine.for %j = 0 to 32 step 8 {
        %y = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%j)[%y_in]
        %y_ok = arith.cmpi ult, %y, %rows : index
        %ok = arith.andi %x_in_ok, %y_ok : i1
        scf.if %ok {
          %v = affine.load %in[%j + symbol(%y_in), symbol(%x_in)] : !mat
          affine.store %v, %tile[%j + symbol(%ty), symbol(%tx)]
              : memref<32x33xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Store: rows bx32.., columns by32.. of out.
      %x_out = arith.addi %by32, %tx : index
      %y_out = arith.addi %bx32, %ty : index
      %x_out_ok = arith.cmpi ult, %x_out, %rows : index
      affine.for %j = 0 to 32 step 8 {
        %y = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%j)[%y_out]
        %y_ok = arith.cmpi ult, %y, %cols : index
        %ok = arith.andi %x_out_ok, %y_ok : i1
        scf.if %ok {
          %v = affine.load %tile[symbol(%tx), %j + symbol(%ty)]
              : memref<32x33xf32, #gpu.address_space<workgroup>>
          affine.store %v, %out[%j + symbol(%y_out), symbol(%x_out)] : !mat
        }
      }
      gpu.return
    }
  }
}
