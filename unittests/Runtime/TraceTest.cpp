//===- TraceTest.cpp - OFFLOAD_TRACE=1 ------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <regex>
#include <thread>

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

/// Runs the test with OFFLOAD_TRACE=1, read when the runtime initializes.
class TraceTest : public OffloadTest {
protected:
  void SetUp() override {
    Env.emplace("OFFLOAD_TRACE", "1");
    OffloadTest::SetUp();
  }
  void TearDown() override {
    OffloadTest::TearDown();
    Env.reset();
  }

  std::optional<ScopedEnv> Env;
};

TEST_F(TraceTest, SuccessLine) {
  CaptureStderr();
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, 64, &Ptr));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
  std::string Trace = GetCapturedStderr();
  EXPECT_TRUE(std::regex_search(
      Trace, std::regex(R"(offloadMemAlloc\(Device=0x[0-9a-f]+, Type=DEVICE, )"
                        R"(Size=64, AllocationOut=0x[0-9a-f]+\) -> )"
                        R"(OFFLOAD_SUCCESS\n)")))
      << Trace;
  EXPECT_TRUE(std::regex_search(
      Trace, std::regex(R"(offloadMemFree\(Address=0x[0-9a-f]+\) -> )"
                        R"(OFFLOAD_SUCCESS\n)")))
      << Trace;
}

TEST_F(TraceTest, ErrorLine) {
  CaptureStderr();
  void *Ptr = nullptr;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 0, &Ptr));
  std::string Trace = GetCapturedStderr();
  EXPECT_NE(Trace.find("Type=HOST, Size=0"), std::string::npos) << Trace;
  EXPECT_NE(Trace.find(") -> OFFLOAD_ERRC_INVALID_SIZE: Size is zero\n"),
            std::string::npos)
      << Trace;
}

TEST_F(TraceTest, LaunchArguments) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  CaptureStderr();
  offload_symbol_handle_t K = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  float X = 1, Y = 2;
  SaxpyArgs Args{2.0f, &X, &Y, 1};
  auto L = launch1D(1, 32);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Host, K, &Args, sizeof(Args), &L));
  std::string Trace = GetCapturedStderr();
  EXPECT_EQ(Y, 4.0f);
  EXPECT_NE(Trace.find("offloadGetSymbol(Program="), std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("Name=\"saxpy\", Kind=KERNEL"), std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("offloadLaunchKernel(Queue=0x0, Device=0x"),
            std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("ArgumentsSize=32, LaunchSizeArgs={Dimensions=1, "
                       "NumGroups={1,1,1}, GroupSize={32,1,1}, "
                       "DynSharedMemory=0}) -> OFFLOAD_SUCCESS"),
            std::string::npos)
      << Trace;
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

/// Number of times \p Needle occurs in \p Text.
size_t count(const std::string &Text, const std::string &Needle) {
  size_t N = 0;
  for (size_t At = Text.find(Needle); At != std::string::npos;
       At = Text.find(Needle, At + 1))
    ++N;
  return N;
}

TEST_F(TraceTest, CooperativeKernelsSayWhyTheyRunOnFibers) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  offload_symbol_handle_t Reverse = nullptr, NoReason = nullptr,
                          Saxpy = nullptr;
  ASSERT_SUCCESS(offloadGetSymbol(Program, "reverse",
                                  OFFLOAD_SYMBOL_KIND_KERNEL, &Reverse));
  ASSERT_SUCCESS(offloadGetSymbol(Program, "no_reason",
                                  OFFLOAD_SYMBOL_KIND_KERNEL, &NoReason));
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &Saxpy));
  std::vector<int32_t> In(32, 1), Out(32);
  TwoPointers Args{In.data(), Out.data()};
  float X = 1, Y = 2;
  SaxpyArgs SArgs{2.0f, &X, &Y, 1};
  auto L = launch1D(1, 32);
  CaptureStderr();
  for (int I = 0; I < 3; ++I) {
    ASSERT_SUCCESS(
        offloadLaunchKernel(nullptr, Host, Reverse, &Args, sizeof(Args), &L));
    ASSERT_SUCCESS(
        offloadLaunchKernel(nullptr, Host, NoReason, nullptr, 0, &L));
    ASSERT_SUCCESS(
        offloadLaunchKernel(nullptr, Host, Saxpy, &SArgs, sizeof(SArgs), &L));
  }
  std::string Trace = GetCapturedStderr();
  // Once per kernel, with the descriptor's CooperativeReason (or, without
  // one, what the runtime knows); never for kernels without barriers.
  EXPECT_EQ(count(Trace, "offload: kernel reverse runs on fibers: the test "
                         "kernel synchronizes threads\n"),
            1u)
      << Trace;
  EXPECT_EQ(count(Trace, "offload: kernel no_reason runs on fibers: its "
                         "descriptor marks it cooperative\n"),
            1u)
      << Trace;
  EXPECT_EQ(count(Trace, "runs on fibers"), 2u) << Trace;
  EXPECT_EQ(count(Trace, "offloadLaunchKernel("), 9u) << Trace;
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

