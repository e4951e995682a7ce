// RUN: offload-opt %s -split-input-file -verify-diagnostics -convert-gpu-to-offload

func.func @not_outlined(%n: index) {
  // expected-error@+1 {{gpu.launch must be outlined first (run gpu-kernel-outlining)}}
  gpu.launch blocks(%bx, %by, %bz) in (%x = %n, %y = %n, %z = %n)
             threads(%tx, %ty, %tz) in (%a = %n, %b = %n, %c = %n) {
    gpu.terminator
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @clusters(%n: index) {
    // expected-error@+1 {{clusters are not supported}}
    gpu.launch_func @kernels::@k clusters in (%n, %n, %n)
        blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}
