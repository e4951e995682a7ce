//===- HIPPlugin.h - The HIP plugin -----------------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The HIP plugin runs kernels (HSACO code objects) on AMD GPUs through the
// HIP runtime's module API, loaded with dlopen: libamdhip64.so (or .so.7, .6,
// .5) from $LD_LIBRARY_PATH, $ROCM_PATH/lib, /opt/rocm/lib and the system
// library directories; OFFLOAD_HIP_LIBRARY overrides the path. It shares its
// implementation with the CUDA plugin (../cuda/GPUPlugin.h). Without a HIP
// runtime, or without an AMD GPU, the platform has no devices.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HIP_HIPPLUGIN_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HIP_HIPPLUGIN_H

#include "../../Plugin.h"

#include <memory>

namespace offload {

/// Creates the HIP plugin (devices appear at init, if any).
std::unique_ptr<Plugin> createHIPPlugin();

} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HIP_HIPPLUGIN_H
