// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-thread-loops,offload-host-vectorize-thread-loops,offload-host-kernel-to-llvm),gpu-module-to-binary{format=isa})' | sed -e 's/\\0A/\n/g' -e 's/\\09/ /g' | FileCheck %s

// The thread loop of a 128-thread block, vectorized in MLIR: a vector loop
// over groups of 16 threads (the bound guard makes the trip count dynamic
// with a constant bound, 128, so the vectorizer takes the width of a static
// one: two 8-lane vmulps on AVX2), then a scalar loop over the last
// threads (fewer than 16), which the serializer marks as LLVM marks the
// scalar epilogue of a loop it vectorized (llvm.loop.isvectorized,
// llvm.loop.unroll.disable). So LLVM neither vectorizes it again (runtime
// alias checks of x and y, a vector body and epilogue: more vmulps and
// vmulps on xmm registers after it) nor unrolls it (one vmulss per unrolled
// copy): one scalar multiply follows the 8-lane (ymm) ones. The vector
// loop itself is marked `llvm.loop.unroll.runtime.disable`: it already does
// 16 threads per iteration, and LLVM's runtime unrolling of it (8 copies and
// a loop over the leftover groups) doubled the kernel's optimization and
// code generation time for no measurable speed: two vector multiplies.

// With the block size known (128 threads) the vector loop runs at most 8
// groups, and LLVM unrolls it fully by that bound (its decision, not a
// runtime unrolling: no loop over leftover groups, no xmm epilogue).

// CHECK-LABEL: __offload_block.axpy:
// CHECK-NOT: vmulps {{.*}}%xmm
// CHECK: vmulps {{.*}}%ymm
// CHECK-NOT: vmulps {{.*}}%xmm
// CHECK: vmulss
// CHECK-NOT: vmul
// CHECK: __offload_kernel_name.axpy:

module attributes {gpu.container_module} {
  gpu.module @kernels [#offload.host<chip = "x86-64-v3">] {
    gpu.func @axpy(%x: memref<?xf32>, %y: memref<?xf32>, %n: index, %a: f32)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %in_range = arith.cmpi ult, %i, %n : index
      scf.if %in_range {
        %xv = memref.load %x[%i] : memref<?xf32>
        %yv = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %a, %xv : f32
        %r = arith.addf %ax, %yv : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
