// naive_matmul, form affine: 2-D dynamic memrefs with the k loop and its
// accesses as affine.for / affine.load / affine.store (what Polygeist and
// other affine frontends emit), ids with affine.apply, bounds scf.if.
#row_map = affine_map<()[s0, s1, s2] -> (s0 * s1 + s2)>
module attributes {gpu.container_module} {
  gpu.module @matmul_naive {
    gpu.func @matmul_naive(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                           %C: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %M = memref.dim %A, %c0 : memref<?x?xf32>
      %K = memref.dim %A, %c1 : memref<?x?xf32>
      %N = memref.dim %B, %c1 : memref<?x?xf32>
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %col = affine.apply #row_map()[%bx, %dx, %tx]
      %row = affine.apply #row_map()[%by, %dy, %ty]
      %in_row = arith.cmpi ult, %row, %M : index
      %in_col = arith.cmpi ult, %col, %N : index
      %inside = arith.andi %in_row, %in_col : i1
      scf.if %inside {
        %sum = affine.for %k = 0 to %K iter_args(%acc = %zero) -> (f32) {
          %a = affine.load %A[%row, %k] : memref<?x?xf32>
          %b = affine.load %B[%k, %col] : memref<?x?xf32>
          %p = arith.mulf %a, %b : f32
          %s = arith.addf %acc, %p : f32
          affine.yield %s : f32
        }
        affine.store %sum, %C[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
