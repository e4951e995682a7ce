// PTX from offload-lower-to-nvvm: one .entry per kernel (the specialized
// clone too), memref arguments expanded like the packed argument buffer,
// .reqntid when the launch fixes the block size, and the PTX ISA version
// derived from the chip (PTX 8.0 up to sm_90, the chip's minimum above).

// RUN: offload-opt %s -offload-lower-to-nvvm=format=isa 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s
// RUN: offload-opt %s '-offload-lower-to-nvvm=format=isa chip=sm_90a' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=SM90A
// RUN: offload-opt %s '-offload-lower-to-nvvm=format=isa chip=sm_100' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=SM100
// RUN: offload-opt %s '-offload-lower-to-nvvm=format=isa chip=sm_120' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=SM120
// RUN: offload-opt %s '-offload-lower-to-nvvm=format=isa chip=sm_75' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=SM75
// RUN: offload-opt %s '-offload-lower-to-nvvm=format=isa features=+ptx83' 2>/dev/null \
// RUN:   | %extract-gpu-images | FileCheck %s --check-prefix=PTX83

// CHECK-LABEL: // image: kernels
// CHECK: .version 8.0
// CHECK: .target sm_90
// CHECK: .address_size 64

// (memref<?xf32> -> allocated, aligned, offset, size, stride; then f32)
// CHECK-LABEL: .visible .entry scale(
// CHECK-NEXT: .param .u64 .ptr .align 1 scale_param_0,
// CHECK-NEXT: .param .u64 .ptr .align 1 scale_param_1,
// CHECK-NEXT: .param .u64 scale_param_2,
// CHECK-NEXT: .param .u64 scale_param_3,
// CHECK-NEXT: .param .u64 scale_param_4,
// CHECK-NEXT: .param .f32 scale_param_5
// CHECK-NEXT: )
// CHECK-NOT: .reqntid
// CHECK: ret;

// CHECK-LABEL: .visible .entry scale_spec_{{[0-9a-f]+}}(
// CHECK: .reqntid 128, 1, 1
// CHECK-NOT: .maxntid
// CHECK: ret;

// CHECK-LABEL: .visible .entry dynamic(
// CHECK-NOT: .reqntid
// CHECK: ret;

// SM90A: .version 8.0
// SM90A: .target sm_90a
// SM100: .version 8.6
// SM100: .target sm_100
// SM120: .version 8.7
// SM120: .target sm_120
// SM75: .version 8.0
// SM75: .target sm_75
// PTX83: .version 8.3
// PTX83: .target sm_90

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %s : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @dynamic(%x: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<?xf32>
      %r = arith.addf %v, %v : f32
      memref.store %r, %x[%t] : memref<?xf32>
      gpu.return
    }
  }

  func.func @main(%x: memref<?xf32>, %s: f32, %threads: index) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@scale blocks in (%c8, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %s : f32)
    gpu.launch_func @kernels::@dynamic blocks in (%c1, %c1, %c1)
        threads in (%threads, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}
