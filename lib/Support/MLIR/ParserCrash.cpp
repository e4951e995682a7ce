//===- ParserCrash.cpp - Containing crashes of the MLIR parser ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Support/ParserCrash.h"

#include "mlir/IR/Block.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/PrettyStackTrace.h"
#include "llvm/Support/SourceMgr.h"

#include <csignal>
#include <mutex>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#include <sanitizer/lsan_interface.h>
#define OFFLOAD_HAS_LSAN 1
#endif
#endif

using namespace mlir;

namespace {
/// Checks running now; the first installs CrashRecoveryContext's handlers,
/// the last removes them.
std::mutex recoveryMutex;
unsigned activeChecks = 0;
/// Whether the handlers now installed are the ones our Enable installed
/// (and so ours to remove), and which SIGSEGV handler that was.
bool installedHandlers = false;
void *installedHandler = nullptr;

void *getSegvHandler() {
  struct sigaction action = {};
  if (sigaction(SIGSEGV, nullptr, &action) != 0)
    return nullptr;
  if (action.sa_flags & SA_SIGINFO)
    return reinterpret_cast<void *>(action.sa_sigaction);
  return reinterpret_cast<void *>(action.sa_handler);
}

void beginRecovery() {
  std::lock_guard<std::mutex> lock(recoveryMutex);
  if (activeChecks++ != 0)
    return;
  void *before = getSegvHandler();
  llvm::CrashRecoveryContext::Enable();
  installedHandler = getSegvHandler();
  // Enable does nothing when recovery is already on (MLIR's crash
  // reproducer, or an earlier check whose handlers stayed).
  installedHandlers = installedHandler != before;
}

void endRecovery() {
  std::lock_guard<std::mutex> lock(recoveryMutex);
  if (--activeChecks != 0)
    return;
  // Disable puts back the handlers from before Enable: not when another
  // handler was installed over ours meanwhile (the host plugin's fault
  // reporter, when a thread first runs a block; LLVM's), which would be
  // lost. That one passes a signal on to ours, which passes it on to the
  // handlers from before.
  if (installedHandlers && getSegvHandler() == installedHandler)
    llvm::CrashRecoveryContext::Disable();
  installedHandlers = false;
}

std::string describeSignal(int retCode) {
  // CrashRecoveryContext reports a signal as 128 + its number.
  switch (retCode - 128) {
  case SIGSEGV:
    return "SIGSEGV: segmentation fault";
  case SIGBUS:
    return "SIGBUS: bus error";
  case SIGILL:
    return "SIGILL: illegal instruction";
  case SIGFPE:
    return "SIGFPE: arithmetic exception";
  case SIGABRT:
    return "SIGABRT: abort";
  case SIGTRAP:
    return "SIGTRAP: trap";
  default:
    return "crash code " + std::to_string(retCode);
  }
}
} // namespace

namespace {
/// Whether the runRecoveringCrashesUntilStopped region this thread is in
/// was stopped; null outside one.
thread_local bool *stoppableRegion = nullptr;

void enableLeakChecks() {
#ifdef OFFLOAD_HAS_LSAN
  __lsan_enable();
#endif
}

std::optional<std::string> runRecovering(llvm::function_ref<void()> fn,
                                         bool stoppable) {
  bool stopped = false;
  bool *outerRegion = stoppableRegion;
  if (stoppable)
    stoppableRegion = &stopped;
  beginRecovery();
#ifdef OFFLOAD_HAS_LSAN
  // What a crash leaves (the parser's partial IR, its context) is
  // unreachable and never freed.
  __lsan_disable();
#endif
  // PrettyStackTraceEntry objects of the parser live on the stack the crash
  // leaves.
  const void *prettyStack = llvm::SavePrettyStackState();
  llvm::CrashRecoveryContext recovery;
  bool returned = recovery.RunSafely(fn);
  if (stoppable)
    stoppableRegion = outerRegion;
  if (!returned)
    llvm::RestorePrettyStackState(prettyStack);
  if (!stopped) {
    enableLeakChecks();
    endRecovery();
  }
  if (returned)
    return std::nullopt;
  if (stopped) {
    // A crash after the stop that reached this region anyway (recovery was
    // on again for another thread's check): not the parser's; it goes to
    // the handlers of the process, and the process dies of it.
    if (int signal = recovery.RetCode - 128; signal > 0) {
      std::raise(signal);
      std::signal(signal, SIG_DFL);
      std::raise(signal);
    }
  }
  return describeSignal(recovery.RetCode);
}
} // namespace

