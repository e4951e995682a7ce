module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z9warp_scan5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE(%arg0: memref<?xi32, strided<[?], offset: ?>>, %arg1: memref<?xi32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>]} {
      %alloca = memref.alloca() : memref<1xi64>
      %alloca_0 = memref.alloca() : memref<1xi64>
      %alloca_1 = memref.alloca() : memref<1xi64>
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %3 = arith.index_cast %2 : i32 to index
      %c0 = arith.constant 0 : index
      %4 = arith.cmpi slt, %3, %c0 : index
      %c0_2 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0_2 : memref<?xi32, strided<[?], offset: ?>>
      %5 = arith.addi %3, %dim : index
      %6 = arith.select %4, %5, %3 : index
      %7 = memref.load %arg0[%6] : memref<?xi32, strided<[?], offset: ?>>
      %8 = arith.extsi %7 : i32 to i64
      %c0_3 = arith.constant 0 : index
      memref.store %8, %alloca[%c0_3] : memref<1xi64>
      %9 = nvvm.read.ptx.sreg.laneid : i32
      %c1_i64_4 = arith.constant 1 : i64
      %c0_5 = arith.constant 0 : index
      memref.store %c1_i64_4, %alloca_0[%c0_5] : memref<1xi64>
      %c32_i64 = arith.constant 32 : i64
      %true = arith.constant true
      %true_6 = arith.constant true
      cf.br ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb3
      %c0_7 = arith.constant 0 : index
      %10 = memref.load %alloca[%c0_7] : memref<1xi64>
      %c0_8 = arith.constant 0 : index
      memref.store %10, %alloca_1[%c0_8] : memref<1xi64>
      %c4294967295_i64 = arith.constant 4294967295 : i64
      %c0_9 = arith.constant 0 : index
      %11 = memref.load %alloca[%c0_9] : memref<1xi64>
      %c0_10 = arith.constant 0 : index
      %12 = memref.load %alloca_0[%c0_10] : memref<1xi64>
      %13 = arith.trunci %c4294967295_i64 : i64 to i32
      %14 = arith.trunci %12 : i64 to i32
      %15 = arith.trunci %11 : i64 to i32
      %c0_i32 = arith.constant 0 : i32
      %16 = nvvm.shfl.sync up %13, %15, %14, %c0_i32 : i32 -> i32
      %c0_11 = arith.constant 0 : index
      %17 = memref.load %alloca_0[%c0_11] : memref<1xi64>
      %18 = arith.extsi %9 : i32 to i64
      %19 = arith.cmpi sge, %18, %17 : i64
      cf.cond_br %19, ^bb2, ^bb3
    ^bb2:  // pred: ^bb1
      %c0_12 = arith.constant 0 : index
      %20 = memref.load %alloca[%c0_12] : memref<1xi64>
      %21 = arith.extsi %16 : i32 to i64
      %22 = arith.addi %20, %21 overflow<nsw> : i64
      %c0_13 = arith.constant 0 : index
      memref.store %22, %alloca_1[%c0_13] : memref<1xi64>
      cf.br ^bb3
    ^bb3:  // 2 preds: ^bb1, ^bb2
      %c0_14 = arith.constant 0 : index
      %23 = memref.load %alloca_1[%c0_14] : memref<1xi64>
      %c0_15 = arith.constant 0 : index
      memref.store %23, %alloca[%c0_15] : memref<1xi64>
      %c2_i64 = arith.constant 2 : i64
      %c0_16 = arith.constant 0 : index
      %24 = memref.load %alloca_0[%c0_16] : memref<1xi64>
      %25 = arith.muli %24, %c2_i64 overflow<nsw> : i64
      %c0_17 = arith.constant 0 : index
      memref.store %25, %alloca_0[%c0_17] : memref<1xi64>
      %c32_i64_18 = arith.constant 32 : i64
      %26 = arith.cmpi slt, %25, %c32_i64_18 : i64
      cf.cond_br %26, ^bb1, ^bb4
    ^bb4:  // pred: ^bb3
      %c0_19 = arith.constant 0 : index
      %27 = memref.load %alloca_1[%c0_19] : memref<1xi64>
      %28 = arith.index_cast %2 : i32 to index
      %c0_20 = arith.constant 0 : index
      %29 = arith.cmpi slt, %28, %c0_20 : index
      %c0_21 = arith.constant 0 : index
      %dim_22 = memref.dim %arg1, %c0_21 : memref<?xi32, strided<[?], offset: ?>>
      %30 = arith.addi %28, %dim_22 : index
      %31 = arith.select %29, %30, %28 : index
      %32 = arith.trunci %27 : i64 to i32
      memref.store %32, %arg1[%31] : memref<?xi32, strided<[?], offset: ?>>
      gpu.return
    }
  }
}
