// Issue 10 item 2: `contents` are read when the kernel runs, not when its
// launch is enqueued. @fill writes 555 into the table, then @read, launched
// on the same queue and marking the table `contents`, copies it out: the
// specialization must see 555, not the 123 the table held at enqueue time.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: env OFFLOAD_CACHE_DIR=%t/cache offload-run --jit %s | FileCheck %s
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT=0 offload-run --jit %s | FileCheck %s
// RUN: offload-run %s | FileCheck %s

// CHECK: [555,  555]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @fill(%table: memref<2xi32>) kernel {
      // Slow enough that the host reaches the next launch first.
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = arith.constant 20000000 : index
      %zero = arith.constant 0 : i32
      %s = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> i32 {
        %kk = arith.index_cast %k : index to i32
        %m = arith.muli %acc, %kk : i32
        %a = arith.addi %m, %kk : i32
        scf.yield %a : i32
      }
      %z = arith.muli %s, %zero : i32
      %v = arith.constant 555 : i32
      %w = arith.addi %v, %z : i32
      %i = gpu.thread_id x
      memref.store %w, %table[%i] : memref<2xi32>
      gpu.return
    }
    gpu.func @read(%table: memref<2xi32>, %out: memref<2xi32>) kernel {
      %t = offload.runtime_constant %table contents : memref<2xi32>
      %i = gpu.thread_id x
      %v = memref.load %t[%i] : memref<2xi32>
      memref.store %v, %out[%i] : memref<2xi32>
      gpu.return
    }
  }

  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %v = arith.constant 123 : i32
    %table = memref.alloc() : memref<2xi32>
    %out = memref.alloc() : memref<2xi32>
    %c0 = arith.constant 0 : index
    memref.store %v, %table[%c0] : memref<2xi32>
    memref.store %v, %table[%c1] : memref<2xi32>
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@fill blocks in (%c1, %c1, %c1)
        threads in (%c2, %c1, %c1) args(%table : memref<2xi32>)
    %t2 = gpu.launch_func async [%t1] @kernels::@read blocks in (%c1, %c1, %c1)
        threads in (%c2, %c1, %c1)
        args(%table : memref<2xi32>, %out : memref<2xi32>)
    gpu.wait [%t2]
    %u = memref.cast %out : memref<2xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
