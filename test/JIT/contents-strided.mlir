// Issue 10 item 4: `contents` of a strided memref are its elements, not the
// contiguous bytes at its start. The JIT, the generic kernel and the
// ahead-of-time build agree; the specialized kernel holds the strided
// elements as a global laid out like the view.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT_DUMP=%t/dump offload-run --jit %s | FileCheck %s
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT=0 offload-run --jit %s | FileCheck %s
// RUN: offload-run %s | FileCheck %s
// RUN: cat %t/dump/*.mlir | FileCheck %s --check-prefix=DUMP

// CHECK: [10,  30,  50,  70]
// DUMP: memref.global "private" constant @{{.*}} : memref<7xi32> = dense<[10, 0, 30, 0, 50, 0, 70]>
// DUMP: memref.reinterpret_cast {{.*}} to offset: [0], sizes: [4], strides: [2] : memref<7xi32> to memref<4xi32, strided<[2]>>

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gather(%table: memref<4xi32, strided<[2]>>, %out: memref<4xi32>) kernel {
      %t = offload.runtime_constant %table contents : memref<4xi32, strided<[2]>>
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<4xi32, strided<[2]>>
      memref.store %v, %out[%i] : memref<4xi32>
      gpu.return
    }
  }

  memref.global "private" @data : memref<8xi32> =
      dense<[10, 20, 30, 40, 50, 60, 70, 80]>

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %data = memref.get_global @data : memref<8xi32>
    %table = memref.subview %data[0] [4] [2]
        : memref<8xi32> to memref<4xi32, strided<[2]>>
    %out = memref.alloc() : memref<4xi32>
    gpu.launch_func @kernels::@gather blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1)
        args(%table : memref<4xi32, strided<[2]>>, %out : memref<4xi32>)
    %u = memref.cast %out : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
