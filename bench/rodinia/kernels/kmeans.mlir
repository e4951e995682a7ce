// kmeans (Rodinia 3.1): one assignment step of Lloyd's k-means, each point
// to its nearest cluster center (squared Euclidean distance, the first of
// equal ones), one thread per point, 256 threads per block; the host
// recomputes the centers and loops. Written after Rodinia's CUDA kernel
// kmeansPoint (features in feature-major order, [nfeatures][npoints]).
module attributes {gpu.container_module} {
  gpu.module @kmeans {
    gpu.func @kmeans_point(%features: memref<?xf32>, %nfeatures: index,
                           %npoints: index, %nclusters: index,
                           %membership: memref<?xi32>,
                           %clusters: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %fmax = arith.constant 3.40282347e+38 : f32
      %zero = arith.constant 0.0 : f32
      %none = arith.constant -1 : i32
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %gx = gpu.grid_dim x
      %bdim = gpu.block_dim x
      %tx = gpu.thread_id x
      %row = arith.muli %gx, %by : index
      %blk = arith.addi %row, %bx : index
      %base = arith.muli %blk, %bdim : index
      %pid = arith.addi %base, %tx : index
      %inside = arith.cmpi ult, %pid, %npoints : index
      scf.if %inside {
        %best:2 = scf.for %i = %c0 to %nclusters step %c1
            iter_args(%min = %fmax, %index = %none) -> (f32, i32) {
          %cbase = arith.muli %i, %nfeatures : index
          %dist = scf.for %j = %c0 to %nfeatures step %c1
              iter_args(%ans = %zero) -> (f32) {
            %fo = arith.muli %j, %npoints : index
            %fa = arith.addi %pid, %fo : index
            %f = memref.load %features[%fa] : memref<?xf32>
            %ca = arith.addi %cbase, %j : index
            %c = memref.load %clusters[%ca] : memref<?xf32>
            %diff = arith.subf %f, %c : f32
            %sq = arith.mulf %diff, %diff : f32
            %s = arith.addf %ans, %sq : f32
            scf.yield %s : f32
          }
          %closer = arith.cmpf olt, %dist, %min : f32
          %i32 = arith.index_cast %i : index to i32
          %nmin = arith.select %closer, %dist, %min : f32
          %nindex = arith.select %closer, %i32, %index : i32
          scf.yield %nmin, %nindex : f32, i32
        }
        memref.store %best#1, %membership[%pid] : memref<?xi32>
      }
      gpu.return
    }
  }
}
