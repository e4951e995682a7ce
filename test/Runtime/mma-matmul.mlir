// gpu.subgroup_mma_* matrix products on the host target, against a scalar
// reference computed by the host in the same program (f16 inputs are small
// integers, so every product and sum is exact in f32 and the results must be
// bit-identical): one 16x16x16 product with a loaded accumulator; a 32x32
// result of 4 subgroups of one block (128 threads), each computing its own
// tile with an accumulator carried by scf.for over 4 K tiles, then the same
// with 2 blocks of 2 subgroups (64 threads); the shapes m8n32k16 and
// m32n8k16. Modeled on upstream's
// mlir/test/Integration/GPU/CUDA/TensorCore/wmma-matmul-f32.mlir.
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run -O0 %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s

// C[0][0] = 1 + sum_k k * k, C[0][1] = 1 + sum_k k * (k - 1), ...
// CHECK: [1241,  1121,  1001,  881,  761,  641,  521,  401,  281,  161,  41,  -79,  -199,  -319,  -439,  -559]
// CHECK: m16n16k16 mismatches: 0
// CHECK: 4 subgroups x 4 K tiles mismatches: 0
// CHECK: 2 blocks x 2 subgroups mismatches: 0
// CHECK: m8n32k16 mismatches: 0
// CHECK: m32n8k16 mismatches: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // One subgroup: D = A * B + C for 16x16 tiles at the origin.
    gpu.func @mma16(%a: memref<16x16xf16>, %b: memref<16x16xf16>,
                    %c: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index}
          : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C
          : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
          -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }

    // C (MxN) = A (MxK) * B (KxN), 16x16 tiles: subgroup s of block b
    // computes tile t = b * subgroups + s, row-major over the tiles of C;
    // K is walked in tiles of 16 with the accumulator in scf.for.
    gpu.func @tiled(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                    %c: memref<?x?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %zero = arith.constant 0.0 : f32
      %c1 = arith.constant 1 : index
      %kk = memref.dim %a, %c1 : memref<?x?xf16>
      %nn = memref.dim %c, %c1 : memref<?x?xf32>
      %sg = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %bid = gpu.block_id x
      %base = arith.muli %bid, %nsg : index
      %t = arith.addi %base, %sg : index
      %tilesPerRow = arith.divui %nn, %c16 : index
      %ti = arith.divui %t, %tilesPerRow : index
      %tj = arith.remui %t, %tilesPerRow : index
      %row = arith.muli %ti, %c16 : index
      %col = arith.muli %tj, %c16 : index
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %kt = %c0 to %kk step %c16 iter_args(%acc0 = %init)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        %A = gpu.subgroup_mma_load_matrix %a[%row, %kt] {leadDimension = 64 : index}
            : memref<?x?xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %B = gpu.subgroup_mma_load_matrix %b[%kt, %col] {leadDimension = 32 : index}
            : memref<?x?xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %D = gpu.subgroup_mma_compute %A, %B, %acc0
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        scf.yield %D : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %c[%row, %col] {leadDimension = 32 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<?x?xf32>
      gpu.return
    }

    // m8n32k16 and m32n8k16: one product each, C = A * B.
    gpu.func @m8n32(%a: memref<8x16xf16>, %b: memref<16x32xf16>,
                    %c: memref<8x32xf32>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
          : memref<8x16xf16> -> !gpu.mma_matrix<8x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 32 : index}
          : memref<16x32xf16> -> !gpu.mma_matrix<16x32xf16, "BOp">
      %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<8x32xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C
          : !gpu.mma_matrix<8x16xf16, "AOp">, !gpu.mma_matrix<16x32xf16, "BOp">
          -> !gpu.mma_matrix<8x32xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 32 : index}
          : !gpu.mma_matrix<8x32xf32, "COp">, memref<8x32xf32>
      gpu.return
    }
    gpu.func @m32n8(%a: memref<32x16xf16>, %b: memref<16x8xf16>,
                    %c: memref<32x8xf32>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f32
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index}
          : memref<32x16xf16> -> !gpu.mma_matrix<32x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index}
          : memref<16x8xf16> -> !gpu.mma_matrix<16x8xf16, "BOp">
      %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<32x8xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C
          : !gpu.mma_matrix<32x16xf16, "AOp">, !gpu.mma_matrix<16x8xf16, "BOp">
          -> !gpu.mma_matrix<32x8xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 8 : index}
          : !gpu.mma_matrix<32x8xf32, "COp">, memref<32x8xf32>
      gpu.return
    }
  }

  // a[i][j] = (i * 3 + j * 5) mod 7 - 3 + bias: small integers, exact in f16.
  func.func @fill(%m: memref<?x?xf16>, %bias: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xf16>
    %s = memref.dim %m, %c1 : memref<?x?xf16>
    %c3 = arith.constant 3 : i32
    %c5 = arith.constant 5 : i32
    %c7 = arith.constant 7 : i32
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %x = arith.muli %ii, %c3 : i32
        %y = arith.muli %jj, %c5 : i32
        %xy = arith.addi %x, %y : i32
        %m7 = arith.remui %xy, %c7 : i32
        %v0 = arith.subi %m7, %c3 : i32
        %v = arith.addi %v0, %bias : i32
        %f = arith.sitofp %v : i32 to f16
        memref.store %f, %m[%i, %j] : memref<?x?xf16>
      }
    }
    return
  }

  // How many elements of c differ from acc + a * b (scalar, in f32).
  func.func @check(%a: memref<?x?xf16>, %b: memref<?x?xf16>,
                   %c: memref<?x?xf32>, %acc: f32) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %m = memref.dim %c, %c0 : memref<?x?xf32>
    %n = memref.dim %c, %c1 : memref<?x?xf32>
    %k = memref.dim %a, %c1 : memref<?x?xf16>
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %m step %c1 iter_args(%bi = %zero) -> (i32) {
      %bj = scf.for %j = %c0 to %n step %c1 iter_args(%b0 = %bi) -> (i32) {
        %sum = scf.for %l = %c0 to %k step %c1 iter_args(%s = %acc) -> (f32) {
          %x = memref.load %a[%i, %l] : memref<?x?xf16>
          %y = memref.load %b[%l, %j] : memref<?x?xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %s1 = arith.addf %s, %p : f32
          scf.yield %s1 : f32
        }
        %got = memref.load %c[%i, %j] : memref<?x?xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %inc = arith.select %ne, %one, %zero : i32
        %b1 = arith.addi %b0, %inc : i32
        scf.yield %b1 : i32
      }
      scf.yield %bj : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %f0 = arith.constant 0.0 : f32
    %f1 = arith.constant 1.0 : f32

    // 16x16x16: a[i][k] = i + k, b[k][j] = k - j, c = 1.
    %a = gpu.alloc host_shared () : memref<16x16xf16>
    %b = gpu.alloc host_shared () : memref<16x16xf16>
    %c = gpu.alloc host_shared () : memref<16x16xf32>
    %c16 = arith.constant 16 : index
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %s = arith.addi %ii, %jj : i32
        %sf = arith.sitofp %s : i32 to f16
        memref.store %sf, %a[%i, %j] : memref<16x16xf16>
        %d = arith.subi %ii, %jj : i32
        %df = arith.sitofp %d : i32 to f16
        memref.store %df, %b[%i, %j] : memref<16x16xf16>
        memref.store %f1, %c[%i, %j] : memref<16x16xf32>
      }
    }
    gpu.launch_func @kernels::@mma16 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%a : memref<16x16xf16>, %b : memref<16x16xf16>, %c : memref<16x16xf32>)
    %row0 = memref.subview %c[0, 0] [1, 16] [1, 1] : memref<16x16xf32> to memref<16xf32, strided<[1]>>
    %r0 = memref.cast %row0 : memref<16xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%r0) : (memref<*xf32>) -> ()
    %ad = memref.cast %a : memref<16x16xf16> to memref<?x?xf16>
    %bd = memref.cast %b : memref<16x16xf16> to memref<?x?xf16>
    %cd = memref.cast %c : memref<16x16xf32> to memref<?x?xf32>
    %bad1 = call @check(%ad, %bd, %cd, %f1) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32) -> i32
    vector.print str "m16n16k16 mismatches: "
    vector.print %bad1 : i32

    // 32x32 = 32x64 * 64x32: one block of 4 subgroups, then 2 blocks of 2.
    %ta = gpu.alloc host_shared () : memref<32x64xf16>
    %tb = gpu.alloc host_shared () : memref<64x32xf16>
    %tc = gpu.alloc host_shared () : memref<32x32xf32>
    %tad = memref.cast %ta : memref<32x64xf16> to memref<?x?xf16>
    %tbd = memref.cast %tb : memref<64x32xf16> to memref<?x?xf16>
    %tcd = memref.cast %tc : memref<32x32xf32> to memref<?x?xf32>
    call @fill(%tad, %i0) : (memref<?x?xf16>, i32) -> ()
    call @fill(%tbd, %i1) : (memref<?x?xf16>, i32) -> ()
    gpu.launch_func @kernels::@tiled blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1)
        args(%tad : memref<?x?xf16>, %tbd : memref<?x?xf16>, %tcd : memref<?x?xf32>)
    %bad2 = call @check(%tad, %tbd, %tcd, %f0) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32) -> i32
    vector.print str "4 subgroups x 4 K tiles mismatches: "
    vector.print %bad2 : i32
    %tc2 = gpu.alloc host_shared () : memref<32x32xf32>
    %tc2d = memref.cast %tc2 : memref<32x32xf32> to memref<?x?xf32>
    gpu.launch_func @kernels::@tiled blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%tad : memref<?x?xf16>, %tbd : memref<?x?xf16>, %tc2d : memref<?x?xf32>)
    %bad3 = call @check(%tad, %tbd, %tc2d, %f0) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32) -> i32
    vector.print str "2 blocks x 2 subgroups mismatches: "
    vector.print %bad3 : i32

    // m8n32k16 and m32n8k16.
    %xa = gpu.alloc host_shared () : memref<8x16xf16>
    %xb = gpu.alloc host_shared () : memref<16x32xf16>
    %xc = gpu.alloc host_shared () : memref<8x32xf32>
    %xad = memref.cast %xa : memref<8x16xf16> to memref<?x?xf16>
    %xbd = memref.cast %xb : memref<16x32xf16> to memref<?x?xf16>
    %xcd = memref.cast %xc : memref<8x32xf32> to memref<?x?xf32>
    call @fill(%xad, %i1) : (memref<?x?xf16>, i32) -> ()
    call @fill(%xbd, %i0) : (memref<?x?xf16>, i32) -> ()
    gpu.launch_func @kernels::@m8n32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%xa : memref<8x16xf16>, %xb : memref<16x32xf16>, %xc : memref<8x32xf32>)
    %bad4 = call @check(%xad, %xbd, %xcd, %f0) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32) -> i32
    vector.print str "m8n32k16 mismatches: "
    vector.print %bad4 : i32
    %ya = gpu.alloc host_shared () : memref<32x16xf16>
    %yb = gpu.alloc host_shared () : memref<16x8xf16>
    %yc = gpu.alloc host_shared () : memref<32x8xf32>
    %yad = memref.cast %ya : memref<32x16xf16> to memref<?x?xf16>
    %ybd = memref.cast %yb : memref<16x8xf16> to memref<?x?xf16>
    %ycd = memref.cast %yc : memref<32x8xf32> to memref<?x?xf32>
    call @fill(%yad, %i0) : (memref<?x?xf16>, i32) -> ()
    call @fill(%ybd, %i1) : (memref<?x?xf16>, i32) -> ()
    gpu.launch_func @kernels::@m32n8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%ya : memref<32x16xf16>, %yb : memref<16x8xf16>, %yc : memref<32x8xf32>)
    %bad5 = call @check(%yad, %ybd, %ycd, %f0) : (memref<?x?xf16>, memref<?x?xf16>, memref<?x?xf32>, f32) -> i32
    vector.print str "m32n8k16 mismatches: "
    vector.print %bad5 : i32
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
