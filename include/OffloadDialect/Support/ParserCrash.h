//===- ParserCrash.h - Containing crashes of the MLIR parser ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Some inputs crash upstream MLIR's parser or verifier (Debian's MLIR 22: a
// dense array of `index`, `array<index: 1>`; a `gpu.launch` with a result
// but without `async`). Where the project parses user MLIR in a library (the
// JIT's offloadCreateProgramFromMLIR*, and through it Python's
// offload.compile) or a tool (offload-opt), it first parses the input in an
// MLIRContext of its own under llvm::CrashRecoveryContext, so that such an
// input is an error and the caller's process survives.
//
// Caveats of llvm::CrashRecoveryContext: its signal handlers are
// process-wide (installed for the check and removed after it, unless
// another handler was installed over them meanwhile); a crash on another
// thread during a check is passed on to the handlers installed before; it
// recovers from what a parser does (an llvm_unreachable, a null or wild
// dereference, an abort), not from heap corruption, and a crash that
// happens while a lock is held leaves the lock held. The context of a check
// that crashed is therefore leaked, never used or destroyed again.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_SUPPORT_PARSERCRASH_H
#define OFFLOADDIALECT_SUPPORT_PARSERCRASH_H

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <optional>
#include <string>

namespace mlir::offload {

/// Runs \p fn on this thread under llvm::CrashRecoveryContext. Returns the
/// signal it crashed with ("SIGSEGV (segmentation fault)"), or std::nullopt
/// when it returned. Leak checking (LeakSanitizer) is off while \p fn runs.
std::optional<std::string> runRecoveringCrashes(llvm::function_ref<void()> fn);

/// Parses \p source (MLIR text or bytecode) as parseSourceFile does, and
/// verifies it when \p verify, in a context of the checks' own made from
/// \p registry (multithreading disabled, diagnostics dropped; reused by up
/// to 64 checks, about 0.2 ms for a small module once its dialects are
/// loaded) under runRecoveringCrashes. Checks run one at a time. Returns a
/// one-line message when upstream MLIR crashed ("MLIR 22 crashed parsing or
/// verifying the input (SIGSEGV (segmentation fault)); the input has ..., which
/// upstream MLIR does not handle"), std::nullopt when it did not, whether or
/// not the input parses: the caller's own parse reports the diagnostics.
std::optional<std::string>
findParserCrash(llvm::MemoryBufferRef source, const DialectRegistry &registry,
                bool verify = true, bool allowUnregisteredDialects = false);

/// runRecoveringCrashes for tools whose upstream driver parses the input
/// and then calls back (JitRunnerMain): recovery is on until \p fn calls
/// stopRecoveringCrashes on this thread, after which a crash is the
/// process's (its signal handlers run, it dies). Returns the signal of a
/// crash before the stop.
std::optional<std::string>
runRecoveringCrashesUntilStopped(llvm::function_ref<void()> fn);

/// Ends the recovery of the runRecoveringCrashesUntilStopped this thread
/// runs in, if any.
void stopRecoveringCrashes();

/// The one-line message for a crash (\p crash: the signal, as
/// runRecoveringCrashes returns it) of the parser on \p source, naming the
/// known upstream bug \p source shows, if any.
std::string describeParserCrash(llvm::StringRef crash, llvm::StringRef source);

/// The known upstream bug \p source shows, if any, as a phrase ("a
/// `gpu.launch` with a result but without `async`").
std::optional<std::string> describeKnownParserCrash(llvm::StringRef source);

} // namespace mlir::offload

#endif // OFFLOADDIALECT_SUPPORT_PARSERCRASH_H
