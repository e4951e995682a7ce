//===- HostFault.cpp - Naming the kernel that faults ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HostFault.h"

#include "../../CheckServices.h"

#include "OffloadSupport/FatalSignals.h"
#include "OffloadSupport/KernelNames.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <iterator>
#include <mutex>

#include <pthread.h>
#include <signal.h>

using namespace offload::host;
using namespace offload::signals;

namespace {
/// The launch this thread runs blocks of: its kernel's name and context.
struct CurrentLaunch {
  llvm::StringRef Name;
  const offload_host_kernel_context_t *Ctx = nullptr;
  DeviceFailures *Failures = nullptr;
};
thread_local CurrentLaunch Current;

/// The faulting thread's CurrentLaunch, for the signal handler: a
/// thread_local of a library that is dlopen'ed (the Python module) is
/// allocated with malloc on a thread's first access, which a signal handler
/// must not do, and a thread that never ran a block has not accessed it. The
/// key holds the address of the thread's Current once it has.
pthread_key_t CurrentKey;

constexpr int FaultSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
FatalSignalHandler Handler;

/// Runs on the faulting thread, inside the signal handler: only
/// async-signal-safe calls (FatalSignals.h).
void onFault(int Sig, siginfo_t *Info, void *) {
  if (!Handler.claim(Sig, Info))
    return;
  const auto *Launch =
      static_cast<const CurrentLaunch *>(pthread_getspecific(CurrentKey));
  if (const offload_host_kernel_context_t *Ctx =
          Launch ? Launch->Ctx : nullptr) {
    SignalSafeText Line;
    Line << "offload: fault in host kernel ";
    offload::appendKernelDisplayName(Launch->Name, [&](llvm::StringRef Piece) {
      Line.append(Piece.data(), Piece.size());
    });
    Line << ", block (" << Ctx->BlockId[0] << ", " << Ctx->BlockId[1] << ", "
         << Ctx->BlockId[2] << ") of a grid of (" << Ctx->GridDim[0] << ", "
         << Ctx->GridDim[1] << ", " << Ctx->GridDim[2] << ") blocks of ("
         << Ctx->BlockDim[0] << ", " << Ctx->BlockDim[1] << ", "
         << Ctx->BlockDim[2] << ") threads: " << describeSignal(Sig) << "\n";
    Line.flush(STDERR_FILENO);
  }
  Handler.forward(Sig, Info);
}
} // namespace

/// Installs onFault in front of the handlers of the process (offload-run's
/// crash report, a sanitizer's, the default action). Unlike LLVM's signal
/// handling, this neither allocates in the handler nor gives the thread an
/// alternate signal stack of its own (which replaced ASan's, and ASan then
/// failed to unmap it at thread exit).
static void registerFaultHandler() {
  pthread_key_create(&CurrentKey, nullptr);
  Handler.install(FaultSignals, std::size(FaultSignals), onFault);
}

FaultScope::FaultScope(llvm::StringRef Name,
                       const offload_host_kernel_context_t &Ctx,
                       DeviceFailures &Failures) {
  static std::once_flag Registered;
  std::call_once(Registered, registerFaultHandler);
  if (pthread_getspecific(CurrentKey) != &Current)
    pthread_setspecific(CurrentKey, &Current);
  Outer = {Current.Name, Current.Ctx, Current.Failures};
  Current = {Name, &Ctx, &Failures};
}

FaultScope::~FaultScope() { Current = {Outer.Name, Outer.Ctx, Outer.Failures}; }

RunningLaunch offload::host::getRunningLaunch() {
  return {Current.Name, Current.Ctx, Current.Failures};
}

extern "C" void __offload_host_assert_fail(const char *Message,
                                           const char *File, uint32_t Line,
                                           const char *Function, int64_t BlockX,
                                           int64_t BlockY, int64_t BlockZ,
                                           int64_t ThreadX, int64_t ThreadY,
                                           int64_t ThreadZ) {
  // One line per failing thread, whole, on stdout like CUDA's.
  std::fprintf(stdout,
               "%s:%u: %s: block: [%lld,%lld,%lld], thread: [%lld,%lld,%lld] "
               "Assertion `%s` failed.\n",
               File, Line, Function, (long long)BlockX, (long long)BlockY,
               (long long)BlockZ, (long long)ThreadX, (long long)ThreadY,
               (long long)ThreadZ, Message);
  std::fflush(stdout);
  if (Current.Failures)
    Current.Failures->Assertions.fetch_add(1, std::memory_order_relaxed);
}

extern "C" void __offload_host_bounds_fail(const char *Location, const char *Op,
                                           const char *Kernel, int64_t Dim,
                                           int64_t Index, int64_t Size,
                                           int64_t BlockX, int64_t BlockY,
                                           int64_t BlockZ, int64_t ThreadX,
                                           int64_t ThreadY, int64_t ThreadZ) {
  // The thread goes on with the access made harmless: report its first bad
  // access only.
  if (Current.Failures) {
    std::lock_guard<std::mutex> Lock(Current.Failures->FaultedMutex);
    if (!Current.Failures->Faulted
             .insert({BlockX, BlockY, BlockZ, ThreadX, ThreadY, ThreadZ})
             .second)
      return;
  }
  // memcheck's report, in compute-sanitizer's shape: one line, counted in the
  // error summary.
  offload::check::report(llvm::formatv("{0}: out-of-bounds {1} in kernel "
                                       "'{2}', block: [{3},{4},{5}], thread: "
                                       "[{6},{7},{8}]: index {9} of dimension "
                                       "{10} is not below its size {11}",
                                       Location, Op, Kernel, BlockX, BlockY,
                                       BlockZ, ThreadX, ThreadY, ThreadZ, Index,
                                       Dim, Size)
                             .str());
  if (Current.Failures)
    Current.Failures->OutOfBounds.fetch_add(1, std::memory_order_relaxed);
}
