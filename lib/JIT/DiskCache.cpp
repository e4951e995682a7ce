//===- DiskCache.cpp - Persistent cache of compiled kernels ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"

#include "OffloadSupport/Environment.h"

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
#include <ctime>
#include <thread>
#include <tuple>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

using namespace llvm;
using namespace offloadjit;

namespace {
constexpr char Magic[8] = {'O', 'F', 'J', 'I', 'T', '\0', 'v', '2'};
/// Magic, payload size, checksum, identity size, zero.
constexpr size_t HeaderSize = 32;

uint64_t readWord(const char *P) { return support::endian::read64le(P); }

bool isTemporary(StringRef Name) {
  return Name.contains((kCacheEntrySuffix + ".tmp.").str());
}
} // namespace

DiskCache::DiskCache(std::string Directory, uint64_t MaxBytes)
    : Directory(std::move(Directory)), MaxBytes(MaxBytes) {}

std::optional<std::string> DiskCache::getDefaultDirectory() {
  if (std::getenv(offload::env::CacheDir.Name)) {
    // Set but empty: no disk cache.
    std::string Dir = offload::env::CacheDir.getText();
    if (Dir.empty())
      return std::nullopt;
    return Dir;
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
  return offload::env::CacheMaxBytes.getUnsigned(uint64_t(1) << 30);
}

std::string DiskCache::pathFor(StringRef Key) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, Key + kCacheEntrySuffix);
  return std::string(Path);
}

std::string DiskCache::hitsPathFor(StringRef Key) const {
  SmallString<256> Path(Directory);
  sys::path::append(Path, Key + kCacheHitsSuffix);
  return std::string(Path);
}

namespace {
/// An entry's statistics file, open and locked; closed and unlocked when
/// destroyed.
class LockedStatistics {
public:
  explicit LockedStatistics(const std::string &Path) {
    FD = ::open(Path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (FD < 0)
      return;
    // flock(2), not fcntl record locks (llvm::sys::fs::lockFile): an flock
    // belongs to the open file, so threads of one process exclude each
    // other too.
    if (::flock(FD, LOCK_EX) != 0) {
      ::close(FD);
      FD = -1;
    }
  }
  ~LockedStatistics() {
    if (FD < 0)
      return;
    ::flock(FD, LOCK_UN);
    ::close(FD);
  }
  bool isOpen() const { return FD >= 0; }
  /// Write time and hits; zeros for a new (empty) or short file.
  std::pair<int64_t, uint64_t> read() const {
    char Buffer[16] = {};
    if (::pread(FD, Buffer, sizeof(Buffer), 0) != ssize_t(sizeof(Buffer)))
      return {0, 0};
    return {int64_t(readWord(Buffer)), readWord(Buffer + 8)};
  }
  void write(int64_t Written, uint64_t Hits) const {
    char Buffer[16];
    support::endian::write64le(Buffer, uint64_t(Written));
    support::endian::write64le(Buffer + 8, Hits);
    (void)!::pwrite(FD, Buffer, sizeof(Buffer), 0);
  }

private:
  int FD = -1;
};
} // namespace

void DiskCache::recordHit(StringRef Key) {
  LockedStatistics Stats(hitsPathFor(Key));
  if (!Stats.isOpen())
    return;
  auto [Written, Hits] = Stats.read();
  Stats.write(Written, Hits + 1);
}

void DiskCache::resetStatistics(StringRef Key) {
  LockedStatistics Stats(hitsPathFor(Key));
  if (Stats.isOpen())
    Stats.write(std::time(nullptr), 0);
}

/// Reads the statistics file at \p Path without locking it (a torn read
/// of 16 bytes written by one pwrite cannot happen on Linux filesystems).
static std::pair<int64_t, uint64_t> peekStatistics(const std::string &Path) {
  int FD = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return {0, 0};
  char Buffer[16] = {};
  ssize_t N = ::pread(FD, Buffer, sizeof(Buffer), 0);
  ::close(FD);
  if (N != ssize_t(sizeof(Buffer)))
    return {0, 0};
  return {int64_t(readWord(Buffer)), readWord(Buffer + 8)};
}

void DiskCache::removeOrphanStatistics() {
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.ends_with(kCacheHitsSuffix))
      continue;
    if (!sys::fs::exists(pathFor(Name.drop_back(kCacheHitsSuffix.size()))))
      sys::fs::remove(It->path());
  }
}

std::vector<char> DiskCache::encode(const EntryIdentity &Id,
                                    ArrayRef<char> Payload) {
  std::string Identity = Id.Key + "\n" + Id.Kernel + "\n" + Id.Target;
  std::vector<char> Bytes(HeaderSize);
  std::memcpy(Bytes.data(), Magic, sizeof(Magic));
  support::endian::write64le(Bytes.data() + 8, Payload.size());
  support::endian::write32le(Bytes.data() + 24, Identity.size());
  Bytes.insert(Bytes.end(), Identity.begin(), Identity.end());
  Bytes.insert(Bytes.end(), Payload.begin(), Payload.end());
  support::endian::write64le(
      Bytes.data() + 16,
      xxh3_64bits(ArrayRef<uint8_t>(
          reinterpret_cast<const uint8_t *>(Bytes.data()) + HeaderSize,
          Bytes.size() - HeaderSize)));
  return Bytes;
}

