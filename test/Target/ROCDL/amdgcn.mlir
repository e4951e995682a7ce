// AMDGCN assembly from offload-lower-to-rocdl for gfx90a (the default),
// gfx942 and gfx1100: one kernel per gpu.func (the specialized clone too),
// memref arguments expanded like the packed argument buffer (offsets 0..40),
// the HIP block size limit (1024) unless the launch fixes the block size,
// and the wavefront size of the chip.
// REQUIRES: rocm-toolkit

// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=format=isa code-object-version=5' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefixes=CHECK,WAVE64 -DCHIP=gfx90a
// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=format=isa chip=gfx942 code-object-version=5' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefixes=CHECK,WAVE64 -DCHIP=gfx942
// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=format=isa chip=gfx1100 code-object-version=5' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefixes=CHECK,WAVE32 -DCHIP=gfx1100
// RUN: offload-opt %S/Inputs/kernels.mlir '-offload-lower-to-rocdl=format=isa code-object-version=4' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=COV4

// CHECK-LABEL: // image: kernels
// CHECK: .amdgcn_target "amdgcn-amd-amdhsa--[[CHIP]]"
// CHECK: .amdhsa_code_object_version 5
// CHECK: .amdhsa_kernel scale{{$}}
// CHECK: .amdhsa_kernel scale_spec_{{[0-9a-f]+$}}
// CHECK: .amdhsa_kernel dynamic{{$}}
// CHECK: .amdgpu_metadata

// CHECK: .args:
// CHECK-NEXT: .address_space: generic
// CHECK-NEXT: .offset: 0
// CHECK: .offset: 8
// CHECK: .offset: 16
// CHECK: .offset: 24
// CHECK: .offset: 32
// CHECK: .offset: 40
// CHECK-NEXT: .size: 4
// CHECK: .max_flat_workgroup_size: 1024
// CHECK-NEXT: .name: scale{{$}}
// WAVE64: .wavefront_size: 64
// WAVE32: .wavefront_size: 32

// CHECK: .max_flat_workgroup_size: 128
// CHECK-NEXT: .name: scale_spec_{{[0-9a-f]+$}}
// CHECK: .reqd_workgroup_size:
// CHECK-NEXT: - 128
// CHECK-NEXT: - 1
// CHECK-NEXT: - 1

// CHECK: .max_flat_workgroup_size: 1024
// CHECK-NEXT: .name: dynamic{{$}}
// CHECK: amdhsa.target: amdgcn-amd-amdhsa--[[CHIP]]

// COV4: .amdhsa_code_object_version 4
