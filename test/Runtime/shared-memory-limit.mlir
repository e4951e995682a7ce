// Issue 20 item 5: static shared memory is counted exactly against the
// device's 64 KiB per block. A kernel with 4 bytes of workgroup memory
// records 4 in its descriptor (not the 16 or 64 the block's buffer pads it
// to), so 65,532 bytes of dynamic shared memory fit next to it and 65,533 do
// not; the message names the same 4 bytes.
//
// RUN: offload-opt %s -pass-pipeline='builtin.module(offload-attach-host-target,gpu.module(offload-host-kernel-to-llvm))' | FileCheck %s --check-prefix=DESC
// RUN: offload-run %s -e fits | FileCheck %s --check-prefix=FITS
// RUN: not offload-run %s -e over 2>&1 | FileCheck %s --check-prefix=OVER

// DESC: llvm.mlir.global external constant @__offload_kernel.k()
// DESC:   llvm.mlir.constant(4 : i64) : i64
// DESC-NEXT: llvm.insertvalue %{{.*}}, %{{.*}}[2]

// FITS: static 7, last dynamic byte 9 at 65519
// FITS-NEXT: static 7, last dynamic byte 9 at 65531
// OVER: OFFLOAD_ERRC_INVALID_SIZE: kernel 'k{{(_spec_[0-9a-f]+)?}}': 4 bytes of static and 65533 bytes of dynamic shared memory (LaunchSizeArgs->DynSharedMemory) exceed the device's 65536 bytes per block

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // Writes 7 to its static word and 9 to the last byte of its dynamic
    // shared memory, then copies both out.
    gpu.func @k(%out: memref<2xi32>, %last: index)
        workgroup(%s: memref<1xi32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c7 = arith.constant 7 : i32
      %c9 = arith.constant 9 : i8
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      memref.store %c7, %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      memref.store %c9, %dyn[%last] : memref<?xi8, #gpu.address_space<workgroup>>
      %v = memref.load %s[%c0] : memref<1xi32, #gpu.address_space<workgroup>>
      %b = memref.load %dyn[%last] : memref<?xi8, #gpu.address_space<workgroup>>
      %w = arith.extui %b : i8 to i32
      memref.store %v, %out[%c0] : memref<2xi32>
      memref.store %w, %out[%c1] : memref<2xi32>
      gpu.return
    }
  }

  func.func @run(%bytes: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %out = memref.alloc() : memref<2xi32>
    %last = arith.subi %bytes, %c1 : index
    %bytes32 = arith.index_cast %bytes : index to i32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) dynamic_shared_memory_size %bytes32
        args(%out : memref<2xi32>, %last : index)
    %v = memref.load %out[%c0] : memref<2xi32>
    %w = memref.load %out[%c1] : memref<2xi32>
    vector.print str "static "
    vector.print %v : i32 punctuation <no_punctuation>
    vector.print str ", last dynamic byte "
    vector.print %w : i32 punctuation <no_punctuation>
    vector.print str " at "
    vector.print %last : index
    memref.dealloc %out : memref<2xi32>
    return
  }

  // 64 KiB - 16: what fit before (the static 4 bytes were charged 16 by the
  // compiler, or 64 by the runtime); and 64 KiB - 4, all the rest.
  func.func @fits() {
    %a = arith.constant 65520 : index
    %b = arith.constant 65532 : index
    call @run(%a) : (index) -> ()
    call @run(%b) : (index) -> ()
    return
  }

  func.func @over() {
    %a = arith.constant 65533 : index
    call @run(%a) : (index) -> ()
    return
  }
}
