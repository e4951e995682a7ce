// RUN: offload-opt %s -split-input-file --pass-pipeline='builtin.module(gpu.module(offload-host-kernel-to-llvm))' | FileCheck %s

// A kernel without synchronization: thread ids are arguments, block values
// come from the context, the descriptor is not cooperative (flags 0).

// CHECK-LABEL: gpu.module @plain
gpu.module @plain {
  // Two memrefs (5 values each), then ctx, tx, ty, tz.
  // CHECK: llvm.func internal @copy(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %[[CTX:[a-z0-9]+]]: !llvm.ptr, %[[TX:[a-z0-9]+]]: i64, %{{.*}}: i64, %{{.*}}: i64,
  // CHECK-DAG: %[[BDIM_ADDR:.*]] = llvm.getelementptr %[[CTX]][3] : (!llvm.ptr) -> !llvm.ptr, i64
  // CHECK-DAG: %[[BDIM:.*]] = llvm.load %[[BDIM_ADDR]] : !llvm.ptr -> i64
  // CHECK-DAG: %[[BID:.*]] = llvm.load %[[CTX]] : !llvm.ptr -> i64
  // CHECK:   %[[BASE:.*]] = llvm.mul %[[BID]], %[[BDIM]] : i64
  // CHECK:   llvm.add %[[BASE]], %[[TX]] : i64
  // CHECK: llvm.func internal @__offload_thread.copy(%{{.*}}: !llvm.ptr {llvm.align = 8 : i64, llvm.dereferenceable = 80 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: !llvm.ptr {llvm.align = 8 : i64, llvm.dereferenceable = 96 : i64, llvm.noalias, llvm.readonly}, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
  // CHECK:   llvm.call @copy
  // CHECK: llvm.func internal @__offload_block.copy(
  // CHECK:   llvm.call @__offload_thread.copy
  // CHECK: llvm.mlir.global internal constant @__offload_kernel_name.copy("copy\00")
  // CHECK: llvm.mlir.global internal constant @__offload_kernel_args.copy.offsets(dense<[0, 8, 16, 24, 32, 40, 48, 56, 64, 72]> : tensor<10xi64>)
  // CHECK: llvm.mlir.global internal constant @__offload_kernel_args.copy.sizes(dense<8> : tensor<10xi64>)
  // CHECK-NOT: __offload_kernel_reason.copy
  // CHECK: llvm.mlir.global external constant @__offload_kernel.copy() {{.*}} : !llvm.struct<(i32, i32, i64, i64, ptr, ptr, ptr, i64, ptr, ptr, ptr, array<3 x i32>, array<3 x i32>)>
  // CHECK:   llvm.mlir.constant(4 : i32) : i32
  // CHECK:   llvm.mlir.constant(0 : i32) : i32
  // CHECK:   llvm.mlir.constant(0 : i64) : i64
  // CHECK:   llvm.mlir.constant(80 : i64) : i64
  // No thread entry: a non-cooperative kernel runs through its block entry,
  // and LLVM then inlines and deletes the thread entry.
  // CHECK:   %[[NO_THREAD:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK:   llvm.insertvalue %[[NO_THREAD]], %{{.*}}[5]
  // CooperativeReason is null; no block or grid size is required.
  // CHECK:   %[[NO_REASON:.*]] = llvm.mlir.zero : !llvm.ptr
  // CHECK:   llvm.insertvalue %[[NO_REASON]], %{{.*}}[10]
  // CHECK:   %[[ANY:.*]] = llvm.mlir.constant(dense<0> : tensor<3xi32>) : !llvm.array<3 x i32>
  // CHECK:   llvm.insertvalue %[[ANY]], %{{.*}}[11]
  // CHECK:   %[[DESC:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[12]
  // CHECK:   llvm.return %[[DESC]]
  gpu.func @copy(%src: memref<?xf32>, %dst: memref<?xf32>) kernel {
    %bid = gpu.block_id x
    %bdim = gpu.block_dim x
    %tid = gpu.thread_id x
    %base = arith.muli %bid, %bdim : index
    %i = arith.addi %base, %tid : index
    %v = memref.load %src[%i] : memref<?xf32>
    memref.store %v, %dst[%i] : memref<?xf32>
    gpu.return
  }
}

// -----

