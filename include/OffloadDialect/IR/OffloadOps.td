//===- OffloadOps.td - Offload dialect operations ---------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OPS_TD
#define OFFLOAD_OPS_TD

include "OffloadDialect/IR/OffloadBase.td"
include "OffloadDialect/IR/OffloadTypes.td"
include "OffloadDialect/IR/OffloadAttrs.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Op families
//===----------------------------------------------------------------------===//

/// Base class of every offload op.
class Offload_Op<string mnemonic, list<Trait> traits = []>
    : Op<Offload_Dialect, mnemonic, traits>;

/// Ops that talk to the runtime: they have effects the compiler must keep.
class Offload_RuntimeOp<string mnemonic, list<Trait> traits = []>
    : Offload_Op<mnemonic, traits>;

/// A memref operand the runtime can read or write through its base pointer.
def Offload_AnyMemRef : AnyTypeOf<[AnyMemRef, AnyUnrankedMemRef]>;

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

def Offload_GetDeviceOp : Offload_Op<"get_device", [Pure]> {
  let summary = "selects a device of a platform";
  let description = [{
    Returns the `index`-th device (0-based) of `platform` (`host`, `cuda`,
    `hip`, or `any` for the index-th device over all platforms, the host
    device first). Fails at run time, with the runtime's message, if there is
    no such device.

    ```mlir
    %host = offload.get_device host 0
    %gpu = offload.get_device cuda 1
    ```
  }];
  let arguments = (ins Offload_PlatformAttr:$platform,
                       ConfinedAttr<I32Attr, [IntNonNegative]>:$index);
  let results = (outs Offload_DeviceType:$device);
  // The empty literal drops the space the format would print before the
  // enum, which already prints one.
  let assemblyFormat = "`` $platform $index attr-dict";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def Offload_AllocOp : Offload_RuntimeOp<"alloc", [
    MemoryEffects<[MemAlloc<DefaultResource>]>]> {
  let summary = "allocates memory for a device";
  let description = [{
    Allocates a memref of kind `device` (device memory), `host` (pinned host
    memory the device can access) or `managed` (unified memory) for `device`.
    `dynamicSizes` gives one index per dynamic dimension of the result, which
    must have the identity layout. The size is the element count times the
    element size, in bytes. Synchronous: the memory is usable on return.

    ```mlir
    %buf = offload.alloc device on %dev (%n) : memref<?xf32>
    %shared = offload.alloc managed on %dev : memref<16x16xf32>
    ```
  }];
  let arguments = (ins Offload_AllocKindAttr:$kind, Offload_DeviceType:$device,
                       Variadic<Index>:$dynamicSizes);
  let results = (outs Res<AnyMemRef, "", [MemAlloc<DefaultResource>]>:$memref);
  // See GetDeviceOp for the empty literal.
  let assemblyFormat = [{
    `` $kind `on` $device (` ` `(` $dynamicSizes^ `)`)? attr-dict `:`
    type($memref)
  }];
  let hasVerifier = 1;
}

def Offload_FreeOp : Offload_RuntimeOp<"free"> {
  let summary = "frees memory allocated by offload.alloc";
  let description = [{
    Returns the memory of `memref` to the runtime. The memref must come from
    `offload.alloc`; the runtime reports a double free or foreign pointer as an
    error.

    ```mlir
    offload.free %buf : memref<?xf32>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "", [MemFree]>:$memref);
  let assemblyFormat = "$memref attr-dict `:` type($memref)";
}

def Offload_MemcpyOp : Offload_RuntimeOp<"memcpy", [
    AllElementTypesMatch<["dst", "src"]>]> {
  let summary = "copies the contents of one memref into another";
  let description = [{
    Copies every element of `src` into `dst`; both must have the same element
    type, the same number of elements (checked when both shapes are static)
    and contiguous layouts. `device` is the device whose runtime performs the
    copy (either memref may live on the host or on that device). Without
    `queue` the copy is complete when the op returns; with one it is enqueued.

    ```mlir
    offload.memcpy %dst, %src on %dev : memref<?xf32>, memref<?xf32>
    offload.memcpy %dst, %src on %dev queue %q : memref<4xi32>, memref<4xi32>
    ```
  }];
  let arguments = (ins Arg<Offload_AnyMemRef, "", [MemWrite]>:$dst,
                       Arg<Offload_AnyMemRef, "", [MemRead]>:$src,
                       Offload_DeviceType:$device,
                       Optional<Offload_QueueType>:$queue);
  let assemblyFormat = [{
    $dst `,` $src `on` $device (`queue` $queue^)? attr-dict `:` type($dst) `,`
    type($src)
  }];
  let hasVerifier = 1;
}

def Offload_MemfillOp : Offload_RuntimeOp<"memfill", [
    TypesMatchWith<"value type matches element type of dst", "dst", "value",
                   "::llvm::cast<::mlir::BaseMemRefType>($_self)"
                   ".getElementType()">]> {
  let summary = "fills a memref with a value";
  let description = [{
    Stores `value`, whose type is the element type of `dst`, into every element
    of the contiguous memref `dst`. Synchronous without `queue`.

    ```mlir
    offload.memfill %buf, %zero on %dev : memref<?xf32>, f32
    ```
  }];
  let arguments = (ins Arg<Offload_AnyMemRef, "", [MemWrite]>:$dst,
                       AnyType:$value, Offload_DeviceType:$device,
                       Optional<Offload_QueueType>:$queue);
  let assemblyFormat = [{
    $dst `,` $value `on` $device (`queue` $queue^)? attr-dict `:` type($dst)
    `,` type($value)
  }];
  let hasVerifier = 1;
}

def Offload_HostRegisterOp : Offload_RuntimeOp<"host_register"> {
  let summary = "makes host memory accessible to a device";
  let description = [{
    Registers the memory of `memref` (ranked or unranked) with `device` so
    that kernels may access it (`cuMemHostRegister`). A no-op on the host
    device.

    ```mlir
    offload.host_register %m on %dev : memref<*xf32>
    ```
  }];
  let arguments = (ins Offload_AnyMemRef:$memref, Offload_DeviceType:$device);
  let assemblyFormat = "$memref `on` $device attr-dict `:` type($memref)";
}

def Offload_HostUnregisterOp : Offload_RuntimeOp<"host_unregister"> {
  let summary = "undoes offload.host_register";
  let description = [{
    ```mlir
    offload.host_unregister %m on %dev : memref<*xf32>
    ```
  }];
  let arguments = (ins Offload_AnyMemRef:$memref, Offload_DeviceType:$device);
  let assemblyFormat = "$memref `on` $device attr-dict `:` type($memref)";
}

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

def Offload_QueueCreateOp : Offload_RuntimeOp<"queue_create"> {
  let summary = "creates an in-order queue on a device";
  let description = [{
    ```mlir
    %q = offload.queue_create %dev
    ```
  }];
  let arguments = (ins Offload_DeviceType:$device);
  let results = (outs Offload_QueueType:$queue);
  let assemblyFormat = "$device attr-dict";
}

def Offload_QueueSyncOp : Offload_RuntimeOp<"queue_sync"> {
  let summary = "waits for all work enqueued on a queue";
  let description = [{
    Blocks until every operation enqueued on `queue` has completed. A failure
    of an enqueued operation is reported here.

    ```mlir
    offload.queue_sync %q
    ```
  }];
  let arguments = (ins Offload_QueueType:$queue);
  let assemblyFormat = "$queue attr-dict";
}

def Offload_QueueDestroyOp : Offload_RuntimeOp<"queue_destroy"> {
  let summary = "waits for a queue's work, then destroys it";
  let description = [{
    ```mlir
    offload.queue_destroy %q
    ```
  }];
  let arguments = (ins Offload_QueueType:$queue);
  let assemblyFormat = "$queue attr-dict";
}

def Offload_QueueWaitOp : Offload_RuntimeOp<"queue_wait"> {
  let summary = "makes a queue wait on events";
  let description = [{
    Work enqueued on `queue` after this op starts only once every event in
    `events` has completed. The caller does not block.

    ```mlir
    offload.queue_wait %q [%e0, %e1]
    ```
  }];
  let arguments = (ins Offload_QueueType:$queue,
                       Variadic<Offload_EventType>:$events);
  let assemblyFormat = "$queue ` ` `[` $events `]` attr-dict";
  let hasVerifier = 1;
}

def Offload_EventRecordOp : Offload_RuntimeOp<"event_record"> {
  let summary = "records an event on a queue";
  let description = [{
    Returns an event that completes when the work enqueued on `queue` so far
    has completed.

    ```mlir
    %e = offload.event_record %q
    ```
  }];
  let arguments = (ins Offload_QueueType:$queue);
  let results = (outs Offload_EventType:$event);
  let assemblyFormat = "$queue attr-dict";
}

def Offload_EventSyncOp : Offload_RuntimeOp<"event_sync"> {
  let summary = "waits for an event";
  let description = [{
    ```mlir
    offload.event_sync %e
    ```
  }];
  let arguments = (ins Offload_EventType:$event);
  let assemblyFormat = "$event attr-dict";
}

def Offload_EventDestroyOp : Offload_RuntimeOp<"event_destroy"> {
  let summary = "destroys an event";
  let description = [{
    ```mlir
    offload.event_destroy %e
    ```
  }];
  let arguments = (ins Offload_EventType:$event);
  let assemblyFormat = "$event attr-dict";
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

def Offload_LaunchOp : Offload_RuntimeOp<"launch", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "launches a kernel on a device";
  let description = [{
    Launches the kernel `@module::@kernel` (a `gpu.func` with the `kernel`
    attribute inside a `gpu.module`, or a kernel of the `gpu.binary` that
    module was compiled into) on `device` over a grid of
    `gridSize{X,Y,Z}` blocks of `blockSize{X,Y,Z}` threads, with
    `dynamic_shared_memory_size` bytes of dynamic shared memory per block
    (default 0). The arguments must match the kernel's signature.

    Without `queue` the launch is synchronous: the kernel has finished when the
    op returns. With `queue` it is enqueued, and the op may return an event
    that completes with the kernel.

    ```mlir
    offload.launch @kernels::@saxpy on %dev
        blocks in (%gx, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>)
    %done = offload.launch @kernels::@saxpy on %dev queue %q
        blocks in (%gx, %c1, %c1) threads in (%c256, %c1, %c1)
        dynamic_shared_memory_size %bytes
        args(%a : f32, %x : memref<?xf32>, %y : memref<?xf32>) -> !offload.event
    ```
  }];
  let arguments = (ins SymbolRefAttr:$kernel, Offload_DeviceType:$device,
                       Optional<Offload_QueueType>:$queue,
                       Index:$gridSizeX, Index:$gridSizeY, Index:$gridSizeZ,
                       Index:$blockSizeX, Index:$blockSizeY, Index:$blockSizeZ,
                       Optional<I32>:$dynamicSharedMemorySize,
                       Variadic<AnyType>:$kernelOperands);
  let results = (outs Optional<Offload_EventType>:$event);
  let assemblyFormat = [{
    $kernel `on` $device (`queue` $queue^)?
    `blocks` `in` ` ` `(` $gridSizeX `,` $gridSizeY `,` $gridSizeZ `)`
    `threads` `in` ` ` `(` $blockSizeX `,` $blockSizeY `,` $blockSizeZ `)`
    (`dynamic_shared_memory_size` $dynamicSharedMemorySize^)?
    (`args` `` custom<LaunchArgs>($kernelOperands, type($kernelOperands))^)?
    attr-dict (`->` type($event)^)?
  }];
  let extraClassDeclaration = [{
    /// The name of the gpu.module (or gpu.binary) holding the kernel.
    ::llvm::StringRef getKernelModuleName() {
      return getKernel().getRootReference().getValue();
    }
    /// The name of the kernel inside its module.
    ::llvm::StringRef getKernelName() {
      return getKernel().getLeafReference().getValue();
    }
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Runtime constants (inside kernels)
//===----------------------------------------------------------------------===//

def Offload_RuntimeConstantOp : Offload_Op<"runtime_constant", [
    Pure, SameOperandsAndResultType]> {
  let summary = "marks a kernel value that may be folded at specialization";
  let description = [{
    Marks `value` (usually a kernel argument) as a *runtime constant*: its
    value at launch may be folded into the kernel by `offload-specialize`,
    ahead of time when the launch site passes a constant, or by the JIT at
    launch. With `contents`, the value is a statically shaped memref whose
    *elements* are constant for the launch (a lookup table, coefficients);
    they are folded by content.

    Unspecialized, the op is the identity: kernel lowering replaces it by its
    operand. It belongs to device code: a `gpu.func`, or a function nested in
    a `gpu.module`.

    ```mlir
    gpu.func @stencil(%in: memref<?xf32>, %radius: i32, %w: memref<8xf32>) kernel {
      %r = offload.runtime_constant %radius : i32
      %coeffs = offload.runtime_constant %w contents : memref<8xf32>
      ...
    }
    ```
  }];
  let arguments = (ins AnyType:$value, UnitAttr:$contents);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$value (`contents` $contents^)? attr-dict `:` type($value)";
  let hasVerifier = 1;
}

#endif // OFFLOAD_OPS_TD
