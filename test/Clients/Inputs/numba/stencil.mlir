module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z7stencil5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE(%arg0: memref<?xf32, strided<[?], offset: ?>>, %arg1: memref<?xf32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>]} {
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %c1_i64_0 = arith.constant 1 : i64
      %3 = arith.extsi %2 : i32 to i64
      %4 = arith.cmpi sge, %3, %c1_i64_0 : i64
      cf.cond_br %4, ^bb1, ^bb3
    ^bb1:  // pred: ^bb0
      %c0 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0 : memref<?xf32, strided<[?], offset: ?>>
      %c1 = arith.constant 1 : index
      %5 = arith.muli %c1, %dim : index
      %c1_i64_1 = arith.constant 1 : i64
      %6 = arith.index_cast %5 : index to i64
      %7 = arith.subi %6, %c1_i64_1 overflow<nsw> : i64
      %8 = arith.extsi %2 : i32 to i64
      %9 = arith.cmpi slt, %8, %7 : i64
      cf.cond_br %9, ^bb2, ^bb4
    ^bb2:  // pred: ^bb1
      %cst = arith.constant 2.500000e-01 : f64
      %c1_i64_2 = arith.constant 1 : i64
      %10 = arith.extsi %2 : i32 to i64
      %11 = arith.subi %10, %c1_i64_2 overflow<nsw> : i64
      %12 = arith.index_cast %11 : i64 to index
      %c0_3 = arith.constant 0 : index
      %13 = arith.cmpi slt, %12, %c0_3 : index
      %c0_4 = arith.constant 0 : index
      %dim_5 = memref.dim %arg0, %c0_4 : memref<?xf32, strided<[?], offset: ?>>
      %14 = arith.addi %12, %dim_5 : index
      %15 = arith.select %13, %14, %12 : index
      %16 = memref.load %arg0[%15] : memref<?xf32, strided<[?], offset: ?>>
      %17 = arith.extf %16 : f32 to f64
      %18 = arith.mulf %cst, %17 : f64
      %cst_6 = arith.constant 5.000000e-01 : f64
      %19 = arith.index_cast %2 : i32 to index
      %c0_7 = arith.constant 0 : index
      %20 = arith.cmpi slt, %19, %c0_7 : index
      %c0_8 = arith.constant 0 : index
      %dim_9 = memref.dim %arg0, %c0_8 : memref<?xf32, strided<[?], offset: ?>>
      %21 = arith.addi %19, %dim_9 : index
      %22 = arith.select %20, %21, %19 : index
      %23 = memref.load %arg0[%22] : memref<?xf32, strided<[?], offset: ?>>
      %24 = arith.extf %23 : f32 to f64
      %25 = arith.mulf %cst_6, %24 : f64
      %26 = arith.addf %18, %25 : f64
      %cst_10 = arith.constant 2.500000e-01 : f64
      %c1_i64_11 = arith.constant 1 : i64
      %27 = arith.extsi %2 : i32 to i64
      %28 = arith.addi %27, %c1_i64_11 overflow<nsw> : i64
      %29 = arith.index_cast %28 : i64 to index
      %c0_12 = arith.constant 0 : index
      %30 = arith.cmpi slt, %29, %c0_12 : index
      %c0_13 = arith.constant 0 : index
      %dim_14 = memref.dim %arg0, %c0_13 : memref<?xf32, strided<[?], offset: ?>>
      %31 = arith.addi %29, %dim_14 : index
      %32 = arith.select %30, %31, %29 : index
      %33 = memref.load %arg0[%32] : memref<?xf32, strided<[?], offset: ?>>
      %34 = arith.extf %33 : f32 to f64
      %35 = arith.mulf %cst_10, %34 : f64
      %36 = arith.addf %26, %35 : f64
      %37 = arith.index_cast %2 : i32 to index
      %c0_15 = arith.constant 0 : index
      %38 = arith.cmpi slt, %37, %c0_15 : index
      %c0_16 = arith.constant 0 : index
      %dim_17 = memref.dim %arg1, %c0_16 : memref<?xf32, strided<[?], offset: ?>>
      %39 = arith.addi %37, %dim_17 : index
      %40 = arith.select %38, %39, %37 : index
      %41 = arith.truncf %36 : f64 to f32
      memref.store %41, %arg1[%40] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    ^bb3:  // pred: ^bb0
      gpu.return
    ^bb4:  // pred: ^bb1
      gpu.return
    }
  }
}
