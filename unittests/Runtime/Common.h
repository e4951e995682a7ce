//===- Common.h - Fixtures and helpers of the runtime tests -----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The conformance suite has one file per entry point (OffloadAPI/<name>.cpp,
// like upstream offload/unittests/OffloadAPI), each with success and error
// cases, parameterized over every device present: the host device always,
// others only when offloadIterateDevices finds them. Fixtures build on each
// other like upstream's: device -> queue -> event, device -> program ->
// kernel / global. Program fixtures load the test kernels of KernelBuilder,
// which are host objects: they skip devices of other platforms.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_UNITTESTS_COMMON_H
#define OFFLOADRUNTIME_UNITTESTS_COMMON_H

#include "KernelBuilder.h"

#include "OffloadRuntime/OffloadAPI.h"

#include "gtest/gtest.h"

#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace offload_test {

/// "OFFLOAD_ERRC_X: details" or "success", for failure messages.
inline std::string describe(offload_result_t Result) {
  if (!Result)
    return "success";
  return std::string(offloadErrcName(Result->Code)) + ": " +
         (Result->Details ? Result->Details : "<no details>");
}

} // namespace offload_test

#define ASSERT_SUCCESS(Call)                                                   \
  do {                                                                         \
    offload_result_t Result_ = (Call);                                         \
    ASSERT_EQ(Result_, OFFLOAD_SUCCESS)                                        \
        << #Call << " -> " << offload_test::describe(Result_);                 \
  } while (0)

#define EXPECT_SUCCESS(Call)                                                   \
  do {                                                                         \
    offload_result_t Result_ = (Call);                                         \
    EXPECT_EQ(Result_, OFFLOAD_SUCCESS)                                        \
        << #Call << " -> " << offload_test::describe(Result_);                 \
  } while (0)

/// Asserts that \p Call fails with \p ErrCode.
#define ASSERT_ERROR(ErrCode, Call)                                            \
  do {                                                                         \
    offload_result_t Result_ = (Call);                                         \
    ASSERT_NE(Result_, OFFLOAD_SUCCESS) << #Call << " succeeded";              \
    ASSERT_EQ(Result_->Code, ErrCode)                                          \
        << #Call << " -> " << offload_test::describe(Result_);                 \
  } while (0)

/// Asserts that \p Call fails with \p ErrCode and a message containing
/// \p Text.
#define ASSERT_ERROR_MSG(ErrCode, Text, Call)                                  \
  do {                                                                         \
    offload_result_t Result_ = (Call);                                         \
    ASSERT_NE(Result_, OFFLOAD_SUCCESS) << #Call << " succeeded";              \
    ASSERT_EQ(Result_->Code, ErrCode)                                          \
        << #Call << " -> " << offload_test::describe(Result_);                 \
    ASSERT_NE(std::string(Result_->Details).find(Text), std::string::npos)     \
        << #Call << " -> message: " << Result_->Details;                       \
  } while (0)

/// Returns from the test (SetUp included) after a fatal failure or a skip.
#define RETURN_ON_FATAL_FAILURE(...)                                           \
  __VA_ARGS__;                                                                 \
  if (this->HasFatalFailure() || this->IsSkipped())                            \
    return;                                                                    \
  (void)0

namespace offload_test {

/// Sets an environment variable for the lifetime of the object.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Previous = Old;
    setenv(Name, Value, 1);
  }
  ~ScopedEnv() {
    if (Previous)
      setenv(Name, Previous->c_str(), 1);
    else
      unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Previous;
};

/// Addresses no handle or allocation can have; dereferencing them crashes.
template <typename T> T garbageHandle(uintptr_t Value = 0x40) {
  return reinterpret_cast<T>(Value);
}

//===----------------------------------------------------------------------===//
// Fixtures
//===----------------------------------------------------------------------===//

/// Initializes the runtime for each test and shuts it down afterwards; for
/// entry points that take no device.
class OffloadTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_SUCCESS(offloadInit());
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  }
  void TearDown() override { EXPECT_SUCCESS(offloadShutDown()); }

  offload_device_handle_t Host = nullptr;
};

/// A device the suite runs on: its index for offloadGetDevice(UNKNOWN, I)
/// and a name for test names ("host0", "cuda0", ...).
struct TestDevice {
  uint32_t Index;
  std::string Name;
};

/// gtest prints a device parameter by its name.
inline void PrintTo(const TestDevice &Device, std::ostream *OS) {
  *OS << Device.Name;
}

/// Every device offloadIterateDevices reports, the host device first.
const std::vector<TestDevice> &getTestDevices();

