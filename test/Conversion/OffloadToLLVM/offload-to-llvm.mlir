// RUN: offload-opt %s -split-input-file -convert-offload-to-llvm | FileCheck %s

// CHECK-DAG: llvm.func @offloadInit() -> !llvm.ptr
// CHECK-DAG: llvm.func @offloadGetDevice(i32, i32, !llvm.ptr) -> !llvm.ptr
// CHECK-DAG: llvm.func @offloadAbortOnError(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.mlir.global internal constant @[[INITCTX:__offload_context.offloadInit]]("offloadInit\00")
// CHECK-DAG: llvm.mlir.global internal constant @[[CTX:__offload_context.offload.get_device]]("offload.get_device\00")

// CHECK-LABEL: func.func @get_device() -> !llvm.ptr
func.func @get_device() -> !offload.device {
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
  // CHECK: %[[INIT:.*]] = llvm.call @offloadInit()
  // CHECK: %[[CTX0:.*]] = llvm.mlir.addressof @[[INITCTX]]
  // CHECK: llvm.call @offloadAbortOnError(%[[INIT]], %[[CTX0]])
  // CHECK-DAG: %[[BACKEND:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK-DAG: %[[INDEX:.*]] = llvm.mlir.constant(2 : i32) : i32
  // CHECK: %[[RES:.*]] = llvm.call @offloadGetDevice(%[[BACKEND]], %[[INDEX]], %[[SLOT]])
  // CHECK: %[[CTX1:.*]] = llvm.mlir.addressof @[[CTX]]
  // CHECK: llvm.call @offloadAbortOnError(%[[RES]], %[[CTX1]])
  // CHECK: %[[DEV:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
  // CHECK: return %[[DEV]] : !llvm.ptr
  %dev = offload.get_device cuda 2
  return %dev : !offload.device
}

// CHECK-LABEL: func.func @backends
func.func @backends() {
  // CHECK: llvm.mlir.constant(3 : i32)
  // CHECK: llvm.call @offloadGetDevice
  %host = offload.get_device host 0
  // CHECK: llvm.mlir.constant(2 : i32)
  // CHECK: llvm.call @offloadGetDevice
  %hip = offload.get_device hip 0
  // CHECK: llvm.mlir.constant(0 : i32)
  // CHECK: llvm.call @offloadGetDevice
  %any = offload.get_device any 0
  return
}

// -----

