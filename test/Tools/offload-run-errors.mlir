// Bad input gives a diagnostic and exit status 1, never a crash.

// RUN: split-file %s %t
// RUN: not offload-run %t/malformed.mlir 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not offload-run %t/unknown-op.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not offload-run %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=NOMAIN
// RUN: not offload-run --device=bogus %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not offload-run -e nosuch %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not offload-run -e copy %t/kernel-entry.mlir 2>&1 | FileCheck %s --check-prefix=KERNELENTRY
// RUN: not offload-run --entry-point-result=f64 %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not offload-run %t/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not offload-run -e main --device host %t/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not offload-run %t/bad-kernel.mlir 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not offload-run %t/copy-too-large.mlir 2>&1 | FileCheck %s --check-prefix=BOUNDS
// RUN: not offload-run %t/free-host-memory.mlir 2>&1 | FileCheck %s --check-prefix=FOREIGN
// RUN: not offload-run --jit --chip=bogus %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=JITCHIP
// RUN: not offload-run --jit --device=cuda --chip=sm_80 %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=JITGPUCHIP
// RUN: offload-run --help | FileCheck %s --check-prefix=HELP
// RUN: not offload-run %t/empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not offload-run --shared-libs=%t/no-such-lib.so %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=NOLIB
// RUN: not offload-run --shared-libs %t/no-such-lib.so,%t/no-main.mlir %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=NOLIB
// RUN: not offload-run --shared-libs %t/no-main.mlir %t/no-main.mlir 2>&1 | FileCheck %s --check-prefix=NOTLIB

// MALFORMED: malformed.mlir:2:{{[0-9]+}}: error:
// UNKNOWN: unknown-op.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Dialect `foo' not found for custom op 'foo.bar'
// NOMAIN: offload-run: entry point 'main' not found in the input (choose one with -e)
// BOGUS: offload-run: unknown device 'bogus'; expected host, cuda or hip
// ENTRY: offload-run: entry point 'nosuch' not found in the input
// KERNELENTRY: offload-run: entry point 'copy' is a symbol of gpu.module @kernels (device code); the entry point is a host function (func.func or llvm.func) that launches kernels
// RESULT: offload-run: --entry-point-result=f64: expected void, i32, i64 or f32
// RESULT-NOT: unsupported function type
// MISSING: offload-run: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// MISSING-NOT: could not parse
// NOLIB: offload-run: error: --shared-libs: cannot open '{{.*}}no-such-lib.so': No such file or directory
// NOTLIB: offload-run: error: --shared-libs: cannot load '{{.*}}no-main.mlir': {{.*}}no-main.mlir: {{.*}}
// NOTLIB-NOT: Could not load
// KERNEL: bad-kernel.mlir:6:10: error: 'gpu.cluster_id' op thread block clusters are not supported by the host target
// BOUNDS: offload error: offload.memcpy: OFFLOAD_ERRC_INVALID_SIZE: DstPtr + Size (80 bytes) runs past the end of its allocation: 40 bytes
// FOREIGN: offload error: offload.free: OFFLOAD_ERRC_INVALID_ARGUMENT: Address ({{.*}}) was not allocated by offloadMemAlloc or was already freed
// JITCHIP: offload-run: --jit compiles kernels for the host CPU at launch; --chip and --features are not supported with it
// JITGPUCHIP: offload-run: --jit compiles kernels at launch for the chip and features of the --device=cuda device; --chip and --features are not supported with it
// EMPTY: offload-run: the input holds no operations (an empty file?): nothing to run
// EMPTY-NOT: entry point
// HELP-DAG: --device=<host|cuda|hip>
// HELP-DAG: --entry-point-result

//--- empty.mlir
// Nothing but a comment.

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

//--- kernel-entry.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%m: memref<?xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    return
  }
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

//--- copy-too-large.mlir
func.func @main() {
  %c10 = arith.constant 10 : index
  %c20 = arith.constant 20 : index
  %h = memref.alloc(%c20) : memref<?xf32>
  %d = gpu.alloc (%c10) : memref<?xf32>
  gpu.memcpy %d, %h : memref<?xf32>, memref<?xf32>
  return
}

//--- free-host-memory.mlir
func.func @main() {
  %h = memref.alloc() : memref<4xf32>
  gpu.dealloc %h : memref<4xf32>
  return
}
