//===- HostCheck.cpp - Racecheck and synccheck of host kernels ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HostCheck.h"
#include "HostFault.h"

#include "../../CheckServices.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

using namespace offload::host;

namespace {
/// One access of the shadow: Thread is the linear thread id + 1 (0: none).
struct AccessRecord {
  uint32_t Thread = 0;
  uint32_t Interval = 0;
  const char *Location = nullptr;

  bool conflicts(uint32_t OtherThread, uint32_t OtherInterval) const {
    return Thread && Thread != OtherThread && Interval == OtherInterval;
  }
};

/// What is known of one address in the block's newest intervals.
struct Shadow {
  AccessRecord Write;
  /// The first reader of Read.Interval and, if any, one other thread that
  /// read in it: enough to find a later write by any thread.
  AccessRecord Read, OtherRead;
};

/// The checking state of the block the OS thread runs.
struct BlockState {
  uint64_t LaunchId = 0;
  int64_t Block[3] = {-1, -1, -1};
  int64_t Dim[3] = {0, 0, 0};
  bool SyncChecked = false;
  /// The kernel's name as written (the instrumentation passes it).
  const char *Kernel = nullptr;
  std::vector<uint32_t> Intervals;
  /// Per thread: gpu.barriers passed (all_reduce not counted), the last
  /// one's location.
  std::vector<uint32_t> BarrierCounts;
  std::vector<const char *> Barriers;
  llvm::DenseMap<uintptr_t, Shadow> Shadows;
};
thread_local BlockState State;

std::string formatThread(const BlockState &S, uint32_t Linear);

/// "N thread(s): [x,y,z] ..." of the threads of \p S that \p Pick selects
/// (the first 8).
template <typename PickT>
std::string listThreads(const BlockState &S, PickT Pick) {
  std::string Result;
  size_t Count = 0;
  for (uint32_t I = 0; I < S.BarrierCounts.size(); ++I) {
    if (!Pick(I))
      continue;
    if (Count++ < 8)
      Result += (Result.empty() ? "" : " ") + formatThread(S, I);
  }
  if (Count > 8)
    Result += llvm::formatv(" and {0} more", Count - 8).str();
  return llvm::formatv("{0} thread(s): {1}", Count, Result).str();
}

/// synccheck at the end of a block: every thread passed as many barriers.
/// (Thread loops run a barrier-free stretch of the threads that are still
/// running, so a thread that returned early is not waited for, as CUDA
/// counts exited threads as arrived; on a GPU, a barrier not every thread
/// reaches is still undefined.)
void checkBarrierCounts(const RunningLaunch &Launch, const BlockState &S) {
  if (!S.SyncChecked || S.BarrierCounts.empty())
    return;
  auto [Min, Max] =
      std::minmax_element(S.BarrierCounts.begin(), S.BarrierCounts.end());
  if (*Min == *Max)
    return;
  uint32_t Missed = *Min + 1;
  const char *Location = nullptr;
  for (size_t I = 0; I < S.BarrierCounts.size() && !Location; ++I)
    if (S.BarrierCounts[I] == Missed)
      Location = S.Barriers[I];
  std::string Where = Location ? std::string(Location)
                               : llvm::formatv("<barrier {0}>", Missed).str();
  uint32_t Low = *Min;
  std::string Lines =
      llvm::formatv(
          "Barrier error detected. Divergent thread(s) in block\n"
          "    at the barrier at {0} in kernel '{1}', block: [{2},{3},{4}]\n"
          "    arrived: {5}\n"
          "    exited without arriving: {6}",
          Where, S.Kernel ? llvm::StringRef(S.Kernel) : Launch.Name, S.Block[0],
          S.Block[1], S.Block[2],
          listThreads(S, [&](uint32_t I) { return S.BarrierCounts[I] > Low; }),
          listThreads(S, [&](uint32_t I) { return S.BarrierCounts[I] == Low; }))
          .str();
  offload::host::reportSyncError(Where.c_str(), Lines);
}

/// The state of the running block, reset when the block changed; null
/// outside a launch.
BlockState *getBlockState(RunningLaunch &Launch) {
  Launch = getRunningLaunch();
  const offload_host_kernel_context_t *Ctx = Launch.Ctx;
  if (!Ctx || !Launch.Failures)
    return nullptr;
  BlockState &S = State;
  if (S.LaunchId == Launch.Failures->LaunchId &&
      S.Block[0] == Ctx->BlockId[0] && S.Block[1] == Ctx->BlockId[1] &&
      S.Block[2] == Ctx->BlockId[2])
    return &S;
  // The block this thread ran before, of the same launch, is complete.
  if (S.LaunchId == Launch.Failures->LaunchId)
    checkBarrierCounts(Launch, S);
  S.LaunchId = Launch.Failures->LaunchId;
  for (int I = 0; I < 3; ++I) {
    S.Block[I] = Ctx->BlockId[I];
    S.Dim[I] = Ctx->BlockDim[I];
  }
  size_t N = size_t(Ctx->BlockDim[0]) * size_t(Ctx->BlockDim[1]) *
             size_t(Ctx->BlockDim[2]);
  S.SyncChecked = false;
  S.Kernel = nullptr;
  S.Intervals.assign(N, 0);
  S.BarrierCounts.assign(N, 0);
  S.Barriers.assign(N, nullptr);
  S.Shadows.clear();
  return &S;
}

size_t linearThread(const BlockState &S, int64_t X, int64_t Y, int64_t Z) {
  return size_t((Z * S.Dim[1] + Y) * S.Dim[0] + X);
}

std::string formatThread(const BlockState &S, uint32_t Linear) {
  int64_t X = int64_t(Linear) % S.Dim[0];
  int64_t Y = (int64_t(Linear) / S.Dim[0]) % S.Dim[1];
  int64_t Z = int64_t(Linear) / (S.Dim[0] * S.Dim[1]);
  return llvm::formatv("[{0},{1},{2}]", X, Y, Z).str();
}

enum HazardKind { WriteWrite, WriteRead, ReadWrite };

/// Reports the hazard between \p First (the shadow's, earlier) and the
/// current access, once per launch and (kind, locations, interval).
void reportHazard(const RunningLaunch &Launch, const BlockState &S,
                  HazardKind Kind, const AccessRecord &First,
                  const AccessRecord &Second, uintptr_t Address, int64_t Index,
                  bool Workgroup) {
  const char *FirstKind = Kind == ReadWrite ? "Read" : "Write";
  const char *SecondKind = Kind == WriteRead ? "Read" : "Write";
  std::string Key = llvm::formatv("{0}|{1}|{2}|{3}", int(Kind), First.Location,
                                  Second.Location, Second.Interval)
                        .str();
  {
    std::lock_guard<std::mutex> Lock(Launch.Failures->ReportedMutex);
    if (!Launch.Failures->Reported.insert(Key).second)
      return;
  }
  Launch.Failures->Races.fetch_add(1, std::memory_order_relaxed);
  const char *Barrier = S.Barriers[Second.Thread - 1];
  std::string Interval =
      Barrier ? llvm::formatv("barrier interval {0} (after the barrier at {1})",
                              Second.Interval, Barrier)
                    .str()
              : llvm::formatv("barrier interval {0} (from the kernel's start)",
                              Second.Interval)
                    .str();
  offload::check::report(
      llvm::formatv(
          "Error: Race reported between {0} access at {1}\n"
          "    and {2} access at {3} in kernel '{4}'\n"
          "    block: [{5},{6},{7}], threads: {8} ({9}) and {10} ({11})\n"
          "    {12} memory at {13}, index {14}, {15}",
          FirstKind, First.Location, SecondKind, Second.Location,
          S.Kernel ? llvm::StringRef(S.Kernel) : Launch.Name, S.Block[0],
          S.Block[1], S.Block[2], formatThread(S, First.Thread - 1),
          llvm::StringRef(FirstKind).lower(),
          formatThread(S, Second.Thread - 1),
          llvm::StringRef(SecondKind).lower(),
          Workgroup ? "workgroup" : "global",
          reinterpret_cast<const void *>(Address), Index, Interval)
          .str());
}
/// A write of thread \p Me of the running block to global memory at
/// \p Address: a write-write hazard with the last checked write of another
/// block of the launch, reported once per address (blocks of a launch never
/// synchronize; atomics are not checked).
void checkBlockWrite(const RunningLaunch &Launch, const BlockState &S,
                     const AccessRecord &Me, uintptr_t Address, int64_t Index,
                     bool Same) {
  DeviceFailures &F = *Launch.Failures;
  std::call_once(F.GlobalWritesOnce, [&] {
    F.GlobalWrites = std::make_unique<GlobalWriteShadow>();
  });
  GlobalWriteShadow::Shard &Shard = F.GlobalWrites->getShard(Address);
  GlobalWriteShadow::Write First;
  {
    std::lock_guard<std::mutex> Lock(Shard.Mutex);
    auto [It, Inserted] = Shard.Writes.try_emplace(Address);
    GlobalWriteShadow::Write &W = It->second;
    bool OtherBlock =
        !Inserted && (W.Block[0] != S.Block[0] || W.Block[1] != S.Block[1] ||
                      W.Block[2] != S.Block[2]);
    First = W;
    if (Inserted || !OtherBlock || !Same)
      W = {{S.Block[0], S.Block[1], S.Block[2]}, Me.Thread, Me.Location};
    // The same value as the memory holds is benign, as between threads.
    if (!OtherBlock || Same)
      return;
  }
  std::string Key = llvm::formatv("blocks|{0}", Address).str();
  {
    std::lock_guard<std::mutex> Lock(F.ReportedMutex);
    if (!F.Reported.insert(Key).second)
      return;
  }
  F.Races.fetch_add(1, std::memory_order_relaxed);
  offload::check::report(
      llvm::formatv(
          "Error: Race reported between Write access at {0}\n"
          "    and Write access at {1} in kernel '{2}'\n"
          "    blocks: [{3},{4},{5}] and [{6},{7},{8}], threads: {9} (write) "
          "and "
          "{10} (write)\n"
          "    global memory at {11}, index {12}, between blocks of one launch",
          First.Location, Me.Location,
          S.Kernel ? llvm::StringRef(S.Kernel) : Launch.Name, First.Block[0],
          First.Block[1], First.Block[2], S.Block[0], S.Block[1], S.Block[2],
          formatThread(S, First.Thread - 1), formatThread(S, Me.Thread - 1),
          reinterpret_cast<const void *>(Address), Index)
          .str());
}
} // namespace

