// A WMMA matmul that stages its tiles in workgroup memory between barriers,
// with the accumulator fragment carried by the K loop across them: thread
// loops (the fragment of each thread lives in a per-thread array across the
// barriers; OFFLOAD_TRACE=1 shows no fibers) and fibers compute the same,
// against a scalar reference. C (32x32) = A (32x64) * B (64x32); block b of 64
// threads (2 subgroups) computes rows 16b..16b+15, subgroup s columns
// 16s..16s+15.
//
// RUN: env OFFLOAD_TRACE=1 offload-run %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS
// RUN: offload-run -O0 %s | FileCheck %s
// RUN: env OFFLOAD_TRACE=1 offload-run --thread-loops=false %s 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: offload-run --jit %s | FileCheck %s

// FIBERS: kernel staged{{.*}} runs on fibers
// LOOPS-NOT: runs on fibers
// CHECK: staged mismatches: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @staged(%a: memref<32x64xf16>, %b: memref<64x32xf16>, %c: memref<32x32xf32>)
        workgroup(%sa: memref<16x16xf16, #gpu.address_space<workgroup>>,
                  %sb: memref<16x32xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %sg = gpu.subgroup_id : index
      %row = arith.muli %bid, %c16 : index
      %col = arith.muli %sg, %c16 : index
      %init = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf32, "COp">
      %acc = scf.for %kt = %c0 to %c64 step %c16 iter_args(%acc0 = %init)
          -> (!gpu.mma_matrix<16x16xf32, "COp">) {
        // A tile: thread t copies row t / 4, columns 4 (t mod 4) .. + 3.
        %ar = arith.divui %tid, %c4 : index
        %ac0 = arith.remui %tid, %c4 : index
        %ac = arith.muli %ac0, %c4 : index
        %gar = arith.addi %row, %ar : index
        %gac = arith.addi %kt, %ac : index
        %va = vector.load %a[%gar, %gac] : memref<32x64xf16>, vector<4xf16>
        vector.store %va, %sa[%ar, %ac] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<4xf16>
        // B tile: thread t copies row t / 4, columns 8 (t mod 4) .. + 7.
        %bc = arith.muli %ac0, %c8 : index
        %gbr = arith.addi %kt, %ar : index
        %vb = vector.load %b[%gbr, %bc] : memref<64x32xf16>, vector<8xf16>
        vector.store %vb, %sb[%ar, %bc] : memref<16x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %A = gpu.subgroup_mma_load_matrix %sa[%c0, %c0] {leadDimension = 16 : index}
            : memref<16x16xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "AOp">
        %B = gpu.subgroup_mma_load_matrix %sb[%c0, %col] {leadDimension = 32 : index}
            : memref<16x32xf16, #gpu.address_space<workgroup>> -> !gpu.mma_matrix<16x16xf16, "BOp">
        %D = gpu.subgroup_mma_compute %A, %B, %acc0
            : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp">
            -> !gpu.mma_matrix<16x16xf32, "COp">
        gpu.barrier
        scf.yield %D : !gpu.mma_matrix<16x16xf32, "COp">
      }
      gpu.subgroup_mma_store_matrix %acc, %c[%row, %col] {leadDimension = 32 : index}
          : !gpu.mma_matrix<16x16xf32, "COp">, memref<32x32xf32>
      gpu.return
    }
  }

  func.func @fill(%m: memref<?x?xf16>, %seed: i32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = memref.dim %m, %c0 : memref<?x?xf16>
    %s = memref.dim %m, %c1 : memref<?x?xf16>
    %c5 = arith.constant 5 : i32
    %c3 = arith.constant 3 : i32
    %c9 = arith.constant 9 : i32
    %c4 = arith.constant 4 : i32
    scf.for %i = %c0 to %r step %c1 {
      scf.for %j = %c0 to %s step %c1 {
        %ii = arith.index_cast %i : index to i32
        %jj = arith.index_cast %j : index to i32
        %x = arith.muli %ii, %c5 : i32
        %y = arith.muli %jj, %c3 : i32
        %xy = arith.addi %x, %y : i32
        %xs = arith.addi %xy, %seed : i32
        %m9 = arith.remui %xs, %c9 : i32
        %v = arith.subi %m9, %c4 : i32
        %f = arith.sitofp %v : i32 to f16
        memref.store %f, %m[%i, %j] : memref<?x?xf16>
      }
    }
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %s0 = arith.constant 0 : i32
    %s1 = arith.constant 1 : i32
    %a = gpu.alloc host_shared () : memref<32x64xf16>
    %b = gpu.alloc host_shared () : memref<64x32xf16>
    %c = gpu.alloc host_shared () : memref<32x32xf32>
    %ad = memref.cast %a : memref<32x64xf16> to memref<?x?xf16>
    %bd = memref.cast %b : memref<64x32xf16> to memref<?x?xf16>
    call @fill(%ad, %s0) : (memref<?x?xf16>, i32) -> ()
    call @fill(%bd, %s1) : (memref<?x?xf16>, i32) -> ()
    gpu.launch_func @kernels::@staged blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<32x64xf16>, %b : memref<64x32xf16>, %c : memref<32x32xf32>)
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %fzero = arith.constant 0.0 : f32
    %bad = scf.for %i = %c0 to %c32 step %c1 iter_args(%bi = %zero) -> (i32) {
      %bj = scf.for %j = %c0 to %c32 step %c1 iter_args(%b0 = %bi) -> (i32) {
        %sum = scf.for %l = %c0 to %c64 step %c1 iter_args(%s = %fzero) -> (f32) {
          %x = memref.load %a[%i, %l] : memref<32x64xf16>
          %y = memref.load %b[%l, %j] : memref<64x32xf16>
          %xf = arith.extf %x : f16 to f32
          %yf = arith.extf %y : f16 to f32
          %p = arith.mulf %xf, %yf : f32
          %s1b = arith.addf %s, %p : f32
          scf.yield %s1b : f32
        }
        %got = memref.load %c[%i, %j] : memref<32x32xf32>
        %ne = arith.cmpf une, %got, %sum : f32
        %inc = arith.select %ne, %one, %zero : i32
        %b1 = arith.addi %b0, %inc : i32
        scf.yield %b1 : i32
      }
      scf.yield %bj : i32
    }
    vector.print str "staged mismatches: "
    vector.print %bad : i32
    return
  }
}
