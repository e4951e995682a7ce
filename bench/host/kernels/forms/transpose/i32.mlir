// transpose, form i32: the base kernel with 32-bit sizes and arithmetic
// (int in CUDA C), cast to index at the accesses.
!tile = memref<32x33xf32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @transpose {
    gpu.func @transpose(%rows: i32, %cols: i32, %in: memref<?xf32>,
                        %out: memref<?xf32>)
        workgroup(%tile: !tile) kernel {
      %c0 = arith.constant 0 : i32
      %c8 = arith.constant 8 : i32
      %c32 = arith.constant 32 : i32
      %bxi = gpu.block_id x
      %byi = gpu.block_id y
      %txi = gpu.thread_id x
      %tyi = gpu.thread_id y
      %bx = arith.index_cast %bxi : index to i32
      %by = arith.index_cast %byi : index to i32
      %tx = arith.index_cast %txi : index to i32
      %ty = arith.index_cast %tyi : index to i32
      %bx32 = arith.muli %bx, %c32 : i32
      %by32 = arith.muli %by, %c32 : i32
      %x_in = arith.addi %bx32, %tx : i32
      %y_in = arith.addi %by32, %ty : i32
      %x_in_ok = arith.cmpi slt, %x_in, %cols : i32
      scf.for %j = %c0 to %c32 step %c8 : i32 {
        %y = arith.addi %y_in, %j : i32
        %y_ok = arith.cmpi slt, %y, %rows : i32
        %ok = arith.andi %x_in_ok, %y_ok : i1
        scf.if %ok {
          %r = arith.muli %y, %cols : i32
          %idx = arith.addi %r, %x_in : i32
          %idxx = arith.index_cast %idx : i32 to index
          %v = memref.load %in[%idxx] : memref<?xf32>
          %ty_j = arith.addi %ty, %j : i32
          %ty_jx = arith.index_cast %ty_j : i32 to index
          memref.store %v, %tile[%ty_jx, %txi] : !tile
        }
      }
      gpu.barrier
      %x_out = arith.addi %by32, %tx : i32
      %y_out = arith.addi %bx32, %ty : i32
      %x_out_ok = arith.cmpi slt, %x_out, %rows : i32
      scf.for %j = %c0 to %c32 step %c8 : i32 {
        %y = arith.addi %y_out, %j : i32
        %y_ok = arith.cmpi slt, %y, %cols : i32
        %ok = arith.andi %x_out_ok, %y_ok : i1
        scf.if %ok {
          %ty_j = arith.addi %ty, %j : i32
          %ty_jx = arith.index_cast %ty_j : i32 to index
          %v = memref.load %tile[%txi, %ty_jx] : !tile
          %r = arith.muli %y, %rows : i32
          %idx = arith.addi %r, %x_out : i32
          %idxx = arith.index_cast %idx : i32 to index
          memref.store %v, %out[%idxx] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
