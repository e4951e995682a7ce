// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm))'
// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,offload-host-kernel-to-llvm))'

// Issue 19 item 3: vendor ops the host target does not rewrite keep the
// diagnostic that names them and the target that compiles them.

// A barrier of some of the block's threads.
gpu.module @kernels {
  gpu.func @partial_barrier(%n: i32) kernel {
    %id = arith.constant 1 : i32
    // expected-error @+1 {{'nvvm.barrier' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to NVIDIA GPUs: offload-lower-to-nvvm compiles it)}}
    nvvm.barrier id = %id number_of_threads = %n
    gpu.return
  }
}

// -----

// A warp barrier (bar.warp.sync) has no equivalent on the host.
gpu.module @kernels {
  gpu.func @warp_sync(%mask: i32) kernel {
    // expected-error @+1 {{'nvvm.bar.warp.sync' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to NVIDIA GPUs: offload-lower-to-nvvm compiles it)}}
    nvvm.bar.warp.sync %mask : i32
    gpu.return
  }
}

// -----

// row_bcast:15 moves lanes across rows of a 64-lane wave.
gpu.module @kernels {
  gpu.func @row_bcast(%old: f32, %v: f32, %out: memref<4xf32>) kernel {
    // expected-error @+1 {{'rocdl.update.dpp' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to AMD GPUs: offload-lower-to-rocdl compiles it)}}
    %r = rocdl.update.dpp %old, %v with 322, 10, 15, false : f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// A row mask that differs between the halves of a 64-lane wave.
gpu.module @kernels {
  gpu.func @row_mask(%old: f32, %v: f32, %out: memref<4xf32>) kernel {
    // expected-error @+1 {{'rocdl.update.dpp' op is not supported by the host target}}
    %r = rocdl.update.dpp %old, %v with 177, 3, 15, false : f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// A wave shift (wave_shr) crosses the 32-lane groups of the host.
gpu.module @kernels {
  gpu.func @wave_shift(%old: f32, %v: f32, %out: memref<4xf32>) kernel {
    // expected-error @+1 {{'amdgpu.dpp' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to AMD GPUs: offload-lower-to-rocdl compiles it)}}
    %r = amdgpu.dpp %old %v wave_shr : f32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<4xf32>
    gpu.return
  }
}

// -----

// A swizzle pattern known only at run time.
gpu.module @kernels {
  gpu.func @swizzle(%v: i32, %pattern: i32, %out: memref<4xi32>) kernel {
    // expected-error @+1 {{'rocdl.ds_swizzle' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to AMD GPUs: offload-lower-to-rocdl compiles it)}}
    %r = rocdl.ds_swizzle %v, %pattern : (i32, i32) -> i32
    %c0 = arith.constant 0 : index
    memref.store %r, %out[%c0] : memref<4xi32>
    gpu.return
  }
}
