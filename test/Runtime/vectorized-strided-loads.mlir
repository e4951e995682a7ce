// Loads with a constant stride of 2 and 3 along thread x run as contiguous
// runs and a shuffle in the vectorized thread loops (the stride-3 one under
// a thread-dependent branch, `tx < 20 && tx % 3 != 1`, where only the
// elements of lanes that run are read): the values are those of the scalar
// program. The stride-3 load's lanes reach element 3 * 18 = 54 of a
// 58-element memref (the runs of the lanes past it are masked off).

// RUN: env OFFLOAD_TRACE=1 offload-run %s 2>&1 | FileCheck %s

// CHECK-NOT: runs on fibers
// CHECK: [0,  -1,  6,  9,  -1,  15,  18,  -1,  24,  27,  -1,  33,  36,  -1,  42,  45,  -1,  51,  54,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1,  -1]
// CHECK: [1,  3,  5,  7,  9,  11,  13,  15,  17,  19,  21,  23,  25,  27,  29,  31,  33,  35,  37,  39,  41,  43,  45,  47,  49,  51,  53,  55,  57,  59,  61,  63]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c58 = arith.constant 58 : index
  %c64 = arith.constant 64 : index
  %threes = gpu.alloc host_shared () : memref<58xf32>
  %pairs = gpu.alloc host_shared () : memref<64xf32>
  %out3 = gpu.alloc host_shared () : memref<32xf32>
  %out2 = gpu.alloc host_shared () : memref<32xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %iv = arith.index_cast %i : index to i32
    %f = arith.sitofp %iv : i32 to f32
    memref.store %f, %pairs[%i] : memref<64xf32>
    %in = arith.cmpi ult, %i, %c58 : index
    scf.if %in {
      memref.store %f, %threes[%i] : memref<58xf32>
    }
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c20 = arith.constant 20 : index
    %none = arith.constant -1.0 : f32
    gpu.barrier
    %first = arith.cmpi ult, %tx, %c20 : index
    %third = arith.remui %tx, %c3 : index
    %taken = arith.cmpi ne, %third, %c1 : index
    %inside = arith.andi %first, %taken : i1
    %v3 = scf.if %inside -> (f32) {
      %a = arith.muli %tx, %c3 : index
      %v = memref.load %threes[%a] : memref<58xf32>
      scf.yield %v : f32
    } else {
      scf.yield %none : f32
    }
    memref.store %v3, %out3[%tx] : memref<32xf32>
    %a2 = arith.muli %tx, %c2 : index
    %b2 = arith.addi %a2, %c1 : index
    %v2 = memref.load %pairs[%b2] : memref<64xf32>
    memref.store %v2, %out2[%tx] : memref<32xf32>
    gpu.terminator
  }
  %u3 = memref.cast %out3 : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  %u2 = memref.cast %out2 : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
