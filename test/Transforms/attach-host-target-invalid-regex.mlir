// RUN: offload-opt %s -verify-diagnostics '-offload-attach-host-target=module=('

// expected-error @+1 {{offload-attach-host-target: invalid module regex '(': parentheses not balanced}}
module {
  gpu.module @kernels {
  }
}
