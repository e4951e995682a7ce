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

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#offload.host, "A">]
  func.func @grid_too_large(%dev: !offload.device) {
    %c1 = arith.constant 1 : index
    %big = arith.constant 4294967296 : index
    // expected-error@+1 {{grid size z is 4294967296 blocks; launch sizes must be between 1 and 4294967295}}
    offload.launch @kernels::@k on %dev blocks in (%c1, %c1, %big)
        threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#offload.host, "A">]
  func.func @block_zero(%dev: !offload.device) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    // expected-error@+1 {{block size x is 0 threads; launch sizes must be between 1 and 4294967295}}
    offload.launch @kernels::@k on %dev blocks in (%c1, %c1, %c1)
        threads in (%c0, %c1, %c1)
    return
  }
}

// -----

func.func @alloc_too_large(%dev: !offload.device) {
  // expected-error@+1 {{allocation of 'memref<2305843009213693952x2xf64>' is more than 2^63 bytes}}
  %m = offload.alloc device on %dev () : memref<2305843009213693952x2xf64>
  return
}