// CHECK-LABEL: func.func @alloc_free
// CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr, %[[N:.*]]: index)
func.func @alloc_free(%dev: !offload.device, %n: index) {
  // CHECK: %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
  // CHECK: %[[NI:.*]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
  // CHECK: %[[C4:.*]] = llvm.mlir.constant(4 : index) : i64
  // CHECK: %[[COUNT:.*]] = llvm.mul %[[C4]], %[[NI]]
  // CHECK: %[[GEP:.*]] = llvm.getelementptr %{{.*}}[%[[COUNT]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK: %[[BYTES:.*]] = llvm.ptrtoint %[[GEP]]
  // The byte count is recomputed with overflow checks: elements times 4.
  // CHECK: %[[ESIZE:.*]] = llvm.mlir.constant(4 : i64) : i64
  // CHECK: %[[P0:.*]] = "llvm.intr.umul.with.overflow"(%[[ESIZE]], %[[NI]])
  // CHECK: "llvm.intr.umul.with.overflow"(%{{.*}}, %[[C4]])
  // CHECK: %[[OVERFLOW:.*]] = llvm.zext %{{.*}} : i1 to i64
  // CHECK: %[[CHECK:.*]] = llvm.call @offloadCheckAllocationSize(%[[OVERFLOW]], %[[ESIZE]])
  // CHECK: llvm.call @offloadAbortOnError(%[[CHECK]], %{{.*}})
  // Empty allocations allocate one byte.
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK: %[[EMPTY:.*]] = llvm.icmp "eq" %[[BYTES]], %[[ZERO]]
  // CHECK: %[[SIZE:.*]] = llvm.select %[[EMPTY]], %[[ONE]], %[[BYTES]]
  // CHECK: %[[KIND:.*]] = llvm.mlir.constant(2 : i32) : i32
  // The op's source location (an offload_code_location_t filled before the
  // call), which the checking tools name as the allocation's origin.
  // CHECK: %[[FN:.*]] = llvm.mlir.addressof @__offload_code_location_function :
  // CHECK: %[[FILE:.*]] = llvm.mlir.addressof @__offload_code_location_file :
  // CHECK: %[[LINE:.*]] = llvm.mlir.constant({{[0-9]+}} : i32) : i32
  // CHECK: %[[F0:.*]] = llvm.getelementptr %[[LOC:.*]][0, 0]
  // CHECK: llvm.store %[[FN]], %[[F0]]
  // CHECK: %[[F1:.*]] = llvm.getelementptr %[[LOC]][0, 1]
  // CHECK: llvm.store %[[FILE]], %[[F1]]
  // CHECK: %[[F2:.*]] = llvm.getelementptr %[[LOC]][0, 2]
  // CHECK: llvm.store %[[LINE]], %[[F2]]
  // CHECK: %[[RES:.*]] = llvm.call @offloadMemAllocWithCodeLoc(%[[DEV]], %[[KIND]], %[[SIZE]], %[[SLOT]], %[[LOC]])
  // CHECK: llvm.call @offloadAbortOnError(%[[RES]], %{{.*}})
  // CHECK: %[[PTR:.*]] = llvm.load %[[SLOT]]
  // CHECK: %[[D0:.*]] = llvm.insertvalue %[[PTR]], %{{.*}}[0]
  // CHECK: %[[D1:.*]] = llvm.insertvalue %[[PTR]], %[[D0]][1]
  // CHECK: %[[D2:.*]] = llvm.insertvalue %{{.*}}, %[[D1]][2]
  // CHECK: %[[D3:.*]] = llvm.insertvalue %[[NI]], %[[D2]][3, 0]
  // CHECK: %[[D4:.*]] = llvm.insertvalue %[[C4]], %[[D3]][3, 1]
  // CHECK: %[[D5:.*]] = llvm.insertvalue %[[C4]], %[[D4]][4, 0]
  // CHECK: %[[DESC:.*]] = llvm.insertvalue %{{.*}}, %[[D5]][4, 1]
  %m = offload.alloc managed on %dev (%n) : memref<?x4xf32>
  // CHECK: %[[ALLOCATED:.*]] = llvm.extractvalue %[[DESC]][0]
  // CHECK: %[[FREE:.*]] = llvm.call @offloadMemFree(%[[ALLOCATED]]) : (!llvm.ptr) -> !llvm.ptr
  // CHECK: llvm.call @offloadAbortOnError(%[[FREE]], %{{.*}})
  offload.free %m : memref<?x4xf32>
  return
}

// CHECK-LABEL: func.func @alloc_kinds
func.func @alloc_kinds(%dev: !offload.device) {
  // Statically non-empty: no select.
  // CHECK-NOT: llvm.select
  // CHECK: %[[DEVICE:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK: llvm.call @offloadMemAllocWithCodeLoc(%{{.*}}, %[[DEVICE]], %{{.*}}, %{{.*}}, %{{.*}})
  %d = offload.alloc device on %dev : memref<16xi32>
  // CHECK: %[[HOST:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: llvm.call @offloadMemAllocWithCodeLoc(%{{.*}}, %[[HOST]], %{{.*}}, %{{.*}}, %{{.*}})
  %h = offload.alloc host on %dev : memref<16xi32>
  return
}

// -----

// CHECK-LABEL: func.func @memcpy
// CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[DST:.*]]: memref<?xf32>, %[[SRC:.*]]: memref<?xf32, strided<[1], offset: ?>>)
func.func @memcpy(%dev: !offload.device, %q: !offload.queue,
                  %dst: memref<?xf32>,
                  %src: memref<?xf32, strided<[1], offset: ?>>) {
  // CHECK-DAG: %[[SRCD:.*]] = builtin.unrealized_conversion_cast %[[SRC]]
  // CHECK-DAG: %[[DSTD:.*]] = builtin.unrealized_conversion_cast %[[DST]]
  // The size comes from the source; empty copies are skipped.
  // CHECK: %[[COUNT:.*]] = llvm.extractvalue %[[SRCD]][3, 0]
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
  // CHECK: %[[NONEMPTY:.*]] = llvm.icmp "ne" %[[COUNT]], %[[ZERO]]
  // CHECK: scf.if %[[NONEMPTY]] {
  // CHECK:   %[[ESIZE:.*]] = llvm.ptrtoint
  // CHECK:   %[[BYTES:.*]] = llvm.mul %[[COUNT]], %[[ESIZE]]
  // Pointers are aligned + offset.
  // CHECK:   %[[SALIGNED:.*]] = llvm.extractvalue %[[SRCD]][1]
  // CHECK:   %[[SOFFSET:.*]] = llvm.extractvalue %[[SRCD]][2]
  // CHECK:   %[[SPTR:.*]] = llvm.getelementptr %[[SALIGNED]][%[[SOFFSET]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK:   %[[DPTR:.*]] = llvm.extractvalue %[[DSTD]][1]
  // CHECK:   %[[RES:.*]] = llvm.call @offloadMemcpy(%[[Q]], %[[DPTR]], %[[DEV]], %[[SPTR]], %[[DEV]], %[[BYTES]])
  // CHECK:   llvm.call @offloadAbortOnError(%[[RES]], %{{.*}})
  // CHECK: }
  offload.memcpy %dst, %src on %dev queue %q
      : memref<?xf32>, memref<?xf32, strided<[1], offset: ?>>
  return
}

