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
    A module that already has an identical target is left as it is. Other
    targets of a module (`#nvvm.target`, `#rocdl.target`, as compilers that
    emit gpu-dialect MLIR for a GPU attach them) are replaced by the host
    target, with a remark: the host lowering compiles kernels for the CPU
    only. With `replace-gpu-targets=false` such a module is an error instead.

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
    Option<"replaceGPUTargets", "replace-gpu-targets", "bool",
           /*default=*/"true",
           "replace the GPU targets of a gpu.module by the host target, with "
           "a remark (false: such a module is an error)">,
  ];
}

def OffloadSpecialize : Pass<"offload-specialize", "ModuleOp"> {
  let summary = "specialize kernels on runtime constants and launch sizes known at the launch site";
  let description = [{
    For each `offload.launch` or `gpu.launch_func` whose kernel is a
    `gpu.func` in a `gpu.module` of this module, collects what the launch site
    knows:

    - the value of every kernel argument marked with `offload.runtime_constant`
      that the launch passes as a constant (`arith.constant`), and, for
      `contents` memrefs, the elements of a constant `memref.global` the launch
      passes through `memref.get_global`;
    - with `fold-unannotated-scalars` (the default), the value of every
      unmarked scalar argument (integer, index, float) the launch passes as
      a constant: that launch passes the same value every time it runs, so
      no annotation is needed; memrefs still need a `contents` mark, since
      their elements may change between launches;
    - the block size when the launch's block operands are constants (always);
    - the grid size when they are constants and `fold-grid-size` is set.

    When that adds anything to what the kernel already declares, the kernel is
    cloned, the values substituted (scalars become constants, constant
    contents become a private constant `memref.global` whose loads at
    constant indices fold), `known_block_size` / `known_grid_size` are set and
    `gpu.block_dim` / `gpu.grid_dim` replaced by constants. The clone is then
    folded: canonicalization (with upstream's math algebraic simplification:
    `powf`/`fpowi` with small integer and half-integer exponents), SCCP, then
    the cost model's loop transformations (docs/JIT.md, "The cost model"):
    full unrolling of `scf.for` loops whose trip count became a constant,
    innermost first, when the folded unrolled code is small enough by LLVM's
    LoopUnrollPass rule (`unroll-threshold`, boosted by the share of work
    unrolling folds up to `unroll-max-percent-threshold-boost`); tables of
    the values of math calls that depend only on the induction variable of a
    constant-trip loop (`max-table-bytes`); loop-invariant code motion; then
    canonicalization again. With `cost-model=false`, every loop whose trip
    count is at most `unroll-max-trip-count` is unrolled and nothing else
    (the behaviour before the model). The clone is named `<kernel>_spec_<hash>`,
    where the hash (xxh3 of the kernel name and the specialization values) is
    stable across runs; launches with identical specializations share one
    clone. The launch is retargeted to the clone; its operands do not change,
    so the argument buffer keeps its layout.

    Launches that know nothing new are left alone, and so are their kernels.
    A kernel keeps its name and stays in its `gpu.module` after its launches
    moved to clones (other code may look it up by name), unless
    `erase-replaced-kernels` is set: then a kernel that was specialized and
    that no symbol reference in the module names any more is erased, so it
    is not compiled (offload-run sets it: the input is the whole program).

    ```mlir
    gpu.func @scale(%x: memref<?xf32>, %n: i32) kernel {
      %c = offload.runtime_constant %n : i32
      ...
    }
    %c4 = arith.constant 4 : i32
    offload.launch @kernels::@scale on %dev blocks in (%g, %c1, %c1)
        threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %c4 : i32)
    // becomes a launch of @kernels::@scale_spec_<hash>, a clone where %c is
    // 4 : i32 and known_block_size = array<i32: 128, 1, 1>.
    ```
  }];
  let dependentDialects = ["::mlir::offload::OffloadDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::gpu::GPUDialect"];
  let options =
      [Option<"foldGridSize", "fold-grid-size", "bool", /*default=*/"false",
              "also specialize on constant grid sizes (known_grid_size)">,
       Option<"unrollMaxTripCount", "unroll-max-trip-count", "unsigned",
              /*default=*/"1024",
              "never fully unroll scf.for loops with a larger constant trip "
              "count; without the cost model, unroll all others (0 disables "
              "unrolling)">,
       Option<"costModel", "cost-model", "bool", /*default=*/"true",
              "decide unrolling, tabulation and code motion by the cost model">,
       Option<"unrollThreshold", "unroll-threshold", "unsigned",
              /*default=*/"300",
              "cost-model full-unroll threshold (TCK_SizeAndLatency units of "
              "the folded unrolled code, LLVM's -O3 value)">,
       Option<"unrollMaxPercentThresholdBoost",
              "unroll-max-percent-threshold-boost", "unsigned",
              /*default=*/"400",
              "most the threshold grows (percent) by the share of work folded">,
       Option<"maxTableBytes", "max-table-bytes", "unsigned",
              /*default=*/"16384",
              "largest table of per-iteration values of math calls (0 disables "
              "tabulation)">,
       Option<
           "foldUnannotatedScalars", "fold-unannotated-scalars", "bool",
           /*default=*/"true",
           "also specialize on unmarked scalar arguments that a launch passes "
           "as constants">,
       Option<"eraseReplacedKernels", "erase-replaced-kernels", "bool",
              /*default=*/"false",
              "erase a kernel whose launches were all retargeted to "
              "specializations and that nothing else in the module names (a "
              "whole program, as offload-run's: no other code can launch it)">,
  ];
}

def OffloadEmbedMLIR : Pass<"offload-embed-mlir", "ModuleOp"> {
  let summary = "embed gpu.modules as MLIR bytecode, for run-time specialization";
  let description = [{
    Replaces every `gpu.module` by a `gpu.binary` of the same name whose
    single object holds the module (inside a `builtin.module`) as MLIR
    bytecode, with the property `offload.jit`:

    ```mlir
    gpu.binary @kernels [#gpu.object<#offload.host, properties = {offload.jit},
                                     offload = "ML\EFR...">]
    ```

    `convert-offload-to-llvm` lowers launches of such kernels to
    `offloadJITLaunchKernel` (libOffloadJIT), which specializes each kernel at
    launch on the values of its runtime constants and its block size, and
    caches the compiled code in memory and on disk. The object's target is the
    module's first target, or `#offload.host` when it has none.
  }];
  let dependentDialects = ["::mlir::offload::OffloadDialect",
                           "::mlir::gpu::GPUDialect"];
}

#endif // OFFLOAD_TRANSFORMS_PASSES_TD
