//===- PluginTestSupport.h - Helpers of the GPU plugins' tests --*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What the tests of the CUDA and HIP plugins share (GPUPluginTest.cpp, the
// suites both vendors run; CUDAPluginTest.cpp and HIPPluginTest.cpp, what
// only one vendor has): the paths of the fake drivers, initialization with
// the trace captured, the fakes' call counters, device counts and the
// argument layouts a program reports.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_UNITTESTS_PLUGINS_PLUGINTESTSUPPORT_H
#define OFFLOADRUNTIME_UNITTESTS_PLUGINS_PLUGINTESTSUPPORT_H

#include "../Common.h"

#include <cstdint>
#include <cstdlib>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace offload_test {

/// The fake driver \p Variable names (OFFLOAD_TEST_FAKE_CUDA_LIBRARY, ...:
/// scripts/gpu-check.sh runs the tests from a bundle), else \p Default, the
/// one built with the tests.
inline const char *getFake(const char *Variable, const char *Default) {
  const char *Value = std::getenv(Variable);
  return Value && *Value ? Value : Default;
}
/// The fake CUDA driver (CUDA 13.0), the same playing CUDA 12.2, the fake HIP
/// runtime (HIP 6.2) and the same playing HIP 5.2.
inline const char *getFakeCUDALibrary() {
  return getFake("OFFLOAD_TEST_FAKE_CUDA_LIBRARY", OFFLOAD_FAKE_CUDA_LIBRARY);
}
inline const char *getFakeCUDA122Library() {
  return getFake("OFFLOAD_TEST_FAKE_CUDA122_LIBRARY",
                 OFFLOAD_FAKE_CUDA122_LIBRARY);
}
inline const char *getFakeHIPLibrary() {
  return getFake("OFFLOAD_TEST_FAKE_HIP_LIBRARY", OFFLOAD_FAKE_HIP_LIBRARY);
}
inline const char *getFakeHIP52Library() {
  return getFake("OFFLOAD_TEST_FAKE_HIP52_LIBRARY", OFFLOAD_FAKE_HIP52_LIBRARY);
}

/// The number of devices of \p Backend.
inline uint32_t countDevices(offload_platform_backend_t Backend) {
  uint32_t Count = 0;
  offload_device_handle_t D = nullptr;
  while (offloadGetDevice(Backend, Count, &D) == OFFLOAD_SUCCESS)
    ++Count;
  return Count;
}

/// Initializes the runtime with OFFLOAD_TRACE=1, shuts it down and
/// initializes it again without the trace (for the rest of the test);
/// returns what the first initialization printed.
inline std::string initWithTrace() {
  std::string Err;
  {
    ScopedEnv Trace("OFFLOAD_TRACE", "1");
    ::testing::internal::CaptureStderr();
    offload_result_t R = offloadInit();
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    if (!R)
      offloadShutDown();
    Err = ::testing::internal::GetCapturedStderr();
  }
  offload_result_t R = offloadInit();
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  return Err;
}

/// Call counter \p Name (an entry point's name) of the fake \p Library, which
/// the plugin loaded (the fake HIP runtime counts its own entry points and
/// those of the fake CUDA driver it is built on); -1 if it is not loaded.
inline long fakeCounter(const char *Name, const char *Library) {
  void *Handle = dlopen(Library, RTLD_NOW | RTLD_NOLOAD);
  if (!Handle)
    return -1;
  auto *Fn = reinterpret_cast<long (*)(const char *)>(
      dlsym(Handle, "fakeCudaCounter"));
  long Value = Fn ? Fn(Name) : -1;
  dlclose(Handle);
  return Value;
}

/// The argument layout a kernel reports (offloadGetSymbolInfo).
struct Layout {
  uint64_t PackedSize = 0;
  std::vector<uint64_t> Offsets, Sizes;
};

inline offload_result_t getLayout(offload_symbol_handle_t K, Layout &L) {
  uint64_t Count = 0;
  if (offload_result_t R = offloadGetSymbolInfo(
          K, OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS, sizeof(Count), &Count))
    return R;
  if (offload_result_t R =
          offloadGetSymbolInfo(K, OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE,
                               sizeof(L.PackedSize), &L.PackedSize))
    return R;
  L.Offsets.assign(Count, ~uint64_t(0));
  L.Sizes.assign(Count, ~uint64_t(0));
  if (!Count)
    return OFFLOAD_SUCCESS;
  if (offload_result_t R =
          offloadGetSymbolInfo(K, OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS,
                               Count * sizeof(uint64_t), L.Offsets.data()))
    return R;
  return offloadGetSymbolInfo(K, OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES,
                              Count * sizeof(uint64_t), L.Sizes.data());
}

} // namespace offload_test

#endif // OFFLOADRUNTIME_UNITTESTS_PLUGINS_PLUGINTESTSUPPORT_H
