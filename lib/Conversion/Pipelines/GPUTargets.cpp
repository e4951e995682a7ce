//===- GPUTargets.cpp - Defaults and checks of the GPU targets ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Fills in working defaults for `#nvvm.target` and `#rocdl.target` from the
// machine and LLVM's own processor tables, and rejects impossible requests
// with a message before upstream code (which may abort) sees them.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/Pipelines/GPUTargets.h"
#include "OffloadSupport/Toolkit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Config/Targets.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/TargetParser.h"
#include "llvm/TargetParser/Triple.h"

#include <cstdlib>
#include <memory>
#include <mutex>

using namespace mlir;
using namespace mlir::offload;
using llvm::StringRef;

#include <dlfcn.h>
#include <link.h>

#ifndef OFFLOAD_ROCM_TOOLKIT_RELATIVE_DIR
#define OFFLOAD_ROCM_TOOLKIT_RELATIVE_DIR "share/offload/rocm-toolkit"
#endif

static constexpr StringRef kNVPTXTriple = "nvptx64-nvidia-cuda";
static constexpr StringRef kAMDGCNTriple = "amdgcn-amd-amdhsa";

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The value of the environment variable \p name, if set and not empty.
static std::string joinPath(StringRef base, const llvm::Twine &a,
                            const llvm::Twine &b = "",
                            const llvm::Twine &c = "",
                            const llvm::Twine &d = "") {
  llvm::SmallString<256> path(base);
  llvm::sys::path::append(path, a, b, c, d);
  return std::string(path);
}

/// Registers the NVPTX and AMDGPU backends' target info and MC layer, which
/// describe their processors and features. Upstream's serializers initialize
/// the rest when they run.
static void initializeGPUTargets() {
  static std::once_flag flag;
  std::call_once(flag, [] {
#if LLVM_HAS_NVPTX_TARGET
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTargetMC();
#endif
#if LLVM_HAS_AMDGPU_TARGET
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
#endif
  });
}

/// Returns the subtarget description of \p chip for \p triple with no extra
/// features, or an error naming \p kind ("NVVM", "ROCDL") when LLVM lacks the
/// backend or does not know the chip.
static llvm::Expected<std::unique_ptr<llvm::MCSubtargetInfo>>
getSubtargetInfo(StringRef kind, StringRef triple, StringRef chip,
                 StringRef llcArch) {
  initializeGPUTargets();
  std::string error;
  llvm::Triple parsedTriple(triple);
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(parsedTriple, error);
  if (!target)
    return makeError("this LLVM has no backend for " + triple + ": " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(parsedTriple, "", ""));
  if (!info)
    return makeError("cannot describe the subtargets of " + triple);
  if (!info->isCPUStringValid(chip))
    return makeError("unknown " + kind + " chip '" + chip + "' (llc -march=" +
                     llcArch + " -mcpu=help lists the valid ones)");
  info.reset(target->createMCSubtargetInfo(parsedTriple, chip, ""));
  return std::move(info);
}

/// One entry of a feature string: "+name" or "-name".
struct FeatureItem {
  bool enable;
  StringRef name;
};

/// Splits and checks \p features against the features of \p info.
static llvm::Expected<llvm::SmallVector<FeatureItem>>
parseFeatures(const llvm::MCSubtargetInfo &info, StringRef kind,
              StringRef features, StringRef llcArch) {
  llvm::SmallVector<FeatureItem> result;
  llvm::SmallVector<StringRef> items;
  features.split(items, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef item : items) {
    StringRef name = item.trim();
    if (name.empty())
      continue;
    bool enable = name.front() == '+';
    if (!name.consume_front("+") && !name.consume_front("-"))
      return makeError("feature '" + name + "' must start with '+' or '-'");
    if (!llvm::any_of(info.getAllProcessorFeatures(),
                      [&](const llvm::SubtargetFeatureKV &feature) {
                        return name == feature.Key;
                      }))
      return makeError("unknown " + kind + " feature '" + name +
                       "' (llc -march=" + llcArch +
                       " -mattr=help lists the valid ones)");
    result.push_back({enable, name});
  }
  return result;
}

