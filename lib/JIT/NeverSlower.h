//===- NeverSlower.h - Specializations measured against the generic kernel -*-
// C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// OFFLOAD_JIT_MEASURE=1: the first launches of each new specialization
// alternate between it and the generic kernel (each application launch runs
// exactly one of them: same results), timed on the device's clock: on the
// host device the process's CPU time around the launch (the queue
// synchronized before and after), which other processes sharing the cores
// do not inflate; on other devices events on the launch's queue
// (offloadGetEventElapsedTime), or the host's steady clock around a launch
// without a queue (synchronous). The first launch of
// each is a warm-up (first touches of its code and data), not counted; after
// OFFLOAD_JIT_MEASURE_LAUNCHES more of each, the faster (by the
// minimum of its times, so interference can only make a version look
// slower) is kept: a specialization slower than the generic kernel by more
// than kMeasureMargin is replaced by it for later launches (also for
// offloadJITGetSpecializedKernel). The verdict is kept beside the
// specialization's disk cache entry:
//
//   <cache dir>/<key>.verdict    "offload-jit-verdict 1\n"
//                                "faster|slower <specialized ns> <generic
//                                ns>\n"
//
// so a later process that loads the entry does not measure again.
//
// OFFLOAD_JIT_MEASURE_SCALE=F multiplies the specialization's measured
// times by F before the comparison: a forced slow (F > 1) or fast variant,
// to test the decision.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_NEVERSLOWER_H
#define OFFLOAD_LIB_JIT_NEVERSLOWER_H

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace offloadjit {

/// A specialization slower than the generic kernel by more than this share
/// of the generic kernel's time is replaced by it.
inline constexpr double kMeasureMargin = 0.02;

/// OFFLOAD_JIT_MEASURE, OFFLOAD_JIT_MEASURE_LAUNCHES,
/// OFFLOAD_JIT_MEASURE_SCALE.
struct MeasureOptions {
  bool Enabled = false;
  /// Measured launches of each version.
  unsigned Launches = 3;
  double Scale = 1.0;
  bool Trace = false;
};

/// The process's counters of measurements (offloadJITGetStats).
struct MeasureCounters {
  std::atomic<uint64_t> Launches{0};     ///< launches timed
  std::atomic<uint64_t> Faster{0};       ///< specializations kept
  std::atomic<uint64_t> Slower{0};       ///< replaced by the generic kernel
  std::atomic<uint64_t> VerdictLoads{0}; ///< verdicts read from disk
  void reset() {
    for (std::atomic<uint64_t> *C :
         {&Launches, &Faster, &Slower, &VerdictLoads})
      *C = 0;
  }
};

/// The generic kernel a specialization is measured against.
struct GenericKernel {
  offload_symbol_handle_t Symbol = nullptr;
  /// Keeps its program loaded while the specialization's entry lives.
  std::shared_ptr<void> Owner;
};

/// The measurement of one specialization (a member of its cache entry).
class SpecializationTrial {
public:
  /// What to launch for this specialization: the generic kernel once it was
  /// measured faster, else \p Specialized.
  offload_symbol_handle_t choose(offload_symbol_handle_t Specialized) const {
    offload_symbol_handle_t R = Replacement.load(std::memory_order_acquire);
    return R ? R : Specialized;
  }
  /// Whether launches still need measuring (cheap: one atomic load).
  bool pending() const { return !Decided.load(std::memory_order_acquire); }

  /// Launches \p Specialized or the generic kernel (alternating), timed,
  /// and decides once both have Options.Launches times. \p GetGeneric
  /// finds or compiles the generic kernel (called once); \p VerdictPath is
  /// where the verdict is kept (empty: no disk cache); \p Name and \p Key
  /// are for traces.
  offload_result_t
  launch(offload_queue_handle_t Queue, offload_device_handle_t Device,
         bool DeviceIsHost, offload_symbol_handle_t Specialized,
         const void *Args, size_t ArgsSize,
         const offload_kernel_launch_size_args_t *Sizes,
         llvm::function_ref<offload_result_t(GenericKernel &)> GetGeneric,
         const std::string &VerdictPath, const std::string &Name,
         const std::string &Key, const MeasureOptions &Options,
         MeasureCounters &Counters);

private:
  /// Adopts the verdict (writes nothing); under Mutex.
  void settle(bool Slower);
  void trace(const MeasureOptions &Options, const std::string &Message) const;

  std::mutex Mutex;
  bool Started = false;
  std::atomic<bool> Decided{false};
  std::atomic<offload_symbol_handle_t> Replacement{nullptr};
  GenericKernel Generic;
  std::vector<double> SpecializedNs, GenericNs;
  unsigned Next = 0;
};

/// The verdict file of the disk cache entry \p Key in \p Directory.
std::string getVerdictPath(llvm::StringRef Directory, llvm::StringRef Key);

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_NEVERSLOWER_H