bool offload::host::isSyncChecked() {
  RunningLaunch Launch;
  BlockState *S = getBlockState(Launch);
  return S && S->SyncChecked;
}

const char *offload::host::getCheckedKernelName() {
  RunningLaunch Launch;
  BlockState *S = getBlockState(Launch);
  return S ? S->Kernel : nullptr;
}

const char *offload::host::getBarrierLocation(size_t Linear) {
  RunningLaunch Launch;
  BlockState *S = getBlockState(Launch);
  if (!S || Linear >= S->Barriers.size())
    return nullptr;
  return S->Barriers[Linear];
}

void offload::host::finishCheckedBlock() {
  RunningLaunch Launch = getRunningLaunch();
  BlockState &S = State;
  if (!Launch.Failures || S.LaunchId != Launch.Failures->LaunchId)
    return;
  checkBarrierCounts(Launch, S);
  // Checked: a later launch must not check it again.
  S.LaunchId = 0;
}

void offload::host::reportSyncError(const char *Key, const std::string &Lines) {
  RunningLaunch Launch = getRunningLaunch();
  if (!Launch.Failures)
    return;
  {
    std::lock_guard<std::mutex> Lock(Launch.Failures->ReportedMutex);
    if (!Launch.Failures->Reported.insert(std::string("sync|") + Key).second)
      return;
  }
  Launch.Failures->SyncErrors.fetch_add(1, std::memory_order_relaxed);
  offload::check::report(Lines);
}

