//===- Common.h - Fixtures and helpers of the runtime tests -----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
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
        << "message: " << Result_->Details;                                    \
  } while (0)

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

/// Initializes the runtime for each test and shuts it down afterwards.
class OffloadTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_SUCCESS(offloadInit());
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  }
  void TearDown() override { EXPECT_SUCCESS(offloadShutDown()); }

  offload_device_handle_t Host = nullptr;
};

/// Indices (for offloadGetDevice(UNKNOWN, I)) of every device.
std::vector<uint32_t> getDeviceIndices();

/// Tests run once per device, the host device included.
class OffloadDeviceTest : public ::testing::TestWithParam<uint32_t> {
protected:
  void SetUp() override {
    ASSERT_SUCCESS(offloadInit());
    ASSERT_SUCCESS(offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_UNKNOWN,
                                    GetParam(), &Device));
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  }
  void TearDown() override { EXPECT_SUCCESS(offloadShutDown()); }

  offload_device_handle_t Device = nullptr;
  offload_device_handle_t Host = nullptr;
};

#define OFFLOAD_INSTANTIATE_DEVICE_TEST(Suite)                                 \
  INSTANTIATE_TEST_SUITE_P(                                                    \
      Devices, Suite, ::testing::ValuesIn(offload_test::getDeviceIndices()),   \
      [](const ::testing::TestParamInfo<uint32_t> &Info) {                     \
        return "device" + std::to_string(Info.param);                          \
      })

/// A host device test with a queue.
class OffloadQueueTest : public OffloadTest {
protected:
  void SetUp() override {
    OffloadTest::SetUp();
    if (HasFatalFailure())
      return;
    ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  }
  void TearDown() override {
    if (Queue)
      EXPECT_SUCCESS(offloadDestroyQueue(Queue));
    OffloadTest::TearDown();
  }

  offload_queue_handle_t Queue = nullptr;
};

/// A host device test with the test kernels loaded.
class OffloadProgramTest : public OffloadQueueTest {
protected:
  void SetUp() override {
    OffloadQueueTest::SetUp();
    if (HasFatalFailure())
      return;
    const std::string &Object = getTestKernels();
    ASSERT_SUCCESS(
        offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
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

  offload_program_handle_t Program = nullptr;
};

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

/// An allocation of the host device freed at scope exit.
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

} // namespace offload_test

#endif // OFFLOADRUNTIME_UNITTESTS_COMMON_H
