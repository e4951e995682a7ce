//===- WithCodeLoc.cpp - Conformance tests of the WithCodeLoc variants ----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Every offloadX has a variant offloadXWithCodeLoc(..., CodeLocation), as
// liboffload has olXWithCodeLoc: the same implementation and checks, and the
// caller's location in the OFFLOAD_TRACE=1 line. One test per variant: a
// success and an error with its code and message.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

class WithCodeLocTest : public OffloadKernelTest {
protected:
  offload_code_location_t Loc = {"caller", "file.c", 12, 34};
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(WithCodeLocTest);

TEST_P(WithCodeLocTest, offloadInitWithCodeLoc) {
  ASSERT_SUCCESS(offloadInitWithCodeLoc(&Loc));
  ASSERT_SUCCESS(offloadShutDownWithCodeLoc(&Loc));
  ASSERT_SUCCESS(offloadInitWithCodeLoc(nullptr));
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(WithCodeLocInitTest, offloadShutDownWithCodeLoc) {
  offload_code_location_t Loc = {"caller", "file.c", 1, 2};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "without a matching offloadInit",
                   offloadShutDownWithCodeLoc(&Loc));
  ASSERT_SUCCESS(offloadInitWithCodeLoc(&Loc));
  ASSERT_SUCCESS(offloadShutDownWithCodeLoc(&Loc));
}

TEST_P(WithCodeLocTest, offloadGetPlatformInfoWithCodeLoc) {
  offload_platform_backend_t Backend;
  ASSERT_SUCCESS(
      offloadGetPlatformInfoWithCodeLoc(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                        sizeof(Backend), &Backend, &Loc));
  EXPECT_EQ(Backend, OFFLOAD_PLATFORM_BACKEND_HOST);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Platform is null",
      offloadGetPlatformInfoWithCodeLoc(nullptr, OFFLOAD_PLATFORM_INFO_BACKEND,
                                        sizeof(Backend), &Backend, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetPlatformInfoSizeWithCodeLoc) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetPlatformInfoSizeWithCodeLoc(
      Platform, OFFLOAD_PLATFORM_INFO_NAME, &Size, &Loc));
  EXPECT_EQ(Size, sizeof("host"));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
                   offloadGetPlatformInfoSizeWithCodeLoc(
                       Platform, OFFLOAD_PLATFORM_INFO_NAME, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadIterateDevicesWithCodeLoc) {
  int Count = 0;
  ASSERT_SUCCESS(offloadIterateDevicesWithCodeLoc(
      [](offload_device_handle_t, void *C) {
        ++*static_cast<int *>(C);
        return true;
      },
      &Count, &Loc));
  EXPECT_GE(Count, 1);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Callback is null",
                   offloadIterateDevicesWithCodeLoc(nullptr, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetDeviceInfoWithCodeLoc) {
  uint32_t Value = 0;
  ASSERT_SUCCESS(offloadGetDeviceInfoWithCodeLoc(
      Device, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE, sizeof(Value), &Value, &Loc));
  EXPECT_EQ(Value, 32u);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
      offloadGetDeviceInfoWithCodeLoc(Device, OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,
                                      0, &Value, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetDeviceInfoSizeWithCodeLoc) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetDeviceInfoSizeWithCodeLoc(
      Device, OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE, &Size, &Loc));
  EXPECT_EQ(Size, sizeof(uint64_t));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION, "PropName (99)",
      offloadGetDeviceInfoSizeWithCodeLoc(
          Device, static_cast<offload_device_info_t>(99), &Size, &Loc));
}

