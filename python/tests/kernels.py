"""MLIR kernels of the Python tests."""

SAXPY = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y = a * x + y, one thread per element; a is a runtime constant.
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>, %n: index)
        kernel {
      %ka = offload.runtime_constant %a : f32
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %ka, %xi : f32
        %r = arith.addf %ax, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""

MATMUL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // C[M x N] = A[M x K] * B[K x N]; thread (x, y) of the 2-D grid computes
    // C[row = y][col = x]. K is a runtime constant: the loop is specialized.
    gpu.func @matmul(%A: memref<?x?xf32>, %B: memref<?x?xf32>,
                     %C: memref<?x?xf32>, %K: index) kernel {
      %k = offload.runtime_constant %K : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %M = memref.dim %C, %c0 : memref<?x?xf32>
      %N = memref.dim %C, %c1 : memref<?x?xf32>
      %by = gpu.block_id y
      %bdy = gpu.block_dim y
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %bdx = gpu.block_dim x
      %tx = gpu.thread_id x
      %r0 = arith.muli %by, %bdy : index
      %row = arith.addi %r0, %ty : index
      %c0x = arith.muli %bx, %bdx : index
      %col = arith.addi %c0x, %tx : index
      %inr = arith.cmpi ult, %row, %M : index
      %inc = arith.cmpi ult, %col, %N : index
      %in = arith.andi %inr, %inc : i1
      scf.if %in {
        %sum = scf.for %j = %c0 to %k step %c1 iter_args(%s = %zero) -> f32 {
          %a = memref.load %A[%row, %j] : memref<?x?xf32>
          %b = memref.load %B[%j, %col] : memref<?x?xf32>
          %p = arith.mulf %a, %b : f32
          %t = arith.addf %s, %p : f32
          scf.yield %t : f32
        }
        memref.store %sum, %C[%row, %col] : memref<?x?xf32>
      }
      gpu.return
    }
  }
}
"""

MISC = """
module attributes {gpu.container_module} {
  gpu.module @misc {
    // x[i] += k for a 4x4 matrix (static shape), one thread per element.
    gpu.func @add_static(%x: memref<4x4xf32>, %k: f32) kernel {
      %i = gpu.thread_id x
      %j = gpu.thread_id y
      %v = memref.load %x[%j, %i] : memref<4x4xf32>
      %r = arith.addf %v, %k : f32
      memref.store %r, %x[%j, %i] : memref<4x4xf32>
      gpu.return
    }
    // x[i] += k, 32-bit integers; k is a runtime constant.
    gpu.func @add_i32(%x: memref<?xi32>, %k: i32) kernel {
      %kk = offload.runtime_constant %k : i32
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xi32>
      %r = arith.addi %v, %kk : i32
      memref.store %r, %x[%i] : memref<?xi32>
      gpu.return
    }
    // x[i] = x[i] * s, doubles.
    gpu.func @scale_f64(%x: memref<?xf64>, %s: f64) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf64>
      %r = arith.mulf %v, %s : f64
      memref.store %r, %x[%i] : memref<?xf64>
      gpu.return
    }
    // x[i] = x[i] + k for 8-bit and 64-bit integers.
    gpu.func @add_i8(%x: memref<?xi8>, %k: i8) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xi8>
      %r = arith.addi %v, %k : i8
      memref.store %r, %x[%i] : memref<?xi8>
      gpu.return
    }
    gpu.func @add_i64(%x: memref<?xi64>, %k: i64) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xi64>
      %r = arith.addi %v, %k : i64
      memref.store %r, %x[%i] : memref<?xi64>
      gpu.return
    }
    // x[i] = x[i] + k, halves.
    gpu.func @add_f16(%x: memref<?xf16>, %k: f16) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf16>
      %r = arith.addf %v, %k : f16
      memref.store %r, %x[%i] : memref<?xf16>
      gpu.return
    }
    // A strided 1-D view: x[i] *= 2.
    gpu.func @double_strided(%x: memref<?xf32, strided<[?], offset: ?>>)
        kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32, strided<[?], offset: ?>>
      %r = arith.addf %v, %v : f32
      memref.store %r, %x[%i] : memref<?xf32, strided<[?], offset: ?>>
      gpu.return
    }
    // x[i] = c[0] + c[1] * x[i]; the coefficients are runtime constants by
    // content.
    gpu.func @affine(%x: memref<?xf32>, %c: memref<2xf32>) kernel {
      %cc = offload.runtime_constant %c contents : memref<2xf32>
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %a = memref.load %cc[%c0] : memref<2xf32>
      %b = memref.load %cc[%c1] : memref<2xf32>
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %m = arith.mulf %b, %v : f32
      %r = arith.addf %a, %m : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
"""

COOPERATIVE = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // The block's sum of thread ids; only thread 0 uses the reduction.
    gpu.func @thread0_sum(%out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %v = arith.index_cast %tx : index to i32
      %r = gpu.all_reduce add %v uniform {} : (i32) -> (i32)
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %r, %out[%c0] : memref<?xi32>
      }
      gpu.return
    }

    // Each block reverses its slice through workgroup memory.
    gpu.func @reverse(%x: memref<?xf32>, %y: memref<?xf32>)
        workgroup(%tile: memref<1024xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %n = gpu.block_dim x
      %base = arith.muli %bx, %n : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %x[%i] : memref<?xf32>
      memref.store %v, %tile[%tx] : memref<1024xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %last = arith.subi %n, %c1 : index
      %r = arith.subi %last, %tx : index
      %w = memref.load %tile[%r] : memref<1024xf32, #gpu.address_space<workgroup>>
      memref.store %w, %y[%i] : memref<?xf32>
      gpu.return
    }
  }
}
"""

BLOCK_SUM = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[block] = the sum of the block's slice of x, stored by thread 0 only
    // (gpu.all_reduce: a reduction between thread loops).
    gpu.func @block_sum(%x: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<?xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tid, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bid] : memref<?xf32>
      }
      gpu.return
    }
  }
}
"""