/// Tests run once per device.
class OffloadDeviceTest : public ::testing::TestWithParam<TestDevice> {
protected:
  void SetUp() override {
    ASSERT_SUCCESS(offloadInit());
    Initialized = true;
    ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN,
                                    GetParam().Index, &Device));
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
    ASSERT_SUCCESS(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_PLATFORM,
                                        sizeof(Platform), &Platform));
    ASSERT_SUCCESS(offloadGetPlatformInfo(
        Platform, OFFLOAD_PLATFORM_INFO_BACKEND, sizeof(Backend), &Backend));
  }
  void TearDown() override {
    if (Initialized)
      EXPECT_SUCCESS(offloadShutDown());
  }

  bool isHost() const { return Device == Host; }

  offload_device_handle_t Device = nullptr;
  offload_device_handle_t Host = nullptr;
  offload_platform_handle_t Platform = nullptr;
  offload_platform_backend_t Backend = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
  bool Initialized = false;
};

/// A device test with a queue.
class OffloadQueueTest : public OffloadDeviceTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadDeviceTest::SetUp());
    ASSERT_SUCCESS(offloadCreateQueue(Device, &Queue));
  }
  void TearDown() override {
    if (Queue)
      EXPECT_SUCCESS(offloadDestroyQueue(Queue));
    OffloadDeviceTest::TearDown();
  }

  offload_queue_handle_t Queue = nullptr;
};

/// A queue test with a completed event of the queue.
class OffloadEventTest : public OffloadQueueTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadQueueTest::SetUp());
    ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
    ASSERT_SUCCESS(offloadSyncQueue(Queue));
  }
  void TearDown() override {
    if (Event)
      EXPECT_SUCCESS(offloadDestroyEvent(Event));
    OffloadQueueTest::TearDown();
  }

  offload_event_handle_t Event = nullptr;
};

/// A device test for devices that can load the test kernels (host objects);
/// devices of other platforms are skipped.
class OffloadBinaryTest : public OffloadDeviceTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadDeviceTest::SetUp());
    if (Backend != OFFLOAD_PLATFORM_BACKEND_HOST)
      GTEST_SKIP() << "the test kernels are built for the host device only";
  }

  const std::string &Object = getTestKernels();
};

/// A queue test with the test kernels (getTestKernels) loaded. The kernels
/// are host objects: devices of other platforms are skipped.
class OffloadProgramTest : public OffloadQueueTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadQueueTest::SetUp());
    if (Backend != OFFLOAD_PLATFORM_BACKEND_HOST)
      GTEST_SKIP() << "the test kernels are built for the host device only";
    const std::string &Object = getTestKernels();
    ASSERT_SUCCESS(
        offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
  }
  void TearDown() override {
    if (Program)
      EXPECT_SUCCESS(offloadDestroyProgram(Program));
    OffloadQueueTest::TearDown();
  }

  offload_symbol_handle_t getKernel(const char *Name) {
    offload_symbol_handle_t Kernel = nullptr;
    offload_result_t R =
        offloadGetSymbol(Program, Name, OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return Kernel;
  }
  offload_symbol_handle_t getGlobal(const char *Name) {
    offload_symbol_handle_t Global = nullptr;
    offload_result_t R = offloadGetSymbol(
        Program, Name, OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &Global);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return Global;
  }

  offload_program_handle_t Program = nullptr;
};

/// A program test with the saxpy kernel (whose argument layout is recorded).
class OffloadKernelTest : public OffloadProgramTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadProgramTest::SetUp());
    ASSERT_SUCCESS(offloadGetSymbol(Program, "saxpy",
                                    OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel));
  }

  offload_symbol_handle_t Kernel = nullptr;
};

/// A program test with the global variable offload_test_global (i32 42).
class OffloadGlobalTest : public OffloadProgramTest {
protected:
  void SetUp() override {
    RETURN_ON_FATAL_FAILURE(OffloadProgramTest::SetUp());
    ASSERT_SUCCESS(offloadGetSymbol(Program, "offload_test_global",
                                    OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE,
                                    &Global));
  }

  offload_symbol_handle_t Global = nullptr;
};

#define OFFLOAD_INSTANTIATE_DEVICE_TEST(Suite)                                 \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Devices, Suite, ::testing::ValuesIn(offload_test::getTestDevices()),     \
      [](const ::testing::TestParamInfo<offload_test::TestDevice> &Info) {     \
        return Info.param.Name;                                                \
      })

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A 1-D launch of \p Blocks blocks of \p Threads threads.
inline offload_kernel_launch_size_args_t
launch1D(uint32_t Blocks, uint32_t Threads, size_t DynShared = 0) {
  offload_kernel_launch_size_args_t L;
  L.Dimensions = 1;
  L.NumGroups = {Blocks, 1, 1};
  L.GroupSize = {Threads, 1, 1};
  L.DynSharedMemory = DynShared;
  return L;
}

