// nn (Rodinia 3.1): k nearest neighbours of a (lat, lng) point among n
// records; the kernel computes every record's Euclidean distance, one
// thread per record, 256 threads per block, on a 2-D grid as Rodinia's
// CUDA kernel euclid (the host then selects the k smallest).
//   locations: (lat, lng) per record, interleaved f32
module attributes {gpu.container_module} {
  gpu.module @nn {
    gpu.func @euclid(%locations: memref<?xf32>, %distances: memref<?xf32>,
                     %n: index, %lat: f32, %lng: f32) kernel {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %bdim = gpu.block_dim x
      %tx = gpu.thread_id x
      %row = arith.muli %gx, %by : index
      %blk = arith.addi %row, %bx : index
      %base = arith.muli %bdim, %blk : index
      %gid = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %gid, %n : index
      scf.if %inside {
        %a = arith.muli %gid, %c2 : index
        %b = arith.addi %a, %c1 : index
        %x = memref.load %locations[%a] : memref<?xf32>
        %y = memref.load %locations[%b] : memref<?xf32>
        %dx = arith.subf %lat, %x : f32
        %dy = arith.subf %lng, %y : f32
        %dx2 = arith.mulf %dx, %dx : f32
        %dy2 = arith.mulf %dy, %dy : f32
        %s = arith.addf %dx2, %dy2 : f32
        %d = math.sqrt %s : f32
        memref.store %d, %distances[%gid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
