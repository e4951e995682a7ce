// The mgpu* ABI has no error returns: libOffloadMGPU.so prints
// "mgpu error: <function>: <cause>" (with the runtime's code and message when
// the runtime reported it) and aborts, also for bad handles and arguments it
// can detect, which it never dereferences. Each program calls the library
// directly with one bad input.
//
// RUN: split-file %s %t
// DEFINE: %{run} = mlir-runner --entry-point-result=void \
// DEFINE:   --shared-libs=%offload_lib_dir/libOffloadRuntime.so,%offload_lib_dir/libOffloadMGPU.so

// RUN: env OFFLOAD_MGPU_DEVICE=tpu not --crash %{run} %t/stream-create.mlir 2>&1 | FileCheck %s --check-prefix=ENV
// ENV: mgpu error: mgpuStreamCreate: OFFLOAD_MGPU_DEVICE='tpu' is not a device: expected host, cuda or hip, optionally followed by :INDEX
// ENV-NEXT: libOffloadMGPU: aborting: the mgpu* ABI has no error returns

// RUN: env OFFLOAD_MGPU_DEVICE=host:1 not --crash %{run} %t/stream-create.mlir 2>&1 | FileCheck %s --check-prefix=ENV-INDEX
// ENV-INDEX: mgpu error: mgpuStreamCreate: OFFLOAD_MGPU_DEVICE='host:1': offloadGetDevice: OFFLOAD_ERRC_NOT_FOUND: {{.+}}

// RUN: env OFFLOAD_MGPU_DEVICE=host:x not --crash %{run} %t/stream-create.mlir 2>&1 | FileCheck %s --check-prefix=ENV-BAD-INDEX
// ENV-BAD-INDEX: mgpu error: mgpuStreamCreate: OFFLOAD_MGPU_DEVICE='host:x': the device index must be a number

// RUN: env OFFLOAD_MGPU_DEVICE=host not --crash %{run} %t/set-device.mlir 2>&1 | FileCheck %s --check-prefix=SET-DEVICE
// SET-DEVICE: mgpu error: mgpuSetDefaultDevice: no host device 2: OFFLOAD_ERRC_NOT_FOUND: {{.+}}

// RUN: not --crash %{run} %t/stream-sync.mlir 2>&1 | FileCheck %s --check-prefix=STREAM
// STREAM: mgpu error: mgpuStreamSynchronize: offloadSyncQueue: OFFLOAD_ERRC_INVALID_QUEUE: {{.+}}

// RUN: not --crash %{run} %t/stream-alloc.mlir 2>&1 | FileCheck %s --check-prefix=STREAM-ALLOC
// STREAM-ALLOC: mgpu error: mgpuMemAlloc: stream 0x1000 is not a live stream of mgpuStreamCreate: OFFLOAD_ERRC_INVALID_QUEUE: {{.+}}

// RUN: not --crash %{run} %t/stream-destroy-null.mlir 2>&1 | FileCheck %s --check-prefix=STREAM-NULL
// STREAM-NULL: mgpu error: mgpuStreamDestroy: stream is null

// RUN: not --crash %{run} %t/event.mlir 2>&1 | FileCheck %s --check-prefix=EVENT
// EVENT: mgpu error: mgpuEventSynchronize: event 0x1000 is not a live event of mgpuEventCreate (never created, or destroyed)

// RUN: not --crash %{run} %t/event-destroyed.mlir 2>&1 | FileCheck %s --check-prefix=EVENT-DESTROYED
// EVENT-DESTROYED: mgpu error: mgpuEventRecord: event 0x{{[0-9a-f]+}} is not a live event of mgpuEventCreate (never created, or destroyed)

// RUN: not --crash %{run} %t/function.mlir 2>&1 | FileCheck %s --check-prefix=FUNCTION
// FUNCTION: mgpu error: mgpuLaunchKernel: function 0x1000 is not a live function of mgpuModuleGetFunction (never looked up, or its module was unloaded)

// RUN: not --crash %{run} %t/grid.mlir 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: mgpu error: mgpuLaunchKernel: gridX = 0 must be in [1, 4294967295]

// RUN: not --crash %{run} %t/module.mlir 2>&1 | FileCheck %s --check-prefix=MODULE
// MODULE: mgpu error: mgpuModuleGetFunction: module 0x1000 is not a live module of mgpuModuleLoad (never loaded, or unloaded)

