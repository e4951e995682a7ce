//===- CUDAPlugin.h - The CUDA plugin ---------------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA plugin runs kernels on NVIDIA GPUs through the CUDA Driver API,
// loaded with dlopen("libcuda.so.1") (OFFLOAD_CUDA_LIBRARY overrides the
// path). Nothing links against libcuda and no CUDA header is needed: the few
// types, constants and prototypes used are declared in CUDADriver.cpp, the
// symbol table in CUDASymbols.def. Without a usable driver the platform has
// no devices (OFFLOAD_TRACE=1 says why).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_CUDA_CUDAPLUGIN_H
#define OFFLOADRUNTIME_LIB_PLUGINS_CUDA_CUDAPLUGIN_H

#include "../../Plugin.h"

#include <memory>

namespace offload {

/// Creates the CUDA plugin (devices appear at init, if any).
std::unique_ptr<Plugin> createCUDAPlugin();

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_CUDA_CUDAPLUGIN_H
