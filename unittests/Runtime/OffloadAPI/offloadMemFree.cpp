//===- offloadMemFree.cpp - Conformance tests of offloadMemFree -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadMemFreeTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemFreeTest);

TEST_P(offloadMemFreeTest, SuccessEveryType) {
  for (offload_alloc_type_t Type :
       {OFFLOAD_ALLOC_TYPE_HOST, OFFLOAD_ALLOC_TYPE_DEVICE,
        OFFLOAD_ALLOC_TYPE_MANAGED}) {
    void *Ptr = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Device, Type, 1024, &Ptr));
    ASSERT_SUCCESS(offloadMemFree(Ptr));
  }
}

TEST_P(offloadMemFreeTest, SuccessForgetsTheAllocation) {
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 32, &Ptr));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
  size_t Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "not inside a live allocation",
                   offloadGetMemInfoSize(Ptr, OFFLOAD_MEM_INFO_SIZE, &Size));
}

TEST_P(offloadMemFreeTest, InvalidNullAddress) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Address is null",
                   offloadMemFree(nullptr));
}

TEST_P(offloadMemFreeTest, InvalidInteriorPointer) {
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 128, &Ptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "was not allocated by offloadMemAlloc",
                   offloadMemFree(static_cast<char *>(Ptr) + 8));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
}

TEST_P(offloadMemFreeTest, InvalidDoubleFree) {
  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, 128, &Ptr));
  ASSERT_SUCCESS(offloadMemFree(Ptr));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                   "was not allocated by offloadMemAlloc or was already freed",
                   offloadMemFree(Ptr));
}

TEST_P(offloadMemFreeTest, InvalidNeverAllocated) {
  int Local;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "Address (0x",
                   offloadMemFree(&Local));
}

} // namespace
