//===- Common.cpp - Fixtures and helpers of the runtime tests -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <cctype>
#include <fstream>

using namespace offload_test;

const std::vector<TestDevice> &offload_test::getTestDevices() {
  static const std::vector<TestDevice> Devices = [] {
    std::vector<TestDevice> Result;
    if (offloadInit() != OFFLOAD_SUCCESS)
      return Result;
    std::vector<offload_device_handle_t> Handles;
    offloadIterateDevices(
        [](offload_device_handle_t D, void *Data) {
          static_cast<std::vector<offload_device_handle_t> *>(Data)->push_back(
              D);
          return true;
        },
        &Handles);
    // Names: the platform name and the index among its devices.
    std::vector<std::pair<std::string, uint32_t>> Seen;
    for (uint32_t I = 0; I < Handles.size(); ++I) {
      offload_platform_handle_t Platform = nullptr;
      char Name[64] = "device";
      if (offloadGetDeviceInfo(Handles[I], OFFLOAD_DEVICE_INFO_PLATFORM,
                               sizeof(Platform), &Platform) == OFFLOAD_SUCCESS)
        offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_NAME,
                               sizeof(Name), Name);
      std::string Base;
      for (char C : std::string(Name))
        Base += std::isalnum(static_cast<unsigned char>(C)) ? C : '_';
      uint32_t Count = 0;
      for (auto &[B, N] : Seen)
        if (B == Base)
          Count = ++N;
      if (Count == 0)
        Seen.push_back({Base, 0});
      Result.push_back({I, Base + std::to_string(Count)});
    }
    offloadShutDown();
    return Result;
  }();
  return Devices;
}

std::string offload_test::readCpuInfo(const std::string &Key) {
  std::ifstream In("/proc/cpuinfo");
  std::string Line;
  while (std::getline(In, Line)) {
    size_t Colon = Line.find(':');
    if (Colon == std::string::npos)
      continue;
    std::string Name = Line.substr(0, Colon);
    Name.erase(Name.find_last_not_of(" \t") + 1);
    if (Name != Key)
      continue;
    std::string Value = Line.substr(Colon + 1);
    Value.erase(0, Value.find_first_not_of(" \t"));
    Value.erase(Value.find_last_not_of(" \t") + 1);
    return Value;
  }
  return "";
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
// offloadMemAlloc's OUT_OF_RESOURCES test expects malloc to fail, not ASan to
// abort.
extern "C" const char *__asan_default_options() {
  return "allocator_may_return_null=1";
}
#endif
#endif
