//===- KernelArguments.cpp - Kernel argument layout of MLIR types ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadSupport/MLIRKernelArguments.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

namespace offload::kernelargs {

std::optional<FieldType> getFieldType(Type Ty) {
  if (isa<IndexType>(Ty))
    return getIndexField();
  if (auto Int = dyn_cast<IntegerType>(Ty))
    return getScalarField(Int.getWidth());
  if (auto Float = dyn_cast<FloatType>(Ty))
    return getScalarField(Float.getWidth());
  if (isa<LLVM::LLVMPointerType>(Ty))
    return getPointerField();
  return std::nullopt;
}

std::optional<unsigned> addArgument(ArgumentLayout &Layout, Type Ty) {
  if (auto MemRef = dyn_cast<MemRefType>(Ty))
    return Layout.addMemRef(MemRef.getRank());
  if (std::optional<FieldType> Field = getFieldType(Ty))
    return Layout.addField(*Field);
  return std::nullopt;
}

} // namespace offload::kernelargs
