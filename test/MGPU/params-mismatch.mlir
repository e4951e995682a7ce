// mgpuLaunchKernel packs one pointer per lowered argument with the kernel's
// layout, so the launch and the kernel must lower memrefs the same way. Here
// the host side passes bare pointers (gpu-to-llvm use-bare-pointers-for-
// kernels) while the #offload.host kernel takes memref descriptors: the
// library reports the mismatch instead of reading past the params array.
//
// RUN: offload-opt %s -pass-pipeline='builtin.module(offload-attach-host-target,gpu.module(offload-host-kernel-to-llvm))' \
// RUN: | offload-opt -gpu-to-llvm=use-bare-pointers-for-kernels=1 -gpu-module-to-binary -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | %mgpu_retarget > %t.mlir
// RUN: not --crash mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so \
// RUN:   2>&1 | FileCheck %s

// CHECK: mgpu error: mgpuLaunchKernel: kernel 'fill' takes 6 lowered arguments but the launch passes 2 params (a memref is 3 + 2 * rank arguments; were the kernel and the launch lowered with the same memref calling convention?)
// CHECK-NEXT: libOffloadMGPU: aborting: the mgpu* ABI has no error returns

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%out: memref<4xi32>, %v: i32) kernel {
      %i = gpu.thread_id x
      memref.store %v, %out[%i] : memref<4xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %v = arith.constant 7 : i32
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill
        blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%m : memref<4xi32>, %v : i32)
    gpu.wait [%t2]
    return
  }
}
