//===- DynamicLibrary.h - Vendor libraries loaded at run time ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The GPU plugins link against no vendor library: each opens its driver
// (libcuda.so.1, libamdhip64.so) at offloadInit with llvm::sys::DynamicLibrary
// and resolves its entry points from a symbol table (<Vendor>Symbols.def).
// A library that cannot be opened, or lacks a required entry point, gives the
// platform no devices and a reason, never an error.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_COMMON_DYNAMICLIBRARY_H
#define OFFLOADRUNTIME_LIB_PLUGINS_COMMON_DYNAMICLIBRARY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/DynamicLibrary.h"

#include <optional>
#include <string>

namespace offload {
namespace plugin {

/// A shared library opened with llvm::sys::DynamicLibrary::getLibrary (which
/// keeps it out of the process-wide symbol search LLVM's JITs use). Vendor
/// libraries are never closed: drivers keep threads and atexit handlers that
/// outlive a dlclose.
class DynamicLibrary {
public:
  /// Opens the first loadable of \p Candidates (file names, which the dynamic
  /// loader searches for, or paths). On failure, \p Why lists the loader's
  /// message for each candidate, separated by "; ".
  static std::optional<DynamicLibrary>
  open(llvm::ArrayRef<std::string> Candidates, std::string &Why);

  /// The address of \p Name, or null.
  void *getSymbol(const char *Name) const;
  /// The address of \p Export, else of \p Fallback (if not null). When
  /// neither exists and \p Required, appends \p Export to \p Missing (a
  /// comma-separated list for the "it lacks ..." message).
  void *resolve(const char *Export, const char *Fallback, bool Required,
                std::string &Missing) const;
  /// The path the library was opened from, as the dynamic loader found it
  /// (the candidate itself if the loader cannot tell).
  const std::string &getPath() const { return Path; }

private:
  mutable llvm::sys::DynamicLibrary Library;
  std::string Path;
};

} // namespace plugin
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_COMMON_DYNAMICLIBRARY_H
