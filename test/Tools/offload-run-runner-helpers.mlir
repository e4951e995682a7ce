// The helpers upstream's SPIR-V CPU runner tests call to fill buffers
// (fillI32Buffer, fillF32Buffer1D/2D/3D) are available to every program, in
// both calling conventions: the memref expanded (a plain call) and the
// C interface (`llvm.emit_c_interface`, as upstream's runner pipeline calls
// them; here fillF32Buffer3D). They fill every element of the view, at its offset and strides.

// RUN: offload-run %s | FileCheck %s

// CHECK: i32: Unranked Memref
// CHECK-NEXT: [7,  7,  7,  7]
// CHECK: 1-D: Unranked Memref
// CHECK-NEXT: [1.5,  1.5,  1.5]
// A strided 2x2 view of a 3x4 buffer: only its elements are set.
// CHECK: 2-D view: Unranked Memref
// CHECK-NEXT: {{\[}}[0,   0,   0,   0],
// CHECK-NEXT: [0,   2.5,   0,   2.5],
// CHECK-NEXT: [0,   2.5,   0,   2.5]]
// CHECK: 3-D (C interface): elements of -1: 24
// CHECK: kernel: Unranked Memref
// CHECK-NEXT: [14,  14,  14,  14]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @double(%in: memref<4xi32>, %out: memref<4xi32>) kernel {
      %i = gpu.thread_id x
      %x = memref.load %in[%i] : memref<4xi32>
      %y = arith.addi %x, %x : i32
      memref.store %y, %out[%i] : memref<4xi32>
      gpu.return
    }
  }

  func.func private @fillI32Buffer(memref<?xi32>, i32)
  func.func private @fillF32Buffer1D(memref<?xf32>, f32)
  func.func private @fillF32Buffer2D(memref<?x?xf32, strided<[?, ?], offset: ?>>, f32)
  func.func private @fillF32Buffer3D(memref<?x?x?xf32>, f32) attributes {llvm.emit_c_interface}
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c24 = arith.constant 24 : index
    %zero = arith.constant 0.0 : f32

    %a = memref.alloc() : memref<4xi32>
    %av = memref.cast %a : memref<4xi32> to memref<?xi32>
    %seven = arith.constant 7 : i32
    call @fillI32Buffer(%av, %seven) : (memref<?xi32>, i32) -> ()
    %au = memref.cast %a : memref<4xi32> to memref<*xi32>
    vector.print str "i32: "
    call @printMemrefI32(%au) : (memref<*xi32>) -> ()

    %b = memref.alloc() : memref<3xf32>
    %bv = memref.cast %b : memref<3xf32> to memref<?xf32>
    %f1 = arith.constant 1.5 : f32
    call @fillF32Buffer1D(%bv, %f1) : (memref<?xf32>, f32) -> ()
    %bu = memref.cast %b : memref<3xf32> to memref<*xf32>
    vector.print str "1-D: "
    call @printMemrefF32(%bu) : (memref<*xf32>) -> ()

    %c = memref.alloc() : memref<3x4xf32>
    linalg.fill ins(%zero : f32) outs(%c : memref<3x4xf32>)
    %view = memref.subview %c[1, 1] [2, 2] [1, 2] : memref<3x4xf32> to memref<2x2xf32, strided<[4, 2], offset: 5>>
    %cv = memref.cast %view : memref<2x2xf32, strided<[4, 2], offset: 5>> to memref<?x?xf32, strided<[?, ?], offset: ?>>
    %f2 = arith.constant 2.5 : f32
    call @fillF32Buffer2D(%cv, %f2) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, f32) -> ()
    %cu = memref.cast %c : memref<3x4xf32> to memref<*xf32>
    vector.print str "2-D view: "
    call @printMemrefF32(%cu) : (memref<*xf32>) -> ()

    %d = memref.alloc() : memref<2x3x4xf32>
    %dv = memref.cast %d : memref<2x3x4xf32> to memref<?x?x?xf32>
    %f3 = arith.constant -1.0 : f32
    call @fillF32Buffer3D(%dv, %f3) : (memref<?x?x?xf32>, f32) -> ()
    %flat = memref.collapse_shape %d [[0, 1, 2]] : memref<2x3x4xf32> into memref<24xf32>
    %count = scf.for %i = %c0 to %c24 step %c1 iter_args(%n = %c0) -> (index) {
      %x = memref.load %flat[%i] : memref<24xf32>
      %is = arith.cmpf oeq, %x, %f3 : f32
      %one = arith.select %is, %c1, %c0 : index
      %m = arith.addi %n, %one : index
      scf.yield %m : index
    }
    vector.print str "3-D (C interface): elements of -1: "
    vector.print %count : index

    %out = memref.alloc() : memref<4xi32>
    gpu.launch_func @kernels::@double blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%a : memref<4xi32>, %out : memref<4xi32>)
    %ou = memref.cast %out : memref<4xi32> to memref<*xi32>
    vector.print str "kernel: "
    call @printMemrefI32(%ou) : (memref<*xi32>) -> ()
    return
  }
}
