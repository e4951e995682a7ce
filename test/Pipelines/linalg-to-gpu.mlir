// Issue 15 item 5, the linalg-to-GPU path: mlir-opt's own passes map a
// linalg.matmul to a gpu.launch (parallel loops mapped to blocks and
// threads), offload-run runs it on the host device, and the output matches
// the same source run without GPU mapping (its linalg ops in host code,
// lowered to loops by the host pipeline).
//
// RUN: mlir-opt %s --convert-linalg-to-parallel-loops --gpu-map-parallel-loops \
// RUN:   --convert-parallel-loops-to-gpu --lower-affine -o %t.gpu.mlir
// RUN: grep -q gpu.launch %t.gpu.mlir
// RUN: offload-run %t.gpu.mlir | FileCheck %s
// RUN: offload-run %s | FileCheck %s

// C = A B with a[i][k] = i + k and b[k][j] = k - j + 1, 4x3 by 3x2.
// CHECK:      [8,   5],
// CHECK-NEXT: [14,   8],
// CHECK-NEXT: [20,   11],
// CHECK-NEXT: [26,   14]]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<4x3xf32>
  %b = memref.alloc() : memref<3x2xf32>
  %c = memref.alloc() : memref<4x2xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %k = %c0 to %c3 step %c1 {
      %s = arith.addi %i, %k : index
      %si = arith.index_cast %s : index to i32
      %f = arith.sitofp %si : i32 to f32
      memref.store %f, %a[%i, %k] : memref<4x3xf32>
    }
  }
  scf.for %k = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c2 step %c1 {
      %d = arith.subi %k, %j : index
      %e = arith.addi %d, %c1 : index
      %ei = arith.index_cast %e : index to i32
      %f = arith.sitofp %ei : i32 to f32
      memref.store %f, %b[%k, %j] : memref<3x2xf32>
    }
  }
  linalg.fill ins(%zero : f32) outs(%c : memref<4x2xf32>)
  linalg.matmul ins(%a, %b : memref<4x3xf32>, memref<3x2xf32>)
                outs(%c : memref<4x2xf32>)
  %u = memref.cast %c : memref<4x2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
