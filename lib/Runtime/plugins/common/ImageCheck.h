//===- ImageCheck.h - What kind of device binary an image is ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The checks every plugin's Device::isValidBinary and loadProgram make first:
// what an image is by its first bytes (llvm::identify_magic), and for an ELF
// file its class and machine. The host plugin then parses the object; the GPU
// plugins hand the image to their driver.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_COMMON_IMAGECHECK_H
#define OFFLOADRUNTIME_LIB_PLUGINS_COMMON_IMAGECHECK_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace offload {
namespace plugin {

/// The kinds of device image the plugins load.
enum class ImageKind {
  /// An ELF file (check its machine with getELF64Machine).
  ELF,
  /// A CUDA fatbin (FATBIN_CONTROL_MAGIC 0xBA55ED50).
  CUDAFatbin,
  /// A clang offload bundle, plain ("__CLANG_OFFLOAD_BUNDLE__") or
  /// compressed ("CCOB").
  OffloadBundle,
  /// PTX text: a `.version` and a `.target` directive, no NUL byte but,
  /// perhaps, a terminating one.
  PTX,
  Unknown,
};

/// What \p Image is, by its first bytes.
ImageKind getImageKind(llvm::StringRef Image);

/// The e_machine (llvm::ELF::EM_*) of a 64-bit little-endian ELF image
/// whose header is complete (64 bytes), or std::nullopt for anything else.
std::optional<uint16_t> getELF64Machine(llvm::StringRef Image);

/// Whether \p Image is a 64-bit little-endian ELF file for \p Machine
/// (llvm::ELF::EM_CUDA, EM_AMDGPU, EM_X86_64, ...).
inline bool isELF64For(llvm::StringRef Image, uint16_t Machine) {
  return getELF64Machine(Image) == Machine;
}

} // namespace plugin
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_COMMON_IMAGECHECK_H
