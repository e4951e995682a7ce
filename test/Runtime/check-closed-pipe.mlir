// A checking tool's report into a pipe that closed (`| head -1`) ends the
// process (SIGPIPE, exit status 141, or the launch's error status) instead
// of deadlocking: the report held the print lock when the pipe's signal
// handler called exit(), whose summary handler took the same lock
// (3 hangs in 6 runs before). Eight runs, none may time out.
//
// RUN: bash -c 'for i in 1 2 3 4 5 6 7 8; do timeout 60 offload-run --check %s 2>/dev/null | head -1 > /dev/null; s=${PIPESTATUS[0]}; test $s -ne 124 || { echo "run $i hung"; exit 1; }; done'
// RUN: not offload-run --check %s 2>&1 | FileCheck %s

// CHECK: ========= {{.*}}check-closed-pipe.mlir:{{[0-9]+}}:7: out-of-bounds memref.store in kernel 'oob', block: [0,0,0], thread: [0,0,0]
// CHECK: ========= ERROR SUMMARY: 16 errors

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @oob(%x: memref<?xf32>, %n: index) kernel {
      %tid = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      %i = arith.addi %tid, %n : index
      memref.store %c, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %d = gpu.alloc (%c16) : memref<?xf32>
    gpu.launch_func @k::@oob blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1) args(%d : memref<?xf32>, %c16 : index)
    gpu.dealloc %d : memref<?xf32>
    return
  }
}
