//===- OffloadModule.cpp - The offload._offload extension module ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// nanobind bindings of the runtime C API (OffloadAPI.h) and the JIT C API
// (OffloadJIT.h): devices, memory with NumPy/DLPack interop, queues, events,
// programs created from MLIR and launches with run-time specialization. The
// Python package `offload` (python/offload/__init__.py) re-exports these
// classes and adds the conveniences written in Python.
//
// This file makes the module: one bindX(module) per area, declared in
// Bindings.h (Errors.cpp, Devices.cpp, Arrays.cpp, Queues.cpp, Kernels.cpp
// with Launch.cpp, JIT.cpp).
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

using namespace offloadpy;

NB_MODULE(_offload, m) {
  m.doc() = "Bindings of the offload runtime and JIT C APIs (use the "
            "`offload` package, not this module).";
  nb::set_leak_warnings(false);

  bindErrors(m);
  bindDevices(m);
  bindArrays(m);
  bindQueues(m);
  bindKernels(m);
  bindJIT(m);
}