// CHECK-LABEL: func.func @memcpy_static
func.func @memcpy_static(%dev: !offload.device, %a: memref<4x4xi32>, %b: memref<4x4xi32>) {
  // CHECK-NOT: scf.if
  // CHECK: %[[COUNT:.*]] = llvm.mlir.constant(16 : i64) : i64
  // CHECK: %[[BYTES:.*]] = llvm.mul %[[COUNT]], %{{.*}}
  // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: llvm.call @offloadMemcpy(%[[NULL]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BYTES]])
  offload.memcpy %a, %b on %dev : memref<4x4xi32>, memref<4x4xi32>
  // Statically empty copies are dropped.
  // CHECK-NOT: llvm.call @offloadMemcpy
  // CHECK: return
  %e = memref.alloc() : memref<0xi32>
  offload.memcpy %e, %e on %dev : memref<0xi32>, memref<0xi32>
  return
}

// CHECK-LABEL: func.func @memfill
// CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr, %[[DST:.*]]: memref<8xf32>, %[[V:.*]]: f32)
func.func @memfill(%dev: !offload.device, %dst: memref<8xf32>, %v: f32) {
  // CHECK: %[[PATTERN:.*]] = llvm.alloca %{{.*}} x f32
  // CHECK: %[[DSTD:.*]] = builtin.unrealized_conversion_cast %[[DST]]
  // CHECK: %[[COUNT:.*]] = llvm.mlir.constant(8 : i64) : i64
  // CHECK: llvm.store %[[V]], %[[PATTERN]] : f32, !llvm.ptr
  // CHECK: %[[GEP:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, f32
  // CHECK: %[[ESIZE:.*]] = llvm.ptrtoint %[[GEP]]
  // CHECK: %[[BYTES:.*]] = llvm.mul %[[COUNT]], %[[ESIZE]]
  // CHECK: %[[PTR:.*]] = llvm.extractvalue %[[DSTD]][1]
  // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK: llvm.call @offloadMemFill(%[[NULL]], %[[PTR]], %[[ESIZE]], %[[PATTERN]], %[[BYTES]])
  offload.memfill %dst, %v on %dev : memref<8xf32>, f32
  return
}

// -----

// CHECK-LABEL: func.func @host_register
// CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr, %[[U:.*]]: memref<*xf32>, %[[R:.*]]: memref<2x3xi64>)
func.func @host_register(%dev: !offload.device, %u: memref<*xf32>, %r: memref<2x3xi64>) {
  // A ranked descriptor is promoted to an alloca.
  // CHECK: %[[DESCSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK: %[[RD:.*]] = builtin.unrealized_conversion_cast %[[R]]
  // CHECK: %[[UD:.*]] = builtin.unrealized_conversion_cast %[[U]] : memref<*xf32> to !llvm.struct<(i64, ptr)>
  // CHECK: %[[RANK:.*]] = llvm.extractvalue %[[UD]][0]
  // CHECK: %[[DESC:.*]] = llvm.extractvalue %[[UD]][1]
  // CHECK: %[[GEP:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, f32
  // CHECK: %[[ESIZE:.*]] = llvm.ptrtoint %[[GEP]]
  // CHECK: %[[RES:.*]] = llvm.call @offloadMemRegisterMemRef(%[[DEV]], %[[RANK]], %[[DESC]], %[[ESIZE]]) : (!llvm.ptr, i64, !llvm.ptr, i64) -> !llvm.ptr
  // CHECK: llvm.call @offloadAbortOnError(%[[RES]], %{{.*}})
  offload.host_register %u on %dev : memref<*xf32>
  // CHECK: llvm.call @offloadMemUnregisterMemRef(%[[DEV]], %{{.*}}, %{{.*}}, %{{.*}})
  offload.host_unregister %u on %dev : memref<*xf32>
  // CHECK: llvm.store %[[RD]], %[[DESCSLOT]]
  // CHECK: %[[RRANK:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @offloadMemRegisterMemRef(%[[DEV]], %[[RRANK]], %[[DESCSLOT]], %{{.*}})
  offload.host_register %r on %dev : memref<2x3xi64>
  return
}

