module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z14warp_broadcast5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE(%arg0: memref<?xf32, strided<[?], offset: ?>>, %arg1: memref<?xf32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>]} {
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %c4294967295_i64 = arith.constant 4294967295 : i64
      %3 = arith.index_cast %2 : i32 to index
      %c0 = arith.constant 0 : index
      %4 = arith.cmpi slt, %3, %c0 : index
      %c0_0 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0_0 : memref<?xf32, strided<[?], offset: ?>>
      %5 = arith.addi %3, %dim : index
      %6 = arith.select %4, %5, %3 : index
      %7 = memref.load %arg0[%6] : memref<?xf32, strided<[?], offset: ?>>
      %c3_i64 = arith.constant 3 : i64
      %8 = arith.trunci %c4294967295_i64 : i64 to i32
      %9 = arith.trunci %c3_i64 : i64 to i32
      %c31_i32 = arith.constant 31 : i32
      %10 = nvvm.shfl.sync idx %8, %7, %9, %c31_i32 : f32 -> f32
      %11 = arith.index_cast %2 : i32 to index
      %c0_1 = arith.constant 0 : index
      %12 = arith.cmpi slt, %11, %c0_1 : index
      %c0_2 = arith.constant 0 : index
      %dim_3 = memref.dim %arg1, %c0_2 : memref<?xf32, strided<[?], offset: ?>>
      %13 = arith.addi %11, %dim_3 : index
      %14 = arith.select %12, %13, %11 : index
      memref.store %10, %arg1[%14] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    }
  }
}