/// Parses "ptxNN" into NN; std::nullopt for other names.
static std::optional<unsigned> parsePTXFeature(StringRef name) {
  unsigned version;
  if (!name.consume_front("ptx") || name.getAsInteger(10, version))
    return std::nullopt;
  return version;
}

static std::string formatPTXVersion(unsigned version) {
  return llvm::formatv("{0}.{1}", version / 10, version % 10).str();
}

/// The lowest PTX ISA version (times 10) each chip needs, from NVIDIA's PTX
/// ISA notes (the same as LLVM 22's NVPTX processor definitions, which pick
/// it when no +ptxNN is given): PTX older than this makes LLVM abort.
static constexpr std::pair<StringRef, unsigned> kMinPTXVersions[] = {
    {"sm_20", 32},   {"sm_21", 32},   {"sm_30", 32},   {"sm_32", 40},
    {"sm_35", 32},   {"sm_37", 41},   {"sm_50", 40},   {"sm_52", 41},
    {"sm_53", 42},   {"sm_60", 50},   {"sm_61", 50},   {"sm_62", 50},
    {"sm_70", 60},   {"sm_72", 61},   {"sm_75", 63},   {"sm_80", 70},
    {"sm_86", 71},   {"sm_87", 74},   {"sm_88", 90},   {"sm_89", 78},
    {"sm_90", 78},   {"sm_90a", 80},  {"sm_100", 86},  {"sm_100a", 86},
    {"sm_100f", 88}, {"sm_101", 86},  {"sm_101a", 86}, {"sm_101f", 88},
    {"sm_103", 88},  {"sm_103a", 88}, {"sm_103f", 88}, {"sm_110", 90},
    {"sm_110a", 90}, {"sm_110f", 90}, {"sm_120", 87},  {"sm_120a", 87},
    {"sm_120f", 88}, {"sm_121", 88},  {"sm_121a", 88}, {"sm_121f", 88},
};

/// The lowest PTX ISA version (times 10) \p chip needs, if known.
static std::optional<unsigned> getMinPTXVersion(StringRef chip) {
  for (const auto &[name, version] : kMinPTXVersions)
    if (name == chip)
      return version;
  return std::nullopt;
}

/// The highest PTX ISA version (times 10) this LLVM can emit.
static unsigned getMaxPTXVersion(const llvm::MCSubtargetInfo &info) {
  unsigned maximum = 0;
  for (const llvm::SubtargetFeatureKV &feature : info.getAllProcessorFeatures())
    if (std::optional<unsigned> version = parsePTXFeature(feature.Key))
      maximum = std::max(maximum, *version);
  return maximum;
}

static bool isDirectory(StringRef path) {
  return !path.empty() && llvm::sys::fs::is_directory(path);
}

static llvm::Error checkOptLevel(unsigned optLevel) {
  if (optLevel > 3)
    return makeError("O=" + llvm::Twine(optLevel) +
                     " is not an optimization level (0-3)");
  return llvm::Error::success();
}

static llvm::Error checkToolkit(StringRef toolkit) {
  if (!toolkit.empty() && !isDirectory(toolkit))
    return makeError("toolkit '" + toolkit + "' is not a directory");
  return llvm::Error::success();
}

//===----------------------------------------------------------------------===//
// NVVM
//===----------------------------------------------------------------------===//

/// Candidate CUDA toolkit directories, in search order.
static llvm::SmallVector<std::string>
getCUDAToolkitCandidates(StringRef toolkit) {
  llvm::SmallVector<std::string> candidates;
  if (!toolkit.empty())
    candidates.push_back(toolkit.str());
  for (std::string &dir : ::offload::toolkit::getCUDAToolkitDirs())
    candidates.push_back(std::move(dir));
  return candidates;
}