// -----

// CHECK-LABEL: func.func @queues_and_events
// CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr)
func.func @queues_and_events(%dev: !offload.device) {
  // CHECK: %[[EVENTS:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x ptr>
  // CHECK: llvm.call @offloadCreateQueue(%[[DEV]], %[[QSLOT:.*]]) :
  // CHECK: %[[Q:.*]] = llvm.load %[[QSLOT]]
  %q = offload.queue_create %dev
  // CHECK: llvm.call @offloadCreateEvent(%[[Q]], %[[ESLOT:.*]]) :
  // CHECK: %[[E:.*]] = llvm.load %[[ESLOT]]
  %e = offload.event_record %q
  // CHECK: %[[E0:.*]] = llvm.getelementptr %[[EVENTS]][0, 0]
  // CHECK: llvm.store %[[E]], %[[E0]]
  // CHECK: %[[E1:.*]] = llvm.getelementptr %[[EVENTS]][0, 1]
  // CHECK: llvm.store %[[E]], %[[E1]]
  // CHECK: %[[TWO:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK: llvm.call @offloadWaitEvents(%[[Q]], %[[EVENTS]], %[[TWO]]) : (!llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr
  offload.queue_wait %q [%e, %e]
  // CHECK: llvm.call @offloadSyncEvent(%[[E]])
  offload.event_sync %e
  // CHECK: llvm.call @offloadDestroyEvent(%[[E]])
  offload.event_destroy %e
  // CHECK: llvm.call @offloadSyncQueue(%[[Q]])
  offload.queue_sync %q
  // CHECK: llvm.call @offloadDestroyQueue(%[[Q]])
  offload.queue_destroy %q
  return
}

// Out-parameters are allocated once at the start of the function, not in
// loops; async.execute bodies get their own.
// CHECK-LABEL: func.func @allocas
func.func @allocas(%dev: !offload.device, %n: index) {
  // CHECK-NEXT: llvm.mlir.constant(1 : i64)
  // CHECK-NEXT: %[[SLOT:.*]] = llvm.alloca
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for
  // CHECK-NOT: llvm.alloca
  // CHECK: llvm.call @offloadCreateQueue(%{{.*}}, %[[SLOT]])
  scf.for %i = %c0 to %n step %c1 {
    %q = offload.queue_create %dev
    offload.queue_destroy %q
  }
  // CHECK: async.execute
  // CHECK-NEXT: llvm.mlir.constant(1 : i64)
  // CHECK-NEXT: %[[INNER:.*]] = llvm.alloca
  // CHECK: llvm.call @offloadCreateQueue(%{{.*}}, %[[INNER]])
  %t = async.execute {
    %q = offload.queue_create %dev
    offload.queue_destroy %q
    async.yield
  }
  return
}

// Values of offload types flowing through scf and cf become pointers.
// CHECK-LABEL: func.func @structural
// CHECK-SAME: (%[[Q:.*]]: !llvm.ptr, %[[N:.*]]: index, %[[B:.*]]: i1) -> !llvm.ptr
func.func @structural(%q: !offload.queue, %n: index, %b: i1) -> !offload.queue {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[Q]]) -> (!llvm.ptr)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%it = %q) -> !offload.queue {
    offload.queue_sync %it
    scf.yield %it : !offload.queue
  }
  // CHECK: cf.cond_br %[[B]], ^{{.*}}(%{{.*}} : !llvm.ptr)
  cf.cond_br %b, ^bb1(%r : !offload.queue), ^bb1(%q : !offload.queue)
