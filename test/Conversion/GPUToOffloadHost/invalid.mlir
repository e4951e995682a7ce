// RUN: offload-opt %s -split-input-file -verify-diagnostics --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm))'

gpu.module @m {
  // expected-error @below {{non-kernel gpu.func is not supported by the host target; use func.func for device functions}}
  gpu.func @device_fn() {
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%out: memref<1xindex>) kernel {
    // expected-error @below {{thread block clusters are not supported by the host target}}
    %c = gpu.cluster_id x
    %c0 = arith.constant 0 : index
    memref.store %c, %out[%c0] : memref<1xindex>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @k(%v: vector<2xf32>) kernel {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    // expected-error @below {{host target supports 32- and 64-bit shuffles, got 'vector<2xf32>'}}
    %s, %ok = gpu.shuffle xor %v, %c1, %c32 : vector<2xf32>
    %c0 = arith.constant 0 : index
    %out = memref.alloca() : memref<1xvector<2xf32>>
    memref.store %s, %out[%c0] : memref<1xvector<2xf32>>
    gpu.return
  }
}

// -----

gpu.module @m {
  // expected-error @below {{workgroup attribution #0 must be statically shaped with the identity layout}}
  gpu.func @k(%n: index) workgroup(%w : memref<4xf32, strided<[2]>, #gpu.address_space<workgroup>>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  func.func @helper(%ok: i1) {
    // expected-error @+1 {{'cf.assert' op in a device function is not supported by the host target: inline the function into its kernel}}
    cf.assert %ok, "helper"
    return
  }
  gpu.func @k(%ok: i1) kernel {
    func.call @helper(%ok) : (i1) -> ()
    gpu.return
  }
}

// -----

// Issue 11 item 6: an op the host target cannot lower is named by the
// lowering itself (not by a later "cannot be serialized"); a vendor op
// without a host meaning names the target that supports it.
gpu.module @kernels {
  gpu.func @nv(%x: memref<8xf32>) kernel {
    // expected-error @+1 {{'nvvm.read.ptx.sreg.clock' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to NVIDIA GPUs: offload-lower-to-nvvm compiles it)}}
    %c = nvvm.read.ptx.sreg.clock : i32
    %f = arith.sitofp %c : i32 to f32
    %i0 = arith.constant 0 : index
    memref.store %f, %x[%i0] : memref<8xf32>
    gpu.return
  }
}

// -----

// nvgpu.mma.sync runs on the host (NVGPUOps.cpp); its structured-sparse form
// does not, and is named as NVIDIA-only.
gpu.module @kernels {
  gpu.func @sparse(%a: vector<4x2xf16>, %b: vector<4x2xf16>, %c: vector<2x2xf16>, %meta: vector<2xi16>, %d: memref<2x2xf16>) kernel {
    // expected-error @+1 {{'nvgpu.mma.sp.sync' op is not supported by the host target: the host kernel pipeline cannot lower it to the LLVM dialect (it is specific to NVIDIA GPUs: offload-lower-to-nvvm compiles it)}}
    %r = nvgpu.mma.sp.sync (%a, %b, %c) metadata (%meta) {mmaShape = [16, 8, 32]} : (vector<4x2xf16>, vector<4x2xf16>, vector<2x2xf16>) -> vector<2x2xf16>
    %c0 = arith.constant 0 : index
    %r0 = vector.extract %r[0] : vector<2xf16> from vector<2x2xf16>
    vector.store %r0, %d[%c0, %c0] : memref<2x2xf16>, vector<2xf16>
    gpu.return
  }
}
