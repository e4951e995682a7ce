// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(convert-gpu-to-offload-host),gpu-module-to-binary{format=isa})' | FileCheck %s

// The runtime tells barriers apart by their call site, so code generation
// must keep one call per gpu.barrier in the thread function (the fiber entry).
// Here the barrier follows a store by lane 0 of each warp and precedes a
// branch of warp 0 (a warp-shuffle reduction, as a JIT specialization for
// 256 threads sees it): x86 tail duplication in MachineBlockPlacement would
// copy the barrier into both paths, and lane 0 would wait at another barrier
// than the other threads (a deadlock error at run time).

// CHECK: gpu.binary @kernels
// CHECK: __offload_thread.lane0_then_barrier:
// CHECK: callq\09__offload_host_barrier
// CHECK-NOT: callq\09__offload_host_barrier
// CHECK: __offload_block.lane0_then_barrier:

module attributes {gpu.container_module} {
  gpu.module @kernels [#offload.host<O = 3>] {
    gpu.func @lane0_then_barrier(%x: memref<?xf32>, %out: memref<?xf32>)
        workgroup(%partial: memref<32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1_i32 = arith.constant 1 : i32
      %c32_i32 = arith.constant 32 : i32
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %lane = arith.remui %tid, %c32 : index
      %warp = arith.divui %tid, %c32 : index
      %v = memref.load %x[%tid] : memref<?xf32>
      %s, %ok = gpu.shuffle xor %v, %c1_i32, %c32_i32 : f32
      %sum = arith.addf %v, %s : f32
      %lane0 = arith.cmpi eq, %lane, %c0 : index
      scf.if %lane0 {
        memref.store %sum, %partial[%warp]
            : memref<32xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %warp0 = arith.cmpi eq, %warp, %c0 : index
      scf.if %warp0 {
        %has = arith.cmpi ult, %lane, %c8 : index
        %w = scf.if %has -> (f32) {
          %l = memref.load %partial[%lane]
              : memref<32xf32, #gpu.address_space<workgroup>>
          scf.yield %l : f32
        } else {
          scf.yield %zero : f32
        }
        %t, %ok2 = gpu.shuffle xor %w, %c1_i32, %c32_i32 : f32
        %r = arith.addf %w, %t : f32
        scf.if %lane0 {
          memref.store %r, %out[%c0] : memref<?xf32>
        }
      }
      gpu.return
    }
  }
}
