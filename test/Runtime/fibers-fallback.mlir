// A kernel whose barrier sits in a loop with a trip count read from memory
// that the kernel also writes (the same for every thread at run time, but
// not provably so) runs on fibers: a remark at compile time and a trace line
// at run time say why, and the result is right. (Read from memory the kernel
// does not write, the same loop gets thread loops:
// thread-loops-loaded-trip-count.mlir.)

// RUN: env OFFLOAD_TRACE=1 offload-run %s 2>&1 | FileCheck %s

// CHECK: remark: kernel 'main_kernel{{(_spec_[0-9a-f]+)?}}' runs on fibers: threads synchronize inside an scf.for whose bounds are not provably the same for every thread (they depend on the thread id or on memory the kernel writes)
// CHECK: offload: kernel main_kernel{{(_spec_[0-9a-f]+)?}} runs on fibers: threads synchronize inside an scf.for whose bounds are not provably the same for every thread (they depend on the thread id or on memory the kernel writes)
// CHECK: [3,  4,  5,  6,  7,  8,  9,  10,  11,  12,  13,  14,  15,  0,  1,  2]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %data = gpu.alloc host_shared () : memref<16xi32>
  %trips = gpu.alloc host_shared () : memref<1xindex>
  memref.store %c3, %trips[%c0] : memref<1xindex>
  scf.for %i = %c0 to %c16 step %c1 {
    %v = arith.index_cast %i : index to i32
    memref.store %v, %data[%i] : memref<16xi32>
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1)
             workgroup(%sh : memref<16xi32, #gpu.address_space<workgroup>>) {
    %count = memref.load %trips[%c0] : memref<1xindex>
    %v = memref.load %data[%tx] : memref<16xi32>
    memref.store %v, %sh[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %count step %c1 {
      gpu.barrier
      %t1 = arith.addi %tx, %c1 : index
      %src = arith.remui %t1, %c16 : index
      %x = memref.load %sh[%src] : memref<16xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      memref.store %x, %sh[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    }
    gpu.barrier
    %y = memref.load %sh[%tx] : memref<16xi32, #gpu.address_space<workgroup>>
    memref.store %y, %data[%tx] : memref<16xi32>
    // Thread 0 writes the trip count back (the same value): the kernel
    // writes the memory its loop bound is read from.
    %first = arith.cmpi eq, %tx, %c0 : index
    scf.if %first {
      memref.store %count, %trips[%c0] : memref<1xindex>
    }
    gpu.terminator
  }
  %u = memref.cast %data : memref<16xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
func.func private @printMemrefI32(memref<*xi32>)
