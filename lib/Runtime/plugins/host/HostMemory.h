//===- HostMemory.h - Host allocations that never reuse an address -*- C++ -*-//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The memory of the host device's offloadMemAlloc. Addresses are handed out
// from large reserved regions in increasing order and never again while the
// process lives, so the address of a freed allocation is never the address
// of a later one: offloadMemFree and offloadGetMemInfo of it fail every
// time instead of reaching a new allocation (issue 20 item 3). Freed memory
// goes back to the system (madvise(MADV_DONTNEED)): an allocation of more
// than half a page has pages of its own, released when it is freed; smaller
// ones share pages, each released once every allocation in it is freed.
//
// Regions are MAP_NORESERVE mappings of 64 GiB (or less, if the address
// space is limited); x86-64 gives a process 128 TiB of addresses, so
// addresses are reused only after that much has been allocated, when
// reserving fails and allocations come from the C heap instead.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTMEMORY_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTMEMORY_H

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace offload::host {

/// The process-wide allocator of host device memory.
class HostMemory {
public:
  /// The allocator; never destroyed, so that no address is reused after an
  /// offloadShutDown either.
  static HostMemory &get();

  /// \p Size bytes (> 0) aligned to \p Alignment (a power of two; one
  /// above half a page needs a Size of at least half a page, so that the
  /// allocation has pages of its own), from memory whose addresses were
  /// never handed out before; null if none is left.
  void *allocate(size_t Size, size_t Alignment);
  /// Frees what allocate returned for \p Size bytes.
  void release(void *Ptr, size_t Size);

private:
  HostMemory();

  /// Whether an allocation of \p Size bytes shares pages with others.
  bool isSmall(size_t Size) const { return Size <= PageSize / 2; }
  /// Maps a new region for at least \p Size bytes; false if none can be.
  bool reserve(size_t Size);
  /// Stops placing small allocations in CurrentPage, discarding it if they
  /// were all freed.
  void leaveCurrentPage();
  /// Returns the pages [Begin, End) to the system.
  void discard(uintptr_t Begin, uintptr_t End);

  size_t PageSize;
  std::mutex Mutex;
  /// The current region: addresses [Next, End) were never handed out.
  uintptr_t Next = 0, End = 0;
  /// The page small allocations go to now (0: none).
  uintptr_t CurrentPage = 0;
  /// Live small allocations per page that has had some; an entry reaches 0
  /// only for CurrentPage (others are discarded and erased then).
  std::unordered_map<uintptr_t, uint32_t> SmallPages;
};

} // namespace offload::host

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTMEMORY_H
