// Issue 19 item 3: the lowerings of a kernel that make affine.apply ops,
// 2-D vector transfers (convert-vector-to-scf) and views with dynamic offsets
// (expand-strided-metadata), run before lower-affine, as in upstream's CPU
// pipelines; in host code too. Each thread sums a 4-element window
// (memref.subview at 4 * i) and doubles a 2x4 tile (vector<2x4xf32>).
//
// RUN: offload-run %s | FileCheck %s
// RUN: offload-run --jit %s | FileCheck %s
// RUN: offload-opt %s --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm))' \
// RUN:   | FileCheck %s --check-prefix=IR

// IR-LABEL: llvm.func internal @window(
// IR-NOT: affine.
// IR: llvm.return
// IR-LABEL: llvm.func internal @tile(
// IR-NOT: affine.
// IR: llvm.return

// The windows of x[i] = i: 16 i + 6.
// CHECK: [6,  22,  38,  54,  70,  86,  102,  118]
// The doubled tiles, and x[4] + x[1] through a view in host code.
// CHECK: [0,  2,  4,  6,  8,  10,  12,  14]
// CHECK: [32,  34,  36,  38,  40,  42,  44,  46]
// CHECK: 5

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @window(%x: memref<?xf32>, %out: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %start = arith.muli %i, %c4 : index
      %w = memref.subview %x[%start] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
      %a = memref.load %w[%c0] : memref<4xf32, strided<[1], offset: ?>>
      %b = memref.load %w[%c1] : memref<4xf32, strided<[1], offset: ?>>
      %c = memref.load %w[%c2] : memref<4xf32, strided<[1], offset: ?>>
      %d = memref.load %w[%c3] : memref<4xf32, strided<[1], offset: ?>>
      %ab = arith.addf %a, %b : f32
      %cd = arith.addf %c, %d : f32
      %s = arith.addf %ab, %cd : f32
      memref.store %s, %out[%i] : memref<?xf32>
      gpu.return
    }
    gpu.func @tile(%x: memref<8x16xf32>, %y: memref<8x16xf32>) kernel {
      %t = gpu.thread_id x
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c0 = arith.constant 0 : index
      %tr = arith.divui %t, %c4 : index
      %tc = arith.remui %t, %c4 : index
      %r = arith.muli %tr, %c2 : index
      %col = arith.muli %tc, %c4 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %x[%r, %col], %pad {in_bounds = [true, true]} : memref<8x16xf32>, vector<2x4xf32>
      %d = arith.addf %v, %v : vector<2x4xf32>
      vector.transfer_write %d, %y[%r, %col] {in_bounds = [true, true]} : vector<2x4xf32>, memref<8x16xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %x = memref.alloc(%c32) : memref<?xf32>
    %out = memref.alloc(%c8) : memref<?xf32>
    %m = memref.alloc() : memref<8x16xf32>
    %n = memref.alloc() : memref<8x16xf32>
    scf.for %i = %c0 to %c32 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.uitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<?xf32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %k = arith.muli %i, %c16 : index
        %l = arith.addi %k, %j : index
        %li = arith.index_cast %l : index to i32
        %f = arith.uitofp %li : i32 to f32
        memref.store %f, %m[%i, %j] : memref<8x16xf32>
      }
    }
    %xu = memref.cast %x : memref<?xf32> to memref<*xf32>
    gpu.host_register %xu : memref<*xf32>
    %ou = memref.cast %out : memref<?xf32> to memref<*xf32>
    gpu.host_register %ou : memref<*xf32>
    %mu = memref.cast %m : memref<8x16xf32> to memref<*xf32>
    gpu.host_register %mu : memref<*xf32>
    %nu = memref.cast %n : memref<8x16xf32> to memref<*xf32>
    gpu.host_register %nu : memref<*xf32>
    gpu.launch_func @kernels::@window blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%x : memref<?xf32>, %out : memref<?xf32>)
    gpu.launch_func @kernels::@tile blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)
        args(%m : memref<8x16xf32>, %n : memref<8x16xf32>)
    call @printMemrefF32(%ou) : (memref<*xf32>) -> ()
    %row0 = memref.subview %n[0, 0] [1, 8] [1, 1] : memref<8x16xf32> to memref<8xf32, strided<[1]>>
    %r0 = memref.cast %row0 : memref<8xf32, strided<[1]>> to memref<*xf32>
    call @printMemrefF32(%r0) : (memref<*xf32>) -> ()
    %row1 = memref.subview %n[1, 0] [1, 8] [1, 1] : memref<8x16xf32> to memref<8xf32, strided<[1], offset: 16>>
    %r1 = memref.cast %row1 : memref<8xf32, strided<[1], offset: 16>> to memref<*xf32>
    call @printMemrefF32(%r1) : (memref<*xf32>) -> ()
    // A view with a dynamic offset in host code.
    %w = memref.subview %x[%c1] [4] [1] : memref<?xf32> to memref<4xf32, strided<[1], offset: ?>>
    %c3 = arith.constant 3 : index
    %a = memref.load %w[%c3] : memref<4xf32, strided<[1], offset: ?>>
    %b = memref.load %w[%c0] : memref<4xf32, strided<[1], offset: ?>>
    %s = arith.addf %a, %b : f32
    vector.print %s : f32
    return
  }
}
