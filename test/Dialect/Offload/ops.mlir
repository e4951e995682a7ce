// RUN: offload-opt %s | offload-opt | FileCheck %s --strict-whitespace
// RUN: offload-opt %s --mlir-print-op-generic | offload-opt | FileCheck %s --strict-whitespace
// RUN: offload-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// Round trip of every offload op, type and attribute, in the custom form and
// through the generic form. --strict-whitespace keeps the printed forms free of
// doubled spaces.

// CHECK-LABEL: func.func @types(
// CHECK-SAME: %{{.*}}: !offload.device, %{{.*}}: !offload.queue, %{{.*}}: !offload.event)
func.func @types(%dev: !offload.device, %q: !offload.queue,
                 %e: !offload.event) {
  return
}

// CHECK-LABEL: func.func @get_device(
// GENERIC-LABEL: sym_name = "get_device"
func.func @get_device() -> (!offload.device, !offload.device,
                            !offload.device, !offload.device) {
  // CHECK: %{{.*}} = offload.get_device host 0
  // GENERIC: "offload.get_device"() <{index = 0 : i32, platform = #offload<platform host>}> : () -> !offload.device
  %host = offload.get_device host 0
  // CHECK: %{{.*}} = offload.get_device cuda 1
  // GENERIC: "offload.get_device"() <{index = 1 : i32, platform = #offload<platform cuda>}> : () -> !offload.device
  %cuda = offload.get_device cuda 1
  // CHECK: %{{.*}} = offload.get_device hip 2
  %hip = offload.get_device hip 2
  // CHECK: %{{.*}} = offload.get_device any 3 {note = "kept"}
  %any = offload.get_device any 3 {note = "kept"}
  return %host, %cuda, %hip, %any
      : !offload.device, !offload.device, !offload.device, !offload.device
}

// CHECK-LABEL: func.func @memory(
// CHECK-SAME: %[[DEV:[a-z0-9]+]]: !offload.device,
// CHECK-SAME: %[[N:[a-z0-9]+]]: index,
// CHECK-SAME: %[[M:[a-z0-9]+]]: index,
// CHECK-SAME: %[[F:[a-z0-9]+]]: f32,
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<*xf32>,
// CHECK-SAME: %[[Q:[a-z0-9]+]]: !offload.queue)
// GENERIC-LABEL: sym_name = "memory"
func.func @memory(%dev: !offload.device, %n: index, %m: index, %f: f32,
                  %u: memref<*xf32>, %q: !offload.queue) {
  // CHECK: %[[BUF:.*]] = offload.alloc device on %[[DEV]] (%[[N]]) : memref<?xf32>
  // GENERIC: "offload.alloc"(%{{.*}}, %{{.*}}) <{kind = #offload<alloc_kind device>}> : (!offload.device, index) -> memref<?xf32>
  %buf = offload.alloc device on %dev (%n) : memref<?xf32>
  // CHECK: %[[PINNED:.*]] = offload.alloc host on %[[DEV]] (%[[N]], %[[M]]) : memref<?x4x?xi32>
  %pinned = offload.alloc host on %dev (%n, %m) : memref<?x4x?xi32>
  // CHECK: %[[SHARED:.*]] = offload.alloc managed on %[[DEV]] : memref<16x16xf32>
  // GENERIC: "offload.alloc"(%{{.*}}) <{kind = #offload<alloc_kind managed>}> : (!offload.device) -> memref<16x16xf32>
  %shared = offload.alloc managed on %dev : memref<16x16xf32>
  // CHECK: offload.memcpy %[[BUF]], %[[BUF]] on %[[DEV]] : memref<?xf32>, memref<?xf32>
  offload.memcpy %buf, %buf on %dev : memref<?xf32>, memref<?xf32>
  // CHECK: offload.memcpy %[[U]], %[[SHARED]] on %[[DEV]] queue %[[Q]] : memref<*xf32>, memref<16x16xf32>
  offload.memcpy %u, %shared on %dev queue %q : memref<*xf32>, memref<16x16xf32>
  // CHECK: offload.memfill %[[BUF]], %[[F]] on %[[DEV]] : memref<?xf32>, f32
  offload.memfill %buf, %f on %dev : memref<?xf32>, f32
  // CHECK: offload.memfill %[[U]], %[[F]] on %[[DEV]] queue %[[Q]] : memref<*xf32>, f32
  offload.memfill %u, %f on %dev queue %q : memref<*xf32>, f32
  // CHECK: offload.host_register %[[U]] on %[[DEV]] : memref<*xf32>
  offload.host_register %u on %dev : memref<*xf32>
  // CHECK: offload.host_register %[[SHARED]] on %[[DEV]] : memref<16x16xf32>
  offload.host_register %shared on %dev : memref<16x16xf32>
  // CHECK: offload.host_unregister %[[SHARED]] on %[[DEV]] : memref<16x16xf32>
  offload.host_unregister %shared on %dev : memref<16x16xf32>
  // CHECK: offload.host_unregister %[[U]] on %[[DEV]] : memref<*xf32>
  offload.host_unregister %u on %dev : memref<*xf32>
  // CHECK: offload.free %[[SHARED]] : memref<16x16xf32>
  offload.free %shared : memref<16x16xf32>
  // CHECK: offload.free %[[PINNED]] : memref<?x4x?xi32>
  offload.free %pinned : memref<?x4x?xi32>
  // CHECK: offload.free %[[BUF]] : memref<?xf32>
  offload.free %buf : memref<?xf32>
  return
}

