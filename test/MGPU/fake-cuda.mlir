// mgpu* launches on a CUDA device: libOffloadMGPU packs the params that
// gpu-to-llvm passes (one pointer per lowered argument) into the buffer
// layout the CUDA plugin reads with cuFuncGetParamInfo, here on the fake CUDA
// driver of the runtime's tests (unittests/Runtime/Plugins/FakeCUDA.cpp), whose
// kernel `fill_i32` writes element i of its memref as v + i. The PTX declares
// the lowered parameters: a memref<?xi32> (2 pointers, offset, size, stride)
// and an i32, 44 bytes, 48 with the struct's tail padding.
//
// REQUIRES: fake-cuda
// RUN: offload-opt %s -gpu-to-llvm -convert-to-llvm -reconcile-unrealized-casts > %t.mlir
// RUN: env OFFLOAD_CUDA_LIBRARY=%offload_lib_dir/libfakecuda.so OFFLOAD_MGPU_DEVICE=cuda OFFLOAD_TRACE=1 \
// RUN:   mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   > %t.out 2> %t.trace
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace
//
// A CUDA 12.2 driver has no cuFuncGetParamInfo: the layout comes from the
// PTX's .param list instead.
// RUN: env OFFLOAD_CUDA_LIBRARY=%offload_lib_dir/libfakecuda122.so OFFLOAD_MGPU_DEVICE=cuda \
// RUN:   mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

// CHECK: [40,  41,  42,  43,  44,  45,  46,  47]

// TRACE: offload: CUDA: 1 device(s) (CUDA {{.*}} driver at {{.*}}libfakecuda.so)
// TRACE: offloadCreateProgram({{.*}}) @ mgpuModuleLoad (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadGetSymbol({{.*}}Name="fill_i32"{{.*}}) @ mgpuModuleGetFunction
// TRACE: offloadGetSymbolInfo({{.*}}PropName=ARGUMENT_OFFSETS{{.*}}) @ mgpuModuleGetFunction (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadLaunchKernel({{.*}}ArgumentsSize=48, LaunchSizeArgs={Dimensions=3, NumGroups={1,1,1}, GroupSize={1,1,1}, DynSharedMemory=0}) @ mgpuLaunchKernel (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, ".version 7.0\0A.target sm_75\0A.address_size 64\0A.visible .entry fill_i32(.param .u64 fill_i32_param_0, .param .u64 fill_i32_param_1, .param .u64 fill_i32_param_2, .param .u64 fill_i32_param_3, .param .u64 fill_i32_param_4, .param .u32 fill_i32_param_5)\0A{\0A  ret;\0A}\0A">]

  func.func private @printMemrefI32(memref<*xi32>)

  func.func @main() {
    %c1 = arith.constant 1 : index
    %v = arith.constant 40 : i32
    %host = memref.alloc() : memref<8xi32>
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<8xi32>
    %dyn = memref.cast %dev : memref<8xi32> to memref<?xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@fill_i32
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%dyn : memref<?xi32>, %v : i32)
    %t3 = gpu.memcpy async [%t2] %host, %dev : memref<8xi32>, memref<8xi32>
    %t4 = gpu.dealloc async [%t3] %dev : memref<8xi32>
    gpu.wait [%t4]
    %u = memref.cast %host : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %host : memref<8xi32>
    return
  }
}
