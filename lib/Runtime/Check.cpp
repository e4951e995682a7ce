//===- Check.cpp - The runtime side of the checking tools -----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Check.h"
#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Error.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FormatVariadic.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

using namespace offload;
using namespace offload::check;
using llvm::Error;
using llvm::StringRef;

std::atomic<uint32_t> check::detail::EnabledTools{0};
thread_local const offload_code_location_t *check::detail::CurrentCodeLocation =
    nullptr;

namespace {
struct Record {
  ObjectKind Kind;
  std::string What;
  std::string Where;
  uint64_t Order;
};

/// The state of the checking tools; never destroyed (reports can come from
/// exit handlers and from threads still running at exit).
struct State {
  /// Recursive: a report's fflush(stdout) into a closed pipe raises
  /// SIGPIPE, whose handler (LLVM's, in the tools) calls exit(), whose
  /// handler printSummaryAtExit prints on the same thread, holding the lock
  /// already (`offload-run --check ... | head -1` deadlocked on itself).
  std::recursive_mutex PrintMutex;
  std::atomic<uint64_t> Errors{0};
  std::once_flag SummaryRegistered;
  std::mutex RecordsMutex;
  llvm::DenseMap<const void *, Record> Records;
  uint64_t NextOrder = 0;
};

State &getState() {
  static State *S = new State();
  return *S;
}

const char *describeKind(ObjectKind Kind) {
  switch (Kind) {
  case ObjectKind::Allocation:
    return "allocation";
  case ObjectKind::Queue:
    return "queue";
  case ObjectKind::Event:
    return "event";
  case ObjectKind::Program:
    return "program";
  }
  llvm_unreachable("unknown object kind");
}

void printSummaryAtExit() {
  State &S = getState();
  // A leak of allocations, queues and events the application never
  // released: the runtime is still initialized at exit.
  if (isLeakCheckEnabled())
    reportLeaks(/*AtExit=*/true);
  uint64_t N = S.Errors.load();
  std::lock_guard<std::recursive_mutex> Lock(S.PrintMutex);
  std::fflush(stdout);
  std::fprintf(stdout, "========= ERROR SUMMARY: %llu error%s\n",
               (unsigned long long)N, N == 1 ? "" : "s");
  std::fflush(stdout);
  // OFFLOAD_CHECK_ERROR_EXITCODE (compute-sanitizer's --error-exitcode):
  // errors make the process's exit status that code, also those found here
  // at exit (leaks), after the status was chosen. The other exit handlers
  // and static destructors do not run then; streams are flushed.
  if (uint64_t Code = env::CheckErrorExitCode.getUnsigned(0); N && Code) {
    std::fflush(nullptr);
    std::_Exit(int(Code));
  }
}

void registerSummary() {
  State &S = getState();
  std::call_once(S.SummaryRegistered, [] { std::atexit(printSummaryAtExit); });
}
} // namespace

Error check::loadEnabledTools() {
  std::string Value = env::Check.getText();
  std::string Bad;
  std::optional<uint32_t> Tools = parseCheckTools(Value, &Bad);
  if (!Tools)
    return createError(OFFLOAD_ERRC_INVALID_VALUE,
                       "OFFLOAD_CHECK={0}: '{1}' is not a checking tool: "
                       "expected {2}",
                       Value, Bad, CheckToolsSyntax);
  detail::EnabledTools.store(*Tools, std::memory_order_relaxed);
  if (*Tools & CheckInitcheck)
    initcheck::startTracking();
  if (*Tools)
    registerSummary();
  return Error::success();
}

void check::report(StringRef Lines) {
  State &S = getState();
  registerSummary();
  S.Errors.fetch_add(1, std::memory_order_relaxed);
  std::string Text;
  llvm::SmallVector<StringRef> Split;
  Lines.split(Split, '\n');
  for (StringRef Line : Split)
    Text += ("========= " + Line + "\n").str();
  std::lock_guard<std::recursive_mutex> Lock(S.PrintMutex);
  std::fflush(stdout);
  std::fwrite(Text.data(), 1, Text.size(), stdout);
  std::fflush(stdout);
}

void check::countErrors(uint64_t N) {
  registerSummary();
  getState().Errors.fetch_add(N, std::memory_order_relaxed);
}

uint64_t check::getErrorCount() { return getState().Errors.load(); }

void check::recordCreation(const void *Object, ObjectKind Kind,
                           std::string What) {
  if (!isLeakCheckEnabled())
    return;
  std::string Where;
  if (const offload_code_location_t *L = detail::CurrentCodeLocation)
    Where = llvm::formatv("{0} ({1}:{2}:{3})",
                          L->FunctionName ? L->FunctionName : "<unknown>",
                          L->SourceFile ? L->SourceFile : "<unknown>",
                          L->LineNumber, L->ColumnNumber)
                .str();
  State &S = getState();
  std::lock_guard<std::mutex> Lock(S.RecordsMutex);
  S.Records[Object] = {Kind, std::move(What), std::move(Where), S.NextOrder++};
}

void check::recordDestruction(const void *Object) {
  if (!isLeakCheckEnabled())
    return;
  State &S = getState();
  std::lock_guard<std::mutex> Lock(S.RecordsMutex);
  S.Records.erase(Object);
}

uint64_t check::reportLeaks(bool AtExit) {
  State &S = getState();
  std::vector<std::pair<const void *, Record>> Leaks;
  {
    std::lock_guard<std::mutex> Lock(S.RecordsMutex);
    for (auto &[Object, R] : S.Records)
      if (!AtExit || R.Kind != ObjectKind::Program)
        Leaks.push_back({Object, R});
    for (auto &[Object, R] : Leaks)
      S.Records.erase(Object);
  }
  llvm::sort(Leaks, [](const auto &A, const auto &B) {
    return A.second.Order < B.second.Order;
  });
  for (auto &[Object, R] : Leaks) {
    std::string Lines = llvm::formatv("Leaked {0} {1} at {2}",
                                      describeKind(R.Kind), R.What, Object)
                            .str();
    Lines += "\n    created " +
             (R.Where.empty() ? std::string("by a call without a code "
                                            "location (use the WithCodeLoc "
                                            "entry points to see it)")
                              : "at " + R.Where);
    Lines += AtExit ? "\n    still alive at exit"
                    : "\n    still alive at offloadShutDown";
    report(Lines);
  }
  if (!Leaks.empty()) {
    std::lock_guard<std::recursive_mutex> Lock(S.PrintMutex);
    std::fprintf(stdout, "========= LEAK SUMMARY: %zu object%s leaked\n",
                 Leaks.size(), Leaks.size() == 1 ? "" : "s");
    std::fflush(stdout);
  }
  return Leaks.size();
}
