//===- Config.h - Settings the whole runtime reads --------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The run-time configuration that the core and the plugins both read: whether
// entry points validate and trace (OFFLOAD_DISABLE_VALIDATION,
// OFFLOAD_TRACE, read by offloadInit), and the trace's one-line messages. A
// leaf header: it includes nothing of the runtime, so that a plugin needs no
// private header of the core (plugins include Plugin.h, Error.h, this file
// and CheckServices.h; docs/GPU.md, "Plugins").
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_CONFIG_H
#define OFFLOADRUNTIME_LIB_CONFIG_H

#include <atomic>

namespace llvm {
class Twine;
} // namespace llvm

namespace offload {

namespace detail {
/// The flags behind isValidationEnabled and isTraceEnabled (Runtime.cpp).
extern std::atomic<bool> ValidationEnabled;
extern std::atomic<bool> TraceEnabled;
} // namespace detail

/// Whether entry points validate their arguments (OFFLOAD_DISABLE_VALIDATION
/// unset or 0). Read from the environment when the runtime is initialized.
inline bool isValidationEnabled() {
  return detail::ValidationEnabled.load(std::memory_order_relaxed);
}
/// Whether entry points print each call to stderr (OFFLOAD_TRACE=1).
inline bool isTraceEnabled() {
  return detail::TraceEnabled.load(std::memory_order_relaxed);
}

namespace trace {
/// Prints "offload: <Line>" on one line of stderr, atomically, when tracing
/// (OFFLOAD_TRACE=1): what the runtime decided on the caller's behalf
/// (Trace.cpp).
void printLine(const llvm::Twine &Line);
} // namespace trace

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_CONFIG_H
