//===- Check.h - The runtime side of the checking tools ---------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the checking tools (OffloadSupport/CheckTools.h: OFFLOAD_CHECK,
// offload-run --check) need from the runtime: the tools OFFLOAD_CHECK
// enables, one printer for the reports in compute-sanitizer's shape (every
// line starts with "========= ", on stdout), the count of errors reported,
// printed at exit as
//
//   ========= ERROR SUMMARY: 2 errors
//
// and leakcheck: the allocations, queues, events and programs an application
// created (with the code location of a WithCodeLoc entry point) and has not
// destroyed, reported at the offloadShutDown that releases the runtime
// (OFFLOAD_ERRC_INVALID_VALUE then), or at exit when the runtime is still
// initialized (allocations, queues and events only: a process's programs
// are commonly loaded for its whole life, by the JIT and by lowered code).
//
// With no tool enabled none of this costs anything but a load of a flag at
// the entry points that create and destroy objects.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_CHECK_H
#define OFFLOADRUNTIME_LIB_CHECK_H

#include "CheckServices.h"
#include "InitCheck.h"

#include "OffloadRuntime/OffloadAPI.h"
#include "OffloadSupport/CheckTools.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace offload::check {

namespace detail {
/// The tools of OFFLOAD_CHECK, read when the runtime initializes.
extern std::atomic<uint32_t> EnabledTools;
/// The code location of the entry point running on this thread (null when
/// none was given, or leakcheck is off).
extern thread_local const offload_code_location_t *CurrentCodeLocation;
} // namespace detail

/// The tools OFFLOAD_CHECK enabled.
inline uint32_t getEnabledTools() {
  return detail::EnabledTools.load(std::memory_order_relaxed);
}
inline bool isLeakCheckEnabled() {
  return getEnabledTools() & ::offload::CheckLeakcheck;
}

/// Reads OFFLOAD_CHECK; an error names a word that is no tool.
llvm::Error loadEnabledTools();

/// report and countErrors, what plugins use, are in CheckServices.h.

/// The errors counted so far.
uint64_t getErrorCount();

/// While alive (and leakcheck or initcheck on), objects created on this
/// thread are recorded with \p Location.
class CodeLocationScope {
public:
  explicit CodeLocationScope(const offload_code_location_t *Location) {
    if (!isLeakCheckEnabled() && !initcheck::isTracking())
      return;
    Active = true;
    Outer = detail::CurrentCodeLocation;
    detail::CurrentCodeLocation = Location;
  }
  ~CodeLocationScope() {
    if (Active)
      detail::CurrentCodeLocation = Outer;
  }

private:
  bool Active = false;
  const offload_code_location_t *Outer = nullptr;
};

/// What leakcheck tracks.
enum class ObjectKind { Allocation, Queue, Event, Program };

/// Records (leakcheck on) the creation of \p Object, described by
/// \p What ("64 bytes of device memory on device 0"), at the entry point's
/// code location.
void recordCreation(const void *Object, ObjectKind Kind, std::string What);
/// Forgets \p Object.
void recordDestruction(const void *Object);
/// Reports every object still recorded (\p AtExit: not programs) and
/// forgets them; returns how many.
uint64_t reportLeaks(bool AtExit);

} // namespace offload::check

#endif // OFFLOADRUNTIME_LIB_CHECK_H
