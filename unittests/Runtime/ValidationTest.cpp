//===- ValidationTest.cpp - Handle validation, OFFLOAD_DISABLE_VALIDATION -===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace offload_test;

namespace {

using ValidationTest = OffloadProgramTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(ValidationTest);

/// Garbage handles of every kind are rejected without being dereferenced.
TEST_P(ValidationTest, GarbageHandles) {
  // Addresses no handle can have; reading them would crash.
  auto Bad = [](uintptr_t V) { return reinterpret_cast<void *>(V); };
  auto BadQueue = static_cast<offload_queue_handle_t>(Bad(0x10));
  auto BadEvent = static_cast<offload_event_handle_t>(Bad(0x20));
  auto BadProgram = static_cast<offload_program_handle_t>(Bad(0x30));
  auto BadSymbol = static_cast<offload_symbol_handle_t>(Bad(0x40));
  auto BadDevice = static_cast<offload_device_handle_t>(Bad(0x50));
  auto BadPlatform = static_cast<offload_platform_handle_t>(Bad(0x60));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x10) is not a live",
                   offloadSyncQueue(BadQueue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x10)",
                   offloadDestroyQueue(BadQueue));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "Event (0x20) is not a live",
                   offloadSyncEvent(BadEvent));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "Event (0x20)",
                   offloadDestroyEvent(BadEvent));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PROGRAM, "Program (0x30) is not a live",
                   offloadDestroyProgram(BadProgram));
  offload_symbol_handle_t K;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_PROGRAM, "Program (0x30)",
      offloadGetSymbol(BadProgram, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "Kernel (0x40) is not a live",
      offloadLaunchKernel(nullptr, Device, BadSymbol, nullptr, 0, &L));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE, "Device (0x50) is not a live",
                   offloadCreateQueue(BadDevice, &Queue));
  size_t Size;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PLATFORM,
                   "Platform (0x60) is not a live",
                   offloadGetPlatformInfoSize(
                       BadPlatform, OFFLOAD_PLATFORM_INFO_NAME, &Size));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_QUEUE, "Queue (0x10)",
      offloadGetQueueInfoSize(BadQueue, OFFLOAD_QUEUE_INFO_EMPTY, &Size));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_EVENT, "Event (0x20)",
      offloadGetEventInfoSize(BadEvent, OFFLOAD_EVENT_INFO_QUEUE, &Size));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "Symbol (0x40)",
      offloadGetSymbolInfoSize(BadSymbol, OFFLOAD_SYMBOL_INFO_KIND, &Size));
  size_t GroupSize;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "Kernel (0x40)",
      offloadCalculateOptimalOccupancy(Device, BadSymbol, 0, &GroupSize));
  // Mutable handles' values are not dereferenced: the fixture's queue is
  // still fine.
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_P(ValidationTest, DestroyedHandles) {
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Q));
  offload_event_handle_t E = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Q, &E));
  ASSERT_SUCCESS(offloadDestroyEvent(E));
  ASSERT_SUCCESS(offloadDestroyQueue(Q));
  int X = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadMemcpy(Q, &X, Host, &X, Host, sizeof(X)));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadCreateEvent(Q, &E));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "Events[0]",
                   offloadWaitEvents(Queue, &E, 1));
  bool Complete;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
                   offloadGetEventInfo(E, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                       sizeof(Complete), &Complete));
  auto L = launch1D(1, 1);
  SaxpyArgs Args{};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadLaunchKernel(Q, Device, getKernel("saxpy"), &Args,
                                       sizeof(Args), &L));
}

/// OFFLOAD_DISABLE_VALIDATION=1 turns the argument checks off.
class NoValidationTest : public OffloadProgramTest {
protected:
  void SetUp() override {
    Env.emplace("OFFLOAD_DISABLE_VALIDATION", "1");
    OffloadProgramTest::SetUp();
  }
  void TearDown() override {
    OffloadProgramTest::TearDown();
    Env.reset();
  }

