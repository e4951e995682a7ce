//===- Toolkit.h - Where the CUDA and ROCm installations are ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The vendor toolkit search, done once for every component that needs it: the
// compiler's target resolution (ptxas, libdevice, the ROCm device libraries
// and ld.lld: lib/Conversion/Pipelines/GPUTargets.cpp), the JIT's nvJitLink
// (lib/JIT/DeviceCompiler.cpp) and the HIP plugin's libamdhip64
// (lib/Runtime/plugins/hip). Each function returns candidate directories in
// search order; the caller appends the file it looks for and takes the first
// that exists, so that every component searches the same places in the same
// order and its messages can name them (getCUDAToolkitSearchText, ...).
//
//   for (const std::string &Dir : offload::toolkit::getCUDAToolkitDirs())
//     if (exists(Dir + "/bin/ptxas")) ...
//
// Header-only, standard library only (like Environment.h): the runtime, the
// JIT and the tools include it. Variables are read at each call.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADSUPPORT_TOOLKIT_H
#define OFFLOADSUPPORT_TOOLKIT_H

#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace offload::toolkit {

namespace detail {
/// Appends $\p Variable + \p Suffix to \p Dirs when the variable is set and
/// not empty, unless \p Dirs has that directory already.
inline void appendFromEnv(std::vector<std::string> &Dirs, const char *Variable,
                          std::string_view Suffix = "") {
  const char *Value = std::getenv(Variable);
  if (!Value || !*Value)
    return;
  std::string Dir = std::string(Value) + std::string(Suffix);
  if (std::find(Dirs.begin(), Dirs.end(), Dir) == Dirs.end())
    Dirs.push_back(std::move(Dir));
}
inline void appendUnique(std::vector<std::string> &Dirs, std::string Dir) {
  if (std::find(Dirs.begin(), Dirs.end(), Dir) == Dirs.end())
    Dirs.push_back(std::move(Dir));
}
} // namespace detail

/// The variables that name a CUDA toolkit, in search order.
inline constexpr const char *kCUDAToolkitVariables[] = {
    "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"};
/// Where a CUDA toolkit is installed when no variable names one.
inline constexpr const char *kDefaultCUDAToolkit = "/usr/local/cuda";

/// CUDA toolkit roots, in search order: $CUDA_HOME, $CUDA_PATH, $CUDA_ROOT
/// (those set and not empty), then /usr/local/cuda. A root has bin/ptxas,
/// nvvm/libdevice/ and lib64/ (libnvJitLink.so.*).
inline std::vector<std::string> getCUDAToolkitDirs() {
  std::vector<std::string> Dirs;
  for (const char *Variable : kCUDAToolkitVariables)
    detail::appendFromEnv(Dirs, Variable);
  detail::appendUnique(Dirs, kDefaultCUDAToolkit);
  return Dirs;
}

/// The search of getCUDAToolkitDirs in words, with \p Suffix after each
/// root ("/bin" gives "$CUDA_HOME/bin, $CUDA_PATH/bin, $CUDA_ROOT/bin,
/// /usr/local/cuda/bin"), for messages.
inline std::string getCUDAToolkitSearchText(std::string_view Suffix = "") {
  std::string Text;
  for (const char *Variable : kCUDAToolkitVariables)
    Text += "$" + std::string(Variable) + std::string(Suffix) + ", ";
  return Text + kDefaultCUDAToolkit + std::string(Suffix);
}

/// The variables that name a ROCm installation, in search order.
inline constexpr const char *kROCmVariables[] = {"ROCM_PATH", "ROCM_ROOT",
                                                 "ROCM_HOME"};
/// Where ROCm is installed when no variable names it.
inline constexpr const char *kDefaultROCm = "/opt/rocm";

/// ROCm roots, in search order: $ROCM_PATH, $ROCM_ROOT, $ROCM_HOME (those set
/// and not empty), then /opt/rocm. A root has lib/ (libamdhip64.so.*),
/// amdgcn/bitcode/ and llvm/bin/ld.lld.
inline std::vector<std::string> getROCmDirs() {
  std::vector<std::string> Dirs;
  for (const char *Variable : kROCmVariables)
    detail::appendFromEnv(Dirs, Variable);
  detail::appendUnique(Dirs, kDefaultROCm);
  return Dirs;
}

/// The search of getROCmDirs in words ("$ROCM_PATH, $ROCM_ROOT, $ROCM_HOME,
/// /opt/rocm"), with \p Suffix after each root, for messages.
inline std::string getROCmSearchText(std::string_view Suffix = "") {
  std::string Text;
  for (const char *Variable : kROCmVariables)
    Text += "$" + std::string(Variable) + std::string(Suffix) + ", ";
  return Text + kDefaultROCm + std::string(Suffix);
}

/// The directories a vendor runtime library (libamdhip64) is searched in, in
/// order: each directory of $LD_LIBRARY_PATH, lib/ of each ROCm root
/// (getROCmDirs), then the system library directories (/usr/local/lib, the
/// Debian multiarch directories of x86-64, AArch64 and POWER, /usr/lib64,
/// /usr/lib). The dynamic loader's own cache comes after these: the caller
/// tries the plain file name last.
inline std::vector<std::string> getROCmLibraryDirs() {
  std::vector<std::string> Dirs;
  if (const char *Paths = std::getenv("LD_LIBRARY_PATH")) {
    std::string_view Rest(Paths);
    while (!Rest.empty()) {
      size_t Colon = Rest.find(':');
      std::string_view Part = Rest.substr(0, Colon);
      if (!Part.empty())
        detail::appendUnique(Dirs, std::string(Part));
      if (Colon == std::string_view::npos)
        break;
      Rest.remove_prefix(Colon + 1);
    }
  }
  for (const std::string &Root : getROCmDirs())
    detail::appendUnique(Dirs, Root + "/lib");
  for (const char *Dir :
       {"/usr/local/lib", "/usr/lib/x86_64-linux-gnu",
        "/usr/lib/aarch64-linux-gnu", "/usr/lib/powerpc64le-linux-gnu",
        "/usr/lib64", "/usr/lib"})
    detail::appendUnique(Dirs, Dir);
  return Dirs;
}

} // namespace offload::toolkit

#endif // OFFLOADSUPPORT_TOOLKIT_H
