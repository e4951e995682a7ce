// gpu.subgroup_mma_compute for every element type the gpu dialect allows, on
// the host target, against a scalar reference kernel: f32 x f32 -> f32,
// f64 x f64 -> f64 (exact: small integers), f16 x f16 -> f16 (accumulated in
// f32, rounded every two k; small integers, exact), si8 x si8 -> i32 and
// ui8 x ui8 -> i32 (the same bytes: values of 128 and more are negative for
// si8, so the two results differ; wrapping i32 arithmetic).
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run -O0 %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s

// CHECK: f32 mismatches: 0
// CHECK: f64 mismatches: 0
// CHECK: f16 mismatches: 0
// CHECK: si8 mismatches: 0
// CHECK: ui8 mismatches: 0
// The signedness matters: the two results differ.
// CHECK: si8 d[0][0] = [[SI:-?[0-9]+]]
// CHECK-NOT: ui8 d[0][0] = [[SI]]{{$}}
// CHECK: ui8 d[0][0] =

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @f32(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf32> -> !gpu.mma_matrix<16x16xf32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf32, "AOp">, !gpu.mma_matrix<16x16xf32, "BOp"> -> !gpu.mma_matrix<16x16xf32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf32, "COp">, memref<16x16xf32>
      gpu.return
    }
    // DMMA's shape, m8n8k4.
    gpu.func @f64(%a: memref<8x4xf64>, %b: memref<4x8xf64>, %c: memref<8x8xf64>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 4 : index} : memref<8x4xf64> -> !gpu.mma_matrix<8x4xf64, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 8 : index} : memref<4x8xf64> -> !gpu.mma_matrix<4x8xf64, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 8 : index} : memref<8x8xf64> -> !gpu.mma_matrix<8x8xf64, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<8x4xf64, "AOp">, !gpu.mma_matrix<4x8xf64, "BOp"> -> !gpu.mma_matrix<8x8xf64, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 8 : index} : !gpu.mma_matrix<8x8xf64, "COp">, memref<8x8xf64>
      gpu.return
    }
    gpu.func @f16(%a: memref<16x16xf16>, %b: memref<16x16xf16>, %c: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
    gpu.func @si8(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xsi8, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xsi8, "AOp">, !gpu.mma_matrix<16x16xsi8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.return
    }
    gpu.func @ui8(%a: memref<16x16xi8>, %b: memref<16x16xi8>, %c: memref<16x16xi32>) kernel {
      %c0 = arith.constant 0 : index
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xui8, "AOp">
      %B = gpu.subgroup_mma_load_matrix %b[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi8> -> !gpu.mma_matrix<16x16xui8, "BOp">
      %C = gpu.subgroup_mma_load_matrix %c[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xi32> -> !gpu.mma_matrix<16x16xi32, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xui8, "AOp">, !gpu.mma_matrix<16x16xui8, "BOp"> -> !gpu.mma_matrix<16x16xi32, "COp">
      gpu.subgroup_mma_store_matrix %D, %c[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xi32, "COp">, memref<16x16xi32>
      gpu.return
    }

    // Scalar references, one thread per element of C (c updated in place
    // into r): the sum over k in order, in the accumulator's type (f32 for
    // f16, rounded at the end).
    gpu.func @refF32(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %r: memref<?x?xf32>) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %k = memref.dim %a, %c1 : memref<?x?xf32>
      %init = memref.load %c[%i, %j] : memref<?x?xf32>
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %l] : memref<?x?xf32>
        %y = memref.load %b[%l, %j] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %acc, %p : f32
        scf.yield %q : f32
      }
      memref.store %s, %r[%i, %j] : memref<?x?xf32>
      gpu.return
    }
    gpu.func @refF64(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>, %r: memref<?x?xf64>) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %k = memref.dim %a, %c1 : memref<?x?xf64>
      %init = memref.load %c[%i, %j] : memref<?x?xf64>
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> (f64) {
        %x = memref.load %a[%i, %l] : memref<?x?xf64>
        %y = memref.load %b[%l, %j] : memref<?x?xf64>
        %p = arith.mulf %x, %y : f64
        %q = arith.addf %acc, %p : f64
        scf.yield %q : f64
      }
      memref.store %s, %r[%i, %j] : memref<?x?xf64>
      gpu.return
    }
    gpu.func @refF16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf16>, %r: memref<?x?xf16>) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %k = memref.dim %a, %c1 : memref<?x?xf16>
      %init16 = memref.load %c[%i, %j] : memref<?x?xf16>
      %init = arith.extf %init16 : f16 to f32
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> (f32) {
        %x = memref.load %a[%i, %l] : memref<?x?xf16>
        %y = memref.load %b[%l, %j] : memref<?x?xf16>
        %xf = arith.extf %x : f16 to f32
        %yf = arith.extf %y : f16 to f32
        %p = arith.mulf %xf, %yf : f32
        %q = arith.addf %acc, %p : f32
        scf.yield %q : f32
      }
      %s16 = arith.truncf %s : f32 to f16
      memref.store %s16, %r[%i, %j] : memref<?x?xf16>
      gpu.return
    }
    // %unsigned: zero-extend the bytes, else sign-extend.
    gpu.func @refInt(%a: memref<?x?xi8>, %b: memref<?x?xi8>, %c: memref<?x?xi32>, %r: memref<?x?xi32>, %unsigned: i1) kernel {
      %i = gpu.thread_id y
      %j = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %k = memref.dim %a, %c1 : memref<?x?xi8>
      %init = memref.load %c[%i, %j] : memref<?x?xi32>
      %s = scf.for %l = %c0 to %k step %c1 iter_args(%acc = %init) -> (i32) {
        %x = memref.load %a[%i, %l] : memref<?x?xi8>
        %y = memref.load %b[%l, %j] : memref<?x?xi8>
        %xs = arith.extsi %x : i8 to i32
        %ys = arith.extsi %y : i8 to i32
        %xu = arith.extui %x : i8 to i32
        %yu = arith.extui %y : i8 to i32
        %xe = arith.select %unsigned, %xu, %xs : i32
        %ye = arith.select %unsigned, %yu, %ys : i32
        %p = arith.muli %xe, %ye : i32
        %q = arith.addi %acc, %p : i32
        scf.yield %q : i32
      }
      memref.store %s, %r[%i, %j] : memref<?x?xi32>
      gpu.return
    }
  }

  // v(i, j) = ((i * 7 + j * 3 + seed) mod 9) - 4.
  func.func @value(%i: index, %j: index, %seed: i32) -> i32 {
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %c7 = arith.constant 7 : i32
    %c3 = arith.constant 3 : i32
    %c9 = arith.constant 9 : i32
    %c4 = arith.constant 4 : i32
    %x = arith.muli %ii, %c7 : i32
    %y = arith.muli %jj, %c3 : i32
    %xy = arith.addi %x, %y : i32
    %s = arith.addi %xy, %seed : i32
    %m = arith.remui %s, %c9 : i32
    %v = arith.subi %m, %c4 : i32
    return %v : i32
  }
  func.func @fillF32(%m: memref<?x?xf32>, %seed: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xf32>
    %s = memref.dim %m, %c1 : memref<?x?xf32>
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %v = func.call @value(%i, %j, %seed) : (index, index, i32) -> i32
        %f = arith.sitofp %v : i32 to f32
        memref.store %f, %m[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }
  func.func @fillF64(%m: memref<?x?xf64>, %seed: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xf64>
    %s = memref.dim %m, %c1 : memref<?x?xf64>
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %v = func.call @value(%i, %j, %seed) : (index, index, i32) -> i32
        %f = arith.sitofp %v : i32 to f64
        memref.store %f, %m[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }
  func.func @fillF16(%m: memref<?x?xf16>, %seed: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xf16>
    %s = memref.dim %m, %c1 : memref<?x?xf16>
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %v = func.call @value(%i, %j, %seed) : (index, index, i32) -> i32
        %f = arith.sitofp %v : i32 to f16
        memref.store %f, %m[%i, %j] : memref<?x?xf16>
      }
    }
    return
  }
  // Bytes v * 29 + 3 (mod 256): about half of them 128 or more.
  func.func @fillI8(%m: memref<?x?xi8>, %seed: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xi8>
    %s = memref.dim %m, %c1 : memref<?x?xi8>
    %c29 = arith.constant 29 : i32
    %c3 = arith.constant 3 : i32
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %v = func.call @value(%i, %j, %seed) : (index, index, i32) -> i32
        %w = arith.muli %v, %c29 : i32
        %x = arith.addi %w, %c3 : i32
        %b = arith.trunci %x : i32 to i8
        memref.store %b, %m[%i, %j] : memref<?x?xi8>
      }
    }
    return
  }
  func.func @fillI32(%m: memref<?x?xi32>, %seed: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xi32>
    %s = memref.dim %m, %c1 : memref<?x?xi32>
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %v = func.call @value(%i, %j, %seed) : (index, index, i32) -> i32
        memref.store %v, %m[%i, %j] : memref<?x?xi32>
      }
    }
    return
  }
  // Mismatches of two buffers of n elements of elementBytes bytes, bytewise.
  func.func @mismatches(%got: memref<?xi8>, %want: memref<?xi8>, %elementBytes: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %got, %c0 : memref<?xi8>
    %e = arith.divui %n, %elementBytes : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %bad = scf.for %i = %c0 to %e step %c1 iter_args(%b = %zero) -> (i32) {
      %base = arith.muli %i, %elementBytes : index
      %diff = scf.for %l = %c0 to %elementBytes step %c1 iter_args(%d = %zero) -> (i32) {
        %o = arith.addi %base, %l : index
        %x = memref.load %got[%o] : memref<?xi8>
        %y = memref.load %want[%o] : memref<?xi8>
        %ne = arith.cmpi ne, %x, %y : i8
        %inc = arith.select %ne, %one, %zero : i32
        %d1 = arith.ori %d, %inc : i32
        scf.yield %d1 : i32
      }
      %b1 = arith.addi %b, %diff : i32
      scf.yield %b1 : i32
    }
    return %bad : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %s0 = arith.constant 0 : i32
    %s1 = arith.constant 1 : i32
    %s2 = arith.constant 2 : i32
    %false = arith.constant false
    %true = arith.constant true

    // f32: 16x16 matrices as bytes, viewed as f32.
    %fa8 = gpu.alloc host_shared () : memref<1024xi8>
    %fb8 = gpu.alloc host_shared () : memref<1024xi8>
    %fc8 = gpu.alloc host_shared () : memref<1024xi8>
    %fr8 = gpu.alloc host_shared () : memref<1024xi8>
    %fa = memref.view %fa8[%c0][] : memref<1024xi8> to memref<16x16xf32>
    %fb = memref.view %fb8[%c0][] : memref<1024xi8> to memref<16x16xf32>
    %fc = memref.view %fc8[%c0][] : memref<1024xi8> to memref<16x16xf32>
    %fr = memref.view %fr8[%c0][] : memref<1024xi8> to memref<16x16xf32>
    %fad = memref.cast %fa : memref<16x16xf32> to memref<?x?xf32>
    %fbd = memref.cast %fb : memref<16x16xf32> to memref<?x?xf32>
    %fcd = memref.cast %fc : memref<16x16xf32> to memref<?x?xf32>
    %frd = memref.cast %fr : memref<16x16xf32> to memref<?x?xf32>
    call @fillF32(%fad, %s0) : (memref<?x?xf32>, i32) -> ()
    call @fillF32(%fbd, %s1) : (memref<?x?xf32>, i32) -> ()
    call @fillF32(%fcd, %s2) : (memref<?x?xf32>, i32) -> ()
    gpu.launch_func @kernels::@refF32 blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%fad : memref<?x?xf32>, %fbd : memref<?x?xf32>, %fcd : memref<?x?xf32>, %frd : memref<?x?xf32>)
    gpu.launch_func @kernels::@f32 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%fa : memref<16x16xf32>, %fb : memref<16x16xf32>, %fc : memref<16x16xf32>)
    %fc8d = memref.cast %fc8 : memref<1024xi8> to memref<?xi8>
    %fr8d = memref.cast %fr8 : memref<1024xi8> to memref<?xi8>
    %bf = call @mismatches(%fc8d, %fr8d, %c4) : (memref<?xi8>, memref<?xi8>, index) -> i32
    vector.print str "f32 mismatches: "
    vector.print %bf : i32

    // f64, m8n8k4.
    %da8 = gpu.alloc host_shared () : memref<256xi8>
    %db8 = gpu.alloc host_shared () : memref<256xi8>
    %dc8 = gpu.alloc host_shared () : memref<512xi8>
    %dr8 = gpu.alloc host_shared () : memref<512xi8>
    %da = memref.view %da8[%c0][] : memref<256xi8> to memref<8x4xf64>
    %db = memref.view %db8[%c0][] : memref<256xi8> to memref<4x8xf64>
    %dc = memref.view %dc8[%c0][] : memref<512xi8> to memref<8x8xf64>
    %dr = memref.view %dr8[%c0][] : memref<512xi8> to memref<8x8xf64>
    %dad = memref.cast %da : memref<8x4xf64> to memref<?x?xf64>
    %dbd = memref.cast %db : memref<4x8xf64> to memref<?x?xf64>
    %dcd = memref.cast %dc : memref<8x8xf64> to memref<?x?xf64>
    %drd = memref.cast %dr : memref<8x8xf64> to memref<?x?xf64>
    call @fillF64(%dad, %s0) : (memref<?x?xf64>, i32) -> ()
    call @fillF64(%dbd, %s1) : (memref<?x?xf64>, i32) -> ()
    call @fillF64(%dcd, %s2) : (memref<?x?xf64>, i32) -> ()
    gpu.launch_func @kernels::@refF64 blocks in (%c1, %c1, %c1) threads in (%c8, %c8, %c1)
        args(%dad : memref<?x?xf64>, %dbd : memref<?x?xf64>, %dcd : memref<?x?xf64>, %drd : memref<?x?xf64>)
    gpu.launch_func @kernels::@f64 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%da : memref<8x4xf64>, %db : memref<4x8xf64>, %dc : memref<8x8xf64>)
    %dc8d = memref.cast %dc8 : memref<512xi8> to memref<?xi8>
    %dr8d = memref.cast %dr8 : memref<512xi8> to memref<?xi8>
    %bd = call @mismatches(%dc8d, %dr8d, %c8) : (memref<?xi8>, memref<?xi8>, index) -> i32
    vector.print str "f64 mismatches: "
    vector.print %bd : i32

    // f16 with an f16 accumulator.
    %ha8 = gpu.alloc host_shared () : memref<512xi8>
    %hb8 = gpu.alloc host_shared () : memref<512xi8>
    %hc8 = gpu.alloc host_shared () : memref<512xi8>
    %hr8 = gpu.alloc host_shared () : memref<512xi8>
    %ha = memref.view %ha8[%c0][] : memref<512xi8> to memref<16x16xf16>
    %hb = memref.view %hb8[%c0][] : memref<512xi8> to memref<16x16xf16>
    %hc = memref.view %hc8[%c0][] : memref<512xi8> to memref<16x16xf16>
    %hr = memref.view %hr8[%c0][] : memref<512xi8> to memref<16x16xf16>
    %had = memref.cast %ha : memref<16x16xf16> to memref<?x?xf16>
    %hbd = memref.cast %hb : memref<16x16xf16> to memref<?x?xf16>
    %hcd = memref.cast %hc : memref<16x16xf16> to memref<?x?xf16>
    %hrd = memref.cast %hr : memref<16x16xf16> to memref<?x?xf16>
    call @fillF16(%had, %s0) : (memref<?x?xf16>, i32) -> ()
    call @fillF16(%hbd, %s1) : (memref<?x?xf16>, i32) -> ()
    call @fillF16(%hcd, %s2) : (memref<?x?xf16>, i32) -> ()
    gpu.launch_func @kernels::@refF16 blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%had : memref<?x?xf16>, %hbd : memref<?x?xf16>, %hcd : memref<?x?xf16>, %hrd : memref<?x?xf16>)
    gpu.launch_func @kernels::@f16 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%ha : memref<16x16xf16>, %hb : memref<16x16xf16>, %hc : memref<16x16xf16>)
    %hc8d = memref.cast %hc8 : memref<512xi8> to memref<?xi8>
    %hr8d = memref.cast %hr8 : memref<512xi8> to memref<?xi8>
    %bh = call @mismatches(%hc8d, %hr8d, %c2) : (memref<?xi8>, memref<?xi8>, index) -> i32
    vector.print str "f16 mismatches: "
    vector.print %bh : i32

    // si8 and ui8 on the same bytes.
    %ia = gpu.alloc host_shared () : memref<16x16xi8>
    %ib = gpu.alloc host_shared () : memref<16x16xi8>
    %ic8 = gpu.alloc host_shared () : memref<1024xi8>
    %ir8 = gpu.alloc host_shared () : memref<1024xi8>
    %ic = memref.view %ic8[%c0][] : memref<1024xi8> to memref<16x16xi32>
    %ir = memref.view %ir8[%c0][] : memref<1024xi8> to memref<16x16xi32>
    %iad = memref.cast %ia : memref<16x16xi8> to memref<?x?xi8>
    %ibd = memref.cast %ib : memref<16x16xi8> to memref<?x?xi8>
    %icd = memref.cast %ic : memref<16x16xi32> to memref<?x?xi32>
    %ird = memref.cast %ir : memref<16x16xi32> to memref<?x?xi32>
    %ic8d = memref.cast %ic8 : memref<1024xi8> to memref<?xi8>
    %ir8d = memref.cast %ir8 : memref<1024xi8> to memref<?xi8>
    call @fillI8(%iad, %s0) : (memref<?x?xi8>, i32) -> ()
    call @fillI8(%ibd, %s1) : (memref<?x?xi8>, i32) -> ()
    call @fillI32(%icd, %s2) : (memref<?x?xi32>, i32) -> ()
    gpu.launch_func @kernels::@refInt blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%iad : memref<?x?xi8>, %ibd : memref<?x?xi8>, %icd : memref<?x?xi32>, %ird : memref<?x?xi32>, %false : i1)
    gpu.launch_func @kernels::@si8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%ia : memref<16x16xi8>, %ib : memref<16x16xi8>, %ic : memref<16x16xi32>)
    %bs = call @mismatches(%ic8d, %ir8d, %c4) : (memref<?xi8>, memref<?xi8>, index) -> i32
    vector.print str "si8 mismatches: "
    vector.print %bs : i32
    %sv = memref.load %ic[%c0, %c0] : memref<16x16xi32>

    call @fillI32(%icd, %s2) : (memref<?x?xi32>, i32) -> ()
    gpu.launch_func @kernels::@refInt blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1)
        args(%iad : memref<?x?xi8>, %ibd : memref<?x?xi8>, %icd : memref<?x?xi32>, %ird : memref<?x?xi32>, %true : i1)
    gpu.launch_func @kernels::@ui8 blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%ia : memref<16x16xi8>, %ib : memref<16x16xi8>, %ic : memref<16x16xi32>)
    %bu = call @mismatches(%ic8d, %ir8d, %c4) : (memref<?xi8>, memref<?xi8>, index) -> i32
    vector.print str "ui8 mismatches: "
    vector.print %bu : i32
    %uv = memref.load %ic[%c0, %c0] : memref<16x16xi32>
    vector.print str "si8 d[0][0] = "
    vector.print %sv : i32
    vector.print str "ui8 d[0][0] = "
    vector.print %uv : i32
    return
  }
}