  std::optional<ScopedEnv> Env;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(NoValidationTest);

TEST_P(NoValidationTest, SharedMemorySizeNeverWraps) {
  // Without validation the device's limit is the caller's promise, but a
  // static + dynamic size that wraps around is refused all the same: the
  // kernel would overrun the small buffer it wraps to.
  DeviceBuffer<int32_t> In(Device, 64), Out(Device, 64);
  TwoPointers Args{In.get(), Out.get()};
  for (size_t Dyn : {SIZE_MAX, SIZE_MAX - 4096 + 1}) {
    auto L = launch1D(1, 64, Dyn);
    ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                     "do not fit in the address space",
                     offloadLaunchKernel(nullptr, Device, getKernel("reverse"),
                                         &Args, sizeof(Args), &L));
  }
}

TEST_P(NoValidationTest, ArgumentsSizeNotChecked) {
  // A larger buffer than the kernel's is accepted and works.
  struct {
    SaxpyArgs Args;
    char Extra[32];
  } Padded{};
  std::vector<float> X(10, 1.0f), Y(10, 1.0f);
  Padded.Args = {4.0f, X.data(), Y.data(), 10};
  auto L = launch1D(1, 16);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("saxpy"),
                                     &Padded, sizeof(Padded), &L));
  for (float V : Y)
    EXPECT_EQ(V, 5.0f);
}

TEST_P(NoValidationTest, FillSizeNotChecked) {
  std::vector<uint8_t> Buffer(10, 0);
  uint32_t Pattern = 0x04030201;
  // 10 is not a multiple of 4: the trailing partial pattern is truncated.
  ASSERT_SUCCESS(offloadMemFill(nullptr, Buffer.data(), 4, &Pattern, 10));
  EXPECT_EQ(Buffer, (std::vector<uint8_t>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2}));
}

TEST_P(NoValidationTest, UnknownAllocationsStillRejected) {
  // Freeing and memory info need the allocation table whatever the setting.
  int Local;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "was not allocated",
                   offloadMemFree(&Local));
  size_t Size;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_NOT_FOUND, "not inside a live allocation",
      offloadGetMemInfo(&Local, OFFLOAD_MEM_INFO_SIZE, sizeof(Size), &Size));
}

TEST_P(NoValidationTest, SafetyChecksStillApply) {
  // Checks that keep the runtime free of undefined behaviour stay on.
  uint64_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize (4) is smaller",
                   offloadGetDeviceInfo(
                       Device, OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE, 4, &Value));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (77) is not a valid enumerator",
                   offloadGetQueueInfo(Queue,
                                       static_cast<offload_queue_info_t>(77),
                                       sizeof(Value), &Value));
  char Buffer[8];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PatternSize is zero",
                   offloadMemFill(nullptr, Buffer, 0, Buffer, 8));
}

TEST_P(NoValidationTest, SameAnswersToZeroSizesAndNull) {
  // Validation may add errors for invalid calls, never change an answer the
  // API documents: these are the same with validation (the conformance tests
  // of each entry point) and without (issue 20 item 4).
  void *Ptr = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 0, &Ptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Address is null",
                   offloadMemFree(nullptr));
  char Buffer[8];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "FillSize is zero",
                   offloadMemFill(nullptr, Buffer, 1, Buffer, 0));
  void *Pinned = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemRegister(Device, Buffer, 0, 0, &Pinned));
  offload_program_handle_t P = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_BINARY, "ProgDataSize is zero",
                   offloadCreateProgram(Device, Buffer, 0, &P));
  // A copy of zero bytes is a no-op in both modes.
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer, Host, Buffer + 4, Host, 0));
}

TEST_P(NoValidationTest, RegisterFlagsNotChecked) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data, sizeof(Data), 7, &Pinned));
}

TEST(ValidationEnvTest, ValidationIsBackAfterReinit) {
  {
    ScopedEnv Env("OFFLOAD_DISABLE_VALIDATION", "1");
    ASSERT_SUCCESS(offloadInit());
    ASSERT_SUCCESS(offloadShutDown());
  }
  ASSERT_SUCCESS(offloadInit());
  void *Ptr;
  offload_device_handle_t Host;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, 0, &Ptr));
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
