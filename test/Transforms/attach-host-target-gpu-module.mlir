// A gpu.module that already targets a GPU (as numba-cuda and eudsl emit
// them) is compiled for the host when the host is asked for, with a remark.
// RUN: offload-opt %s -split-input-file -verify-diagnostics -offload-attach-host-target | FileCheck %s

// CHECK-LABEL: gpu.module @kernels [#offload.host]
module attributes {gpu.container_module} {
  // expected-remark @+1 {{gpu.module 'kernels' targets #nvvm.target<chip = "sm_90">: compiled for the host target #offload.host instead (replace-gpu-targets=false refuses it)}}
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// CHECK-LABEL: gpu.module @amd [#offload.host]
module attributes {gpu.container_module} {
  // expected-remark @+1 {{gpu.module 'amd' targets #rocdl.target<chip = "gfx90a">: compiled for the host target}}
  gpu.module @amd [#rocdl.target<chip = "gfx90a">] {
  }
}

// -----

// A host target of the module's own stays; the pass's is added.
// CHECK-LABEL: gpu.module @both [#offload.host<O = 2>, #offload.host]
module attributes {gpu.container_module} {
  // expected-remark @+1 {{gpu.module 'both' targets #nvvm.target}}
  gpu.module @both [#offload.host<O = 2>, #nvvm.target] {
  }
}
