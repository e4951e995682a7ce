// A stock upstream pipeline, run by mlir-runner on libOffloadMGPU.so: gpu.alloc,
// gpu.memset, gpu.memcpy and gpu.launch_func with scalar and memref arguments
// (gpu-to-llvm passes one pointer per lowered argument: memrefs as 5 fields).
//
// RUN: offload-opt %s -pass-pipeline='builtin.module(offload-attach-host-target,gpu.module(offload-host-kernel-to-llvm))' \
// RUN: | offload-opt -expand-strided-metadata -lower-affine -gpu-to-llvm -gpu-module-to-binary -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | %mgpu_retarget > %t.mlir
// RUN: mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
//
// The host device is selected explicitly, and every runtime call names the
// mgpu function that made it in the trace.
// RUN: env OFFLOAD_MGPU_DEVICE=host OFFLOAD_TRACE=1 mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// CHECK: hello from thread 0
// CHECK-NEXT: hello from thread 1
// CHECK: [3,  6,  9,  12,  15,  18,  21,  24,  27,  30,  -1,  -1]

// TRACE: offloadInit() @ mgpuModuleLoad (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadCreateProgram({{.*}}) @ mgpuModuleLoad (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadCreateQueue({{.*}}) @ mgpuStreamCreate
// TRACE: offloadMemAlloc({{.*}}Type=DEVICE, Size=48{{.*}}) @ mgpuMemAlloc
// TRACE: offloadMemcpy({{.*}}Size=48) @ mgpuMemcpy
// TRACE: offloadMemFill({{.*}}PatternSize=4{{.*}}FillSize=48) @ mgpuMemset32
// TRACE: offloadGetSymbol({{.*}}Name="saxpy"{{.*}}) @ mgpuModuleGetFunction
// TRACE: offloadGetSymbolInfo({{.*}}PropName=ARGUMENT_OFFSETS{{.*}}) @ mgpuModuleGetFunction
// TRACE: offloadLaunchKernel({{.*}}ArgumentsSize=136, LaunchSizeArgs={Dimensions=3, NumGroups={3,1,1}, GroupSize={4,1,1}, DynSharedMemory=0}) @ mgpuLaunchKernel (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadLaunchHostFunction({{.*}}) @ mgpuMemFree
// TRACE: offloadSyncQueue({{.*}}) @ mgpuStreamSynchronize
// TRACE: offloadDestroyQueue({{.*}}) @ mgpuStreamDestroy
// TRACE: offloadGetSymbol({{.*}}Name="hello"{{.*}}) @ mgpuModuleGetFunction
// TRACE: offloadLaunchKernel({{.*}}ArgumentsData=0x0, ArgumentsSize=0, {{.*}}) @ mgpuLaunchKernel (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadDestroyProgram({{.*}}) @ mgpuModuleUnload
// TRACE: offloadShutDown() -> OFFLOAD_SUCCESS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[i] = alpha * x[i] + y[i] for i < n. The f32 first and the index
    // last exercise padding in the packed argument buffer:
    // f32 @0, 3 memrefs of 40 bytes @8, @48, @88, index @128 (136 bytes).
    gpu.func @saxpy(%alpha: f32, %x: memref<?xf32>, %y: memref<?xf32>,
                    %out: memref<?xf32>, %n: index) kernel {
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %tid = gpu.thread_id x
      %base = arith.muli %bid, %bdim : index
      %i = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %i, %n : index
      scf.if %inside {
        %a = memref.load %x[%i] : memref<?xf32>
        %b = memref.load %y[%i] : memref<?xf32>
        %ax = arith.mulf %alpha, %a : f32
        %r = arith.addf %ax, %b : f32
        memref.store %r, %out[%i] : memref<?xf32>
      }
      gpu.return
    }
    // No arguments: an empty packed buffer.
    gpu.func @hello() kernel {
      %tid = gpu.thread_id x
      gpu.printf "hello from thread %lld\n", %tid : index
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %n = arith.constant 10 : index
    %size = arith.constant 12 : index
    %alpha = arith.constant 2.0 : f32
    %minus1 = arith.constant -1.0 : f32

    // x[i] = i + 1 on the host.
    %host = memref.alloc(%size) : memref<?xf32>
    scf.for %i = %c0 to %size step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      %one = arith.constant 1.0 : f32
      %v = arith.addf %f, %one : f32
      memref.store %v, %host[%i] : memref<?xf32>
    }

    %t0 = gpu.wait async
    %x, %t1 = gpu.alloc async [%t0] (%size) : memref<?xf32>
    %y, %t2 = gpu.alloc async [%t1] (%size) : memref<?xf32>
    %out, %t3 = gpu.alloc async [%t2] (%size) : memref<?xf32>
    %t4 = gpu.memcpy async [%t3] %x, %host : memref<?xf32>, memref<?xf32>
    %t5 = gpu.memcpy async [%t4] %y, %host : memref<?xf32>, memref<?xf32>
    // out = -1 everywhere; the kernel writes the first n elements.
    %t6 = gpu.memset async [%t5] %out, %minus1 : memref<?xf32>, f32
    %t7 = gpu.launch_func async [%t6] @kernels::@saxpy
        blocks in (%c3, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%alpha : f32, %x : memref<?xf32>, %y : memref<?xf32>,
             %out : memref<?xf32>, %n : index)
    %t8 = gpu.memcpy async [%t7] %host, %out : memref<?xf32>, memref<?xf32>
    %t9 = gpu.dealloc async [%t8] %x : memref<?xf32>
    %t10 = gpu.dealloc async [%t9] %y : memref<?xf32>
    %t11 = gpu.dealloc async [%t10] %out : memref<?xf32>
    gpu.wait [%t11]

    // A synchronous launch: gpu-to-llvm creates, synchronizes and destroys a
    // stream around it.
    %c2 = arith.constant 2 : index
    gpu.launch_func @kernels::@hello blocks in (%c1, %c1, %c1)
        threads in (%c2, %c1, %c1)

    %u = memref.cast %host : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %host : memref<?xf32>
    return
  }

  func.func private @printMemrefF32(memref<*xf32>)
}
