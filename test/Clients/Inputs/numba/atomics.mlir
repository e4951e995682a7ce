module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z7atomics5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE(%arg0: memref<?xi32, strided<[?], offset: ?>>, %arg1: memref<?xi32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>]} {
      %c1_i64 = arith.constant 1 : i64
      %thread_id_x = gpu.thread_id x
      %block_dim_x = gpu.block_dim x
      %block_id_x = gpu.block_id x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %1 = arith.addi %0, %thread_id_x : index
      %2 = arith.index_cast %1 : index to i32
      %c0 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0 : memref<?xi32, strided<[?], offset: ?>>
      %c1 = arith.constant 1 : index
      %3 = arith.muli %c1, %dim : index
      %4 = arith.extsi %2 : i32 to i64
      %5 = arith.index_cast %3 : index to i64
      %6 = arith.cmpi slt, %4, %5 : i64
      cf.cond_br %6, ^bb1, ^bb2
    ^bb1:  // pred: ^bb0
      %c0_i64 = arith.constant 0 : i64
      %7 = arith.index_cast %2 : i32 to index
      %c0_0 = arith.constant 0 : index
      %8 = arith.cmpi slt, %7, %c0_0 : index
      %c0_1 = arith.constant 0 : index
      %dim_2 = memref.dim %arg0, %c0_1 : memref<?xi32, strided<[?], offset: ?>>
      %9 = arith.addi %7, %dim_2 : index
      %10 = arith.select %8, %9, %7 : index
      %11 = memref.load %arg0[%10] : memref<?xi32, strided<[?], offset: ?>>
      %12 = arith.index_cast %c0_i64 : i64 to index
      %13 = builtin.unrealized_conversion_cast %arg1 : memref<?xi32, strided<[?], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %14 = llvm.extractvalue %13[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %15 = llvm.extractvalue %13[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %c4_i64 = arith.constant 4 : i64
      %16 = arith.muli %15, %c4_i64 : i64
      %17 = llvm.getelementptr %14[%16] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %18 = llvm.addrspacecast %17 : !llvm.ptr to !llvm.ptr<1>
      %base_buffer, %offset, %sizes, %strides = memref.extract_strided_metadata %arg1 : memref<?xi32, strided<[?], offset: ?>> -> memref<i32>, index, index, index
      %c0_i64_3 = arith.constant 0 : i64
      %19 = arith.index_cast %12 : index to i64
      %20 = arith.index_cast %strides : index to i64
      %21 = arith.muli %19, %20 : i64
      %22 = arith.addi %c0_i64_3, %21 : i64
      %23 = llvm.getelementptr %18[%22] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %24 = llvm.atomicrmw max %23, %11 monotonic : !llvm.ptr<1>, i32
      %c1_i64_4 = arith.constant 1 : i64
      %25 = arith.index_cast %2 : i32 to index
      %c0_5 = arith.constant 0 : index
      %26 = arith.cmpi slt, %25, %c0_5 : index
      %c0_6 = arith.constant 0 : index
      %dim_7 = memref.dim %arg0, %c0_6 : memref<?xi32, strided<[?], offset: ?>>
      %27 = arith.addi %25, %dim_7 : index
      %28 = arith.select %26, %27, %25 : index
      %29 = memref.load %arg0[%28] : memref<?xi32, strided<[?], offset: ?>>
      %30 = arith.index_cast %c1_i64_4 : i64 to index
      %31 = builtin.unrealized_conversion_cast %arg1 : memref<?xi32, strided<[?], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %32 = llvm.extractvalue %31[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %33 = llvm.extractvalue %31[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %c4_i64_8 = arith.constant 4 : i64
      %34 = arith.muli %33, %c4_i64_8 : i64
      %35 = llvm.getelementptr %32[%34] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %36 = llvm.addrspacecast %35 : !llvm.ptr to !llvm.ptr<1>
      %base_buffer_9, %offset_10, %sizes_11, %strides_12 = memref.extract_strided_metadata %arg1 : memref<?xi32, strided<[?], offset: ?>> -> memref<i32>, index, index, index
      %c0_i64_13 = arith.constant 0 : i64
      %37 = arith.index_cast %30 : index to i64
      %38 = arith.index_cast %strides_12 : index to i64
      %39 = arith.muli %37, %38 : i64
      %40 = arith.addi %c0_i64_13, %39 : i64
      %41 = llvm.getelementptr %36[%40] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %42 = llvm.atomicrmw min %41, %29 monotonic : !llvm.ptr<1>, i32
      %c2_i64 = arith.constant 2 : i64
      %43 = arith.index_cast %2 : i32 to index
      %c0_14 = arith.constant 0 : index
      %44 = arith.cmpi slt, %43, %c0_14 : index
      %c0_15 = arith.constant 0 : index
      %dim_16 = memref.dim %arg0, %c0_15 : memref<?xi32, strided<[?], offset: ?>>
      %45 = arith.addi %43, %dim_16 : index
      %46 = arith.select %44, %45, %43 : index
      %47 = memref.load %arg0[%46] : memref<?xi32, strided<[?], offset: ?>>
      %48 = arith.index_cast %c2_i64 : i64 to index
      %49 = builtin.unrealized_conversion_cast %arg1 : memref<?xi32, strided<[?], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %50 = llvm.extractvalue %49[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %51 = llvm.extractvalue %49[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %c4_i64_17 = arith.constant 4 : i64
      %52 = arith.muli %51, %c4_i64_17 : i64
      %53 = llvm.getelementptr %50[%52] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %54 = llvm.addrspacecast %53 : !llvm.ptr to !llvm.ptr<1>
      %base_buffer_18, %offset_19, %sizes_20, %strides_21 = memref.extract_strided_metadata %arg1 : memref<?xi32, strided<[?], offset: ?>> -> memref<i32>, index, index, index
      %c0_i64_22 = arith.constant 0 : i64
      %55 = arith.index_cast %48 : index to i64
      %56 = arith.index_cast %strides_21 : index to i64
      %57 = arith.muli %55, %56 : i64
      %58 = arith.addi %c0_i64_22, %57 : i64
      %59 = llvm.getelementptr %54[%58] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %60 = llvm.atomicrmw add %59, %47 monotonic : !llvm.ptr<1>, i32
      gpu.return
    ^bb2:  // pred: ^bb0
      gpu.return
    }
  }
}
