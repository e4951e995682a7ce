//===- DiskCache.h - Persistent cache of compiled kernels -------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A directory of compiled specializations, one file per key:
//
//   <dir>/<key>.ofj     header: magic "OFJIT\0v2", then little-endian words:
//                       payload size (8 bytes), xxh3-64 of everything after
//                       the header (8), identity size (4), zero (4);
//                       identity: "<key>\n<kernel>\n<target>";
//                       payload.
//
// An entry carries its own identity: the full key it was stored under, the
// kernel ("module::kernel") and the target. A read rejects an entry whose
// identity is not the lookup's (a file copied or renamed over another), and
// `verify` rejects one whose key is not its file name.
//
// Writes go to a unique temporary file in the same directory, then rename(2)
// it into place, which is atomic: a reader sees the old file, no file or the
// whole new one, never a torn entry, even across processes. A read verifies
// size and checksum; a bad entry is reported, deleted and treated as a miss.
// The directory is bounded (bytes): after a write, least recently used
// entries (by modification time, refreshed on every hit) are deleted until
// the total fits. Temporary files count towards the bound; those older than
// kStaleTemporarySeconds belong to writers that died and are deleted, after
// each write (also without a bound) and when the JIT opens the cache.
//
// Statistics of an entry live beside it, so that the entry's bytes (and its
// checksum) never change after the rename:
//
//   <dir>/<key>.hits    16 bytes, little-endian: the entry's write time
//                       (seconds since the epoch), its disk hits so far
//
// A writer creates it after its rename (hits 0); every disk hit increments
// the count under an exclusive flock(2) of the file, so concurrent threads
// and processes never lose a hit on a local filesystem. An entry without one
// (written by an older version) reports an unknown age and 0 hits. It is
// deleted with its entry (corrupt, evicted, cleared), orphans when the JIT
// opens the cache; it is not counted towards the bound.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_DISKCACHE_H
#define OFFLOAD_LIB_JIT_DISKCACHE_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace offloadjit {

/// File name suffix of cache entries.
inline constexpr llvm::StringLiteral kCacheEntrySuffix = ".ofj";
/// File name suffix of an entry's statistics (write time, hit count).
inline constexpr llvm::StringLiteral kCacheHitsSuffix = ".hits";

/// File name suffix of a kernel's automatic-specialization profile
/// (AutoSpecialize.h): not an entry, deleted by clear().
inline constexpr llvm::StringLiteral kAutoProfileSuffix = ".auto";
/// File name suffix of an entry's measurement verdict (NeverSlower.h): not
/// an entry, deleted by clear().
inline constexpr llvm::StringLiteral kVerdictSuffix = ".verdict";

/// One entry as listed by DiskCache::list.
/// Temporary files older than this (seconds) are left by killed writers.
inline constexpr int64_t kStaleTemporarySeconds = 600;

/// What an entry says it is.
struct EntryIdentity {
  /// The key it was stored under (hex, as its file name).
  std::string Key;
  /// "module::kernel".
  std::string Kernel;
  /// The target it was compiled for (platform;triple;chip;features).
  std::string Target;
};

struct CacheEntryInfo {
  /// From the file name.
  std::string Key;
  /// From the entry's header; empty when the header cannot be read.
  std::string Kernel, Target;
  std::string Path;
  uint64_t FileSize = 0;
  int64_t LastUseSeconds = 0; ///< modification time, seconds since epoch
  /// When the entry was written (seconds since the epoch); 0 when unknown.
  int64_t WrittenSeconds = 0;
  /// Disk hits since it was written (DiskCache::read).
  uint64_t Hits = 0;
};

class DiskCache {
public:
  /// A cache in \p Directory bounded by \p MaxBytes (0: unbounded).
  DiskCache(std::string Directory, uint64_t MaxBytes);

  /// The default directory: $OFFLOAD_CACHE_DIR if set (empty disables the
  /// cache: std::nullopt), else $XDG_CACHE_HOME/offload-jit, else
  /// $HOME/.cache/offload-jit.
  static std::optional<std::string> getDefaultDirectory();
  /// $OFFLOAD_CACHE_MAX_BYTES, default 1 GiB.
  static uint64_t getDefaultMaxBytes();

  const std::string &getDirectory() const { return Directory; }

  /// The payload stored for \p Id.Key, or std::nullopt on a miss. A corrupt
  /// or truncated entry, or one whose identity (key, kernel) is not \p Id's,
  /// is deleted, \p Problem describes it, and it is a miss.
  std::optional<std::vector<char>> read(const EntryIdentity &Id,
                                        std::string &Problem);

  /// Stores \p Payload under \p Id.Key with \p Id in its header (atomic
  /// replace), then evicts to the bound.
  llvm::Error write(const EntryIdentity &Id, llvm::ArrayRef<char> Payload);

  /// Every entry of the directory, most recently used first.
  std::vector<CacheEntryInfo> list() const;
  /// Checks one entry file (header, checksum, and that the key it carries is
  /// its file name); an empty string when valid, else the problem.
  static std::string verifyFile(llvm::StringRef Path);
  /// Deletes every entry (and stale temporary files); returns how many.
  size_t clear();
  /// Deletes least recently used entries until the total is at most MaxBytes
  /// (stale temporary files whatever the bound).
  void evict();
  /// Deletes the temporary files older than kStaleTemporarySeconds (their
  /// writers died between write and rename); returns the size of the others
  /// (live writers'), and the statistics files of entries that are gone.
  /// The JIT calls it when it opens the cache, so that a process whose
  /// lookups all hit collects them too.
  uint64_t removeStaleTemporaries();

  /// Encodes \p Payload as an entry file's bytes (header, identity, payload).
  static std::vector<char> encode(const EntryIdentity &Id,
                                  llvm::ArrayRef<char> Payload);

private:
  std::string pathFor(llvm::StringRef Key) const;
  std::string hitsPathFor(llvm::StringRef Key) const;
  /// Increments the hit count of \p Key's entry (creating the file with an
  /// unknown write time when it is missing).
  void recordHit(llvm::StringRef Key);
  /// Starts \p Key's statistics: written now, no hits.
  void resetStatistics(llvm::StringRef Key);
  /// Deletes the statistics files whose entry is gone.
  void removeOrphanStatistics();

  std::string Directory;
  uint64_t MaxBytes;
};

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_DISKCACHE_H
