module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z9block_sum5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE(%arg0: memref<?xf32, strided<[?], offset: ?>>, %arg1: memref<?xf32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>]} {
      %alloca = memref.alloca() : memref<1xf64>
      %alloca_0 = memref.alloca() : memref<1xi64>
      %c128_i64 = arith.constant 128 : i64
      %cst = arith.constant 0.000000e+00 : f32
      %0 = memref.get_global @static_shared_memory_0 : memref<128xf32, #gpu.address_space<workgroup>>
      %thread_id_x = gpu.thread_id x
      %1 = arith.index_cast %thread_id_x : index to i32
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x_1 = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %2 = arith.muli %block_id_x, %block_dim_x : index
      %3 = arith.addi %2, %thread_id_x_1 : index
      %4 = arith.index_cast %3 : index to i32
      %c0 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0 : memref<?xf32, strided<[?], offset: ?>>
      %c1 = arith.constant 1 : index
      %5 = arith.muli %c1, %dim : index
      %6 = arith.extsi %4 : i32 to i64
      %7 = arith.index_cast %5 : index to i64
      %8 = arith.cmpi slt, %6, %7 : i64
      cf.cond_br %8, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %9 = arith.index_cast %4 : i32 to index
      %c0_2 = arith.constant 0 : index
      %10 = arith.cmpi slt, %9, %c0_2 : index
      %c0_3 = arith.constant 0 : index
      %dim_4 = memref.dim %arg0, %c0_3 : memref<?xf32, strided<[?], offset: ?>>
      %11 = arith.addi %9, %dim_4 : index
      %12 = arith.select %10, %11, %9 : index
      %13 = memref.load %arg0[%12] : memref<?xf32, strided<[?], offset: ?>>
      %14 = arith.extf %13 : f32 to f64
      %c0_5 = arith.constant 0 : index
      memref.store %14, %alloca[%c0_5] : memref<1xf64>
      cf.br ^bb3
    ^bb2:  // pred: ^bb0
      %cst_6 = arith.constant 0.000000e+00 : f64
      %c0_7 = arith.constant 0 : index
      memref.store %cst_6, %alloca[%c0_7] : memref<1xf64>
      cf.br ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      %15 = arith.index_cast %1 : i32 to index
      %c0_8 = arith.constant 0 : index
      %16 = arith.cmpi slt, %15, %c0_8 : index
      %c0_9 = arith.constant 0 : index
      %dim_10 = memref.dim %0, %c0_9 : memref<128xf32, #gpu.address_space<workgroup>>
      %17 = arith.addi %15, %dim_10 : index
      %18 = arith.select %16, %17, %15 : index
      %c0_11 = arith.constant 0 : index
      %19 = memref.load %alloca[%c0_11] : memref<1xf64>
      %20 = arith.truncf %19 : f64 to f32
      memref.store %20, %0[%18] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c64_i64 = arith.constant 64 : i64
      %c0_12 = arith.constant 0 : index
      memref.store %c64_i64, %alloca_0[%c0_12] : memref<1xi64>
      %c0_i64 = arith.constant 0 : i64
      %true = arith.constant true
      %true_13 = arith.constant true
      cf.br ^bb4
    ^bb4:  // 2 preds: ^bb3, ^bb6
      %c0_14 = arith.constant 0 : index
      %21 = memref.load %alloca_0[%c0_14] : memref<1xi64>
      %22 = arith.extsi %1 : i32 to i64
      %23 = arith.cmpi slt, %22, %21 : i64
      cf.cond_br %23, ^bb5, ^bb6
    ^bb5:  // pred: ^bb4
      %24 = arith.index_cast %1 : i32 to index
      %c0_15 = arith.constant 0 : index
      %25 = arith.cmpi slt, %24, %c0_15 : index
      %c0_16 = arith.constant 0 : index
      %dim_17 = memref.dim %0, %c0_16 : memref<128xf32, #gpu.address_space<workgroup>>
      %26 = arith.addi %24, %dim_17 : index
      %27 = arith.select %25, %26, %24 : index
      %28 = memref.load %0[%27] : memref<128xf32, #gpu.address_space<workgroup>>
      %c0_18 = arith.constant 0 : index
      %29 = memref.load %alloca_0[%c0_18] : memref<1xi64>
      %30 = arith.extsi %1 : i32 to i64
      %31 = arith.addi %30, %29 overflow<nsw> : i64
      %32 = arith.index_cast %31 : i64 to index
      %c0_19 = arith.constant 0 : index
      %33 = arith.cmpi slt, %32, %c0_19 : index
      %c0_20 = arith.constant 0 : index
      %dim_21 = memref.dim %0, %c0_20 : memref<128xf32, #gpu.address_space<workgroup>>
      %34 = arith.addi %32, %dim_21 : index
      %35 = arith.select %33, %34, %32 : index
      %36 = memref.load %0[%35] : memref<128xf32, #gpu.address_space<workgroup>>
      %37 = arith.addf %28, %36 : f32
      %38 = arith.index_cast %1 : i32 to index
      %c0_22 = arith.constant 0 : index
      %39 = arith.cmpi slt, %38, %c0_22 : index
      %c0_23 = arith.constant 0 : index
      %dim_24 = memref.dim %0, %c0_23 : memref<128xf32, #gpu.address_space<workgroup>>
      %40 = arith.addi %38, %dim_24 : index
      %41 = arith.select %39, %40, %38 : index
      memref.store %37, %0[%41] : memref<128xf32, #gpu.address_space<workgroup>>
      cf.br ^bb6
    ^bb6:  // 2 preds: ^bb4, ^bb5
      gpu.barrier
      %c2_i64 = arith.constant 2 : i64
      %c0_25 = arith.constant 0 : index
      %42 = memref.load %alloca_0[%c0_25] : memref<1xi64>
      %43 = arith.floordivsi %42, %c2_i64 : i64
      %c0_26 = arith.constant 0 : index
      memref.store %43, %alloca_0[%c0_26] : memref<1xi64>
      %c0_i64_27 = arith.constant 0 : i64
      %44 = arith.cmpi sgt, %43, %c0_i64_27 : i64
      cf.cond_br %44, ^bb4, ^bb7
    ^bb7:  // pred: ^bb6
      %c0_i64_28 = arith.constant 0 : i64
      %45 = arith.extsi %1 : i32 to i64
      %46 = arith.cmpi eq, %45, %c0_i64_28 : i64
      cf.cond_br %46, ^bb8, ^bb9
    ^bb8:  // pred: ^bb7
      %c0_i64_29 = arith.constant 0 : i64
      %47 = arith.index_cast %c0_i64_29 : i64 to index
      %c0_30 = arith.constant 0 : index
      %48 = arith.cmpi slt, %47, %c0_30 : index
      %c0_31 = arith.constant 0 : index
      %dim_32 = memref.dim %0, %c0_31 : memref<128xf32, #gpu.address_space<workgroup>>
      %49 = arith.addi %47, %dim_32 : index
      %50 = arith.select %48, %49, %47 : index
      %51 = memref.load %0[%50] : memref<128xf32, #gpu.address_space<workgroup>>
      %block_id_x_33 = gpu.block_id x
      %52 = arith.index_cast %block_id_x_33 : index to i32
      %53 = arith.index_cast %52 : i32 to index
      %c0_34 = arith.constant 0 : index
      %54 = arith.cmpi slt, %53, %c0_34 : index
      %c0_35 = arith.constant 0 : index
      %dim_36 = memref.dim %arg1, %c0_35 : memref<?xf32, strided<[?], offset: ?>>
      %55 = arith.addi %53, %dim_36 : index
      %56 = arith.select %54, %55, %53 : index
      memref.store %51, %arg1[%56] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    ^bb9:  // pred: ^bb7
      gpu.return
    }
    memref.global "private" @static_shared_memory_0 : memref<128xf32, #gpu.address_space<workgroup>> {alignment = 8 : i64}
  }
}
