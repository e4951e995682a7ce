//===- InitCheck.h - initcheck: the shadow of device allocations -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// compute-sanitizer's initcheck for the host device: a shadow byte per byte
// of every offloadMemAlloc allocation of the host device, 1 once the byte
// was written by a copy (offloadMemcpy*: the source's shadow when the source
// is such an allocation too, else written), a fill (offloadMemFill) or a
// kernel store (__offload_host_check_init, from offload-check-initialization),
// and a report of every kernel read of a byte still 0 (HostInitCheck.cpp).
//
// Tracking starts when the runtime initializes with OFFLOAD_CHECK naming
// init (offload-run --check=init sets it), or else when the first kernel
// instrumented for initcheck runs (Python's check="init", the JIT's program
// options): allocations made before are not tracked, never reported. Copies
// and fills on a queue set the shadow when the queue reaches them.
//
// Host and managed allocations may also be written by host code directly,
// which the runtime cannot see: they are filled with the byte 0xA5 when
// allocated, and a read of their unwritten bytes is only reported when every
// unwritten byte of the 64-byte blocks it touches still holds it.
//
// With tracking off, the entry points test one flag.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_INITCHECK_H
#define OFFLOADRUNTIME_LIB_INITCHECK_H

#include "OffloadRuntime/OffloadAPI.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace offload::initcheck {

namespace detail {
extern std::atomic<bool> Tracking;
} // namespace detail

/// Whether allocations are tracked.
inline bool isTracking() {
  return detail::Tracking.load(std::memory_order_relaxed);
}

/// Starts tracking allocations made from now on.
void startTracking();

/// The byte host and managed allocations are filled with, and the blocks in
/// which a read's unwritten bytes must all still hold it to be reported.
inline constexpr uint8_t FillByte = 0xA5;
inline constexpr size_t FillBlock = 64;

/// One tracked allocation and its shadow.
struct Allocation {
  uintptr_t Base = 0;
  size_t Size = 0;
  offload_alloc_type_t Kind = OFFLOAD_ALLOC_TYPE_DEVICE;
  /// "at <function> (<file>:<line>:<col>)", or empty without a location.
  std::string Origin;
  /// 1 per byte written (calloc'ed: the pages of a large allocation's
  /// shadow are only made when touched).
  struct FreeShadow {
    void operator()(std::atomic<uint8_t> *P) const { std::free(P); }
  };
  std::unique_ptr<std::atomic<uint8_t>[], FreeShadow> Shadow;
  /// Bytes never written (a hint: when 0 or less, reads skip the shadow).
  std::atomic<int64_t> Unwritten{0};

  /// Marks [Offset, Offset + Bytes) written.
  void markWritten(size_t Offset, size_t Bytes);
  /// The first unwritten byte of [Offset, Offset + Bytes) that a read of
  /// them would report, or -1 when all are written (or, for host and managed
  /// memory, an unwritten byte of its FillBlock-aligned blocks holds another
  /// value than FillByte: such a block, written by host code, is marked
  /// written).
  int64_t findUnwritten(size_t Offset, size_t Bytes);
  /// Whether some byte was never written (a hint: a stale answer is true).
  bool hasUnwritten() const {
    return Unwritten.load(std::memory_order_relaxed) > 0;
  }
};

/// Records \p Ptr, \p Size bytes of memory \p Kind of the host device, made
/// at the code location of the running entry point (tracking on).
void recordAllocation(void *Ptr, size_t Size, offload_alloc_type_t Kind);
/// Forgets the allocation at \p Ptr.
void recordFree(void *Ptr);
/// Whether \p Ptr lies in a tracked allocation.
bool isTracked(const void *Ptr);
/// A copy (from \p Src, or a fill when null) wrote [Dst, Dst + Size).
void recordWrite(void *Dst, const void *Src, size_t Size);

/// The tracked allocation containing \p Address; null if none. Cached per
/// OS thread (the last four allocations found: kernel threads ask for every
/// access, alternating between their buffers): valid until the next call on
/// this thread, even if the allocation is freed meanwhile.
Allocation *findAllocation(uintptr_t Address);

} // namespace offload::initcheck

#endif // OFFLOADRUNTIME_LIB_INITCHECK_H
