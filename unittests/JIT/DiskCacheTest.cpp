//===- DiskCacheTest.cpp - The persistent cache on its own ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include "gtest/gtest.h"

#include <atomic>
#include <ctime>
#include <fstream>
#include <thread>

using namespace offloadjit;

namespace {
class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Path;
    ASSERT_FALSE(
        llvm::sys::fs::createUniqueDirectory("offload-cache-test", Path));
    Dir = std::string(Path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  static std::vector<char> bytes(const std::string &S) {
    return std::vector<char>(S.begin(), S.end());
  }
  /// The identity of kernel m::<Key>'s entry under key <Key>.
  static EntryIdentity id(const std::string &Key) {
    return {Key, "m::" + Key, "test-target"};
  }
  std::string Dir;
};
} // namespace

TEST_F(DiskCacheTest, WriteThenRead) {
  DiskCache Cache(Dir, 0);
  std::string Problem;
  EXPECT_FALSE(Cache.read(id("k1"), Problem));
  EXPECT_TRUE(Problem.empty());
  ASSERT_FALSE(bool(Cache.write(id("k1"), bytes("payload one"))));
  std::optional<std::vector<char>> Got = Cache.read(id("k1"), Problem);
  ASSERT_TRUE(Got);
  EXPECT_EQ(std::string(Got->begin(), Got->end()), "payload one");
  EXPECT_EQ(Cache.list().size(), 1u);
}

TEST_F(DiskCacheTest, TruncatedEntryIsReportedAndDeleted) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("a longer payload"))));
  std::string Path = Cache.list()[0].Path;
  {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
        Path, FD, llvm::sys::fs::CD_OpenExisting));
    // Keep 4 of the 16 payload bytes.
    uint64_t Size =
        DiskCache::encode(id("k"), bytes("a longer payload")).size();
    ASSERT_FALSE(llvm::sys::fs::resize_file(FD, Size - 12));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  EXPECT_NE(DiskCache::verifyFile(Path), "");
  std::string Problem;
  EXPECT_FALSE(Cache.read(id("k"), Problem));
  EXPECT_NE(Problem.find("corrupt cache entry"), std::string::npos);
  EXPECT_NE(Problem.find("payload is 4 bytes, header says 16"),
            std::string::npos)
      << Problem;
  EXPECT_FALSE(llvm::sys::fs::exists(Path));
}

TEST_F(DiskCacheTest, FlippedByteFailsTheChecksum) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("0123456789"))));
  std::string Path = Cache.list()[0].Path;
  {
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    // A byte of the payload (its last 10 bytes).
    F.seekp(DiskCache::encode(id("k"), bytes("0123456789")).size() - 7);
    F.put('X');
  }
  std::string Problem;
  EXPECT_FALSE(Cache.read(id("k"), Problem));
  EXPECT_NE(Problem.find("checksum mismatch"), std::string::npos) << Problem;
}

TEST_F(DiskCacheTest, GarbageFileIsNotAnEntry) {
  DiskCache Cache(Dir, 0);
  {
    std::ofstream F(Dir + "/junk" + std::string(kCacheEntrySuffix));
    F << "not a cache entry at all, but long enough";
  }
  std::string Problem;
  EXPECT_FALSE(Cache.read(id("junk"), Problem));
  EXPECT_NE(Problem.find("bad magic"), std::string::npos) << Problem;
}

TEST_F(DiskCacheTest, LeastRecentlyUsedEntriesAreEvicted) {
  // Room for two entries of 100 payload bytes (and their headers).
  std::vector<char> Payload(100, 'x');
  uint64_t EntrySize = DiskCache::encode(id("second"), Payload).size();
  DiskCache Cache(Dir, 2 * EntrySize + 10);
  ASSERT_FALSE(bool(Cache.write(id("first"), Payload)));
  ASSERT_FALSE(bool(Cache.write(id("second"), Payload)));
  // Make "first" the least recently used, unambiguously.
  std::string First = Cache.list().back().Key == "first"
                          ? Cache.list().back().Path
                          : Cache.list().front().Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
      First, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, llvm::sys::toTimePoint(1000)));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  ASSERT_FALSE(bool(Cache.write(id("third"), Payload)));
  std::vector<CacheEntryInfo> Entries = Cache.list();
  ASSERT_EQ(Entries.size(), 2u);
  for (const CacheEntryInfo &E : Entries)
    EXPECT_NE(E.Key, "first");
}

