//===- PrivateAllocaScopes.h - Alias scopes of private allocas --*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Alias scope metadata that tells LLVM the memory of an `llvm.alloca` whose
// address never escapes from every other memory access of its function.
// LLVM proves this itself by capture tracking, but gives up on a pointer of
// more than `-capture-tracking-max-uses-to-explore` uses (100): the host
// kernels' per-thread arrays (offload-host-thread-loops) reach that in the
// edge-block code LLVM unrolls, and LICM then keeps their stores in loops
// that also read the kernel's buffers (docs/HostTarget.md).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_PRIVATEALLOCASCOPES_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_PRIVATEALLOCASCOPES_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir {
namespace offload {

/// Annotates the memory accesses of \p func (the ops of
/// LLVM::AliasAnalysisOpInterface: loads, stores, atomics, memcpy, memmove,
/// memset; not calls) with one alias scope of a new domain, "private allocas of
/// @func": an access whose pointers are all based on a private alloca gets
/// the scope in its `alias_scopes`, one whose pointers are based on none
/// gets it in its `noalias_scopes`, one with both kinds is left alone. The
/// scopes are appended to those an op already has.
///
/// An alloca is private when every value derived from its address (through
/// `llvm.getelementptr`, and through the memref descriptors the memref
/// lowering builds: `llvm.insertvalue` into an aggregate, `llvm.extractvalue`
/// of exactly that position) is only used as the accessed address of a
/// memory op (not a stored value), as the pointer of a masked load or store,
/// or by lifetime markers. Any other use (a call argument, a store of the
/// address, `llvm.ptrtoint`, a branch operand, a select, a return) makes it
/// escape, and it is not annotated. No pointer of the function that is not
/// derived that way can then point into the alloca (LLVM's capture rule), so
/// the annotation is sound whatever else the function does.
///
/// Returns the number of private allocas found (0: nothing was changed).
/// Linear in the size of the function.
unsigned annotatePrivateAllocaScopes(LLVM::LLVMFuncOp func);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_PRIVATEALLOCASCOPES_H
