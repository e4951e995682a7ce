//===- AutoSpecialize.h - Automatic specialization on stable arguments -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Automatic specialization (OFFLOAD_JIT_AUTO, offloadJITSetAutoEnabled): the
// JIT watches the scalar arguments of a kernel that are not marked by
// offload.runtime_constant and, once some have kept the same values for
// Threshold launches in a row, specializes the kernel on those values as if
// they were runtime constants (the same offload-specialize machinery and
// cache keys). The result is a *variant*, guarded by its values: a launch
// runs the variant whose guarded arguments all hold the variant's values
// (the one with the most of them), else the kernel without automatic values
// (its block-size specialization, or the generic kernel). A kernel has at
// most MaxVariants variants.
//
// The model is AdaptiveCpp's invariant argument detection (adaptivity level
// 2, runtime/adaptivity_engine.cpp): per-argument statistics of the values
// seen, specialization once an argument is likely invariant, and the
// decisions kept in a per-application database so that the next run
// specializes from its first launch. Here the rule is a run of equal values
// (deterministic, cheap to keep per launch) rather than AdaptiveCpp's share
// of all invocations (0.8 after 1024), and the database is one small text
// file per kernel beside the disk cache's entries:
//
//   <cache dir>/<32 hex digits>.auto
//     offload-jit-auto 1
//     kernel <module>::<kernel>
//     launches <launches seen when it was last written>
//     variant <arg>:<value, 16 hex digits>[ <arg>:<value>...]
//     ...
//
// (the digits: xxh3-128 of the module's content hash and the kernel's name,
// so a profile follows the application's module across compiler versions and
// devices; values are the argument's bytes, zero-extended, as hex). It is
// read on the kernel's first watched launch and written (to a unique
// temporary file, renamed into place) at each new variant. Variants read
// from it count towards the bound and are launched when their values hold,
// without waiting for Threshold launches.
//
// Cost per launch of a watched kernel: one load and compare per watched
// argument and per variant's guarded argument, no lock (the statistics are
// updated with relaxed atomics: concurrent launches may lose a count, never
// choose a variant whose values do not hold). Decisions take a mutex.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_AUTOSPECIALIZE_H
#define OFFLOAD_LIB_JIT_AUTOSPECIALIZE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace offloadjit {

/// Settings of automatic specialization (OFFLOAD_JIT_AUTO_THRESHOLD,
/// OFFLOAD_JIT_AUTO_MAX_VARIANTS).
struct AutoOptions {
  /// Launches in a row with the same value after which an argument is
  /// stable.
  unsigned Threshold = 8;
  /// Variants per kernel (those read from the disk cache included).
  unsigned MaxVariants = 4;
  /// OFFLOAD_TRACE: one line per decision on stderr.
  bool Trace = false;
};

/// The process's counters of automatic specialization (offloadJITGetStats).
struct AutoCounters {
  /// Variants decided in this process (new stable values).
  std::atomic<uint64_t> Variants{0};
  /// Launches that ran a variant.
  std::atomic<uint64_t> Launches{0};
  /// Launches of a kernel with variants whose values matched none of them.
  std::atomic<uint64_t> GuardMisses{0};
  /// Variants read from the disk cache's profiles.
  std::atomic<uint64_t> ProfileLoads{0};
  /// New stable values not specialized because their kernel had
  /// MaxVariants variants already (counted once per kernel).
  std::atomic<uint64_t> BoundReached{0};
  void reset() {
    for (std::atomic<uint64_t> *C :
         {&Variants, &Launches, &GuardMisses, &ProfileLoads, &BoundReached})
      *C = 0;
  }
};

/// One watched argument: a scalar kernel argument of at most 8 bytes that no
/// offload.runtime_constant marks.
struct AutoArgument {
  /// The kernel argument's index.
  unsigned Index = 0;
  /// Its field in the packed argument buffer (bytes).
  uint64_t Offset = 0, Size = 0;
  /// Its type (integer, index or float), for traces.
  mlir::Type ArgType;
};

