//===- offload-cache.cpp - Inspect the JIT's persistent cache -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
//   offload-cache [--dir=DIR] list      entries, most recently used first:
//                                       key, size, disk hits, age (since
//                                       written), last use, kernel, target
//   offload-cache [--dir=DIR] stats     entry count, bytes, bound, oldest use
//   offload-cache [--dir=DIR] verify    check every entry; exit 1 if any is
//                                       corrupt (--delete-corrupt removes them)
//   offload-cache [--dir=DIR] clear     delete every entry
//
// DIR defaults to the JIT's: $OFFLOAD_CACHE_DIR, $XDG_CACHE_HOME/offload-jit
// or ~/.cache/offload-jit. A DIR that does not exist or is not a directory,
// and an empty --dir=, are errors (exit status 1).
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"
#include "OffloadVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>

using namespace llvm;
using namespace offloadjit;

static cl::OptionCategory category("offload-cache options");
static cl::opt<std::string> command(cl::Positional, cl::Required,
                                    cl::desc("<list|stats|verify|clear>"),
                                    cl::cat(category));
static cl::opt<std::string>
    directory("dir", cl::desc("cache directory (default: the JIT's)"),
              cl::value_desc("path"), cl::cat(category));
static cl::opt<bool> deleteCorrupt("delete-corrupt",
                                   cl::desc("verify: delete corrupt entries"),
                                   cl::cat(category));

static std::string formatTime(int64_t seconds) {
  std::time_t time = seconds;
  char buffer[32];
  std::strftime(buffer, sizeof(buffer), "%Y-%m-%d %H:%M:%S",
                std::localtime(&time));
  return buffer;
}

/// \p seconds as "45s", "12m", "3h05m", "4d02h".
static std::string formatAge(int64_t seconds) {
  if (seconds < 0)
    seconds = 0;
  char buffer[32];
  if (seconds < 60)
    std::snprintf(buffer, sizeof(buffer), "%llds", (long long)seconds);
  else if (seconds < 3600)
    std::snprintf(buffer, sizeof(buffer), "%lldm", (long long)seconds / 60);
  else if (seconds < 86400)
    std::snprintf(buffer, sizeof(buffer), "%lldh%02lldm",
                  (long long)seconds / 3600, (long long)seconds % 3600 / 60);
  else
    std::snprintf(buffer, sizeof(buffer), "%lldd%02lldh",
                  (long long)seconds / 86400,
                  (long long)seconds % 86400 / 3600);
  return buffer;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "offload-cache " OFFLOAD_VERSION_LINE "\n";
  });
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "list, check or clear the persistent cache of JIT-compiled kernels\n");

  std::string dir = directory;
  if (directory.getNumOccurrences()) {
    if (dir.empty()) {
      errs() << "offload-cache: --dir names no directory\n";
      return 1;
    }
  } else {
    std::optional<std::string> defaultDir = DiskCache::getDefaultDirectory();
    if (!defaultDir) {
      errs() << "offload-cache: the cache is disabled (OFFLOAD_CACHE_DIR is "
                "empty) and --dir was not given\n";
      return 1;
    }
    dir = *defaultDir;
  }
  // A cache the JIT never wrote to, or a path that is no directory, is not
  // an empty cache.
  sys::fs::file_status status;
  if (std::error_code ec = sys::fs::status(dir, status)) {
    if (ec == std::errc::no_such_file_or_directory)
      errs() << "offload-cache: cache directory '" << dir
             << "' does not exist\n";
    else
      errs() << "offload-cache: cannot read cache directory '" << dir
             << "': " << ec.message() << "\n";
    return 1;
  }
  if (!sys::fs::is_directory(status)) {
    errs() << "offload-cache: '" << dir << "' is not a directory\n";
    return 1;
  }
  DiskCache cache(dir, DiskCache::getDefaultMaxBytes());

  if (command == "list") {
    int64_t now = std::time(nullptr);
    for (const CacheEntryInfo &entry : cache.list())
      outs() << entry.Key << "  " << format("%10llu", entry.FileSize)
             << " bytes  " << format("%6llu", entry.Hits) << " hits  age "
             << format("%-6s",
                       entry.WrittenSeconds
                           ? formatAge(now - entry.WrittenSeconds).c_str()
                           : "?")
             << "  last used " << formatTime(entry.LastUseSeconds) << "  "
             << (entry.Kernel.empty() ? "(unreadable header)" : entry.Kernel)
             << (entry.Target.empty() ? "" : "  " + entry.Target) << "\n";
    return 0;
  }
  if (command == "stats") {
    std::vector<CacheEntryInfo> entries = cache.list();
    uint64_t total = 0, hits = 0;
    for (const CacheEntryInfo &entry : entries) {
      total += entry.FileSize;
      hits += entry.Hits;
    }
    outs() << "directory: " << dir << "\n"
           << "entries: " << entries.size() << "\n"
           << "bytes: " << total << "\n"
           << "disk hits: " << hits << "\n"
           << "bound: " << DiskCache::getDefaultMaxBytes()
           << " bytes (OFFLOAD_CACHE_MAX_BYTES)\n";
    if (!entries.empty())
      outs() << "most recent use: "
             << formatTime(entries.front().LastUseSeconds) << "\n"
             << "least recent use: "
             << formatTime(entries.back().LastUseSeconds) << "\n";
    return 0;
  }
  if (command == "verify") {
    size_t bad = 0, good = 0;
    for (const CacheEntryInfo &entry : cache.list()) {
      std::string problem = DiskCache::verifyFile(entry.Path);
      if (problem.empty()) {
        ++good;
        continue;
      }
      ++bad;
      outs() << "corrupt: " << entry.Key << ": " << problem
             << (deleteCorrupt ? " (deleted)" : "") << "\n";
      if (deleteCorrupt)
        sys::fs::remove(entry.Path);
    }
    outs() << good << " valid, " << bad << " corrupt\n";
    return bad && !deleteCorrupt ? 1 : 0;
  }
  if (command == "clear") {
    outs() << "removed " << cache.clear() << " entries from " << dir << "\n";
    return 0;
  }
  errs() << "offload-cache: unknown command '" << command
         << "' (expected list, stats, verify or clear)\n";
  return 1;
}
