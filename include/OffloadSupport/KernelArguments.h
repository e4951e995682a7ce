//===- KernelArguments.h - The packed kernel argument layout ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The layout of a kernel's packed argument buffer (what offloadLaunchKernel
// takes) and the launch-size rule, written once for every component that
// builds, reads or checks such a buffer: convert-offload-to-llvm (which packs
// the buffer as an LLVM struct, see below), the host kernel descriptor
// (convert-gpu-to-offload-host), the runtime (offloadCheckLaunchSizes,
// offloadLaunchKernelWithArguments), the JIT (lib/JIT/KernelArguments.cpp,
// through the MLIR adapter OffloadDialect/Support/KernelArguments.h), the
// Python binding, MGPU and the benchmarks' ArgPack.
//
// The layout. A kernel's arguments are lowered to fields, in order:
//  - a ranked memref of rank R: 3 + 2R fields of 8 bytes: the allocated
//    pointer, the aligned pointer, the offset, sizes[R], strides[R] (offset,
//    sizes and strides in elements, int64_t): MLIR's memref descriptor
//    (StridedMemRefType), expanded field by field;
//  - index: 8 bytes (int64_t);
//  - an integer or floating-point scalar of B bits: N = ceil(B / 8) bytes
//    rounded up to a power of two, at that alignment (i1 takes a byte, i24
//    four, f80 sixteen); beyond 16 bytes, N rounded up to a multiple of 16
//    at alignment 16 (i256 takes 32 bytes, i264 48): how LLVM's x86-64 and
//    AArch64 data layouts place integers wider than i128;
//  - a pointer (!llvm.ptr of any address space): 8 bytes.
// Each field is placed at the next offset that is a multiple of its
// alignment; the buffer's size is the end of the last field rounded up to the
// largest alignment (0 for a kernel without arguments). That is the layout of
// the non-packed C struct, and of the LLVM struct convert-offload-to-llvm
// builds, on the 64-bit hosts the runtime supports (KernelArgumentsTest
// checks the lowering against it).
//
// A memref's fields are all 8 bytes and its first one is 8-aligned, so its
// descriptor is contiguous in the buffer: field K lies at the first field's
// offset + 8K (writeMemRefDescriptor, readMemRefDescriptor).
//
// The runtime's symbol queries (OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS,
// ARGUMENT_OFFSETS, ARGUMENT_SIZES) and MGPU's params count fields, not
// source-level arguments: a memref of rank R is 3 + 2R of them.
//
// Launch sizes: each grid and block dimension is at least 1 and fits the
// 32 bits of offload_kernel_launch_size_args_t (isValidLaunchSize).
//
// Header-only, standard library only: the runtime (which links no MLIR), MGPU
// and the Python extension include it as well as the compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADSUPPORT_KERNELARGUMENTS_H
#define OFFLOADSUPPORT_KERNELARGUMENTS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace offload::kernelargs {

//===----------------------------------------------------------------------===//
// Fields
//===----------------------------------------------------------------------===//

/// Bytes of a pointer field, of an index field and of each field of a memref
/// descriptor (and their alignment).
inline constexpr uint64_t kPointerSize = 8;
inline constexpr uint64_t kIndexSize = 8;
inline constexpr uint64_t kDescriptorFieldSize = 8;
/// The largest alignment of a scalar field (i128, f128 and wider).
inline constexpr uint64_t kMaxScalarAlignment = 16;

/// Size and alignment of one field, in bytes.
struct FieldType {
  uint64_t Size = 0;
  uint64_t Align = 1;
};

/// The smallest power of two >= \p V (1 for 0).
constexpr uint64_t powerOf2Ceil(uint64_t V) {
  uint64_t P = 1;
  while (P < V)
    P <<= 1;
  return P;
}

/// \p Offset rounded up to a multiple of \p Align (positive).
constexpr uint64_t alignTo(uint64_t Offset, uint64_t Align) {
  return (Offset + Align - 1) / Align * Align;
}

/// An integer or floating-point scalar of \p Bits bits (see the file
/// comment): i1 and i8 take 1 byte, i24 and i32 4, f80 16, i256 32 and i264
/// 48 at alignment 16.
constexpr FieldType getScalarField(uint64_t Bits) {
  uint64_t Bytes = std::max<uint64_t>(1, (Bits + 7) / 8);
  if (Bytes > kMaxScalarAlignment)
    return {alignTo(Bytes, kMaxScalarAlignment), kMaxScalarAlignment};
  return {powerOf2Ceil(Bytes), powerOf2Ceil(Bytes)};
}
constexpr FieldType getIndexField() { return {kIndexSize, kIndexSize}; }
constexpr FieldType getPointerField() { return {kPointerSize, kPointerSize}; }