TEST_P(WithCodeLocTest, offloadMemAllocWithCodeLoc) {
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAllocWithCodeLoc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                            64, &Ptr, &Loc));
  ASSERT_SUCCESS(offloadMemFreeWithCodeLoc(Ptr, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero",
                   offloadMemAllocWithCodeLoc(Device, OFFLOAD_ALLOC_TYPE_DEVICE,
                                              0, &Ptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadMemFreeWithCodeLoc) {
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_HOST, 64, &Ptr));
  ASSERT_SUCCESS(offloadMemFreeWithCodeLoc(Ptr, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "already freed",
                   offloadMemFreeWithCodeLoc(Ptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetMemInfoWithCodeLoc) {
  DeviceBuffer<char> Buffer(Device, 100);
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetMemInfoWithCodeLoc(
      Buffer.get() + 10, OFFLOAD_MEM_INFO_SIZE, sizeof(Size), &Size, &Loc));
  EXPECT_EQ(Size, 100u);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "not inside a live allocation",
                   offloadGetMemInfoWithCodeLoc(&Size, OFFLOAD_MEM_INFO_SIZE,
                                                sizeof(Size), &Size, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetMemInfoSizeWithCodeLoc) {
  DeviceBuffer<char> Buffer(Device, 100);
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetMemInfoSizeWithCodeLoc(
      Buffer.get(), OFFLOAD_MEM_INFO_TYPE, &Size, &Loc));
  EXPECT_EQ(Size, sizeof(offload_alloc_type_t));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadGetMemInfoSizeWithCodeLoc(
                       nullptr, OFFLOAD_MEM_INFO_TYPE, &Size, &Loc));
}

TEST_P(WithCodeLocTest, offloadMemcpyWithCodeLoc) {
  int Src = 3, Dst = 0;
  ASSERT_SUCCESS(offloadMemcpyWithCodeLoc(Queue, &Dst, Host, &Src, Host,
                                          sizeof(int), &Loc));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Dst, 3);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "DstPtr is null",
                   offloadMemcpyWithCodeLoc(nullptr, nullptr, Host, &Src, Host,
                                            sizeof(int), &Loc));
}

TEST_P(WithCodeLocTest, offloadMemFillWithCodeLoc) {
  uint16_t Data[8] = {}, Pattern = 0xabcd;
  ASSERT_SUCCESS(offloadMemFillWithCodeLoc(nullptr, Data, sizeof(Pattern),
                                           &Pattern, sizeof(Data), &Loc));
  EXPECT_EQ(Data[7], 0xabcd);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "FillSize (3) is not a multiple",
                   offloadMemFillWithCodeLoc(nullptr, Data, sizeof(Pattern),
                                             &Pattern, 3, &Loc));
}

TEST_P(WithCodeLocTest, offloadMemRegisterWithCodeLoc) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegisterWithCodeLoc(Device, Data, sizeof(Data), 0,
                                               &Pinned, &Loc));
  ASSERT_SUCCESS(offloadMemUnregisterWithCodeLoc(Device, Data, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "Flags (0x2) is reserved",
                   offloadMemRegisterWithCodeLoc(Device, Data, sizeof(Data), 2,
                                                 &Pinned, &Loc));
}