std::optional<std::string>
mlir::offload::runRecoveringCrashes(llvm::function_ref<void()> fn) {
  return runRecovering(fn, /*stoppable=*/false);
}

std::optional<std::string>
mlir::offload::runRecoveringCrashesUntilStopped(llvm::function_ref<void()> fn) {
  return runRecovering(fn, /*stoppable=*/true);
}

void mlir::offload::stopRecoveringCrashes() {
  if (!stoppableRegion || *stoppableRegion)
    return;
  *stoppableRegion = true;
  enableLeakChecks();
  endRecovery();
}

std::string mlir::offload::describeParserCrash(llvm::StringRef crash,
                                               llvm::StringRef source) {
  std::string message = "the MLIR " + std::to_string(LLVM_VERSION_MAJOR) +
                        " parser or verifier crashed on the input (" +
                        crash.str() + ")";
  if (std::optional<std::string> known = describeKnownParserCrash(source))
    return message + "; the input has " + *known +
           ", which upstream MLIR does not handle";
  return message + ", a bug of upstream MLIR";
}

std::optional<std::string>
mlir::offload::describeKnownParserCrash(llvm::StringRef source) {
  // gpu.launch with results but without `async`: LaunchOp's verifier
  // dereferences the missing async token's type.
  llvm::StringRef launch = "gpu.launch";
  for (size_t at = source.find(launch); at != llvm::StringRef::npos;
       at = source.find(launch, at + 1)) {
    llvm::StringRef after = source.drop_front(at + launch.size());
    if (after.starts_with("_func"))
      continue;
    if (source.take_front(at).rtrim().ends_with("=") &&
        !after.ltrim().starts_with("async"))
      return std::string("a `gpu.launch` with a result but without `async`");
  }
  // A dense array of index: the parser asks index for its bit width.
  for (size_t at = source.find("array<"); at != llvm::StringRef::npos;
       at = source.find("array<", at + 1)) {
    llvm::StringRef type = source.drop_front(at + 6).ltrim();
    if (type.starts_with("index") &&
        !(type.size() > 5 && (llvm::isAlnum(type[5]) || type[5] == '_')))
      return std::string("a dense array of `index` (`array<index: ...>`)");
  }
  return std::nullopt;
}

namespace {
/// The context checks parse in, reused (its dialects load once: a check then
/// costs about a parse) and made anew after a number of checks (it keeps
/// what they interned) or for another registry. Never destroyed at exit.
struct CheckContext {
  std::mutex mutex;
  MLIRContext *context = nullptr;
  const DialectRegistry *registry = nullptr;
  unsigned uses = 0;
};
constexpr unsigned maxCheckContextUses = 64;

CheckContext &getCheckContext() {
  static CheckContext *checkContext = new CheckContext();
  return *checkContext;
}
} // namespace

std::optional<std::string>
mlir::offload::findParserCrash(llvm::MemoryBufferRef source,
                               const DialectRegistry &registry, bool verify,
                               bool allowUnregisteredDialects) {
  CheckContext &check = getCheckContext();
  std::lock_guard<std::mutex> lock(check.mutex);
  if (check.context &&
      (check.registry != &registry || check.uses >= maxCheckContextUses)) {
    delete check.context;
    check.context = nullptr;
  }
  std::optional<std::string> crash = runRecoveringCrashes([&] {
    if (!check.context) {
      check.context =
          new MLIRContext(registry, MLIRContext::Threading::DISABLED);
      check.registry = &registry;
      check.uses = 0;
    }
    ++check.uses;
    MLIRContext *context = check.context;
    context->allowUnregisteredDialects(allowUnregisteredDialects);
    ScopedDiagnosticHandler quiet(context,
                                  [](Diagnostic &) { return success(); });
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(source,
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    Block block;
    (void)parseSourceFile(sourceMgr, &block, ParserConfig(context, verify));
  });
  if (crash) {
    // The context that crashed stays allocated and unused (ParserCrash.h).
    check.context = nullptr;
  }
  if (!crash)
    return std::nullopt;
  return describeParserCrash(*crash, source.getBuffer());
}
