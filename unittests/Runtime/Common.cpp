//===- Common.cpp - Fixtures and helpers of the runtime tests -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace offload_test;

std::vector<uint32_t> offload_test::getDeviceIndices() {
  std::vector<uint32_t> Indices;
  if (offloadInit() != OFFLOAD_SUCCESS)
    return Indices;
  uint32_t Count = 0;
  offloadIterateDevices(
      [](offload_device_handle_t, void *Data) {
        ++*static_cast<uint32_t *>(Data);
        return true;
      },
      &Count);
  offloadShutDown();
  for (uint32_t I = 0; I < Count; ++I)
    Indices.push_back(I);
  return Indices;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
// MemoryTest.AllocTooLarge expects malloc to fail, not ASan to abort.
extern "C" const char *__asan_default_options() {
  return "allocator_may_return_null=1";
}
#endif
#endif
