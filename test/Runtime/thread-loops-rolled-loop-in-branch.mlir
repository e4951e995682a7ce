// A loop without results in a branch on the thread ids, in a kernel with a
// barrier (the shape of Rodinia lud_perimeter's loads of its tiles with its
// row loops left rolled): threads 0-15 copy rows 0-3 of a 4 x 16 block of
// %m (row stride 16) into workgroup memory, row by row; after the barrier
// thread t reads row t / 8, column t mod 16 of the tile. The branch becomes
// predicated thread loops with the row loop inside (it is not moved out:
// its column is a select), and the vectorizer keeps the loop rolled around
// vector code. (It built the loop's body with two yields: offload-run's
// verifier rejected it, "'scf.yield' op must be the last operation in the
// parent block"; the JIT, which does not verify, failed in the LLVM
// conversion, "'scf.yield' op is not supported by the host target".)
// The row count is read from memory on the host, so that the AOT
// specialization has no constant to unroll the loop by. (The JIT
// specializes on its value and, while isThreadRowLoop in
// SpecializeCostModel.cpp keeps only top-level row loops rolled, unrolls
// the loop: its run checks the same results on that path.)
// Expected: out[t] = (t / 8) * 16 + t mod 16.

// RUN: offload-run %s 2>&1 | FileCheck %s
// RUN: env OFFLOAD_CACHE_DIR= offload-run --jit %s 2>&1 | FileCheck %s

// CHECK-NOT: error
// CHECK: [0,  1,  2,  3,  4,  5,  6,  7,  24,  25,  26,  27,  28,  29,  30,  31,  32,  33,  34,  35,  36,  37,  38,  39,  56,  57,  58,  59,  60,  61,  62,  63]

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %m = gpu.alloc host_shared () : memref<64xf32>
  %out = gpu.alloc host_shared () : memref<32xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %v = arith.index_cast %i : index to i32
    %f = arith.sitofp %v : i32 to f32
    memref.store %f, %m[%i] : memref<64xf32>
  }
  %params = memref.alloca () : memref<1xindex>
  memref.store %c4, %params[%c0] : memref<1xindex>
  %rows = memref.load %params[%c0] : memref<1xindex>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
             workgroup(%tile : memref<4x16xf32, #gpu.address_space<workgroup>>) {
    %low = arith.cmpi ult, %tx, %c16 : index
    %high = arith.subi %tx, %c16 : index
    %col = arith.select %low, %tx, %high : index
    scf.if %low {
      scf.for %i = %c0 to %rows step %c1 {
        %row = arith.muli %i, %c16 : index
        %a = arith.addi %row, %col : index
        %v = memref.load %m[%a] : memref<64xf32>
        memref.store %v, %tile[%i, %col] : memref<4x16xf32, #gpu.address_space<workgroup>>
      }
    }
    gpu.barrier
    %r = arith.divui %tx, %c8 : index
    %t = memref.load %tile[%r, %col] : memref<4x16xf32, #gpu.address_space<workgroup>>
    memref.store %t, %out[%tx] : memref<32xf32>
    gpu.terminator
  }
  %u = memref.cast %out : memref<32xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(memref<*xf32>)
