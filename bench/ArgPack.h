//===- ArgPack.h - Packed kernel argument buffers ---------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The packed argument buffer of a kernel launch, built argument by argument
// with the project's one layout (OffloadSupport/KernelArguments.h). Shared by
// the benchmarks of bench/ and their correctness tests.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_ARGPACK_H
#define OFFLOAD_BENCH_ARGPACK_H

#include "OffloadSupport/KernelArguments.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <vector>

namespace offload_bench {

/// A kernel's packed argument buffer: every argument lowered (memref =
/// allocated ptr, aligned ptr, offset, sizes[rank], strides[rank]; index =
/// i64) and laid out as OffloadSupport/KernelArguments.h describes.
class ArgPack {
public:
  template <typename T> ArgPack &scalar(T Value) {
    static_assert(std::is_arithmetic_v<T> || std::is_pointer_v<T>,
                  "a scalar or a pointer");
    if constexpr (std::is_pointer_v<T>)
      store(Layout.addPointer(), &Value, sizeof(T));
    else
      store(Layout.addScalar(8 * sizeof(T)), &Value, sizeof(T));
    return *this;
  }
  ArgPack &index(int64_t Value) {
    store(Layout.addIndex(), &Value, sizeof(Value));
    return *this;
  }
  /// A memref with the identity (row-major) layout over \p Data.
  template <typename T>
  ArgPack &memref(T *Data, std::initializer_list<int64_t> Sizes) {
    return memrefRaw(Data, std::vector<int64_t>(Sizes), sizeof(T));
  }

  /// A memref with an explicit layout: offset and strides in elements
  /// (`memref<?x?xT, strided<[?, 1], offset: ?>>`), over \p Data (the
  /// allocated and aligned pointer; element Offset is the memref's first).
  template <typename T>
  ArgPack &stridedMemref(T *Data, int64_t Offset,
                         std::initializer_list<int64_t> Sizes,
                         std::initializer_list<int64_t> Strides) {
    return memrefRaw(Data, std::vector<int64_t>(Sizes), sizeof(T), Offset,
                     std::vector<int64_t>(Strides));
  }

  /// Where a memref argument's buffer is: the offsets of its allocated and
  /// aligned pointers in the buffer, the host data and its size in bytes
  /// (so that a GPU benchmark can copy it to device memory and point the
  /// arguments there, see withPointers).
  struct MemrefArg {
    size_t AllocatedOffset, AlignedOffset;
    void *Data;
    size_t Bytes;
  };
  const std::vector<MemrefArg> &memrefs() const { return Memrefs; }
  /// The argument buffer with memref I's pointers replaced by Pointers[I].
  std::vector<char> withPointers(const std::vector<void *> &Pointers) const {
    std::vector<char> Copy(size(), 0);
    std::memcpy(Copy.data(), Bytes.data(), Bytes.size());
    for (size_t I = 0; I < Memrefs.size() && I < Pointers.size(); ++I) {
      std::memcpy(Copy.data() + Memrefs[I].AllocatedOffset, &Pointers[I],
                  sizeof(void *));
      std::memcpy(Copy.data() + Memrefs[I].AlignedOffset, &Pointers[I],
                  sizeof(void *));
    }
    return Copy;
  }
  const void *data() const { return Bytes.data(); }
  /// The size of the struct: its fields rounded up to its alignment.
  size_t size() const { return Layout.getSize(); }

private:
  ArgPack &memrefRaw(void *Data, const std::vector<int64_t> &Sizes,
                     size_t ElementSize, int64_t Offset = 0,
                     std::vector<int64_t> Strides = {}) {
    if (Strides.empty()) {
      Strides.assign(Sizes.size(), 1);
      for (size_t I = Sizes.size(); I-- > 1;)
        Strides[I - 1] = Strides[I] * Sizes[I];
    }
    MemrefArg M{};
    M.Data = Data;
    // The bytes up to the last element (what a GPU benchmark copies).
    offload::kernelargs::MemRefExtent Extent;
    offload::kernelargs::getMemRefExtent(Sizes.size(), Sizes.data(),
                                         Strides.data(), Extent);
    M.Bytes = Extent.Empty
                  ? 0
                  : ElementSize * static_cast<size_t>(Offset + Extent.High + 1);
    unsigned First = Layout.addMemRef(Sizes.size());
    M.AllocatedOffset =
        Layout.getFields()[First + offload::kernelargs::kAllocatedPointerField]
            .Offset;
    M.AlignedOffset =
        Layout.getFields()[First + offload::kernelargs::kAlignedPointerField]
            .Offset;
    // The whole struct, tail padding included (what size() reports).
    Bytes.resize(Layout.getSize());
    offload::kernelargs::writeMemRefDescriptor(Bytes.data() + M.AllocatedOffset,
                                               Data, Data, Offset, Sizes.data(),
                                               Strides.data(), Sizes.size());
    Memrefs.push_back(M);
    return *this;
  }
  void store(unsigned Field, const void *Value, size_t Size) {
    Bytes.resize(Layout.getSize());
    std::memcpy(Bytes.data() + Layout.getFields()[Field].Offset, Value, Size);
  }
  offload::kernelargs::ArgumentLayout Layout;
  std::vector<char> Bytes;
  std::vector<MemrefArg> Memrefs;
};

} // namespace offload_bench

#endif // OFFLOAD_BENCH_ARGPACK_H
