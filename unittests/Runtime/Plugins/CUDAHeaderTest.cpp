//===- CUDAHeaderTest.cpp - The CUDA plugin's declarations vs cuda.h ------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA plugin declares the part of cuda.h it uses itself (CUDATypes.h,
// CUDASymbols.def) so that it builds without a CUDA toolkit. Where a toolkit
// is installed, this file checks those declarations against cuda.h at
// compile time: every constant's value, and every symbol-table entry's
// signature against the function cuda.h maps the API name to (cuMemAlloc is
// cuMemAlloc_v2 there): same number of parameters, each of the same size and
// kind (pointer or integer). Without cuda.h the test is skipped.
//
//===----------------------------------------------------------------------===//

#include "gtest/gtest.h"

#ifdef OFFLOAD_HAVE_CUDA_H
#include <cuda.h>

#include "CUDATypes.h"

#include <type_traits>

namespace {

/// Two types passed the same way by the C ABI: same size, both pointers or
/// both integers (enums included).
template <typename A, typename B> constexpr bool sameABI() {
  constexpr bool IntA = std::is_integral_v<A> || std::is_enum_v<A>;
  constexpr bool IntB = std::is_integral_v<B> || std::is_enum_v<B>;
  return sizeof(A) == sizeof(B) &&
         std::is_pointer_v<A> == std::is_pointer_v<B> && IntA == IntB;
}

template <typename F, typename G> struct Compatible : std::false_type {};
template <typename R1, typename... A1, typename R2, typename... A2>
struct Compatible<R1 (*)(A1...), R2 (*)(A2...)>
    : std::bool_constant<sizeof...(A1) == sizeof...(A2) && sameABI<R1, R2>() &&
                         (sameABI<A1, A2>() && ...)> {};

/// Our types shadow cuda.h's inside this scope, so the symbol table's
/// parameter lists mean what they mean in the plugin; `::Member` is cuda.h's
/// function (the API name is a macro for the versioned one).
struct Check {
  using CUresult = offload::cuda::CUresult;
  using CUdevice = offload::cuda::CUdevice;
  using CUdeviceptr = offload::cuda::CUdeviceptr;
  using CUcontext = offload::cuda::CUcontext;
  using CUmodule = offload::cuda::CUmodule;
  using CUfunction = offload::cuda::CUfunction;
  using CUstream = offload::cuda::CUstream;
  using CUevent = offload::cuda::CUevent;
  using CUuuid = offload::cuda::CUuuid;
  using CUhostFn = offload::cuda::CUhostFn;
  using CUoccupancyB2DSize = offload::cuda::CUoccupancyB2DSize;
#define CUDA_SYMBOL(Member, Export, Fallback, Required, Ret, Params)           \
  static_assert(Compatible<Ret(*) Params, decltype(&::Member)>::value,         \
                "signature of " Export " differs from cuda.h");
#include "CUDASymbols.def"
};

namespace cu = offload::cuda;
#define SAME(Name)                                                             \
  static_assert(cu::Name == ::Name, #Name " differs from cuda.h")
SAME(CUDA_ERROR_INVALID_VALUE);
SAME(CUDA_ERROR_OUT_OF_MEMORY);
SAME(CUDA_ERROR_NOT_INITIALIZED);
SAME(CUDA_ERROR_STUB_LIBRARY);
SAME(CUDA_ERROR_NO_DEVICE);
SAME(CUDA_ERROR_INVALID_IMAGE);
SAME(CUDA_ERROR_NO_BINARY_FOR_GPU);
SAME(CUDA_ERROR_INVALID_PTX);
SAME(CUDA_ERROR_JIT_COMPILER_NOT_FOUND);
SAME(CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
SAME(CUDA_ERROR_NOT_FOUND);
SAME(CUDA_ERROR_NOT_READY);
SAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
SAME(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
SAME(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
SAME(CUDA_ERROR_NOT_SUPPORTED);
SAME(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
SAME(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
SAME(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X);
SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y);
SAME(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z);
SAME(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X);
SAME(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y);
SAME(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z);
SAME(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
SAME(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
SAME(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
SAME(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
SAME(CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY);
SAME(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
SAME(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING);
SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
SAME(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
SAME(CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY);
SAME(CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1);
SAME(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
SAME(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
SAME(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES);
SAME(CU_POINTER_ATTRIBUTE_MEMORY_TYPE);
SAME(CU_POINTER_ATTRIBUTE_IS_MANAGED);
SAME(CU_MEM_LOCATION_TYPE_DEVICE);
SAME(CU_MEM_LOCATION_TYPE_HOST);
SAME(CU_MEMORYTYPE_HOST);
SAME(CU_MEMORYTYPE_DEVICE);
SAME(CU_MEMORYTYPE_UNIFIED);
SAME(CU_JIT_ERROR_LOG_BUFFER);
SAME(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES);
SAME(CU_STREAM_NON_BLOCKING);
SAME(CU_EVENT_DISABLE_TIMING);
SAME(CU_MEM_ATTACH_GLOBAL);
SAME(CU_STREAM_WAIT_VALUE_GEQ);
#undef SAME
static_assert(cu::MemHostRegisterPortable == CU_MEMHOSTREGISTER_PORTABLE);
static_assert(cu::LaunchParamEnd == CU_LAUNCH_PARAM_END_AS_INT);
static_assert(cu::LaunchParamBufferPointer ==
              CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT);
static_assert(cu::LaunchParamBufferSize == CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT);
static_assert(sizeof(cu::CUuuid) == sizeof(::CUuuid));
static_assert(sizeof(cu::CUdeviceptr) == sizeof(::CUdeviceptr));

} // namespace

TEST(CUDAHeaderTest, DeclarationsMatchCudaH) {
  // Everything is checked at compile time.
  SUCCEED() << "checked against cuda.h " << CUDA_VERSION;
}

#else

TEST(CUDAHeaderTest, DeclarationsMatchCudaH) {
  GTEST_SKIP() << "no CUDA toolkit (cuda.h) found at configure time";
}

#endif
