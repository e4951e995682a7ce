module {
  gpu.module @numba_cuda_mlir_gpu_module [#nvvm.target<O = 3, chip = "sm_90", features = "+ptx90">] attributes {numba_cuda_mlir.link_target} {
    llvm.mlir.global common @__numba_cuda_mlir_error_code(0 : i32) {addr_space = 0 : i32} : i32
    gpu.func @_Z6matmul5ArrayIfLi2E1A7mutable7alignedE5ArrayIfLi2E1A7mutable7alignedE5ArrayIfLi2E1A7mutable7alignedE(%arg0: memref<?x?xf32, strided<[?, ?], offset: ?>>, %arg1: memref<?x?xf32, strided<[?, ?], offset: ?>>, %arg2: memref<?x?xf32, strided<[?, ?], offset: ?>>) kernel attributes {llvm.emit_c_interface, numba_cuda_mlir.arg_attrs = [{}, {}, {}], numba_cuda_mlir.orig_arg_types = [memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>]} {
      %alloca = memref.alloca() : memref<1xf32>
      %alloca_0 = memref.alloca() : memref<1xf32>
      %c16_i64 = arith.constant 16 : i64
      %c16_i64_1 = arith.constant 16 : i64
      %cst = arith.constant 0.000000e+00 : f32
      %0 = memref.get_global @static_shared_memory_1 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %c16_i64_2 = arith.constant 16 : i64
      %c16_i64_3 = arith.constant 16 : i64
      %cst_4 = arith.constant 0.000000e+00 : f32
      %1 = memref.get_global @static_shared_memory_2 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %thread_id_x = gpu.thread_id x
      %2 = arith.index_cast %thread_id_x : index to i32
      %thread_id_y = gpu.thread_id y
      %3 = arith.index_cast %thread_id_y : index to i32
      %block_id_y = gpu.block_id y
      %4 = arith.index_cast %block_id_y : index to i32
      %c16_i64_5 = arith.constant 16 : i64
      %5 = arith.extsi %4 : i32 to i64
      %6 = arith.muli %5, %c16_i64_5 overflow<nsw> : i64
      %7 = arith.extsi %3 : i32 to i64
      %8 = arith.addi %6, %7 overflow<nsw> : i64
      %block_id_x = gpu.block_id x
      %9 = arith.index_cast %block_id_x : index to i32
      %c16_i64_6 = arith.constant 16 : i64
      %10 = arith.extsi %9 : i32 to i64
      %11 = arith.muli %10, %c16_i64_6 overflow<nsw> : i64
      %12 = arith.extsi %2 : i32 to i64
      %13 = arith.addi %11, %12 overflow<nsw> : i64
      %c0 = arith.constant 0 : index
      %dim = memref.dim %arg0, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c1 = arith.constant 1 : index
      %dim_7 = memref.dim %arg0, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c1_i64 = arith.constant 1 : i64
      %cst_8 = arith.constant 0.000000e+00 : f32
      %cst_9 = arith.constant 0.000000e+00 : f64
      %cst_10 = arith.constant 0.000000e+00 : f32
      %c0_11 = arith.constant 0 : index
      memref.store %cst_10, %alloca[%c0_11] : memref<1xf32>
      %c16_i64_12 = arith.constant 16 : i64
      %14 = arith.index_cast %dim_7 : index to i64
      %15 = arith.floordivsi %14, %c16_i64_12 : i64
      %c0_i64 = arith.constant 0 : i64
      %c1_i64_13 = arith.constant 1 : i64
      %alloca_14 = memref.alloca() : memref<5xi64>
      %c0_i64_15 = arith.constant 0 : i64
      %c1_i64_16 = arith.constant 1 : i64
      %c0_17 = arith.constant 0 : index
      memref.store %c0_i64, %alloca_14[%c0_17] : memref<5xi64>
      %c1_18 = arith.constant 1 : index
      memref.store %15, %alloca_14[%c1_18] : memref<5xi64>
      %c2 = arith.constant 2 : index
      memref.store %c1_i64_13, %alloca_14[%c2] : memref<5xi64>
      %16 = llvm.mlir.addressof @__numba_cuda_mlir_error_code : !llvm.ptr
      %17 = arith.cmpi eq, %c1_i64_13, %c0_i64_15 : i64
      scf.if %17 {
        %150 = llvm.mlir.constant(0 : i32) : i32
        %151 = llvm.mlir.constant(5 : i32) : i32
        %152 = llvm.cmpxchg %16, %150, %151 monotonic monotonic : !llvm.ptr, i32
      }
      %c0_i64_19 = arith.constant 0 : i64
      %c1_i64_20 = arith.constant 1 : i64
      %18 = arith.subi %15, %c0_i64 : i64
      %19 = arith.subi %c0_i64_19, %18 : i64
      %20 = arith.subi %c0_i64_19, %c1_i64_13 : i64
      %21 = arith.cmpi sgt, %c1_i64_13, %c0_i64_19 : i64
      %22 = arith.subi %c1_i64_13, %c1_i64_20 : i64
      %23 = arith.addi %18, %22 : i64
      %24 = arith.divui %23, %c1_i64_13 : i64
      %25 = arith.cmpi sgt, %18, %c0_i64_19 : i64
      %26 = arith.select %25, %24, %c0_i64_19 : i64
      %27 = arith.subi %20, %c1_i64_20 : i64
      %28 = arith.addi %19, %27 : i64
      %29 = arith.divui %28, %20 : i64
      %30 = arith.cmpi sgt, %19, %c0_i64_19 : i64
      %31 = arith.select %30, %29, %c0_i64_19 : i64
      %32 = arith.select %21, %26, %31 : i64
      %c3 = arith.constant 3 : index
      memref.store %32, %alloca_14[%c3] : memref<5xi64>
      %c4 = arith.constant 4 : index
      memref.store %c0_i64, %alloca_14[%c4] : memref<5xi64>
      %alloca_21 = memref.alloca() : memref<5xi64>
      cf.br ^bb1
    ^bb1:  // 2 preds: ^bb0, ^bb5
      %c0_i64_22 = arith.constant 0 : i64
      %c1_i64_23 = arith.constant 1 : i64
      %c3_24 = arith.constant 3 : index
      %33 = memref.load %alloca_14[%c3_24] : memref<5xi64>
      %34 = arith.cmpi sgt, %33, %c0_i64_22 : i64
      %c4_25 = arith.constant 4 : index
      %35 = memref.load %alloca_14[%c4_25] : memref<5xi64>
      %36 = arith.subi %33, %c1_i64_23 : i64
      %c2_26 = arith.constant 2 : index
      %37 = memref.load %alloca_14[%c2_26] : memref<5xi64>
      %38 = arith.addi %35, %37 : i64
      %39 = arith.select %34, %36, %33 : i64
      %40 = arith.select %34, %38, %35 : i64
      %c3_27 = arith.constant 3 : index
      memref.store %39, %alloca_14[%c3_27] : memref<5xi64>
      %c4_28 = arith.constant 4 : index
      memref.store %40, %alloca_14[%c4_28] : memref<5xi64>
      %alloca_29 = memref.alloca() : memref<2xi64>
      %c0_30 = arith.constant 0 : index
      memref.store %35, %alloca_29[%c0_30] : memref<2xi64>
      %41 = arith.extui %34 : i1 to i64
      %c1_31 = arith.constant 1 : index
      memref.store %41, %alloca_29[%c1_31] : memref<2xi64>
      %c0_32 = arith.constant 0 : index
      %42 = memref.load %alloca_29[%c0_32] : memref<2xi64>
      %c1_33 = arith.constant 1 : index
      %43 = memref.load %alloca_29[%c1_33] : memref<2xi64>
      %c0_i64_34 = arith.constant 0 : i64
      %44 = arith.cmpi ne, %43, %c0_i64_34 : i64
      cf.cond_br %44, ^bb2, ^bb6
    ^bb2:  // pred: ^bb1
      %c0_35 = arith.constant 0 : index
      %45 = memref.load %alloca[%c0_35] : memref<1xf32>
      %c0_36 = arith.constant 0 : index
      memref.store %45, %alloca_0[%c0_36] : memref<1xf32>
      %c16_i64_37 = arith.constant 16 : i64
      %46 = arith.muli %42, %c16_i64_37 overflow<nsw> : i64
      %47 = arith.extsi %2 : i32 to i64
      %48 = arith.addi %46, %47 overflow<nsw> : i64
      %49 = llvm.mlir.addressof @__numba_cuda_mlir_error_code : !llvm.ptr
      %c0_38 = arith.constant 0 : index
      %c0_39 = arith.constant 0 : index
      %dim_40 = memref.dim %arg0, %c0_39 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c1_41 = arith.constant 1 : index
      %dim_42 = memref.dim %arg0, %c1_41 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %50 = arith.index_cast %8 : i64 to index
      %c0_43 = arith.constant 0 : index
      %51 = arith.cmpi slt, %50, %c0_43 : index
      %c0_44 = arith.constant 0 : index
      %dim_45 = memref.dim %arg0, %c0_44 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %52 = arith.addi %50, %dim_45 : index
      %53 = arith.select %51, %52, %50 : index
      %54 = arith.index_cast %48 : i64 to index
      %c0_46 = arith.constant 0 : index
      %55 = arith.cmpi slt, %54, %c0_46 : index
      %c1_47 = arith.constant 1 : index
      %dim_48 = memref.dim %arg0, %c1_47 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %56 = arith.addi %54, %dim_48 : index
      %57 = arith.select %55, %56, %54 : index
      %c0_49 = arith.constant 0 : index
      %c1_50 = arith.constant 1 : index
      %58 = memref.load %arg0[%53, %57] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %59 = arith.index_cast %3 : i32 to index
      %c0_51 = arith.constant 0 : index
      %60 = arith.cmpi slt, %59, %c0_51 : index
      %c0_52 = arith.constant 0 : index
      %dim_53 = memref.dim %0, %c0_52 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %61 = arith.addi %59, %dim_53 : index
      %62 = arith.select %60, %61, %59 : index
      %63 = arith.index_cast %2 : i32 to index
      %c0_54 = arith.constant 0 : index
      %64 = arith.cmpi slt, %63, %c0_54 : index
      %c1_55 = arith.constant 1 : index
      %dim_56 = memref.dim %0, %c1_55 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %65 = arith.addi %63, %dim_56 : index
      %66 = arith.select %64, %65, %63 : index
      memref.store %58, %0[%62, %66] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %c16_i64_57 = arith.constant 16 : i64
      %67 = arith.muli %42, %c16_i64_57 overflow<nsw> : i64
      %68 = arith.extsi %3 : i32 to i64
      %69 = arith.addi %67, %68 overflow<nsw> : i64
      %70 = llvm.mlir.addressof @__numba_cuda_mlir_error_code : !llvm.ptr
      %c0_58 = arith.constant 0 : index
      %c0_59 = arith.constant 0 : index
      %dim_60 = memref.dim %arg1, %c0_59 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %c1_61 = arith.constant 1 : index
      %dim_62 = memref.dim %arg1, %c1_61 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %71 = arith.index_cast %69 : i64 to index
      %c0_63 = arith.constant 0 : index
      %72 = arith.cmpi slt, %71, %c0_63 : index
      %c0_64 = arith.constant 0 : index
      %dim_65 = memref.dim %arg1, %c0_64 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %73 = arith.addi %71, %dim_65 : index
      %74 = arith.select %72, %73, %71 : index
      %75 = arith.index_cast %13 : i64 to index
      %c0_66 = arith.constant 0 : index
      %76 = arith.cmpi slt, %75, %c0_66 : index
      %c1_67 = arith.constant 1 : index
      %dim_68 = memref.dim %arg1, %c1_67 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %77 = arith.addi %75, %dim_68 : index
      %78 = arith.select %76, %77, %75 : index
      %c0_69 = arith.constant 0 : index
      %c1_70 = arith.constant 1 : index
      %79 = memref.load %arg1[%74, %78] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %80 = arith.index_cast %3 : i32 to index
      %c0_71 = arith.constant 0 : index
      %81 = arith.cmpi slt, %80, %c0_71 : index
      %c0_72 = arith.constant 0 : index
      %dim_73 = memref.dim %1, %c0_72 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %82 = arith.addi %80, %dim_73 : index
      %83 = arith.select %81, %82, %80 : index
      %84 = arith.index_cast %2 : i32 to index
      %c0_74 = arith.constant 0 : index
      %85 = arith.cmpi slt, %84, %c0_74 : index
      %c1_75 = arith.constant 1 : index
      %dim_76 = memref.dim %1, %c1_75 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %86 = arith.addi %84, %dim_76 : index
      %87 = arith.select %85, %86, %84 : index
      memref.store %79, %1[%83, %87] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c16_i64_77 = arith.constant 16 : i64
      %c0_i64_78 = arith.constant 0 : i64
      %c1_i64_79 = arith.constant 1 : i64
      %c0_i64_80 = arith.constant 0 : i64
      %c1_i64_81 = arith.constant 1 : i64
      %c0_82 = arith.constant 0 : index
      memref.store %c0_i64_78, %alloca_21[%c0_82] : memref<5xi64>
      %c1_83 = arith.constant 1 : index
      memref.store %c16_i64_77, %alloca_21[%c1_83] : memref<5xi64>
      %c2_84 = arith.constant 2 : index
      memref.store %c1_i64_79, %alloca_21[%c2_84] : memref<5xi64>
      %88 = llvm.mlir.addressof @__numba_cuda_mlir_error_code : !llvm.ptr
      %89 = arith.cmpi eq, %c1_i64_79, %c0_i64_80 : i64
      scf.if %89 {
        %150 = llvm.mlir.constant(0 : i32) : i32
        %151 = llvm.mlir.constant(5 : i32) : i32
        %152 = llvm.cmpxchg %88, %150, %151 monotonic monotonic : !llvm.ptr, i32
      }
      %c0_i64_85 = arith.constant 0 : i64
      %c1_i64_86 = arith.constant 1 : i64
      %90 = arith.subi %c16_i64_77, %c0_i64_78 : i64
      %91 = arith.subi %c0_i64_85, %90 : i64
      %92 = arith.subi %c0_i64_85, %c1_i64_79 : i64
      %93 = arith.cmpi sgt, %c1_i64_79, %c0_i64_85 : i64
      %94 = arith.subi %c1_i64_79, %c1_i64_86 : i64
      %95 = arith.addi %90, %94 : i64
      %96 = arith.divui %95, %c1_i64_79 : i64
      %97 = arith.cmpi sgt, %90, %c0_i64_85 : i64
      %98 = arith.select %97, %96, %c0_i64_85 : i64
      %99 = arith.subi %92, %c1_i64_86 : i64
      %100 = arith.addi %91, %99 : i64
      %101 = arith.divui %100, %92 : i64
      %102 = arith.cmpi sgt, %91, %c0_i64_85 : i64
      %103 = arith.select %102, %101, %c0_i64_85 : i64
      %104 = arith.select %93, %98, %103 : i64
      %c3_87 = arith.constant 3 : index
      memref.store %104, %alloca_21[%c3_87] : memref<5xi64>
      %c4_88 = arith.constant 4 : index
      memref.store %c0_i64_78, %alloca_21[%c4_88] : memref<5xi64>
      cf.br ^bb3
    ^bb3:  // 2 preds: ^bb2, ^bb4
      %c0_i64_89 = arith.constant 0 : i64
      %c1_i64_90 = arith.constant 1 : i64
      %c3_91 = arith.constant 3 : index
      %105 = memref.load %alloca_21[%c3_91] : memref<5xi64>
      %106 = arith.cmpi sgt, %105, %c0_i64_89 : i64
      %c4_92 = arith.constant 4 : index
      %107 = memref.load %alloca_21[%c4_92] : memref<5xi64>
      %108 = arith.subi %105, %c1_i64_90 : i64
      %c2_93 = arith.constant 2 : index
      %109 = memref.load %alloca_21[%c2_93] : memref<5xi64>
      %110 = arith.addi %107, %109 : i64
      %111 = arith.select %106, %108, %105 : i64
      %112 = arith.select %106, %110, %107 : i64
      %c3_94 = arith.constant 3 : index
      memref.store %111, %alloca_21[%c3_94] : memref<5xi64>
      %c4_95 = arith.constant 4 : index
      memref.store %112, %alloca_21[%c4_95] : memref<5xi64>
      %alloca_96 = memref.alloca() : memref<2xi64>
      %c0_97 = arith.constant 0 : index
      memref.store %107, %alloca_96[%c0_97] : memref<2xi64>
      %113 = arith.extui %106 : i1 to i64
      %c1_98 = arith.constant 1 : index
      memref.store %113, %alloca_96[%c1_98] : memref<2xi64>
      %c0_99 = arith.constant 0 : index
      %114 = memref.load %alloca_96[%c0_99] : memref<2xi64>
      %c1_100 = arith.constant 1 : index
      %115 = memref.load %alloca_96[%c1_100] : memref<2xi64>
      %c0_i64_101 = arith.constant 0 : i64
      %116 = arith.cmpi ne, %115, %c0_i64_101 : i64
      cf.cond_br %116, ^bb4, ^bb5
    ^bb4:  // pred: ^bb3
      %117 = llvm.mlir.addressof @__numba_cuda_mlir_error_code : !llvm.ptr
      %c0_102 = arith.constant 0 : index
      %c0_103 = arith.constant 0 : index
      %dim_104 = memref.dim %0, %c0_103 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %c1_105 = arith.constant 1 : index
      %dim_106 = memref.dim %0, %c1_105 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %118 = arith.index_cast %3 : i32 to index
      %c0_107 = arith.constant 0 : index
      %119 = arith.cmpi slt, %118, %c0_107 : index
      %c0_108 = arith.constant 0 : index
      %dim_109 = memref.dim %0, %c0_108 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %120 = arith.addi %118, %dim_109 : index
      %121 = arith.select %119, %120, %118 : index
      %122 = arith.index_cast %114 : i64 to index
      %c0_110 = arith.constant 0 : index
      %123 = arith.cmpi slt, %122, %c0_110 : index
      %c1_111 = arith.constant 1 : index
      %dim_112 = memref.dim %0, %c1_111 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %124 = arith.addi %122, %dim_112 : index
      %125 = arith.select %123, %124, %122 : index
      %c0_113 = arith.constant 0 : index
      %c1_114 = arith.constant 1 : index
      %126 = memref.load %0[%121, %125] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %127 = llvm.mlir.addressof @__numba_cuda_mlir_error_code : !llvm.ptr
      %c0_115 = arith.constant 0 : index
      %c0_116 = arith.constant 0 : index
      %dim_117 = memref.dim %1, %c0_116 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %c1_118 = arith.constant 1 : index
      %dim_119 = memref.dim %1, %c1_118 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %128 = arith.index_cast %114 : i64 to index
      %c0_120 = arith.constant 0 : index
      %129 = arith.cmpi slt, %128, %c0_120 : index
      %c0_121 = arith.constant 0 : index
      %dim_122 = memref.dim %1, %c0_121 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %130 = arith.addi %128, %dim_122 : index
      %131 = arith.select %129, %130, %128 : index
      %132 = arith.index_cast %2 : i32 to index
      %c0_123 = arith.constant 0 : index
      %133 = arith.cmpi slt, %132, %c0_123 : index
      %c1_124 = arith.constant 1 : index
      %dim_125 = memref.dim %1, %c1_124 : memref<16x16xf32, #gpu.address_space<workgroup>>
      %134 = arith.addi %132, %dim_125 : index
      %135 = arith.select %133, %134, %132 : index
      %c0_126 = arith.constant 0 : index
      %c1_127 = arith.constant 1 : index
      %136 = memref.load %1[%131, %135] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %137 = arith.mulf %126, %136 : f32
      %c0_128 = arith.constant 0 : index
      %138 = memref.load %alloca_0[%c0_128] : memref<1xf32>
      %139 = arith.addf %138, %137 : f32
      %c0_129 = arith.constant 0 : index
      memref.store %139, %alloca_0[%c0_129] : memref<1xf32>
      cf.br ^bb3
    ^bb5:  // pred: ^bb3
      %c0_130 = arith.constant 0 : index
      %140 = memref.load %alloca_0[%c0_130] : memref<1xf32>
      %c0_131 = arith.constant 0 : index
      memref.store %140, %alloca[%c0_131] : memref<1xf32>
      gpu.barrier
      cf.br ^bb1
    ^bb6:  // pred: ^bb1
      %141 = arith.index_cast %8 : i64 to index
      %c0_132 = arith.constant 0 : index
      %142 = arith.cmpi slt, %141, %c0_132 : index
      %c0_133 = arith.constant 0 : index
      %dim_134 = memref.dim %arg2, %c0_133 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %143 = arith.addi %141, %dim_134 : index
      %144 = arith.select %142, %143, %141 : index
      %145 = arith.index_cast %13 : i64 to index
      %c0_135 = arith.constant 0 : index
      %146 = arith.cmpi slt, %145, %c0_135 : index
      %c1_136 = arith.constant 1 : index
      %dim_137 = memref.dim %arg2, %c1_136 : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %147 = arith.addi %145, %dim_137 : index
      %148 = arith.select %146, %147, %145 : index
      %c0_138 = arith.constant 0 : index
      %149 = memref.load %alloca[%c0_138] : memref<1xf32>
      memref.store %149, %arg2[%144, %148] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      gpu.return
    }
    memref.global "private" @static_shared_memory_1 : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 8 : i64}
    memref.global "private" @static_shared_memory_2 : memref<16x16xf32, #gpu.address_space<workgroup>> {alignment = 8 : i64}
  }
}
