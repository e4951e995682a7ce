// Issue 25: offload-run --check=init (OFFLOAD_CHECK=init for the JIT)
// reports a kernel's read of gpu.alloc memory (offloadMemAlloc) that no
// copy, fill or kernel store wrote, in compute-sanitizer's initcheck shape,
// with the kernel, thread, block, the offset into the allocation and its
// origin, once per launch, location and allocation; the launch fails and
// the run exits 1. Reads after a gpu.memset, a gpu.memcpy (synchronous or
// on a queue) or another kernel's stores are not reported; of a buffer
// half written, only the unwritten half is. Host code writing host-shared
// (managed) memory directly counts as a write. Without the tool the same
// programs run and exit 0.
//
// RUN: split-file %s %t
// RUN: not offload-run --check=init %t/unwritten.mlir 2>%t/unwritten.err | FileCheck %s --check-prefix=UNWRITTEN
// RUN: FileCheck %s --check-prefix=UNWRITTEN-ERR < %t/unwritten.err
// RUN: not offload-run --check=memcheck,race,sync,init --thread-loops=false %t/unwritten.mlir 2>/dev/null | FileCheck %s --check-prefix=UNWRITTEN
// RUN: env OFFLOAD_CACHE_DIR= not offload-run --jit --check=initcheck %t/unwritten.mlir 2>/dev/null | FileCheck %s --check-prefix=UNWRITTEN
// RUN: env OFFLOAD_CHECK=init OFFLOAD_CACHE_DIR= not offload-run --jit %t/unwritten.mlir 2>/dev/null | FileCheck %s --check-prefix=UNWRITTEN
// RUN: offload-run %t/unwritten.mlir | FileCheck %s --check-prefix=UNCHECKED
// RUN: offload-run --check=memcheck,race,sync %t/unwritten.mlir | FileCheck %s --check-prefix=OTHERS
// RUN: offload-run --check=init %t/written.mlir | FileCheck %s --check-prefix=WRITTEN
// RUN: env OFFLOAD_CACHE_DIR= offload-run --jit --check=init %t/written.mlir | FileCheck %s --check-prefix=WRITTEN
// RUN: not offload-run --check=init %t/partial.mlir 2>/dev/null | FileCheck %s --check-prefix=PARTIAL
// RUN: not offload-run --check=init %t/managed.mlir 2>/dev/null | FileCheck %s --check-prefix=MANAGED

// UNWRITTEN: ========= Uninitialized __global__ memory read of size 4 bytes
// UNWRITTEN-NEXT: =========     at {{.*}}unwritten.mlir:[[#LOAD:]]:12 in kernel 'copy'
// UNWRITTEN-NEXT: =========     by thread (0,0,0) in block (0,0,0)
// UNWRITTEN-NEXT: =========     Address 0x{{[0-9A-F]+}} is at offset 0 of an allocation of 32 bytes of device memory at 0x{{[0-9A-F]+}}
// UNWRITTEN-NEXT: ========= allocated at main ({{.*}}unwritten.mlir:13:11)
// The other threads' reads are the same report (location, allocation).
// UNWRITTEN-NOT: Uninitialized
// UNWRITTEN: ========= ERROR SUMMARY: 1 error
// UNWRITTEN-ERR: OFFLOAD_ERRC_BACKEND_FAILURE: kernel 'copy'{{.*}}: 1 uninitialized read(s) of device memory (initcheck)
// UNCHECKED: done
// UNCHECKED-NOT: =========
// OTHERS: done
// OTHERS-NEXT: ========= ERROR SUMMARY: 0 errors

// WRITTEN: ( 7, 7, 7, 7, 7, 7, 7, 7 )
// WRITTEN-NEXT: ( 0, 1, 2, 3, 4, 5, 6, 7 )
// WRITTEN-NEXT: ( 10, 11, 12, 13, 14, 15, 16, 17 )
// WRITTEN-NEXT: ( 0, 2, 4, 6, 8, 10, 12, 14 )
// WRITTEN-NEXT: ========= ERROR SUMMARY: 0 errors

// Threads 0-3 read what the first kernel wrote; thread 4 reads the first
// unwritten element (16 bytes in).
// PARTIAL: first half
// PARTIAL-NEXT: ========= Uninitialized __global__ memory read of size 4 bytes
// PARTIAL-NEXT: =========     at {{.*}}partial.mlir:[[#LOAD:]]:12 in kernel 'copy'
// PARTIAL-NEXT: =========     by thread (4,0,0) in block (0,0,0)
// PARTIAL-NEXT: =========     Address 0x{{[0-9A-F]+}} is at offset 16 of an allocation of 32 bytes of device memory at 0x{{[0-9A-F]+}}
// PARTIAL-NOT: Uninitialized
// PARTIAL: ========= ERROR SUMMARY: 1 error

