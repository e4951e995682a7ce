// Issue 10 item 7: with --jit, -O levels reach the kernels (they are part of
// the embedded module, hence of the key); the trace tells a disk hit from a
// compile; OFFLOAD_JIT_ASYNC=1 with a warm disk cache launches the
// specialization at once and compiles nothing.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT_STATS=1 OFFLOAD_TRACE_FILE=%t/first.json \
// RUN:   offload-run --jit -O3 %s 2>&1 | FileCheck %s --check-prefixes=RESULT,COMPILED
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT_STATS=1 OFFLOAD_TRACE_FILE=%t/second.json \
// RUN:   offload-run --jit -O3 %s 2>&1 | FileCheck %s --check-prefixes=RESULT,DISK
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT_STATS=1 \
// RUN:   offload-run --jit -O1 %s 2>&1 | FileCheck %s --check-prefixes=RESULT,COMPILED
// RUN: env OFFLOAD_CACHE_DIR=%t/cache OFFLOAD_JIT_STATS=1 OFFLOAD_JIT_ASYNC=1 \
// RUN:   offload-run --jit -O1 %s 2>&1 | FileCheck %s --check-prefixes=RESULT,ASYNC
// RUN: FileCheck %s --check-prefix=TRACE-COMPILED < %t/first.json
// RUN: FileCheck %s --check-prefix=TRACE-DISK < %t/second.json

// RESULT: [3,  4,  5,  6]
// COMPILED: offload-jit stats: launches=1 compiles=1 memory-hits=0 disk-hits=0 disk-writes=1
// DISK: offload-jit stats: launches=1 compiles=0 memory-hits=0 disk-hits=1 disk-writes=0
// ASYNC: offload-jit stats: launches=1 compiles=0 memory-hits=0 disk-hits=1 disk-writes=0 corrupt-entries=0 generic-launches=0 async-compiles=0
// TRACE-COMPILED: "miss: compiled"
// TRACE-DISK: "miss: found on disk"

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%x: memref<4xi32>, %k: i32) kernel {
      %kk = offload.runtime_constant %k : i32
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<4xi32>
      %r = arith.addi %v, %kk : i32
      memref.store %r, %x[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %k = arith.constant 3 : i32
    %x = memref.alloc() : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %x[%i] : memref<4xi32>
    }
    gpu.launch_func @kernels::@add blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%x : memref<4xi32>, %k : i32)
    %u = memref.cast %x : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