/// A specialization on the values of some watched arguments.
struct AutoVariant {
  /// Bit I: watched argument I is guarded (at most 64 watched arguments).
  uint64_t Mask = 0;
  /// The guarded arguments' values (zero-extended bytes), per watched
  /// argument; 0 where not guarded.
  std::vector<uint64_t> Values;
  /// xxh3-64 of mask and values: part of the launch's lookup hash.
  uint64_t Id = 0;
  /// Read from the disk cache's profile.
  bool FromDisk = false;
};

/// Whether \p Ty is a type automatic specialization watches: an integer of 8,
/// 16, 32 or 64 bits, index, or a float of at most 64 bits.
bool isWatchable(mlir::Type Ty);

/// The automatic-specialization state of one kernel. Thread-safe.
class AutoProfile {
public:
  /// \p Kernel is "module::kernel" (traces, profile); \p ProfilePath the
  /// profile's file (std::nullopt: no disk cache).
  AutoProfile(std::string Kernel, std::vector<AutoArgument> Watched,
              const AutoOptions &Options, AutoCounters &Counters,
              std::optional<std::string> ProfilePath);
  ~AutoProfile();

  /// Counts one launch with the packed arguments at \p Args and returns the
  /// variant to launch (the kernel specialized on the variant's values too),
  /// or null (the kernel without automatic values). Decides a new variant
  /// when the stable arguments' values are not covered by one.
  const AutoVariant *observe(const char *Args);

  /// Adds the values \p Variant guards to \p Values as (argument index, the
  /// argument's bytes) and sorts them by argument index.
  void appendValues(
      const AutoVariant &Variant,
      std::vector<std::pair<unsigned, std::vector<char>>> &Values) const;

  /// The profile's file name for a module of content hash \p ModuleHash and
  /// kernel "module::kernel" \p Kernel in \p Directory.
  static std::string getProfilePath(llvm::StringRef Directory,
                                    llvm::StringRef ModuleHash,
                                    llvm::StringRef Kernel);

private:
  /// Reads the profile (once, on the first observe).
  void load();
  /// Decides a variant on \p Mask with \p Values (under Mutex); null when
  /// the bound is reached.
  const AutoVariant *decide(uint64_t Mask, const uint64_t *Values,
                            uint64_t Launches);
  /// Writes the profile (under Mutex).
  void save(uint64_t Launches);
  /// "argument 2 (i32) = 7, argument 3 (f32) = 1.5".
  std::string describe(uint64_t Mask, const uint64_t *Values) const;
  void trace(const std::string &Message) const;

  std::string Kernel;
  std::vector<AutoArgument> Watched;
  AutoOptions Options;
  AutoCounters &Counters;
  std::optional<std::string> ProfilePath;

  std::once_flag Loaded;
  std::atomic<uint64_t> LaunchCount{0};
  /// Per watched argument: the last value seen and how many launches in a
  /// row had it (saturating at Threshold).
  std::unique_ptr<std::atomic<uint64_t>[]> Last;
  std::unique_ptr<std::atomic<uint32_t>[]> Run;
  /// MaxVariants slots, filled in order under Mutex; NumVariants published
  /// with release after a slot is complete.
  std::unique_ptr<AutoVariant[]> Variants;
  std::atomic<unsigned> NumVariants{0};
  /// The bound was reached and reported.
  std::atomic<bool> Full{false};
  /// The variant the last launch ran (for tracing changes only).
  std::atomic<const AutoVariant *> LastChosen{nullptr};
  std::atomic<bool> AnyChosen{false};
  std::mutex Mutex;
};

/// Marks kernel arguments \p Indices of \p Kernel with
/// offload.runtime_constant (every other use of each goes through the mark),
/// so that offload-specialize substitutes their values.
void markRuntimeConstants(mlir::gpu::GPUFuncOp Kernel,
                          llvm::ArrayRef<unsigned> Indices);

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_AUTOSPECIALIZE_H
