//===- offloadMemcpy.cpp - Conformance tests of offloadMemcpy -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <numeric>
#include <thread>

using namespace offload_test;

namespace {

using offloadMemcpyTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemcpyTest);

/// Host -> device -> device -> host, synchronously or on \p Q.
void checkRoundTrip(offload_device_handle_t Device,
                    offload_device_handle_t Host, offload_queue_handle_t Q,
                    size_t Count) {
  std::vector<int> In(Count), Out(Count, -1);
  std::iota(In.begin(), In.end(), 5);
  DeviceBuffer<int> A(Device, Count), B(Device, Count);
  ASSERT_SUCCESS(offloadMemcpy(Q, A.get(), Device, In.data(), Host, A.bytes()));
  ASSERT_SUCCESS(offloadMemcpy(Q, B.get(), Device, A.get(), Device, A.bytes()));
  ASSERT_SUCCESS(
      offloadMemcpy(Q, Out.data(), Host, B.get(), Device, B.bytes()));
  if (Q)
    ASSERT_SUCCESS(offloadSyncQueue(Q));
  EXPECT_EQ(In, Out);
}

TEST_P(offloadMemcpyTest, SuccessAllDirections) {
  checkRoundTrip(Device, Host, nullptr, 1000);
}

TEST_P(offloadMemcpyTest, SuccessAllDirectionsOnQueue) {
  checkRoundTrip(Device, Host, Queue, 4096);
}

TEST_P(offloadMemcpyTest, SuccessHostToHost) {
  std::vector<uint8_t> In(333), Out(333, 0);
  std::iota(In.begin(), In.end(), 1);
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Out.data(), Host, In.data(), Host, In.size()));
  EXPECT_EQ(In, Out);
}

TEST_P(offloadMemcpyTest, SuccessHostToHostOnQueue) {
  std::vector<uint8_t> In(4097), Out(4097, 0);
  std::iota(In.begin(), In.end(), 3);
  ASSERT_SUCCESS(
      offloadMemcpy(Queue, Out.data(), Host, In.data(), Host, In.size()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(In, Out);
}

TEST_P(offloadMemcpyTest, SuccessEveryAllocationType) {
  for (offload_alloc_type_t Type :
       {OFFLOAD_ALLOC_TYPE_HOST, OFFLOAD_ALLOC_TYPE_DEVICE,
        OFFLOAD_ALLOC_TYPE_MANAGED}) {
    std::vector<double> In(100, 2.5), Out(100, 0.0);
    DeviceBuffer<double> Buffer(Device, In.size(), Type);
    ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer.get(), Device, In.data(), Host,
                                 Buffer.bytes()));
    ASSERT_SUCCESS(offloadMemcpy(nullptr, Out.data(), Host, Buffer.get(),
                                 Device, Buffer.bytes()));
    EXPECT_EQ(In, Out) << Type;
  }
}

TEST_P(offloadMemcpyTest, SuccessQueueIsInOrder) {
  // Two copies into one buffer: the later one wins.
  DeviceBuffer<int> Buffer(Device, 256);
  std::vector<int> First(256, 1), Second(256, 2), Out(256, 0);
  ASSERT_SUCCESS(offloadMemcpy(Queue, Buffer.get(), Device, First.data(), Host,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadMemcpy(Queue, Buffer.get(), Device, Second.data(), Host,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadMemcpy(Queue, Out.data(), Host, Buffer.get(), Device,
                               Buffer.bytes()));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(Out, Second);
}

TEST_P(offloadMemcpyTest, SuccessInsideAnAllocation) {
  DeviceBuffer<int32_t> Buffer(Device, 10);
  int32_t Value = 77, Out = 0;
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer.get() + 9, Device, &Value, Host,
                               sizeof(Value)));
  ASSERT_SUCCESS(offloadMemcpy(nullptr, &Out, Host, Buffer.get() + 9, Device,
                               sizeof(Out)));
  EXPECT_EQ(Out, 77);
}

