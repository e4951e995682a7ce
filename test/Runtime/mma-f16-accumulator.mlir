// gpu.subgroup_mma_compute with an f16 accumulator rounds it to f16 after
// each pair of k, as the matrix units do (docs/HostTarget.md): with
// A = B = (r + c) (16x16, f16) and C = 0, D[7][13] is 5096 exactly, but
// 5100 once the partial sums are rounded every two k (a single rounding at
// the end gives 5096, one after every k gives 8432 for D[15][15]).
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --thread-loops=false %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s

// CHECK: ( 5100, 8440, 1240 )

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @product(%a: memref<16x16xf16>, %d: memref<16x16xf16>) kernel {
      %c0 = arith.constant 0 : index
      %zero = arith.constant 0.0 : f16
      %A = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "AOp">
      %B = gpu.subgroup_mma_load_matrix %a[%c0, %c0] {leadDimension = 16 : index} : memref<16x16xf16> -> !gpu.mma_matrix<16x16xf16, "BOp">
      %C = gpu.subgroup_mma_constant_matrix %zero : !gpu.mma_matrix<16x16xf16, "COp">
      %D = gpu.subgroup_mma_compute %A, %B, %C : !gpu.mma_matrix<16x16xf16, "AOp">, !gpu.mma_matrix<16x16xf16, "BOp"> -> !gpu.mma_matrix<16x16xf16, "COp">
      gpu.subgroup_mma_store_matrix %D, %d[%c0, %c0] {leadDimension = 16 : index} : !gpu.mma_matrix<16x16xf16, "COp">, memref<16x16xf16>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c13 = arith.constant 13 : index
    %c15 = arith.constant 15 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %a = memref.alloc() : memref<16x16xf16>
    %d = memref.alloc() : memref<16x16xf16>
    scf.for %r = %c0 to %c16 step %c1 {
      scf.for %c = %c0 to %c16 step %c1 {
        %sum = arith.addi %r, %c : index
        %i = arith.index_cast %sum : index to i32
        %f = arith.sitofp %i : i32 to f16
        memref.store %f, %a[%r, %c] : memref<16x16xf16>
      }
    }
    gpu.launch_func @kernels::@product blocks in (%c1, %c1, %c1)
        threads in (%c32, %c1, %c1) args(%a : memref<16x16xf16>, %d : memref<16x16xf16>)
    %x = memref.load %d[%c7, %c13] : memref<16x16xf16>
    %y = memref.load %d[%c15, %c15] : memref<16x16xf16>
    %z = memref.load %d[%c0, %c0] : memref<16x16xf16>
    %v = vector.from_elements %x, %y, %z : vector<3xf16>
    %w = arith.extf %v : vector<3xf16> to vector<3xf32>
    vector.print %w : vector<3xf32>
    memref.dealloc %a : memref<16x16xf16>
    memref.dealloc %d : memref<16x16xf16>
    return
  }
}
