//===- Passes.td - Offload transformation passes ----------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TRANSFORMS_PASSES_TD
#define OFFLOAD_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def OffloadAttachHostTarget : Pass<"offload-attach-host-target", "ModuleOp"> {
  let summary = "attach the #offload.host target to gpu.modules";
  let description = [{
    Adds an `#offload.host` target attribute, built from the options, to the
    `targets` of every `gpu.module` whose name matches `module` (a regular
    expression; all modules by default), like upstream `nvvm-attach-target`.
    A module that already has an identical target is left as it is.

    ```mlir
    gpu.module @kernels { ... }
    // becomes, with O=2
    gpu.module @kernels [#offload.host<O = 2>] { ... }
    ```
  }];
  let dependentDialects = ["::mlir::offload::OffloadDialect"];
  let options = [
    Option<"moduleMatcher", "module", "std::string", /*default=*/"\"\"",
           "regular expression selecting gpu.modules by name (empty: all)">,
    Option<"optLevel", "O", "unsigned", /*default=*/"3",
           "LLVM optimization level of the kernels (0-3)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "target CPU (empty: the host CPU)">,
    Option<"features", "features", "std::string", /*default=*/"\"\"",
           "target features (empty: the host CPU's)">,
  ];
}

#endif // OFFLOAD_TRANSFORMS_PASSES_TD
