//===- DiskCache.cpp - Persistent cache of compiled kernels ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace llvm;
using namespace offloadjit;

namespace {
constexpr char Magic[8] = {'O', 'F', 'J', 'I', 'T', '\0', 'v', '1'};
constexpr size_t HeaderSize = 24; // magic, payload size, checksum

uint64_t readWord(const char *P) {
  return support::endian::read64le(P);
}
} // namespace

DiskCache::DiskCache(std::string Directory, uint64_t MaxBytes)
    : Directory(std::move(Directory)), MaxBytes(MaxBytes) {}

std::optional<std::string> DiskCache::getDefaultDirectory() {
  if (const char *Dir = std::getenv("OFFLOAD_CACHE_DIR")) {
    if (!*Dir)
      return std::nullopt;
    return std::string(Dir);
  }
  SmallString<256> Path;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg) {
    Path = Xdg;
  } else if (const char *Home = std::getenv("HOME"); Home && *Home) {
    Path = Home;
    sys::path::append(Path, ".cache");
  } else {
    return std::nullopt;
  }
  sys::path::append(Path, "offload-jit");
  return std::string(Path);
}

uint64_t DiskCache::getDefaultMaxBytes() {
  if (const char *Value = std::getenv("OFFLOAD_CACHE_MAX_BYTES")) {
    uint64_t Bytes;
    if (!StringRef(Value).getAsInteger(10, Bytes))
      return Bytes;
  }
  return uint64_t(1) << 30;
}

std::string DiskCache::pathFor(StringRef Key) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, Key + kCacheEntrySuffix);
  return std::string(Path);
}

std::vector<char> DiskCache::encode(ArrayRef<char> Payload) {
  std::vector<char> Bytes(HeaderSize + Payload.size());
  std::memcpy(Bytes.data(), Magic, sizeof(Magic));
  support::endian::write64le(Bytes.data() + 8, Payload.size());
  support::endian::write64le(
      Bytes.data() + 16,
      xxh3_64bits(ArrayRef<uint8_t>(
          reinterpret_cast<const uint8_t *>(Payload.data()), Payload.size())));
  std::copy(Payload.begin(), Payload.end(), Bytes.begin() + HeaderSize);
  return Bytes;
}

/// Checks \p Bytes, an entry file's content; an empty string when valid.
static std::string checkEntry(StringRef Bytes) {
  if (Bytes.size() < HeaderSize)
    return "truncated header (" + std::to_string(Bytes.size()) + " bytes)";
  if (std::memcmp(Bytes.data(), Magic, sizeof(Magic)) != 0)
    return "bad magic";
  uint64_t Size = readWord(Bytes.data() + 8);
  if (Size != Bytes.size() - HeaderSize)
    return "payload is " + std::to_string(Bytes.size() - HeaderSize) +
           " bytes, header says " + std::to_string(Size);
  uint64_t Sum = xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Bytes.data()) + HeaderSize, Size));
  if (Sum != readWord(Bytes.data() + 16))
    return "checksum mismatch";
  return "";
}

std::string DiskCache::verifyFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return "cannot read: " + Buffer.getError().message();
  return checkEntry((*Buffer)->getBuffer());
}

std::optional<std::vector<char>> DiskCache::read(StringRef Key,
                                                 std::string &Problem) {
  Problem.clear();
  std::string Path = pathFor(Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  StringRef Bytes = (*Buffer)->getBuffer();
  Problem = checkEntry(Bytes);
  if (!Problem.empty()) {
    Problem = "corrupt cache entry " + Path + ": " + Problem;
    sys::fs::remove(Path);
    return std::nullopt;
  }
  // Refresh the entry's last use for LRU eviction.
  if (int FD; !sys::fs::openFileForWrite(Path, FD, sys::fs::CD_OpenExisting,
                                         sys::fs::OF_Append)) {
    (void)sys::fs::setLastAccessAndModificationTime(
        FD, sys::toTimePoint(std::time(nullptr)));
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  return std::vector<char>(Bytes.begin() + HeaderSize, Bytes.end());
}

Error DiskCache::write(StringRef Key, ArrayRef<char> Payload) {
  if (std::error_code EC = sys::fs::create_directories(Directory))
    return createStringError(EC, "cannot create cache directory " + Directory +
                                     ": " + EC.message());
  // A name unique to this process and thread, in the same directory so that
  // rename is atomic.
  static std::atomic<uint64_t> Counter{0};
  std::string Temp =
      pathFor(Key) + ".tmp." + std::to_string(sys::Process::getProcessId()) +
      "." + std::to_string(std::hash<std::thread::id>()(
                std::this_thread::get_id())) +
      "." + std::to_string(Counter++);
  {
    std::error_code EC;
    raw_fd_ostream OS(Temp, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC, "cannot write " + Temp + ": " +
                                       EC.message());
    std::vector<char> Bytes = encode(Payload);
    OS.write(Bytes.data(), Bytes.size());
    OS.close();
    if (OS.has_error()) {
      sys::fs::remove(Temp);
      return createStringError(OS.error(), "cannot write " + Temp);
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, pathFor(Key))) {
    sys::fs::remove(Temp);
    return createStringError(EC, "cannot rename " + Temp + ": " +
                                     EC.message());
  }
  evict();
  return Error::success();
}

std::vector<CacheEntryInfo> DiskCache::list() const {
  std::vector<CacheEntryInfo> Entries;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.ends_with(kCacheEntrySuffix))
      continue;
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status))
      continue;
    CacheEntryInfo Info;
    Info.Key = Name.drop_back(kCacheEntrySuffix.size()).str();
    Info.Path = It->path();
    Info.FileSize = Status.getSize();
    Info.LastUseSeconds =
        sys::toTimeT(Status.getLastModificationTime());
    Entries.push_back(std::move(Info));
  }
  std::sort(Entries.begin(), Entries.end(),
            [](const CacheEntryInfo &A, const CacheEntryInfo &B) {
              return A.LastUseSeconds != B.LastUseSeconds
                         ? A.LastUseSeconds > B.LastUseSeconds
                         : A.Key < B.Key;
            });
  return Entries;
}

size_t DiskCache::clear() {
  size_t Removed = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.ends_with(kCacheEntrySuffix) &&
        !Name.contains(std::string(kCacheEntrySuffix) + ".tmp."))
      continue;
    if (!sys::fs::remove(It->path()))
      ++Removed;
  }
  return Removed;
}

void DiskCache::evict() {
  if (MaxBytes == 0)
    return;
  std::vector<CacheEntryInfo> Entries = list();
  uint64_t Total = 0;
  for (const CacheEntryInfo &Entry : Entries)
    Total += Entry.FileSize;
  // Oldest last in the list: remove from the back.
  while (Total > MaxBytes && !Entries.empty()) {
    const CacheEntryInfo &Oldest = Entries.back();
    if (!sys::fs::remove(Oldest.Path))
      Total -= Oldest.FileSize;
    Entries.pop_back();
  }
}
