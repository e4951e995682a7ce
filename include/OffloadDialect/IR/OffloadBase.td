//===- OffloadBase.td - Offload dialect definition --------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BASE_TD
#define OFFLOAD_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Offload_Dialect : Dialect {
  let name = "offload";
  let cppNamespace = "::mlir::offload";
  let summary = "Host-side offload operations and runtime constants";
  let description = [{
    The `offload` dialect models what a program asks of an offload runtime
    (LLVM liboffload's objects: devices, memory, queues, events, programs,
    kernels and launches) plus the *runtime constants* that kernels may be
    specialized on.

    Host-side ops are produced from upstream `gpu` ops by
    `convert-gpu-to-offload` and lowered to calls into the runtime's C API
    (`include/OffloadRuntime/OffloadAPI.h`) by `convert-offload-to-llvm`.
    Kernels live in `gpu.module`s and are referred to by symbol
    (`@module::@kernel`).

    The `#offload.host` attribute is a `gpu` target: `gpu-module-to-binary`
    serializes a `gpu.module` carrying it into a host object that the
    runtime's host plugin loads.

    Discardable attributes of the dialect (each has a generated
    `OffloadDialect::<Name>AttrHelper` with typed get/set):

    - `offload.specialization_of` (string), on a `gpu.func`: the kernel a
      specialization was made from (offload-specialize); diagnostics and
      checking-tool reports name that one.
    - `offload.thread_loops` (unit), on a `gpu.func` kernel: its body runs
      every thread of its block (offload-host-thread-loops), so the host
      lowering calls it once per block.
    - `offload.fiber_reason` (string), on a `gpu.func` kernel: why a kernel
      that synchronizes threads could not be turned into thread loops and
      runs on fibers.
    - `offload.jit` (unit): not on an operation but a key of the properties
      of a `gpu.object` that holds MLIR bytecode for the JIT
      (offload-embed-mlir); only its name is used.
  }];
  let discardableAttrs = (ins
    "::mlir::StringAttr":$specialization_of,
    "::mlir::UnitAttr":$thread_loops,
    "::mlir::StringAttr":$fiber_reason,
    "::mlir::UnitAttr":$jit
  );
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Offload_PlatformHost : I32EnumAttrCase<"host", 0>;
def Offload_PlatformCUDA : I32EnumAttrCase<"cuda", 1>;
def Offload_PlatformHIP : I32EnumAttrCase<"hip", 2>;
def Offload_PlatformAny : I32EnumAttrCase<"any", 3>;
def Offload_Platform : I32EnumAttr<"Platform", "offload platform",
    [Offload_PlatformHost, Offload_PlatformCUDA, Offload_PlatformHIP,
     Offload_PlatformAny]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::offload";
}
def Offload_PlatformAttr : EnumAttr<Offload_Dialect, Offload_Platform,
                                    "platform">;

def Offload_AllocKindDevice : I32EnumAttrCase<"device", 0>;
def Offload_AllocKindHost : I32EnumAttrCase<"host", 1>;
def Offload_AllocKindManaged : I32EnumAttrCase<"managed", 2>;
def Offload_AllocKind : I32EnumAttr<"AllocKind", "kind of memory",
    [Offload_AllocKindDevice, Offload_AllocKindHost,
     Offload_AllocKindManaged]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::offload";
}
def Offload_AllocKindAttr : EnumAttr<Offload_Dialect, Offload_AllocKind,
                                     "alloc_kind">;

#endif // OFFLOAD_BASE_TD
