//===- NeverSlower.cpp - Specializations measured against the generic kernel
//===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See NeverSlower.h.
//
//===----------------------------------------------------------------------===//

#include "NeverSlower.h"
#include "DiskCache.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <ctime>

using namespace offloadjit;

std::string offloadjit::getVerdictPath(llvm::StringRef Directory,
                                       llvm::StringRef Key) {
  llvm::SmallString<256> Path(Directory);
  llvm::sys::path::append(Path, Key + kVerdictSuffix);
  return std::string(Path);
}

void SpecializationTrial::trace(const MeasureOptions &Options,
                                const std::string &Message) const {
  if (Options.Trace)
    llvm::errs() << "offload-jit: " << Message << "\n";
}

void SpecializationTrial::settle(bool Slower) {
  if (Slower)
    Replacement.store(Generic.Symbol, std::memory_order_release);
  Decided.store(true, std::memory_order_release);
}

/// Reads a verdict file: (slower, specialized ns, generic ns).
static std::optional<std::tuple<bool, double, double>>
readVerdict(const std::string &Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> Lines, Words;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  if (Lines.size() != 2 || Lines[0].trim() != "offload-jit-verdict 1")
    return std::nullopt;
  Lines[1].trim().split(Words, ' ', -1, /*KeepEmpty=*/false);
  double S, G;
  if (Words.size() != 3 || (Words[0] != "faster" && Words[0] != "slower") ||
      Words[1].getAsDouble(S) || Words[2].getAsDouble(G))
    return std::nullopt;
  return std::tuple{Words[0] == "slower", S, G};
}

/// Writes a verdict file (a unique temporary renamed into place).
static void writeVerdict(const std::string &Path, bool Slower, double S,
                         double G) {
  llvm::SmallString<256> Temp;
  int FD;
  if (llvm::sys::fs::createUniqueFile(Path + ".tmp.%%%%%%%%", FD, Temp))
    return;
  {
    llvm::raw_fd_ostream File(FD, /*shouldClose=*/true);
    File << "offload-jit-verdict 1\n"
         << (Slower ? "slower " : "faster ") << llvm::format("%.0f", S) << " "
         << llvm::format("%.0f", G) << "\n";
  }
  if (llvm::sys::fs::rename(Temp, Path))
    llvm::sys::fs::remove(Temp);
}

offload_result_t SpecializationTrial::launch(
    offload_queue_handle_t Queue, offload_device_handle_t Device,
    bool DeviceIsHost, offload_symbol_handle_t Specialized, const void *Args,
    size_t ArgsSize, const offload_kernel_launch_size_args_t *Sizes,
    llvm::function_ref<offload_result_t(GenericKernel &)> GetGeneric,
    const std::string &VerdictPath, const std::string &Name,
    const std::string &Key, const MeasureOptions &Options,
    MeasureCounters &Counters) {
  std::unique_lock<std::mutex> Lock(Mutex);
  auto LaunchChosen = [&] {
    Lock.unlock();
    return offloadLaunchKernel(Queue, Device, choose(Specialized), Args,
                               ArgsSize, Sizes);
  };
  if (Decided.load(std::memory_order_relaxed))
    return LaunchChosen();
  if (!Started) {
    Started = true;
    std::optional<std::tuple<bool, double, double>> Verdict;
    if (!VerdictPath.empty())
      Verdict = readVerdict(VerdictPath);
    if (Verdict) {
      auto [Slower, S, G] = *Verdict;
      ++Counters.VerdictLoads;
      trace(Options,
            "verdict of " + Name + " key=" + Key +
                " from the disk cache: " + (Slower ? "slower" : "faster") +
                " (specialized " + std::to_string(int64_t(S)) +
                " ns, generic " + std::to_string(int64_t(G)) + " ns)");
      if (Slower && GetGeneric(Generic))
        Slower = false; // the generic kernel does not load: keep ours
      settle(Slower);
      return LaunchChosen();
    }
    if (offload_result_t R = GetGeneric(Generic)) {
      trace(Options, "cannot measure " + Name + " key=" + Key +
                         ": the generic kernel failed (" + R->Details +
                         "); keeps the specialization");
      settle(false);
      return LaunchChosen();
    }
  }

  // Alternate, starting with the specialization.
  bool RunSpecialized = Next++ % 2 == 0;
  offload_symbol_handle_t Symbol =
      RunSpecialized ? Specialized : Generic.Symbol;
  double Ns = 0;
  if (DeviceIsHost) {
    // The host device's clock: the process's CPU time, which other
    // processes taking the cores (a shared machine) do not inflate. The
    // launch alone: earlier work on the queue first.
    auto CpuNs = [] {
      timespec T;
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &T);
      return T.tv_sec * 1e9 + T.tv_nsec;
    };
    if (Queue)
      if (offload_result_t R = offloadSyncQueue(Queue))
        return R;
    double Start = CpuNs();
    offload_result_t R =
        offloadLaunchKernel(Queue, Device, Symbol, Args, ArgsSize, Sizes);
    if (!R && Queue)
      R = offloadSyncQueue(Queue);
    if (R)
      return R;
    Ns = CpuNs() - Start;
  } else if (!Queue) {
    // Without a queue the launch is synchronous: the host's steady clock.
    auto Start = std::chrono::steady_clock::now();
    if (offload_result_t R =
            offloadLaunchKernel(nullptr, Device, Symbol, Args, ArgsSize, Sizes))
      return R;
    Ns = std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now() - Start)
             .count();
  } else {
    // The device's clock: events around the launch.
    offload_event_handle_t Start = nullptr, End = nullptr;
    if (offload_result_t R = offloadCreateEvent(Queue, &Start))
      return R;
    offload_result_t R =
        offloadLaunchKernel(Queue, Device, Symbol, Args, ArgsSize, Sizes);
    if (!R)
      R = offloadCreateEvent(Queue, &End);
    if (!R)
      R = offloadSyncEvent(End);
    float Ms = 0;
    if (!R)
      R = offloadGetEventElapsedTime(Start, End, &Ms);
    (void)offloadDestroyEvent(Start);
    if (End)
      (void)offloadDestroyEvent(End);
    if (R)
      return R;
    Ns = Ms * 1e6;
  }
  ++Counters.Launches;
  // The first launch of each is not counted: it pays for first touches of
  // its code and data.
  if (Next <= 2)
    return OFFLOAD_SUCCESS;
  if (RunSpecialized)
    SpecializedNs.push_back(Ns * Options.Scale);
  else
    GenericNs.push_back(Ns);
  if (SpecializedNs.size() < Options.Launches ||
      GenericNs.size() < Options.Launches)
    return OFFLOAD_SUCCESS;
  // The minimum: interference only ever adds time.
  double S = *std::min_element(SpecializedNs.begin(), SpecializedNs.end());
  double G = *std::min_element(GenericNs.begin(), GenericNs.end());
  bool Slower = S > G * (1 + kMeasureMargin);
  settle(Slower);
  ++(Slower ? Counters.Slower : Counters.Faster);
  trace(Options, "measured " + Name + " key=" + Key + ": specialized " +
                     std::to_string(int64_t(S)) + " ns, generic " +
                     std::to_string(int64_t(G)) + " ns (minimum of " +
                     std::to_string(Options.Launches) + " launches each): " +
                     (Slower ? "runs the generic kernel from now on"
                             : "keeps the specialization"));
  if (!VerdictPath.empty())
    writeVerdict(VerdictPath, Slower, S, G);
  return OFFLOAD_SUCCESS;
}
