//===- Key.h - Specialization cache keys ------------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The key of a compiled specialization: every input that can change the
// generated code, and nothing else (so that equal inputs hit).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_KEY_H
#define OFFLOAD_LIB_JIT_KEY_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace offloadjit {

struct KeyInputs {
  /// xxh3-128 (hex) of the module's bytes as given to the JIT.
  std::string ModuleHash;
  /// "module::kernel".
  std::string Kernel;
  /// The device's target: platform, triple, chip, features.
  std::string Target;
  /// LLVM/MLIR version of the compiler.
  std::string CompilerVersion;
  /// Specialization options that change the folding (e.g. unroll bound).
  std::string Options;
  /// False for the generic (unspecialized) kernel: no values, no sizes.
  bool Specialized = false;
  /// (argument index, raw bytes of the value or of the array's elements).
  std::vector<std::pair<unsigned, std::vector<char>>> Values;
  std::array<int32_t, 3> Block{1, 1, 1};
  /// Only when grid sizes are folded.
  std::optional<std::array<int32_t, 3>> Grid;
};

/// 32 hex digits: xxh3-128 of an unambiguous encoding of \p Inputs.
std::string computeKey(const KeyInputs &Inputs);

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_KEY_H
