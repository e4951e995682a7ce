//===- Passes.td - Offload conversion passes --------------*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_CONVERSION_PASSES_TD
#define OFFLOAD_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGPUToOffload : Pass<"convert-gpu-to-offload", "ModuleOp"> {
  let summary = "convert host-side gpu ops to offload ops";
  let description = [{
    Rewrites the host-side operations of the `gpu` dialect into `offload`
    ops so that unmodified upstream gpu programs run on the offload runtime:

    - `gpu.launch_func` -> `offload.launch` (synchronous, or on the queue of
      its async dependencies when it has them);
    - `gpu.alloc` -> `offload.alloc device` (`host_shared` -> `managed`),
      `gpu.dealloc` -> `offload.free`;
    - `gpu.memcpy` -> `offload.memcpy`, `gpu.memset` -> `offload.memfill`;
    - `gpu.host_register` / `gpu.host_unregister` -> `offload.host_register`
      / `offload.host_unregister`;
    - `!gpu.async.token` values become `!offload.queue`s (also through
      function signatures, calls, `scf` and `cf` ops): an async op runs on
      the queue of its first dependency (a new queue without dependencies)
      after waiting on events recorded on the others, and its token is that
      queue; a synchronous op with dependencies does the same, then
      synchronizes the queue (`gpu.alloc` / `gpu.dealloc` synchronize their
      dependencies first); `gpu.wait async` creates a queue waiting on its
      dependencies, or reuses its single dependency; a blocking `gpu.wait`
      synchronizes and destroys each queue it waits on.

    Every op uses the device selected by `platform` and `device-index`,
    materialized once per function with `offload.get_device` at the start of
    its entry block (ops nested in regions, e.g. `async.execute`, use it too).
    `gpu.launch` must have been outlined (`gpu-kernel-outlining`); cluster
    launches are not supported.

    ```mlir
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%buf : memref<?xf32>)
    // becomes
    %dev = offload.get_device host 0
    offload.launch @kernels::@k on %dev blocks in (%c1, %c1, %c1)
        threads in (%c4, %c1, %c1) args(%buf : memref<?xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::offload::OffloadDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"platform", "platform", "std::string", /*default=*/"\"host\"",
           "platform of the device: host, cuda, hip or any">,
    Option<"deviceIndex", "device-index", "unsigned", /*default=*/"0",
           "index of the device within its platform">,
  ];
}

def ConvertOffloadToLLVM : Pass<"convert-offload-to-llvm", "ModuleOp"> {
  let summary = "lower offload ops to calls into the offload runtime C API";
  let description = [{
    Lowers host-side `offload` ops to LLVM dialect calls into the C API of
    `include/OffloadRuntime/OffloadAPI.h` (one declaration table mirrors the
    header), and `gpu.binary` ops to constant globals holding the device
    image. Kernel arguments are packed into one buffer laid out as an LLVM
    struct of the lowered argument types (memrefs expanded into allocated
    pointer, aligned pointer, offset, sizes and strides); the host target's
    kernels unpack the same layout. A runtime call that fails prints the
    runtime's code and message to stderr and aborts the program
    (`offloadAbortOnError`).

    Launches must refer to a `gpu.binary` (run `gpu-module-to-binary`
    first); its object is chosen by the binary's `#gpu.select_object`
    handler (the first one by default). Copies and fills whose size is not
    known at compile time are skipped when empty under an `scf.if`.
    Out-parameters live in allocas at the start of the function (or of an
    `async.execute` body), never in loops.

    Other dialects are left alone; run the usual `convert-*-to-llvm` passes
    (with `convert-scf-to-cf`, or `convert-to-llvm`) afterwards.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def ConvertGPUToOffloadHost : Pass<"convert-gpu-to-offload-host",
                                   "::mlir::gpu::GPUModuleOp"> {
  let summary = "lower gpu kernels to LLVM dialect for the host CPU";
  let description = [{
    Lowers the kernels of a `gpu.module` to LLVM dialect functions following
    the host kernel ABI (`include/OffloadRuntime/HostKernelABI.h`): each
    kernel `K` becomes a per-thread function, a per-block loop over the
    block's threads and a descriptor global `__offload_kernel.K`. Thread and
    block ids come from arguments and the block context; workgroup
    attributions and dynamic shared memory are carved out of the block's
    shared memory; `gpu.barrier` and `gpu.shuffle` call the runtime (and make
    the kernel *cooperative*, run on fibers); `gpu.all_reduce` and
    `gpu.subgroup_reduce` are first rewritten into shuffles and barriers with
    upstream patterns; `gpu.printf` calls `printf`. The subgroup size is 32.
    `offload.runtime_constant` ops that were not specialized become their
    operand.

    Run `gpu-module-to-binary` afterwards with `#offload.host` on the module.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // OFFLOAD_CONVERSION_PASSES_TD
