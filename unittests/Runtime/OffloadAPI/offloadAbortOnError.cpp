//===- offloadAbortOnError.cpp - Conformance tests ------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadAbortOnErrorTest = OffloadTest;

TEST_F(offloadAbortOnErrorTest, SuccessReturns) {
  offloadAbortOnError(OFFLOAD_SUCCESS, "no error");
  offloadAbortOnError(OFFLOAD_SUCCESS, nullptr);
}

TEST_F(offloadAbortOnErrorTest, ErrorExits) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(offloadAbortOnError(offloadMemFree(nullptr), "free"),
              ::testing::ExitedWithCode(1),
              "offload error: free: OFFLOAD_ERRC_INVALID_NULL_POINTER: "
              "Address is null");
  EXPECT_EXIT(offloadAbortOnError(offloadMemFree(nullptr), nullptr),
              ::testing::ExitedWithCode(1), "offload error: runtime call: ");
}

} // namespace
