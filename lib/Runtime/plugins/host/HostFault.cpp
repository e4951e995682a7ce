//===- HostFault.cpp - Naming the kernel that faults ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HostFault.h"

#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>

#include <signal.h>

using namespace offload::host;

namespace {
/// The launch this thread runs blocks of: its kernel's name and context.
struct CurrentLaunch {
  llvm::StringRef Name;
  const offload_host_kernel_context_t *Ctx = nullptr;
  DeviceFailures *Failures = nullptr;
};
thread_local CurrentLaunch Current;

/// Runs on the faulting thread, inside the signal handler.
void reportFault(void *) {
  const offload_host_kernel_context_t *Ctx = Current.Ctx;
  if (!Ctx)
    return;
  llvm::errs() << "offload: fault in host kernel '" << Current.Name
               << "', block (" << Ctx->BlockId[0] << ", " << Ctx->BlockId[1]
               << ", " << Ctx->BlockId[2] << ") of a grid of ("
               << Ctx->GridDim[0] << ", " << Ctx->GridDim[1] << ", "
               << Ctx->GridDim[2] << ") blocks of (" << Ctx->BlockDim[0] << ", "
               << Ctx->BlockDim[1] << ", " << Ctx->BlockDim[2] << ") threads\n";
  llvm::errs().flush();
}
} // namespace

/// Adds reportFault to LLVM's signal handlers. LLVM's first registration
/// also gives the calling thread (here any thread that runs a block, often a
/// pool worker) an alternate signal stack of its own when the thread's is
/// smaller than LLVM wants, replacing it. The thread's alternate stack
/// belongs to whoever installed it, who frees it when the thread exits: ASan
/// installs one per thread and unmaps the one it then finds ("failed to
/// deallocate", CHECK failure at thread exit, on LLVM's malloc'ed stack).
/// So a stack the thread already had is put back.
static void registerFaultHandler() {
  stack_t Before = {};
  bool HadStack = sigaltstack(nullptr, &Before) == 0 &&
                  !(Before.ss_flags & SS_DISABLE) && Before.ss_sp;
  llvm::sys::AddSignalHandler(reportFault, nullptr);
  stack_t After = {};
  if (HadStack && sigaltstack(nullptr, &After) == 0 &&
      After.ss_sp != Before.ss_sp && !(After.ss_flags & SS_ONSTACK)) {
    Before.ss_flags = 0;
    (void)sigaltstack(&Before, nullptr);
  }
}

FaultScope::FaultScope(llvm::StringRef Name,
                       const offload_host_kernel_context_t &Ctx,
                       DeviceFailures &Failures) {
  static std::once_flag Registered;
  std::call_once(Registered, registerFaultHandler);
  Outer = {Current.Name, Current.Ctx, Current.Failures};
  Current = {Name, &Ctx, &Failures};
}

FaultScope::~FaultScope() { Current = {Outer.Name, Outer.Ctx, Outer.Failures}; }

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
  std::fprintf(stdout,
               "%s: out-of-bounds %s in kernel '%s', block: [%lld,%lld,%lld], "
               "thread: [%lld,%lld,%lld]: index %lld of dimension %lld is not "
               "below its size %lld\n",
               Location, Op, Kernel, (long long)BlockX, (long long)BlockY,
               (long long)BlockZ, (long long)ThreadX, (long long)ThreadY,
               (long long)ThreadZ, (long long)Index, (long long)Dim,
               (long long)Size);
  std::fflush(stdout);
  if (Current.Failures)
    Current.Failures->OutOfBounds.fetch_add(1, std::memory_order_relaxed);
}
