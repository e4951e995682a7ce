//===- ChromeTrace.h - OFFLOAD_TRACE_FILE timelines -------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// With OFFLOAD_TRACE_FILE=path.json, the runtime records copies, fills and
// kernel launches (and, through offloadTraceRecord, the JIT's compiles and
// cache lookups) as Chrome trace "complete" events, one track per queue plus
// one for synchronous calls, and writes them as JSON (chrome://tracing,
// Perfetto) when the last offloadShutDown returns or the process exits.
// Operations on a queue are timed on the queue: a host function enqueued
// before and after each one reads the clock when the queue reaches it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_RUNTIME_CHROMETRACE_H
#define OFFLOAD_LIB_RUNTIME_CHROMETRACE_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace offload {

class ChromeTrace {
public:
  /// The trace of this process, or null when OFFLOAD_TRACE_FILE is unset.
  /// Inline: every copy and launch asks.
  static ChromeTrace *get() {
    static ChromeTrace *Instance = create();
    return Instance;
  }

  /// Microseconds since the trace started.
  uint64_t now() const;
  /// Microseconds from the trace's start to \p Time.
  uint64_t micros(std::chrono::steady_clock::time_point Time) const;
  /// The track of \p Queue (null: the synchronous track), created on first
  /// use and named "queue N".
  uint64_t getTrack(const void *Queue);
  /// The track named \p Name, created on first use.
  uint64_t getNamedTrack(llvm::StringRef Name);
  /// Records an event of \p DurationMicros starting at \p StartMicros.
  void record(llvm::StringRef Name, llvm::StringRef Category, uint64_t Track,
              uint64_t StartMicros, uint64_t DurationMicros,
              std::string Details = "");
  /// Writes the file (all events so far).
  void write();

private:
  explicit ChromeTrace(std::string Path);
  /// The trace OFFLOAD_TRACE_FILE asks for, if any.
  static ChromeTrace *create();

  struct EventRecord {
    std::string Name, Category, Details;
    uint64_t Track, Start, Duration;
  };
  std::string Path;
  std::chrono::steady_clock::time_point Origin;
  std::mutex Mutex;
  std::vector<EventRecord> Events;
  llvm::DenseMap<const void *, uint64_t> QueueTracks;
  std::vector<std::string> TrackNames;
};

} // namespace offload

#endif // OFFLOAD_LIB_RUNTIME_CHROMETRACE_H
