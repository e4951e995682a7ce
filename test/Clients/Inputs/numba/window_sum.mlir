module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z10window_sum5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE(%arg0: memref<?xf32, strided<[?], offset: ?>>, %arg1: memref<?xf32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>]} {
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %c4_i64 = arith.constant 4 : i64
      %3 = arith.extsi %2 : i32 to i64
      %4 = arith.muli %3, %c4_i64 overflow<nsw> : i64
      %c4_i64_0 = arith.constant 4 : i64
      %5 = arith.extsi %2 : i32 to i64
      %6 = arith.muli %5, %c4_i64_0 overflow<nsw> : i64
      %c4_i64_1 = arith.constant 4 : i64
      %7 = arith.addi %6, %c4_i64_1 overflow<nsw> : i64
      %8 = arith.index_cast %4 : i64 to index
      %9 = arith.index_cast %7 : i64 to index
      %c1 = arith.constant 1 : index
      %10 = arith.subi %9, %8 : index
      %11 = arith.floordivsi %10, %c1 : index
      %subview = memref.subview %arg0[%8] [%11] [1] : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
      %c0_i64 = arith.constant 0 : i64
      %12 = arith.index_cast %c0_i64 : i64 to index
      %c0 = arith.constant 0 : index
      %13 = arith.cmpi slt, %12, %c0 : index
      %c0_2 = arith.constant 0 : index
      %dim = memref.dim %subview, %c0_2 : memref<?xf32, strided<[?], offset: ?>>
      %14 = arith.addi %12, %dim : index
      %15 = arith.select %13, %14, %12 : index
      %16 = memref.load %subview[%15] : memref<?xf32, strided<[?], offset: ?>>
      %c1_i64_3 = arith.constant 1 : i64
      %17 = arith.index_cast %c1_i64_3 : i64 to index
      %c0_4 = arith.constant 0 : index
      %18 = arith.cmpi slt, %17, %c0_4 : index
      %c0_5 = arith.constant 0 : index
      %dim_6 = memref.dim %subview, %c0_5 : memref<?xf32, strided<[?], offset: ?>>
      %19 = arith.addi %17, %dim_6 : index
      %20 = arith.select %18, %19, %17 : index
      %21 = memref.load %subview[%20] : memref<?xf32, strided<[?], offset: ?>>
      %22 = arith.addf %16, %21 : f32
      %c2_i64 = arith.constant 2 : i64
      %23 = arith.index_cast %c2_i64 : i64 to index
      %c0_7 = arith.constant 0 : index
      %24 = arith.cmpi slt, %23, %c0_7 : index
      %c0_8 = arith.constant 0 : index
      %dim_9 = memref.dim %subview, %c0_8 : memref<?xf32, strided<[?], offset: ?>>
      %25 = arith.addi %23, %dim_9 : index
      %26 = arith.select %24, %25, %23 : index
      %27 = memref.load %subview[%26] : memref<?xf32, strided<[?], offset: ?>>
      %28 = arith.addf %22, %27 : f32
      %c3_i64 = arith.constant 3 : i64
      %29 = arith.index_cast %c3_i64 : i64 to index
      %c0_10 = arith.constant 0 : index
      %30 = arith.cmpi slt, %29, %c0_10 : index
      %c0_11 = arith.constant 0 : index
      %dim_12 = memref.dim %subview, %c0_11 : memref<?xf32, strided<[?], offset: ?>>
      %31 = arith.addi %29, %dim_12 : index
      %32 = arith.select %30, %31, %29 : index
      %33 = memref.load %subview[%32] : memref<?xf32, strided<[?], offset: ?>>
      %34 = arith.addf %28, %33 : f32
      %35 = arith.index_cast %2 : i32 to index
      %c0_13 = arith.constant 0 : index
      %36 = arith.cmpi slt, %35, %c0_13 : index
      %c0_14 = arith.constant 0 : index
      %dim_15 = memref.dim %arg1, %c0_14 : memref<?xf32, strided<[?], offset: ?>>
      %37 = arith.addi %35, %dim_15 : index
      %38 = arith.select %36, %37, %35 : index
      memref.store %34, %arg1[%38] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    }
  }
}
