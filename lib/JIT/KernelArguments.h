//===- KernelArguments.h - Decoding a JIT kernel's arguments ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The packed argument buffer of a JIT kernel as the engine reads it at each
// launch: the descriptors of `contents` memrefs and the attributes that carry
// a runtime constant's launch value into offload-specialize. The layout of its
// fields is the project's one (OffloadSupport/KernelArguments.h, through
// OffloadSupport/MLIRKernelArguments.h for MLIR types).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_KERNELARGUMENTS_H
#define OFFLOAD_LIB_JIT_KERNELARGUMENTS_H

#include "OffloadSupport/MLIRKernelArguments.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace offloadjit {

/// One field of the packed argument buffer.
using Field = ::offload::kernelargs::Field;

/// What the JIT knows about one kernel argument.
struct Argument {
  mlir::Type ArgType;
  unsigned FirstField = 0;
  /// Marked by offload.runtime_constant (and how).
  bool RuntimeConstant = false;
  bool Contents = false;
};

/// Size in bytes of a scalar argument's field or of a memref's element
/// (::offload::kernelargs::getFieldType; 8 for a type without one).
uint64_t getFieldSize(mlir::Type Ty);

/// Where the elements of a `contents` memref argument lie: its descriptor
/// (allocated, aligned, offset, sizes, strides) read from the packed
/// argument buffer. The elements span the footprint [Begin, Begin + Bytes)
/// of device memory; element I (row-major) is at Begin + Positions[I] *
/// ElementSize.
struct ContentsView {
  const char *Begin = nullptr;
  uint64_t Bytes = 0, ElementSize = 0;
  bool Contiguous = true;
  std::vector<int64_t> Positions; // only when not contiguous
};

/// Reads the descriptor of memref argument \p Fields (3 + 2 * rank fields
/// of \p Base) of static shape \p Type. Fails with a message when its sizes
/// are not the type's or its footprint does not fit in memory.
llvm::Expected<ContentsView> getContentsView(mlir::MemRefType Type,
                                             llvm::ArrayRef<Field> Fields,
                                             const char *Base);

/// Builds the attribute of one runtime constant's launch value, for an
/// argument of type \p Ty (of the context that compiles).
mlir::Attribute getValueAttribute(const Argument &Arg, mlir::Type Ty,
                                  llvm::ArrayRef<char> Bytes);

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_KERNELARGUMENTS_H