/// The fields of a ranked memref descriptor of rank \p Rank, and where each
/// one is among them.
constexpr uint64_t getMemRefFieldCount(uint64_t Rank) { return 3 + 2 * Rank; }
inline constexpr unsigned kAllocatedPointerField = 0;
inline constexpr unsigned kAlignedPointerField = 1;
inline constexpr unsigned kOffsetField = 2;
constexpr uint64_t getSizeField(uint64_t Dim) { return 3 + Dim; }
constexpr uint64_t getStrideField(uint64_t Rank, uint64_t Dim) {
  return 3 + Rank + Dim;
}
/// Bytes of a memref descriptor of rank \p Rank (contiguous in the buffer).
constexpr uint64_t getMemRefDescriptorSize(uint64_t Rank) {
  return getMemRefFieldCount(Rank) * kDescriptorFieldSize;
}

/// Where one field lies in the buffer, in bytes.
struct Field {
  uint64_t Offset = 0;
  uint64_t Size = 0;
};

/// The layout of a packed argument buffer, built argument by argument in the
/// kernel's order. Each add function returns the index of the argument's
/// first field in getFields().
class ArgumentLayout {
public:
  unsigned addField(FieldType Type) {
    uint64_t Offset = alignTo(End, Type.Align);
    Fields.push_back({Offset, Type.Size});
    End = Offset + Type.Size;
    MaxAlign = std::max(MaxAlign, Type.Align);
    return unsigned(Fields.size() - 1);
  }
  unsigned addScalar(uint64_t Bits) { return addField(getScalarField(Bits)); }
  unsigned addIndex() { return addField(getIndexField()); }
  unsigned addPointer() { return addField(getPointerField()); }
  /// A ranked memref of rank \p Rank: its 3 + 2 * Rank descriptor fields.
  unsigned addMemRef(uint64_t Rank) {
    unsigned First = addPointer();
    addPointer();
    for (uint64_t I = 2; I < getMemRefFieldCount(Rank); ++I)
      addField({kDescriptorFieldSize, kDescriptorFieldSize});
    return First;
  }

  const std::vector<Field> &getFields() const { return Fields; }
  /// The size of the buffer: the struct's size, with its tail padding.
  uint64_t getSize() const { return alignTo(End, MaxAlign); }
  /// The end of the last field (the parameters' bytes, without the tail
  /// padding; a launch may pass either size).
  uint64_t getUnpaddedSize() const { return End; }
  /// The buffer's alignment: the largest of its fields'.
  uint64_t getAlignment() const { return MaxAlign; }

private:
  std::vector<Field> Fields;
  uint64_t End = 0;
  uint64_t MaxAlign = 1;
};

//===----------------------------------------------------------------------===//
// Writing and reading a buffer
//===----------------------------------------------------------------------===//

/// Writes a memref descriptor at \p Out, the place of its first field:
/// \p Allocated, \p Aligned, \p Offset, then \p Rank sizes and strides
/// (elements).
inline void writeMemRefDescriptor(void *Out, const void *Allocated,
                                  const void *Aligned, int64_t Offset,
                                  const int64_t *Sizes, const int64_t *Strides,
                                  uint64_t Rank) {
  char *P = static_cast<char *>(Out);
  std::memcpy(P + kAllocatedPointerField * kDescriptorFieldSize, &Allocated,
              kPointerSize);
  std::memcpy(P + kAlignedPointerField * kDescriptorFieldSize, &Aligned,
              kPointerSize);
  std::memcpy(P + kOffsetField * kDescriptorFieldSize, &Offset, 8);
  if (Rank) {
    std::memcpy(P + getSizeField(0) * kDescriptorFieldSize, Sizes, 8 * Rank);
    std::memcpy(P + getStrideField(Rank, 0) * kDescriptorFieldSize, Strides,
                8 * Rank);
  }
}

/// A memref descriptor read from a buffer (or from memory: a
/// StridedMemRefType has the same layout).
struct MemRefDescriptor {
  char *Allocated = nullptr;
  char *Aligned = nullptr;
  int64_t Offset = 0;
  std::vector<int64_t> Sizes, Strides;
};

