// RUN: offload-opt %s -verify-diagnostics -offload-attach-host-target=O=4

// O must be an LLVM optimization level; the pass fails before changing
// anything.

// expected-error @+1 {{offload-attach-host-target: O must be in [0, 3], got 4}}
module {
  gpu.module @kernels {
  }
}