TEST_P(WithCodeLocTest, offloadMemUnregisterWithCodeLoc) {
  int Data[4];
  void *Pinned = nullptr;
  ASSERT_SUCCESS(offloadMemRegister(Device, Data, sizeof(Data), 0, &Pinned));
  ASSERT_SUCCESS(offloadMemUnregisterWithCodeLoc(Device, Data, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadMemUnregisterWithCodeLoc(Device, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadCreateQueueWithCodeLoc) {
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadCreateQueueWithCodeLoc(Device, &Q, &Loc));
  ASSERT_SUCCESS(offloadDestroyQueueWithCodeLoc(Q, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Queue is null",
                   offloadCreateQueueWithCodeLoc(Device, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadSyncQueueWithCodeLoc) {
  ASSERT_SUCCESS(offloadSyncQueueWithCodeLoc(Queue, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadSyncQueueWithCodeLoc(nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadWaitEventsWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadWaitEventsWithCodeLoc(Queue, &Event, 1, &Loc));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Events is null",
                   offloadWaitEventsWithCodeLoc(Queue, nullptr, 2, &Loc));
}

TEST_P(WithCodeLocTest, offloadDestroyQueueWithCodeLoc) {
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Device, &Q));
  ASSERT_SUCCESS(offloadDestroyQueueWithCodeLoc(Q, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE, "not a live queue",
                   offloadDestroyQueueWithCodeLoc(Q, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetQueueInfoWithCodeLoc) {
  offload_device_handle_t Owner = nullptr;
  ASSERT_SUCCESS(offloadGetQueueInfoWithCodeLoc(
      Queue, OFFLOAD_QUEUE_INFO_DEVICE, sizeof(Owner), &Owner, &Loc));
  EXPECT_EQ(Owner, Device);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
      offloadGetQueueInfoWithCodeLoc(Queue, OFFLOAD_QUEUE_INFO_DEVICE,
                                     sizeof(Owner), nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetQueueInfoSizeWithCodeLoc) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetQueueInfoSizeWithCodeLoc(
      Queue, OFFLOAD_QUEUE_INFO_EMPTY, &Size, &Loc));
  EXPECT_EQ(Size, sizeof(bool));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Queue is null",
                   offloadGetQueueInfoSizeWithCodeLoc(
                       nullptr, OFFLOAD_QUEUE_INFO_EMPTY, &Size, &Loc));
}

TEST_P(WithCodeLocTest, offloadLaunchHostFunctionWithCodeLoc) {
  int Called = 0;
  ASSERT_SUCCESS(offloadLaunchHostFunctionWithCodeLoc(
      Queue, [](void *C) { *static_cast<int *>(C) = 1; }, &Called, &Loc));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Called, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Callback is null",
      offloadLaunchHostFunctionWithCodeLoc(Queue, nullptr, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadCreateEventWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEventWithCodeLoc(Queue, &Event, &Loc));
  ASSERT_SUCCESS(offloadDestroyEventWithCodeLoc(Event, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Event is null",
                   offloadCreateEventWithCodeLoc(Queue, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadSyncEventWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadSyncEventWithCodeLoc(Event, &Loc));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_EVENT, "not a live event",
                   offloadSyncEventWithCodeLoc(Event, &Loc));
}

TEST_P(WithCodeLocTest, offloadDestroyEventWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadDestroyEventWithCodeLoc(Event, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Event is null",
                   offloadDestroyEventWithCodeLoc(nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetEventInfoWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  offload_queue_handle_t Q = nullptr;
  ASSERT_SUCCESS(offloadGetEventInfoWithCodeLoc(Event, OFFLOAD_EVENT_INFO_QUEUE,
                                                sizeof(Q), &Q, &Loc));
  EXPECT_EQ(Q, Queue);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize (2) is smaller",
                   offloadGetEventInfoWithCodeLoc(
                       Event, OFFLOAD_EVENT_INFO_QUEUE, 2, &Q, &Loc));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(WithCodeLocTest, offloadGetEventElapsedTimeWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  ASSERT_SUCCESS(offloadSyncEvent(Event));
  float Ms = -1;
  ASSERT_SUCCESS(
      offloadGetEventElapsedTimeWithCodeLoc(Event, Event, &Ms, &Loc));
  EXPECT_EQ(Ms, 0.0f);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "ElapsedMs is null",
      offloadGetEventElapsedTimeWithCodeLoc(Event, Event, nullptr, &Loc));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(WithCodeLocTest, offloadGetEventInfoSizeWithCodeLoc) {
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetEventInfoSizeWithCodeLoc(
      Event, OFFLOAD_EVENT_INFO_IS_COMPLETE, &Size, &Loc));
  EXPECT_EQ(Size, sizeof(bool));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
                   offloadGetEventInfoSizeWithCodeLoc(
                       Event, OFFLOAD_EVENT_INFO_IS_COMPLETE, nullptr, &Loc));
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
}

TEST_P(WithCodeLocTest, offloadCreateProgramWithCodeLoc) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t P = nullptr;
  ASSERT_SUCCESS(offloadCreateProgramWithCodeLoc(Device, Object.data(),
                                                 Object.size(), &P, &Loc));
  ASSERT_SUCCESS(offloadDestroyProgramWithCodeLoc(P, &Loc));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "ProgDataSize is zero",
      offloadCreateProgramWithCodeLoc(Device, Object.data(), 0, &P, &Loc));
}

TEST_P(WithCodeLocTest, offloadIsValidBinaryWithCodeLoc) {
  const std::string &Object = getTestKernels();
  bool Valid = false;
  ASSERT_SUCCESS(offloadIsValidBinaryWithCodeLoc(Device, Object.data(),
                                                 Object.size(), &Valid, &Loc));
  EXPECT_TRUE(Valid);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Valid is null",
                   offloadIsValidBinaryWithCodeLoc(
                       Device, Object.data(), Object.size(), nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadDestroyProgramWithCodeLoc) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t P = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &P));
  ASSERT_SUCCESS(offloadDestroyProgramWithCodeLoc(P, &Loc));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PROGRAM, "not a live program",
                   offloadDestroyProgramWithCodeLoc(P, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetSymbolWithCodeLoc) {
  offload_symbol_handle_t S = nullptr;
  ASSERT_SUCCESS(offloadGetSymbolWithCodeLoc(
      Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &S, &Loc));
  EXPECT_EQ(S, Kernel);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "kernel 'nope' not found",
                   offloadGetSymbolWithCodeLoc(
                       Program, "nope", OFFLOAD_SYMBOL_KIND_KERNEL, &S, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetSymbolInfoWithCodeLoc) {
  offload_symbol_kind_t Kind;
  ASSERT_SUCCESS(offloadGetSymbolInfoWithCodeLoc(
      Kernel, OFFLOAD_SYMBOL_INFO_KIND, sizeof(Kind), &Kind, &Loc));
  EXPECT_EQ(Kind, OFFLOAD_SYMBOL_KIND_KERNEL);
  size_t Size;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_SYMBOL_KIND, "applies to a global variable",
                   offloadGetSymbolInfoWithCodeLoc(
                       Kernel, OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE,
                       sizeof(Size), &Size, &Loc));
}

TEST_P(WithCodeLocTest, offloadGetSymbolInfoSizeWithCodeLoc) {
  size_t Size = 0;
  ASSERT_SUCCESS(offloadGetSymbolInfoSizeWithCodeLoc(
      Kernel, OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS, &Size, &Loc));
  EXPECT_EQ(Size, 4 * sizeof(uint64_t));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Symbol is null",
                   offloadGetSymbolInfoSizeWithCodeLoc(
                       nullptr, OFFLOAD_SYMBOL_INFO_KIND, &Size, &Loc));
}

TEST_P(WithCodeLocTest, offloadCalculateOptimalOccupancyWithCodeLoc) {
  size_t GroupSize = 0;
  ASSERT_SUCCESS(offloadCalculateOptimalOccupancyWithCodeLoc(Device, Kernel, 0,
                                                             &GroupSize, &Loc));
  EXPECT_GE(GroupSize, 32u);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "GroupSize is null",
                   offloadCalculateOptimalOccupancyWithCodeLoc(
                       Device, Kernel, 0, nullptr, &Loc));
}

TEST_P(WithCodeLocTest, offloadLaunchKernelWithCodeLoc) {
  std::vector<float> X(8, 1.0f), Y(8, 1.0f);
  SaxpyArgs Args{2.0f, X.data(), Y.data(), 8};
  auto L = launch1D(1, 8);
  ASSERT_SUCCESS(offloadLaunchKernelWithCodeLoc(Queue, Device, Kernel, &Args,
                                                sizeof(Args), &L, &Loc));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Y[7], 3.0f);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "LaunchSizeArgs is null",
                   offloadLaunchKernelWithCodeLoc(Queue, Device, Kernel, &Args,
                                                  sizeof(Args), nullptr, &Loc));
}

