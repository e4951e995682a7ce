//===- HostFault.h - Naming the kernel that faults --------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A fault inside a host kernel (SIGSEGV, SIGBUS, SIGFPE, SIGILL on the thread
// that runs its blocks) kills the process like any crash, but first prints
// which kernel and block was running, as a GPU memory checker names the
// kernel and thread of a bad access:
//
//   offload: fault in host kernel 'saxpy', block (3, 0, 0) of a grid of
//   (8, 1, 1) blocks of (128, 1, 1) threads: SIGSEGV (segmentation fault)
//
// A thread records the launch it runs blocks of (FaultScope); the handler,
// installed in front of the process's handlers on the first launch
// (offload::signals::FatalSignalHandler), reads the block id of that
// launch's context, writes the line with write(2) and forwards the signal to
// the handler installed before (offload-run's crash report, a sanitizer's,
// or the default action). When many threads fault at once, the first one
// reports and the others wait for the process to die.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_RUNTIME_PLUGINS_HOST_HOSTFAULT_H
#define OFFLOAD_LIB_RUNTIME_PLUGINS_HOST_HOSTFAULT_H

#include "OffloadRuntime/HostKernelABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>

namespace offload::host {

/// racecheck's shadow of the global writes of one launch, for write-write
/// hazards between blocks (HostCheck.cpp): per address, the block, linear
/// thread and location of its last checked write; sharded by address.
struct GlobalWriteShadow {
  struct Write {
    int64_t Block[3];
    uint32_t Thread;
    const char *Location;
  };
  struct Shard {
    std::mutex Mutex;
    llvm::DenseMap<uintptr_t, Write> Writes;
  };
  static constexpr unsigned NumShards = 64;
  Shard Shards[NumShards];
  Shard &getShard(uintptr_t Address) {
    return Shards[(Address >> 6) % NumShards];
  }
};

/// While alive, a fault on this thread is reported as one in kernel \p Name
/// at the block \p Ctx names (its BlockId, read when the fault happens), and
/// failing device-side assertions (__offload_host_assert_fail) and bounds
/// checks (__offload_host_bounds_fail) are counted in \p Failures.
struct DeviceFailures {
  std::atomic<uint64_t> Assertions{0}, OutOfBounds{0};
  /// Hazards (racecheck) and barrier errors (synccheck) reported.
  std::atomic<uint64_t> Races{0}, SyncErrors{0};
  /// Reads of memory never written reported (initcheck, HostInitCheck.cpp).
  std::atomic<uint64_t> UninitializedReads{0};
  /// Unique per launch, for the checkers' per-block state (HostCheck.cpp).
  uint64_t LaunchId = nextLaunchId();
  /// The hazards reported for this launch, each once (HostCheck.cpp).
  std::mutex ReportedMutex;
  llvm::StringSet<> Reported;
  /// The threads (block x, y, z, thread x, y, z) that accessed memory out of
  /// bounds: memcheck reports each one's first bad access only.
  std::mutex FaultedMutex;
  std::set<std::array<int64_t, 6>> Faulted;
  /// racecheck's global writes of the launch, made by the first one.
  std::once_flag GlobalWritesOnce;
  std::unique_ptr<GlobalWriteShadow> GlobalWrites;

private:
  static uint64_t nextLaunchId() {
    static std::atomic<uint64_t> Next{1};
    return Next.fetch_add(1, std::memory_order_relaxed);
  }
};

/// The launch whose blocks this thread runs: its kernel's name, context and
/// failures (null outside a launch).
struct RunningLaunch {
  llvm::StringRef Name;
  const offload_host_kernel_context_t *Ctx = nullptr;
  DeviceFailures *Failures = nullptr;
};
RunningLaunch getRunningLaunch();
class FaultScope {
public:
  FaultScope(llvm::StringRef Name, const offload_host_kernel_context_t &Ctx,
             DeviceFailures &Failures);
  ~FaultScope();
  FaultScope(const FaultScope &) = delete;
  FaultScope &operator=(const FaultScope &) = delete;

private:
  /// The launch recorded before (launches nest when a block launches
  /// synchronously).
  struct Saved {
    llvm::StringRef Name;
    const offload_host_kernel_context_t *Ctx;
    DeviceFailures *Failures;
  } Outer;
};

} // namespace offload::host

#endif // OFFLOAD_LIB_RUNTIME_PLUGINS_HOST_HOSTFAULT_H
