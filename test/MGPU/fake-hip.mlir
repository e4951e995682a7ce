// mgpu* launches on a HIP device: libOffloadMGPU packs the params that
// gpu-to-llvm passes (one pointer per lowered argument) into the buffer
// layout the HIP plugin reads from the code object's amdhsa.kernels metadata
// (HIP has no query for it; before, such launches were UNSUPPORTED). The
// kernel is compiled by upstream's convert-gpu-to-rocdl into a real HSACO;
// the fake HIP runtime of the runtime's tests (unittests/Runtime/Plugins/
// FakeHIP.cpp) loads it and runs its `fill_i32` natively: element i of the
// memref becomes v + i, read at the offsets of the packed buffer.
//
// REQUIRES: fake-hip, rocm-toolkit
// RUN: offload-opt %s -pass-pipeline='builtin.module(gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{chipset=gfx90a}),rocdl-attach-target{chip=gfx90a abi=500})' \
// RUN: | offload-opt -gpu-to-llvm -gpu-module-to-binary=toolkit=%rocm_toolkit -convert-to-llvm -reconcile-unrealized-casts > %t.mlir
// RUN: env OFFLOAD_HIP_LIBRARY=%offload_lib_dir/libfakehip.so OFFLOAD_MGPU_DEVICE=hip OFFLOAD_TRACE=1 \
// RUN:   mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   > %t.out 2> %t.trace
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=TRACE < %t.trace

// CHECK: [40,  41,  42,  43,  44,  45,  46,  47]

// The metadata's explicit arguments: the memref's 5 fields at 0..32, the i32
// at 40: 48 bytes with the tail padding of the 8-byte-aligned struct.
// TRACE: offloadGetSymbolInfo({{.*}}PropName=ARGUMENT_OFFSETS{{.*}}) @ mgpuModuleGetFunction (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS
// TRACE: offloadLaunchKernel({{.*}}ArgumentsSize=48, LaunchSizeArgs={Dimensions=3, NumGroups={1,1,1}, GroupSize={1,1,1}, DynSharedMemory=0}) @ mgpuLaunchKernel (libOffloadMGPU:0:0) -> OFFLOAD_SUCCESS

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill_i32(%m: memref<?xi32>, %v: i32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = memref.dim %m, %c0 : memref<?xi32>
      scf.for %i = %c0 to %n step %c1 {
        %ii = arith.index_cast %i : index to i32
        %x = arith.addi %v, %ii : i32
        memref.store %x, %m[%i] : memref<?xi32>
      }
      gpu.return
    }
  }

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
