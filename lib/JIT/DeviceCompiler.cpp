//===- DeviceCompiler.cpp - JIT compilation for CUDA and HIP devices ------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// See DeviceCompiler.h. The PTX and HSACO come from upstream's
// `#nvvm.target` / `#rocdl.target` serialization
// (mlir/lib/Target/LLVM/NVVM/Target.cpp, mlir/lib/Target/LLVM/ROCDL/Target.cpp:
// LLVM IR translation, bitcode libraries, the LLVM backend, and for ROCDL
// the assembler and ld.lld). The cubin step follows Proteus
// (https://github.com/Olympus-HPC/proteus, its CUDA JIT backend): the PTX of
// the specialization goes to nvJitLink with `-arch=sm_XY` and the linked
// cubin is what gets cached and loaded. nvJitLink is loaded with dlopen, so
// nothing here needs the CUDA toolkit to build.
//
//===----------------------------------------------------------------------===//

#include "DeviceCompiler.h"

#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Toolkit.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <dlfcn.h>
#include <memory>
#include <mutex>

using namespace mlir;
using namespace offloadjit;
using llvm::StringRef;

static llvm::Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// A string property of \p Device.
static llvm::Expected<std::string> getDeviceString(offload_device_handle_t D,
                                                   offload_device_info_t Prop,
                                                   StringRef What) {
  size_t Size = 0;
  if (offload_result_t R = offloadGetDeviceInfoSize(D, Prop, &Size))
    return makeError("cannot read the device's " + What + ": " +
                     (R->Details ? R->Details : "unknown error"));
  std::string Value(Size, '\0');
  if (offload_result_t R = offloadGetDeviceInfo(D, Prop, Size, Value.data()))
    return makeError("cannot read the device's " + What + ": " +
                     (R->Details ? R->Details : "unknown error"));
  Value.resize(strnlen(Value.c_str(), Size));
  return Value;
}

//===----------------------------------------------------------------------===//
// nvJitLink
//===----------------------------------------------------------------------===//

namespace {
/// The part of nvJitLink's C API (nvJitLink.h, CUDA 12 and 13) the JIT uses,
/// resolved with dlsym. Results are nvJitLinkResult values (0 is success).
struct NVJitLink {
  using Handle = void *;
  int (*Create)(Handle *, uint32_t, const char **) = nullptr;
  int (*Destroy)(Handle *) = nullptr;
  int (*AddData)(Handle, int, const void *, size_t, const char *) = nullptr;
  int (*Complete)(Handle) = nullptr;
  int (*GetLinkedCubinSize)(Handle, size_t *) = nullptr;
  int (*GetLinkedCubin)(Handle, void *) = nullptr;
  int (*GetErrorLogSize)(Handle, size_t *) = nullptr;
  int (*GetErrorLog)(Handle, char *) = nullptr;
  /// Since CUDA 12.3; older libraries are versioned by their file name.
  int (*Version)(unsigned *, unsigned *) = nullptr;

  std::string Path;
  unsigned Major = 0, Minor = 0;
  /// Why it is not usable (empty when it is).
  std::string Problem;

  std::string getName() const {
    return llvm::formatv("nvjitlink-{0}.{1}", Major, Minor).str();
  }
};
} // namespace

/// nvJitLinkInputType's NVJITLINK_INPUT_PTX.
static constexpr int kNVJitLinkInputPTX = 2;

