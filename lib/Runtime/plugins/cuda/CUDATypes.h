//===- CUDATypes.h - The part of cuda.h the CUDA plugin uses ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Types and constants of the CUDA Driver API (cuda.h, CUDA 11.x-13.x; the
// values are part of the driver's ABI), declared here so that the plugin
// builds without a CUDA toolkit. Enumerations are plain ints: the driver
// takes them by value as 32-bit integers. The names mirror cuda.h, inside
// namespace offload::cuda; macros of cuda.h (CU_LAUNCH_PARAM_*, ...) have
// other spellings here so that a test can include both headers and compare
// the values (unittests/Runtime/Plugins/CUDAHeaderTest.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_CUDA_CUDATYPES_H
#define OFFLOADRUNTIME_LIB_PLUGINS_CUDA_CUDATYPES_H

#include <cstddef>
#include <cstdint>

namespace offload {
namespace cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;
struct CUuuid {
  char bytes[16];
};
/// Where memory is moved to (cuMemPrefetchAsync_v2): a device and its
/// ordinal, or the host.
struct CUmemLocation {
  int type; ///< CUmemLocationType
  int id;
};
using CUhostFn = void (*)(void *);
using CUoccupancyB2DSize = size_t (*)(int);

// CUresult values.
constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_NO_BINARY_FOR_GPU = 209;
constexpr CUresult CUDA_ERROR_INVALID_PTX = 218;
constexpr CUresult CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221;
constexpr CUresult CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712;
constexpr CUresult CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713;
constexpr CUresult CUDA_ERROR_NOT_SUPPORTED = 801;
constexpr CUresult CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803;
constexpr CUresult CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804;

// CUdevice_attribute values.
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr int CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83;
constexpr int CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = 92;
constexpr int CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;

// CUfunction_attribute values.
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

// CUpointer_attribute and CUmemorytype values.
constexpr int CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2;
constexpr int CU_POINTER_ATTRIBUTE_IS_MANAGED = 8;
constexpr int CU_MEM_LOCATION_TYPE_DEVICE = 1;
constexpr int CU_MEM_LOCATION_TYPE_HOST = 2;
constexpr unsigned CU_MEMORYTYPE_HOST = 1;
constexpr unsigned CU_MEMORYTYPE_DEVICE = 2;
constexpr unsigned CU_MEMORYTYPE_UNIFIED = 4;

// CUjit_option values.
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// Flags.
constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_DEFAULT = 0x0;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEM_ATTACH_GLOBAL = 0x1;
constexpr unsigned CU_STREAM_WAIT_VALUE_GEQ = 0x0;
/// CU_MEMHOSTREGISTER_PORTABLE (a macro in cuda.h).
constexpr unsigned MemHostRegisterPortable = 0x01;

/// The `extra` markers of cuLaunchKernel (CU_LAUNCH_PARAM_END,
/// CU_LAUNCH_PARAM_BUFFER_POINTER, CU_LAUNCH_PARAM_BUFFER_SIZE).
constexpr uintptr_t LaunchParamEnd = 0x00;
constexpr uintptr_t LaunchParamBufferPointer = 0x01;
constexpr uintptr_t LaunchParamBufferSize = 0x02;

} // namespace cuda
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_CUDA_CUDATYPES_H