/// Reads the descriptor of rank \p Rank whose first field is at \p Fields.
inline MemRefDescriptor readMemRefDescriptor(const void *Fields,
                                             uint64_t Rank) {
  const char *P = static_cast<const char *>(Fields);
  MemRefDescriptor D;
  std::memcpy(&D.Allocated, P + kAllocatedPointerField * kDescriptorFieldSize,
              kPointerSize);
  std::memcpy(&D.Aligned, P + kAlignedPointerField * kDescriptorFieldSize,
              kPointerSize);
  std::memcpy(&D.Offset, P + kOffsetField * kDescriptorFieldSize, 8);
  D.Sizes.resize(Rank);
  D.Strides.resize(Rank);
  if (Rank) {
    std::memcpy(D.Sizes.data(), P + getSizeField(0) * kDescriptorFieldSize,
                8 * Rank);
    std::memcpy(D.Strides.data(),
                P + getStrideField(Rank, 0) * kDescriptorFieldSize, 8 * Rank);
  }
  return D;
}

/// The elements a memref's sizes and strides reach, relative to its offset:
/// from Low to High (inclusive; Low < 0 only with negative strides). Empty
/// when a size is 0 (Low = High = 0 then).
struct MemRefExtent {
  int64_t Low = 0, High = 0;
  bool Empty = false;
};

/// Computes the extent of \p Rank sizes and strides; false when a size is
/// negative or the extent overflows int64_t (a corrupt descriptor).
inline bool getMemRefExtent(uint64_t Rank, const int64_t *Sizes,
                            const int64_t *Strides, MemRefExtent &Out) {
  Out = MemRefExtent();
  for (uint64_t D = 0; D < Rank; ++D) {
    if (Sizes[D] < 0)
      return false;
    if (Sizes[D] == 0)
      Out.Empty = true;
  }
  if (Out.Empty)
    return true;
  for (uint64_t D = 0; D < Rank; ++D) {
    int64_t Extent;
    if (__builtin_mul_overflow(Sizes[D] - 1, Strides[D], &Extent))
      return false;
    int64_t &Bound = Extent < 0 ? Out.Low : Out.High;
    if (__builtin_add_overflow(Bound, Extent, &Bound))
      return false;
  }
  return true;
}

/// The size of the buffer a launch through a recorded layout packs:
/// \p BufferSize (the kernel's, when known, else 0) or the end of its last
/// field if that is further.
inline uint64_t getPackedSize(const uint64_t *Offsets, const uint64_t *Sizes,
                              size_t Count, uint64_t BufferSize) {
  for (size_t I = 0; I < Count; ++I)
    BufferSize = std::max(BufferSize, Offsets[I] + Sizes[I]);
  return BufferSize;
}

/// The first field of a recorded layout that does not lie inside a buffer of
/// \p BufferSize bytes, or \p Count when they all do.
inline size_t findFieldOutside(const uint64_t *Offsets, const uint64_t *Sizes,
                               size_t Count, uint64_t BufferSize) {
  for (size_t I = 0; I < Count; ++I)
    if (Sizes[I] > BufferSize || Offsets[I] > BufferSize - Sizes[I])
      return I;
  return Count;
}

/// Copies field I's value, \p Sizes[I] bytes at \p Values[I] (each
/// non-null), to \p Offsets[I] of \p Buffer.
inline void packFields(void *Buffer, const uint64_t *Offsets,
                       const uint64_t *Sizes, size_t Count,
                       const void *const *Values) {
  for (size_t I = 0; I < Count; ++I)
    std::memcpy(static_cast<char *>(Buffer) + Offsets[I], Values[I], Sizes[I]);
}

//===----------------------------------------------------------------------===//
// Launch sizes
//===----------------------------------------------------------------------===//

/// The largest grid or block dimension: the 32 bits of
/// offload_kernel_launch_size_args_t's NumGroups and GroupSize.
inline constexpr int64_t kMaxLaunchSize = 4294967295;

/// Whether \p Size may be a grid (blocks) or block (threads) dimension.
constexpr bool isValidLaunchSize(int64_t Size) {
  return Size >= 1 && Size <= kMaxLaunchSize;
}

/// How the messages that reject a launch size state the rule (after "; ").
#define OFFLOAD_LAUNCH_SIZE_RULE "launch sizes must be between 1 and 4294967295"

} // namespace offload::kernelargs

#endif // OFFLOADSUPPORT_KERNELARGUMENTS_H
