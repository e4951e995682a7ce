//===- EntryPointTest.cpp - The JIT's generated entry points --------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The entry points of OffloadJIT.h are generated from
// include/OffloadJIT/API/OffloadJITAPI.td: a bad handle or a null pointer
// gets the error code the header documents, with a message naming the
// argument; OFFLOAD_TRACE=1 prints each JIT call in the runtime's format;
// OFFLOAD_DISABLE_VALIDATION=1 keeps the checks marked always. The traced
// and unvalidated cases run in child processes (the settings are read once
// per process): this program started again with --child=<case>.
//
//===----------------------------------------------------------------------===//

#include "JITTestUtils.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace offload_jit_test;

namespace {

std::string SelfPath;

/// The host device, with the runtime initialized.
offload_device_handle_t hostDevice() {
  static offload_device_handle_t Device = [] {
    offload_device_handle_t D = nullptr;
    if (offloadInit() || offloadGetHostDevice(&D))
      return static_cast<offload_device_handle_t>(nullptr);
    return D;
  }();
  return Device;
}

std::string detailsOf(offload_result_t R) {
  return R ? std::string(R->Details) : std::string("(success)");
}

TEST(JITEntryPointTest, BadHandlesAndNullPointersGetTheDocumentedCodes) {
  offload_device_handle_t Device = hostDevice();
  ASSERT_NE(Device, nullptr);

  // INVALID_NULL_HANDLE / INVALID_PROGRAM (offloadJITGetKernel's Errors).
  offload_jit_kernel_handle_t K = nullptr;
  offload_result_t R = offloadJITGetKernel(nullptr, "scale", &K);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_HANDLE);
  EXPECT_EQ(detailsOf(R), "Program is null");
  int NotAProgram = 0;
  R = offloadJITGetKernel(
      reinterpret_cast<offload_jit_program_handle_t>(&NotAProgram), "scale",
      &K);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_PROGRAM);
  EXPECT_NE(detailsOf(R).find("Program (0x"), std::string::npos)
      << detailsOf(R);
  EXPECT_NE(detailsOf(R).find("is not a live JIT program"), std::string::npos)
      << detailsOf(R);

  // A destroyed program is not live any more, and neither are its kernels.
  offload_jit_program_handle_t P = nullptr;
  ASSERT_OK(offloadCreateProgramFromMLIR(Device, KernelsSource,
                                         std::strlen(KernelsSource), &P));
  ASSERT_OK(offloadJITGetKernel(P, "scale", &K));
  char Signature[256];
  // Checked once while live: this thread remembers K as live (isLive) until
  // a program is destroyed.
  ASSERT_OK(
      offloadJITGetKernelSignature(K, sizeof(Signature), Signature, nullptr));
  ASSERT_OK(offloadJITDestroyProgram(P));
  R = offloadJITDestroyProgram(P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_PROGRAM);
  R = offloadJITGetKernelSignature(K, sizeof(Signature), Signature, nullptr);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SYMBOL);
  EXPECT_NE(detailsOf(R).find("Kernel (0x"), std::string::npos) << detailsOf(R);

  // INVALID_NULL_POINTER, naming the argument, before anything runs.
  R = offloadJITGetStats(nullptr);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_POINTER);
  EXPECT_EQ(detailsOf(R), "Stats is null");
  R = offloadCreateProgramFromMLIR(Device, nullptr, 8, &P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_POINTER);
  EXPECT_EQ(detailsOf(R), "Module is null");
  R = offloadCreateProgramFromMLIR(Device, KernelsSource, 0, &P);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SIZE);
  EXPECT_EQ(detailsOf(R), "Size is zero");
  auto Sizes = sizes(1, 8);
  R = offloadJITLaunchKernel(nullptr, nullptr, K, nullptr, 0, &Sizes);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_HANDLE);
  EXPECT_EQ(detailsOf(R), "Device is null");
  // Arguments are checked in declaration order: Kernel before
  // LaunchSizeArgs.
  R = offloadJITLaunchKernel(nullptr, Device, nullptr, nullptr, 0, nullptr);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_NULL_HANDLE);
  EXPECT_EQ(detailsOf(R), "Kernel is null");
  offload_symbol_handle_t Symbol = nullptr;
  R = offloadJITGetSpecializedKernel(Device, K, nullptr, 0, &Sizes, &Symbol);
  ASSERT_NE(R, OFFLOAD_SUCCESS);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_SYMBOL);
  // The same failure is the same stored error.
  EXPECT_EQ(offloadJITGetStats(nullptr), offloadJITGetStats(nullptr));
}

