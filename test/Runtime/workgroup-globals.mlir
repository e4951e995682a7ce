// Workgroup globals are per block (issue 19 item 1): a memref.global in
// #gpu.address_space<workgroup> (numba-cuda's cuda.shared.array), one in
// memory space 3, and an LLVM global in addr_space 3 (FlyDSL's shared
// memory), read in kernels and in a device function. 1,000 blocks of 256
// threads stage values through them with a barrier, 20 times; every block
// runs at once with others on every thread. Before, the globals were one
// process-wide object and 242-254 of 256 results were wrong.
// RUN: offload-run %s | FileCheck %s
// RUN: env OFFLOAD_HOST_THREADS=8 offload-run %s | FileCheck %s
// RUN: env OFFLOAD_HOST_THREADS=8 offload-run --thread-loops=false %s | FileCheck %s
// RUN: env OFFLOAD_HOST_THREADS=8 offload-run --jit %s | FileCheck %s
// RUN: env OFFLOAD_HOST_THREADS=8 offload-run -O0 %s | FileCheck %s

// CHECK: wrong values, memref.global: 0
// CHECK: wrong values, memory space 3: 0
// CHECK: wrong values, llvm.mlir.global: 0
// CHECK: wrong values, device function: 0

module attributes {gpu.container_module} {
  gpu.module @kernels {
    memref.global "private" @tile : memref<256xf32, #gpu.address_space<workgroup>>
    memref.global "private" @tile3 : memref<256xf32, 3>
    llvm.mlir.global internal @__shared_alloc_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x f32>
    memref.global "private" @scratch : memref<256xf32, #gpu.address_space<workgroup>>

    // Nine rounds of: stage the value, barrier, take the value of thread
    // 255 - t plus one, barrier. So out[b * 256 + t] = in[b * 256 + 255 - t]
    // + 9: each thread reads what another thread of its block staged.
    gpu.func @reverse(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tile = memref.get_global @tile : memref<256xf32, #gpu.address_space<workgroup>>
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c256 = arith.constant 256 : index
      %c255 = arith.constant 255 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %one = arith.constant 1.0 : f32
      %base = arith.muli %b, %c256 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<?xf32>
      %r = arith.subi %c255, %t : index
      %w = scf.for %round = %c0 to %c9 step %c1 iter_args(%x = %v) -> (f32) {
        memref.store %x, %tile[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %y = memref.load %tile[%r] : memref<256xf32, #gpu.address_space<workgroup>>
        %y1 = arith.addf %y, %one : f32
        gpu.barrier
        scf.yield %y1 : f32
      }
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.return
    }

    gpu.func @reverse3(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tile = memref.get_global @tile3 : memref<256xf32, 3>
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c256 = arith.constant 256 : index
      %c255 = arith.constant 255 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %one = arith.constant 1.0 : f32
      %base = arith.muli %b, %c256 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<?xf32>
      %r = arith.subi %c255, %t : index
      %w = scf.for %round = %c0 to %c9 step %c1 iter_args(%x = %v) -> (f32) {
        memref.store %x, %tile[%t] : memref<256xf32, 3>
        gpu.barrier
        %y = memref.load %tile[%r] : memref<256xf32, 3>
        %y1 = arith.addf %y, %one : f32
        gpu.barrier
        scf.yield %y1 : f32
      }
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.return
    }

    gpu.func @reverse_llvm(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %smem = llvm.mlir.addressof @__shared_alloc_0 : !llvm.ptr<3>
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c256 = arith.constant 256 : index
      %c255 = arith.constant 255 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %one = arith.constant 1.0 : f32
      %base = arith.muli %b, %c256 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<?xf32>
      %t64 = arith.index_cast %t : index to i64
      %p = llvm.getelementptr %smem[0, %t64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<256 x f32>
      %r = arith.subi %c255, %t : index
      %r64 = arith.index_cast %r : index to i64
      %q = llvm.getelementptr %smem[0, %r64] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<256 x f32>
      %w = scf.for %round = %c0 to %c9 step %c1 iter_args(%x = %v) -> (f32) {
        llvm.store %x, %p : f32, !llvm.ptr<3>
        gpu.barrier
        %y = llvm.load %q : !llvm.ptr<3> -> f32
        %y1 = arith.addf %y, %one : f32
        gpu.barrier
        scf.yield %y1 : f32
      }
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.return
    }

    // The staging through a device function that names the global itself.
    func.func @stage(%t: index, %v: f32) {
      %s = memref.get_global @scratch : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %v, %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      return
    }
    func.func @fetch(%t: index) -> f32 {
      %s = memref.get_global @scratch : memref<256xf32, #gpu.address_space<workgroup>>
      %v = memref.load %s[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      return %v : f32
    }
    gpu.func @reverse_call(%in: memref<?xf32>, %out: memref<?xf32>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c256 = arith.constant 256 : index
      %c255 = arith.constant 255 : index
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c9 = arith.constant 9 : index
      %one = arith.constant 1.0 : f32
      %base = arith.muli %b, %c256 : index
      %i = arith.addi %base, %t : index
      %v = memref.load %in[%i] : memref<?xf32>
      %r = arith.subi %c255, %t : index
      %w = scf.for %round = %c0 to %c9 step %c1 iter_args(%x = %v) -> (f32) {
        func.call @stage(%t, %x) : (index, f32) -> ()
        gpu.barrier
        %y = func.call @fetch(%r) : (index) -> f32
        %y1 = arith.addf %y, %one : f32
        gpu.barrier
        scf.yield %y1 : f32
      }
      memref.store %w, %out[%i] : memref<?xf32>
      gpu.return
    }
  }

  // Runs @kernel 20 times on 1,000 blocks and counts the wrong values.
  func.func @count_wrong(%which: index, %in: memref<?xf32>, %out: memref<?xf32>) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c20 = arith.constant 20 : index
    %c255 = arith.constant 255 : index
    %c256 = arith.constant 256 : index
    %c1000 = arith.constant 1000 : index
    %n = arith.constant 256000 : index
    %zero = arith.constant 0 : i32
    %one = arith.constant 1 : i32
    %wrong = scf.for %rep = %c0 to %c20 step %c1 iter_args(%acc = %zero) -> (i32) {
      %minus = arith.constant -1.0 : f32
      scf.for %j = %c0 to %n step %c1 {
        memref.store %minus, %out[%j] : memref<?xf32>
      }
      scf.index_switch %which
      case 0 {
        gpu.launch_func @kernels::@reverse blocks in (%c1000, %c1, %c1)
            threads in (%c256, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>)
        scf.yield
      }
      case 1 {
        gpu.launch_func @kernels::@reverse3 blocks in (%c1000, %c1, %c1)
            threads in (%c256, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>)
        scf.yield
      }
      case 2 {
        gpu.launch_func @kernels::@reverse_llvm blocks in (%c1000, %c1, %c1)
            threads in (%c256, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>)
        scf.yield
      }
      default {
        gpu.launch_func @kernels::@reverse_call blocks in (%c1000, %c1, %c1)
            threads in (%c256, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>)
        scf.yield
      }
      %sum = scf.for %j = %c0 to %n step %c1 iter_args(%a = %acc) -> (i32) {
        %b = arith.divui %j, %c256 : index
        %t = arith.remui %j, %c256 : index
        %r = arith.subi %c255, %t : index
        %base = arith.muli %b, %c256 : index
        %src = arith.addi %base, %r : index
        %srci = arith.index_cast %src : index to i32
        %srcf = arith.sitofp %srci : i32 to f32
        %nine = arith.constant 9.0 : f32
        %expected = arith.addf %srcf, %nine : f32
        %got = memref.load %out[%j] : memref<?xf32>
        %bad = arith.cmpf une, %got, %expected : f32
        %inc = arith.select %bad, %one, %zero : i32
        %next = arith.addi %a, %inc : i32
        scf.yield %next : i32
      }
      scf.yield %sum : i32
    }
    return %wrong : i32
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %n = arith.constant 256000 : index
    %in = memref.alloc(%n) : memref<?xf32>
    %out = memref.alloc(%n) : memref<?xf32>
    scf.for %j = %c0 to %n step %c1 {
      %ji = arith.index_cast %j : index to i32
      %v = arith.sitofp %ji : i32 to f32
      memref.store %v, %in[%j] : memref<?xf32>
    }
    %w0 = func.call @count_wrong(%c0, %in, %out) : (index, memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "wrong values, memref.global: "
    vector.print %w0 : i32
    %w1 = func.call @count_wrong(%c1, %in, %out) : (index, memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "wrong values, memory space 3: "
    vector.print %w1 : i32
    %w2 = func.call @count_wrong(%c2, %in, %out) : (index, memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "wrong values, llvm.mlir.global: "
    vector.print %w2 : i32
    %w3 = func.call @count_wrong(%c3, %in, %out) : (index, memref<?xf32>, memref<?xf32>) -> i32
    vector.print str "wrong values, device function: "
    vector.print %w3 : i32
    memref.dealloc %in : memref<?xf32>
    memref.dealloc %out : memref<?xf32>
    return
  }
}
