// Issue 15 item 4 and item 5's sparse-compiler path: the output of the
// sparse compiler's GPU code generation (--sparse-gpu-codegen with its host
// side: LLVM structs in signatures, unrealized_conversion_casts,
// memref.realloc, linalg.fill in host code) runs on the host device, and
// prints what the CPU-only lowering of the same source prints.
//
// RUN: mlir-opt %s --sparse-reinterpret-map \
// RUN:   --sparsification-and-bufferization="parallelization-strategy=dense-outer-loop" \
// RUN:   --sparse-gpu-codegen --sparse-storage-specifier-to-llvm -o %t.gpu.mlir
// RUN: grep -q gpu.launch_func %t.gpu.mlir
// RUN: offload-run %t.gpu.mlir | FileCheck %s
// RUN: mlir-opt %s --sparsifier | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so,%mlir_lib_dir/libmlir_runner_utils.so \
// RUN:   | FileCheck %s

// y = A x for a CSR matrix A and x = 1: the row sums.
// CHECK: ( 3, 3, 0, 4, 5, 6, 7, 8 )

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#trait = { indexing_maps = [affine_map<(i,j) -> (i,j)>, affine_map<(i,j) -> (j)>, affine_map<(i,j) -> (i)>], iterator_types = ["parallel", "reduction"] }
module {
  func.func @matvec(%A: tensor<8x8xf64, #CSR>, %x: tensor<8xf64>, %y_in: tensor<8xf64>) -> tensor<8xf64> {
    %y = linalg.generic #trait ins(%A, %x : tensor<8x8xf64, #CSR>, tensor<8xf64>) outs(%y_in : tensor<8xf64>) {
    ^bb(%a: f64, %b: f64, %c: f64):
      %m = arith.mulf %a, %b : f64
      %s = arith.addf %c, %m : f64
      linalg.yield %s : f64
    } -> tensor<8xf64>
    return %y : tensor<8xf64>
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %d = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0],[0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],[0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 0.0],[0.0, 0.0, 0.0, 0.0, 5.0, 0.0, 0.0, 0.0],[0.0, 0.0, 0.0, 0.0, 0.0, 6.0, 0.0, 0.0],[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 7.0, 0.0],[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 8.0]]> : tensor<8x8xf64>
    %a = sparse_tensor.convert %d : tensor<8x8xf64> to tensor<8x8xf64, #CSR>
    %x = arith.constant dense<1.0> : tensor<8xf64>
    %y0 = arith.constant dense<0.0> : tensor<8xf64>
    %y = call @matvec(%a, %x, %y0) : (tensor<8x8xf64, #CSR>, tensor<8xf64>, tensor<8xf64>) -> tensor<8xf64>
    %c0f = arith.constant 0.0 : f64
    %v = vector.transfer_read %y[%c0], %c0f : tensor<8xf64>, vector<8xf64>
    vector.print %v : vector<8xf64>
    return
  }
}
