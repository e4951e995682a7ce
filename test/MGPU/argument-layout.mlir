// Scalars of several widths through libOffloadMGPU.so: gpu-to-llvm passes one
// pointer per lowered argument and the library copies each to the offset the
// host kernel's descriptor records (OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS).
// Those offsets must be the packed layout the kernel reads
// (OffloadSupport/KernelArguments.h): i32 @0, i64 @8 (not 4), i1 @16,
// i16 @18, the memref's five fields @24..56, f32 @64.
//
// RUN: offload-opt %s -pass-pipeline='builtin.module(offload-attach-host-target,gpu.module(offload-host-kernel-to-llvm))' \
// RUN: | offload-opt -expand-strided-metadata -lower-affine -gpu-to-llvm -gpu-module-to-binary -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | %mgpu_retarget > %t.mlir
// RUN: mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s

// out = [a, b, c, d, e]
// CHECK: [-5,  1099511627783,  1,  -300,  3]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @store(%a: i32, %b: i64, %c: i1, %d: i16, %out: memref<?xi64>,
                    %e: f32) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %a64 = arith.extsi %a : i32 to i64
      memref.store %a64, %out[%c0] : memref<?xi64>
      memref.store %b, %out[%c1] : memref<?xi64>
      %c64 = arith.extui %c : i1 to i64
      memref.store %c64, %out[%c2] : memref<?xi64>
      %d64 = arith.extsi %d : i16 to i64
      memref.store %d64, %out[%c3] : memref<?xi64>
      %e64 = arith.fptosi %e : f32 to i64
      memref.store %e64, %out[%c4] : memref<?xi64>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %n = arith.constant 5 : index
    %a = arith.constant -5 : i32
    %b = arith.constant 1099511627783 : i64
    %c = arith.constant true
    %d = arith.constant -300 : i16
    %e = arith.constant 3.0 : f32
    %host = memref.alloc(%n) : memref<?xi64>
    %t0 = gpu.wait async
    %out, %t1 = gpu.alloc async [%t0] (%n) : memref<?xi64>
    %t2 = gpu.launch_func async [%t1] @kernels::@store
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%a : i32, %b : i64, %c : i1, %d : i16, %out : memref<?xi64>,
             %e : f32)
    %t3 = gpu.memcpy async [%t2] %host, %out : memref<?xi64>, memref<?xi64>
    %t4 = gpu.dealloc async [%t3] %out : memref<?xi64>
    gpu.wait [%t4]
    %u = memref.cast %host : memref<?xi64> to memref<*xi64>
    call @printMemrefI64(%u) : (memref<*xi64>) -> ()
    memref.dealloc %host : memref<?xi64>
    return
  }

  func.func private @printMemrefI64(memref<*xi64>)
}