// RUN: env OFFLOAD_MGPU_DEVICE=host not --crash %{run} %t/module-load.mlir 2>&1 | FileCheck %s --check-prefix=MODULE-LOAD
// MODULE-LOAD: mgpu error: mgpuModuleLoad: offloadCreateProgram (a 4-byte binary on the host device): OFFLOAD_ERRC_INVALID_BINARY: {{.+}}

// RUN: env OFFLOAD_MGPU_DEVICE=host not --crash %{run} %t/module-load-jit.mlir 2>&1 | FileCheck %s --check-prefix=MODULE-LOAD-JIT
// MODULE-LOAD-JIT: mgpu error: mgpuModuleLoadJIT: the host device loads ELF objects, not assembly: serialize the gpu.module with gpu-module-to-binary format=bin (the default)

// RUN: not --crash %{run} %t/free.mlir 2>&1 | FileCheck %s --check-prefix=FREE
// FREE: mgpu error: mgpuMemFree: 0x1000 is not memory of mgpuMemAlloc: OFFLOAD_ERRC_NOT_FOUND: {{.+}}

// RUN: not --crash %{run} %t/free-inside.mlir 2>&1 | FileCheck %s --check-prefix=FREE-INSIDE
// FREE-INSIDE: mgpu error: mgpuMemFree: 0x{{[0-9a-f]+}} is inside the allocation at 0x{{[0-9a-f]+}}, not its start

// RUN: not --crash %{run} %t/memcpy.mlir 2>&1 | FileCheck %s --check-prefix=MEMCPY
// MEMCPY: mgpu error: mgpuMemcpy: destination is null (copy of 16 bytes)

// RUN: not --crash %{run} %t/register.mlir 2>&1 | FileCheck %s --check-prefix=REGISTER
// REGISTER: mgpu error: mgpuMemHostRegisterMemRef: rank -1 is negative

// RUN: not --crash %{run} %t/register-null.mlir 2>&1 | FileCheck %s --check-prefix=REGISTER-NULL
// REGISTER-NULL: mgpu error: mgpuMemHostRegisterMemRef: memref descriptor is null

//--- stream-create.mlir
llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @main() {
  %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  llvm.return
}

//--- set-device.mlir
llvm.func @mgpuSetDefaultDevice(i32)
llvm.func @main() {
  %two = llvm.mlir.constant(2 : i32) : i32
  llvm.call @mgpuSetDefaultDevice(%two) : (i32) -> ()
  llvm.return
}

//--- stream-sync.mlir
llvm.func @mgpuStreamSynchronize(!llvm.ptr)
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  llvm.call @mgpuStreamSynchronize(%bad) : (!llvm.ptr) -> ()
  llvm.return
}

//--- stream-alloc.mlir
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  %size = llvm.mlir.constant(64 : i64) : i64
  %shared = llvm.mlir.constant(0 : i8) : i8
  %p = llvm.call @mgpuMemAlloc(%size, %bad, %shared) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  llvm.return
}

//--- stream-destroy-null.mlir
llvm.func @mgpuStreamDestroy(!llvm.ptr)
llvm.func @main() {
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @mgpuStreamDestroy(%null) : (!llvm.ptr) -> ()
  llvm.return
}

//--- event.mlir
llvm.func @mgpuEventSynchronize(!llvm.ptr)
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  llvm.call @mgpuEventSynchronize(%bad) : (!llvm.ptr) -> ()
  llvm.return
}

