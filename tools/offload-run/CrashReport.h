//===- CrashReport.h - offload-run's report of fatal signals ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-run's handler of SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and
// SIGTRAP, in place of LLVM's stack printer: LLVM's handler symbolizes the
// stack (allocating, running llvm-symbolizer), and a program that corrupts
// the heap dies in glibc's malloc holding the arena lock, so the stack
// printer waited for that lock forever. This one only writes text formatted
// before the crash (the bug-report line and the program arguments) and the
// context lines of the faulting thread (the running pass), then the raw
// stack (return addresses in their libraries, with the exported symbol
// names glibc's backtrace_symbols_fd finds without allocating; llvm-symbolizer
// turns them into source lines), then the signal goes on to the handler
// installed before (LLVM's, which removes its temporary files, then the
// default action or a sanitizer's).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TOOLS_OFFLOAD_RUN_CRASHREPORT_H
#define OFFLOAD_TOOLS_OFFLOAD_RUN_CRASHREPORT_H

#include <string>

namespace offloadrun {

/// Installs the handler. \p BugReportMessage is printed first, then
/// "Stack dump:" and the program arguments \p Argv. Call once, after LLVM's
/// signal handling is set up (so that this one runs first).
void installCrashReport(int Argc, char **Argv, const char *BugReportMessage);

/// From now on the input program runs (its host code and kernels): a crash
/// prints \p ProgramCrashMessage in place of the bug-report line, since a
/// fault there is most often the program's own (an out-of-bounds store, a
/// null call) and the runtime has named a faulting host kernel on the line
/// before. Signal-safe to read; call once, on any thread.
void setProgramRunning(const char *ProgramCrashMessage);

/// While alive, a crash on the thread that created it prints \p Text (one
/// line, "running pass ..."), after the program arguments and the entries
/// created before it. Entries of a thread nest: the last created is
/// destroyed first.
class CrashReportEntry {
public:
  explicit CrashReportEntry(std::string Text);
  ~CrashReportEntry();
  CrashReportEntry(const CrashReportEntry &) = delete;
  CrashReportEntry &operator=(const CrashReportEntry &) = delete;

  const std::string &getText() const { return Text; }
  const CrashReportEntry *getOuter() const { return Outer; }

private:
  std::string Text;
  CrashReportEntry *Outer;
};

} // namespace offloadrun

#endif // OFFLOAD_TOOLS_OFFLOAD_RUN_CRASHREPORT_H
