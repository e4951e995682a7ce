//===- HandleTable.h - Handles that never name a later object ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The objects behind the C API's opaque handles live in the slots of one
// table per kind. A handle is its slot's address with the slot's generation
// in the top 16 bits (user-space addresses have 48 bits on x86-64 and
// AArch64). Destroying an object frees its slot, and the next object made
// in it gets the next generation: a handle of a destroyed object never
// equals the handle of a later one, so it stays stale (INVALID_<KIND>) for
// good. A slot whose generation is used up (65,535 objects) is retired,
// never reused. The tables live as long as the process (they are never
// destroyed), so a handle from before an offloadShutDown is stale after the
// next offloadInit too.
//
// Costs: unwrapping a handle into its object is one AND, without a lookup or
// a lock (what every entry point pays with validation off, offloadLaunchKernel
// included). Checking a handle (validation) reads the bounds of a few chunks
// of slots and the slot's state, without a lock. Creating and destroying take
// the table's mutex.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_HANDLETABLE_H
#define OFFLOADRUNTIME_LIB_HANDLETABLE_H

#include "OffloadSupport/Error.h"

#include "llvm/Support/Compiler.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace offload {

namespace detail {
static_assert(sizeof(void *) == 8, "handles keep a generation in 16 bits of "
                                   "a 64-bit pointer");
/// Bits 48-63 of a handle hold its generation, bits 0-47 its slot's address.
constexpr unsigned HandleGenerationShift = 48;
constexpr uintptr_t HandleAddressMask =
    (uintptr_t(1) << HandleGenerationShift) - 1;
/// The last generation of a slot; generation 0 is never issued.
constexpr uint32_t MaxHandleGeneration = 0xFFFF;
} // namespace detail

/// The objects of one kind of handle \p HandleT (an opaque pointer type of
/// the C API), of type \p T. One process-wide instance per kind: get().
template <typename T, typename HandleT> class HandleTable {
  struct Slot {
    /// First, so that a slot's address is its object's.
    alignas(T) unsigned char Storage[sizeof(T)];
    /// Generation << 1 | 1 while an object lives in the slot, Generation << 1
    /// after (0: never used).
    std::atomic<uint32_t> State{0};
    Slot *NextFree = nullptr;

    T *object() { return std::launder(reinterpret_cast<T *>(Storage)); }
  };

public:
  /// Destroys an object taken out of the table and frees its slot.
  struct Deleter {
    void operator()(T *Object) const { get().destroy(Object); }
  };
  using Owned = std::unique_ptr<T, Deleter>;

  /// The table of this kind; never destroyed.
  static HandleTable &get() {
    static HandleTable *Table = new HandleTable();
    return *Table;
  }

  /// Makes T(Args...) in a free slot and returns its handle.
  template <typename... ArgTs> llvm::Expected<HandleT> create(ArgTs &&...Args) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Slot *S = FreeSlots;
    if (S) {
      FreeSlots = S->NextFree;
    } else if (!(S = newSlot())) {
      return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                         "cannot allocate memory for a handle");
    }
    uint32_t Generation = (S->State.load(std::memory_order_relaxed) >> 1) + 1;
    new (S->Storage) T(std::forward<ArgTs>(Args)...);
    S->State.store(Generation << 1 | 1, std::memory_order_release);
    return reinterpret_cast<HandleT>(reinterpret_cast<uintptr_t>(S) |
                                     uintptr_t(Generation)
                                         << detail::HandleGenerationShift);
  }

  /// The object of \p Handle, which must be live (checked with isLive, or
  /// promised by a caller that disabled validation).
  LLVM_ATTRIBUTE_ALWAYS_INLINE static T &unwrap(HandleT Handle) {
    return *reinterpret_cast<Slot *>(reinterpret_cast<uintptr_t>(Handle) &
                                     detail::HandleAddressMask)
                ->object();
  }

  /// Whether \p Handle, any value, is the handle of a live object. Never
  /// dereferences anything but the table's own slots.
  bool isLive(HandleT Handle) const {
    const Slot *S = findSlot(Handle);
    return S && S->State.load(std::memory_order_acquire) ==
                    (generationOf(Handle) << 1 | 1);
  }

  /// Ends the life of \p Handle's object: from now on isLive(Handle) is
  /// false. Returns the object, destroyed when the result is; null if
  /// \p Handle is not live (also if another thread took it first).
  Owned take(HandleT Handle) {
    Slot *S = findSlot(Handle);
    if (!S)
      return nullptr;
    uint32_t Generation = generationOf(Handle);
    uint32_t Live = Generation << 1 | 1;
    if (!S->State.compare_exchange_strong(Live, Generation << 1,
                                          std::memory_order_acq_rel))
      return nullptr;
    return Owned(S->object());
  }

  /// take() of every live object.
  std::vector<Owned> takeAll() {
    std::vector<Owned> Result;
    unsigned N = NumChunks.load(std::memory_order_acquire);
    for (unsigned I = 0; I < N; ++I) {
      Slot *Chunk = Chunks[I].load(std::memory_order_relaxed);
      for (size_t J = 0, E = chunkSlots(I); J < E; ++J) {
        uint32_t State = Chunk[J].State.load(std::memory_order_acquire);
        if ((State & 1) && Chunk[J].State.compare_exchange_strong(
                               State, State & ~1u, std::memory_order_acq_rel))
          Result.push_back(Owned(Chunk[J].object()));
      }
    }
    return Result;
  }

