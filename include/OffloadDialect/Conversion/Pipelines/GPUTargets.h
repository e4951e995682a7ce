//===- GPUTargets.h - Defaults and checks of the GPU targets ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The `offload-lower-to-nvvm` and `offload-lower-to-rocdl` pipelines hand the
// kernels to upstream's `#nvvm.target` and `#rocdl.target`. Upstream's
// defaults do not work with today's toolchains (sm_50 / PTX 6.0 is rejected
// by CUDA 13's ptxas, gfx900 needs /opt/rocm), and some impossible
// combinations abort the process inside LLVM. These functions fill in working
// defaults from the machine (ptxas, libdevice, the ROCm device libraries, the
// HIP runtime's version) and reject impossible requests with a message, before
// anything upstream runs.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_PIPELINES_GPUTARGETS_H
#define OFFLOADDIALECT_CONVERSION_PIPELINES_GPUTARGETS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
namespace offload {

/// The NVVM chip used when none is given: the H100/H200 generation.
inline constexpr llvm::StringLiteral kDefaultNVVMChip = "sm_90";
/// The ROCDL chip used when none is given: MI200 (CDNA2).
inline constexpr llvm::StringLiteral kDefaultROCDLChip = "gfx90a";
/// The lowest PTX ISA version (times 10) chosen by default: PTX 8.0, the ISA
/// of CUDA 12.0, which every CUDA 12 and 13 ptxas and driver accept. Chips
/// that need a newer ISA get their minimum instead.
inline constexpr unsigned kDefaultMinPTXVersion = 80;

/// What a pipeline user asked for. Empty strings and zero select defaults.
struct GPUTargetRequest {
  /// `sm_*` (NVVM) or `gfx*` (ROCDL); empty: kDefaultNVVMChip or
  /// kDefaultROCDLChip.
  std::string chip;
  /// LLVM target features ("+ptx83", "+wavefrontsize64", ...); for NVVM,
  /// empty or without a `+ptxNN` derives the PTX ISA version from the chip.
  std::string features;
  /// `isa`, `bin` or `fatbin` (NVVM only); empty: NVVM `bin` when ptxas is
  /// found and `isa` otherwise, ROCDL `bin`.
  std::string format;
  /// CUDA toolkit or ROCm directory; empty: searched (see the resolvers).
  std::string toolkit;
  /// LLVM optimization level of the kernels, 0 to 3.
  unsigned optLevel = 3;
  /// ROCDL code object version, 4, 5 or 6; 0: from the HIP runtime found.
  unsigned codeObjectVersion = 0;
};

/// A GPU target with every default filled in: what the pipelines pass to
/// `nvvm-attach-target` / `rocdl-attach-target`, the kernel conversion and
/// `gpu-module-to-binary`.
struct GPUTargetConfig {
  std::string chip;
  std::string features;
  /// `isa`, `bin` or `fatbin`.
  std::string format;
  /// Toolkit directory for gpu-module-to-binary (empty: upstream's search).
  std::string toolkit;
  unsigned optLevel = 3;
  /// NVVM: the PTX ISA version times 10 (80 for PTX 8.0).
  unsigned ptxVersion = 0;
  /// NVVM: the chip has `redux.sync` (sm_80 and newer).
  bool hasRedux = false;
  /// ROCDL: the code object version (4, 5 or 6).
  unsigned codeObjectVersion = 0;
  /// ROCDL: the chipset convert-gpu-to-rocdl lowers for: the chip, or for a
  /// generic chip (`gfx9-generic`) the oldest one it covers (`gfx900`).
  std::string conversionChip;
  /// ROCDL: wavefronts of 64 lanes (gfx9 and older, or +wavefrontsize64).
  bool wave64 = false;
  /// Lanes of a subgroup (warp or wavefront).
  unsigned subgroupSize = 32;
  /// How each default that was not given was chosen, one sentence each; the
  /// pipelines report them as a remark.
  std::vector<std::string> notes;
};

/// Checks \p request for `#nvvm.target` and fills in the defaults:
/// - chip: kDefaultNVVMChip; must be a chip LLVM's NVPTX backend knows;
/// - features: `+ptxNN` with NN = max(kDefaultMinPTXVersion, the chip's
///   minimum from LLVM's NVPTX processor table) unless one is given; a given
///   one below the chip's minimum is an error (LLVM would abort);
/// - format: `bin` (cubin) when ptxas is found, else `isa` (PTX, compiled by
///   the driver at load time);
/// - toolkit: the first of `toolkit`, $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT,
///   /usr/local/cuda and the directory above ptxas that holds
///   nvvm/libdevice/libdevice.10.bc.
/// ptxas is searched in `<toolkit>/bin`, $CUDA_HOME/bin, $CUDA_PATH/bin,
/// $CUDA_ROOT/bin, /usr/local/cuda/bin, then PATH.
llvm::Expected<GPUTargetConfig> resolveNVVMTarget(const GPUTargetRequest &);

/// Checks \p request for `#rocdl.target` and fills in the defaults:
/// - chip: kDefaultROCDLChip; must be a chip LLVM's AMDGPU backend knows;
/// - features: as given, checked against the AMDGPU backend;
/// - format: `bin` (HSACO, linked by ld.lld); `isa` is the assembly;
/// - toolkit: the first of `toolkit`, $ROCM_PATH, $ROCM_ROOT, $ROCM_HOME,
///   /opt/rocm and the layout the build makes from the distribution's device
///   libraries and LLVM's ld.lld (scripts/rocm-toolkit.sh) that holds
///   `amdgcn/bitcode` or `llvm/bin/ld.lld`;
/// - code object version: 6 for the generic chips (`gfx9-generic`, ...),
///   otherwise 4 when the HIP runtime found is older than 6.0 (Debian's 5.2),
///   5 when it is 6.0 or newer or when there is none.
llvm::Expected<GPUTargetConfig> resolveROCDLTarget(const GPUTargetRequest &);

/// The HIP runtime library found on this machine.
struct HIPRuntimeInfo {
  std::string path;
  unsigned major = 0;
  unsigned minor = 0;
};

/// Finds `libamdhip64.so.*` where the dynamic loader and ROCm put it:
/// $LD_LIBRARY_PATH, $ROCM_PATH/lib (also $ROCM_ROOT, $ROCM_HOME),
/// /opt/rocm/lib, then the system library directories; the version is read
/// from the file name (`libamdhip64.so.5.2.21153` is 5.2).
std::optional<HIPRuntimeInfo> findHIPRuntime();

/// Returns the path of ptxas (see resolveNVVMTarget), or std::nullopt.
std::optional<std::string> findPTXAS(llvm::StringRef toolkit = "");

/// The ROCm toolkit layout made by the build (scripts/rocm-toolkit.sh) and
/// installed with it: <prefix>/share/offload/rocm-toolkit, where <prefix>
/// is the parent of the directory of the executable or shared library that
/// contains the pipelines (bin/ or lib/, in the build tree as in an install
/// tree). Empty when there is none.
llvm::StringRef getBuiltROCmToolkitDir();

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_PIPELINES_GPUTARGETS_H
