//===- MLIRKernelArguments.h - Argument layout of MLIR types ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The packed argument layout (OffloadSupport/KernelArguments.h) of MLIR
// types: what a kernel argument of a given type contributes to the buffer.
// The JIT (the layout of a gpu.func's arguments) and the host target (the
// layout its kernel descriptor records) use it; it lives in
// MLIROffloadSupport, so the runtime, which links no MLIR, uses the plain
// core only.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADSUPPORT_MLIRKERNELARGUMENTS_H
#define OFFLOADSUPPORT_MLIRKERNELARGUMENTS_H

#include "OffloadSupport/KernelArguments.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace offload::kernelargs {

/// The field of a scalar of type \p Ty: index, a builtin integer or float
/// (the element of a memref takes as many bytes in memory), or an LLVM
/// pointer of any address space. std::nullopt for any other type.
std::optional<FieldType> getFieldType(mlir::Type Ty);

/// Appends the fields of one kernel argument of type \p Ty to \p Layout: a
/// ranked memref's descriptor or a scalar's field (getFieldType). Returns the
/// index of its first field, or std::nullopt (appending nothing) for a type
/// with no packed form here (an unranked memref, a vector, a struct).
std::optional<unsigned> addArgument(ArgumentLayout &Layout, mlir::Type Ty);

} // namespace offload::kernelargs

#endif // OFFLOADSUPPORT_MLIRKERNELARGUMENTS_H