/// Reads the identity of an entry's bytes (header and identity only: no
/// checksum); std::nullopt with \p Problem set when they are malformed.
static std::optional<EntryIdentity> readIdentity(StringRef Bytes,
                                                 std::string &Problem) {
  if (Bytes.size() < HeaderSize) {
    Problem = "truncated header (" + std::to_string(Bytes.size()) + " bytes)";
    return std::nullopt;
  }
  if (std::memcmp(Bytes.data(), Magic, sizeof(Magic)) != 0) {
    Problem = "bad magic";
    return std::nullopt;
  }
  uint64_t IdentitySize = support::endian::read32le(Bytes.data() + 24);
  if (IdentitySize > Bytes.size() - HeaderSize) {
    Problem = "identity of " + std::to_string(IdentitySize) +
              " bytes does not fit the entry";
    return std::nullopt;
  }
  SmallVector<StringRef, 3> Parts;
  Bytes.substr(HeaderSize, IdentitySize).split(Parts, '\n');
  if (Parts.size() != 3) {
    Problem = "malformed identity";
    return std::nullopt;
  }
  return EntryIdentity{Parts[0].str(), Parts[1].str(), Parts[2].str()};
}

/// Checks \p Bytes, an entry file's content, and returns its identity and
/// the offset of its payload; std::nullopt with \p Problem set when invalid.
static std::optional<std::pair<EntryIdentity, size_t>>
checkEntry(StringRef Bytes, std::string &Problem) {
  std::optional<EntryIdentity> Id = readIdentity(Bytes, Problem);
  if (!Id)
    return std::nullopt;
  size_t PayloadOffset =
      HeaderSize + support::endian::read32le(Bytes.data() + 24);
  uint64_t Size = readWord(Bytes.data() + 8);
  if (Size != Bytes.size() - PayloadOffset) {
    Problem = "payload is " + std::to_string(Bytes.size() - PayloadOffset) +
              " bytes, header says " + std::to_string(Size);
    return std::nullopt;
  }
  uint64_t Sum = xxh3_64bits(ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Bytes.data()) + HeaderSize,
      Bytes.size() - HeaderSize));
  if (Sum != readWord(Bytes.data() + 16)) {
    Problem = "checksum mismatch";
    return std::nullopt;
  }
  return std::make_pair(std::move(*Id), PayloadOffset);
}

std::string DiskCache::verifyFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return "cannot read: " + Buffer.getError().message();
  std::string Problem;
  auto Entry = checkEntry((*Buffer)->getBuffer(), Problem);
  if (!Entry)
    return Problem;
  StringRef Name = sys::path::filename(Path);
  if (Name.consume_back(kCacheEntrySuffix) && Name != Entry->first.Key)
    return "entry of key " + Entry->first.Key + " (kernel '" +
           Entry->first.Kernel + "') stored under another key's name";
  return "";
}

std::optional<std::vector<char>> DiskCache::read(const EntryIdentity &Id,
                                                 std::string &Problem) {
  Problem.clear();
  std::string Path = pathFor(Id.Key);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  StringRef Bytes = (*Buffer)->getBuffer();
  auto Entry = checkEntry(Bytes, Problem);
  if (Entry && Entry->first.Key != Id.Key)
    Problem = "it holds key " + Entry->first.Key + " (kernel '" +
              Entry->first.Kernel + "')";
  else if (Entry && Entry->first.Kernel != Id.Kernel)
    Problem = "it holds kernel '" + Entry->first.Kernel + "', not '" +
              Id.Kernel + "'";
  if (!Problem.empty()) {
    Problem = "corrupt cache entry " + Path + ": " + Problem;
    sys::fs::remove(Path);
    sys::fs::remove(hitsPathFor(Id.Key));
    return std::nullopt;
  }
  // Refresh the entry's last use for LRU eviction.
  if (int FD; !sys::fs::openFileForWrite(Path, FD, sys::fs::CD_OpenExisting,
                                         sys::fs::OF_Append)) {
    (void)sys::fs::setLastAccessAndModificationTime(
        FD, sys::toTimePoint(std::time(nullptr)));
    sys::Process::SafelyCloseFileDescriptor(FD);
  }
  recordHit(Id.Key);
  return std::vector<char>(Bytes.begin() + Entry->second, Bytes.end());
}

