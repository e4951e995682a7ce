// gpu.subgroup_mma_elementwise (every op type), gpu.subgroup_mma_constant_matrix
// and transposed loads, stores and products on the host target, each against a
// scalar kernel computing the same elements: results must be bit-identical
// (compared as integers, so NaNs count). MAXF/MINF propagate NaNs as in
// upstream's WmmaOpsToNvvm.cpp; x[3][5] is a NaN.
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run -O0 %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s

// CHECK: f32 elementwise mismatches: 0
// CHECK: maxf, minf at the NaN: nan nan
// CHECK: i32 elementwise mismatches: 0
// CHECK: extf mismatches: 0
// CHECK: constant matrices: 2.5 -7 1.5
// CHECK: transposed m8n32k16 mismatches: 0
// CHECK: transposed m16n16k16 mismatches: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[op] = op(x, y) for addf, mulf, subf, maxf, minf, divf, negatef.
    gpu.func @ew_f32(%x: memref<16x16xf32>, %y: memref<16x16xf32>,
                     %out: memref<7x16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %X = gpu.subgroup_mma_load_matrix %x[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %Y = gpu.subgroup_mma_load_matrix %y[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %r0 = gpu.subgroup_mma_elementwise addf %X, %Y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %r1 = gpu.subgroup_mma_elementwise mulf %X, %Y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %r2 = gpu.subgroup_mma_elementwise subf %X, %Y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %r3 = gpu.subgroup_mma_elementwise maxf %X, %Y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %r4 = gpu.subgroup_mma_elementwise minf %X, %Y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %r5 = gpu.subgroup_mma_elementwise divf %X, %Y : (!gpu.mma_matrix<16x16xf32, "COp">, !gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      %r6 = gpu.subgroup_mma_elementwise negatef %X : (!gpu.mma_matrix<16x16xf32, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %r0, %out[%c0, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.subgroup_mma_store_matrix %r1, %out[%c1, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.subgroup_mma_store_matrix %r2, %out[%c2, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.subgroup_mma_store_matrix %r3, %out[%c3, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.subgroup_mma_store_matrix %r4, %out[%c4, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.subgroup_mma_store_matrix %r5, %out[%c5, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.subgroup_mma_store_matrix %r6, %out[%c6, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<7x16x16xf32>
      gpu.return
    }
    // The same per element, one thread each (16x16 threads).
    gpu.func @ew_f32_ref(%x: memref<16x16xf32>, %y: memref<16x16xf32>,
                         %out: memref<7x16x16xf32>) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %c6 = arith.constant 6 : index
      %a = memref.load %x[%i, %j] : memref<16x16xf32>
      %b = memref.load %y[%i, %j] : memref<16x16xf32>
      %r0 = arith.addf %a, %b : f32
      %r1 = arith.mulf %a, %b : f32
      %r2 = arith.subf %a, %b : f32
      %r3 = arith.maximumf %a, %b : f32
      %r4 = arith.minimumf %a, %b : f32
      %r5 = arith.divf %a, %b : f32
      %r6 = arith.negf %a : f32
      memref.store %r0, %out[%c0, %i, %j] : memref<7x16x16xf32>
      memref.store %r1, %out[%c1, %i, %j] : memref<7x16x16xf32>
      memref.store %r2, %out[%c2, %i, %j] : memref<7x16x16xf32>
      memref.store %r3, %out[%c3, %i, %j] : memref<7x16x16xf32>
      memref.store %r4, %out[%c4, %i, %j] : memref<7x16x16xf32>
      memref.store %r5, %out[%c5, %i, %j] : memref<7x16x16xf32>
      memref.store %r6, %out[%c6, %i, %j] : memref<7x16x16xf32>
      gpu.return
    }

    // out[op] = op(x, y) for addi, muli, subi, divs, divu, negates.
    gpu.func @ew_i32(%x: memref<16x16xi32>, %y: memref<16x16xi32>,
                     %out: memref<6x16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %X = gpu.subgroup_mma_load_matrix %x[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %Y = gpu.subgroup_mma_load_matrix %y[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %r0 = gpu.subgroup_mma_elementwise addi %X, %Y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %r1 = gpu.subgroup_mma_elementwise muli %X, %Y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %r2 = gpu.subgroup_mma_elementwise subi %X, %Y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %r3 = gpu.subgroup_mma_elementwise divs %X, %Y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %r4 = gpu.subgroup_mma_elementwise divu %X, %Y : (!gpu.mma_matrix<16x16xi32, "COp">, !gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      %r5 = gpu.subgroup_mma_elementwise negates %X : (!gpu.mma_matrix<16x16xi32, "COp">) -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %r0, %out[%c0, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<6x16x16xi32>
      gpu.subgroup_mma_store_matrix %r1, %out[%c1, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<6x16x16xi32>
      gpu.subgroup_mma_store_matrix %r2, %out[%c2, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<6x16x16xi32>
      gpu.subgroup_mma_store_matrix %r3, %out[%c3, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<6x16x16xi32>
      gpu.subgroup_mma_store_matrix %r4, %out[%c4, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<6x16x16xi32>
      gpu.subgroup_mma_store_matrix %r5, %out[%c5, %c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<6x16x16xi32>
      gpu.return
    }
    gpu.func @ew_i32_ref(%x: memref<16x16xi32>, %y: memref<16x16xi32>,
                         %out: memref<6x16x16xi32>) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %c5 = arith.constant 5 : index
      %zero = arith.constant 0 : i32
      %a = memref.load %x[%i, %j] : memref<16x16xi32>
      %b = memref.load %y[%i, %j] : memref<16x16xi32>
      %r0 = arith.addi %a, %b : i32
      %r1 = arith.muli %a, %b : i32
      %r2 = arith.subi %a, %b : i32
      %r3 = arith.divsi %a, %b : i32
      %r4 = arith.divui %a, %b : i32
      %r5 = arith.subi %zero, %a : i32
      memref.store %r0, %out[%c0, %i, %j] : memref<6x16x16xi32>
      memref.store %r1, %out[%c1, %i, %j] : memref<6x16x16xi32>
      memref.store %r2, %out[%c2, %i, %j] : memref<6x16x16xi32>
      memref.store %r3, %out[%c3, %i, %j] : memref<6x16x16xi32>
      memref.store %r4, %out[%c4, %i, %j] : memref<6x16x16xi32>
      memref.store %r5, %out[%c5, %i, %j] : memref<6x16x16xi32>
      gpu.return
    }

    // extf of an f16 fragment; then constant matrices of f32, i32 and f16.
    gpu.func @extf(%h: memref<16x16xf16>, %out: memref<16x16xf32>,
                   %cf: memref<16x16xf32>, %ci: memref<16x16xi32>,
                   %ch: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %H = gpu.subgroup_mma_load_matrix %h[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %F = gpu.subgroup_mma_elementwise extf %H : (!gpu.mma_matrix<16x16xf16, "COp">) -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %F, %out[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      %vf = arith.constant 2.5 : f32
      %vi = arith.constant -7 : i32
      %vh = arith.constant 1.5 : f16
      %CF = gpu.subgroup_mma_constant_matrix %vf : !gpu.mma_matrix<16x16xf32, "COp">
      %CI = gpu.subgroup_mma_constant_matrix %vi : !gpu.mma_matrix<16x16xi32, "COp">
      %CH = gpu.subgroup_mma_constant_matrix %vh : !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %CF, %cf[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.subgroup_mma_store_matrix %CI, %ci[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.subgroup_mma_store_matrix %CH, %ch[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }

    // D = A * B with A (8x16) loaded from its column-major copy at (16x8,
    // leadDimension 8), D (8x32) stored column-major (32x8, leadDimension 8).
    gpu.func @transposed_m8n32(%at: memref<16x8xf16>, %b: memref<16x32xf16>,
                               %dt: memref<32x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %A = gpu.subgroup_mma_load_matrix %at[%c0, %c0] {leadDimension = 8 : index, transpose}
          : memref<16x8xf16> -> !gpu.mma_matrix<8x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 32 : index}
          : memref<16x32xf16> -> !gpu.mma_matrix<16x32xf16, "BOp">
      %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<8x32xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C {a_transpose}
          : !gpu.mma_matrix<8x16xf16, "AOp">, !gpu.mma_matrix<16x32xf16, "BOp">
          -> !gpu.mma_matrix<8x32xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %dt[%c0, %c0] {leadDimension = 8 : index, transpose}
          : !gpu.mma_matrix<8x32xf32, "COp">, memref<32x8xf32>
      gpu.return
    }
    // 16x16x16 with both operands transposed, from an offset inside a larger
    // matrix with a wider leading dimension (24).
    gpu.func @transposed_m16(%at: memref<24x24xf16>, %bt: memref<24x24xf16>,
                             %dt: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %zero = arith.constant 0.0 : f32
      %A = gpu.subgroup_mma_load_matrix %at[%c4, %c8] {leadDimension = 24 : index, transpose}
          : memref<24x24xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %bt[%c8, %c4] {leadDimension = 24 : index, transpose}
          : memref<24x24xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C {a_transpose, b_transpose}
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
          -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %dt[%c0, %c0] {leadDimension = 16 : index, transpose}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
  }

  func.func @mismatches32(%got: memref<?xi32>, %want: memref<?xi32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %got, %c0 : memref<?xi32>
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%b = %zero) -> (i32) {
      %x = memref.load %got[%i] : memref<?xi32>
      %y = memref.load %want[%i] : memref<?xi32>
      %ne = arith.cmpi ne, %x, %y : i32
      %inc = arith.select %ne, %one, %zero : i32
      %b1 = arith.addi %b, %inc : i32
      scf.yield %b1 : i32
    }
    return %bad : i32
  }
  // Bitwise comparison of f32 buffers.
  func.func @mismatchesF32(%got: memref<?xf32>, %want: memref<?xf32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %got, %c0 : memref<?xf32>
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %n step %c1 iter_args(%b = %zero) -> (i32) {
      %x = memref.load %got[%i] : memref<?xf32>
      %y = memref.load %want[%i] : memref<?xf32>
      %xi = arith.bitcast %x : f32 to i32
      %yi = arith.bitcast %y : f32 to i32
      %ne = arith.cmpi ne, %xi, %yi : i32
      %inc = arith.select %ne, %one, %zero : i32
      %b1 = arith.addi %b, %inc : i32
      scf.yield %b1 : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c24 = arith.constant 24 : index
    %c32 = arith.constant 32 : index
    %nan = arith.constant 0x7FC00000 : f32
    %i3 = arith.constant 3 : i32
    %i5 = arith.constant 5 : i32
    %i7 = arith.constant 7 : i32
    %i11 = arith.constant 11 : i32
    %i100 = arith.constant 100 : i32

    // x[i][j] = (i * 16 + j - 100) / 4, y[i][j] = ((i * 5 + j * 3) mod 11) - 5,
    // nonzero: 6 where it would be 0; x[3][5] = NaN. Integer inputs alike.
    %x = gpu.alloc host_shared () : memref<16x16xf32>
    %y = gpu.alloc host_shared () : memref<16x16xf32>
    %xi = gpu.alloc host_shared () : memref<16x16xi32>
    %yi = gpu.alloc host_shared () : memref<16x16xi32>
    %h = gpu.alloc host_shared () : memref<16x16xf16>
    %i0 = arith.constant 0 : i32
    %i6 = arith.constant 6 : i32
    %i16 = arith.constant 16 : i32
    %quarter = arith.constant 0.25 : f32
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %r = arith.muli %ii, %i16 : i32
        %rj = arith.addi %r, %jj : i32
        %v = arith.subi %rj, %i100 : i32
        %vf = arith.sitofp %v : i32 to f32
        %vq = arith.mulf %vf, %quarter : f32
        memref.store %vq, %x[%i, %j] : memref<16x16xf32>
        %vm = arith.muli %v, %i7 : i32
        memref.store %vm, %xi[%i, %j] : memref<16x16xi32>
        %vh = arith.truncf %vq : f32 to f16
        memref.store %vh, %h[%i, %j] : memref<16x16xf16>
        %p = arith.muli %ii, %i5 : i32
        %q = arith.muli %jj, %i3 : i32
        %pq = arith.addi %p, %q : i32
        %m = arith.remui %pq, %i11 : i32
        %w0 = arith.subi %m, %i5 : i32
        %isz = arith.cmpi eq, %w0, %i0 : i32
        %w = arith.select %isz, %i6, %w0 : i32
        %wf = arith.sitofp %w : i32 to f32
        memref.store %wf, %y[%i, %j] : memref<16x16xf32>
        memref.store %w, %yi[%i, %j] : memref<16x16xi32>
      }
    }
    memref.store %nan, %x[%c3, %c5] : memref<16x16xf32>

    %of = gpu.alloc host_shared () : memref<7x16x16xf32>
    %rf = gpu.alloc host_shared () : memref<7x16x16xf32>
    gpu.launch_func @kernels::@ew_f32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%x : memref<16x16xf32>, %y : memref<16x16xf32>, %of : memref<7x16x16xf32>)
    gpu.launch_func @kernels::@ew_f32_ref blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%x : memref<16x16xf32>, %y : memref<16x16xf32>, %rf : memref<7x16x16xf32>)
    %ofl = memref.collapse_shape %of [[0, 1, 2]] : memref<7x16x16xf32> into memref<1792xf32>
    %rfl = memref.collapse_shape %rf [[0, 1, 2]] : memref<7x16x16xf32> into memref<1792xf32>
    %ofd = memref.cast %ofl : memref<1792xf32> to memref<?xf32>
    %rfd = memref.cast %rfl : memref<1792xf32> to memref<?xf32>
    %bf = call @mismatchesF32(%ofd, %rfd) : (memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "f32 elementwise mismatches: "
    vector.print %bf : i32
    %mx = memref.load %of[%c3, %c3, %c5] : memref<7x16x16xf32>
    %mn = memref.load %of[%c4, %c3, %c5] : memref<7x16x16xf32>
    vector.print str "maxf, minf at the NaN: "
    vector.print %mx : f32 punctuation <no_punctuation>
    vector.print str " "
    vector.print %mn : f32

    %oi = gpu.alloc host_shared () : memref<6x16x16xi32>
    %ri = gpu.alloc host_shared () : memref<6x16x16xi32>
    gpu.launch_func @kernels::@ew_i32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%xi : memref<16x16xi32>, %yi : memref<16x16xi32>, %oi : memref<6x16x16xi32>)
    gpu.launch_func @kernels::@ew_i32_ref blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%xi : memref<16x16xi32>, %yi : memref<16x16xi32>, %ri : memref<6x16x16xi32>)
    %oil = memref.collapse_shape %oi [[0, 1, 2]] : memref<6x16x16xi32> into memref<1536xi32>
    %ril = memref.collapse_shape %ri [[0, 1, 2]] : memref<6x16x16xi32> into memref<1536xi32>
    %oid = memref.cast %oil : memref<1536xi32> to memref<?xi32>
    %rid = memref.cast %ril : memref<1536xi32> to memref<?xi32>
    %bi = call @mismatches32(%oid, %rid) : (memref<?xi32>, memref<?xi32>) -> i32
    vector.print str "i32 elementwise mismatches: "
    vector.print %bi : i32

    // extf against the host's extf; constant matrices.
    %e = gpu.alloc host_shared () : memref<16x16xf32>
    %er = gpu.alloc host_shared () : memref<16x16xf32>
    %cf = gpu.alloc host_shared () : memref<16x16xf32>
    %ci = gpu.alloc host_shared () : memref<16x16xi32>
    %ch = gpu.alloc host_shared () : memref<16x16xf16>
    gpu.launch_func @kernels::@extf blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%h : memref<16x16xf16>, %e : memref<16x16xf32>, %cf : memref<16x16xf32>,
             %ci : memref<16x16xi32>, %ch : memref<16x16xf16>)
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %v = memref.load %h[%i, %j] : memref<16x16xf16>
        %w = arith.extf %v : f16 to f32
        memref.store %w, %er[%i, %j] : memref<16x16xf32>
      }
    }
    %el = memref.collapse_shape %e [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %erl = memref.collapse_shape %er [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %eld = memref.cast %el : memref<256xf32> to memref<?xf32>
    %erld = memref.cast %erl : memref<256xf32> to memref<?xf32>
    %be = call @mismatchesF32(%eld, %erld) : (memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "extf mismatches: "
    vector.print %be : i32
    // Every element of each constant matrix: the one printed, or a mismatch
    // marker.
    %c15 = arith.constant 15 : index
    %vf = memref.load %cf[%c15, %c15] : memref<16x16xf32>
    %vi = memref.load %ci[%c15, %c3] : memref<16x16xi32>
    %vh = memref.load %ch[%c4, %c15] : memref<16x16xf16>
    %vhf = arith.extf %vh : f16 to f32
    %bc = scf.for %i = %c0 to %c16 step %c1 iter_args(%b = %i0) -> (i32) {
      %bj = scf.for %j = %c0 to %c16 step %c1 iter_args(%b0 = %b) -> (i32) {
        %p = memref.load %cf[%i, %j] : memref<16x16xf32>
        %q = memref.load %ci[%i, %j] : memref<16x16xi32>
        %r = memref.load %ch[%i, %j] : memref<16x16xf16>
        %rf32 = arith.extf %r : f16 to f32
        %n1 = arith.cmpf une, %p, %vf : f32
        %n2 = arith.cmpi ne, %q, %vi : i32
        %n3 = arith.cmpf une, %rf32, %vhf : f32
        %n12 = arith.ori %n1, %n2 : i1
        %n = arith.ori %n12, %n3 : i1
        %one = arith.constant 1 : i32
        %inc = arith.select %n, %one, %i0 : i32
        %b1 = arith.addi %b0, %inc : i32
        scf.yield %b1 : i32
      }
      scf.yield %bj : i32
    }
    vector.print str "constant matrices: "
    vector.print %vf : f32 punctuation <no_punctuation>
    vector.print str " "
    vector.print %vi : i32 punctuation <no_punctuation>
    vector.print str " "
    vector.print %vhf : f32 punctuation <no_punctuation>
    %okc = arith.cmpi eq, %bc, %i0 : i32
    scf.if %okc {
      vector.print str "\n"
    } else {
      vector.print str " (not everywhere)\n"
    }

    // Transposed m8n32k16: at[k][i] = a[i][k]; dt[j][i] = d[i][j].
    %at = gpu.alloc host_shared () : memref<16x8xf16>
    %b8 = gpu.alloc host_shared () : memref<16x32xf16>
    %dt = gpu.alloc host_shared () : memref<32x8xf32>
    %dr = gpu.alloc host_shared () : memref<32x8xf32>
    scf.for %k = %c0 to %c16 step %c1 {
      scf.for %i = %c0 to %c8 step %c1 {
        %kk = arith.index_cast %k : index to i32
        %ii = arith.index_cast %i : index to i32
        %t = arith.muli %ii, %i3 : i32
        %s = arith.subi %t, %kk : i32
        %sf = arith.sitofp %s : i32 to f16
        memref.store %sf, %at[%k, %i] : memref<16x8xf16>
      }
      scf.for %j = %c0 to %c32 step %c1 {
        %kk = arith.index_cast %k : index to i32
        %jj = arith.index_cast %j : index to i32
        %t = arith.addi %kk, %jj : i32
        %m = arith.remui %t, %i7 : i32
        %s = arith.subi %m, %i3 : i32
        %sf = arith.sitofp %s : i32 to f16
        memref.store %sf, %b8[%k, %j] : memref<16x32xf16>
      }
    }
    gpu.launch_func @kernels::@transposed_m8n32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%at : memref<16x8xf16>, %b8 : memref<16x32xf16>, %dt : memref<32x8xf32>)
    %fzero = arith.constant 0.0 : f32
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c32 step %c1 {
        %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %fzero) -> (f32) {
          %p = memref.load %at[%k, %i] : memref<16x8xf16>
          %q = memref.load %b8[%k, %j] : memref<16x32xf16>
          %pf = arith.extf %p : f16 to f32
          %qf = arith.extf %q : f16 to f32
          %pq = arith.mulf %pf, %qf : f32
          %s1 = arith.addf %s, %pq : f32
          scf.yield %s1 : f32
        }
        memref.store %sum, %dr[%j, %i] : memref<32x8xf32>
      }
    }
    %dtl = memref.collapse_shape %dt [[0, 1]] : memref<32x8xf32> into memref<256xf32>
    %drl = memref.collapse_shape %dr [[0, 1]] : memref<32x8xf32> into memref<256xf32>
    %dtd = memref.cast %dtl : memref<256xf32> to memref<?xf32>
    %drd = memref.cast %drl : memref<256xf32> to memref<?xf32>
    %bt = call @mismatchesF32(%dtd, %drd) : (memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "transposed m8n32k16 mismatches: "
    vector.print %bt : i32

    // Transposed 16x16x16 at offsets: A[i][k] = at[4 + k][8 + i],
    // B[k][j] = bt[8 + j][4 + k]; dt2[j][i] = D[i][j].
    %at2 = gpu.alloc host_shared () : memref<24x24xf16>
    %bt2 = gpu.alloc host_shared () : memref<24x24xf16>
    %dt2 = gpu.alloc host_shared () : memref<16x16xf32>
    %dr2 = gpu.alloc host_shared () : memref<16x16xf32>
    scf.for %r = %c0 to %c24 step %c1 {
      scf.for %s = %c0 to %c24 step %c1 {
        %rr = arith.index_cast %r : index to i32
        %ss = arith.index_cast %s : index to i32
        %t = arith.muli %rr, %i5 : i32
        %u = arith.addi %t, %ss : i32
        %m = arith.remui %u, %i11 : i32
        %v = arith.subi %m, %i5 : i32
        %vf2 = arith.sitofp %v : i32 to f16
        memref.store %vf2, %at2[%r, %s] : memref<24x24xf16>
        %w = arith.subi %ss, %rr : i32
        %wf = arith.sitofp %w : i32 to f16
        memref.store %wf, %bt2[%r, %s] : memref<24x24xf16>
      }
    }
    gpu.launch_func @kernels::@transposed_m16 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%at2 : memref<24x24xf16>, %bt2 : memref<24x24xf16>, %dt2 : memref<16x16xf32>)
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %sum = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %fzero) -> (f32) {
          %ak = arith.addi %k, %c4 : index
          %ai = arith.addi %i, %c8 : index
          %bj = arith.addi %j, %c8 : index
          %bk = arith.addi %k, %c4 : index
          %p = memref.load %at2[%ak, %ai] : memref<24x24xf16>
          %q = memref.load %bt2[%bj, %bk] : memref<24x24xf16>
          %pf = arith.extf %p : f16 to f32
          %qf = arith.extf %q : f16 to f32
          %pq = arith.mulf %pf, %qf : f32
          %s1 = arith.addf %s, %pq : f32
          scf.yield %s1 : f32
        }
        memref.store %sum, %dr2[%j, %i] : memref<16x16xf32>
      }
    }
    %dt2l = memref.collapse_shape %dt2 [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %dr2l = memref.collapse_shape %dr2 [[0, 1]] : memref<16x16xf32> into memref<256xf32>
    %dt2d = memref.cast %dt2l : memref<256xf32> to memref<?xf32>
    %dr2d = memref.cast %dr2l : memref<256xf32> to memref<?xf32>
    %bt2b = call @mismatchesF32(%dt2d, %dr2d) : (memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "transposed m16n16k16 mismatches: "
    vector.print %bt2b : i32
    return
  }
}
