//===- FatalSignals.h - Async-signal-safe crash reporting -------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What a handler of a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE,
// SIGABRT, ...) may do: the process may have crashed anywhere, inside malloc
// holding its lock (glibc aborts there when it finds the heap corrupted), so
// the handler only calls async-signal-safe functions: no allocation, no
// stdio, no locks. Text is formatted into a fixed buffer (SignalSafeText) and
// written with write(2).
//
// A FatalSignalHandler chains one callback in front of the handlers installed
// before it. When several threads fault at once (a bad access across a
// grid), the first one reports and the others wait until the process dies:
// none of them can end the process before the report is out. The reporter
// then forwards the signal to the handler installed before (as SA_RESETHAND
// would: the previous action is put back and the signal delivered again),
// which in the end is the default action, death by the signal.
//
// The runtime's host plugin (naming the kernel that faults) and offload-run
// (its crash report) each have one; the runtime's is installed last and runs
// first.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_OFFLOADSUPPORT_FATALSIGNALS_H
#define OFFLOAD_OFFLOADSUPPORT_FATALSIGNALS_H

#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstdint>

namespace offload::signals {

/// Writes \p Size bytes at \p Data to \p FD with write(2), retrying partial
/// writes and EINTR. Async-signal-safe.
void writeAll(int FD, const char *Data, size_t Size);

/// Text built in a fixed buffer without allocating; what does not fit is
/// dropped. Async-signal-safe.
class SignalSafeText {
public:
  SignalSafeText &operator<<(const char *Text);
  SignalSafeText &append(const char *Data, size_t Size);
  SignalSafeText &operator<<(int64_t Value);
  SignalSafeText &operator<<(uint64_t Value);
  SignalSafeText &operator<<(int Value) { return *this << int64_t(Value); }
  SignalSafeText &operator<<(unsigned Value) {
    return *this << uint64_t(Value);
  }
  /// \p Value as 0x followed by hexadecimal digits.
  SignalSafeText &hex(uint64_t Value);

  /// Writes the text to \p FD and empties it.
  void flush(int FD);

private:
  char Buffer[1024];
  size_t Size = 0;
};

/// "SIGSEGV (segmentation fault)" and the like for the fatal signals, else
/// "signal".
const char *describeSignal(int Sig);

/// One handler of fatal signals, chained in front of the ones installed
/// before it. Objects are meant to be static: the handler may run until the
/// process ends.
class FatalSignalHandler {
public:
  using Callback = void (*)(int Sig, siginfo_t *Info, void *Context);

  /// Installs \p Fn for the first \p NumSignals of \p Signals (at most
  /// kMaxSignals), on the alternate signal stack where the thread has one,
  /// remembering the actions installed before. Not signal-safe; call once.
  void install(const int *Signals, size_t NumSignals, Callback Fn);

  /// In the callback, first: true on the first thread to take one of the
  /// signals, which then reports and calls forward. A fatal signal that
  /// comes back to that thread (a fault while reporting) ends the process
  /// with the signal's default action. Other threads wait here until the
  /// process ends; only when the reporter has not ended it after
  /// \p WaitSeconds (it hangs) do they forward their own signal and get
  /// false, and the callback returns.
  bool claim(int Sig, const siginfo_t *Info, unsigned WaitSeconds = 10);

  /// Puts back the action installed before this handler for \p Sig and
  /// delivers the signal to it again: a fault comes back when the faulting
  /// instruction runs again, after the callback returns; a signal that was
  /// sent (abort, kill) is raised again, delivered when the callback
  /// returns. The callback returns after it.
  void forward(int Sig, const siginfo_t *Info);

  static constexpr size_t kMaxSignals = 8;

private:
  struct Saved {
    int Sig;
    struct sigaction Action;
  };
  Saved Previous[kMaxSignals] = {};
  size_t NumPrevious = 0;
  /// The thread id of the reporting thread, 0 before a signal.
  std::atomic<long> Reporter{0};
};

} // namespace offload::signals

#endif // OFFLOAD_OFFLOADSUPPORT_FATALSIGNALS_H
