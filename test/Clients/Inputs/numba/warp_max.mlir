module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z8warp_max5ArrayIfLi1E1A7mutable7alignedE5ArrayIfLi1E1A7mutable7alignedE(%arg0: memref<?xf32, strided<[?], offset: ?>>, %arg1: memref<?xf32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xf32, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>]} {
      %alloca = memref.alloca() : memref<1xf32>
      %alloca_0 = memref.alloca() : memref<1xi64>
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
      %c0_1 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0_1 : memref<?xf32, strided<[?], offset: ?>>
      %5 = arith.addi %3, %dim : index
      %6 = arith.select %4, %5, %3 : index
      %7 = memref.load %arg0[%6] : memref<?xf32, strided<[?], offset: ?>>
      %c0_2 = arith.constant 0 : index
      memref.store %7, %alloca[%c0_2] : memref<1xf32>
      %c1_i64_3 = arith.constant 1 : i64
      %c0_4 = arith.constant 0 : index
      memref.store %c1_i64_3, %alloca_0[%c0_4] : memref<1xi64>
      %c32_i64 = arith.constant 32 : i64
      %true = arith.constant true
      %true_5 = arith.constant true
      cf.br ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb1
      %c4294967295_i64 = arith.constant 4294967295 : i64
      %c0_6 = arith.constant 0 : index
      %8 = memref.load %alloca[%c0_6] : memref<1xf32>
      %c0_7 = arith.constant 0 : index
      %9 = memref.load %alloca_0[%c0_7] : memref<1xi64>
      %10 = arith.trunci %c4294967295_i64 : i64 to i32
      %11 = arith.trunci %9 : i64 to i32
      %c31_i32 = arith.constant 31 : i32
      %12 = nvvm.shfl.sync bfly %10, %8, %11, %c31_i32 : f32 -> f32
      %c0_8 = arith.constant 0 : index
      %13 = memref.load %alloca[%c0_8] : memref<1xf32>
      %14 = arith.maxnumf %13, %12 : f32
      %c0_9 = arith.constant 0 : index
      memref.store %14, %alloca[%c0_9] : memref<1xf32>
      %c2_i64 = arith.constant 2 : i64
      %c0_10 = arith.constant 0 : index
      %15 = memref.load %alloca_0[%c0_10] : memref<1xi64>
      %16 = arith.muli %15, %c2_i64 overflow<nsw> : i64
      %c0_11 = arith.constant 0 : index
      memref.store %16, %alloca_0[%c0_11] : memref<1xi64>
      %c32_i64_12 = arith.constant 32 : i64
      %17 = arith.cmpi slt, %16, %c32_i64_12 : i64
      cf.cond_br %17, ^bb1, ^bb2
    ^bb2:  // pred: ^bb1
      %18 = arith.index_cast %2 : i32 to index
      %c0_13 = arith.constant 0 : index
      %19 = arith.cmpi slt, %18, %c0_13 : index
      %c0_14 = arith.constant 0 : index
      %dim_15 = memref.dim %arg1, %c0_14 : memref<?xf32, strided<[?], offset: ?>>
      %20 = arith.addi %18, %dim_15 : index
      %21 = arith.select %19, %20, %18 : index
      memref.store %14, %arg1[%21] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    }
  }
}
