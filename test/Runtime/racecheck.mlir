// Issue 25: offload-run --check=race (OFFLOAD_CHECK=race for the JIT)
// reports hazards between threads of a block within one barrier interval,
// in compute-sanitizer's racecheck shape, once per (kind, locations,
// interval), with both threads, the memory, the index and the interval; the
// launch fails and the run exits 1. Without --check=race the same kernels
// run and exit 0; a barrier between the accesses and atomics are no race.
//
// RUN: split-file %s %t
// RUN: not offload-run --check=race %t/workgroup.mlir 2>%t/wg.err | FileCheck %s --check-prefix=WG
// RUN: FileCheck %s --check-prefix=WG-ERR < %t/wg.err
// RUN: not offload-run --check=race --thread-loops=false %t/workgroup.mlir 2>/dev/null | FileCheck %s --check-prefix=WG
// RUN: env OFFLOAD_CACHE_DIR= not offload-run --jit --check=race %t/workgroup.mlir 2>/dev/null | FileCheck %s --check-prefix=WG
// RUN: env OFFLOAD_CHECK=race OFFLOAD_CACHE_DIR= not offload-run --jit %t/workgroup.mlir 2>/dev/null | FileCheck %s --check-prefix=WG
// RUN: offload-run %t/workgroup.mlir | FileCheck %s --check-prefix=UNCHECKED
// RUN: not offload-run --check=race %t/slot.mlir 2>/dev/null | FileCheck %s --check-prefix=SLOT
// RUN: not offload-run --check=race %t/global.mlir 2>/dev/null | FileCheck %s --check-prefix=GLOBAL
// RUN: env OFFLOAD_HOST_THREADS=1 not offload-run --check=race %t/blocks.mlir 2>%t/blocks.err | FileCheck %s --check-prefix=BLOCKS
// RUN: FileCheck %s --check-prefix=BLOCKS-ERR < %t/blocks.err
// RUN: env OFFLOAD_HOST_THREADS=1 OFFLOAD_CACHE_DIR= not offload-run --jit --check=race %t/blocks.mlir 2>/dev/null | FileCheck %s --check-prefix=BLOCKS
// RUN: offload-run %t/blocks.mlir | FileCheck %s --check-prefix=BLOCKS-UNCHECKED
// RUN: offload-run --check=race,memcheck %t/clean.mlir | FileCheck %s --check-prefix=CLEAN
// RUN: not offload-run --check=racy %t/clean.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env OFFLOAD_CHECK=race, not offload-run %t/clean.mlir 2>&1 | FileCheck %s --check-prefix=BAD-ENV

// The synced kernel ran first and reported nothing.
// WG: synced
// WG-NOT: Race
// WG: ========= Error: Race reported between Write access at {{.*}}workgroup.mlir:[[#WRITE:]]:9
// WG-NEXT: =========     and Read access at {{.*}}workgroup.mlir:[[#WRITE+2]]:12 in kernel 'broadcast'
// WG-NEXT: =========     block: [0,0,0], threads: [0,0,0] (write) and [1,0,0] (read)
// WG-NEXT: =========     workgroup memory at 0x{{[0-9A-F]+}}, index 2, barrier interval 1 (after the barrier at {{.*}}workgroup.mlir:[[#WRITE-4]]:7)
// Thread 2's and 3's reads are the same hazard (locations and interval).
// WG-NOT: Race
// WG: ========= ERROR SUMMARY: 1 error
// WG-NOT: Race
// WG-ERR: OFFLOAD_ERRC_BACKEND_FAILURE: kernel 'broadcast'{{.*}}: 1 race hazard(s) between threads of a block (racecheck)
// UNCHECKED: synced
// UNCHECKED-NEXT: broadcast
// UNCHECKED-NOT: =========

