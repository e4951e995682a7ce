// Tiled matrix multiply C = A * B (128x96 times 96x64) with shared memory.
//
// Each 16x16 block of threads computes a 16x16 tile of C. For every
// 16-wide slice of the K dimension the block stages one tile of A and one of
// B in workgroup (shared) memory, synchronizes with gpu.barrier, accumulates
// from shared memory, and synchronizes again before the tiles are
// overwritten: the classic CUDA shared-memory GEMM.
//
// The host checks every element against a straightforward triple loop and
// prints the largest difference (exactly 0: all values are small integers).
//   build/bin/offload-run examples/matmul.mlir

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %M = arith.constant 128 : index
  %N = arith.constant 64 : index
  %K = arith.constant 96 : index
  %c7 = arith.constant 7 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32

  // A[i][k] = (i + k) mod 7, B[k][j] = (2k + j) mod 5 - 2.
  %A = memref.alloc() : memref<128x96xf32>
  %B = memref.alloc() : memref<96x64xf32>
  %C = memref.alloc() : memref<128x64xf32>
  scf.for %i = %c0 to %M step %c1 {
    scf.for %k = %c0 to %K step %c1 {
      %s = arith.addi %i, %k : index
      %m = arith.remui %s, %c7 : index
      %mi = arith.index_cast %m : index to i32
      %v = arith.sitofp %mi : i32 to f32
      memref.store %v, %A[%i, %k] : memref<128x96xf32>
    }
  }
  %c2 = arith.constant 2 : index
  %two = arith.constant 2.0 : f32
  scf.for %k = %c0 to %K step %c1 {
    scf.for %j = %c0 to %N step %c1 {
      %k2 = arith.muli %k, %c2 : index
      %s = arith.addi %k2, %j : index
      %m = arith.remui %s, %c5 : index
      %mi = arith.index_cast %m : index to i32
      %mf = arith.sitofp %mi : i32 to f32
      %v = arith.subf %mf, %two : f32
      memref.store %v, %B[%k, %j] : memref<96x64xf32>
    }
  }

  %dA = gpu.alloc () : memref<128x96xf32>
  %dB = gpu.alloc () : memref<96x64xf32>
  %dC = gpu.alloc () : memref<128x64xf32>
  gpu.memcpy %dA, %A : memref<128x96xf32>, memref<128x96xf32>
  gpu.memcpy %dB, %B : memref<96x64xf32>, memref<96x64xf32>

  %gridX = arith.divui %N, %c16 : index
  %gridY = arith.divui %M, %c16 : index
  %numTiles = arith.divui %K, %c16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %gridX, %gy = %gridY, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c16, %sz = %c1)
             workgroup(%tileA : memref<16x16xf32, #gpu.address_space<workgroup>>,
                       %tileB : memref<16x16xf32, #gpu.address_space<workgroup>>) {
    %row0 = arith.muli %by, %c16 : index
    %row = arith.addi %row0, %ty : index
    %col0 = arith.muli %bx, %c16 : index
    %col = arith.addi %col0, %tx : index
    %acc = scf.for %t = %c0 to %numTiles step %c1 iter_args(%sum = %zero) -> f32 {
      %k0 = arith.muli %t, %c16 : index
      // Stage one element of each tile per thread.
      %ka = arith.addi %k0, %tx : index
      %a = memref.load %dA[%row, %ka] : memref<128x96xf32>
      memref.store %a, %tileA[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %kb = arith.addi %k0, %ty : index
      %b = memref.load %dB[%kb, %col] : memref<96x64xf32>
      memref.store %b, %tileB[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %partial = scf.for %kk = %c0 to %c16 step %c1 iter_args(%s = %sum) -> f32 {
        %x = memref.load %tileA[%ty, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %y = memref.load %tileB[%kk, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
        %p = arith.mulf %x, %y : f32
        %n = arith.addf %s, %p : f32
        scf.yield %n : f32
      }
      gpu.barrier
      scf.yield %partial : f32
    }
    memref.store %acc, %dC[%row, %col] : memref<128x64xf32>
    gpu.terminator
  }

  gpu.memcpy %C, %dC : memref<128x64xf32>, memref<128x64xf32>
  gpu.dealloc %dA : memref<128x96xf32>
  gpu.dealloc %dB : memref<96x64xf32>
  gpu.dealloc %dC : memref<128x64xf32>

  // Reference on the host; track the largest absolute difference.
  %maxErr = scf.for %i = %c0 to %M step %c1 iter_args(%e0 = %zero) -> f32 {
    %e1 = scf.for %j = %c0 to %N step %c1 iter_args(%e = %e0) -> f32 {
      %ref = scf.for %k = %c0 to %K step %c1 iter_args(%s = %zero) -> f32 {
        %a = memref.load %A[%i, %k] : memref<128x96xf32>
        %b = memref.load %B[%k, %j] : memref<96x64xf32>
        %p = arith.mulf %a, %b : f32
        %n = arith.addf %s, %p : f32
        scf.yield %n : f32
      }
      %got = memref.load %C[%i, %j] : memref<128x64xf32>
      %d = arith.subf %got, %ref : f32
      %ad = math.absf %d : f32
      %m = arith.maximumf %e, %ad : f32
      scf.yield %m : f32
    }
    scf.yield %e1 : f32
  }
  %corner = memref.subview %C[0, 0] [2, 4] [1, 1]
      : memref<128x64xf32> to memref<2x4xf32, strided<[64, 1]>>
  %cornerCast = memref.cast %corner
      : memref<2x4xf32, strided<[64, 1]>> to memref<*xf32>
  call @printMemrefF32(%cornerCast) : (memref<*xf32>) -> ()
  vector.print str "max abs error vs host: "
  vector.print %maxErr : f32
  memref.dealloc %A : memref<128x96xf32>
  memref.dealloc %B : memref<96x64xf32>
  memref.dealloc %C : memref<128x64xf32>
  return
}

func.func private @printMemrefF32(memref<*xf32>)