/// An allocation of a device, freed at scope exit.
template <typename T> class DeviceBuffer {
public:
  DeviceBuffer(offload_device_handle_t Device, size_t Count,
               offload_alloc_type_t Type = OFFLOAD_ALLOC_TYPE_DEVICE)
      : Count(Count) {
    void *P = nullptr;
    offload_result_t R = offloadMemAlloc(Device, Type, Count * sizeof(T), &P);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    Ptr = static_cast<T *>(P);
  }
  ~DeviceBuffer() {
    if (Ptr)
      EXPECT_EQ(offloadMemFree(Ptr), OFFLOAD_SUCCESS);
  }
  DeviceBuffer(const DeviceBuffer &) = delete;

  T *get() const { return Ptr; }
  T &operator[](size_t I) const { return Ptr[I]; }
  size_t size() const { return Count; }
  size_t bytes() const { return Count * sizeof(T); }

private:
  T *Ptr = nullptr;
  size_t Count;
};

/// The packed arguments of the saxpy kernel.
struct SaxpyArgs {
  float A;
  float *X;
  float *Y;
  int64_t N;
};
static_assert(sizeof(SaxpyArgs) == 32, "layout of the saxpy arguments");

/// The packed arguments of the shuffle kernel.
struct ShuffleArgs {
  int64_t *Out;
  int8_t *Valid;
  int32_t Offset;
  int32_t Width;
  int32_t Mode;
  int32_t Active;
};
static_assert(sizeof(ShuffleArgs) == 32, "layout of the shuffle arguments");

/// A host function that blocks its queue until the test opens the gate.
class Gate {
public:
  static void wait(void *G) { static_cast<Gate *>(G)->wait(); }
  void wait() {
    std::unique_lock<std::mutex> Lock(Mutex);
    CV.wait(Lock, [&] { return Opened; });
  }
  void open() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Opened = true;
    }
    CV.notify_all();
  }

private:
  std::mutex Mutex;
  std::condition_variable CV;
  bool Opened = false;
};

/// Host functions that append their tag to a shared log.
struct LogEntry {
  std::vector<int> *Log;
  std::mutex *Mutex;
  int Tag;
  static void append(void *E) {
    auto *Entry = static_cast<LogEntry *>(E);
    std::lock_guard<std::mutex> Lock(*Entry->Mutex);
    Entry->Log->push_back(Entry->Tag);
  }
};

/// A pair of pointer arguments.
struct TwoPointers {
  void *In;
  void *Out;
};

/// Reads info property \p Prop of type \p T with \p Get after checking that
/// \p GetSize reports sizeof(T).
template <typename T, typename HandleT, typename PropT, typename GetSizeFn,
          typename GetFn>
T getInfoAs(HandleT Handle, PropT Prop, GetSizeFn GetSize, GetFn Get) {
  size_t Size = 0;
  offload_result_t R = GetSize(Handle, Prop, &Size);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  EXPECT_EQ(Size, sizeof(T));
  T Value{};
  R = Get(Handle, Prop, sizeof(T), &Value);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  return Value;
}

/// Reads string property \p Prop; checks it is NUL-terminated at its size.
template <typename HandleT, typename PropT, typename GetSizeFn, typename GetFn>
std::string getInfoString(HandleT Handle, PropT Prop, GetSizeFn GetSize,
                          GetFn Get) {
  size_t Size = 0;
  offload_result_t R = GetSize(Handle, Prop, &Size);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  std::string Value(Size, 'x');
  R = Get(Handle, Prop, Size, Value.data());
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  EXPECT_EQ(strlen(Value.c_str()) + 1, Size);
  return Value.c_str();
}

template <typename T>
T getDeviceInfo(offload_device_handle_t Device, offload_device_info_t Prop) {
  return getInfoAs<T>(Device, Prop, offloadGetDeviceInfoSize,
                      offloadGetDeviceInfo);
}
inline std::string getDeviceString(offload_device_handle_t Device,
                                   offload_device_info_t Prop) {
  return getInfoString(Device, Prop, offloadGetDeviceInfoSize,
                       offloadGetDeviceInfo);
}

/// The first "Key : value" of /proc/cpuinfo, or "".
std::string readCpuInfo(const std::string &Key);

} // namespace offload_test

#endif // OFFLOADRUNTIME_UNITTESTS_COMMON_H
