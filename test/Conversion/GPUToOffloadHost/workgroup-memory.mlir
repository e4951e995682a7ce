// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-workgroup-memory))' | FileCheck %s

// A workgroup memref.global read in a kernel becomes a workgroup attribution
// of that kernel; the global is gone.
// CHECK-LABEL: gpu.module @direct
// CHECK-NOT: memref.global
// CHECK: gpu.func @k(%{{.*}}: memref<4xf32>) workgroup(%[[TILE:.*]] : memref<16xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-NOT: memref.get_global
// CHECK: memref.store %{{.*}}, %[[TILE]][%{{.*}}] : memref<16xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.func @other() kernel
gpu.module @direct {
  memref.global "private" @tile : memref<16xf32, #gpu.address_space<workgroup>>
  gpu.func @k(%out: memref<4xf32>) kernel {
    %t = memref.get_global @tile : memref<16xf32, #gpu.address_space<workgroup>>
    %i = gpu.thread_id x
    %c = arith.constant 1.0 : f32
    memref.store %c, %t[%i] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @other() kernel {
    gpu.return
  }
}

// -----

// Memory space 3 (NVVM's shared space as an integer): the attribution is in
// the gpu workgroup space, cast back for the uses.
// CHECK-LABEL: gpu.module @space3
// CHECK: gpu.func @k() workgroup(%[[TILE:.*]] : memref<8xi32, #gpu.address_space<workgroup>>) kernel
// CHECK: %[[CAST:.*]] = memref.memory_space_cast %[[TILE]] : memref<8xi32, #gpu.address_space<workgroup>> to memref<8xi32, 3>
// CHECK: memref.load %[[CAST]]
gpu.module @space3 {
  memref.global "private" @tile : memref<8xi32, 3>
  gpu.func @k() kernel {
    %t = memref.get_global @tile : memref<8xi32, 3>
    %c0 = arith.constant 0 : index
    %v = memref.load %t[%c0] : memref<8xi32, 3>
    gpu.return
  }
}

// -----

// An LLVM global in address space 3: a byte attribution of its size, its
// address as the !llvm.ptr<3> the code expects.
// CHECK-LABEL: gpu.module @llvm_global
// CHECK-NOT: llvm.mlir.global
// CHECK: gpu.func @k() workgroup(%[[MEM:.*]] : memref<1024xi8, #gpu.address_space<workgroup>>) kernel
// CHECK: %[[ADDR:.*]] = memref.extract_aligned_pointer_as_index %[[MEM]]
// CHECK: %[[BITS:.*]] = arith.index_cast %[[ADDR]] : index to i64
// CHECK: %[[PTR:.*]] = llvm.inttoptr %[[BITS]] : i64 to !llvm.ptr<3>
// CHECK: llvm.load %[[PTR]] : !llvm.ptr<3> -> f32
gpu.module @llvm_global {
  llvm.mlir.global internal @__shared_alloc_0() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<256 x f32>
  gpu.func @k() kernel {
    %p = llvm.mlir.addressof @__shared_alloc_0 : !llvm.ptr<3>
    %v = llvm.load %p : !llvm.ptr<3> -> f32
    gpu.return
  }
}

// -----

// Device functions get the memory as trailing arguments, through every
// level of calls (and recursion); each kernel passes its own attribution.
// CHECK-LABEL: gpu.module @calls
// CHECK: func.func @leaf(%{{.*}}: index, %[[A:.*]]: memref<4xf32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: func.func @middle(%[[B:.*]]: memref<4xf32, #gpu.address_space<workgroup>>, %[[P:.*]]: !llvm.ptr<3>)
// CHECK: call @leaf(%{{.*}}, %[[B]])
// CHECK: call @middle(%[[B]], %[[P]])
// CHECK: llvm.store %{{.*}}, %[[P]]
// CHECK: func.func @pure(%{{.*}}: index) -> index
// CHECK: gpu.func @k() workgroup(%[[W0:.*]] : memref<4xf32, #gpu.address_space<workgroup>>, %[[W1:.*]] : memref<8xi8, #gpu.address_space<workgroup>>) kernel
// CHECK: %[[PTR:.*]] = llvm.inttoptr
// CHECK: call @middle(%[[W0]], %[[PTR]])
// CHECK: call @pure
gpu.module @calls {
  memref.global "private" @a : memref<4xf32, #gpu.address_space<workgroup>>
  llvm.mlir.global internal @b() {addr_space = 3 : i32} : !llvm.array<2 x i32>
  func.func @leaf(%i: index) {
    %m = memref.get_global @a : memref<4xf32, #gpu.address_space<workgroup>>
    %c = arith.constant 2.0 : f32
    memref.store %c, %m[%i] : memref<4xf32, #gpu.address_space<workgroup>>
    return
  }
  func.func @middle() {
    %c0 = arith.constant 0 : index
    func.call @leaf(%c0) : (index) -> ()
    %false = arith.constant false
    scf.if %false {
      func.call @middle() : () -> ()
    }
    %p = llvm.mlir.addressof @b : !llvm.ptr<3>
    %v = arith.constant 7 : i32
    llvm.store %v, %p : i32, !llvm.ptr<3>
    return
  }
  func.func @pure(%i: index) -> index {
    return %i : index
  }
  gpu.func @k() kernel {
    func.call @middle() : () -> ()
    %c0 = arith.constant 0 : index
    %r = func.call @pure(%c0) : (index) -> index
    gpu.return
  }
}
