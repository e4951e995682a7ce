module attributes {gpu.container_module} {
  gpu.module @eudsl_kernels [#nvvm.target] {
    gpu.func @tile_scale(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>) kernel {
      %block_id_x = gpu.block_id x
      %c4 = arith.constant 4 : index
      %0 = arith.muli %block_id_x, %c4 : index
      %thread_id_x = gpu.thread_id x
      %c4_0 = arith.constant 4 : index
      %1 = arith.muli %thread_id_x, %c4_0 : index
      %cst = arith.constant 0.000000e+00 : f32
      %2 = vector.transfer_read %arg0[%0, %1], %cst {in_bounds = [true, true]} : memref<64x64xf32>, vector<4x4xf32>
      %3 = arith.addf %2, %2 : vector<4x4xf32>
      vector.transfer_write %3, %arg1[%0, %1] {in_bounds = [true, true]} : vector<4x4xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}