extern "C" void __offload_host_check_access(const char *Location,
                                            const char *Kernel, int64_t Address,
                                            int64_t Bytes, int64_t Count,
                                            int64_t Flags, int64_t Index,
                                            int64_t Value, int64_t ThreadX,
                                            int64_t ThreadY, int64_t ThreadZ) {
  RunningLaunch Launch;
  BlockState *S = getBlockState(Launch);
  if (!S)
    return;
  size_t Linear = linearThread(*S, ThreadX, ThreadY, ThreadZ);
  if (Linear >= S->Intervals.size())
    return;
  S->Kernel = Kernel;
  bool Write = Flags & OFFLOAD_HOST_CHECK_WRITE;
  bool Workgroup = Flags & OFFLOAD_HOST_CHECK_WORKGROUP;
  AccessRecord Me{uint32_t(Linear + 1), S->Intervals[Linear], Location};
  for (int64_t I = 0; I < Count; ++I) {
    uintptr_t A = uintptr_t(Address) + uintptr_t(I * Bytes);
    Shadow &Sh = S->Shadows[A];
    if (Write) {
      // A write of the value the memory holds (every thread storing the
      // same result) is benign, as in compute-sanitizer's racecheck.
      bool Same = (Flags & OFFLOAD_HOST_CHECK_VALUE) && Bytes <= 8 &&
                  std::memcmp(reinterpret_cast<const void *>(A), &Value,
                              size_t(Bytes)) == 0;
      if (!Workgroup)
        checkBlockWrite(Launch, *S, Me, A, Index + I, Same);
      if (!Same && Sh.Write.conflicts(Me.Thread, Me.Interval))
        reportHazard(Launch, *S, WriteWrite, Sh.Write, Me, A, Index + I,
                     Workgroup);
      if (Same) {
        // Readers saw this value either way.
      } else if (Sh.Read.conflicts(Me.Thread, Me.Interval))
        reportHazard(Launch, *S, ReadWrite, Sh.Read, Me, A, Index + I,
                     Workgroup);
      else if (Sh.OtherRead.conflicts(Me.Thread, Me.Interval))
        reportHazard(Launch, *S, ReadWrite, Sh.OtherRead, Me, A, Index + I,
                     Workgroup);
      Sh.Write = Me;
      continue;
    }
    if (Sh.Write.conflicts(Me.Thread, Me.Interval))
      reportHazard(Launch, *S, WriteRead, Sh.Write, Me, A, Index + I,
                   Workgroup);
    if (!Sh.Read.Thread || Sh.Read.Interval != Me.Interval) {
      Sh.Read = Me;
      Sh.OtherRead = {};
    } else if (Sh.Read.Thread != Me.Thread &&
               (!Sh.OtherRead.Thread || Sh.OtherRead.Interval != Me.Interval)) {
      Sh.OtherRead = Me;
    }
  }
}

extern "C" void __offload_host_check_barrier(const char *Location,
                                             const char *Kernel, int64_t Flags,
                                             int64_t ThreadX, int64_t ThreadY,
                                             int64_t ThreadZ) {
  RunningLaunch Launch;
  BlockState *S = getBlockState(Launch);
  if (!S)
    return;
  size_t Linear = linearThread(*S, ThreadX, ThreadY, ThreadZ);
  if (Linear >= S->Intervals.size())
    return;
  S->Kernel = Kernel;
  ++S->Intervals[Linear];
  if (!(Flags & OFFLOAD_HOST_CHECK_COLLECTIVE)) {
    ++S->BarrierCounts[Linear];
    S->Barriers[Linear] = Location;
  }
  if (Flags & OFFLOAD_HOST_CHECK_SYNC)
    S->SyncChecked = true;
}
