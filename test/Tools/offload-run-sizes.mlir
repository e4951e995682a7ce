// Issue 11 items 1 and 2: launch sizes and allocation byte counts never wrap.
// Constant sizes out of range are errors at compile time, with the op's
// location; sizes known only at run time are checked before the launch or
// allocation, and the run exits 1 naming the op, its location and the value.

// RUN: split-file %s %t
// RUN: not offload-run %t/grid-constant.mlir 2>&1 | FileCheck %s --check-prefix=GRID-CONST
// RUN: not offload-run %t/block-negative.mlir 2>&1 | FileCheck %s --check-prefix=BLOCK-NEG
// RUN: not offload-run %t/grid-dynamic.mlir 2>&1 | FileCheck %s --check-prefix=GRID-DYN
// RUN: not offload-run %t/alloc-dynamic.mlir 2>&1 | FileCheck %s --check-prefix=ALLOC-DYN
// RUN: not offload-run %t/alloc-static.mlir 2>&1 | FileCheck %s --check-prefix=ALLOC-STATIC
// RUN: offload-run %t/grid-dynamic-ok.mlir | FileCheck %s --check-prefix=OK

// GRID-CONST: grid-constant.mlir:8:5: error: grid size x is 4294967297 blocks; launch sizes must be between 1 and 4294967295
// BLOCK-NEG: block-negative.mlir:8:5: error: block size y is -1 threads; launch sizes must be between 1 and 4294967295
// GRID-DYN: offload error: offload.launch @kernels::@k{{(_spec_[0-9a-f]+)?}} at {{.*}}grid-dynamic.mlir:10:5: OFFLOAD_ERRC_INVALID_ARGUMENT: the grid size x is 4294967297 blocks; launch sizes must be between 1 and 4294967295
// GRID-DYN-NOT: ran
// ALLOC-DYN: offload error: offload.alloc of memref<?xi32> at {{.*}}alloc-dynamic.mlir:5:8: OFFLOAD_ERRC_INVALID_SIZE: the allocation's size in bytes (its elements times 4 bytes) does not fit in 64 bits
// ALLOC-STATIC: alloc-static.mlir:3:8: error: allocation of 'memref<4611686018427387904xi32>' is more than 2^63 bytes
// OK: ran 3

//--- grid-constant.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %big = arith.constant 4294967297 : index
    // A grid of 2^32 + 1 blocks would run as 1 block if narrowed.

    gpu.launch_func @kernels::@k blocks in (%big, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

//--- block-negative.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %m1 = arith.constant -1 : index
    // -1 would become 2^32 - 1 threads.

    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %m1, %c1)
    return
  }
}

//--- grid-dynamic.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  func.func private @size() -> index {
    %big = arith.constant 4294967297 : index
    return %big : index
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = call @size() : () -> index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
    vector.print str "ran\n"
    return
  }
}

//--- grid-dynamic-ok.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  func.func private @size() -> index {
    %three = arith.constant 3 : index
    return %three : index
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = call @size() : () -> index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1)
    vector.print str "ran "
    vector.print %n : index
    return
  }
}

//--- alloc-dynamic.mlir
func.func private @count() -> index
func.func @main() {
  // 2^62 elements of 4 bytes: 2^64 bytes would wrap to 0.
  %n = arith.constant 4611686018427387904 : index
  %m = gpu.alloc(%n) : memref<?xi32>
  vector.print str "allocated\n"
  return
}

//--- alloc-static.mlir
func.func @main() {
  // The static shape's byte count does not fit either.
  %m = gpu.alloc() : memref<4611686018427387904xi32>
  return
}