TEST_F(TraceTest, InfoQueriesNameTheirProperty) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  offload_symbol_handle_t K = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_MANAGED, 64, &Ptr));

  CaptureStderr();
  uint32_t Width;
  ASSERT_SUCCESS(
      offloadGetDeviceInfo(Host, OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT,
                           sizeof(Width), &Width));
  size_t Size;
  ASSERT_SUCCESS(offloadGetMemInfoSize(Ptr, OFFLOAD_MEM_INFO_TYPE, &Size));
  bool Empty;
  ASSERT_SUCCESS(offloadGetQueueInfo(Queue, OFFLOAD_QUEUE_INFO_EMPTY,
                                     sizeof(Empty), &Empty));
  ASSERT_SUCCESS(
      offloadGetEventInfoSize(Event, OFFLOAD_EVENT_INFO_IS_COMPLETE, &Size));
  ASSERT_SUCCESS(
      offloadGetSymbolInfoSize(K, OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS, &Size));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ENUMERATION,
               offloadGetSymbolInfoSize(
                   K, static_cast<offload_symbol_info_t>(42), &Size));
  ASSERT_SUCCESS(offloadCalculateOptimalOccupancy(Host, K, 16, &Size));
  int Data[4];
  void *Pinned;
  ASSERT_SUCCESS(offloadMemRegister(Host, Data, sizeof(Data), 0, &Pinned));
  std::string Trace = GetCapturedStderr();

  for (const char *Expected :
       {"offloadGetDeviceInfo(Device=0x",
        "PropName=NATIVE_VECTOR_WIDTH_FLOAT, "
        "PropSize=4, PropValue=0x",
        "offloadGetMemInfoSize(Ptr=0x", "PropName=TYPE, PropSizeRet=0x",
        "offloadGetQueueInfo(Queue=0x", "PropName=EMPTY, PropSize=1",
        "offloadGetEventInfoSize(Event=0x", "PropName=IS_COMPLETE",
        "offloadGetSymbolInfoSize(Symbol=0x", "PropName=ARGUMENT_OFFSETS",
        "PropName=<invalid 42>, PropSizeRet=0x",
        "-> OFFLOAD_ERRC_INVALID_ENUMERATION: PropName (42) is not a valid "
        "enumerator\n",
        "offloadCalculateOptimalOccupancy(Device=0x",
        "SharedMemory=16, GroupSize=0x", "offloadMemRegister(Device=0x",
        "Size=16, Flags=0, PinnedPtr=0x"})
    EXPECT_NE(Trace.find(Expected), std::string::npos)
        << "missing '" << Expected << "' in:\n"
        << Trace;

  ASSERT_SUCCESS(offloadMemFree(Ptr));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

TEST_F(TraceTest, ConcurrentLinesDoNotInterleave) {
  CaptureStderr();
  std::vector<std::thread> Threads;
  for (int T = 0; T < 4; ++T)
    Threads.emplace_back([&] {
      for (int I = 0; I < 50; ++I) {
        void *Ptr = nullptr;
        EXPECT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 8, &Ptr));
        EXPECT_SUCCESS(offloadMemFree(Ptr));
      }
    });
  for (std::thread &T : Threads)
    T.join();
  std::string Trace = GetCapturedStderr();
  std::regex Line(R"(offloadMem(Alloc\(Device=0x[0-9a-f]+, Type=HOST, Size=8, )"
                  R"(AllocationOut=0x[0-9a-f]+\)|Free\(Address=0x[0-9a-f]+\)) )"
                  R"(-> OFFLOAD_SUCCESS)");
  size_t Lines = 0, Start = 0;
  while (Start < Trace.size()) {
    size_t End = Trace.find('\n', Start);
    ASSERT_NE(End, std::string::npos);
    std::string One = Trace.substr(Start, End - Start);
    EXPECT_TRUE(std::regex_match(One, Line)) << One;
    ++Lines;
    Start = End + 1;
  }
  EXPECT_EQ(Lines, 400u);
}

TEST(TraceOffTest, SilentByDefault) {
  ScopedEnv Env("OFFLOAD_TRACE", "0");
  CaptureStderr();
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_SUCCESS(offloadShutDown());
  EXPECT_EQ(GetCapturedStderr(), "");
}

} // namespace
