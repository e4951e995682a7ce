//===- HIPTypes.h - The part of hip_runtime_api.h used ----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Types and constants of the HIP runtime API (hip_runtime_api.h; HIP 5.x and
// 6.x agree on every value used here), declared here so that the plugin
// builds without a HIP header. Enumerations are plain ints. The names mirror
// hip_runtime_api.h, inside namespace offload::hip.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HIP_HIPTYPES_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HIP_HIPTYPES_H

#include <cstddef>
#include <cstdint>

namespace offload {
namespace hip {

using hipError_t = int;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
struct hipUUID {
  char bytes[16];
};

constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorInvalidValue = 1;
constexpr hipError_t hipErrorOutOfMemory = 2;
constexpr hipError_t hipErrorNoDevice = 100;
constexpr hipError_t hipErrorInvalidDevice = 101;
constexpr hipError_t hipErrorInvalidImage = 200;
constexpr hipError_t hipErrorNoBinaryForGpu = 209;
constexpr hipError_t hipErrorInvalidKernelFile = 218;
constexpr hipError_t hipErrorSharedObjectInitFailed = 303;
constexpr hipError_t hipErrorNotFound = 500;
constexpr hipError_t hipErrorNotReady = 600;
constexpr hipError_t hipErrorLaunchOutOfResources = 701;
constexpr hipError_t hipErrorNotSupported = 801;

// hipDeviceAttribute_t values.
constexpr int hipDeviceAttributeClockRate = 5;
constexpr int hipDeviceAttributeCooperativeLaunch = 10;
constexpr int hipDeviceAttributeMaxBlockDimX = 26;
constexpr int hipDeviceAttributeMaxBlockDimY = 27;
constexpr int hipDeviceAttributeMaxBlockDimZ = 28;
constexpr int hipDeviceAttributeMaxGridDimX = 29;
constexpr int hipDeviceAttributeMaxGridDimY = 30;
constexpr int hipDeviceAttributeMaxGridDimZ = 31;
constexpr int hipDeviceAttributeMaxThreadsPerBlock = 56;
constexpr int hipDeviceAttributeMemoryClockRate = 60;
constexpr int hipDeviceAttributeMultiprocessorCount = 63;
constexpr int hipDeviceAttributeMaxSharedMemoryPerBlock = 74;
constexpr int hipDeviceAttributeWarpSize = 87;
constexpr int hipDeviceAttributeCanUseStreamWaitValue = 10013;

constexpr unsigned hipStreamNonBlocking = 1;
constexpr unsigned hipEventDefault = 0;
constexpr unsigned hipEventDisableTiming = 2;
constexpr int hipMemcpyDefault = 4;
constexpr unsigned hipHostMallocDefault = 0;
constexpr unsigned hipMemAttachGlobal = 1;
/// The device of hipMemPrefetchAsync that means the host.
constexpr int hipCpuDeviceId = -1;
/// The offset of `isManaged` (an int) in hipPointerAttribute_t, in HIP 5 and
/// 6 alike: after the memory type, the device and two pointers.
constexpr size_t hipPointerAttributeIsManagedOffset = 24;
constexpr unsigned hipHostRegisterPortable = 1;
constexpr unsigned hipStreamWaitValueGte = 0;
constexpr int HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
/// HIP_LAUNCH_PARAM_* (note: END is 3, unlike CUDA's 0).
constexpr uintptr_t HipLaunchParamBufferPointer = 0x01;
constexpr uintptr_t HipLaunchParamBufferSize = 0x02;
constexpr uintptr_t HipLaunchParamEnd = 0x03;

} // namespace hip
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HIP_HIPTYPES_H
