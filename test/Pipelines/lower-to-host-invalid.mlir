// Issue 20 item 7: an impossible offload-lower-to-host request is one error
// on the module (the message, its source line and the caret), before any
// pass runs; the module is not printed after it (it was: 97 lines after a
// bad O, 390 after a bad chip or feature, from upstream's serialization
// error).
//
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{O=7})' 2>&1 | FileCheck %s --check-prefix=OPT
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{O=7})' 2>&1 | count 3
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{chip=not-a-cpu})' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{chip=not-a-cpu})' 2>&1 | count 3
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{features=+nosuchfeature})' 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{features=+nosuchfeature})' 2>&1 | count 3
// RUN: not offload-opt %s '--pass-pipeline=builtin.module(offload-lower-to-host{features=sse2})' 2>&1 | FileCheck %s --check-prefix=SIGN
// offload-run prints the same one error.
// RUN: not offload-run --chip=not-a-cpu %s 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not offload-run --chip=not-a-cpu %s 2>&1 | count 3

// OPT: lower-to-host-invalid.mlir:[[@LINE+4]]:1: error: invalid host target: O must be in [0, 3], got 7
// CHIP: lower-to-host-invalid.mlir:[[@LINE+3]]:1: error: invalid host target: unknown chip 'not-a-cpu' for {{.*}} (llc -mcpu=help lists the valid ones)
// FEATURE: lower-to-host-invalid.mlir:[[@LINE+2]]:1: error: invalid host target: unknown feature 'nosuchfeature' for {{.*}} (llc -mattr=help lists the valid ones)
// SIGN: lower-to-host-invalid.mlir:[[@LINE+1]]:1: error: invalid host target: feature 'sse2' must start with '+' or '-'
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %m[%i] : memref<?xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %m[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %m = memref.alloc(%c8) : memref<?xf32>
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<?xf32>)
    return
  }
}
