//===- WorkgroupMemory.h - Per-block workgroup globals ----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Workgroup (shared) memory lives as long as its block on a GPU, and each
// running block has its own. Kernels name it in three ways: workgroup
// attributions of the gpu.func, `gpu.dynamic_shared_memory`, and globals in
// the workgroup address space (`memref.global` in
// `#gpu.address_space<workgroup>` or memory space 3, as numba-cuda emits for
// `cuda.shared.array`; `llvm.mlir.global` with `addr_space = 3`, as FlyDSL
// emits). The host lowering gives each running block its own copy of the
// first two; the functions here turn the third into the first.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_WORKGROUPMEMORY_H
#define OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_WORKGROUPMEMORY_H

#include "mlir/Support/LLVM.h"

namespace mlir {
class Attribute;
namespace gpu {
class GPUModuleOp;
} // namespace gpu
namespace offload {

/// The address space number of workgroup memory in the LLVM dialect (NVVM's
/// and AMDGPU's "shared"/"local" address space).
inline constexpr unsigned kLLVMWorkgroupAddressSpace = 3;

/// Whether \p memorySpace, a memref's memory space, is workgroup memory:
/// `#gpu.address_space<workgroup>` or the integer 3.
bool isWorkgroupMemorySpace(Attribute memorySpace);

/// Turns every workgroup global of \p module into a workgroup attribution of
/// each kernel that reaches it (directly or through device functions, which
/// get it as trailing arguments), and erases the globals. Emits a diagnostic
/// and fails for globals this cannot express (dynamic shapes, layouts,
/// alignments above 16 bytes, references other than get_global/addressof in
/// kernels and directly called `func.func`s). Does nothing to a module
/// without workgroup globals; running it twice is the same as once.
LogicalResult privatizeWorkgroupGlobals(gpu::GPUModuleOp module);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_TRANSFORMS_HOSTKERNEL_WORKGROUPMEMORY_H
