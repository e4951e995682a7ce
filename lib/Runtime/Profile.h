//===- Profile.h - OFFLOAD_PROFILE summaries --------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// With OFFLOAD_PROFILE=1 the runtime times every kernel launch, copy and fill
// (as the OFFLOAD_TRACE_FILE timeline does: on a queue, host functions
// enqueued before and after the operation read the clock when the queue
// reaches them) and the JIT reports its compiles and cache hits; at the last
// offloadShutDown and at process exit (when something was recorded since the
// previous report) it prints, to stderr, summaries in the shape of
// `nsys stats` reports:
//
//   offload_kern_sum      cuda_gpu_kern_sum: per kernel name
//   offload_mem_time_sum  cuda_gpu_mem_time_sum: per copy/fill kind
//   offload_mem_size_sum  cuda_gpu_mem_size_sum: the same in MB, plus the
//                         bandwidth (total bytes over total time)
//   offload_jit_sum       per kernel: compiles, memory and disk cache hits,
//                         compile time
//
// OFFLOAD_PROFILE=json:PATH writes the same tables to PATH instead, as a JSON
// object of arrays of rows keyed by the column headers (what `nsys stats
// --format json` prints). The summaries are cumulative over the process.
// Nothing is recorded, and launches allocate nothing more, when it is unset.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_RUNTIME_PROFILE_H
#define OFFLOAD_LIB_RUNTIME_PROFILE_H

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace offload {

/// A summary table (Profile.cpp).
struct ProfileTable;

class Profile {
public:
  /// What OFFLOAD_PROFILE asks for.
  struct Setting {
    bool Enabled = false;
    /// Set for json:PATH; empty: text on stderr.
    std::string JSONPath;
  };
  /// Parses a value of OFFLOAD_PROFILE: unset, empty, 0/false/off/no (off),
  /// 1/true/on/yes (text on stderr) or json:PATH. INVALID_VALUE otherwise.
  static llvm::Expected<Setting> parseSetting(const char *Value);
  /// For a setting that names a file written at exit (\p Setting, e.g.
  /// `OFFLOAD_PROFILE=json:p.json`, and \p Path): INVALID_VALUE when the
  /// file's folder does not exist or is not writable, checked at
  /// initialization, while an error can still change the exit status.
  static llvm::Error checkOutputFolder(llvm::StringRef Setting,
                                       llvm::StringRef Path);

  /// The profile of this process, or null when OFFLOAD_PROFILE is unset
  /// (or invalid: offloadInit reports that). Inline: every launch asks.
  static Profile *get() {
    static Profile *Instance = create();
    return Instance;
  }

  enum class Kind { Kernel, Memory };
  /// Records one kernel execution (\p Name: the kernel) or one copy or fill
  /// (\p Name: its kind, e.g. "[memcpy Host-to-Device]", of \p Bytes) that
  /// took \p Nanos nanoseconds.
  void record(Kind K, llvm::StringRef Name, uint64_t Bytes, uint64_t Nanos);
  /// Records a JIT event of kernel \p Kernel.
  void recordJIT(llvm::StringRef Kernel, offload_profile_jit_event_t Event,
                 uint64_t Nanos);

  /// Prints or writes the summaries, if anything was recorded since the
  /// previous report.
  void report();

  /// The tables as text (what OFFLOAD_PROFILE=1 prints) and as JSON.
  void printText(llvm::raw_ostream &OS);
  void printJSON(llvm::raw_ostream &OS);

  /// One name's operations: durations and (copies and fills) sizes.
  struct Series {
    std::vector<uint64_t> Nanos, Bytes;
  };
  struct JITSeries {
    uint64_t Compiles = 0, MemoryHits = 0, DiskHits = 0;
    std::vector<uint64_t> CompileNanos;
  };

private:
  explicit Profile(Setting S) : TheSetting(std::move(S)) {}
  static Profile *create();

  /// The four tables, under the mutex.
  std::vector<ProfileTable> makeTables();

  Setting TheSetting;
  std::mutex Mutex;
  llvm::StringMap<Series> Kernels, Memory;
  llvm::StringMap<JITSeries> JIT;
  /// Records since the last report.
  uint64_t Unreported = 0;
};

} // namespace offload

#endif // OFFLOAD_LIB_RUNTIME_PROFILE_H
