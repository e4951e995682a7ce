// replace-gpu-targets=false keeps the refusal of a gpu.module that already
// targets a GPU (issue 11 item 6): one diagnostic, not host code serialized
// for the GPU target (ptxas errors on host IR) or a dump of the module.
// RUN: offload-opt %s -verify-diagnostics -offload-attach-host-target="replace-gpu-targets=false"
// RUN: not offload-run --replace-gpu-targets=false %s 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: gpu.module 'kernels' already targets
// ONE-NOT: error:
// RUN: not offload-run --replace-gpu-targets=false %s 2>&1 | FileCheck %s --check-prefix=NODUMP
// NODUMP-NOT: see current operation

module attributes {gpu.container_module} {
  // expected-error @+1 {{gpu.module 'kernels' already targets #nvvm.target<chip = "sm_90">; the host target compiles its kernels for the CPU only: remove that target, or lower the module with its own pipeline (offload-lower-to-nvvm, offload-lower-to-rocdl)}}
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
  func.func @main() { return }
}