/// Runs this program with --child=\p Case and \p Env set; returns its exit
/// status and its stderr in \p Stderr.
int runChild(const std::string &Case, const char *Env, std::string &Stderr) {
  std::string Path = ::testing::TempDir() + "jit-entry-" + Case + "." +
                     std::to_string(getpid()) + ".stderr";
  pid_t Pid = fork();
  if (Pid == 0) {
    FILE *Out = std::fopen(Path.c_str(), "w");
    if (!Out)
      _exit(125);
    dup2(fileno(Out), 2);
    putenv(const_cast<char *>(Env));
    std::string Arg = "--child=" + Case;
    execl(SelfPath.c_str(), SelfPath.c_str(), Arg.c_str(),
          static_cast<char *>(nullptr));
    _exit(126);
  }
  int Status = 0;
  waitpid(Pid, &Status, 0);
  std::ifstream In(Path);
  std::stringstream Text;
  Text << In.rdbuf();
  Stderr = Text.str();
  std::remove(Path.c_str());
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
}

/// --child=trace: a failing and a succeeding JIT call, and a launch.
int childTrace() {
  offload_device_handle_t Device = hostDevice();
  if (!Device)
    return 2;
  if (offloadJITGetStats(nullptr) == OFFLOAD_SUCCESS)
    return 3;
  offload_jit_program_handle_t P = nullptr;
  offload_jit_kernel_handle_t K = nullptr;
  if (offloadCreateProgramFromMLIR(Device, KernelsSource,
                                   std::strlen(KernelsSource), &P) ||
      offloadJITGetKernel(P, "scale", &K))
    return 4;
  std::vector<float> X(8, 1.0f);
  ScaleArgs Args{view(X.data(), 8), 2.0f};
  auto Sizes = sizes(1, 8);
  if (offloadJITLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &Sizes))
    return 5;
  return X[7] == 2.0f ? 0 : 6;
}

/// --child=novalidation: the checks marked always still apply.
int childNoValidation() {
  offload_device_handle_t Device = hostDevice();
  if (!Device)
    return 2;
  offload_jit_program_handle_t P = nullptr;
  offload_result_t R =
      offloadCreateProgramFromMLIR(Device, KernelsSource, 0, &P);
  if (!R || R->Code != OFFLOAD_ERRC_INVALID_SIZE)
    return 3;
  offload_jit_kernel_handle_t K = nullptr;
  if (offloadCreateProgramFromMLIR(Device, KernelsSource,
                                   std::strlen(KernelsSource), &P) ||
      offloadJITGetKernel(P, "scale", &K))
    return 4;
  R = offloadJITGetKernelSignature(K, 0, nullptr, nullptr);
  if (!R || R->Code != OFFLOAD_ERRC_INVALID_NULL_POINTER)
    return 5;
  return 0;
}

TEST(JITEntryPointTest, TraceShowsJITCalls) {
  std::string Stderr;
  ASSERT_EQ(runChild("trace", "OFFLOAD_TRACE=1", Stderr), 0) << Stderr;
  EXPECT_NE(Stderr.find("offloadJITGetStats(Stats=0x0) -> "
                        "OFFLOAD_ERRC_INVALID_NULL_POINTER: Stats is null\n"),
            std::string::npos)
      << Stderr;
  EXPECT_NE(Stderr.find("offloadJITGetKernel(Program=0x"), std::string::npos)
      << Stderr;
  EXPECT_NE(Stderr.find(", Name=\"scale\", Kernel=0x"), std::string::npos)
      << Stderr;
  // The launch, with its sizes printed as the runtime prints them; the
  // runtime's own offloadLaunchKernel line comes before it.
  size_t Launch = Stderr.find("offloadJITLaunchKernel(Queue=0x0, Device=0x");
  ASSERT_NE(Launch, std::string::npos) << Stderr;
  size_t End = Stderr.find('\n', Launch);
  std::string Line = Stderr.substr(Launch, End - Launch);
  EXPECT_NE(Line.find(", ArgumentsSize=48, LaunchSizeArgs={Dimensions=1, "
                      "NumGroups={1,1,1}, GroupSize={8,1,1}, "
                      "DynSharedMemory=0}) -> OFFLOAD_SUCCESS"),
            std::string::npos)
      << Line;
  size_t RuntimeLaunch = Stderr.find("offloadLaunchKernel(");
  EXPECT_LT(RuntimeLaunch, Launch) << Stderr;
}

TEST(JITEntryPointTest, AlwaysCheckedRulesHoldWithoutValidation) {
  std::string Stderr;
  EXPECT_EQ(runChild("novalidation", "OFFLOAD_DISABLE_VALIDATION=1", Stderr), 0)
      << Stderr;
}

} // namespace

int main(int argc, char **argv) {
  SelfPath = argv[0];
  if (argc == 2 && std::strncmp(argv[1], "--child=", 8) == 0) {
    std::string Case = argv[1] + 8;
    if (Case == "trace")
      return childTrace();
    if (Case == "novalidation")
      return childNoValidation();
    return 100;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