std::optional<std::string> mlir::offload::findPTXAS(StringRef toolkit) {
  for (const std::string &dir : getCUDAToolkitCandidates(toolkit)) {
    std::string path = joinPath(dir, "bin", "ptxas");
    if (llvm::sys::fs::can_execute(path))
      return path;
  }
  if (std::optional<std::string> path =
          llvm::sys::Process::FindInEnvPath("PATH", "ptxas"))
    return *path;
  return std::nullopt;
}

/// The real GPU names (`sm_*`) the ptxas at \p ptxas accepts, read once per
/// path from its `--help`; std::nullopt when that cannot be read.
static std::optional<std::vector<std::string>>
getPTXASChips(const std::string &ptxas) {
  static std::mutex mutex;
  static llvm::StringMap<std::optional<std::vector<std::string>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = cache.try_emplace(ptxas);
  if (!inserted)
    return it->second;

  llvm::SmallString<128> output;
  if (llvm::sys::fs::createTemporaryFile("offload-ptxas-help", "txt", output))
    return std::nullopt;
  llvm::FileRemover remover(output);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(output),
                                          StringRef(output)};
  if (llvm::sys::ExecuteAndWait(ptxas, {ptxas, "--help"}, std::nullopt,
                                redirects, /*SecondsToWait=*/30) != 0)
    return std::nullopt;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> help =
      llvm::MemoryBuffer::getFile(output);
  if (!help)
    return std::nullopt;
  // "--gpu-name ... Allowed values for this option:  'compute_100',...,
  // 'sm_90a'. Default value: ..."
  StringRef text = (*help)->getBuffer();
  size_t start = text.find("--gpu-name");
  if (start == StringRef::npos)
    return std::nullopt;
  text = text.drop_front(start);
  start = text.find("Allowed values");
  if (start == StringRef::npos)
    return std::nullopt;
  text = text.drop_front(start);
  text = text.take_front(text.find("Default value"));
  std::vector<std::string> chips;
  while (true) {
    size_t quote = text.find('\'');
    if (quote == StringRef::npos)
      break;
    text = text.drop_front(quote + 1);
    size_t end = text.find('\'');
    if (end == StringRef::npos)
      break;
    StringRef name = text.take_front(end);
    if (name.starts_with("sm_"))
      chips.push_back(name.str());
    text = text.drop_front(end + 1);
  }
  if (chips.empty())
    return std::nullopt;
  it->second = std::move(chips);
  return it->second;
}

/// The first CUDA toolkit directory with libdevice, searched like ptxas, then
/// above \p ptxas (`<dir>/bin/ptxas`).
static std::optional<std::string>
findLibdeviceToolkit(StringRef toolkit,
                     const std::optional<std::string> &ptxas) {
  llvm::SmallVector<std::string> candidates = getCUDAToolkitCandidates(toolkit);
  if (ptxas)
    candidates.push_back(std::string(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))));
  for (const std::string &dir : candidates)
    if (llvm::sys::fs::is_regular_file(
            joinPath(dir, "nvvm", "libdevice", "libdevice.10.bc")))
      return dir;
  return std::nullopt;
}

