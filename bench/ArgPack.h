//===- ArgPack.h - Packed kernel argument buffers ---------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The packed argument buffer of a host kernel launch (docs/HostTarget.md),
// built argument by argument. Shared by the benchmarks of bench/ and their
// correctness tests.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_BENCH_ARGPACK_H
#define OFFLOAD_BENCH_ARGPACK_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

namespace offload_bench {

/// A kernel's packed argument buffer: every argument lowered (memref =
/// allocated ptr, aligned ptr, offset, sizes[rank], strides[rank]; index =
/// i64) and laid out as a C struct at natural alignment (docs/HostTarget.md).
class ArgPack {
public:
  template <typename T> ArgPack &scalar(T Value) {
    append(&Value, sizeof(T), alignof(T));
    return *this;
  }
  ArgPack &index(int64_t Value) { return scalar<int64_t>(Value); }
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
  size_t size() const {
    return (Bytes.size() + MaxAlign - 1) / MaxAlign * MaxAlign;
  }

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
    int64_t Last = Offset;
    for (size_t I = 0; I < Sizes.size(); ++I)
      Last += (Sizes[I] - 1) * Strides[I];
    M.Bytes = ElementSize * static_cast<size_t>(Last + 1);
    for (int64_t Size : Sizes)
      if (Size == 0)
        M.Bytes = 0;
    M.AllocatedOffset = append(&Data, sizeof(Data), alignof(void *));
    M.AlignedOffset = append(&Data, sizeof(Data), alignof(void *));
    Memrefs.push_back(M);
    index(Offset);
    for (int64_t Size : Sizes)
      index(Size);
    for (int64_t Stride : Strides)
      index(Stride);
    return *this;
  }
  size_t append(const void *Value, size_t Size, size_t Align) {
    size_t Offset = (Bytes.size() + Align - 1) / Align * Align;
    Bytes.resize(Offset + Size);
    std::memcpy(Bytes.data() + Offset, Value, Size);
    MaxAlign = std::max(MaxAlign, Align);
    return Offset;
  }
  std::vector<char> Bytes;
  std::vector<MemrefArg> Memrefs;
  size_t MaxAlign = 1;
};

} // namespace offload_bench

#endif // OFFLOAD_BENCH_ARGPACK_H
