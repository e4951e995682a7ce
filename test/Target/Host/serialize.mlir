// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=ISA
// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm),gpu-module-to-binary)' | FileCheck %s --check-prefix=BIN
// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm),gpu-module-to-binary{format=llvm})' | FileCheck %s --check-prefix=LLVM

// ISA: gpu.binary @kernels [#gpu.object<#offload.host<O = 2>, assembly =
// ISA-SAME: __offload_block.scale:
// ISA-SAME: .globl\09__offload_kernel.scale
// BIN: gpu.binary @kernels [#gpu.object<#offload.host<O = 2>, "\7FELF
// LLVM: gpu.binary @kernels [#gpu.object<#offload.host<O = 2>, offload = "BC

module attributes {gpu.container_module} {
  gpu.module @kernels [#offload.host<O = 2>] {
    gpu.func @scale(%x: memref<?xf32>, %s: f32) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xf32>
      %r = arith.mulf %v, %s : f32
      memref.store %r, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
}
