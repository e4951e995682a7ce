//===- CrashReport.cpp - offload-run's report of fatal signals ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "CrashReport.h"

#include "OffloadSupport/FatalSignals.h"

#include <atomic>
#include <execinfo.h>
#include <iterator>
#include <unistd.h>

using namespace offloadrun;
using namespace offload::signals;

namespace {
constexpr int CrashSignals[] = {SIGSEGV, SIGBUS,  SIGILL,
                                SIGFPE,  SIGABRT, SIGTRAP};
FatalSignalHandler Handler;

/// The bug-report line, "Stack dump:" and the program arguments, formatted
/// when the handler is installed; ProgramPreamble has the line of a crash
/// while the input program runs in place of the bug-report line.
std::string *Preamble;
std::string *ProgramPreamble;
/// Whether the input program runs (setProgramRunning).
volatile sig_atomic_t ProgramRunning = 0;

/// The innermost entry of this thread. A constant-initialized thread_local of
/// the executable: reading it in the handler allocates nothing.
thread_local CrashReportEntry *Innermost = nullptr;

/// The signal being reported, for the watchdog.
volatile sig_atomic_t Reporting = 0;

/// SIGALRM, armed while the stack is unwound: the unwinder takes the dynamic
/// loader's lock, which a thread could hold while it waits for one the
/// faulting thread holds. The report's text is out by then; end the process.
void onWatchdog(int) {
  static const char Message[] = "offload-run: the stack trace did not finish "
                                "in 2 seconds\n";
  writeAll(STDERR_FILENO, Message, sizeof(Message) - 1);
  _exit(128 + (Reporting ? int(Reporting) : SIGALRM));
}

void printStackTrace() {
  struct sigaction Watchdog = {};
  Watchdog.sa_handler = onWatchdog;
  sigemptyset(&Watchdog.sa_mask);
  sigaction(SIGALRM, &Watchdog, nullptr);
  alarm(2);
  void *Frames[64];
  int Depth = backtrace(Frames, int(std::size(Frames)));
  SignalSafeText Text;
  Text << "Stack (return addresses; llvm-symbolizer resolves "
          "library+offset):\n";
  Text.flush(STDERR_FILENO);
  backtrace_symbols_fd(Frames, Depth, STDERR_FILENO);
  alarm(0);
}

void onCrash(int Sig, siginfo_t *Info, void *) {
  if (!Handler.claim(Sig, Info))
    return;
  Reporting = Sig;
  if (const std::string *Text = ProgramRunning ? ProgramPreamble : Preamble)
    writeAll(STDERR_FILENO, Text->data(), Text->size());
  // The thread's entries, outermost first.
  const CrashReportEntry *Entries[32];
  size_t NumEntries = 0;
  for (const CrashReportEntry *E = Innermost;
       E && NumEntries < std::size(Entries); E = E->getOuter())
    Entries[NumEntries++] = E;
  SignalSafeText Text;
  for (size_t I = 0; I < NumEntries; ++I) {
    const std::string &Line = Entries[NumEntries - 1 - I]->getText();
    Text << uint64_t(I + 1) << ".\t";
    Text.append(Line.data(), Line.size());
    if (Line.empty() || Line.back() != '\n')
      Text << "\n";
    Text.flush(STDERR_FILENO);
  }
  Text << "offload-run: " << describeSignal(Sig);
  if ((Sig == SIGSEGV || Sig == SIGBUS) && Info && Info->si_code > 0 &&
      Info->si_code != SI_KERNEL)
    (Text << " at address ")
        .hex(uint64_t(reinterpret_cast<uintptr_t>(Info->si_addr)));
  Text << "\n";
  Text.flush(STDERR_FILENO);
  printStackTrace();
  Handler.forward(Sig, Info);
}
} // namespace

void offloadrun::setProgramRunning(const char *ProgramCrashMessage) {
  // Written before the flag: the handler reads the text only once it is set.
  if (ProgramPreamble)
    ProgramPreamble->insert(0, ProgramCrashMessage);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  ProgramRunning = 1;
}

CrashReportEntry::CrashReportEntry(std::string Text)
    : Text(std::move(Text)), Outer(Innermost) {
  Innermost = this;
}

CrashReportEntry::~CrashReportEntry() { Innermost = Outer; }

void offloadrun::installCrashReport(int Argc, char **Argv,
                                    const char *BugReportMessage) {
  std::string Dump = "Stack dump:\n0.\tProgram arguments:";
  for (int I = 0; I < Argc; ++I) {
    Dump += ' ';
    Dump += Argv[I];
  }
  Dump += '\n';
  Preamble = new std::string(BugReportMessage + Dump);
  ProgramPreamble = new std::string(Dump);
  // The first backtrace loads the unwinder (libgcc_s), allocating: not in
  // the handler.
  void *Frame;
  (void)backtrace(&Frame, 1);
  Handler.install(CrashSignals, std::size(CrashSignals), onCrash);
}
