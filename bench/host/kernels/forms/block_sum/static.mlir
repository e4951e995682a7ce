// block_sum, form static: the base kernel on memrefs of static shape
// (16777216 inputs, 65536 sums of 256-thread blocks; the benchmark
// substitutes its sizes), n a constant.
module attributes {gpu.container_module} {
  gpu.module @block_sum {
    gpu.func @block_sum(%in: memref<16777216xf32>, %out: memref<65536xf32>)
        kernel {
      %n = arith.constant 16777216 : index
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      %v = scf.if %inside -> (f32) {
        %x = memref.load %in[%i] : memref<16777216xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<65536xf32>
      }
      gpu.return
    }
  }
}
