// OFFLOAD_TRACE_FILE writes a Chrome trace: launches and copies on a track per
// queue (here one queue, from the async tokens) and on the synchronous track,
// under the names of the OFFLOAD_PROFILE summaries (the kernel's name, the
// copy's kind as nsys names it).

// RUN: rm -f %t.json
// RUN: env OFFLOAD_TRACE_FILE=%t.json offload-run %s | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=TRACE < %t.json

// OUT: [2, 4, 6, 8]

// TRACE-DAG: "name": "synchronous calls"
// TRACE-DAG: "name": "queue 1"
// TRACE-DAG: "name": "main_kernel"
// TRACE-DAG: "cat": "kernel"
// TRACE-DAG: "detail": "grid (1,1,1) block (4,1,1)"
// TRACE-DAG: "name": "[memcpy Host-to-Host]"
// TRACE-DAG: "detail": "16 bytes"
// TRACE-DAG: "ph": "X"

func.func @main() {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %h = memref.alloc() : memref<4xi32>
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %one = arith.constant 1 : i32
    %v = arith.addi %ii, %one : i32
    memref.store %v, %h[%i] : memref<4xi32>
  }
  %t0 = gpu.wait async
  %d, %t1 = gpu.alloc async [%t0] () : memref<4xi32>
  %t2 = gpu.memcpy async [%t1] %d, %h : memref<4xi32>, memref<4xi32>
  %t3 = gpu.launch async [%t2] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %v = memref.load %d[%tx] : memref<4xi32>
    %w = arith.addi %v, %v : i32
    memref.store %w, %d[%tx] : memref<4xi32>
    gpu.terminator
  }
  %t4 = gpu.memcpy async [%t3] %h, %d : memref<4xi32>, memref<4xi32>
  gpu.wait [%t4]
  %cast = memref.cast %h : memref<4xi32> to memref<*xi32>
  call @printMemrefI32(%cast) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
