// transpose, form 2d_static: the base kernel on 2-D memrefs of static
// shape (2048 x 2048; the benchmark substitutes its size), the guards of the
// base kernel against constants.
!mat = memref<2048x2048xf32>
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose(%in: !mat, %out: !mat)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %rows = arith.constant 2048 : index
      %cols = arith.constant 2048 : index
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
      scf.for %j = %c0 to %c32 step %c8 {
        %y = arith.addi %y_in, %j : index
        %y_ok = arith.cmpi ult, %y, %rows : index
        %ok = arith.andi %x_in_ok, %y_ok : i1
        scf.if %ok {
          %v = memref.load %in[%y, %x_in] : !mat
          %ty_j = arith.addi %ty, %j : index
          memref.store %v, %tile[%ty_j, %tx]
              : memref<32x33xf32, #gpu.address_space<workgroup>>
        }
      }
      gpu.barrier
      // Store: rows bx32.., columns by32.. of out.
      %x_out = arith.addi %by32, %tx : index
      %y_out = arith.addi %bx32, %ty : index
      %x_out_ok = arith.cmpi ult, %x_out, %rows : index
      scf.for %j = %c0 to %c32 step %c8 {
        %y = arith.addi %y_out, %j : index
        %y_ok = arith.cmpi ult, %y, %cols : index
        %ok = arith.andi %x_out_ok, %y_ok : i1
        scf.if %ok {
          %ty_j = arith.addi %ty, %j : index
          %v = memref.load %tile[%tx, %ty_j]
              : memref<32x33xf32, #gpu.address_space<workgroup>>
          memref.store %v, %out[%y, %x_out] : !mat
        }
      }
      gpu.return
    }
  }
}