// SLOT: ========= Error: Race reported between Write access at {{.*}}slot.mlir:[[#SLOT:]]:7
// SLOT-NEXT: =========     and Write access at {{.*}}slot.mlir:[[#SLOT]]:7 in kernel 'slot'
// SLOT-NEXT: =========     block: [0,0,0], threads: [0,0,0] (write) and [1,0,0] (write)
// SLOT-NEXT: =========     workgroup memory at 0x{{[0-9A-F]+}}, index 0, barrier interval 0 (from the kernel's start)
// SLOT-NEXT: ========= Error: Race reported between Read access at {{.*}}slot.mlir:[[#SLOT+1]]:12
// SLOT-NEXT: =========     and Write access at {{.*}}slot.mlir:[[#SLOT]]:7 in kernel 'slot'
// SLOT-NEXT: =========     block: [0,0,0], threads: [0,0,0] (read) and [1,0,0] (write)
// SLOT-NOT: Race
// SLOT: ========= ERROR SUMMARY: 2 errors

// Thread 1 reads what thread 0 wrote (write-read), then writes over it
// (write-write) and over what thread 0 read (read-write).
// GLOBAL: ========= Error: Race reported between Write access at {{.*}}global.mlir:[[#STORE:]]:5
// GLOBAL-NEXT: =========     and Read access at {{.*}}global.mlir:[[#STORE-3]]:12 in kernel 'sum'
// GLOBAL-NEXT: =========     block: [0,0,0], threads: [0,0,0] (write) and [1,0,0] (read)
// GLOBAL-NEXT: =========     global memory at 0x{{[0-9A-F]+}}, index 0, barrier interval 0 (from the kernel's start)
// GLOBAL-NEXT: ========= Error: Race reported between Write access at {{.*}}global.mlir:[[#STORE]]:5
// GLOBAL-NEXT: =========     and Write access at {{.*}}global.mlir:[[#STORE]]:5 in kernel 'sum'
// GLOBAL: ========= Error: Race reported between Read access at {{.*}}global.mlir:[[#STORE-3]]:12
// GLOBAL-NEXT: =========     and Write access at {{.*}}global.mlir:[[#STORE]]:5 in kernel 'sum'
// GLOBAL-NOT: Race
// GLOBAL: ========= ERROR SUMMARY: 3 errors

// Between blocks (issue 25): both blocks write out[tid], once per location
// (two threads: two locations); the writes of out2 at block * size + thread,
// of part at the block id, the atomics and the same flag value are no race.
// BLOCKS: clean
// BLOCKS-NOT: Race
// BLOCKS: ========= Error: Race reported between Write access at {{.*}}blocks.mlir:[[#OWN:]]:7
// BLOCKS-NEXT: =========     and Write access at {{.*}}blocks.mlir:[[#OWN]]:7 in kernel 'same_slots'
// BLOCKS-NEXT: =========     blocks: [0,0,0] and [1,0,0], threads: [0,0,0] (write) and [0,0,0] (write)
// BLOCKS-NEXT: =========     global memory at 0x{{[0-9A-F]+}}, index 0, between blocks of one launch
// BLOCKS-NEXT: ========= Error: Race reported between Write access at {{.*}}blocks.mlir:[[#OWN]]:7
// BLOCKS-NEXT: =========     and Write access at {{.*}}blocks.mlir:[[#OWN]]:7 in kernel 'same_slots'
// BLOCKS-NEXT: =========     blocks: [0,0,0] and [1,0,0], threads: [1,0,0] (write) and [1,0,0] (write)
// BLOCKS-NEXT: =========     global memory at 0x{{[0-9A-F]+}}, index 1, between blocks of one launch
// BLOCKS-NOT: Race
// BLOCKS: ========= ERROR SUMMARY: 2 errors
// BLOCKS-ERR: kernel 'same_slots'{{.*}}: 2 race hazard(s) between threads of a block (racecheck)
// BLOCKS-UNCHECKED: clean
// BLOCKS-UNCHECKED-NEXT: same
// BLOCKS-UNCHECKED-NOT: =========

// CLEAN: 4
// CLEAN-NEXT: ========= ERROR SUMMARY: 0 errors
// BAD: offload-run: --check=racy: 'racy' is not a checking tool: expected a comma-separated list of memcheck, race, sync, init, leak, or all
// BAD-ENV: offload-run: OFFLOAD_CHECK=race,: '' is not a checking tool