/// The name of an nvJitLinkResult (nvJitLink.h of CUDA 13).
static StringRef getNVJitLinkResultName(int Result) {
  static constexpr StringRef Names[] = {"NVJITLINK_SUCCESS",
                                        "NVJITLINK_ERROR_UNRECOGNIZED_OPTION",
                                        "NVJITLINK_ERROR_MISSING_ARCH",
                                        "NVJITLINK_ERROR_INVALID_INPUT",
                                        "NVJITLINK_ERROR_PTX_COMPILE",
                                        "NVJITLINK_ERROR_NVVM_COMPILE",
                                        "NVJITLINK_ERROR_INTERNAL",
                                        "NVJITLINK_ERROR_THREADPOOL",
                                        "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
                                        "NVJITLINK_ERROR_FINALIZE",
                                        "NVJITLINK_ERROR_NULL_INPUT",
                                        "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
                                        "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE",
                                        "NVJITLINK_ERROR_ARCH_MISMATCH",
                                        "NVJITLINK_ERROR_OUTDATED_LIBRARY",
                                        "NVJITLINK_ERROR_MISSING_FATBIN",
                                        "NVJITLINK_ERROR_UNRECOGNIZED_ARCH",
                                        "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
                                        "NVJITLINK_ERROR_LTO_NOT_ENABLED"};
  if (Result >= 0 && Result < static_cast<int>(std::size(Names)))
    return Names[Result];
  return "NVJITLINK_ERROR_UNKNOWN";
}

/// Resolves nvJitLink's entry points in the library \p Handle from \p Path.
static NVJitLink resolveNVJitLink(void *Handle, StringRef Path) {
  NVJitLink Lib;
  Lib.Path = Path.str();
  auto Get = [&](auto &Fn, const char *Name) {
    Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
        dlsym(Handle, Name));
    if (!Fn && Lib.Problem.empty())
      Lib.Problem = Lib.Path + " lacks " + Name;
  };
  Get(Lib.Create, "nvJitLinkCreate");
  Get(Lib.Destroy, "nvJitLinkDestroy");
  Get(Lib.AddData, "nvJitLinkAddData");
  Get(Lib.Complete, "nvJitLinkComplete");
  Get(Lib.GetLinkedCubinSize, "nvJitLinkGetLinkedCubinSize");
  Get(Lib.GetLinkedCubin, "nvJitLinkGetLinkedCubin");
  Get(Lib.GetErrorLogSize, "nvJitLinkGetErrorLogSize");
  Get(Lib.GetErrorLog, "nvJitLinkGetErrorLog");
  Lib.Version = reinterpret_cast<int (*)(unsigned *, unsigned *)>(
      dlsym(Handle, "nvJitLinkVersion"));
  if (!Lib.Version || Lib.Version(&Lib.Major, &Lib.Minor) != 0) {
    // libnvJitLink.so.12: version 12.0 at least.
    StringRef Name = llvm::sys::path::filename(Path);
    size_t Dot = Name.find(".so.");
    if (Dot == StringRef::npos ||
        Name.drop_front(Dot + 4).consumeInteger(10, Lib.Major))
      Lib.Major = 12;
    Lib.Minor = 0;
  }
  return Lib;
}

/// The nvJitLink library to use: OFFLOAD_JIT_NVJITLINK (a path, or 0 for
/// none), else libnvJitLink.so.13 or .12 from the loader's path or a CUDA
/// toolkit ($CUDA_HOME, $CUDA_PATH, $CUDA_ROOT, /usr/local/cuda; lib64).
/// Loaded once per setting.
static const NVJitLink &getNVJitLink() {
  static std::mutex Mutex;
  static llvm::StringMap<std::unique_ptr<NVJitLink>> Loaded;
  std::string Setting = ::offload::env::JITNVJitLink.getText();
  StringRef Choice = Setting;
  std::lock_guard<std::mutex> Lock(Mutex);
  std::unique_ptr<NVJitLink> &Slot = Loaded[Choice];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<NVJitLink>();
  if (Choice == "0") {
    Slot->Problem = "OFFLOAD_JIT_NVJITLINK=0";
    return *Slot;
  }
  llvm::SmallVector<std::string> Candidates;
  if (!Choice.empty()) {
    Candidates.push_back(Choice.str());
  } else {
    for (StringRef Name : {"libnvJitLink.so.13", "libnvJitLink.so.12"})
      Candidates.push_back(Name.str());
    for (const std::string &Dir : ::offload::toolkit::getCUDAToolkitDirs())
      for (StringRef Name : {"libnvJitLink.so.13", "libnvJitLink.so.12"})
        Candidates.push_back((Dir + "/lib64/" + Name).str());
  }
  std::string Errors;
  for (const std::string &Path : Candidates) {
    void *Handle = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      if (const char *Message = dlerror(); Message && Errors.empty())
        Errors = Message;
      continue;
    }
    *Slot = resolveNVJitLink(Handle, Path);
    return *Slot;
  }
  Slot->Problem =
      Choice.empty()
          ? "no libnvJitLink.so.13 or .12 in the loader's path "
            "or a CUDA toolkit's lib64"
          : "cannot load OFFLOAD_JIT_NVJITLINK=" + Choice.str() + ": " + Errors;
  return *Slot;
}