TEST_P(offloadMemcpyTest, SuccessSizeZeroIsANoOp) {
  // liboffload 22: a copy of zero bytes succeeds and copies nothing, with or
  // without a queue, also at the end of an allocation.
  int A = 1, B = 2;
  ASSERT_SUCCESS(offloadMemcpy(nullptr, &A, Host, &B, Host, 0));
  DeviceBuffer<int32_t> Buffer(Device, 4);
  ASSERT_SUCCESS(offloadMemcpy(Queue, Buffer.get(), Device, &B, Host, 0));
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer.get() + 4, Device, &B, Host, 0));
  ASSERT_SUCCESS(offloadMemcpy(Queue, &A, Host, Buffer.get() + 4, Device, 0));
  ASSERT_SUCCESS(offloadSyncQueue(Queue));
  EXPECT_EQ(A, 1);
  // The other arguments are still checked.
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemcpy(nullptr, nullptr, Host, &B, Host, 0));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadMemcpy(nullptr, &A, Host, &B, nullptr, 0));
}

TEST_P(offloadMemcpyTest, InvalidSizePastTheEnd) {
  DeviceBuffer<int32_t> Buffer(Device, 10);
  std::vector<int32_t> Data(20, 7);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE,
      "DstPtr + Size (80 bytes) runs past the end of its "
      "allocation: 40 bytes",
      offloadMemcpy(nullptr, Buffer.get(), Device, Data.data(), Host, 80));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "SrcPtr + Size (80 bytes) runs past the end",
      offloadMemcpy(nullptr, Data.data(), Host, Buffer.get(), Device, 80));
  // Starting inside the allocation counts from there.
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "DstPtr is at offset 36",
      offloadMemcpy(Queue, Buffer.get() + 9, Device, Data.data(), Host, 8));
}

TEST_P(offloadMemcpyTest, InvalidSizePastTheEndAfterValidCopies) {
  // Valid copies put both ranges in the calling thread's lookup cache; the
  // cache must still reject what runs past an allocation's end.
  DeviceBuffer<int32_t> Buffer(Device, 10);
  std::vector<int32_t> Data(20, 7);
  for (int I = 0; I < 3; ++I) {
    ASSERT_SUCCESS(offloadMemcpy(nullptr, Buffer.get(), Device, Data.data(),
                                 Host, Buffer.bytes()));
    ASSERT_SUCCESS(offloadMemcpy(nullptr, Data.data(), Host, Buffer.get() + 5,
                                 Device, 20));
  }
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE,
      "DstPtr + Size (44 bytes) runs past the end of its allocation: 40 "
      "bytes",
      offloadMemcpy(nullptr, Buffer.get(), Device, Data.data(), Host, 44));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SIZE, "SrcPtr is at offset 20",
      offloadMemcpy(nullptr, Data.data(), Host, Buffer.get() + 5, Device, 24));
  EXPECT_EQ(Data[6], 7);
}

TEST_P(offloadMemcpyTest, InvalidSizePastTheEndOfANewAllocation) {
  // What the lookup cache knew about an address (here: no allocation there)
  // is forgotten when allocations change: an allocation made at a cached
  // address, even the same one again, is checked.
  std::vector<int32_t> Data(64, 3);
  for (int I = 0; I < 4; ++I) {
    void *Old = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_HOST, 64, &Old));
    ASSERT_SUCCESS(offloadMemFree(Old));
    // Caches "no allocation" around Old.
    void *Base = nullptr;
    ASSERT_ERROR(
        OFFLOAD_ERRC_NOT_FOUND,
        offloadGetMemInfo(Old, OFFLOAD_MEM_INFO_BASE, sizeof(Base), &Base));
    void *New = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_HOST, 16, &New));
    ASSERT_ERROR_MSG(
        OFFLOAD_ERRC_INVALID_SIZE,
        "runs past the end of its allocation: 16 bytes",
        offloadMemcpy(nullptr, New, Device, Data.data(), Host, 64));
    ASSERT_SUCCESS(offloadMemcpy(nullptr, New, Device, Data.data(), Host, 16));
    ASSERT_SUCCESS(offloadMemFree(New));
  }
}

