// Async tokens on libOffloadMGPU.so: each `gpu.wait async` is a stream (a
// queue of the runtime); joining tokens records events on their streams and
// makes a new stream wait for them. Two streams fill two buffers
// (gpu.memset of i16 and i32: mgpuMemset16, mgpuMemset32), a third waits for
// both, runs a kernel and copies the result back.
//
// RUN: offload-opt %s -pass-pipeline='builtin.module(offload-attach-host-target,gpu.module(offload-host-kernel-to-llvm))' \
// RUN: | offload-opt -expand-strided-metadata -lower-affine -gpu-to-llvm -gpu-module-to-binary -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | %mgpu_retarget > %t.mlir
// RUN: mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: env OFFLOAD_TRACE=1 mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// CHECK-LABEL: joined
// CHECK: [107,  107,  107,  107,  107,  107,  107,  107,  107]
// CHECK-LABEL: chained
// CHECK: [214,  214,  214,  214,  214,  214,  214,  214,  214]

// The fills run on two queues; the join records an event on each and makes a
// third queue wait for both before the kernel.
// TRACE: offloadMemFill(Queue=[[Q1:0x[0-9a-f]+]], {{.*}}PatternSize=2{{.*}}FillSize=18) @ mgpuMemset16
// TRACE: offloadCreateEvent(Queue=[[Q1]], {{.*}}) @ mgpuEventRecord
// TRACE: offloadMemFill(Queue=[[Q2:0x[0-9a-f]+]], {{.*}}PatternSize=4{{.*}}FillSize=36) @ mgpuMemset32
// TRACE: offloadCreateEvent(Queue=[[Q2]], {{.*}}) @ mgpuEventRecord
// TRACE: offloadWaitEvents(Queue=[[Q3:0x[0-9a-f]+]], {{.*}}NumEvents=1) @ mgpuStreamWaitEvent
// TRACE: offloadWaitEvents(Queue=[[Q3]], {{.*}}NumEvents=1) @ mgpuStreamWaitEvent
// TRACE: offloadLaunchKernel(Queue=[[Q3]], {{.*}}) @ mgpuLaunchKernel
// TRACE: offloadSyncQueue(Queue=[[Q3]]) @ mgpuStreamSynchronize

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[i] = zext(a[i]) + b[i]
    gpu.func @widen_add(%a: memref<?xi16>, %b: memref<?xi32>,
                        %out: memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %a[%i] : memref<?xi16>
      %xw = arith.extui %x : i16 to i32
      %y = memref.load %b[%i] : memref<?xi32>
      %s = arith.addi %xw, %y : i32
      memref.store %s, %out[%i] : memref<?xi32>
      gpu.return
    }
    // out[i] = in[i] * 2
    gpu.func @twice(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %in[%i] : memref<?xi32>
      %s = arith.addi %x, %x : i32
      memref.store %s, %out[%i] : memref<?xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 9 : index
    %seven = arith.constant 7 : i16
    %hundred = arith.constant 100 : i32
    %host = memref.alloc(%n) : memref<?xi32>
    %u = memref.cast %host : memref<?xi32> to memref<*xi32>

    // Two independent streams.
    %s1 = gpu.wait async
    %a, %t1 = gpu.alloc async [%s1] (%n) : memref<?xi16>
    %t2 = gpu.memset async [%t1] %a, %seven : memref<?xi16>, i16
    %s2 = gpu.wait async
    %b, %t3 = gpu.alloc async [%s2] (%n) : memref<?xi32>
    %t4 = gpu.memset async [%t3] %b, %hundred : memref<?xi32>, i32
    %c, %t5 = gpu.alloc async [%t4] (%n) : memref<?xi32>

    // A third stream waits for both.
    %joined = gpu.wait async [%t2, %t5]
    %t6 = gpu.launch_func async [%joined] @kernels::@widen_add
        blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%a : memref<?xi16>, %b : memref<?xi32>, %c : memref<?xi32>)
    %t7 = gpu.memcpy async [%t6] %host, %c : memref<?xi32>, memref<?xi32>
    gpu.wait [%t7]
    vector.print str "joined\n"
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()

    // A token handed over to a new stream (one dependency): an event. (The
    // synchronous gpu.wait above destroyed the stream of %t7.)
    %s3 = gpu.wait async
    %d, %t8 = gpu.alloc async [%s3] (%n) : memref<?xi32>
    %next = gpu.wait async [%t8]
    %t9 = gpu.launch_func async [%next] @kernels::@twice
        blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1)
        args(%c : memref<?xi32>, %d : memref<?xi32>)
    %t10 = gpu.memcpy async [%t9] %host, %d : memref<?xi32>, memref<?xi32>
    %t11 = gpu.dealloc async [%t10] %a : memref<?xi16>
    %t12 = gpu.dealloc async [%t11] %b : memref<?xi32>
    %t13 = gpu.dealloc async [%t12] %c : memref<?xi32>
    %t14 = gpu.dealloc async [%t13] %d : memref<?xi32>
    gpu.wait [%t14]
    vector.print str "chained\n"
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<?xi32>
    return
  }

  func.func private @printMemrefI32(memref<*xi32>)
}