// The buffer the host wrote is no report; the other one is.
// MANAGED: 5
// MANAGED-NEXT: ========= Uninitialized __global__ memory read of size 4 bytes
// MANAGED-NEXT: =========     at {{.*}}managed.mlir:[[#LOAD:]]:12 in kernel 'copy'
// MANAGED-NEXT: =========     by thread (0,0,0) in block (0,0,0)
// MANAGED-NEXT: =========     Address 0x{{[0-9A-F]+}} is at offset 0 of an allocation of 4 bytes of managed memory at 0x{{[0-9A-F]+}}
// MANAGED-NOT: Uninitialized
// MANAGED: ========= ERROR SUMMARY: 1 error

//--- unwritten.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<?xi32>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %in = gpu.alloc (%c8) : memref<?xi32>
    %out = gpu.alloc (%c8) : memref<?xi32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%in : memref<?xi32>, %out : memref<?xi32>)
    vector.print str "done\n"
    return
  }
}

//--- written.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<?xi32>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
    gpu.func @twice(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      %v = arith.addi %ti, %ti : i32
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @show(%d: memref<?xi32>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %h = memref.alloc (%c8) : memref<?xi32>
    gpu.memcpy %h, %d : memref<?xi32>, memref<?xi32>
    %pad = arith.constant 0 : i32
    %v = vector.transfer_read %h[%c0], %pad : memref<?xi32>, vector<8xi32>
    vector.print %v : vector<8xi32>
    memref.dealloc %h : memref<?xi32>
    return
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c7 = arith.constant 7 : i32
    // A fill.
    %filled = gpu.alloc (%c8) : memref<?xi32>
    gpu.memset %filled, %c7 : memref<?xi32>, i32
    %out0 = gpu.alloc (%c8) : memref<?xi32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%filled : memref<?xi32>, %out0 : memref<?xi32>)
    call @show(%out0) : (memref<?xi32>) -> ()
    // A copy from the host.
    %h = memref.alloc (%c8) : memref<?xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      memref.store %ii, %h[%i] : memref<?xi32>
    }
    %copied = gpu.alloc (%c8) : memref<?xi32>
    gpu.memcpy %copied, %h : memref<?xi32>, memref<?xi32>
    %out1 = gpu.alloc (%c8) : memref<?xi32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%copied : memref<?xi32>, %out1 : memref<?xi32>)
    call @show(%out1) : (memref<?xi32>) -> ()
    // A copy on a queue, then a launch after it.
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %c10 = arith.constant 10 : i32
      %v = arith.addi %ii, %c10 : i32
      memref.store %v, %h[%i] : memref<?xi32>
    }
    %queued = gpu.alloc (%c8) : memref<?xi32>
    %out2 = gpu.alloc (%c8) : memref<?xi32>
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %queued, %h : memref<?xi32>, memref<?xi32>
    %t2 = gpu.launch_func async [%t1] @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%queued : memref<?xi32>, %out2 : memref<?xi32>)
    gpu.wait [%t2]
    call @show(%out2) : (memref<?xi32>) -> ()
    // Another kernel's stores.
    %stored = gpu.alloc (%c8) : memref<?xi32>
    gpu.launch_func @kernels::@twice blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%stored : memref<?xi32>)
    %out3 = gpu.alloc (%c8) : memref<?xi32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%stored : memref<?xi32>, %out3 : memref<?xi32>)
    call @show(%out3) : (memref<?xi32>) -> ()
    return
  }
}

//--- partial.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<?xi32>, %out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<?xi32>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
    gpu.func @ids(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %in = gpu.alloc (%c8) : memref<?xi32>
    %out = gpu.alloc (%c8) : memref<?xi32>
    // Elements 0-3 written.
    gpu.launch_func @kernels::@ids blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%in : memref<?xi32>)
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%in : memref<?xi32>, %out : memref<?xi32>)
    vector.print str "first half\n"
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c8, %c1, %c1) args(%in : memref<?xi32>, %out : memref<?xi32>)
    return
  }
}

//--- managed.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @copy(%in: memref<1xi32>, %out: memref<1xi32>) kernel {
      %t = gpu.thread_id x
      %v = memref.load %in[%t] : memref<1xi32>
      memref.store %v, %out[%t] : memref<1xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c5 = arith.constant 5 : i32
    %written = gpu.alloc host_shared () : memref<1xi32>
    %unwritten = gpu.alloc host_shared () : memref<1xi32>
    %out = gpu.alloc host_shared () : memref<1xi32>
    memref.store %c5, %written[%c0] : memref<1xi32>
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%written : memref<1xi32>, %out : memref<1xi32>)
    %v = memref.load %out[%c0] : memref<1xi32>
    vector.print %v : i32
    gpu.launch_func @kernels::@copy blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%unwritten : memref<1xi32>, %out : memref<1xi32>)
    return
  }
}
