module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z4vadd5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE(%arg0: memref<?xf32, strided<[?], offset: ?>>, %arg1: memref<?xf32, strided<[?], offset: ?>>, %arg2: memref<?xf32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>]} {
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %c0 = arith.constant 0 : index
      %dim = memref.dim %arg2, %c0 : memref<?xf32, strided<[?], offset: ?>>
      %c1 = arith.constant 1 : index
      %3 = arith.muli %c1, %dim : index
      %4 = arith.extsi %2 : i32 to i64
      %5 = arith.index_cast %3 : index to i64
      %6 = arith.cmpi slt, %4, %5 : i64
      cf.cond_br %6, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %7 = arith.index_cast %2 : i32 to index
      %c0_0 = arith.constant 0 : index
      %8 = arith.cmpi slt, %7, %c0_0 : index
      %c0_1 = arith.constant 0 : index
      %dim_2 = memref.dim %arg0, %c0_1 : memref<?xf32, strided<[?], offset: ?>>
      %9 = arith.addi %7, %dim_2 : index
      %10 = arith.select %8, %9, %7 : index
      %11 = memref.load %arg0[%10] : memref<?xf32, strided<[?], offset: ?>>
      %12 = arith.index_cast %2 : i32 to index
      %c0_3 = arith.constant 0 : index
      %13 = arith.cmpi slt, %12, %c0_3 : index
      %c0_4 = arith.constant 0 : index
      %dim_5 = memref.dim %arg1, %c0_4 : memref<?xf32, strided<[?], offset: ?>>
      %14 = arith.addi %12, %dim_5 : index
      %15 = arith.select %13, %14, %12 : index
      %16 = memref.load %arg1[%15] : memref<?xf32, strided<[?], offset: ?>>
      %17 = arith.addf %11, %16 : f32
      %18 = arith.index_cast %2 : i32 to index
      %c0_6 = arith.constant 0 : index
      %19 = arith.cmpi slt, %18, %c0_6 : index
      %c0_7 = arith.constant 0 : index
      %dim_8 = memref.dim %arg2, %c0_7 : memref<?xf32, strided<[?], offset: ?>>
      %20 = arith.addi %18, %dim_8 : index
      %21 = arith.select %19, %20, %18 : index
      memref.store %17, %arg2[%21] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    ^bb2:  // pred: ^bb0
      gpu.return
    }
  }
}
