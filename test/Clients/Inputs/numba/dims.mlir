module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z4dims5ArrayIiLi1E1A7mutable7alignedE(%arg0: memref<?xi32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}], numba_cuda_mlir.orig_arg_types = [memref<?xi32, strided<[?], offset: ?>>]} {
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %block_dim_x_0 = gpu.block_dim x
      %3 = arith.index_cast %block_dim_x_0 : index to i32
      %c1000_i64 = arith.constant 1000 : i64
      %4 = arith.extsi %3 : i32 to i64
      %5 = arith.muli %4, %c1000_i64 overflow<nsw> : i64
      %grid_dim_x = gpu.grid_dim x
      %6 = arith.index_cast %grid_dim_x : index to i32
      %c100_i64 = arith.constant 100 : i64
      %7 = arith.extsi %6 : i32 to i64
      %8 = arith.muli %7, %c100_i64 overflow<nsw> : i64
      %9 = arith.addi %5, %8 overflow<nsw> : i64
      %thread_id_x_1 = gpu.thread_id x
      %10 = arith.index_cast %thread_id_x_1 : index to i32
      %11 = arith.extsi %10 : i32 to i64
      %12 = arith.addi %9, %11 overflow<nsw> : i64
      %13 = nvvm.read.ptx.sreg.warpsize : i32
      %14 = arith.extsi %13 : i32 to i64
      %15 = arith.addi %12, %14 overflow<nsw> : i64
      %16 = arith.index_cast %2 : i32 to index
      %c0 = arith.constant 0 : index
      %17 = arith.cmpi slt, %16, %c0 : index
      %c0_2 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0_2 : memref<?xi32, strided<[?], offset: ?>>
      %18 = arith.addi %16, %dim : index
      %19 = arith.select %17, %18, %16 : index
      %20 = arith.trunci %15 : i64 to i32
      memref.store %20, %arg0[%19] : memref<?xi32, strided<[?], offset: ?>>
      gpu.return
    }
  }
}
