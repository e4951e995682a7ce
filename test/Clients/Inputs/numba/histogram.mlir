module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z9histogram5ArrayIiLi1E1A7mutable7alignedE5ArrayIiLi1E1A7mutable7alignedE(%arg0: memref<?xi32, strided<[?], offset: ?>>, %arg1: memref<?xi32, strided<[?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}], numba_cuda_mlir.orig_arg_types = [memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>]} {
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
      %7 = arith.index_cast %2 : i32 to index
      %c0_0 = arith.constant 0 : index
      %8 = arith.cmpi slt, %7, %c0_0 : index
      %c0_1 = arith.constant 0 : index
      %dim_2 = memref.dim %arg0, %c0_1 : memref<?xi32, strided<[?], offset: ?>>
      %9 = arith.addi %7, %dim_2 : index
      %10 = arith.select %8, %9, %7 : index
      %11 = memref.load %arg0[%10] : memref<?xi32, strided<[?], offset: ?>>
      %c1_i64_3 = arith.constant 1 : i64
      %12 = arith.trunci %c1_i64_3 : i64 to i32
      %13 = arith.index_cast %11 : i32 to index
      %14 = builtin.unrealized_conversion_cast %arg1 : memref<?xi32, strided<[?], offset: ?>> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
      %15 = llvm.extractvalue %14[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %16 = llvm.extractvalue %14[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> 
      %c4_i64 = arith.constant 4 : i64
      %17 = arith.muli %16, %c4_i64 : i64
      %18 = llvm.getelementptr %15[%17] : (!llvm.ptr, i64) -> !llvm.ptr, i8
      %19 = llvm.addrspacecast %18 : !llvm.ptr to !llvm.ptr<1>
      %base_buffer, %offset, %sizes, %strides = memref.extract_strided_metadata %arg1 : memref<?xi32, strided<[?], offset: ?>> -> memref<i32>, index, index, index
      %c0_i64 = arith.constant 0 : i64
      %20 = arith.index_cast %13 : index to i64
      %21 = arith.index_cast %strides : index to i64
      %22 = arith.muli %20, %21 : i64
      %23 = arith.addi %c0_i64, %22 : i64
      %24 = llvm.getelementptr %19[%23] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
      %25 = llvm.atomicrmw add %24, %12 monotonic : !llvm.ptr<1>, i32
      gpu.return
    ^bb2:  // pred: ^bb0
      gpu.return
    }
  }
}
