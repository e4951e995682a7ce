//===- MPICache.cpp - One compile per key across MPI ranks ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "MPICache.h"

#include "OffloadSupport/Environment.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <thread>

using namespace offloadjit;

namespace {
/// The few entry points of Open MPI's C ABI (libmpi.so.40) this uses. In
/// Open MPI, MPI_Comm is a pointer and MPI_COMM_WORLD the address of the
/// exported object ompi_mpi_comm_world (its mpi.h).
struct OpenMPI {
  using Comm = void *;
  int (*Initialized)(int *) = nullptr;
  int (*Finalized)(int *) = nullptr;
  int (*CommRank)(Comm, int *) = nullptr;
  int (*CommSize)(Comm, int *) = nullptr;
  Comm World = nullptr;

  /// The library when the process has it loaded (the application linked or
  /// loaded it); a process without MPI does not get it loaded by the JIT.
  static std::optional<OpenMPI> find() {
    void *Handle = dlopen("libmpi.so.40", RTLD_NOW | RTLD_NOLOAD);
    if (!Handle)
      return std::nullopt;
    OpenMPI M;
    M.Initialized =
        reinterpret_cast<int (*)(int *)>(dlsym(Handle, "MPI_Initialized"));
    M.Finalized =
        reinterpret_cast<int (*)(int *)>(dlsym(Handle, "MPI_Finalized"));
    M.CommRank =
        reinterpret_cast<int (*)(Comm, int *)>(dlsym(Handle, "MPI_Comm_rank"));
    M.CommSize =
        reinterpret_cast<int (*)(Comm, int *)>(dlsym(Handle, "MPI_Comm_size"));
    M.World = dlsym(Handle, "ompi_mpi_comm_world");
    if (!M.Initialized || !M.Finalized || !M.CommRank || !M.CommSize ||
        !M.World)
      return std::nullopt;
    return M;
  }
};

llvm::StringRef getEnv(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value ? llvm::StringRef(Value).trim() : llvm::StringRef();
}
} // namespace

MPICache &MPICache::get() {
  static MPICache *Instance = new MPICache(); // lives until exit
  return *Instance;
}

MPICache::MPICache() {
  if (!offload::env::JITCacheMPI.getFlag(false))
    return;
  TimeoutSeconds = offload::env::JITCacheMPITimeout.getNumber(TimeoutSeconds);
  bool Trace = offload::env::Trace.getFlag(false);
  int Initialized = 0, Finalized = 0;
  std::optional<OpenMPI> MPI = OpenMPI::find();
  if (MPI && MPI->Initialized(&Initialized) == 0 && Initialized &&
      MPI->Finalized(&Finalized) == 0 && !Finalized &&
      MPI->CommRank(MPI->World, &Rank) == 0 &&
      MPI->CommSize(MPI->World, &Size) == 0) {
    Source = "MPI";
  } else if (!getEnv("OMPI_COMM_WORLD_RANK").getAsInteger(10, Rank) &&
             !getEnv("OMPI_COMM_WORLD_SIZE").getAsInteger(10, Size) &&
             Size > 0 && Rank >= 0 && Rank < Size) {
    Source = "environment";
  } else {
    Rank = 0;
    Size = 1;
    llvm::errs() << "offload-jit: OFFLOAD_JIT_CACHE_MPI=1 but this process is "
                    "no MPI rank (MPI not initialized, no "
                    "OMPI_COMM_WORLD_RANK/SIZE): every key compiles here\n";
    return;
  }
  Enabled = Size > 1;
  if (Trace)
    llvm::errs() << "offload-jit: mpi cache: rank " << Rank << " of " << Size
                 << " (from " << Source << "), timeout " << TimeoutSeconds
                 << " s\n";
}

bool MPICache::waitsFor(llvm::StringRef Key) {
  if (!Enabled)
    return false;
  bool Owner = static_cast<int>(llvm::xxh3_64bits(Key) %
                                static_cast<uint64_t>(Size)) == Rank;
  if (Owner)
    ++OwnedMisses;
  return !Owner;
}

std::optional<std::vector<char>>
MPICache::wait(llvm::StringRef Key,
               llvm::function_ref<std::optional<std::vector<char>>()> Lookup) {
  ++Waits;
  using Clock = std::chrono::steady_clock;
  auto Deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(TimeoutSeconds));
  // Polls from 1 ms up to 50 ms apart: a compile takes tens of ms or more.
  auto Pause = std::chrono::milliseconds(1);
  while (true) {
    if (std::optional<std::vector<char>> Entry = Lookup()) {
      ++WaitHits;
      return Entry;
    }
    if (Clock::now() >= Deadline)
      break;
    std::this_thread::sleep_for(Pause);
    Pause = std::min(Pause * 2, std::chrono::milliseconds(50));
  }
  ++Timeouts;
  llvm::errs() << "offload-jit: rank " << Rank << ": the owner of key " << Key
               << " wrote no entry in " << TimeoutSeconds
               << " s (OFFLOAD_JIT_CACHE_MPI_TIMEOUT): compiling it here\n";
  return std::nullopt;
}

void MPICache::printStats(llvm::raw_ostream &OS) const {
  if (!Enabled)
    return;
  OS << "offload-jit mpi: rank " << Rank << " of " << Size << " (from "
     << Source << "): owned-misses=" << OwnedMisses.load()
     << " waits=" << Waits.load() << " wait-hits=" << WaitHits.load()
     << " timeouts=" << Timeouts.load() << "\n";
}
