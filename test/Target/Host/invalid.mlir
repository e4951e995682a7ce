// RUN: offload-opt %s -split-input-file -verify-diagnostics -gpu-module-to-binary

module attributes {gpu.container_module} {
  // expected-error @below {{An error happened while serializing the module.}}
  gpu.module @kernels [#offload.host] {
    // expected-error @below {{'gpu.func' cannot be serialized by #offload.host: run the host kernel pipeline (offload-host-kernel-to-llvm) on the gpu.module first}}
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// expected-error @below {{optimization level must be in [0, 3], got 7}}
gpu.module @bad [#offload.host<O = 7>] {
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{#offload.host: unknown chip 'not-a-cpu'}}
  // expected-error @below {{An error happened while serializing the module.}}
  gpu.module @kernels [#offload.host<chip = "not-a-cpu">] {
  }
}

// -----

module attributes {gpu.container_module} {
  // expected-error @below {{#offload.host: unknown feature 'nosuchfeature'}}
  // expected-error @below {{An error happened while serializing the module.}}
  gpu.module @kernels [#offload.host<chip = "x86-64", features = "+sse2,+nosuchfeature">] {
  }
}
