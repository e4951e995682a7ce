// Issue 20 item 2: every thread of a 64-block grid reads 2^40 elements past
// its buffer, so several threads fault at once. The first one names its
// kernel and block, the others wait for the process to die (before, the
// second fault killed the process while the first one's report was being
// written: the line was missing in 10 runs of 10). Twenty runs with the
// default number of host threads and twenty with 8.
//
// ASan reports the fault itself (exit status 1): not what this test checks.
// UNSUPPORTED: sanitized
// RUN: sh -c 'for i in $(seq 20); do timeout 10 offload-run %s > %t.$i 2>&1; echo "status $? named $(grep -c "^offload: fault in host kernel .far_read. (specialization far_read_spec_[0-9a-f]*), block ([0-9]*, 0, 0) of a grid of (64, 1, 1) blocks of (64, 1, 1) threads: SIGSEGV" %t.$i)"; done' | sort | uniq -c | FileCheck %s --implicit-check-not=status
// RUN: env OFFLOAD_HOST_THREADS=8 sh -c 'for i in $(seq 20); do timeout 10 offload-run %s > %t.$i 2>&1; echo "status $? named $(grep -c "^offload: fault in host kernel .far_read. (specialization far_read_spec_[0-9a-f]*), block ([0-9]*, 0, 0) of a grid of (64, 1, 1) blocks of (64, 1, 1) threads: SIGSEGV" %t.$i)"; done' | sort | uniq -c | FileCheck %s --implicit-check-not=status
// CHECK: 20 status 139 named 1

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @far_read(%m: memref<?xf32>, %out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %o = arith.muli %b, %n : index
      %i = arith.addi %o, %t : index
      %far = arith.constant 1099511627776 : index
      %j = arith.addi %i, %far : index
      %v = memref.load %m[%j] : memref<?xf32>
      memref.store %v, %out[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c4096 = arith.constant 4096 : index
    %m = memref.alloc(%c4096) : memref<?xf32>
    %out = memref.alloc(%c4096) : memref<?xf32>
    gpu.launch_func @kernels::@far_read blocks in (%c64, %c1, %c1)
        threads in (%c64, %c1, %c1)
        args(%m : memref<?xf32>, %out : memref<?xf32>)
    return
  }
}