llvm::Expected<GPUTargetConfig>
mlir::offload::resolveNVVMTarget(const GPUTargetRequest &request) {
  GPUTargetConfig config;
  config.chip = request.chip.empty() ? kDefaultNVVMChip.str() : request.chip;
  config.optLevel = request.optLevel;
  config.subgroupSize = 32;
  if (llvm::Error error = checkOptLevel(request.optLevel))
    return std::move(error);
  if (llvm::Error error = checkToolkit(request.toolkit))
    return std::move(error);

  auto info = getSubtargetInfo("NVVM", kNVPTXTriple, config.chip, "nvptx64");
  if (!info)
    return info.takeError();
  auto features = parseFeatures(**info, "NVPTX", request.features, "nvptx64");
  if (!features)
    return features.takeError();

  // The PTX ISA version: given (at most one, not below the chip's minimum,
  // which LLVM would abort on) or derived from the chip.
  std::optional<unsigned> knownMinPTX = getMinPTXVersion(config.chip);
  unsigned minPTX = knownMinPTX.value_or(0);
  std::optional<unsigned> givenPTX;
  for (const FeatureItem &item : *features) {
    std::optional<unsigned> version = parsePTXFeature(item.name);
    if (!version)
      continue;
    if (!item.enable)
      return makeError("features cannot remove a PTX ISA version ('-" +
                       item.name + "'); give the one to use as +ptxNN");
    if (givenPTX && *givenPTX != *version)
      return makeError("features name more than one PTX ISA version (+ptx" +
                       llvm::Twine(*givenPTX) + " and +" + item.name + ")");
    givenPTX = version;
  }
  if (givenPTX) {
    if (*givenPTX < minPTX)
      return makeError(
          "chip " + config.chip + " needs PTX ISA " + formatPTXVersion(minPTX) +
          " or newer, but the features ask for +ptx" + llvm::Twine(*givenPTX));
    config.ptxVersion = *givenPTX;
    config.features = request.features;
  } else {
    if (knownMinPTX) {
      unsigned maxPTX = getMaxPTXVersion(**info);
      config.ptxVersion =
          std::min(std::max(minPTX, kDefaultMinPTXVersion), maxPTX);
      config.features = "+ptx" + std::to_string(config.ptxVersion);
      if (!StringRef(request.features).trim().empty())
        config.features += "," + request.features;
    } else {
      // A chip newer than the table: LLVM picks the chip's minimum.
      config.features = request.features;
    }
  }

  // redux.sync exists from sm_80 on.
  StringRef smVersion = config.chip;
  unsigned sm = 0;
  if (smVersion.consume_front("sm_"))
    (void)smVersion.take_while(llvm::isDigit).getAsInteger(10, sm);
  config.hasRedux = sm >= 80;

  // The image format and the tools it needs.
  std::optional<std::string> ptxas = findPTXAS(request.toolkit);
  std::string format = request.format;
  if (format == "assembly")
    format = "isa";
  else if (format == "binary")
    format = "bin";
  else if (format == "fatbinary")
    format = "fatbin";
  // ptxas drops old chips (CUDA 13 has sm_75 and newer only).
  std::optional<std::vector<std::string>> ptxasChips;
  if (ptxas)
    ptxasChips = getPTXASChips(*ptxas);
  bool ptxasHasChip =
      !ptxasChips || llvm::is_contained(*ptxasChips, config.chip);
  if (format.empty() && ptxas && !ptxasHasChip) {
    format = "isa";
    config.notes.push_back("format=isa: PTX for " + config.chip +
                           ", compiled by the CUDA driver when loaded (" +
                           *ptxas + " does not support " + config.chip + ")");
  }
  if (format.empty()) {
    if (ptxas) {
      format = "bin";
      config.notes.push_back("format=bin: cubin for " + config.chip + " by " +
                             *ptxas);
    } else {
      format = "isa";
      config.notes.push_back(
          "format=isa: PTX for " + config.chip +
          ", compiled by the CUDA driver when loaded (no ptxas in "
          "$CUDA_HOME/bin, $CUDA_PATH/bin, $CUDA_ROOT/bin, "
          "/usr/local/cuda/bin or PATH)");
    }
  } else if (format != "isa" && format != "bin" && format != "fatbin") {
    return makeError("format '" + request.format +
                     "' is not one of isa (PTX), bin (cubin) or fatbin");
  } else if (format != "isa" && !ptxas) {
    return makeError("format=" + format +
                     " needs ptxas, which is not in <toolkit>/bin, "
                     "$CUDA_HOME/bin, $CUDA_PATH/bin, $CUDA_ROOT/bin, "
                     "/usr/local/cuda/bin or PATH (use format=isa, or "
                     "toolkit=<CUDA directory>)");
  }
  if (format != "isa" && !ptxasHasChip)
    return makeError(
        *ptxas + " does not support " + config.chip + " (it supports " +
        llvm::join(*ptxasChips, ", ") +
        "); use format=isa, or toolkit=<a CUDA toolkit that does>");
  if (format == "fatbin" &&
      !llvm::sys::fs::can_execute(
          joinPath(llvm::sys::path::parent_path(*ptxas), "fatbinary")) &&
      !llvm::sys::Process::FindInEnvPath("PATH", "fatbinary"))
    return makeError("format=fatbin needs fatbinary next to " + *ptxas +
                     " or in PATH");
  config.format = format;
  if (!givenPTX && config.ptxVersion)
    config.notes.push_back("PTX ISA " + formatPTXVersion(config.ptxVersion) +
                           " (+ptx" + std::to_string(config.ptxVersion) +
                           ") derived from " + config.chip);
  else if (!givenPTX)
    config.notes.push_back("PTX ISA: LLVM's minimum for " + config.chip);

  // libdevice (the __nv_* math functions) comes from the toolkit.
  if (std::optional<std::string> dir =
          findLibdeviceToolkit(request.toolkit, ptxas)) {
    config.toolkit = *dir;
  } else {
    config.toolkit = request.toolkit;
    config.notes.push_back(
        "no CUDA toolkit with nvvm/libdevice/libdevice.10.bc found: kernels "
        "calling math functions (__nv_*) will not link");
  }
  return config;
}

