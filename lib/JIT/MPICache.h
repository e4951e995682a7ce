//===- MPICache.h - One compile per key across MPI ranks --------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// OFFLOAD_JIT_CACHE_MPI=1: the ranks of an MPI job that share a cache
// directory (OFFLOAD_CACHE_DIR on a filesystem they all see) compile each
// key once in total. Each key has an owner rank, xxh3-64(key) mod the number
// of ranks (the ranks' compiles spread over the job, with no coordinator);
// on a miss in memory and on disk the owner compiles and writes the disk
// cache as always, and every other rank waits for the owner's entry to
// appear in the cache directory (polling it, no barrier, no message) and
// loads it: a disk hit. A rank that waited OFFLOAD_JIT_CACHE_MPI_TIMEOUT
// seconds (default 120) without the entry appearing (its owner never
// launches that specialization, or failed) compiles it itself.
//
// This is Proteus's mpi-remote-lookup idea (one rank compiles, the others
// fetch) over the disk cache's atomic entries instead of messages.
// docs/JIT.md, "Many processes: MPI ranks".
//
// The rank and the number of ranks come from MPI when the application
// initialized it (Open MPI's libmpi.so.40, found with dlopen: nothing links
// MPI, and a process without it works), else from the environment Open
// MPI's launcher sets (OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE), else the
// mode is off (one rank). The JIT never initializes or finalizes MPI.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_MPICACHE_H
#define OFFLOAD_LIB_JIT_MPICACHE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace offloadjit {

class MPICache {
public:
  /// The process's MPI cache mode, set up on first use from the environment
  /// (OFFLOAD_JIT_CACHE_MPI, OFFLOAD_JIT_CACHE_MPI_TIMEOUT) and MPI.
  static MPICache &get();

  /// The mode is on and this rank is not \p Key's owner: it should wait for
  /// the owner's disk entry instead of compiling.
  bool waitsFor(llvm::StringRef Key);

  /// Calls \p Lookup (a disk cache read) until it returns an entry or the
  /// timeout passes; returns the entry or nullopt (then the caller compiles).
  std::optional<std::vector<char>>
  wait(llvm::StringRef Key,
       llvm::function_ref<std::optional<std::vector<char>>()> Lookup);

  /// This rank and the number of ranks (0 of 1 when the mode is off).
  int getRank() const { return Rank; }
  int getSize() const { return Size; }
  /// Where the rank came from: "MPI", "environment" or "off".
  llvm::StringRef getSource() const { return Source; }

  /// With the mode on, one line of this rank's counters for
  /// OFFLOAD_JIT_STATS=1: "offload-jit mpi: rank R of N (from SOURCE):
  /// owned-misses=.. waits=.. wait-hits=.. timeouts=..".
  void printStats(llvm::raw_ostream &OS) const;

  /// Counters of this rank.
  std::atomic<uint64_t> Waits{0}, WaitHits{0}, Timeouts{0}, OwnedMisses{0};

private:
  MPICache();
  bool Enabled = false;
  int Rank = 0, Size = 1;
  std::string Source = "off";
  double TimeoutSeconds = 120;
};

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_MPICACHE_H
