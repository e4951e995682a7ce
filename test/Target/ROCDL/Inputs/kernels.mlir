// Kernels shared by the ROCDL target tests: @scale reads its block size,
// @dynamic is launched with a block size known only at run time; the launch
// of @scale with 128 threads makes offload-specialize clone it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %s : f32
      %e = math.erf %r : f32
      memref.store %e, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @dynamic(%x: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<?xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %x[%t] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<?xf32>, %s: f32, %threads: index) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@scale blocks in (%c8, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %s : f32)
    gpu.launch_func @kernels::@dynamic blocks in (%c1, %c1, %c1)
        threads in (%threads, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}
