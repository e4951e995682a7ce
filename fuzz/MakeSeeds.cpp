//===- MakeSeeds.cpp - Writes the seed corpora of the fuzzers -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
//   offload-fuzz-seeds SOURCE_DIR CORPUS_DIR
//
// Writes CORPUS_DIR/<fuzzer>/seed-* for each fuzzer of fuzz/:
//  - host-image: the runtime suite's test kernel object, its object with an
//    unresolved symbol and its objects with static initializers
//    (unittests/Runtime/KernelBuilder.h);
//  - disk-cache: valid entries (DiskCache::encode) of the identity the
//    fuzzer reads, with the test kernel object and small payloads;
//  - mlir-pipeline: every .mlir file of SOURCE_DIR/test and
//    SOURCE_DIR/examples, split at `// -----`, after the options byte 0;
//  - runtime-calls: call sequences that create, use and release every kind
//    of object, and launch the test kernels.
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"
#include "KernelBuilder.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;

static std::string CorpusDir;
static unsigned Written = 0;

static void writeSeed(StringRef Fuzzer, StringRef Name, StringRef Bytes) {
  SmallString<256> Dir(CorpusDir);
  sys::path::append(Dir, Fuzzer);
  if (std::error_code EC = sys::fs::create_directories(Dir)) {
    errs() << "offload-fuzz-seeds: cannot create " << Dir << ": "
           << EC.message() << '\n';
    exit(1);
  }
  SmallString<256> Path(Dir);
  sys::path::append(Path, "seed-" + Name);
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_None);
  if (EC) {
    errs() << "offload-fuzz-seeds: cannot write " << Path << ": "
           << EC.message() << '\n';
    exit(1);
  }
  OS << Bytes;
  ++Written;
}

static void mlirSeeds(StringRef SourceDir) {
  for (StringRef Sub : {"test", "examples"}) {
    SmallString<256> Root(SourceDir);
    sys::path::append(Root, Sub);
    std::error_code EC;
    for (sys::fs::recursive_directory_iterator It(Root, EC), End;
         It != End && !EC; It.increment(EC)) {
      StringRef Path = It->path();
      if (!Path.ends_with(".mlir"))
        continue;
      auto Buffer = MemoryBuffer::getFile(Path);
      // Tests of crashes (`not --crash`) crash Debian's MLIR on purpose.
      if (!Buffer || (*Buffer)->getBuffer().contains("not --crash"))
        continue;
      SmallVector<StringRef> Pieces;
      (*Buffer)->getBuffer().split(Pieces, "\n// -----");
      std::string Base = Path.drop_front(SourceDir.size() + 1).str();
      std::replace(Base.begin(), Base.end(), '/', '_');
      for (size_t I = 0; I < Pieces.size(); ++I) {
        if (Pieces[I].size() > 64 * 1024)
          continue;
        writeSeed("mlir-pipeline", Base + "." + std::to_string(I),
                  std::string(1, '\0') + Pieces[I].str());
      }
    }
  }
}

/// Call sequences for RuntimeCallsFuzzer.cpp: bytes are opcodes (mod 18)
/// and their arguments.
static void runtimeCallSeeds() {
  const std::vector<std::vector<uint8_t>> Seeds = {
      // queue; two allocations; fill; copy; memcpy to host; info; free
      {4, 0, 1, 0, 4, 0,  1, 0, 4, 3, 1,  2, 0, 16, 0, 0, 2, 0, 0, 16,
       0, 0, 1, 0, 0, 17, 0, 2, 0, 0, 11, 0, 1, 8,  1, 0, 0, 1, 1, 0},
      // program; symbols; launches of saxpy, ids and count_blocks
      {0, 1,  0, 16, 0, 1,  0, 16, 12, 0,  14, 0, 0, 0, 14, 0,  1,
       0, 14, 0, 2,  0, 14, 0, 3,  0,  15, 0,  1, 0, 0, 3,  3,  64,
       0, 15, 1, 1,  0, 0,  1, 1,  15, 2,  1,  0, 0, 3, 0,  13, 0},
      // queues, events, waits, host functions; stale handles
      {4, 4, 7, 0, 7, 1, 10, 1, 2,  0, 1,  16, 0, 16, 1, 8, 0, 9, 0,
       8, 0, 5, 0, 6, 0, 7,  0, 16, 0, 11, 1,  1, 1,  0, 9, 1, 9, 1},
      // stale programs and symbols
      {12, 0, 14, 0, 4, 0, 13, 0, 14, 0, 0, 0, 15, 0, 1, 0, 0, 1, 1, 13, 0},
  };
  for (size_t I = 0; I < Seeds.size(); ++I)
    writeSeed("runtime-calls", std::to_string(I),
              StringRef(reinterpret_cast<const char *>(Seeds[I].data()),
                        Seeds[I].size()));
}

int main(int argc, char **argv) {
  if (argc != 3) {
    errs() << "usage: offload-fuzz-seeds SOURCE_DIR CORPUS_DIR\n";
    return 2;
  }
  StringRef SourceDir = argv[1];
  CorpusDir = argv[2];

  const std::string &Kernels = offload_test::getTestKernels();
  writeSeed("host-image", "kernels.o", Kernels);
  writeSeed("host-image", "unresolved.o", offload_test::getUnresolvedObject());
  writeSeed("host-image", "ctors.o", offload_test::getInitFiniObject(false));
  writeSeed("host-image", "init-array.o",
            offload_test::getInitFiniObject(true));

  // Must match the identity of DiskCacheFuzzer.cpp.
  offloadjit::EntryIdentity Id{"00112233445566778899aabbccddeeff",
                               "fuzz::kernel",
                               "host;x86_64-unknown-linux-gnu;;"};
  writeSeed("disk-cache", "kernels.ofj", StringRef([&] {
              std::vector<char> E = offloadjit::DiskCache::encode(
                  Id, ArrayRef<char>(Kernels.data(), Kernels.size()));
              return std::string(E.begin(), E.end());
            }()));
  for (StringRef Payload : {"", "x", "payload\n"}) {
    std::vector<char> E = offloadjit::DiskCache::encode(
        Id, ArrayRef<char>(Payload.data(), Payload.size()));
    writeSeed("disk-cache", "small-" + std::to_string(Payload.size()),
              StringRef(E.data(), E.size()));
  }
  offloadjit::EntryIdentity Other{"ffff", "other::kernel", "host;;;"};
  std::vector<char> E = offloadjit::DiskCache::encode(Other, {});
  writeSeed("disk-cache", "other-key", StringRef(E.data(), E.size()));

  mlirSeeds(SourceDir);
  runtimeCallSeeds();
  outs() << "offload-fuzz-seeds: wrote " << Written << " seeds to " << CorpusDir
         << '\n';
  return 0;
}
