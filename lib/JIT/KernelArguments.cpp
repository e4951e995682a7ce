//===- KernelArguments.cpp - Decoding a JIT kernel's arguments ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "KernelArguments.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <algorithm>
#include <cstring>
#include <string>

using namespace mlir;
using namespace offloadjit;

uint64_t offloadjit::getFieldSize(Type Ty) {
  if (std::optional<::offload::kernelargs::FieldType> Field =
          ::offload::kernelargs::getFieldType(Ty))
    return Field->Size;
  return ::offload::kernelargs::kPointerSize;
}

llvm::Expected<ContentsView>
offloadjit::getContentsView(MemRefType Type, llvm::ArrayRef<Field> Fields,
                            const char *Base) {
  ContentsView View;
  View.ElementSize = getFieldSize(Type.getElementType());
  if (Type.getNumElements() == 0)
    return View;
  int64_t Rank = Type.getRank();
  // The descriptor's fields are contiguous from its first one.
  ::offload::kernelargs::MemRefDescriptor Descriptor =
      ::offload::kernelargs::readMemRefDescriptor(Base + Fields[0].Offset,
                                                  Rank);
  int64_t Expected = 1;
  bool Contiguous = true;
  for (int64_t D = Rank - 1; D >= 0; --D) {
    int64_t Size = Descriptor.Sizes[D], Stride = Descriptor.Strides[D];
    if (Size != Type.getDimSize(D))
      return llvm::createStringError(
          "dimension " + std::to_string(D) + " of the memref is " +
          std::to_string(Size) + " at launch but " +
          std::to_string(Type.getDimSize(D)) + " in the kernel's type");
    Contiguous &= Size == 1 || Stride == Expected;
    Expected *= Size;
  }
  // The lowest and highest element positions, relative to the offset.
  ::offload::kernelargs::MemRefExtent Extent;
  if (!::offload::kernelargs::getMemRefExtent(
          Rank, Descriptor.Sizes.data(), Descriptor.Strides.data(), Extent))
    return llvm::createStringError("the memref's strides overflow");
  int64_t Low = Extent.Low, High = Extent.High, Offset = Descriptor.Offset;
  const char *Aligned = Descriptor.Aligned;
  uint64_t Span;
  if (__builtin_add_overflow(uint64_t(High - Low), uint64_t(1), &Span) ||
      __builtin_mul_overflow(Span, View.ElementSize, &View.Bytes) ||
      View.Bytes > (uint64_t(1) << 32))
    return llvm::createStringError("the memref spans more than 4 GiB");
  View.Begin = Aligned + (Offset + Low) * int64_t(View.ElementSize);
  View.Contiguous = Contiguous;
  if (!Contiguous) {
    View.Positions.resize(Type.getNumElements());
    for (int64_t I = 0, E = View.Positions.size(); I < E; ++I) {
      int64_t Position = -Low, Rest = I;
      for (int64_t D = Rank - 1; D >= 0; --D) {
        Position += (Rest % Type.getDimSize(D)) * Descriptor.Strides[D];
        Rest /= Type.getDimSize(D);
      }
      View.Positions[I] = Position;
    }
  }
  return View;
}

Attribute offloadjit::getValueAttribute(const Argument &Arg, Type Ty,
                                        llvm::ArrayRef<char> Bytes) {
  if (Arg.Contents) {
    auto MemRef = cast<MemRefType>(Ty);
    auto Tensor =
        RankedTensorType::get(MemRef.getShape(), MemRef.getElementType());
    return DenseElementsAttr::getFromRawBuffer(Tensor, Bytes);
  }
  uint64_t Raw = 0;
  std::memcpy(&Raw, Bytes.data(), std::min<size_t>(Bytes.size(), 8));
  if (isa<IndexType>(Ty))
    return IntegerAttr::get(Ty, static_cast<int64_t>(Raw));
  if (auto Int = dyn_cast<IntegerType>(Ty))
    return IntegerAttr::get(Ty, llvm::APInt(Int.getWidth(), Raw));
  auto Float = cast<FloatType>(Ty);
  return FloatAttr::get(Ty, llvm::APFloat(Float.getFloatSemantics(),
                                          llvm::APInt(Float.getWidth(), Raw)));
}