//===----------------------------------------------------------------------===//
// ROCDL
//===----------------------------------------------------------------------===//

/// The file of the executable or shared library that holds this code (the
/// pipelines are a static library, linked into tools and into
/// libOffloadJIT.so), or an empty string.
static std::string getContainingBinary() {
  static const char anchor = 0;
  Dl_info info;
  struct link_map *map = nullptr;
  if (!dladdr1(&anchor, &info, reinterpret_cast<void **>(&map),
               RTLD_DL_LINKMAP))
    return {};
  // The main program's link map has no name (and dladdr's file name is its
  // argv[0]): ask the system for the executable instead.
  if (!map || !map->l_name || !*map->l_name)
    return llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&getContainingBinary));
  return map->l_name;
}

llvm::StringRef mlir::offload::getBuiltROCmToolkitDir() {
  static const std::string dir = [] {
    std::string binary = getContainingBinary();
    if (binary.empty())
      return std::string();
    // <prefix>/bin/offload-opt or <prefix>/lib/libOffloadJIT.so: the layout
    // is <prefix>/share/offload/rocm-toolkit, in the build tree as in an
    // install.
    llvm::SmallString<256> path(binary);
    llvm::sys::path::remove_filename(path);
    llvm::sys::path::remove_filename(path);
    llvm::sys::path::append(path, OFFLOAD_ROCM_TOOLKIT_RELATIVE_DIR);
    llvm::SmallString<256> real;
    if (llvm::sys::fs::real_path(path, real) ||
        !llvm::sys::fs::is_directory(real))
      return std::string();
    return std::string(real);
  }();
  return dir;
}

/// Parses the version in a HIP runtime file name: "libamdhip64.so.5.2.21153"
/// is 5.2, "libamdhip64.so.6" is 6.0.
static std::optional<std::pair<unsigned, unsigned>>
parseHIPRuntimeVersion(StringRef fileName) {
  if (!fileName.consume_front("libamdhip64.so."))
    return std::nullopt;
  llvm::SmallVector<StringRef> parts;
  fileName.split(parts, '.');
  unsigned major = 0, minor = 0;
  if (parts.empty() || parts[0].getAsInteger(10, major))
    return std::nullopt;
  if (parts.size() > 1 && parts[1].getAsInteger(10, minor))
    minor = 0;
  return std::make_pair(major, minor);
}

