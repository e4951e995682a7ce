// A 1-D stencil whose radius and weights are runtime constants: values only
// known when the program runs (here returned by @choose_radius and read from
// a table), yet fixed for each launch. With --jit the kernel is specialized
// at launch: the radius bounds the inner loop, which is fully unrolled, and
// the weights become immediates.
//
//   build/bin/offload-run --jit examples/stencil-jit.mlir
//   OFFLOAD_JIT_STATS=1 build/bin/offload-run --jit examples/stencil-jit.mlir
//   OFFLOAD_JIT=0 build/bin/offload-run --jit examples/stencil-jit.mlir   (generic)
//
// out[i] = sum over k in [-r, r] of w[k + r] * in[i + k], for interior i.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @stencil(%in: memref<?xf32>, %out: memref<?xf32>, %n: index,
                      %radius: index, %weights: memref<9xf32>) kernel {
      %r = offload.runtime_constant %radius : index
      %w = offload.runtime_constant %weights contents : memref<9xf32>
      %b = gpu.block_id x
      %bd = gpu.block_dim x
      %t = gpu.thread_id x
      %base = arith.muli %b, %bd : index
      %i = arith.addi %base, %t : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %lo = arith.cmpi uge, %i, %r : index
      %end = arith.subi %n, %r : index
      %hi = arith.cmpi ult, %i, %end : index
      %inside = arith.andi %lo, %hi : i1
      scf.if %inside {
        %width = arith.muli %r, %c1 : index
        %two_r = arith.addi %width, %r : index
        %count = arith.addi %two_r, %c1 : index
        %zero = arith.constant 0.0 : f32
        %start = arith.subi %i, %r : index
        %sum = scf.for %k = %c0 to %count step %c1 iter_args(%acc = %zero) -> f32 {
          %j = arith.addi %start, %k : index
          %x = memref.load %in[%j] : memref<?xf32>
          %wk = memref.load %w[%k] : memref<9xf32>
          %p = arith.mulf %x, %wk : f32
          %a = arith.addf %acc, %p : f32
          scf.yield %a : f32
        }
        memref.store %sum, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
  }

  // Binomial weights for radius 2 (and zeros beyond): 1 4 6 4 1 / 16.
  memref.global "private" @weights : memref<9xf32> =
      dense<[0.0625, 0.25, 0.375, 0.25, 0.0625, 0.0, 0.0, 0.0, 0.0]>

  func.func private @choose_radius() -> index {
    %r = arith.constant 2 : index
    return %r : index
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %n = arith.constant 4096 : index
    %in = memref.alloc(%n) : memref<?xf32>
    %out = memref.alloc(%n) : memref<?xf32>
    %zero = arith.constant 0.0 : f32
    %c16 = arith.constant 16 : index
    // in[i] = (i mod 16)^2, out = 0.
    scf.for %i = %c0 to %n step %c1 {
      %m = arith.remui %i, %c16 : index
      %mm = arith.muli %m, %m : index
      %mi = arith.index_cast %mm : index to i32
      %f = arith.sitofp %mi : i32 to f32
      memref.store %f, %in[%i] : memref<?xf32>
      memref.store %zero, %out[%i] : memref<?xf32>
    }
    %radius = call @choose_radius() : () -> index
    %weights = memref.get_global @weights : memref<9xf32>
    %blocks = arith.divui %n, %c128 : index
    // Launched twice with the same values: one specialization, one hit.
    gpu.launch_func @kernels::@stencil blocks in (%blocks, %c1, %c1)
        threads in (%c128, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index,
             %radius : index, %weights : memref<9xf32>)
    gpu.launch_func @kernels::@stencil blocks in (%blocks, %c1, %c1)
        threads in (%c128, %c1, %c1)
        args(%in : memref<?xf32>, %out : memref<?xf32>, %n : index,
             %radius : index, %weights : memref<9xf32>)
    %head = memref.subview %out[0] [8] [1]
        : memref<?xf32> to memref<8xf32, strided<[1]>>
    %cast = memref.cast %head : memref<8xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
