// A program whose gpu.module already targets NVVM (numba-cuda-mlir and eudsl
// emit them so) runs on the host device, ahead of time and with the JIT, with
// a remark naming the replaced target.
// RUN: offload-run %s 2>&1 | FileCheck %s
// RUN: offload-run --jit %s 2>&1 | FileCheck %s

// CHECK: remark: gpu.module 'kernels' targets #nvvm.target<chip = "sm_90">: compiled for the host target #offload.host{{.*}} instead
// CHECK: ( 0, 1, 4, 9, 16, 25, 36, 49 )

module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_90">] {
    gpu.func @square(%out: memref<8xi32>) kernel {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      %sq = arith.muli %v, %v : i32
      memref.store %sq, %out[%i] : memref<8xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0 : i32
    %m = memref.alloc() : memref<8xi32>
    gpu.launch_func @kernels::@square blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%m : memref<8xi32>)
    %v = vector.transfer_read %m[%c0], %pad : memref<8xi32>, vector<8xi32>
    vector.print %v : vector<8xi32>
    memref.dealloc %m : memref<8xi32>
    return
  }
}
