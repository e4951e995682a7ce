//===- offloadShutDown.cpp - Conformance tests of offloadShutDown ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

TEST(offloadShutDownTest, SuccessAfterInit) {
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadShutDown());
}

TEST(offloadShutDownTest, SuccessWaitsForQueues) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  std::vector<int> Src(1024, 5), Dst(1024, 0);
  ASSERT_SUCCESS(offloadMemcpy(Queue, Dst.data(), Host, Src.data(), Host,
                               Src.size() * sizeof(int)));
  ASSERT_SUCCESS(offloadShutDown());
  EXPECT_EQ(Dst, Src);
}

TEST(offloadShutDownTest, ErrorWithoutInit) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED,
                   "offloadShutDown without a matching offloadInit",
                   offloadShutDown());
}

TEST(offloadShutDownTest, ErrorOneTooMany) {
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_SUCCESS(offloadShutDown());
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNINITIALIZED, "without a matching offloadInit",
                   offloadShutDown());
}

} // namespace
