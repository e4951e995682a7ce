//===- FatalSignals.cpp - Async-signal-safe crash reporting ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Everything reachable from a signal handler here calls only functions that
// POSIX lists as async-signal-safe (write, sigaction, sigprocmask, raise,
// nanosleep, _exit) plus the gettid system call.
//
//===----------------------------------------------------------------------===//

#include "OffloadSupport/FatalSignals.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <sys/syscall.h>
#include <unistd.h>

using namespace offload::signals;

void offload::signals::writeAll(int FD, const char *Data, size_t Size) {
  while (Size) {
    ssize_t Written = ::write(FD, Data, Size);
    if (Written < 0) {
      if (errno == EINTR)
        continue;
      return;
    }
    Data += Written;
    Size -= size_t(Written);
  }
}

SignalSafeText &SignalSafeText::append(const char *Data, size_t Length) {
  size_t Room = sizeof(Buffer) - Size;
  if (Length > Room)
    Length = Room;
  std::memcpy(Buffer + Size, Data, Length);
  Size += Length;
  return *this;
}

SignalSafeText &SignalSafeText::operator<<(const char *Text) {
  return Text ? append(Text, std::strlen(Text)) : *this;
}

SignalSafeText &SignalSafeText::operator<<(uint64_t Value) {
  char Digits[20];
  size_t N = 0;
  do {
    Digits[sizeof(Digits) - ++N] = char('0' + Value % 10);
    Value /= 10;
  } while (Value);
  return append(Digits + sizeof(Digits) - N, N);
}

SignalSafeText &SignalSafeText::operator<<(int64_t Value) {
  if (Value >= 0)
    return *this << uint64_t(Value);
  append("-", 1);
  return *this << (~uint64_t(Value) + 1);
}

SignalSafeText &SignalSafeText::hex(uint64_t Value) {
  char Digits[16];
  size_t N = 0;
  do {
    Digits[sizeof(Digits) - ++N] = "0123456789abcdef"[Value & 15];
    Value >>= 4;
  } while (Value);
  append("0x", 2);
  return append(Digits + sizeof(Digits) - N, N);
}

void SignalSafeText::flush(int FD) {
  writeAll(FD, Buffer, Size);
  Size = 0;
}

const char *offload::signals::describeSignal(int Sig) {
  switch (Sig) {
  case SIGSEGV:
    return "SIGSEGV (segmentation fault)";
  case SIGBUS:
    return "SIGBUS (bus error)";
  case SIGILL:
    return "SIGILL (illegal instruction)";
  case SIGFPE:
    return "SIGFPE (arithmetic exception)";
  case SIGABRT:
    return "SIGABRT (abort)";
  case SIGTRAP:
    return "SIGTRAP (trap)";
  default:
    return "signal";
  }
}

void FatalSignalHandler::install(const int *Signals, size_t NumSignals,
                                 Callback Fn) {
  struct sigaction Action;
  std::memset(&Action, 0, sizeof(Action));
  Action.sa_sigaction = Fn;
  // No SA_NODEFER: a fault of the same kind inside the callback is fatal at
  // once (the kernel kills a thread that faults with the signal blocked).
  Action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&Action.sa_mask);
  for (size_t I = 0; I < NumSignals && NumPrevious < kMaxSignals; ++I) {
    Saved &Slot = Previous[NumPrevious++];
    Slot.Sig = Signals[I];
    if (sigaction(Signals[I], &Action, &Slot.Action) != 0)
      Slot.Sig = 0;
  }
}

/// Ends the process with \p Sig's default action.
[[noreturn]] static void dieOf(int Sig) {
  struct sigaction Default;
  std::memset(&Default, 0, sizeof(Default));
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  sigaction(Sig, &Default, nullptr);
  sigset_t Mask;
  sigemptyset(&Mask);
  sigaddset(&Mask, Sig);
  sigprocmask(SIG_UNBLOCK, &Mask, nullptr);
  raise(Sig);
  _exit(128 + Sig);
}

bool FatalSignalHandler::claim(int Sig, const siginfo_t *Info,
                               unsigned WaitSeconds) {
  long Self = syscall(SYS_gettid);
  long First = 0;
  if (Reporter.compare_exchange_strong(First, Self))
    return true;
  if (First == Self)
    dieOf(Sig);
  // Another thread reports: it ends the process when it is done.
  for (unsigned I = 0; I < WaitSeconds * 100; ++I) {
    struct timespec Pause = {0, 10 * 1000 * 1000};
    nanosleep(&Pause, nullptr);
  }
  forward(Sig, Info);
  return false;
}

void FatalSignalHandler::forward(int Sig, const siginfo_t *Info) {
  bool Restored = false;
  for (size_t I = 0; I < kMaxSignals && !Restored; ++I)
    if (Previous[I].Sig == Sig)
      Restored = sigaction(Sig, &Previous[I].Action, nullptr) == 0;
  if (!Restored) {
    struct sigaction Default;
    std::memset(&Default, 0, sizeof(Default));
    Default.sa_handler = SIG_DFL;
    sigemptyset(&Default.sa_mask);
    sigaction(Sig, &Default, nullptr);
  }
  // A fault (si_code > 0, from the kernel) comes back when the instruction
  // runs again; a sent signal (abort, kill, raise) must be sent again. It is
  // blocked while the callback runs, and delivered when it returns.
  if (!Info || Info->si_code <= 0)
    raise(Sig);
}