TEST_F(DiskCacheTest, ConcurrentWritersNeverExposeATornEntry) {
  constexpr int Threads = 8, Rounds = 200;
  std::atomic<int> Torn{0}, Reads{0};
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&, T] {
      DiskCache Cache(Dir, 0);
      // Every writer stores a different, self-describing payload.
      std::vector<char> Payload(4096 + T, char('a' + T));
      for (int R = 0; R < Rounds; ++R) {
        EXPECT_FALSE(bool(Cache.write(id("shared"), Payload)));
        std::string Problem;
        std::optional<std::vector<char>> Got =
            Cache.read(id("shared"), Problem);
        if (!Problem.empty())
          ++Torn;
        if (Got) {
          ++Reads;
          size_t Writer = Got->size() - 4096;
          for (char C : *Got)
            if (C != char('a' + Writer)) {
              ++Torn;
              break;
            }
        }
      }
    });
  for (std::thread &W : Workers)
    W.join();
  EXPECT_EQ(Torn, 0);
  EXPECT_GT(Reads, 0);
  // No temporary file is left behind.
  EXPECT_EQ(DiskCache(Dir, 0).clear(), 1u);
}

TEST_F(DiskCacheTest, EntryCopiedOverAnotherKeyIsRejected) {
  // Issue 10 item 3: the entry of kernel `mul` copied over the file of kernel
  // `add` must not be served as `add`.
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("add"), bytes("code of add"))));
  ASSERT_FALSE(bool(Cache.write(id("mul"), bytes("code of mul"))));
  std::string AddPath, MulPath;
  for (const CacheEntryInfo &E : Cache.list())
    (E.Key == "add" ? AddPath : MulPath) = E.Path;
  ASSERT_FALSE(llvm::sys::fs::copy_file(MulPath, AddPath));

  std::string Problem = DiskCache::verifyFile(AddPath);
  EXPECT_NE(Problem.find("stored under another key's name"), std::string::npos)
      << Problem;
  EXPECT_EQ(DiskCache::verifyFile(MulPath), "");

  EXPECT_FALSE(Cache.read(id("add"), Problem));
  EXPECT_NE(Problem.find("holds key mul (kernel 'm::mul')"), std::string::npos)
      << Problem;
  EXPECT_FALSE(llvm::sys::fs::exists(AddPath)); // deleted, to be rebuilt
  std::optional<std::vector<char>> Mul = Cache.read(id("mul"), Problem);
  ASSERT_TRUE(Mul);
  EXPECT_EQ(std::string(Mul->begin(), Mul->end()), "code of mul");
}

TEST_F(DiskCacheTest, EntryOfAnotherKernelIsRejected) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("code"))));
  std::string Problem;
  EXPECT_FALSE(Cache.read({"k", "m::other", "test-target"}, Problem));
  EXPECT_NE(Problem.find("holds kernel 'm::k', not 'm::other'"),
            std::string::npos)
      << Problem;
}

TEST_F(DiskCacheTest, ListShowsKernelAndTarget) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("code"))));
  std::vector<CacheEntryInfo> Entries = Cache.list();
  ASSERT_EQ(Entries.size(), 1u);
  EXPECT_EQ(Entries[0].Key, "k");
  EXPECT_EQ(Entries[0].Kernel, "m::k");
  EXPECT_EQ(Entries[0].Target, "test-target");
}

TEST_F(DiskCacheTest, TemporaryFilesCountAndStaleOnesAreDeleted) {
  // Issue 10 item 7: files of writers killed between write and rename.
  std::vector<char> Payload(100, 'x');
  uint64_t EntrySize = DiskCache::encode(id("a"), Payload).size();
  auto MakeTemp = [&](const std::string &Name, int64_t MTime) {
    std::string Path = Dir + "/" + Name + ".ofj.tmp.1.2.3";
    {
      std::ofstream F(Path, std::ios::binary);
      F << std::string(EntrySize, 't');
    }
    int FD;
    EXPECT_FALSE(llvm::sys::fs::openFileForWrite(
        Path, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
    EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
        FD, llvm::sys::toTimePoint(MTime)));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
    return Path;
  };
  std::string Stale = MakeTemp("old", 1000);
  std::string Live = MakeTemp("new", std::time(nullptr));
  // Room for two files: the live temporary and one entry.
  DiskCache Cache(Dir, 2 * EntrySize + 10);
  ASSERT_FALSE(bool(Cache.write(id("a"), Payload)));
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
  EXPECT_TRUE(llvm::sys::fs::exists(Live));
  ASSERT_FALSE(bool(Cache.write(id("b"), Payload)));
  // The live temporary counted: only one entry fits beside it.
  EXPECT_EQ(Cache.list().size(), 1u);
}

/// A temporary file of \p Bytes bytes named for \p Key, last modified at
/// \p MTime (seconds since the epoch).
static std::string makeTemporary(const std::string &Dir, const std::string &Key,
                                 size_t Bytes, int64_t MTime) {
  std::string Path = Dir + "/" + Key + ".ofj.tmp.1.2.3";
  {
    std::ofstream F(Path, std::ios::binary);
    F << std::string(Bytes, 't');
  }
  int FD;
  EXPECT_FALSE(llvm::sys::fs::openFileForWrite(
      Path, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
  EXPECT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, llvm::sys::toTimePoint(MTime)));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  return Path;
}