std::optional<HIPRuntimeInfo> mlir::offload::findHIPRuntime() {
  std::vector<std::string> dirs = ::offload::toolkit::getROCmLibraryDirs();
  for (const std::string &dir : dirs) {
    std::error_code ec;
    std::optional<HIPRuntimeInfo> best;
    unsigned bestParts = 0;
    for (llvm::sys::fs::directory_iterator it(dir, ec), end; !ec && it != end;
         it.increment(ec)) {
      StringRef name = llvm::sys::path::filename(it->path());
      std::optional<std::pair<unsigned, unsigned>> version =
          parseHIPRuntimeVersion(name);
      if (!version)
        continue;
      // Prefer the most specific name (the real file over its soname link).
      unsigned parts = name.count('.');
      if (best && parts <= bestParts)
        continue;
      best = HIPRuntimeInfo{it->path(), version->first, version->second};
      bestParts = parts;
    }
    if (best)
      return best;
  }
  return std::nullopt;
}

/// Candidate ROCm toolkit directories, in search order.
static llvm::SmallVector<std::string> getROCmToolkitCandidates() {
  llvm::SmallVector<std::string> candidates;
  for (std::string &dir : ::offload::toolkit::getROCmDirs())
    candidates.push_back(std::move(dir));
  if (!getBuiltROCmToolkitDir().empty())
    candidates.push_back(getBuiltROCmToolkitDir().str());
  return candidates;
}

/// The oldest chip a generic target covers: convert-gpu-to-rocdl needs a
/// specific chipset, and code for the oldest one runs on all of them.
static std::optional<StringRef> getFirstChipOfGeneric(StringRef chip) {
  return llvm::StringSwitch<std::optional<StringRef>>(chip)
      .Case("gfx9-generic", StringRef("gfx900"))
      .Case("gfx9-4-generic", StringRef("gfx942"))
      .Case("gfx10-1-generic", StringRef("gfx1010"))
      .Case("gfx10-3-generic", StringRef("gfx1030"))
      .Case("gfx11-generic", StringRef("gfx1100"))
      .Case("gfx12-generic", StringRef("gfx1200"))
      .Default(std::nullopt);
}

static bool hasDeviceLibraries(StringRef dir) {
  return llvm::sys::fs::is_regular_file(
      joinPath(dir, "amdgcn", "bitcode", "ocml.bc"));
}

static bool hasLinker(StringRef dir) {
  return llvm::sys::fs::can_execute(joinPath(dir, "llvm", "bin", "ld.lld"));
}