// Barriers and workgroup memory: the kernel is cooperative (flags 1), its
// workgroup attribution lives in the block's static shared memory (64 bytes
// of f32, the exact size), and gpu.barrier calls the runtime with the
// barrier's id: 0, 1, ... in the order of the kernel's gpu.barrier ops. The
// descriptor's CooperativeReason says why the kernel runs on fibers.

// CHECK-LABEL: gpu.module @coop
gpu.module @coop {
  // CHECK: llvm.func internal @reverse({{.*}} attributes {convergent
  // CHECK:   %[[ID0:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK:   llvm.call @__offload_host_barrier(%{{.*}}, %[[ID0]]) : (!llvm.ptr, i32) -> ()
  // CHECK: llvm.func internal @two_barriers(
  // CHECK-DAG: %[[FIRST:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-DAG: %[[SECOND:.*]] = llvm.mlir.constant(1 : i32) : i32
  // CHECK:   llvm.call @__offload_host_barrier(%{{.*}}, %[[FIRST]]) : (!llvm.ptr, i32) -> ()
  // CHECK:   llvm.call @__offload_host_barrier(%{{.*}}, %[[SECOND]]) : (!llvm.ptr, i32) -> ()
  // CHECK: llvm.func @__offload_host_barrier(!llvm.ptr, i32) attributes {convergent
  // CHECK: llvm.mlir.global private constant @[[REASON:__offload_kernel_reason.reverse]]("the kernel synchronizes threads with gpu.barrier or gpu.shuffle (thread loops were not tried)\00")
  // CHECK: llvm.mlir.global external constant @__offload_kernel.reverse()
  // CHECK:   llvm.mlir.constant(4 : i32) : i32
  // CHECK:   llvm.mlir.constant(1 : i32) : i32
  // CHECK:   llvm.mlir.constant(64 : i64) : i64
  // CHECK:   %[[REASON_PTR:.*]] = llvm.mlir.addressof @[[REASON]] : !llvm.ptr
  // CHECK:   llvm.insertvalue %[[REASON_PTR]], %{{.*}}[10]
  // Its known_block_size is required at launch.
  // CHECK:   %[[BLOCK:.*]] = llvm.mlir.constant(dense<[16, 1, 1]> : tensor<3xi32>) : !llvm.array<3 x i32>
  // CHECK:   llvm.insertvalue %[[BLOCK]], %{{.*}}[11]
  gpu.func @reverse(%data: memref<16xf32>)
      workgroup(%tile: memref<16xf32, #gpu.address_space<workgroup>>) kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %tid = gpu.thread_id x
    %c15 = arith.constant 15 : index
    %v = memref.load %data[%tid] : memref<16xf32>
    memref.store %v, %tile[%tid] : memref<16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %r = arith.subi %c15, %tid : index
    %w = memref.load %tile[%r] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %w, %data[%tid] : memref<16xf32>
    gpu.return
  }
  gpu.func @two_barriers(%data: memref<16xf32>) kernel {
    %tid = gpu.thread_id x
    %v = memref.load %data[%tid] : memref<16xf32>
    gpu.barrier
    memref.store %v, %data[%tid] : memref<16xf32>
    gpu.barrier
    gpu.return
  }
}

// -----

// gpu.shuffle calls the runtime with the value widened to 64 bits, the mode
// (xor = 0) and a pointer receiving the valid flag; all_reduce is first
// rewritten into shuffles and barriers.

// CHECK-LABEL: gpu.module @shuffles
gpu.module @shuffles {
  // CHECK: llvm.func internal @xor(
  // CHECK:   %[[VALID:.*]] = llvm.alloca %{{.*}} x i8
  // CHECK:   %[[BITS:.*]] = llvm.bitcast %{{.*}} : f32 to i32
  // CHECK:   %[[WIDE:.*]] = llvm.zext %[[BITS]] : i32 to i64
  // CHECK:   llvm.call @__offload_host_shuffle(%{{.*}}, %[[WIDE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[VALID]])
  // CHECK:   llvm.load %[[VALID]] : !llvm.ptr -> i8
  gpu.func @xor(%data: memref<32xf32>) kernel {
    %tid = gpu.thread_id x
    %v = memref.load %data[%tid] : memref<32xf32>
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %s, %ok = gpu.shuffle xor %v, %c1, %c32 : f32
    %r = arith.select %ok, %s, %v : f32
    memref.store %r, %data[%tid] : memref<32xf32>
    gpu.return
  }
  // CHECK: llvm.func internal @sum(
  // CHECK-COUNT-2: llvm.call @__offload_host_barrier
  // CHECK: llvm.func @__offload_host_shuffle(!llvm.ptr, i64, i32, i32, i32, !llvm.ptr) -> i64 attributes {convergent
  gpu.func @sum(%data: memref<64xf32>) kernel {
    %tid = gpu.thread_id x
    %v = memref.load %data[%tid] : memref<64xf32>
    %r = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %r, %data[%tid] : memref<64xf32>
    gpu.return
  }
}

