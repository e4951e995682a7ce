// Runtime constants through the GPU pipelines: a launch with a constant value
// gets a specialized clone where the value is folded; the generic kernel
// keeps reading the argument (offload.runtime_constant is the identity).

// RUN: offload-opt %s -offload-lower-to-nvvm=format=isa 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=PTX
// RUN: offload-opt %s '-offload-lower-to-rocdl=format=isa code-object-version=5' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=AMDGCN

// The generic kernel multiplies by its argument...
// PTX-LABEL: .visible .entry scale(
// PTX: ld.param.b32 %r{{[0-9]+}}, [scale_param_5];
// PTX: mul.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}};
// ...the clone for factor 4 multiplies by 4.0 (0f40800000).
// PTX-LABEL: .visible .entry scale_spec_{{[0-9a-f]+}}(
// PTX: .reqntid 64, 1, 1
// PTX-NOT: _param_5]
// PTX: mul.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0f40800000;

// AMDGCN: .amdhsa_kernel scale{{$}}
// AMDGCN: .amdhsa_kernel scale_spec_{{[0-9a-f]+$}}
// AMDGCN: .name: scale{{$}}
// AMDGCN: .name: scale_spec_{{[0-9a-f]+$}}
// AMDGCN-NEXT: .private_segment_fixed_size: 0
// AMDGCN-NEXT: .reqd_workgroup_size:
// AMDGCN-NEXT: - 64

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %n: i32) kernel {
      %c = offload.runtime_constant %n : i32
      %t = gpu.thread_id x
      %f = arith.sitofp %c : i32 to f32
      %v = memref.load %x[%t] : memref<?xf32>
      %r = arith.mulf %v, %f : f32
      memref.store %r, %x[%t] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<?xf32>, %n: i32, %threads: index) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c4 = arith.constant 4 : i32
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%threads, %c1, %c1) args(%x : memref<?xf32>, %n : i32)
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1)
        threads in (%c64, %c1, %c1) args(%x : memref<?xf32>, %c4 : i32)
    return
  }
}