^bb1(%x: !offload.queue):
  // CHECK: return %{{.*}} : !llvm.ptr
  return %x : !offload.queue
}

// -----

module attributes {gpu.container_module} {
  // The image global replaces the gpu.binary.
  // CHECK-NOT: gpu.binary
  // CHECK-DAG: llvm.mlir.global internal constant @[[IMAGE:__offload_image.kernels]]("BLOB") {addr_space = 0 : i32, alignment = 64 : i64}
  // CHECK-DAG: llvm.mlir.global internal constant @[[NAME:__offload_kernel_name.kernels.saxpy]]("saxpy\00")
  // CHECK-DAG: llvm.mlir.global internal constant @[[CTX:.*]]("offload.launch @kernels::@saxpy\00")
  // CHECK-DAG: llvm.func @offloadGetKernelFromImage(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
  // CHECK-DAG: llvm.func @offloadLaunchKernel(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> !llvm.ptr
  gpu.binary @kernels [#gpu.object<#nvvm.target, "BLOB">]

  // CHECK-LABEL: func.func @launch
  // CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr, %[[BUF:.*]]: memref<?xf32>, %[[A:.*]]: f32, %[[N:.*]]: index)
  func.func @launch(%dev: !offload.device, %buf: memref<?xf32>, %a: f32, %n: index) {
    // CHECK-DAG: %[[SIZESLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, struct<(i32, i32, i32)>, struct<(i32, i32, i32)>, i64)>
    // CHECK-DAG: %[[ARGSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64, i64, i64, f32)>
    // CHECK-DAG: %[[KSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
    // CHECK-DAG: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[BUF]]
    // CHECK-DAG: %[[NI:.*]] = builtin.unrealized_conversion_cast %[[N]] : index to i64
    %c1 = arith.constant 1 : index
    // CHECK: %[[ALLOCATED:.*]] = llvm.extractvalue %[[DESC]][0]
    // CHECK: %[[ALIGNED:.*]] = llvm.extractvalue %[[DESC]][1]
    // CHECK: %[[OFFSET:.*]] = llvm.extractvalue %[[DESC]][2]
    // CHECK: %[[SIZE:.*]] = llvm.extractvalue %[[DESC]][3, 0]
    // CHECK: %[[STRIDE:.*]] = llvm.extractvalue %[[DESC]][4, 0]
    // CHECK: %[[IMG:.*]] = llvm.mlir.addressof @[[IMAGE]] : !llvm.ptr
    // CHECK: %[[IMGSIZE:.*]] = llvm.mlir.constant(4 : i64) : i64
    // CHECK: %[[KNAME:.*]] = llvm.mlir.addressof @[[NAME]] : !llvm.ptr
    // CHECK: %[[R0:.*]] = llvm.call @offloadGetKernelFromImage(%[[DEV]], %[[IMG]], %[[IMGSIZE]], %[[KNAME]], %[[KSLOT]])
    // CHECK: %[[CTX0:.*]] = llvm.mlir.addressof @[[CTX]]
    // CHECK: llvm.call @offloadAbortOnError(%[[R0]], %[[CTX0]])
    // CHECK: %[[KERNEL:.*]] = llvm.load %[[KSLOT]]
    // The arguments: one flat, naturally aligned struct.
    // CHECK: %[[P0:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, i64, i64, f32)>
    // CHECK: %[[P1:.*]] = llvm.insertvalue %[[ALLOCATED]], %[[P0]][0]
    // CHECK: %[[P2:.*]] = llvm.insertvalue %[[ALIGNED]], %[[P1]][1]
    // CHECK: %[[P3:.*]] = llvm.insertvalue %[[OFFSET]], %[[P2]][2]
    // CHECK: %[[P4:.*]] = llvm.insertvalue %[[SIZE]], %[[P3]][3]
    // CHECK: %[[P5:.*]] = llvm.insertvalue %[[STRIDE]], %[[P4]][4]
    // CHECK: %[[P6:.*]] = llvm.insertvalue %[[A]], %[[P5]][5]
    // CHECK: llvm.store %[[P6]], %[[ARGSLOT]]
    // CHECK: %[[AGEP:.*]] = llvm.getelementptr %{{.*}}[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, ptr, i64, i64, i64, f32)>
    // CHECK: %[[ARGSIZE:.*]] = llvm.ptrtoint %[[AGEP]] : !llvm.ptr to i64
    // The geometry: {3, grid, block, dynamic shared memory}.
    // CHECK: %[[THREE:.*]] = llvm.mlir.constant(3 : i64) : i64
    // CHECK: llvm.insertvalue %[[THREE]], %{{.*}}[0]
    // The grid size is not a constant: checked before it is narrowed.
    // CHECK: %[[SIZECHECK:.*]] = llvm.call @offloadCheckLaunchSizes(%[[NI]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (i64, i64, i64, i64, i64, i64) -> !llvm.ptr
    // CHECK: llvm.call @offloadAbortOnError(%[[SIZECHECK]], %{{.*}})
    // CHECK: %[[GX:.*]] = llvm.trunc %[[NI]] : i64 to i32
    // CHECK: llvm.insertvalue %[[GX]], %{{.*}}[1, 0]
    // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[2, 0]
    // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1, 1]
    // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[2, 1]
    // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[1, 2]
    // CHECK: llvm.insertvalue %{{.*}}, %{{.*}}[2, 2]
    // CHECK: %[[NOSHARED:.*]] = llvm.mlir.constant(0 : i64) : i64
    // CHECK: %[[GEOMETRY:.*]] = llvm.insertvalue %[[NOSHARED]], %{{.*}}[3]
    // CHECK: llvm.store %[[GEOMETRY]], %[[SIZESLOT]]
    // CHECK: %[[NOQUEUE:.*]] = llvm.mlir.zero : !llvm.ptr
    // CHECK: %[[R1:.*]] = llvm.call @offloadLaunchKernel(%[[NOQUEUE]], %[[DEV]], %[[KERNEL]], %[[ARGSLOT]], %[[ARGSIZE]], %[[SIZESLOT]])
    // CHECK: llvm.call @offloadAbortOnError(%[[R1]], %{{.*}})
    offload.launch @kernels::@saxpy on %dev blocks in (%n, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%buf : memref<?xf32>, %a : f32)
    return
  }

  // CHECK-LABEL: func.func @launch_async
  // CHECK-SAME: (%[[DEV:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[SMEM:.*]]: i32) -> !llvm.ptr
  func.func @launch_async(%dev: !offload.device, %q: !offload.queue, %smem: i32) -> !offload.event {
    // CHECK: %[[EVSLOT:.*]] = llvm.alloca %{{.*}} x !llvm.ptr
    %c1 = arith.constant 1 : index
    // Without arguments: a null buffer of size zero.
    // CHECK: %[[NOARGS:.*]] = llvm.mlir.zero : !llvm.ptr
    // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i64) : i64
    // Constant sizes were checked at compile time.
    // CHECK-NOT: offloadCheckLaunchSizes
    // CHECK: %[[SHARED:.*]] = llvm.zext %[[SMEM]] : i32 to i64
    // CHECK: llvm.insertvalue %[[SHARED]], %{{.*}}[3]
    // CHECK: llvm.call @offloadLaunchKernel(%[[Q]], %[[DEV]], %{{.*}}, %[[NOARGS]], %[[ZERO]], %{{.*}})
    // CHECK: llvm.call @offloadCreateEvent(%[[Q]], %[[EVSLOT]])
    // CHECK: %[[EV:.*]] = llvm.load %[[EVSLOT]]
    // CHECK: return %[[EV]] : !llvm.ptr
    %e = offload.launch @kernels::@saxpy on %dev queue %q
        blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        dynamic_shared_memory_size %smem -> !offload.event
    return %e : !offload.event
  }
}

// -----

// The offloading handler selects the embedded object, by index or target.
module attributes {gpu.container_module} {
  // CHECK-DAG: llvm.mlir.global internal constant @__offload_image.by_index("second")
  gpu.binary @by_index <#gpu.select_object<1>> [
    #gpu.object<#nvvm.target, "first">, #gpu.object<#rocdl.target, "second">]
  // CHECK-DAG: llvm.mlir.global internal constant @__offload_image.by_target("rocdl")
  gpu.binary @by_target <#gpu.select_object<#rocdl.target>> [
    #gpu.object<#nvvm.target, "nvvm">, #gpu.object<#rocdl.target, "rocdl">]
  // CHECK-DAG: llvm.mlir.global internal constant @__offload_image.unused("first")
  gpu.binary @unused [#gpu.object<#nvvm.target, "first">]
}