Error DiskCache::write(const EntryIdentity &Id, ArrayRef<char> Payload) {
  StringRef Key = Id.Key;
  if (std::error_code EC = sys::fs::create_directories(Directory))
    return createStringError(EC, "cannot create cache directory " + Directory +
                                     ": " + EC.message());
  // A name unique to this process and thread, in the same directory so that
  // rename is atomic.
  static std::atomic<uint64_t> Counter{0};
  std::string Temp =
      pathFor(Key) + ".tmp." + std::to_string(sys::Process::getProcessId()) +
      "." +
      std::to_string(std::hash<std::thread::id>()(std::this_thread::get_id())) +
      "." + std::to_string(Counter++);
  {
    std::error_code EC;
    raw_fd_ostream OS(Temp, EC, sys::fs::OF_None);
    if (EC)
      return createStringError(EC,
                               "cannot write " + Temp + ": " + EC.message());
    std::vector<char> Bytes = encode(Id, Payload);
    OS.write(Bytes.data(), Bytes.size());
    OS.close();
    if (OS.has_error()) {
      sys::fs::remove(Temp);
      return createStringError(OS.error(), "cannot write " + Temp);
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, pathFor(Key))) {
    sys::fs::remove(Temp);
    return createStringError(EC, "cannot rename " + Temp + ": " + EC.message());
  }
  resetStatistics(Key);
  evict();
  return Error::success();
}

/// The identity in the header of the entry file at \p Path, read without
/// reading the payload; empty fields when it cannot be read.
static EntryIdentity peekIdentity(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Head = MemoryBuffer::getFileSlice(
      Path, /*MapSize=*/4096, /*Offset=*/0, /*IsVolatile=*/false);
  if (!Head)
    return {};
  std::string Problem;
  return readIdentity((*Head)->getBuffer(), Problem).value_or(EntryIdentity());
}

/// Lists entry files (or, with \p Temporaries, temporary files) of
/// \p Directory.
static std::vector<CacheEntryInfo> listFiles(StringRef Directory,
                                             bool Temporaries) {
  std::vector<CacheEntryInfo> Entries;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Temporaries ? !isTemporary(Name) : !Name.ends_with(kCacheEntrySuffix))
      continue;
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status))
      continue;
    CacheEntryInfo Info;
    if (!Temporaries)
      Info.Key = Name.drop_back(kCacheEntrySuffix.size()).str();
    Info.Path = It->path();
    Info.FileSize = Status.getSize();
    Info.LastUseSeconds = sys::toTimeT(Status.getLastModificationTime());
    Entries.push_back(std::move(Info));
  }
  return Entries;
}

/// Most recently used first.
static void sortByLastUse(std::vector<CacheEntryInfo> &Entries) {
  std::sort(Entries.begin(), Entries.end(),
            [](const CacheEntryInfo &A, const CacheEntryInfo &B) {
              return A.LastUseSeconds != B.LastUseSeconds
                         ? A.LastUseSeconds > B.LastUseSeconds
                         : A.Key < B.Key;
            });
}

std::vector<CacheEntryInfo> DiskCache::list() const {
  std::vector<CacheEntryInfo> Entries = listFiles(Directory, false);
  for (CacheEntryInfo &Info : Entries) {
    EntryIdentity Id = peekIdentity(Info.Path);
    Info.Kernel = std::move(Id.Kernel);
    Info.Target = std::move(Id.Target);
    std::tie(Info.WrittenSeconds, Info.Hits) =
        peekStatistics(hitsPathFor(Info.Key));
  }
  sortByLastUse(Entries);
  return Entries;
}

size_t DiskCache::clear() {
  size_t Removed = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    // Statistics go with their entries but are not counted, and so do the
    // profiles of automatic specialization (AutoSpecialize.h).
    if (Name.ends_with(kCacheHitsSuffix) ||
        Name.ends_with(kAutoProfileSuffix) ||
        Name.contains((kAutoProfileSuffix + ".tmp.").str()) ||
        Name.ends_with(kVerdictSuffix) ||
        Name.contains((kVerdictSuffix + ".tmp.").str())) {
      sys::fs::remove(It->path());
      continue;
    }
    if (!Name.ends_with(kCacheEntrySuffix) && !isTemporary(Name))
      continue;
    if (!sys::fs::remove(It->path()))
      ++Removed;
  }
  return Removed;
}

uint64_t DiskCache::removeStaleTemporaries() {
  uint64_t Live = 0;
  int64_t Now = std::time(nullptr);
  for (const CacheEntryInfo &Temp : listFiles(Directory, true)) {
    if (Now - Temp.LastUseSeconds > kStaleTemporarySeconds &&
        !sys::fs::remove(Temp.Path))
      continue;
    Live += Temp.FileSize;
  }
  removeOrphanStatistics();
  return Live;
}

void DiskCache::evict() {
  // Temporary files of writers that died are deleted; those of live writers
  // (recent ones) count towards the bound.
  uint64_t Total = removeStaleTemporaries();
  if (MaxBytes == 0)
    return;
  std::vector<CacheEntryInfo> Entries = listFiles(Directory, false);
  sortByLastUse(Entries);
  for (const CacheEntryInfo &Entry : Entries)
    Total += Entry.FileSize;
  // Oldest last in the list: remove from the back.
  while (Total > MaxBytes && !Entries.empty()) {
    const CacheEntryInfo &Oldest = Entries.back();
    if (!sys::fs::remove(Oldest.Path)) {
      Total -= Oldest.FileSize;
      sys::fs::remove(hitsPathFor(Oldest.Key));
    }
    Entries.pop_back();
  }
}
