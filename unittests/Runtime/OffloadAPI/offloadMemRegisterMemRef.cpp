//===- offloadMemRegisterMemRef.cpp - Conformance tests -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offloadMemRegisterMemRef and offloadMemUnregisterMemRef, the registration
// entry points of compiler-generated code.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadMemRegisterMemRefTest = OffloadDeviceTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadMemRegisterMemRefTest);

/// A rank-2 memref descriptor as MLIR's LLVM lowering lays it out.
struct MemRef2D {
  void *Allocated;
  void *Aligned;
  int64_t Offset;
  int64_t Sizes[2];
  int64_t Strides[2];
};

TEST_P(offloadMemRegisterMemRefTest, SuccessRegisterAndUnregister) {
  std::vector<float> Data(6 * 8);
  MemRef2D Desc{Data.data(), Data.data(), 2, {4, 5}, {8, 1}};
  ASSERT_SUCCESS(offloadMemRegisterMemRef(Device, 2, &Desc, sizeof(float)));
  ASSERT_SUCCESS(offloadMemUnregisterMemRef(Device, 2, &Desc, sizeof(float)));
}

TEST_P(offloadMemRegisterMemRefTest, SuccessEmptyMemRef) {
  // An empty memref registers nothing, even with a null pointer.
  MemRef2D Desc{nullptr, nullptr, 0, {0, 5}, {5, 1}};
  ASSERT_SUCCESS(offloadMemRegisterMemRef(Device, 2, &Desc, sizeof(float)));
  ASSERT_SUCCESS(offloadMemUnregisterMemRef(Device, 2, &Desc, sizeof(float)));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidNullDescriptor) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Descriptor is null",
                   offloadMemRegisterMemRef(Device, 2, nullptr, 4));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Descriptor is null",
                   offloadMemUnregisterMemRef(Device, 2, nullptr, 4));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidRank) {
  MemRef2D Desc{nullptr, nullptr, 0, {1, 1}, {1, 1}};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "Rank is negative",
                   offloadMemRegisterMemRef(Device, -1, &Desc, 4));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidRankTooLarge) {
  // A garbage rank must not make the runtime walk 2^41 sizes and strides.
  MemRef2D Desc{nullptr, nullptr, 0, {1, 1}, {1, 1}};
  for (int64_t Rank :
       {int64_t(1) << 40, int64_t(OFFLOAD_MEMREF_MAX_RANK) + 1, INT64_MAX}) {
    ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                     "Rank exceeds the maximum of 64",
                     offloadMemRegisterMemRef(Device, Rank, &Desc, 4));
    ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT,
                     "Rank exceeds the maximum of 64",
                     offloadMemUnregisterMemRef(Device, Rank, &Desc, 4));
  }
}

TEST_P(offloadMemRegisterMemRefTest, SuccessMaxRank) {
  constexpr int64_t Rank = OFFLOAD_MEMREF_MAX_RANK;
  std::vector<float> Data(2);
  struct {
    void *Allocated, *Aligned;
    int64_t Offset, Sizes[Rank], Strides[Rank];
  } Desc;
  Desc.Allocated = Desc.Aligned = Data.data();
  Desc.Offset = 0;
  for (int64_t I = 0; I < Rank; ++I)
    Desc.Sizes[I] = Desc.Strides[I] = 1;
  Desc.Sizes[Rank - 1] = 2;
  ASSERT_SUCCESS(offloadMemRegisterMemRef(Device, Rank, &Desc, sizeof(float)));
  ASSERT_SUCCESS(
      offloadMemUnregisterMemRef(Device, Rank, &Desc, sizeof(float)));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidCorruptShape) {
  std::vector<float> Data(4);
  MemRef2D Negative{Data.data(), Data.data(), 0, {2, -2}, {2, 1}};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ARGUMENT, "negative size or stride",
                   offloadMemRegisterMemRef(Device, 2, &Negative, 4));
  MemRef2D Huge{Data.data(), Data.data(), 0, {INT64_MAX, 2}, {INT64_MAX, 1}};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "does not fit",
                   offloadMemRegisterMemRef(Device, 2, &Huge, 4));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidElementSize) {
  MemRef2D Desc{nullptr, nullptr, 0, {1, 1}, {1, 1}};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "ElementSize must be positive",
                   offloadMemRegisterMemRef(Device, 2, &Desc, 0));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidNullMemory) {
  // The memory itself is null: offloadMemRegister refuses it.
  MemRef2D Desc{nullptr, nullptr, 0, {1, 1}, {1, 1}};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Ptr is null",
                   offloadMemRegisterMemRef(Device, 2, &Desc, 4));
}

TEST_P(offloadMemRegisterMemRefTest, InvalidNullDevice) {
  std::vector<float> Data(4);
  MemRef2D Desc{Data.data(), Data.data(), 0, {2, 2}, {2, 1}};
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
                   offloadMemRegisterMemRef(nullptr, 2, &Desc, 4));
}

} // namespace
