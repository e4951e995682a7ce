// Issue 11 item 5: cf.assert inside kernels, with GPU semantics. A failing
// thread prints, on stdout like CUDA's device-side assert, its file, line,
// function, block and thread, and stops; the launch fails and offload-run
// exits 1 after the kernel's output. Call-site locations (inlined code)
// resolve to the callee. Kernels that also synchronize run on fibers.
//
// RUN: split-file %s %t
// RUN: not offload-run %t/plain.mlir > %t/plain.out 2> %t/plain.err
// RUN: FileCheck %s --check-prefix=PLAIN < %t/plain.out
// RUN: FileCheck %s --check-prefix=ERR < %t/plain.err
// RUN: not offload-run %t/inlined.mlir > %t/inlined.out 2>&1
// RUN: FileCheck %s --check-prefix=INLINED < %t/inlined.out
// RUN: not offload-run --jit %t/plain.mlir 2>&1 | FileCheck %s --check-prefix=PLAIN
// RUN: offload-opt %t/inlined.mlir --offload-lower-to-host 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// PLAIN: plain.mlir:12: check: block: [1,0,0], thread: [2,0,0] Assertion `x[i] >= 0` failed.
// PLAIN-NOT: Assertion
// ERR: offload error: offload.launch @kernels::@check{{.*}}: OFFLOAD_ERRC_BACKEND_FAILURE: kernel 'check'{{.*}}: a device-side assertion failed in 1 thread(s)
// INLINED: helper.h:3: helper: block: [0,0,0], thread: [2,0,0] Assertion `x[i] >= 0` failed.
// INLINED: OFFLOAD_ERRC_BACKEND_FAILURE
// REMARK: remark: kernel 'check' runs on fibers: a failing cf.assert stops its thread alone

//--- plain.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%x: memref<?xi32>) kernel {
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %t = gpu.thread_id x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %x[%i] : memref<?xi32>
      %c0 = arith.constant 0 : i32
      %ok = arith.cmpi sge, %v, %c0 : i32
      cf.assert %ok, "x[i] >= 0"
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c6 = arith.constant 6 : index
    %c8 = arith.constant 8 : index
    %x = memref.alloc(%c8) : memref<?xi32>
    scf.for %k = %c0 to %c8 step %c1 {
      %kk = arith.index_cast %k : index to i32
      memref.store %kk, %x[%k] : memref<?xi32>
    }
    // Element 6: block 1, thread 2 (blocks of 4).
    %m = arith.constant -5 : i32
    memref.store %m, %x[%c6] : memref<?xi32>
    gpu.launch_func @kernels::@check blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%x : memref<?xi32>)
    vector.print str "not reached\n"
    return
  }
}

//--- inlined.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @check(%x: memref<?xi32>) workgroup(%s: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %i = gpu.thread_id x
      %v = memref.load %x[%i] : memref<?xi32>
      %c0 = arith.constant 0 : i32
      %ok = arith.cmpi sge, %v, %c0 : i32
      cf.assert %ok, "x[i] >= 0" loc(callsite("helper"("helper.h":3:5) at "main.cu":10:3))
      memref.store %v, %s[%i] : memref<4xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c3 = arith.constant 3 : index
      %j = arith.subi %c3, %i : index
      %w = memref.load %s[%j] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %w, %x[%i] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %x = memref.alloc(%c4) : memref<?xi32>
    scf.for %k = %c0 to %c4 step %c1 {
      %kk = arith.index_cast %k : index to i32
      memref.store %kk, %x[%k] : memref<?xi32>
    }
    %m = arith.constant -5 : i32
    memref.store %m, %x[%c2] : memref<?xi32>
    gpu.launch_func @kernels::@check blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%x : memref<?xi32>)
    return
  }
}