//--- event-destroyed.mlir
llvm.func @mgpuEventCreate() -> !llvm.ptr
llvm.func @mgpuEventDestroy(!llvm.ptr)
llvm.func @mgpuEventRecord(!llvm.ptr, !llvm.ptr)
llvm.func @mgpuStreamCreate() -> !llvm.ptr
llvm.func @main() {
  %s = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
  %e = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
  llvm.call @mgpuEventRecord(%e, %s) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @mgpuEventDestroy(%e) : (!llvm.ptr) -> ()
  llvm.call @mgpuEventRecord(%e, %s) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

//--- function.mlir
llvm.func @mgpuLaunchKernel(!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %zero32 = llvm.mlir.constant(0 : i32) : i32
  %zero = llvm.mlir.constant(0 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @mgpuLaunchKernel(%bad, %one, %one, %one, %one, %one, %one, %zero32, %null, %null, %null, %zero) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

//--- grid.mlir
llvm.func @mgpuLaunchKernel(!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64)
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %zero32 = llvm.mlir.constant(0 : i32) : i32
  %zero = llvm.mlir.constant(0 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @mgpuLaunchKernel(%bad, %zero, %one, %one, %one, %one, %one, %zero32, %null, %null, %null, %zero) : (!llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  llvm.return
}

//--- module.mlir
llvm.func @mgpuModuleGetFunction(!llvm.ptr, !llvm.ptr) -> !llvm.ptr
llvm.mlir.global internal constant @name("k\00") : !llvm.array<2 x i8>
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  %name = llvm.mlir.addressof @name : !llvm.ptr
  %f = llvm.call @mgpuModuleGetFunction(%bad, %name) : (!llvm.ptr, !llvm.ptr) -> !llvm.ptr
  llvm.return
}

//--- module-load.mlir
llvm.func @mgpuModuleLoad(!llvm.ptr, i64) -> !llvm.ptr
llvm.mlir.global internal constant @junk("junk") : !llvm.array<4 x i8>
llvm.func @main() {
  %data = llvm.mlir.addressof @junk : !llvm.ptr
  %size = llvm.mlir.constant(4 : i64) : i64
  %m = llvm.call @mgpuModuleLoad(%data, %size) : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.return
}

//--- module-load-jit.mlir
llvm.func @mgpuModuleLoadJIT(!llvm.ptr, i32) -> !llvm.ptr
llvm.mlir.global internal constant @ptx(".version 8.0\00") : !llvm.array<13 x i8>
llvm.func @main() {
  %data = llvm.mlir.addressof @ptx : !llvm.ptr
  %opt = llvm.mlir.constant(2 : i32) : i32
  %m = llvm.call @mgpuModuleLoadJIT(%data, %opt) : (!llvm.ptr, i32) -> !llvm.ptr
  llvm.return
}

//--- free.mlir
llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
llvm.func @main() {
  %a = llvm.mlir.constant(4096 : i64) : i64
  %bad = llvm.inttoptr %a : i64 to !llvm.ptr
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @mgpuMemFree(%bad, %null) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

//--- free-inside.mlir
llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
llvm.func @main() {
  %size = llvm.mlir.constant(64 : i64) : i64
  %shared = llvm.mlir.constant(0 : i8) : i8
  %null = llvm.mlir.zero : !llvm.ptr
  %p = llvm.call @mgpuMemAlloc(%size, %null, %shared) : (i64, !llvm.ptr, i8) -> !llvm.ptr
  %inside = llvm.getelementptr %p[8] : (!llvm.ptr) -> !llvm.ptr, i8
  llvm.call @mgpuMemFree(%inside, %null) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}

//--- memcpy.mlir
llvm.func @mgpuMemcpy(!llvm.ptr, !llvm.ptr, i64, !llvm.ptr)
llvm.func @main() {
  %one = llvm.mlir.constant(1 : i64) : i64
  %src = llvm.alloca %one x !llvm.array<16 x i8> : (i64) -> !llvm.ptr
  %size = llvm.mlir.constant(16 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  llvm.call @mgpuMemcpy(%null, %src, %size, %null) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
  llvm.return
}

//--- register.mlir
llvm.func @mgpuMemHostRegisterMemRef(i64, !llvm.ptr, i64)
llvm.func @main() {
  %one = llvm.mlir.constant(1 : i64) : i64
  %desc = llvm.alloca %one x !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> : (i64) -> !llvm.ptr
  %rank = llvm.mlir.constant(-1 : i64) : i64
  %four = llvm.mlir.constant(4 : i64) : i64
  llvm.call @mgpuMemHostRegisterMemRef(%rank, %desc, %four) : (i64, !llvm.ptr, i64) -> ()
  llvm.return
}

//--- register-null.mlir
llvm.func @mgpuMemHostRegisterMemRef(i64, !llvm.ptr, i64)
llvm.func @main() {
  %rank = llvm.mlir.constant(1 : i64) : i64
  %null = llvm.mlir.zero : !llvm.ptr
  %four = llvm.mlir.constant(4 : i64) : i64
  llvm.call @mgpuMemHostRegisterMemRef(%rank, %null, %four) : (i64, !llvm.ptr, i64) -> ()
  llvm.return
}
