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

/// Garbage handles of every kind are rejected without being dereferenced.
TEST_F(ValidationTest, GarbageHandles) {
  // Addresses no handle can have; reading them would crash.
  auto Bad = [](uintptr_t V) { return reinterpret_cast<void *>(V); };
  auto BadQueue = static_cast<offload_queue_handle_t>(Bad(0x10));
  auto BadEvent = static_cast<offload_event_handle_t>(Bad(0x20));
  auto BadProgram = static_cast<offload_program_handle_t>(Bad(0x30));
  auto BadSymbol = static_cast<offload_symbol_handle_t>(Bad(0x40));
  auto BadDevice = static_cast<offload_device_handle_t>(Bad(0x50));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadSyncQueue(BadQueue));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadDestroyQueue(BadQueue));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadSyncEvent(BadEvent));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadDestroyEvent(BadEvent));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_PROGRAM, offloadDestroyProgram(BadProgram));
  offload_symbol_handle_t K;
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_PROGRAM,
      offloadGetSymbol(BadProgram, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  auto L = launch1D(1, 1);
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SYMBOL,
               offloadLaunchKernel(nullptr, Host, BadSymbol, nullptr, 0, &L));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_DEVICE,
               offloadCreateQueue(BadDevice, &Queue));
  // Mutable handles' values are not dereferenced: the fixture's queue is
  // still fine.
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
}

TEST_F(ValidationTest, DestroyedHandles) {
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Q));
  offload_event_handle_t E = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Q, &E));
  ASSERT_SUCCESS(offloadDestroyEvent(E));
  ASSERT_SUCCESS(offloadDestroyQueue(Q));
  int X = 0;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE,
               offloadMemcpy(Q, &X, Host, &X, Host, sizeof(X)));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadCreateEvent(Q, &E));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadWaitEvents(Queue, &E, 1));
  auto L = launch1D(1, 1);
  SaxpyArgs Args{};
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE,
               offloadLaunchKernel(Q, Host, getKernel("saxpy"), &Args,
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

TEST_F(NoValidationTest, ArgumentsSizeNotChecked) {
  // A larger buffer than the kernel's is accepted and works.
  struct {
    SaxpyArgs Args;
    char Extra[32];
  } Padded{};
  std::vector<float> X(10, 1.0f), Y(10, 1.0f);
  Padded.Args = {4.0f, X.data(), Y.data(), 10};
  auto L = launch1D(1, 16);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Host, getKernel("saxpy"), &Padded,
                                     sizeof(Padded), &L));
  for (float V : Y)
    EXPECT_EQ(V, 5.0f);
}

TEST_F(NoValidationTest, FillSizeNotChecked) {
  std::vector<uint8_t> Buffer(10, 0);
  uint32_t Pattern = 0x04030201;
  // 10 is not a multiple of 4: the trailing partial pattern is truncated.
  ASSERT_SUCCESS(offloadMemFill(nullptr, Buffer.data(), 4, &Pattern, 10));
  EXPECT_EQ(Buffer, (std::vector<uint8_t>{1, 2, 3, 4, 1, 2, 3, 4, 1, 2}));
}

TEST_F(NoValidationTest, UnknownAllocationsStillRejected) {
  // Freeing needs the allocation table whatever the setting.
  int Local;
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT, offloadMemFree(&Local));
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
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_DEVICE, 0, &Ptr));
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