// -----

// gpu.printf becomes a printf call with C's argument promotions; unspecialized
// runtime constants are their operand; dynamic shared memory comes from the
// context.

// CHECK-LABEL: gpu.module @misc
gpu.module @misc {
  // CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
  // CHECK-DAG: llvm.mlir.global internal constant @hello.printf_format.0("x=%d y=%f\0A\00")
  // CHECK: llvm.func internal @hello(%[[N:[a-z0-9]+]]: i32,
  // CHECK:   %[[D:.*]] = llvm.fpext %{{.*}} : f32 to f64
  // CHECK:   llvm.call @printf(%{{.*}}, %[[N]], %[[D]]) vararg(!llvm.func<i32 (ptr, ...)>)
  gpu.func @hello(%n: i32, %f: f32) kernel {
    %m = offload.runtime_constant %n : i32
    gpu.printf "x=%d y=%f\n", %m, %f : i32, f32
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %b = arith.constant 7 : i8
    memref.store %b, %dyn[%c0] : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
  // CHECK: llvm.func internal @__offload_thread.hello(
  // CHECK:   %[[DYN_ADDR:.*]] = llvm.getelementptr %{{.*}}[10] : (!llvm.ptr) -> !llvm.ptr, i64
  // CHECK:   llvm.load %[[DYN_ADDR]] : !llvm.ptr -> !llvm.ptr
}

// -----

// The lowered body keeps the kernel's name and the gpu.kernel attribute, so
// host code that launches it still verifies. Body and thread entry of a
// kernel that runs as a thread loop are always_inline: LLVM simplifies the
// block entry once, with both inlined, instead of each function first.

// CHECK-LABEL: module attributes {gpu.container_module}
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK: llvm.func internal @fill({{.*}}) attributes {always_inline, gpu.kernel
    // CHECK: llvm.func internal @__offload_thread.fill({{.*}}) attributes {always_inline
    // CHECK: llvm.func internal @__offload_block.fill(
    // CHECK-NOT: always_inline
    // CHECK: llvm.mlir.global {{.*}} @__offload_kernel.fill
    gpu.func @fill(%x: memref<?xf32>) kernel {
      %i = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %x[%i] : memref<?xf32>
      gpu.return
    }
  }
  // CHECK: gpu.launch_func @kernels::@fill
  func.func @host(%x: memref<?xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1)
        threads in (%c1, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}

// -----

// Atomics on workgroup memory are plain read-modify-writes (one OS thread
// runs a block); atomics on global memory stay atomic.

// CHECK-LABEL: gpu.module @atomics
gpu.module @atomics {
  // CHECK: llvm.func internal @histogram(
  // CHECK-NOT: llvm.atomicrmw
  // CHECK: %[[BIN:.*]] = llvm.sext
  // CHECK: %[[ADDR:.*]] = llvm.getelementptr inbounds|nuw %{{.*}}[%[[BIN]]]
  // CHECK: %[[OLD:.*]] = llvm.load %[[ADDR]] : !llvm.ptr -> i32
  // CHECK: %[[NEW:.*]] = llvm.add %[[OLD]], %{{.*}} : i32
  // CHECK: llvm.store %[[NEW]]
  // CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} acq_rel : !llvm.ptr, i32
  gpu.func @histogram(%bins: memref<?xi32>, %hist: memref<?xi32>)
      workgroup(%local: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
    %one = arith.constant 1 : i32
    %tx = gpu.thread_id x
    %b = memref.load %bins[%tx] : memref<?xi32>
    %bi = arith.index_cast %b : i32 to index
    %old = memref.atomic_rmw addi %one, %local[%bi] : (i32, memref<256xi32, #gpu.address_space<workgroup>>) -> i32
    %g = memref.atomic_rmw addi %old, %hist[%bi] : (i32, memref<?xi32>) -> i32
    gpu.return
  }
}
