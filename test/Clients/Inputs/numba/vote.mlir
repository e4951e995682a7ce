module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z4vote5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE(%arg0: memref<?xi32, strided<[?], offset: ?>>, %arg1: memref<?xi32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>]} {
      %alloca = memref.alloca() : memref<1xi64>
      %alloca_0 = memref.alloca() : memref<1xi64>
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
      %c0_1 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0_1 : memref<?xi32, strided<[?], offset: ?>>
      %5 = arith.addi %3, %dim : index
      %6 = arith.select %4, %5, %3 : index
      %7 = memref.load %arg0[%6] : memref<?xi32, strided<[?], offset: ?>>
      %c0_i64 = arith.constant 0 : i64
      %8 = arith.extsi %7 : i32 to i64
      %9 = arith.cmpi sgt, %8, %c0_i64 : i64
      %10 = arith.trunci %c4294967295_i64 : i64 to i32
      %11 = nvvm.vote.sync ballot %10, %9 -> i32
      %c4294967295_i64_2 = arith.constant 4294967295 : i64
      %12 = arith.index_cast %2 : i32 to index
      %c0_3 = arith.constant 0 : index
      %13 = arith.cmpi slt, %12, %c0_3 : index
      %c0_4 = arith.constant 0 : index
      %dim_5 = memref.dim %arg0, %c0_4 : memref<?xi32, strided<[?], offset: ?>>
      %14 = arith.addi %12, %dim_5 : index
      %15 = arith.select %13, %14, %12 : index
      %16 = memref.load %arg0[%15] : memref<?xi32, strided<[?], offset: ?>>
      %c0_i64_6 = arith.constant 0 : i64
      %17 = arith.extsi %16 : i32 to i64
      %18 = arith.cmpi sgt, %17, %c0_i64_6 : i64
      %19 = arith.trunci %c4294967295_i64_2 : i64 to i32
      %20 = nvvm.vote.sync any %19, %18 -> i1
      %c4294967295_i64_7 = arith.constant 4294967295 : i64
      %21 = arith.index_cast %2 : i32 to index
      %c0_8 = arith.constant 0 : index
      %22 = arith.cmpi slt, %21, %c0_8 : index
      %c0_9 = arith.constant 0 : index
      %dim_10 = memref.dim %arg0, %c0_9 : memref<?xi32, strided<[?], offset: ?>>
      %23 = arith.addi %21, %dim_10 : index
      %24 = arith.select %22, %23, %21 : index
      %25 = memref.load %arg0[%24] : memref<?xi32, strided<[?], offset: ?>>
      %c0_i64_11 = arith.constant 0 : i64
      %26 = arith.extsi %25 : i32 to i64
      %27 = arith.cmpi sgt, %26, %c0_i64_11 : i64
      %28 = arith.trunci %c4294967295_i64_7 : i64 to i32
      %29 = nvvm.vote.sync all %28, %27 -> i1
      cf.cond_br %20, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %c1_i64_12 = arith.constant 1 : i64
      %c0_13 = arith.constant 0 : index
      memref.store %c1_i64_12, %alloca[%c0_13] : memref<1xi64>
      cf.br ^bb3
    ^bb2:  // pred: ^bb0
      %c0_i64_14 = arith.constant 0 : i64
      %c0_15 = arith.constant 0 : index
      memref.store %c0_i64_14, %alloca[%c0_15] : memref<1xi64>
      cf.br ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      %c0_16 = arith.constant 0 : index
      %30 = memref.load %alloca[%c0_16] : memref<1xi64>
      %31 = arith.extui %11 : i32 to i64
      %32 = arith.addi %31, %30 overflow<nsw> : i64
      cf.cond_br %29, ^bb4, ^bb5
    ^bb4:  // pred: ^bb3
      %c2_i64 = arith.constant 2 : i64
      %c0_17 = arith.constant 0 : index
      memref.store %c2_i64, %alloca_0[%c0_17] : memref<1xi64>
      cf.br ^bb6
    ^bb5:  // pred: ^bb3
      %c0_i64_18 = arith.constant 0 : i64
      %c0_19 = arith.constant 0 : index
      memref.store %c0_i64_18, %alloca_0[%c0_19] : memref<1xi64>
      cf.br ^bb6
    ^bb6:  // 2 preds: ^bb4, ^bb5
      %c0_20 = arith.constant 0 : index
      %33 = memref.load %alloca_0[%c0_20] : memref<1xi64>
      %34 = arith.addi %32, %33 overflow<nsw> : i64
      %35 = arith.index_cast %2 : i32 to index
      %c0_21 = arith.constant 0 : index
      %36 = arith.cmpi slt, %35, %c0_21 : index
      %c0_22 = arith.constant 0 : index
      %dim_23 = memref.dim %arg1, %c0_22 : memref<?xi32, strided<[?], offset: ?>>
      %37 = arith.addi %35, %dim_23 : index
      %38 = arith.select %36, %37, %35 : index
      %39 = arith.trunci %34 : i64 to i32
      memref.store %39, %arg1[%38] : memref<?xi32, strided<[?], offset: ?>>
      gpu.return
    }
  }
}