llvm::Expected<GPUTargetConfig>
mlir::offload::resolveROCDLTarget(const GPUTargetRequest &request) {
  GPUTargetConfig config;
  config.chip = request.chip.empty() ? kDefaultROCDLChip.str() : request.chip;
  config.optLevel = request.optLevel;
  config.features = request.features;
  if (llvm::Error error = checkOptLevel(request.optLevel))
    return std::move(error);
  if (llvm::Error error = checkToolkit(request.toolkit))
    return std::move(error);
  if (StringRef(config.chip).contains(':'))
    return makeError("chip '" + config.chip +
                     "' has target-id features; give the chip alone and the "
                     "features as features=+xnack,-sramecc");

  auto info = getSubtargetInfo("ROCDL", kAMDGCNTriple, config.chip, "amdgcn");
  if (!info)
    return info.takeError();
  auto features = parseFeatures(**info, "AMDGPU", request.features, "amdgcn");
  if (!features)
    return features.takeError();

  // Wavefront size: 64 on gfx9 and older, 32 by default on gfx10 and newer.
  llvm::AMDGPU::GPUKind kind = llvm::AMDGPU::parseArchAMDGCN(config.chip);
  bool supportsWave32 =
      llvm::AMDGPU::getArchAttrAMDGCN(kind) & llvm::AMDGPU::FEATURE_WAVE32;
  config.wave64 = !supportsWave32;
  for (const FeatureItem &item : *features) {
    if (item.name == "wavefrontsize64")
      config.wave64 = item.enable;
    else if (item.name == "wavefrontsize32")
      config.wave64 = !item.enable;
  }
  if (!config.wave64 && !supportsWave32)
    return makeError("chip " + config.chip +
                     " has no 32-lane wavefronts (features ask for "
                     "wavefrontsize32)");
  config.subgroupSize = config.wave64 ? 64 : 32;

  // Code object version: the generic chips need v6; otherwise one the HIP
  // runtime can load.
  bool generic = StringRef(config.chip).ends_with("-generic");
  config.conversionChip = config.chip;
  if (generic) {
    std::optional<StringRef> first = getFirstChipOfGeneric(config.chip);
    if (!first)
      return makeError("generic chip " + config.chip +
                       " is not supported; choose a specific chip");
    config.conversionChip = first->str();
  }
  std::optional<HIPRuntimeInfo> runtime = findHIPRuntime();
  if (request.codeObjectVersion != 0) {
    if (request.codeObjectVersion < 4 || request.codeObjectVersion > 6)
      return makeError(
          "code-object-version=" + llvm::Twine(request.codeObjectVersion) +
          " is not supported (4, 5 or 6)");
    if (generic && request.codeObjectVersion < 6)
      return makeError("chip " + config.chip +
                       " needs code object version 6, but "
                       "code-object-version=" +
                       llvm::Twine(request.codeObjectVersion) + " was given");
    config.codeObjectVersion = request.codeObjectVersion;
  } else if (generic) {
    config.codeObjectVersion = 6;
    if (runtime &&
        (runtime->major < 6 || (runtime->major == 6 && runtime->minor < 3)))
      return makeError(llvm::formatv(
          "chip {0} needs code object version 6, which the HIP runtime {1}.{2} "
          "at {3} cannot load (it needs 6.3 or newer); choose a specific chip",
          config.chip, runtime->major, runtime->minor, runtime->path));
    config.notes.push_back("code object v6 (the generic chip " + config.chip +
                           " needs it)");
  } else if (runtime && runtime->major < 6) {
    config.codeObjectVersion = 4;
    config.notes.push_back(llvm::formatv(
        "code object v4 for the HIP runtime {0}.{1} at {2} (older than 6.0)",
        runtime->major, runtime->minor, runtime->path));
  } else {
    config.codeObjectVersion = 5;
    config.notes.push_back(
        runtime ? llvm::formatv("code object v5 for the HIP runtime {0}.{1} "
                                "at {2}",
                                runtime->major, runtime->minor, runtime->path)
                      .str()
                : std::string("code object v5 (no HIP runtime found)"));
  }

  // The image format.
  std::string format = request.format;
  if (format.empty() || format == "binary")
    format = "bin";
  else if (format == "assembly")
    format = "isa";
  if (format != "bin" && format != "isa")
    return makeError("format '" + request.format +
                     "' is not one of bin (HSACO) or isa for ROCDL");
  config.format = format;

  // The toolkit: device libraries and ld.lld.
  if (!request.toolkit.empty()) {
    config.toolkit = request.toolkit;
  } else {
    for (const std::string &dir : getROCmToolkitCandidates())
      if (hasLinker(dir) || hasDeviceLibraries(dir)) {
        config.toolkit = dir;
        break;
      }
    if (config.toolkit.empty())
      return makeError(
          "no ROCm toolkit found: none of $ROCM_PATH, $ROCM_ROOT, $ROCM_HOME, "
          "/opt/rocm" +
          (getBuiltROCmToolkitDir().empty()
               ? std::string()
               : " or " + getBuiltROCmToolkitDir().str()) +
          " has amdgcn/bitcode/ocml.bc or llvm/bin/ld.lld (make one with "
          "scripts/rocm-toolkit.sh and pass it as toolkit=)");
    config.notes.push_back("toolkit " + config.toolkit);
  }
  if (format == "bin" && !hasLinker(config.toolkit))
    return makeError("format=bin needs ld.lld, but toolkit " + config.toolkit +
                     " has no llvm/bin/ld.lld (scripts/rocm-toolkit.sh " +
                     config.toolkit + " links LLVM's)");
  if (!hasDeviceLibraries(config.toolkit))
    config.notes.push_back(
        "toolkit " + config.toolkit +
        " has no AMD device libraries (amdgcn/bitcode/ocml.bc, ockl.bc; "
        "Debian: rocm-device-libs): kernels that read gpu.block_dim without "
        "a known block size or call math functions will not link");
  return config;
}