// CHECK-LABEL: func.func @queues_and_events(
// CHECK-SAME: %[[DEV:[a-z0-9]+]]: !offload.device)
func.func @queues_and_events(%dev: !offload.device) {
  // CHECK: %[[Q:.*]] = offload.queue_create %[[DEV]]
  %q = offload.queue_create %dev
  // CHECK: %[[E0:.*]] = offload.event_record %[[Q]]
  %e0 = offload.event_record %q
  // CHECK: %[[E1:.*]] = offload.event_record %[[Q]]
  %e1 = offload.event_record %q
  // CHECK: offload.queue_wait %[[Q]] [%[[E0]]]
  offload.queue_wait %q [%e0]
  // CHECK: offload.queue_wait %[[Q]] [%[[E0]], %[[E1]]]
  offload.queue_wait %q [%e0, %e1]
  // CHECK: offload.event_sync %[[E1]]
  offload.event_sync %e1
  // CHECK: offload.event_destroy %[[E0]]
  offload.event_destroy %e0
  // CHECK: offload.event_destroy %[[E1]]
  offload.event_destroy %e1
  // CHECK: offload.queue_sync %[[Q]]
  offload.queue_sync %q
  // CHECK: offload.queue_destroy %[[Q]]
  offload.queue_destroy %q
  return
}

// The target attribute: default parameters are elided when printed.
// CHECK-LABEL: gpu.module @kernels [#offload.host, #offload.host<O = 0, triple = "x86_64-unknown-linux-gnu", chip = "znver3", features = "+avx2">, #offload.host<O = 2, chip = "x86-64-v3">]
gpu.module @kernels [#offload.host,
    #offload.host<O = 0, triple = "x86_64-unknown-linux-gnu", chip = "znver3",
                  features = "+avx2">,
    #offload.host<O = 2, chip = "x86-64-v3">] {
  // CHECK-LABEL: gpu.func @saxpy(
  // CHECK-SAME: %{{.*}}: f32, %{{.*}}: memref<?xf32>, %{{.*}}: memref<?xf32>) kernel
  gpu.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) kernel {
    gpu.return
  }
  // CHECK-LABEL: gpu.func @stencil(
  // CHECK-SAME: %[[IN:[a-z0-9]+]]: memref<?xf32>, %[[R:[a-z0-9]+]]: i32, %[[W:[a-z0-9]+]]: memref<8xf32>) kernel
  gpu.func @stencil(%in: memref<?xf32>, %radius: i32, %w: memref<8xf32>)
      kernel {
    // CHECK: %{{.*}} = offload.runtime_constant %[[R]] : i32
    %r = offload.runtime_constant %radius : i32
    // CHECK: %{{.*}} = offload.runtime_constant %[[W]] contents : memref<8xf32>
    %coeffs = offload.runtime_constant %w contents : memref<8xf32>
    gpu.return
  }
  // CHECK-LABEL: gpu.func @empty() kernel
  gpu.func @empty() kernel {
    gpu.return
  }
  // Device functions nested in the gpu.module may hold runtime constants too.
  // CHECK-LABEL: func.func @device_helper(
  // CHECK-SAME: %[[V:[a-z0-9]+]]: index)
  func.func @device_helper(%v: index) -> index {
    // CHECK: %[[C:.*]] = offload.runtime_constant %[[V]] : index
    %c = offload.runtime_constant %v : index
    // CHECK: return %[[C]] : index
    return %c : index
  }
}

// CHECK-LABEL: gpu.module @defaults [#offload.host]
gpu.module @defaults [#offload.host<O = 3, triple = "", chip = "">] {
}

// CHECK-LABEL: gpu.module @empty_params [#offload.host]
gpu.module @empty_params [#offload.host<>] {
}