/// OFFLOAD_TRACE=1 prints the caller's location.
TEST(WithCodeLocTraceTest, LocationIsTraced) {
  ScopedEnv Env("OFFLOAD_TRACE", "1");
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  offload_code_location_t Loc = {"main", "app.c", 42, 7};
  offload_code_location_t Partial = {nullptr, nullptr, 0, 0};
  CaptureStderr();
  void *Ptr = nullptr;
  ASSERT_SUCCESS(
      offloadMemAllocWithCodeLoc(Host, OFFLOAD_ALLOC_TYPE_HOST, 8, &Ptr, &Loc));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemFreeWithCodeLoc(nullptr, &Partial));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
  std::string Trace = GetCapturedStderr();
  EXPECT_NE(Trace.find("offloadMemAlloc(Device=0x"), std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("Size=8, AllocationOut=0x"), std::string::npos) << Trace;
  EXPECT_NE(Trace.find(") @ main (app.c:42:7) -> OFFLOAD_SUCCESS\n"),
            std::string::npos)
      << Trace;
  EXPECT_NE(Trace.find("offloadMemFree(Address=0x0) @ ? (?:0:0) -> "
                       "OFFLOAD_ERRC_INVALID_NULL_POINTER: Address is null\n"),
            std::string::npos)
      << Trace;
  // The plain entry point prints no location.
  EXPECT_NE(Trace.find(") -> OFFLOAD_SUCCESS\n"), std::string::npos) << Trace;
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
