// Issue 24 item 3: a program written against LLVM 22's own liboffload header
// (<offload/OffloadAPI.h>, Debian's liboffload-22-dev), linked with
// -lLLVMOffload against the drop-in library (lib/Liboffload22), runs on the
// host device: allocation, fill, copy, queue, event, a host program made by
// the offload pipeline from this file, a launch, results checked; then
// liboffload 22's error codes. The exports are liboffload 22's, under its
// version node.
// REQUIRES: liboffload22
// RUN: offload-opt %s -offload-lower-to-host | %extract-gpu-images -o %t
// RUN: %offload_bin_dir/offload-liboffload22-saxpy %t/kernels.img | FileCheck %s
// RUN: not %offload_bin_dir/offload-liboffload22-saxpy %s 2>&1 | FileCheck %s --check-prefix=NOT-AN-IMAGE
// RUN: nm -D --defined-only %offload_lib_dir/liboffload22/libLLVMOffload.so.22.1 | FileCheck %s --check-prefix=EXPORTS

// CHECK: liboffload22-saxpy: ok (1000 results on device type 4)

// NOT-AN-IMAGE: olIsValidBinary: the host program is not valid
// NOT-AN-IMAGE: olCreateProgram{{.*}}: error 3: the binary is not an ELF object

// EXPORTS-DAG: T olInit@@VERS1.0
// EXPORTS-DAG: T olLaunchKernel@@VERS1.0
// EXPORTS-DAG: T olMemAllocWithCodeLoc@@VERS1.0
// EXPORTS-NOT: T offload

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %c0 = arith.constant 0 : index
      %n = memref.dim %x, %c0 : memref<?xf32>
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %xi = memref.load %x[%i] : memref<?xf32>
        %yi = memref.load %y[%i] : memref<?xf32>
        %p = arith.mulf %a, %xi : f32
        %r = arith.addf %p, %yi : f32
        memref.store %r, %y[%i] : memref<?xf32>
      }
      gpu.return
    }
  }
}
