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
#include <fstream>
#include <thread>

using namespace offloadjit;

namespace {
class DiskCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<128> Path;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("offload-cache-test",
                                                      Path));
    Dir = std::string(Path);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  static std::vector<char> bytes(const std::string &S) {
    return std::vector<char>(S.begin(), S.end());
  }
  std::string Dir;
};
} // namespace

TEST_F(DiskCacheTest, WriteThenRead) {
  DiskCache Cache(Dir, 0);
  std::string Problem;
  EXPECT_FALSE(Cache.read("k1", Problem));
  EXPECT_TRUE(Problem.empty());
  ASSERT_FALSE(bool(Cache.write("k1", bytes("payload one"))));
  std::optional<std::vector<char>> Got = Cache.read("k1", Problem);
  ASSERT_TRUE(Got);
  EXPECT_EQ(std::string(Got->begin(), Got->end()), "payload one");
  EXPECT_EQ(Cache.list().size(), 1u);
}

TEST_F(DiskCacheTest, TruncatedEntryIsReportedAndDeleted) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write("k", bytes("a longer payload"))));
  std::string Path = Cache.list()[0].Path;
  {
    int FD;
    ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
        Path, FD, llvm::sys::fs::CD_OpenExisting));
    ASSERT_FALSE(llvm::sys::fs::resize_file(FD, 28));
    llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  }
  EXPECT_NE(DiskCache::verifyFile(Path), "");
  std::string Problem;
  EXPECT_FALSE(Cache.read("k", Problem));
  EXPECT_NE(Problem.find("corrupt cache entry"), std::string::npos);
  EXPECT_NE(Problem.find("payload is 4 bytes, header says 16"),
            std::string::npos)
      << Problem;
  EXPECT_FALSE(llvm::sys::fs::exists(Path));
}

TEST_F(DiskCacheTest, FlippedByteFailsTheChecksum) {
  DiskCache Cache(Dir, 0);
  ASSERT_FALSE(bool(Cache.write("k", bytes("0123456789"))));
  std::string Path = Cache.list()[0].Path;
  {
    std::fstream F(Path, std::ios::in | std::ios::out | std::ios::binary);
    F.seekp(24 + 3);
    F.put('X');
  }
  std::string Problem;
  EXPECT_FALSE(Cache.read("k", Problem));
  EXPECT_NE(Problem.find("checksum mismatch"), std::string::npos) << Problem;
}

TEST_F(DiskCacheTest, GarbageFileIsNotAnEntry) {
  DiskCache Cache(Dir, 0);
  {
    std::ofstream F(Dir + "/junk" + std::string(kCacheEntrySuffix));
    F << "not a cache entry at all, but long enough";
  }
  std::string Problem;
  EXPECT_FALSE(Cache.read("junk", Problem));
  EXPECT_NE(Problem.find("bad magic"), std::string::npos) << Problem;
}

TEST_F(DiskCacheTest, LeastRecentlyUsedEntriesAreEvicted) {
  // Each entry is 24 header bytes + 100 payload bytes; room for two.
  DiskCache Cache(Dir, 2 * 124 + 10);
  std::vector<char> Payload(100, 'x');
  ASSERT_FALSE(bool(Cache.write("first", Payload)));
  ASSERT_FALSE(bool(Cache.write("second", Payload)));
  // Make "first" the least recently used, unambiguously.
  std::string First = Cache.list().back().Key == "first"
                          ? Cache.list().back().Path
                          : Cache.list().front().Path;
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(First, FD,
                                               llvm::sys::fs::CD_OpenExisting,
                                               llvm::sys::fs::OF_Append));
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, llvm::sys::toTimePoint(1000)));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  ASSERT_FALSE(bool(Cache.write("third", Payload)));
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
        EXPECT_FALSE(bool(Cache.write("shared", Payload)));
        std::string Problem;
        std::optional<std::vector<char>> Got = Cache.read("shared", Problem);
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