//--- workgroup.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Thread 0 writes, the others read after a barrier: no hazard.
    gpu.func @synced(%out: memref<?xi32>)
        workgroup(%s: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %c7 = arith.constant 7 : i32
        memref.store %c7, %s[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
      %v = memref.load %s[%c0] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
    // After a barrier, thread 0 writes slot 2 and every thread reads it with
    // no barrier between: write-read.
    gpu.func @broadcast(%out: memref<?xi32>)
        workgroup(%s: memref<4xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      gpu.barrier
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %c7 = arith.constant 7 : i32
        memref.store %c7, %s[%c2] : memref<4xi32, #gpu.address_space<workgroup>>
      }
      %v = memref.load %s[%c2] : memref<4xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc(%c4) : memref<?xi32>
    gpu.launch_func @kernels::@synced blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    vector.print str "synced\n"
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@broadcast blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    gpu.wait [%t1]
    vector.print str "broadcast\n"
    return
  }
}

//--- slot.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Every thread writes its id to one slot and reads it back: write-write
    // (and read-write: thread 0 read before thread 1 wrote).
    gpu.func @slot(%out: memref<?xi32>)
        workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %v = memref.load %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %v, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc(%c4) : memref<?xi32>
    gpu.launch_func @kernels::@slot blocks in (%c2, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- global.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Every thread increments out[0] without an atomic.
    gpu.func @sum(%out: memref<?xi32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %out[%c0] : memref<?xi32>
      %c1 = arith.constant 1 : i32
      %w = arith.addi %v, %c1 : i32
    memref.store %w, %out[%c0] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %out = memref.alloc(%c1) : memref<?xi32>
    gpu.launch_func @kernels::@sum blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>)
    return
  }
}

//--- clean.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Atomics are no race; each thread's own element is no race either.
    gpu.func @count(%out: memref<?xi32>, %own: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %old = memref.atomic_rmw addi %c1, %out[%c0] : (i32, memref<?xi32>) -> i32
      %v = memref.load %own[%t] : memref<?xi32>
      %w = arith.addi %v, %c1 : i32
      memref.store %w, %own[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant 0 : i32
    %out = memref.alloc(%c1) : memref<?xi32>
    %own = memref.alloc(%c4) : memref<?xi32>
    memref.store %z, %out[%c0] : memref<?xi32>
    gpu.launch_func @kernels::@count blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%out : memref<?xi32>, %own : memref<?xi32>)
    %r = memref.load %out[%c0] : memref<?xi32>
    vector.print %r : i32
    return
  }
}

//--- blocks.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @distinct(%out2: memref<?xi32>, %part: memref<?xi32>,
                       %count: memref<?xi32>, %flag: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : i32
      %o = arith.muli %b, %n : index
      %i = arith.addi %o, %t : index
      %ti = arith.index_cast %t : index to i32
      memref.store %ti, %out2[%i] : memref<?xi32>
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %bi = arith.index_cast %b : index to i32
        memref.store %bi, %part[%b] : memref<?xi32>
      }
      %old = memref.atomic_rmw addi %c1, %count[%c0] : (i32, memref<?xi32>) -> i32
      memref.store %c1, %flag[%c0] : memref<?xi32>
      gpu.return
    }
    gpu.func @same_slots(%out: memref<?xi32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %bi = arith.index_cast %b : index to i32
      memref.store %bi, %out[%t] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %z = arith.constant 0 : i32
    %out = memref.alloc(%c4) : memref<?xi32>
    %part = memref.alloc(%c2) : memref<?xi32>
    %count = memref.alloc(%c1) : memref<?xi32>
    %flag = memref.alloc(%c1) : memref<?xi32>
    memref.store %z, %count[%c0] : memref<?xi32>
    memref.store %z, %flag[%c0] : memref<?xi32>
    gpu.launch_func @kernels::@distinct blocks in (%c2, %c1, %c1)
        threads in (%c2, %c1, %c1)
        args(%out : memref<?xi32>, %part : memref<?xi32>, %count : memref<?xi32>, %flag : memref<?xi32>)
    vector.print str "clean\n"
    gpu.launch_func @kernels::@same_slots blocks in (%c2, %c1, %c1)
        threads in (%c2, %c1, %c1) args(%out : memref<?xi32>)
    vector.print str "same\n"
    return
  }
}