/// Creates an nvJitLink handle for \p Chip at optimization level
/// \p OptLevel.
static llvm::Expected<NVJitLink::Handle>
createNVJitLink(const NVJitLink &Lib, StringRef Chip, unsigned OptLevel) {
  std::string Arch = ("-arch=" + Chip).str();
  std::string Opt = "-O" + std::to_string(OptLevel);
  const char *Options[] = {Arch.c_str(), Opt.c_str()};
  NVJitLink::Handle Handle = nullptr;
  if (int R = Lib.Create(&Handle, 2, Options))
    return makeError(Lib.getName() + " (" + Lib.Path + ") rejects " + Arch +
                     ": " + getNVJitLinkResultName(R));
  return Handle;
}

/// Assembles \p PTX into a cubin for \p Chip with nvJitLink.
static llvm::Expected<llvm::SmallVector<char, 0>>
assembleWithNVJitLink(const NVJitLink &Lib, StringRef PTX, StringRef Chip,
                      unsigned OptLevel) {
  llvm::Expected<NVJitLink::Handle> Created =
      createNVJitLink(Lib, Chip, OptLevel);
  if (!Created)
    return Created.takeError();
  NVJitLink::Handle Handle = *Created;
  llvm::scope_exit Destroy([&] { Lib.Destroy(&Handle); });
  auto Fail = [&](StringRef Call, int R) -> llvm::Error {
    std::string Log;
    size_t Size = 0;
    if (Lib.GetErrorLogSize(Handle, &Size) == 0 && Size > 1) {
      Log.resize(Size);
      if (Lib.GetErrorLog(Handle, Log.data()) == 0)
        Log.resize(strnlen(Log.c_str(), Size));
      else
        Log.clear();
    }
    return makeError(Lib.getName() + " " + Call + " failed for " + Chip + ": " +
                     getNVJitLinkResultName(R) +
                     (Log.empty() ? "" : "; log:\n" + StringRef(Log).rtrim()));
  };
  // nvJitLink takes PTX as a NUL-terminated string, the NUL included in the
  // size.
  std::string Text = PTX.str();
  if (int R = Lib.AddData(Handle, kNVJitLinkInputPTX, Text.c_str(),
                          Text.size() + 1, "offload-jit.ptx"))
    return Fail("nvJitLinkAddData", R);
  if (int R = Lib.Complete(Handle))
    return Fail("nvJitLinkComplete", R);
  size_t Size = 0;
  if (int R = Lib.GetLinkedCubinSize(Handle, &Size))
    return Fail("nvJitLinkGetLinkedCubinSize", R);
  llvm::SmallVector<char, 0> Cubin(Size);
  if (int R = Lib.GetLinkedCubin(Handle, Cubin.data()))
    return Fail("nvJitLinkGetLinkedCubin", R);
  return Cubin;
}

//===----------------------------------------------------------------------===//
// Targets
//===----------------------------------------------------------------------===//

/// Splits a HIP target id (`gfx90a:sramecc+:xnack-`) into the chip and LLVM
/// features (`+sramecc,-xnack`).
static llvm::Expected<std::pair<std::string, std::string>>
parseTargetID(StringRef TargetID) {
  llvm::SmallVector<StringRef> Parts;
  TargetID.split(Parts, ':');
  std::string Features;
  for (StringRef Part : llvm::drop_begin(Parts)) {
    if (Part.size() < 2 || (Part.back() != '+' && Part.back() != '-'))
      return makeError("target id '" + TargetID + "' has a feature '" + Part +
                       "' that is neither NAME+ nor NAME-");
    if (!Features.empty())
      Features += ",";
    Features += Part.back();
    Features += Part.drop_back().str();
  }
  return std::make_pair(Parts.front().str(), Features);
}