TEST_P(offloadMemcpyTest, InvalidSizeSeenByEveryThread) {
  // Each thread has its own lookup cache: a change made by one thread
  // invalidates what the others cached.
  std::vector<int32_t> Data(64, 5);
  auto *Buffer = new DeviceBuffer<int32_t>(Device, 64);
  int32_t *Old = Buffer->get();
  std::thread([&] {
    ASSERT_SUCCESS(offloadMemcpy(nullptr, Old, Device, Data.data(), Host, 256));
  }).join();
  ASSERT_SUCCESS(offloadMemcpy(nullptr, Old, Device, Data.data(), Host, 256));
  delete Buffer;
  DeviceBuffer<int32_t> Small(Device, 4);
  auto Check = [&] {
    ASSERT_ERROR_MSG(
        OFFLOAD_ERRC_INVALID_SIZE, "allocation: 16 bytes",
        offloadMemcpy(nullptr, Small.get(), Device, Data.data(), Host, 256));
  };
  std::thread(Check).join();
  Check();
}

TEST_P(offloadMemcpyTest, InvalidNullPointers) {
  int A = 1, B = 2;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "DstPtr is null",
                   offloadMemcpy(nullptr, nullptr, Host, &B, Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "SrcPtr is null",
                   offloadMemcpy(nullptr, &A, Host, nullptr, Host, 4));
  EXPECT_EQ(A, 1);
}

TEST_P(offloadMemcpyTest, InvalidNullDevices) {
  int A = 1, B = 2;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "DstDevice is null",
                   offloadMemcpy(nullptr, &A, nullptr, &B, Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "SrcDevice is null",
                   offloadMemcpy(nullptr, &A, Host, &B, nullptr, 4));
}

TEST_P(offloadMemcpyTest, InvalidDevices) {
  int A = 1, B = 2;
  auto Garbage = garbageHandle<offload_device_handle_t>();
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE,
                   "DstDevice (0x40) is not a live",
                   offloadMemcpy(nullptr, &A, Garbage, &B, Host, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_DEVICE,
                   "SrcDevice (0x40) is not a live",
                   offloadMemcpy(nullptr, &A, Host, &B, Garbage, 4));
}

TEST_P(offloadMemcpyTest, SuccessHostAccessibleMemoryNamedTheHosts) {
  // HOST and MANAGED allocations of any device are host memory too.
  for (offload_alloc_type_t Type :
       {OFFLOAD_ALLOC_TYPE_HOST, OFFLOAD_ALLOC_TYPE_MANAGED}) {
    DeviceBuffer<int> A(Device, 4, Type);
    int In[4] = {1, 2, 3, 4}, Out[4] = {};
    ASSERT_SUCCESS(offloadMemcpy(nullptr, A.get(), Host, In, Host, sizeof(In)));
    ASSERT_SUCCESS(
        offloadMemcpy(nullptr, Out, Host, A.get(), Device, sizeof(Out)));
    EXPECT_EQ(Out[3], 4);
  }
}

TEST_P(offloadMemcpyTest, InvalidDeviceOfAnAllocation) {
  // An allocation is memory of the device that made it: device memory of a
  // GPU named the host's, and host device memory named a GPU's, are refused
  // (issue 20 item 4), on the synchronous host-to-host fast path too.
  if (isHost())
    GTEST_SKIP() << "needs a device other than the host";
  DeviceBuffer<int> OnDevice(Device, 4);
  DeviceBuffer<int> OnHost(Host, 4, OFFLOAD_ALLOC_TYPE_HOST);
  int Local[4] = {};
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "lies in a DEVICE allocation of device",
      offloadMemcpy(nullptr, Local, Host, OnDevice.get(), Host, 16));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "which is not memory of DstDevice",
      offloadMemcpy(nullptr, OnDevice.get(), Host, Local, Host, 16));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "lies in a HOST allocation of device",
      offloadMemcpy(nullptr, Local, Host, OnHost.get(), Device, 16));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "which is not memory of DstDevice",
      offloadMemcpy(Queue, OnHost.get(), Device, OnDevice.get(), Device, 16));
  // Named right, the same copies work.
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Local, Host, OnDevice.get(), Device, 16));
  ASSERT_SUCCESS(offloadMemcpy(nullptr, OnHost.get(), Host, Local, Host, 16));
}

TEST_P(offloadMemcpyTest, InvalidQueue) {
  int A = 1, B = 2;
  auto Garbage = garbageHandle<offload_queue_handle_t>();
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_QUEUE,
                   "Queue (0x40) is not a live queue",
                   offloadMemcpy(Garbage, &A, Host, &B, Host, 4));
  EXPECT_EQ(A, 1);
}

} // namespace