// A gpu.binary is opaque: its kernels are not checked at compile time.
// CHECK-LABEL: gpu.binary @bin
// CHECK-SAME: [#gpu.object<#offload.host<O = 1>, "BLOB">]
gpu.binary @bin [#gpu.object<#offload.host<O = 1>, "BLOB">]

// Once a target lowered a module's kernels (to llvm.func, or to the host
// kernel ABI's `__offload_kernel.` descriptors), only their existence is
// checked.
// CHECK-LABEL: gpu.module @lowered_llvm
gpu.module @lowered_llvm {
  llvm.func @k(%arg0: i64) {
    llvm.return
  }
}
// CHECK-LABEL: gpu.module @lowered_host
gpu.module @lowered_host {
  llvm.mlir.global external constant @__offload_kernel.k(0 : i32) : i32
}

// CHECK-LABEL: func.func @launch_lowered(
// CHECK-SAME: %[[DEV:[a-z0-9]+]]: !offload.device, %[[C1:[a-z0-9]+]]: index, %[[B:[a-z0-9]+]]: i32)
func.func @launch_lowered(%dev: !offload.device, %c1: index, %b: i32) {
  // CHECK: offload.launch @lowered_llvm::@k on %[[DEV]] blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[B]] : i32)
  offload.launch @lowered_llvm::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : i32)
  // CHECK: offload.launch @lowered_host::@k on %[[DEV]] blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[B]] : i32)
  offload.launch @lowered_host::@k on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : i32)
  return
}

// CHECK-LABEL: func.func @launch(
// CHECK-SAME: %[[DEV:[a-z0-9]+]]: !offload.device,
// CHECK-SAME: %[[Q:[a-z0-9]+]]: !offload.queue,
// CHECK-SAME: %[[A:[a-z0-9]+]]: f32,
// CHECK-SAME: %[[X:[a-z0-9]+]]: memref<?xf32>,
// CHECK-SAME: %[[GX:[a-z0-9]+]]: index,
// CHECK-SAME: %[[BYTES:[a-z0-9]+]]: i32)
func.func @launch(%dev: !offload.device, %q: !offload.queue, %a: f32,
                  %x: memref<?xf32>, %gx: index, %bytes: i32)
    -> (!offload.event, !offload.event) {
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  %c1 = arith.constant 1 : index
  // CHECK: %[[C256:.*]] = arith.constant 256 : index
  %c256 = arith.constant 256 : index
  // CHECK: offload.launch @kernels::@saxpy on %[[DEV]] blocks in (%[[GX]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) args(%[[A]] : f32, %[[X]] : memref<?xf32>, %[[X]] : memref<?xf32>){{$}}
  offload.launch @kernels::@saxpy on %dev
      blocks in (%gx, %c1, %c1) threads in (%c256, %c1, %c1)
      args(%a : f32, %x : memref<?xf32>, %x : memref<?xf32>)
  // CHECK: %{{.*}} = offload.launch @kernels::@saxpy on %[[DEV]] queue %[[Q]] blocks in (%[[GX]], %[[C1]], %[[C1]]) threads in (%[[C256]], %[[C1]], %[[C1]]) dynamic_shared_memory_size %[[BYTES]] args(%[[A]] : f32, %[[X]] : memref<?xf32>, %[[X]] : memref<?xf32>) -> !offload.event
  %done = offload.launch @kernels::@saxpy on %dev queue %q
      blocks in (%gx, %c1, %c1) threads in (%c256, %c1, %c1)
      dynamic_shared_memory_size %bytes
      args(%a : f32, %x : memref<?xf32>, %x : memref<?xf32>) -> !offload.event
  // CHECK: offload.launch @kernels::@empty on %[[DEV]] queue %[[Q]] blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]){{$}}
  offload.launch @kernels::@empty on %dev queue %q
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
  // CHECK: %{{.*}} = offload.launch @kernels::@empty on %[[DEV]] queue %[[Q]] blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) -> !offload.event
  %empty = offload.launch @kernels::@empty on %dev queue %q
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) -> !offload.event
  // CHECK: offload.launch @kernels::@empty on %[[DEV]] blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) {note = "kept"}
  offload.launch @kernels::@empty on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) {note = "kept"}
  // CHECK: offload.launch @bin::@anything on %[[DEV]] blocks in (%[[C1]], %[[C1]], %[[C1]]) threads in (%[[C1]], %[[C1]], %[[C1]]) args(%[[BYTES]] : i32)
  offload.launch @bin::@anything on %dev
      blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      args(%bytes : i32)
  return %done, %empty : !offload.event, !offload.event
}
