// block_sum, form subview: each block reads its part of in through a
// memref.subview of min(blockDim, n - blockIdx * blockDim) elements, the
// thread its element by thread id.
module attributes {gpu.container_module} {
  gpu.module @block_sum {
    gpu.func @block_sum(%n: index, %in: memref<?xf32>, %out: memref<?xf32>)
        kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      // This block's part of in: min(blockDim, n - base) elements.
      %rest = arith.subi %n, %base : index
      %len = arith.minui %bdim, %rest : index
      %part = memref.subview %in[%base] [%len] [1]
          : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
      %inside = arith.cmpi ult, %tid, %len : index
      %v = scf.if %inside -> (f32) {
        %x = memref.load %part[%tid] : memref<?xf32, strided<[1], offset: ?>>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
