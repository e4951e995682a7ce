// histogram, form global_id: the base kernel with the grid-stride loop
// starting at gpu.global_id x instead of block x dim + thread.
module attributes {gpu.container_module} {
  gpu.module @histogram {
    gpu.func @histogram(%n: index, %in: memref<?xi8>, %hist: memref<256xi32>)
        workgroup(%local: memref<256xi32, #gpu.address_space<workgroup>>)
        kernel {
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0 : i32
      %one = arith.constant 1 : i32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %gdim = gpu.grid_dim x
      %tid = gpu.thread_id x
      scf.for %b = %tid to %c256 step %bdim {
        memref.store %zero, %local[%b]
            : memref<256xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %start = gpu.global_id x
      %stride = arith.muli %gdim, %bdim : index
      scf.for %i = %start to %n step %stride {
        %byte = memref.load %in[%i] : memref<?xi8>
        %bin_i32 = arith.extui %byte : i8 to i32
        %bin = arith.index_cast %bin_i32 : i32 to index
        %old = memref.atomic_rmw addi %one, %local[%bin]
            : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
      }
      gpu.barrier
      scf.for %b = %tid to %c256 step %bdim {
        %count = memref.load %local[%b]
            : memref<256xi32, #gpu.address_space<workgroup>>
        %nonzero = arith.cmpi ne, %count, %zero : i32
        scf.if %nonzero {
          %old = memref.atomic_rmw addi %count, %hist[%b]
              : (i32, memref<256xi32>) -> i32
        }
      }
      gpu.return
    }
  }
}
