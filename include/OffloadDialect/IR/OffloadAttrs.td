//===- OffloadAttrs.td - Offload dialect attributes -------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_ATTRS_TD
#define OFFLOAD_ATTRS_TD

include "OffloadDialect/IR/OffloadBase.td"

def Offload_HostTargetAttr : AttrDef<Offload_Dialect, "HostTarget"> {
  let mnemonic = "host";
  let summary = "the host CPU as a gpu target";
  let description = [{
    A `gpu` target attribute (it implements `gpu::TargetAttrInterface` through
    an external model registered by `registerHostTargetInterfaceExternalModels`)
    that compiles a `gpu.module` for the CPU the program runs on.
    `gpu-module-to-binary` serializes the module, once its kernels have been
    lowered by `convert-gpu-to-offload-host`, into an ELF relocatable object
    that the runtime's host plugin loads; the kernel ABI is documented in
    `include/OffloadRuntime/HostKernelABI.h`.

    Parameters: `O` is the LLVM optimization level (0-3, default 3); `triple`,
    `chip` and `features` default to the host's (empty means "the host").

    ```mlir
    gpu.module @kernels [#offload.host] { ... }
    gpu.module @kernels [#offload.host<O = 2, chip = "x86-64-v3">] { ... }
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"int", "3", "optimization level">:$O,
    StringRefParameter<"target triple", "\"\"">:$triple,
    StringRefParameter<"target CPU", "\"\"">:$chip,
    StringRefParameter<"target features", "\"\"">:$features
  );
  let assemblyFormat = [{ (`<` struct(params)^ `>`)? }];
  let genVerifyDecl = 1;
}

#endif // OFFLOAD_ATTRS_TD
