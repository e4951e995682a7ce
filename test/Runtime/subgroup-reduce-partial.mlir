// Warp sums with gpu.shuffle xor (the butterfly of
// bench/host/kernels/warp_reduce.mlir) on the host, where the thread loops
// around the exchanges run one subgroup per vector iteration and fuse with
// them (test/Conversion/GPUToOffloadHost/subgroup-exchange-fusion.mlir): each
// thread loads in[gid] if gid < n (else 0), lane 0 of each subgroup stores
// its subgroup's sum. n = 1000 leaves the last 256-thread block partial
// (threads 1000..1023 add 0, subgroup 31 holds 8 values); a 96-thread block
// is 3 subgroups. in[i] = i mod 7, so subgroup s sums (32 s .. 32 s + 31)
// mod 7, checked on the host against a scalar loop: the program prints the
// number of wrong sums and the last subgroup's (992..999 mod 7: 26).
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s
// RUN: env OFFLOAD_HOST_THREADS=2 offload-run --jit %s | FileCheck %s
// CHECK: block 256: wrong 0 last 26
// CHECK-NEXT: block 96: wrong 0 last 26

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @warp_sums(%n: index, %in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %w = arith.constant 32 : i32
      %zero = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %bid = gpu.block_id x
      %bdim = gpu.block_dim x
      %base = arith.muli %bid, %bdim : index
      %gid = arith.addi %base, %tid : index
      %inside = arith.cmpi ult, %gid, %n : index
      %v = scf.if %inside -> (f32) {
        %x = memref.load %in[%gid] : memref<?xf32>
        scf.yield %x : f32
      } else {
        scf.yield %zero : f32
      }
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o4 = arith.constant 4 : i32
      %o2 = arith.constant 2 : i32
      %o1 = arith.constant 1 : i32
      %s16, %p16 = gpu.shuffle xor %v, %o16, %w : f32
      %a16 = arith.addf %v, %s16 : f32
      %s8, %p8 = gpu.shuffle xor %a16, %o8, %w : f32
      %a8 = arith.addf %a16, %s8 : f32
      %s4, %p4 = gpu.shuffle xor %a8, %o4, %w : f32
      %a4 = arith.addf %a8, %s4 : f32
      %s2, %p2 = gpu.shuffle xor %a4, %o2, %w : f32
      %a2 = arith.addf %a4, %s2 : f32
      %s1, %p1 = gpu.shuffle xor %a2, %o1, %w : f32
      %a1 = arith.addf %a2, %s1 : f32
      %lane = arith.remui %gid, %c32 : index
      %first = arith.cmpi eq, %lane, %c0 : index
      scf.if %first {
        %sg = arith.divui %gid, %c32 : index
        memref.store %a1, %out[%sg] : memref<?xf32>
      }
      gpu.return
    }
  }

  func.func private @printI64(i64)
  func.func private @printF32(f32)
  func.func private @printNewline()
  func.func private @printString(!llvm.ptr)
  llvm.mlir.global internal constant @label("block \00")
  llvm.mlir.global internal constant @wrong(": wrong \00")
  llvm.mlir.global internal constant @last(" last \00")

  func.func @run(%block: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c7 = arith.constant 7 : index
    %c32 = arith.constant 32 : index
    %n = arith.constant 1000 : index
    %groups = arith.constant 32 : index
    %in = gpu.alloc host_shared (%n) : memref<?xf32>
    %out = gpu.alloc host_shared (%groups) : memref<?xf32>
    %minus = arith.constant -1.0 : f32
    scf.for %i = %c0 to %n step %c1 {
      %r = arith.remui %i, %c7 : index
      %ri = arith.index_cast %r : index to i32
      %f = arith.sitofp %ri : i32 to f32
      memref.store %f, %in[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %groups step %c1 {
      memref.store %minus, %out[%i] : memref<?xf32>
    }
    %nb0 = arith.addi %n, %block : index
    %nb1 = arith.subi %nb0, %c1 : index
    %blocks = arith.divui %nb1, %block : index
    gpu.launch_func @k::@warp_sums blocks in (%blocks, %c1, %c1)
        threads in (%block, %c1, %c1)
        args(%n : index, %in : memref<?xf32>, %out : memref<?xf32>)
    %zero = arith.constant 0.0 : f32
    %wrong = scf.for %s = %c0 to %groups step %c1 iter_args(%bad = %c0) -> (index) {
      %lo = arith.muli %s, %c32 : index
      %hi0 = arith.addi %lo, %c32 : index
      %hi = arith.minui %hi0, %n : index
      %sum = scf.for %i = %lo to %hi step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %in[%i] : memref<?xf32>
        %a = arith.addf %acc, %x : f32
        scf.yield %a : f32
      }
      %got = memref.load %out[%s] : memref<?xf32>
      %ok = arith.cmpf oeq, %got, %sum : f32
      %inc = arith.select %ok, %c0, %c1 : index
      %next = arith.addi %bad, %inc : index
      scf.yield %next : index
    }
    %l = llvm.mlir.addressof @label : !llvm.ptr
    call @printString(%l) : (!llvm.ptr) -> ()
    %bi = arith.index_cast %block : index to i64
    call @printI64(%bi) : (i64) -> ()
    %wl = llvm.mlir.addressof @wrong : !llvm.ptr
    call @printString(%wl) : (!llvm.ptr) -> ()
    %wi = arith.index_cast %wrong : index to i64
    call @printI64(%wi) : (i64) -> ()
    %ll = llvm.mlir.addressof @last : !llvm.ptr
    call @printString(%ll) : (!llvm.ptr) -> ()
    %c31 = arith.constant 31 : index
    %lastv = memref.load %out[%c31] : memref<?xf32>
    call @printF32(%lastv) : (f32) -> ()
    call @printNewline() : () -> ()
    gpu.dealloc %in : memref<?xf32>
    gpu.dealloc %out : memref<?xf32>
    return
  }

  func.func @main() {
    %b256 = arith.constant 256 : index
    %b96 = arith.constant 96 : index
    call @run(%b256) : (index) -> ()
    call @run(%b96) : (index) -> ()
    return
  }
}
