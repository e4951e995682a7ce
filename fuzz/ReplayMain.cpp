//===- ReplayMain.cpp - Runs a fuzz target over saved inputs --------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The main() of the fuzz targets in builds without libFuzzer
// (OFFLOAD_FUZZERS=OFF, the normal build):
//
//   offload-fuzz-TARGET PATH...
//
// calls the target's LLVMFuzzerInitialize (if it has one), then its
// LLVMFuzzerTestOneInput once on each file named, and on every file under
// each directory named (recursively, in path order). Nothing is mutated: it
// is the regression test of the inputs kept in fuzz/regressions/TARGET (the
// crashes the fuzzers found) and of the seeds offload-fuzz-seeds writes. A
// crash or a broken invariant (the targets abort) ends the process;
// "replay: PATH" is printed before each input, so the last one printed is
// the culprit. Each input is copied into a heap buffer of exactly its size,
// as libFuzzer does, so sanitized builds see reads past its end.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *Argc,
                                                          char ***Argv);

using namespace llvm;

/// Appends the regular files under \p Path (or \p Path itself) to \p Files;
/// false if \p Path does not exist.
static bool collectInputs(StringRef Path, std::vector<std::string> &Files) {
  sys::fs::file_status Status;
  if (sys::fs::status(Path, Status))
    return false;
  if (sys::fs::is_regular_file(Status)) {
    Files.push_back(Path.str());
    return true;
  }
  if (!sys::fs::is_directory(Status))
    return true;
  std::vector<std::string> Found;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Path, EC), End;
       It != End && !EC; It.increment(EC))
    if (sys::fs::is_regular_file(It->path()))
      Found.push_back(It->path());
  std::sort(Found.begin(), Found.end());
  Files.insert(Files.end(), Found.begin(), Found.end());
  return !EC;
}

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    errs() << "usage: " << Argv[0]
           << " PATH...\n  runs the fuzz target once on each file (and "
              "each file under each directory)\n";
    return 2;
  }
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    StringRef Arg = Argv[I];
    if (Arg.starts_with("-")) {
      errs() << Argv[0] << ": '" << Arg
             << "': this build replays inputs only (PATH...); libFuzzer's "
                "options need a build with -DOFFLOAD_FUZZERS=ON\n";
      return 2;
    }
    if (!collectInputs(Arg, Files)) {
      errs() << Argv[0] << ": no such file or directory: " << Arg << "\n";
      return 2;
    }
  }
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&Argc, &Argv);

  auto Start = std::chrono::steady_clock::now();
  double Slowest = 0;
  std::string SlowestFile;
  for (const std::string &File : Files) {
    outs() << "replay: " << File << "\n";
    outs().flush();
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(File, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Buffer) {
      errs() << Argv[0] << ": cannot read " << File << ": "
             << Buffer.getError().message() << "\n";
      return 2;
    }
    size_t Size = (*Buffer)->getBufferSize();
    std::unique_ptr<uint8_t[]> Data(new uint8_t[std::max<size_t>(Size, 1)]);
    std::memcpy(Data.get(), (*Buffer)->getBufferStart(), Size);
    auto Before = std::chrono::steady_clock::now();
    (void)LLVMFuzzerTestOneInput(Data.get(), Size);
    double Took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Before)
            .count();
    if (Took > Slowest) {
      Slowest = Took;
      SlowestFile = File;
    }
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  outs() << "replay: " << Files.size() << " inputs, " << format("%.2f", Seconds)
         << " s";
  if (!SlowestFile.empty())
    outs() << " (slowest: " << SlowestFile << ", " << format("%.2f", Slowest)
           << " s)";
  outs() << "\n";
  return 0;
}
