//===- CheckServices.h - What the checking tools give plugins ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The services of the checking tools (OFFLOAD_CHECK, offload-run --check)
// that a plugin's kernels call: the printer of reports in compute-sanitizer's
// shape and the error count of the summary (Check.cpp), and initcheck's
// shadow of the host device's allocations, which the host plugin's kernel
// callbacks read and write (InitCheck.cpp). A leaf header, like Config.h: it
// includes nothing of the runtime, so that a plugin needs no private header
// of the core. What only the core uses (leakcheck, the recording of
// allocations and copies, code locations) is in Check.h and InitCheck.h.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_CHECKSERVICES_H
#define OFFLOADRUNTIME_LIB_CHECKSERVICES_H

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

namespace offload::check {

/// Prints \p Lines (newline-separated) with "========= " before each, on
/// stdout, at once, and counts one error of the summary.
void report(llvm::StringRef Lines);

/// Counts \p N errors reported elsewhere (memcheck's lines) and makes sure
/// the summary is printed at exit.
void countErrors(uint64_t N);

} // namespace offload::check

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

/// The tracked allocation containing \p Address; null if none. Cached per
/// OS thread (the last four allocations found: kernel threads ask for every
/// access, alternating between their buffers): valid until the next call on
/// this thread, even if the allocation is freed meanwhile.
Allocation *findAllocation(uintptr_t Address);

} // namespace offload::initcheck

#endif // OFFLOADRUNTIME_LIB_CHECKSERVICES_H
