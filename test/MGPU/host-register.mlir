// Host memory registration on libOffloadMGPU.so: gpu.host_register of ranked
// memrefs (mgpuMemHostRegisterMemRef with rank, descriptor and element size),
// kernels writing registered host memory directly, gpu.host_unregister, and
// the helper of upstream's ROCm tests that returns the device view of a
// registered memref (mgpuMemGetDeviceMemRef1dInt32). The launches come from
// gpu.launch through upstream's gpu-kernel-outlining and are synchronous
// (gpu-to-llvm creates, synchronizes and destroys a stream for each).
//
// RUN: offload-opt %s -gpu-kernel-outlining \
// RUN: | offload-opt -pass-pipeline='builtin.module(offload-attach-host-target,gpu.module(offload-host-kernel-to-llvm))' \
// RUN: | offload-opt -expand-strided-metadata -lower-affine -gpu-to-llvm -gpu-module-to-binary -convert-scf-to-cf -convert-to-llvm -reconcile-unrealized-casts \
// RUN: | %mgpu_retarget > %t.mlir
// RUN: mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN: | FileCheck %s
// RUN: env OFFLOAD_TRACE=1 mlir-runner %t.mlir --entry-point-result=void \
// RUN:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so,%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   2>&1 >/dev/null | FileCheck %s --check-prefix=TRACE

// CHECK-LABEL: registered 3x4
// CHECK:      [0,   1,   2,   3]
// CHECK-NEXT: [10,   11,   12,   13]
// CHECK-NEXT: [20,   21,   22,   23]
// CHECK-LABEL: device view
// CHECK: [-1,  -1,  100,  101,  102,  103,  104,  -1]

// A 3x4 i32 memref registers 48 bytes, the 5 elements from offset 2 of the
// 1-D one 20 bytes, the strided view (3 elements, stride 2, from offset 1)
// the 5 elements it spans.
// TRACE: offloadMemRegister({{.*}}Size=48, Flags=0{{.*}}) @ mgpuMemHostRegisterMemRef
// TRACE: offloadMemUnregister({{.*}}) @ mgpuMemHostUnregisterMemRef
// TRACE: offloadMemRegister({{.*}}Size=20, Flags=0{{.*}}) @ mgpuMemHostRegisterMemRef
// TRACE: offloadMemRegister({{.*}}Size=20, Flags=0{{.*}}) @ mgpuMemHostRegisterMemRef

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %c100 = arith.constant 100 : index

  // Rank 2: every block writes one row.
  %m = memref.alloc() : memref<3x4xi32>
  %mu = memref.cast %m : memref<3x4xi32> to memref<*xi32>
  gpu.host_register %mu : memref<*xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %row = arith.muli %bx, %c10 : index
    %v = arith.addi %row, %tx : index
    %vi = arith.index_cast %v : index to i32
    memref.store %vi, %m[%bx, %tx] : memref<3x4xi32>
    gpu.terminator
  }
  vector.print str "registered 3x4\n"
  call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
  gpu.host_unregister %mu : memref<*xi32>

  // Rank 1 with an offset, through the ROCm tests' helper.
  %minus1 = arith.constant -1 : i32
  %h = memref.alloc() : memref<8xi32>
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %minus1, %h[%i] : memref<8xi32>
  }
  %sub = memref.subview %h[2] [5] [1]
      : memref<8xi32> to memref<5xi32, strided<[1], offset: 2>>
  %dyn = memref.cast %sub
      : memref<5xi32, strided<[1], offset: 2>> to memref<?xi32, strided<[1], offset: ?>>
  %subu = memref.cast %sub
      : memref<5xi32, strided<[1], offset: 2>> to memref<*xi32>
  gpu.host_register %subu : memref<*xi32>
  // A strided (non-dense) view registers the extent it spans.
  %strided = memref.subview %h[1] [3] [2]
      : memref<8xi32> to memref<3xi32, strided<[2], offset: 1>>
  %stridedu = memref.cast %strided
      : memref<3xi32, strided<[2], offset: 1>> to memref<*xi32>
  gpu.host_register %stridedu : memref<*xi32>
  %dev = call @mgpuMemGetDeviceMemRef1dInt32(%dyn)
      : (memref<?xi32, strided<[1], offset: ?>>) -> memref<?xi32, strided<[1], offset: ?>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c5, %sy = %c1, %sz = %c1) {
    %v = arith.addi %tx, %c100 : index
    %vi = arith.index_cast %v : index to i32
    memref.store %vi, %dev[%tx] : memref<?xi32, strided<[1], offset: ?>>
    gpu.terminator
  }
  gpu.host_unregister %stridedu : memref<*xi32>
  gpu.host_unregister %subu : memref<*xi32>
  vector.print str "device view\n"
  %hu = memref.cast %h : memref<8xi32> to memref<*xi32>
  call @printMemrefI32(%hu) : (memref<*xi32>) -> ()
  memref.dealloc %h : memref<8xi32>
  memref.dealloc %m : memref<3x4xi32>
  return
}

func.func private @printMemrefI32(memref<*xi32>)
func.func private @mgpuMemGetDeviceMemRef1dInt32(memref<?xi32, strided<[1], offset: ?>>)
    -> memref<?xi32, strided<[1], offset: ?>>