private:
  HandleTable() = default;

  /// Chunk I has FirstChunkSlots << I slots: memory grows with the most
  /// objects alive at once (and the few retired slots).
  static constexpr size_t FirstChunkSlots = 16;
  static constexpr unsigned MaxChunks = 40;
  static size_t chunkSlots(unsigned I) { return FirstChunkSlots << I; }

  static uint32_t generationOf(HandleT Handle) {
    return uint32_t(reinterpret_cast<uintptr_t>(Handle) >>
                    detail::HandleGenerationShift);
  }

  /// The slot \p Handle's address names, if it is one of the table's.
  Slot *findSlot(HandleT Handle) const {
    uintptr_t Address =
        reinterpret_cast<uintptr_t>(Handle) & detail::HandleAddressMask;
    if (generationOf(Handle) == 0)
      return nullptr;
    unsigned N = NumChunks.load(std::memory_order_acquire);
    for (unsigned I = 0; I < N; ++I) {
      uintptr_t Offset = Address - reinterpret_cast<uintptr_t>(Chunks[I].load(
                                       std::memory_order_relaxed));
      if (Offset < chunkSlots(I) * sizeof(Slot))
        return Offset % sizeof(Slot) ? nullptr
                                     : reinterpret_cast<Slot *>(Address);
    }
    return nullptr;
  }

  /// A slot never used before; null without memory. Mutex is held.
  Slot *newSlot() {
    unsigned N = NumChunks.load(std::memory_order_relaxed);
    if (N == 0 || UsedInLastChunk == chunkSlots(N - 1)) {
      if (N == MaxChunks)
        return nullptr;
      Slot *Chunk = new (std::nothrow) Slot[chunkSlots(N)];
      if (!Chunk)
        return nullptr;
      // The generation needs the top 16 bits of the address.
      if ((reinterpret_cast<uintptr_t>(Chunk + chunkSlots(N)) &
           ~detail::HandleAddressMask) != 0) {
        delete[] Chunk;
        return nullptr;
      }
      Chunks[N].store(Chunk, std::memory_order_relaxed);
      NumChunks.store(++N, std::memory_order_release);
      UsedInLastChunk = 0;
    }
    return &Chunks[N - 1].load(std::memory_order_relaxed)[UsedInLastChunk++];
  }

  /// The Deleter: destroys \p Object and frees its slot, or retires it when
  /// its generations are used up.
  void destroy(T *Object) {
    Slot *S = reinterpret_cast<Slot *>(Object);
    Object->~T();
    std::lock_guard<std::mutex> Lock(Mutex);
    if ((S->State.load(std::memory_order_relaxed) >> 1) ==
        detail::MaxHandleGeneration)
      return;
    S->NextFree = FreeSlots;
    FreeSlots = S;
  }

  std::mutex Mutex;
  /// Chunks of slots, published for lock-free checks: Chunks[I] is written
  /// before NumChunks becomes I + 1, and never changes after.
  std::atomic<Slot *> Chunks[MaxChunks] = {};
  std::atomic<unsigned> NumChunks{0};
  /// Slots of the last chunk handed out so far; Mutex guards it.
  size_t UsedInLastChunk = 0;
  /// Freed slots, most recently freed first; Mutex guards it.
  Slot *FreeSlots = nullptr;
};

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_HANDLETABLE_H