/// The code object version the HIP runtime of \p Device loads: v4 before
/// HIP 6, v5 from it on; 0 (the resolver's choice) if its version is unknown.
static unsigned getCodeObjectVersion(offload_device_handle_t Device) {
  llvm::Expected<std::string> Version =
      getDeviceString(Device, OFFLOAD_DEVICE_INFO_DRIVER_VERSION, "version");
  if (!Version) {
    llvm::consumeError(Version.takeError());
    return 0;
  }
  StringRef Text(*Version); // "HIP 6.2.0"
  unsigned Major = 0;
  if (!Text.consume_front("HIP ") || Text.consumeInteger(10, Major))
    return 0;
  return Major < 6 ? 4 : 5;
}

llvm::Expected<DeviceTarget>
offloadjit::getDeviceTarget(offload_device_handle_t Device,
                            offload_platform_backend_t Backend) {
  using mlir::offload::GPUKernelTarget;
  bool CUDA = Backend == OFFLOAD_PLATFORM_BACKEND_CUDA;
  if (!CUDA && Backend != OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    return makeError("the JIT compiles for host, CUDA and HIP devices only");
  llvm::Expected<std::string> Arch =
      getDeviceString(Device, OFFLOAD_DEVICE_INFO_ARCHITECTURE, "architecture");
  if (!Arch)
    return Arch.takeError();
  std::string Name = "";
  if (llvm::Expected<std::string> N =
          getDeviceString(Device, OFFLOAD_DEVICE_INFO_NAME, "name"))
    Name = *N;
  else
    llvm::consumeError(N.takeError());

  DeviceTarget Target;
  mlir::offload::GPUTargetRequest Request;
  Request.optLevel = 3;
  if (CUDA) {
    if (!StringRef(*Arch).starts_with("sm_"))
      return makeError("CUDA device '" + Name + "' reports the architecture '" +
                       *Arch +
                       "', not a chip name sm_XY the JIT can compile "
                       "for");
    Target.Kind = GPUKernelTarget::NVVM;
    Request.chip = *Arch;
    Request.format = "isa";
    llvm::Expected<mlir::offload::GPUTargetConfig> Config =
        mlir::offload::resolveNVVMTarget(Request);
    if (!Config)
      return makeError("cannot compile for CUDA device '" + Name +
                       "': " + llvm::toString(Config.takeError()));
    Target.Config = std::move(*Config);
    const NVJitLink &Lib = getNVJitLink();
    Target.AssemblerName = "driver-jit";
    if (Lib.Problem.empty()) {
      // Probe the chip once: nvJitLink drops old chips (CUDA 13: sm_75 on).
      llvm::Expected<NVJitLink::Handle> Probe =
          createNVJitLink(Lib, Target.Config.chip, Target.Config.optLevel);
      if (Probe) {
        Lib.Destroy(&*Probe);
        Target.Assembler = CUDAAssembler::NVJitLink;
        Target.AssemblerName = Lib.getName();
      } else {
        llvm::consumeError(Probe.takeError());
      }
    }
    Target.Key = "cuda;nvptx64-nvidia-cuda;" + Target.Config.chip + ";" +
                 Target.Config.features + ";O" +
                 std::to_string(Target.Config.optLevel) + ";" +
                 Target.AssemblerName + ";toolkit=" + Target.Config.toolkit;
    return Target;
  }

  if (!StringRef(*Arch).starts_with("gfx"))
    return makeError("HIP device '" + Name + "' reports the architecture '" +
                     *Arch + "', not a gfx target id the JIT can compile for");
  llvm::Expected<std::pair<std::string, std::string>> ID = parseTargetID(*Arch);
  if (!ID)
    return ID.takeError();
  Target.Kind = GPUKernelTarget::ROCDL;
  Request.chip = ID->first;
  Request.features = ID->second;
  Request.format = "bin";
  Request.codeObjectVersion = getCodeObjectVersion(Device);
  llvm::Expected<mlir::offload::GPUTargetConfig> Config =
      mlir::offload::resolveROCDLTarget(Request);
  if (!Config)
    return makeError("cannot compile for HIP device '" + Name +
                     "': " + llvm::toString(Config.takeError()));
  Target.Config = std::move(*Config);
  llvm::SmallString<256> Linker(Target.Config.toolkit);
  llvm::sys::path::append(Linker, "llvm", "bin", "ld.lld");
  Target.AssemblerName = ("ld.lld:" + Linker).str();
  Target.Key = "hip;amdgcn-amd-amdhsa;" + Target.Config.chip + ";" +
               Target.Config.features + ";O" +
               std::to_string(Target.Config.optLevel) + ";cov" +
               std::to_string(Target.Config.codeObjectVersion) +
               (Target.Config.wave64 ? ";wave64;" : ";wave32;") +
               Target.AssemblerName + ";toolkit=" + Target.Config.toolkit;
  return Target;
}

//===----------------------------------------------------------------------===//
// Compilation
//===----------------------------------------------------------------------===//

static void writeDump(StringRef Path, StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (!EC)
    Out << Text;
}

llvm::Expected<llvm::SmallVector<char, 0>>
offloadjit::compileForDevice(ModuleOp Module, gpu::GPUModuleOp Kernels,
                             const DeviceTarget &Target, StringRef DumpPrefix) {
  bool NVVM = Target.Kind == mlir::offload::GPUKernelTarget::NVVM;
  StringRef Chip = Target.Config.chip;
  for (gpu::GPUModuleOp Other :
       llvm::make_early_inc_range(Module.getOps<gpu::GPUModuleOp>()))
    if (Other != Kernels)
      Other.erase();

  PassManager PM(Module.getContext());
  mlir::offload::buildGPUKernelPipeline(PM, Target.Kind, Target.Config);
  if (failed(PM.run(Module)))
    return makeError("lowering for " + Chip + " failed");

  ArrayAttr Targets = Kernels.getTargetsAttr();
  auto Interface = Targets && Targets.size() == 1
                       ? dyn_cast<gpu::TargetAttrInterface>(Targets[0])
                       : gpu::TargetAttrInterface();
  if (!Interface)
    return makeError("the gpu.module has no serializable " +
                     StringRef(NVVM ? "#nvvm" : "#rocdl") + ".target");

  if (NVVM) {
    gpu::TargetOptions Options(Target.Config.toolkit, {}, "", "",
                               gpu::CompilationTarget::Assembly);
    std::optional<SmallVector<char, 0>> PTX =
        Interface.serializeToObject(Kernels, Options);
    if (!PTX)
      return makeError("PTX generation for " + Chip + " failed");
    StringRef Text(PTX->data(), strnlen(PTX->data(), PTX->size()));
    if (!DumpPrefix.empty())
      writeDump((DumpPrefix + ".ptx").str(), Text);
    if (Target.Assembler == CUDAAssembler::DriverJIT)
      return std::move(*PTX);
    return assembleWithNVJitLink(getNVJitLink(), Text, Chip,
                                 Target.Config.optLevel);
  }

  // The assembly only for the dump: upstream's ROCDL serializer hands no ISA
  // to the TargetOptions callback when it links a binary.
  if (!DumpPrefix.empty()) {
    gpu::TargetOptions AsmOptions(Target.Config.toolkit, {}, "", "",
                                  gpu::CompilationTarget::Assembly);
    if (std::optional<SmallVector<char, 0>> Assembly =
            Interface.serializeToObject(Kernels, AsmOptions))
      writeDump((DumpPrefix + ".amdgcn").str(),
                StringRef(Assembly->data(),
                          strnlen(Assembly->data(), Assembly->size())));
  }
  gpu::TargetOptions Options(Target.Config.toolkit, {}, "", "",
                             gpu::CompilationTarget::Binary);
  std::optional<SmallVector<char, 0>> HSACO =
      Interface.serializeToObject(Kernels, Options);
  if (!HSACO)
    return makeError("HSACO generation for " + Chip + " failed");
  return std::move(*HSACO);
}
