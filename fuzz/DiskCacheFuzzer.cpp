//===- DiskCacheFuzzer.cpp - Fuzzes the JIT disk cache's entry reader -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The input is the content of one cache entry file (lib/JIT/DiskCache.h). It
// is written under the key of a fixed identity, then read back through every
// path that parses entry files: DiskCache::verifyFile, DiskCache::list (the
// header peek) and DiskCache::read with that identity. Invariants checked:
// verifyFile accepts exactly the entries read accepts (the file name is the
// identity's key), an accepted entry's payload is the bytes after its
// header and identity, a rejected one is deleted, and encode's output is
// always accepted and read back unchanged.
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

using namespace offloadjit;

namespace {
/// A directory of this process, removed at exit.
std::string Dir;
const EntryIdentity Id{"00112233445566778899aabbccddeeff", "fuzz::kernel",
                       "host;x86_64-unknown-linux-gnu;;"};

[[noreturn]] void fail(const std::string &Message) {
  llvm::errs() << "disk-cache fuzzer: invariant broken: " << Message << '\n';
  std::abort();
}

void removeDir() {
  if (!Dir.empty())
    llvm::sys::fs::remove_directories(Dir);
}

std::string entryPath() {
  llvm::SmallString<256> Path(Dir);
  llvm::sys::path::append(Path, Id.Key + kCacheEntrySuffix);
  return std::string(Path);
}

void writeFile(const std::string &Path, const uint8_t *Data, size_t Size) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, llvm::sys::fs::OF_None);
  if (EC)
    fail("cannot write " + Path + ": " + EC.message());
  OS.write(reinterpret_cast<const char *>(Data), Size);
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::SmallString<128> Path;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("offload-fuzz-cache", Path))
    fail("cannot create a temporary directory: " + EC.message());
  Dir = std::string(Path);
  std::atexit(removeDir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // Unbounded: eviction must not delete the entry under test.
  DiskCache Cache(Dir, /*MaxBytes=*/0);
  std::string Path = entryPath();

  writeFile(Path, Data, Size);
  std::string Verified = DiskCache::verifyFile(Path);
  std::vector<CacheEntryInfo> Listed = Cache.list();
  if (Listed.size() != 1 || Listed[0].Key != Id.Key)
    fail("list() does not show the one entry");

  std::string Problem;
  std::optional<std::vector<char>> Payload = Cache.read(Id, Problem);
  bool Exists = llvm::sys::fs::exists(Path);
  if (Payload) {
    if (!Problem.empty())
      fail("read hit with a problem: " + Problem);
    if (!Exists)
      fail("read hit deleted the entry");
    // verifyFile checks the same header and checksum, and that the key is
    // the file name, which read's identity check implies.
    if (!Verified.empty())
      fail("read accepts an entry verifyFile rejects: " + Verified);
    if (Payload->size() > Size)
      fail("payload larger than the entry");
    if (!std::equal(Payload->begin(), Payload->end(),
                    reinterpret_cast<const char *>(Data) +
                        (Size - Payload->size())))
      fail("payload is not the entry's tail");
  } else {
    if (Problem.empty())
      fail("a present entry was a miss without a problem");
    if (Exists)
      fail("a rejected entry was not deleted: " + Problem);
    // A valid entry under its own key is refused only for another kernel.
    if (Verified.empty() &&
        Problem.find("it holds kernel") == std::string::npos)
      fail("read rejects an entry verifyFile accepts: " + Problem);
  }

  // The input as a payload: encode's output round-trips.
  llvm::ArrayRef<char> Bytes(reinterpret_cast<const char *>(Data), Size);
  std::vector<char> Encoded = DiskCache::encode(Id, Bytes);
  writeFile(Path, reinterpret_cast<const uint8_t *>(Encoded.data()),
            Encoded.size());
  if (std::string P = DiskCache::verifyFile(Path); !P.empty())
    fail("verifyFile rejects encode's output: " + P);
  Payload = Cache.read(Id, Problem);
  if (!Payload || *Payload != std::vector<char>(Bytes.begin(), Bytes.end()))
    fail("encode's output does not read back: " + Problem);
  llvm::sys::fs::remove(Path);
  return 0;
}
