// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm))' | FileCheck %s

// The layout a host kernel's descriptor records (what
// OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS / ARGUMENT_SIZES report, and what
// offloadLaunchKernelWithArguments and MGPU pack by) is the packed layout of
// OffloadSupport/KernelArguments.h, which the LLVM struct the kernel reads
// its arguments through follows too: an i64 after an i32 is 8-aligned, an i1
// takes a byte, a memref descriptor starts 8-aligned after an i16, the whole
// is padded to its 8-byte alignment.

// CHECK-LABEL: gpu.module @layout
gpu.module @layout {
  // CHECK: llvm.mlir.global internal constant @__offload_kernel_args.mixed.offsets(dense<[0, 8, 16, 18, 24, 32, 40, 48, 56, 64]> : tensor<10xi64>)
  // CHECK: llvm.mlir.global internal constant @__offload_kernel_args.mixed.sizes(dense<[4, 8, 1, 2, 8, 8, 8, 8, 8, 4]> : tensor<10xi64>)
  // CHECK: llvm.mlir.global external constant @__offload_kernel.mixed()
  // CHECK:   llvm.mlir.constant(72 : i64) : i64
  gpu.func @mixed(%a: i32, %b: i64, %c: i1, %d: i16, %m: memref<?xf32>,
                  %e: f32) kernel {
    %tid = gpu.thread_id x
    %v = arith.sitofp %b : i64 to f32
    %w = arith.addf %v, %e : f32
    memref.store %w, %m[%tid] : memref<?xf32>
    gpu.return
  }
}
