//===- Kernels.h - offload.Module and offload.Kernel ------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What Kernels.cpp (modules, kernels and their signatures) and Launch.cpp
// (packing a launch's arguments) share.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PYTHON_SRC_KERNELS_H
#define OFFLOAD_PYTHON_SRC_KERNELS_H

#include "Bindings.h"

#include "OffloadSupport/KernelArguments.h"

#include <algorithm>
#include <climits>

namespace offloadpy {

/// A dynamic size, stride or offset ('?') of a memref type.
constexpr int64_t Dynamic = INT64_MIN;

/// An MLIR scalar type a kernel argument or memref element can have.
struct ScalarType {
  enum Kind { Signless, Signed, Unsigned, Float, BFloat, Index } K = Signless;
  unsigned Bits = 0;
  /// Bytes in the packed buffer (and in memory): i1 takes one.
  size_t size() const { return K == Index ? 8 : std::max(1u, (Bits + 7) / 8); }
};

struct ArgumentInfo {
  std::string Text; ///< the MLIR type, as the JIT printed it
  bool RuntimeConstant = false, Contents = false;
  bool IsMemRef = false;
  bool IsPointer = false;    ///< !llvm.ptr (any address space): an address
  ScalarType Scalar;         ///< the scalar, or the memref's element type
  std::vector<int64_t> Dims; ///< Dynamic for '?'
  /// Layout: identity (contiguous), strided (Strides/Offset, each possibly
  /// Dynamic) or another one the bindings cannot check.
  enum { Identity, Strided, Other } Layout = Identity;
  std::vector<int64_t> Strides;
  int64_t Offset = 0;
  size_t FieldOffset = 0; ///< of its first field in the packed buffer
};

struct Module {
  offload_jit_program_handle_t Handle = nullptr;
  Device Dev;
  std::string Name; ///< where the MLIR came from, for messages
  Module() = default;
  Module(Module &&Other) noexcept
      : Handle(std::exchange(Other.Handle, nullptr)), Dev(Other.Dev),
        Name(std::move(Other.Name)) {}
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() {
    if (Handle && runtimeAlive())
      (void)offloadJITDestroyProgram(Handle);
  }
};

struct Kernel {
  nb::object ModuleRef; ///< keeps the program alive
  offload_jit_kernel_handle_t Handle = nullptr;
  Device Dev;
  bool DeviceIsHost = false;
  std::string Name;
  std::vector<ArgumentInfo> Arguments;
  size_t ArgumentsSize = 0;
};

/// Kernel.__call__: checks and packs \p Args, launches on the device's queue
/// (queue= in \p Kwargs) or synchronously.
void launch(Kernel &K, nb::args Args, nb::kwargs Kwargs);

} // namespace offloadpy

#endif // OFFLOAD_PYTHON_SRC_KERNELS_H