TEST_F(DiskCacheTest, StaleTemporaryFilesAreDeletedWithoutABound) {
  // Issue 20 item 7: an unbounded cache (OFFLOAD_CACHE_MAX_BYTES=0) kept
  // them forever.
  std::string Stale = makeTemporary(Dir, "old", 10, std::time(nullptr) - 3600);
  std::string Live = makeTemporary(Dir, "new", 10, std::time(nullptr));
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("a"), bytes("code"))));
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
  EXPECT_TRUE(llvm::sys::fs::exists(Live));
}

TEST_F(DiskCacheTest, RemoveStaleTemporariesNeedsNoWrite) {
  // Issue 20 item 7: a process whose lookups all hit never wrote, so never
  // collected them; the JIT calls this when it opens the cache.
  std::string Stale = makeTemporary(
      Dir, "old", 10, std::time(nullptr) - kStaleTemporarySeconds - 60);
  std::string Live = makeTemporary(Dir, "new", 7, std::time(nullptr));
  DiskCache Cache(Dir, 1 << 20);
  EXPECT_EQ(Cache.removeStaleTemporaries(), 7u);
  EXPECT_FALSE(llvm::sys::fs::exists(Stale));
  EXPECT_TRUE(llvm::sys::fs::exists(Live));
}

TEST_F(DiskCacheTest, HitsAndWriteTimeAreRecordedBesideTheEntry) {
  DiskCache Cache(Dir, 0);
  int64_t Before = std::time(nullptr);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("code"))));
  int64_t After = std::time(nullptr);
  std::vector<CacheEntryInfo> Entries = Cache.list();
  ASSERT_EQ(Entries.size(), 1u);
  EXPECT_EQ(Entries[0].Hits, 0u);
  EXPECT_GE(Entries[0].WrittenSeconds, Before);
  EXPECT_LE(Entries[0].WrittenSeconds, After);
  std::string Problem;
  for (int I = 0; I < 3; ++I)
    ASSERT_TRUE(Cache.read(id("k"), Problem)) << Problem;
  EXPECT_EQ(Cache.list()[0].Hits, 3u);
  // The entry's bytes are untouched: it still verifies.
  EXPECT_EQ(DiskCache::verifyFile(Cache.list()[0].Path), "");
  EXPECT_TRUE(llvm::sys::fs::exists(Dir + "/k.hits"));
  // A rewrite starts over.
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("new code"))));
  EXPECT_EQ(Cache.list()[0].Hits, 0u);
  // clear() takes the statistics along but counts entries only.
  EXPECT_EQ(Cache.clear(), 1u);
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/k.hits"));
}

TEST_F(DiskCacheTest, CorruptEntryTakesItsStatisticsAlong) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("a longer payload"))));
  std::string Problem;
  ASSERT_TRUE(Cache.read(id("k"), Problem));
  std::string Path = Cache.list()[0].Path;
  {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
        Path, FD, llvm::sys::fs::CD_OpenExisting));
    ASSERT_FALSE(llvm::sys::fs::resize_file(FD, 10));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  EXPECT_FALSE(Cache.read(id("k"), Problem));
  EXPECT_NE(Problem.find("corrupt cache entry"), std::string::npos) << Problem;
  EXPECT_FALSE(llvm::sys::fs::exists(Path));
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/k.hits"));
}

TEST_F(DiskCacheTest, ConcurrentHitsAreAllCounted) {
  // Each reader opens and locks the statistics file itself, as separate
  // processes do.
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("code"))));
  constexpr int Threads = 4, Reads = 50;
  std::vector<std::thread> Workers;
  for (int T = 0; T < Threads; ++T)
    Workers.emplace_back([&] {
      DiskCache Mine(Dir, 0);
      std::string Problem;
      for (int I = 0; I < Reads; ++I)
        EXPECT_TRUE(Mine.read(id("k"), Problem)) << Problem;
    });
  for (std::thread &W : Workers)
    W.join();
  EXPECT_EQ(Cache.list()[0].Hits, uint64_t(Threads * Reads));
}

TEST_F(DiskCacheTest, OrphanStatisticsAreDeleted) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write(id("k"), bytes("code"))));
  ASSERT_FALSE(llvm::sys::fs::remove(Cache.list()[0].Path));
  EXPECT_TRUE(llvm::sys::fs::exists(Dir + "/k.hits"));
  Cache.removeStaleTemporaries();
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/k.hits"));
}
