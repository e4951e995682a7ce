//===- LoweringSupportTest.cpp - Entry points for generated code ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace offload_test;

namespace {

using LoweringSupportTest = OffloadTest;

/// A rank-2 memref descriptor as MLIR's LLVM lowering lays it out.
struct MemRef2D {
  void *Allocated;
  void *Aligned;
  int64_t Offset;
  int64_t Sizes[2];
  int64_t Strides[2];
};

TEST_F(LoweringSupportTest, RegisterMemRef) {
  std::vector<float> Data(6 * 8);
  MemRef2D Desc{Data.data(), Data.data(), 2, {4, 5}, {8, 1}};
  ASSERT_SUCCESS(offloadMemRegisterMemRef(Host, 2, &Desc, sizeof(float)));
  ASSERT_SUCCESS(offloadMemUnregisterMemRef(Host, 2, &Desc, sizeof(float)));
  // An empty memref registers nothing.
  Desc.Sizes[0] = 0;
  ASSERT_SUCCESS(offloadMemRegisterMemRef(Host, 2, &Desc, sizeof(float)));
}

TEST_F(LoweringSupportTest, RegisterMemRefInvalidArguments) {
  MemRef2D Desc{nullptr, nullptr, 0, {1, 1}, {1, 1}};
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemRegisterMemRef(Host, 2, nullptr, 4));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT,
               offloadMemRegisterMemRef(Host, -1, &Desc, 4));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadMemRegisterMemRef(Host, 2, &Desc, 0));
  // The memory itself is null: offloadMemRegister refuses it.
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadMemRegisterMemRef(Host, 2, &Desc, 4));
}

TEST_F(LoweringSupportTest, AbortOnError) {
  offloadAbortOnError(OFFLOAD_SUCCESS, "no error");
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(offloadAbortOnError(offloadMemFree(nullptr), "free"),
              ::testing::ExitedWithCode(1),
              "offload error: free: OFFLOAD_ERRC_INVALID_NULL_POINTER: "
              "Address is null");
}

} // namespace
