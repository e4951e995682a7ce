// RUN: offload-opt %s -split-input-file -verify-diagnostics -convert-offload-to-llvm

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @not_compiled(%dev: !offload.device, %n: index) {
    // expected-error@+1 {{kernel module 'kernels' has not been compiled to a gpu.binary; run gpu-module-to-binary first}}
    offload.launch @kernels::@k on %dev blocks in (%n, %n, %n)
        threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error@+1 {{cannot select an object of gpu.binary 'kernels': object index 2 is out of range}}
  gpu.binary @kernels <#gpu.select_object<2>> [#gpu.object<#nvvm.target, "A">]
}
