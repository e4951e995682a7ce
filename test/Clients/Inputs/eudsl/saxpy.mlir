module attributes {gpu.container_module} {
  gpu.module @eudsl_kernels [#nvvm.target] {
    gpu.func @saxpy(%arg0: f32, %arg1: memref<256xf32>, %arg2: memref<256xf32>) kernel {
      %block_id_x = gpu.block_id x
      %block_dim_x = gpu.block_dim x
      %0 = arith.muli %block_id_x, %block_dim_x : index
      %thread_id_x = gpu.thread_id x
      %1 = arith.addi %0, %thread_id_x : index
      %2 = memref.load %arg1[%1] : memref<256xf32>
      %3 = arith.mulf %arg0, %2 : f32
      %4 = memref.load %arg2[%1] : memref<256xf32>
      %5 = arith.addf %3, %4 : f32
      memref.store %5, %arg2[%1] : memref<256xf32>
      gpu.return
    }
  }
}
