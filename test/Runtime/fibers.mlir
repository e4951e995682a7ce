// A block reduction whose result only thread 0 stores (gpu.all_reduce becomes
// shuffles and two barriers) runs on fibers (--thread-loops=false) at every
// optimization level: barriers are identified by their id, so copies of a
// barrier call that LLVM's optimizer makes are still one barrier.
// OFFLOAD_TRACE=1 says once per kernel why it runs on fibers. With thread
// loops (the default) nothing runs on fibers.

// RUN: env OFFLOAD_TRACE=1 offload-run --thread-loops=false -O0 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: env OFFLOAD_TRACE=1 offload-run --thread-loops=false -O2 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: env OFFLOAD_TRACE=1 offload-run --thread-loops=false -O3 %s 2>&1 | FileCheck %s --check-prefixes=CHECK,FIBERS
// RUN: env OFFLOAD_TRACE=1 offload-run -O3 %s 2>&1 | FileCheck %s

// FIBERS: offload: kernel main_kernel{{(_spec_[0-9a-f]+)?}} runs on fibers: the kernel synchronizes threads with gpu.barrier or gpu.shuffle (thread loops were not tried)
// CHECK-NOT: runs on fibers
// CHECK: [2016,  6112,  10208]
// CHECK-NOT: runs on fibers

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  %c192 = arith.constant 192 : index
  %in = memref.alloc() : memref<192xf32>
  %out = memref.alloc() : memref<3xf32>
  scf.for %i = %c0 to %c192 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %in[%i] : memref<192xf32>
  }
  %cast_in = memref.cast %in : memref<192xf32> to memref<*xf32>
  gpu.host_register %cast_in : memref<*xf32>
  %cast_out = memref.cast %out : memref<3xf32> to memref<*xf32>
  gpu.host_register %cast_out : memref<*xf32>
  // Launched three times: one trace line.
  scf.for %rep = %c0 to %c3 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c3, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %c64 : index
      %g = arith.addi %base, %tx : index
      %v = memref.load %in[%g] : memref<192xf32>
      %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
      %first = arith.cmpi eq, %tx, %c0 : index
      scf.if %first {
        memref.store %sum, %out[%bx] : memref<3xf32>
      }
      gpu.terminator
    }
  }
  call @printMemrefF32(%cast_out) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
