// histogram, form i32: the base kernel with a 32-bit n and index arithmetic
// (int in CUDA C), cast to index at the accesses.
!local = memref<256xi32, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @histogram {
    gpu.func @histogram(%n: i32, %in: memref<?xi8>, %hist: memref<256xi32>)
        workgroup(%local: !local) kernel {
      %c256 = arith.constant 256 : i32
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %bidx = gpu.block_id x
      %bdimx = gpu.block_dim x
      %gdimx = gpu.grid_dim x
      %tidx = gpu.thread_id x
      %bid = arith.index_cast %bidx : index to i32
      %bdim = arith.index_cast %bdimx : index to i32
      %gdim = arith.index_cast %gdimx : index to i32
      %tid = arith.index_cast %tidx : index to i32
      scf.for %b = %tid to %c256 step %bdim : i32 {
        %bx = arith.index_cast %b : i32 to index
        memref.store %zero, %local[%bx] : !local
      }
      gpu.barrier
      %base = arith.muli %bid, %bdim : i32
      %start = arith.addi %base, %tid : i32
      %stride = arith.muli %gdim, %bdim : i32
      scf.for %i = %start to %n step %stride : i32 {
        %ix = arith.index_cast %i : i32 to index
        %byte = memref.load %in[%ix] : memref<?xi8>
        %bin_i32 = arith.extui %byte : i8 to i32
        %bin = arith.index_cast %bin_i32 : i32 to index
        %old = memref.atomic_rmw addi %one, %local[%bin]
            : (i32, !local) -> i32
      }
      gpu.barrier
      scf.for %b = %tid to %c256 step %bdim : i32 {
        %bx = arith.index_cast %b : i32 to index
        %count = memref.load %local[%bx] : !local
        %nonzero = arith.cmpi ne, %count, %zero : i32
        scf.if %nonzero {
          %old = memref.atomic_rmw addi %count, %hist[%bx]
              : (i32, memref<256xi32>) -> i32
        }
      }
      gpu.return
    }
  }
}
