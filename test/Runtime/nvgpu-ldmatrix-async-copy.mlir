// nvgpu.device_async_copy, device_async_create_group, device_async_wait and
// nvgpu.ldmatrix on the host (NVGPUOps.cpp). Each of 32 lanes copies row l
// of a 32x8 f16 matrix (S[r][c] = 8 * r + c) into workgroup memory, odd
// lanes with srcElements = 6 (the last two elements are zero-filled); after
// the wait and a barrier, ldmatrix x4 gives lane l the elements
// S[8 * i + l / 4][2 * (l % 4) + j] of tile i, and ldmatrix x2 with
// transpose gives it S[8 * i + 2 * (l % 4) + j][l / 4] (the PTX ISA's
// ldmatrix layouts; lane 8 * i + r gives the address of row r of tile i).
// main counts the elements that differ from those formulas.
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s

// CHECK: ldmatrix x4 mismatches: 0
// CHECK: ldmatrix x2 transposed mismatches: 0
// CHECK: lane 5: ( 10, 11, 74, 75, 138, 139, 202, 203 )
// CHECK: lane 7 transposed: ( 49, 57, 113, 121 )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @load(%src: memref<32x8xf16>, %out: memref<32x4x2xf16>,
                   %outT: memref<32x2x2xf16>)
        workgroup(%tile: memref<32x8xf16, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %l = gpu.thread_id x
      %odd = arith.remui %l, %c2 : index
      %isOdd = arith.cmpi eq, %odd, %c1 : index
      %count = arith.select %isOdd, %c6, %c8 : index
      %copy = nvgpu.device_async_copy %src[%l, %c0], %tile[%l, %c0], 8, %count
          : memref<32x8xf16> to memref<32x8xf16, #gpu.address_space<workgroup>>
      %group = nvgpu.device_async_create_group %copy
      nvgpu.device_async_wait %group {numGroups = 0 : i32}
      gpu.barrier
      %m = nvgpu.ldmatrix %tile[%l, %c0] {numTiles = 4 : i32, transpose = false}
          : memref<32x8xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %c3 = arith.constant 3 : index
      %m0 = vector.extract %m[0] : vector<2xf16> from vector<4x2xf16>
      %m1 = vector.extract %m[1] : vector<2xf16> from vector<4x2xf16>
      %m2 = vector.extract %m[2] : vector<2xf16> from vector<4x2xf16>
      %m3 = vector.extract %m[3] : vector<2xf16> from vector<4x2xf16>
      vector.store %m0, %out[%l, %c0, %c0] : memref<32x4x2xf16>, vector<2xf16>
      vector.store %m1, %out[%l, %c1, %c0] : memref<32x4x2xf16>, vector<2xf16>
      vector.store %m2, %out[%l, %c2, %c0] : memref<32x4x2xf16>, vector<2xf16>
      vector.store %m3, %out[%l, %c3, %c0] : memref<32x4x2xf16>, vector<2xf16>
      // Lanes 16-31 give addresses too; x2 reads those of lanes 0-15.
      %r = arith.remui %l, %c16 : index
      %t = nvgpu.ldmatrix %tile[%r, %c0] {numTiles = 2 : i32, transpose = true}
          : memref<32x8xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %t0 = vector.extract %t[0] : vector<2xf16> from vector<2x2xf16>
      %t1 = vector.extract %t[1] : vector<2xf16> from vector<2x2xf16>
      vector.store %t0, %outT[%l, %c0, %c0] : memref<32x2x2xf16>, vector<2xf16>
      vector.store %t1, %outT[%l, %c1, %c0] : memref<32x2x2xf16>, vector<2xf16>
      gpu.return
    }
  }

  // S[r][c] as the kernel's workgroup copy holds it.
  func.func @expected(%r: index, %c: index) -> f16 {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %row = arith.muli %r, %c8 : index
    %v = arith.addi %row, %c : index
    %odd = arith.remui %r, %c2 : index
    %isOdd = arith.cmpi eq, %odd, %c1 : index
    %late = arith.cmpi uge, %c, %c6 : index
    %zeroed = arith.andi %isOdd, %late : i1
    %i = arith.index_cast %v : index to i32
    %f = arith.sitofp %i : i32 to f16
    %zero = arith.constant 0.0 : f16
    %e = arith.select %zeroed, %zero, %f : f16
    return %e : f16
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %src = memref.alloc() : memref<32x8xf16>
    scf.for %r = %c0 to %c32 step %c1 {
      scf.for %c = %c0 to %c8 step %c1 {
        %row = arith.muli %r, %c8 : index
        %v = arith.addi %row, %c : index
        %i = arith.index_cast %v : index to i32
        %f = arith.sitofp %i : i32 to f16
        memref.store %f, %src[%r, %c] : memref<32x8xf16>
      }
    }
    %out = memref.alloc() : memref<32x4x2xf16>
    %outT = memref.alloc() : memref<32x2x2xf16>
    gpu.launch_func @kernels::@load blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%src : memref<32x8xf16>, %out : memref<32x4x2xf16>, %outT : memref<32x2x2xf16>)
    %bad = scf.for %l = %c0 to %c32 step %c1 iter_args(%n0 = %c0) -> (index) {
      %g = arith.divui %l, %c4 : index
      %t = arith.remui %l, %c4 : index
      %n3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%n1 = %n0) -> (index) {
        %n4 = scf.for %j = %c0 to %c2 step %c1 iter_args(%n2 = %n1) -> (index) {
          %base = arith.muli %i, %c8 : index
          %r = arith.addi %base, %g : index
          %t2 = arith.muli %t, %c2 : index
          %c = arith.addi %t2, %j : index
          %want = func.call @expected(%r, %c) : (index, index) -> f16
          %got = memref.load %out[%l, %i, %j] : memref<32x4x2xf16>
          %ne = arith.cmpf une, %got, %want : f16
          %one = arith.select %ne, %c1, %c0 : index
          %n = arith.addi %n2, %one : index
          scf.yield %n : index
        }
        scf.yield %n4 : index
      }
      scf.yield %n3 : index
    }
    vector.print str "ldmatrix x4 mismatches: "
    vector.print %bad : index
    %badT = scf.for %l = %c0 to %c32 step %c1 iter_args(%n0 = %c0) -> (index) {
      %g = arith.divui %l, %c4 : index
      %t = arith.remui %l, %c4 : index
      %n3 = scf.for %i = %c0 to %c2 step %c1 iter_args(%n1 = %n0) -> (index) {
        %n4 = scf.for %j = %c0 to %c2 step %c1 iter_args(%n2 = %n1) -> (index) {
          %base = arith.muli %i, %c8 : index
          %t2 = arith.muli %t, %c2 : index
          %rt = arith.addi %t2, %j : index
          %r = arith.addi %base, %rt : index
          %want = func.call @expected(%r, %g) : (index, index) -> f16
          %got = memref.load %outT[%l, %i, %j] : memref<32x2x2xf16>
          %ne = arith.cmpf une, %got, %want : f16
          %one = arith.select %ne, %c1, %c0 : index
          %n = arith.addi %n2, %one : index
          scf.yield %n : index
        }
        scf.yield %n4 : index
      }
      scf.yield %n3 : index
    }
    vector.print str "ldmatrix x2 transposed mismatches: "
    vector.print %badT : index
    %flat = memref.collapse_shape %out [[0, 1, 2]] : memref<32x4x2xf16> into memref<256xf16>
    %c40 = arith.constant 40 : index
    %v5 = vector.load %flat[%c40] : memref<256xf16>, vector<8xf16>
    %w5 = arith.extf %v5 : vector<8xf16> to vector<8xf32>
    vector.print str "lane 5: "
    vector.print %w5 : vector<8xf32>
    %flatT = memref.collapse_shape %outT [[0, 1, 2]] : memref<32x2x2xf16> into memref<128xf16>
    %c28 = arith.constant 28 : index
    %v7 = vector.load %flatT[%c28] : memref<128xf16>, vector<4xf16>
    %w7 = arith.extf %v7 : vector<4xf16> to vector<4xf32>
    vector.print str "lane 7 transposed: "
    vector.print %w7 : vector<4xf32>
    memref.dealloc %src : memref<32x8xf16>
    memref.dealloc %out : memref<32x4x2xf16>
    memref.dealloc %outT : memref<32x2x2xf16>
    return
  }
}
