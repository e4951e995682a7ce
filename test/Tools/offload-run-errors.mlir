// Bad input gives a diagnostic and exit status 1, never a crash.

// RUN: split-file %s %t
// RUN: not offload-run %t/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not offload-run %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not offload-run %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=NOMAIN
// RUN: not offload-run --device=cuda %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: not offload-run %t/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not offload-run %t/bad-kernel.mlir 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: offload-run --help | FileCheck %s --check-prefix=HELP

// MALFORMED: malformed.mlir:2:{{[0-9]+}}: error:
// UNKNOWN: unknown-op.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Dialect `foo' not found for custom op 'foo.bar'
// NOMAIN: entry point not found
// DEVICE: --device=cuda is not available in this build
// MISSING: does-not-exist.mlir
// KERNEL: bad-kernel.mlir:6:10: error: 'gpu.cluster_id' op thread block clusters are not supported by the host target
// HELP-DAG: --device=<host>
// HELP-DAG: --entry-point-result

//--- malformed.mlir
func.func @main() {
  %0 = arith.constant : i32
  return
}

//--- unknown-op.mlir
func.func @main() {
  foo.bar
  return
}

//--- no-main.mlir
func.func @other() {
  return
}

//--- bad-kernel.mlir
func.func @main() {
  %c1 = arith.constant 1 : index
  %out = memref.alloc() : memref<1xindex>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c = gpu.cluster_id x
    %c0 = arith.constant 0 : index
    memref.store %c, %out[%c0] : memref<1xindex>
    gpu.terminator
  }
  return
}
