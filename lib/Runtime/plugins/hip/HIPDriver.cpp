//===- HIPDriver.cpp - The HIP runtime behind the HIP plugin --------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The HIP plugin runs kernels (HSACO code objects) on AMD GPUs through the HIP
// runtime's module API: gpu::Driver (../common/GPUPlugin.h) over
// libamdhip64.so (or .so.7, .6, .5), found in the directories of
// offload::toolkit::getROCmLibraryDirs ($LD_LIBRARY_PATH, $ROCM_PATH/lib,
// /opt/rocm/lib, the system library directories) and resolved through
// HIPSymbols.def; OFFLOAD_HIP_LIBRARY overrides the path. The types and
// constants used are declared in HIPTypes.h: no HIP header is needed to
// build. Without a HIP runtime, or without an AMD GPU, the platform has no
// devices (OFFLOAD_TRACE=1 says why).
//
//===----------------------------------------------------------------------===//

#include "HIPTypes.h"

#include "../../Config.h"
#include "../Plugins.h"
#include "../common/DynamicLibrary.h"
#include "../common/GPUPlugin.h"
#include "../common/ImageCheck.h"
#include "../common/VendorDriver.h"
#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Error.h"
#include "OffloadSupport/Toolkit.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>

using namespace llvm;
using namespace offload;
using namespace offload::gpu;
using namespace offload::hip;
using namespace offload::plugin;

namespace {

struct HIPSymbols {
#define HIP_SYMBOL OFFLOAD_VENDOR_SYMBOL
#include "HIPSymbols.def"
};

/// The entry points and constants of the operations the HIP plugin shares
/// with the CUDA plugin (../common/VendorDriver.h).
struct HIPEntryPoints {
  using Symbols = HIPSymbols;
  static constexpr const char *PlatformName = "hip", *APIName = "HIP",
                              *VendorName = "Advanced Micro Devices, Inc.";
  static constexpr offload_platform_backend_t Backend =
      OFFLOAD_PLATFORM_BACKEND_AMDGPU;
  static constexpr uintptr_t LaunchParamBufferPointer =
      HipLaunchParamBufferPointer;
  static constexpr uintptr_t LaunchParamBufferSize = HipLaunchParamBufferSize;
  static constexpr uintptr_t LaunchParamEnd = HipLaunchParamEnd;
  static constexpr int NotFound = hipErrorNotFound;
  static constexpr unsigned StreamFlags = hipStreamNonBlocking;
  static constexpr unsigned EventFlags = hipEventDefault;
  static constexpr unsigned EventFlagsNoTiming = hipEventDisableTiming;
  static constexpr unsigned HostRegisterFlags = hipHostRegisterPortable;
  static constexpr unsigned HostAllocFlags = hipHostMallocDefault;
  static constexpr unsigned ManagedFlags = hipMemAttachGlobal;
  static constexpr int FuncSharedSizeAttribute =
      HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
  static constexpr int CooperativeLaunchAttribute =
      hipDeviceAttributeCooperativeLaunch;
#define HIP_ENTRY(Op, Member) OFFLOAD_VENDOR_ENTRY(HIPSymbols, Op, Member)
  HIP_ENTRY(DeviceGetAttribute, hipDeviceGetAttribute)
  HIP_ENTRY(DeviceTotalMem, hipDeviceTotalMem)
  HIP_ENTRY(MemAlloc, hipMalloc)
  HIP_ENTRY(MemAllocHost, hipHostMalloc)
  HIP_ENTRY(MemAllocManaged, hipMallocManaged)
  HIP_ENTRY(MemFree, hipFree)
  HIP_ENTRY(MemFreeHost, hipHostFree)
  HIP_ENTRY(HostRegister, hipHostRegister)
  HIP_ENTRY(HostUnregister, hipHostUnregister)
  HIP_ENTRY(MemsetD8Async, hipMemsetD8Async)
  HIP_ENTRY(MemsetD16Async, hipMemsetD16Async)
  HIP_ENTRY(MemsetD32Async, hipMemsetD32Async)
  HIP_ENTRY(StreamCreate, hipStreamCreateWithFlags)
  HIP_ENTRY(StreamDestroy, hipStreamDestroy)
  HIP_ENTRY(StreamSynchronize, hipStreamSynchronize)
  HIP_ENTRY(StreamQuery, hipStreamQuery)
  HIP_ENTRY(StreamWaitEvent, hipStreamWaitEvent)
  /// Optional (not in HIP 5.2): HIPDriver::launchHostFunction falls back to
  /// hipStreamAddCallback.
  HIP_ENTRY(LaunchHostFunc, hipLaunchHostFunc)
  HIP_ENTRY(EventCreate, hipEventCreateWithFlags)
  HIP_ENTRY(EventDestroy, hipEventDestroy)
  HIP_ENTRY(EventRecord, hipEventRecord)
  HIP_ENTRY(EventSynchronize, hipEventSynchronize)
  HIP_ENTRY(EventQuery, hipEventQuery)
  HIP_ENTRY(EventElapsedTime, hipEventElapsedTime)
  HIP_ENTRY(ModuleGetFunction, hipModuleGetFunction)
  HIP_ENTRY(ModuleGetGlobal, hipModuleGetGlobal)
  HIP_ENTRY(FuncGetAttribute, hipFuncGetAttribute)
  HIP_ENTRY(LaunchKernel, hipModuleLaunchKernel)
  HIP_ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor,
            hipModuleOccupancyMaxActiveBlocksPerMultiprocessor)
  HIP_ENTRY(LaunchCooperativeKernel, hipModuleLaunchCooperativeKernel)
#undef HIP_ENTRY
};

class HIPDriver final : public VendorDriver<HIPEntryPoints> {
public:
  HIPDriver() : VendorDriver(hipErrorNotReady) {}

  std::string getVersion() const override {
    // HIP_VERSION: major * 10000000 + minor * 100000 + patch.
    return formatv("HIP {0}.{1}.{2}", RuntimeVersion / 10000000,
                   (RuntimeVersion / 100000) % 100, RuntimeVersion % 100000)
        .str();
  }

  DriverStatus initialize() override;

  Expected<void *> retainContext(int Ordinal) override;
  Error releaseContext(int Ordinal, void *Context) override;
  Error makeCurrent(int Ordinal, void *Context) override;
  Expected<DeviceInfo> queryDeviceInfo(int Ordinal) override;
  bool supportsStreamWaitValue(int Ordinal) override;

  PointerKind classify(const void *Ptr) override;
  Error memcpyAsync(void *Dst, const void *Src, size_t Size,
                    void *Stream) override;
  Error memset2D32Async(void *Ptr, size_t Pitch, uint32_t Value, size_t Height,
                        void *Stream) override {
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "HIP has no strided 32-bit memset");
  }

  Error streamWaitValue32(void *Stream, uint32_t *Address,
                          uint32_t Value) override;
  Error prefetch(int Ordinal, const void *Ptr, size_t Size, bool ToDevice,
                 void *Stream) override;
  bool isManaged(const void *Ptr) override;
  Error launchHostFunction(void *Stream, HostFn Fn, void *UserData) override;

  bool isValidBinary(StringRef Image) const override;
  Expected<void *> loadModule(StringRef Image) override;
  Error unloadModule(void *Module) override;
  /// HIP (5.2 to 7) has no query for a kernel's parameters: they come from
  /// the `amdhsa.kernels` metadata of the code object the module was loaded
  /// from (readKernelArguments).
  Expected<std::vector<ParameterSlot>>
  getParameterLayout(void *Module, void *Function, StringRef Name) override;
  Error setMaxDynamicSharedBytes(void *Function, uint64_t Bytes) override {
    // AMD GPUs give a kernel all of the LDS without an opt-in.
    return Error::success();
  }
  std::optional<Expected<uint64_t>>
  getOptimalBlockSize(void *Function, size_t SharedMemoryPerThread) override;

private:
  std::pair<std::string, std::string> describe(int R) const override;
  offload_errc_t getErrorCode(int R) const override;

  std::optional<DynamicLibrary> Library;
  /// The code object of each loaded module, for its kernels' metadata.
  std::mutex ImagesMutex;
  llvm::DenseMap<void *, std::string> Images;
  int RuntimeVersion = 0;
};

} // namespace

offload_errc_t HIPDriver::getErrorCode(int R) const {
  switch (R) {
  case hipErrorOutOfMemory:
  case hipErrorLaunchOutOfResources:
    return OFFLOAD_ERRC_OUT_OF_RESOURCES;
  case hipErrorInvalidImage:
  case hipErrorNoBinaryForGpu:
  case hipErrorInvalidKernelFile:
  case hipErrorSharedObjectInitFailed:
    return OFFLOAD_ERRC_INVALID_BINARY;
  case hipErrorNotFound:
    return OFFLOAD_ERRC_NOT_FOUND;
  case hipErrorNotSupported:
    return OFFLOAD_ERRC_UNSUPPORTED;
  case hipErrorInvalidValue:
    return OFFLOAD_ERRC_INVALID_ARGUMENT;
  default:
    return OFFLOAD_ERRC_BACKEND_FAILURE;
  }
}

std::pair<std::string, std::string> HIPDriver::describe(int R) const {
  const char *Name = Sym.hipGetErrorName ? Sym.hipGetErrorName(R) : nullptr;
  const char *Description =
      Sym.hipGetErrorString ? Sym.hipGetErrorString(R) : nullptr;
  return {Name ? std::string(Name) : formatv("hipError_t {0}", R).str(),
          Description ? std::string(Description) : std::string()};
}

/// Where the HIP runtime is looked for: each directory of
/// offload::toolkit::getROCmLibraryDirs with the development name and the
/// versioned ones, where the file exists; then the plain names, for the
/// dynamic loader's own search (ld.so.cache).
static std::vector<std::string> getHIPCandidates() {
  static const char *Names[] = {"libamdhip64.so", "libamdhip64.so.7",
                                "libamdhip64.so.6", "libamdhip64.so.5"};
  std::vector<std::string> Candidates;
  for (const std::string &Dir : toolkit::getROCmLibraryDirs())
    for (const char *Name : Names) {
      std::string Path = Dir + "/" + Name;
      if (sys::fs::exists(Path) && !llvm::is_contained(Candidates, Path))
        Candidates.push_back(Path);
    }
  for (const char *Name : Names)
    Candidates.push_back(Name);
  return Candidates;
}

DriverStatus HIPDriver::initialize() {
  DriverStatus Status;
  std::optional<std::string> Override = env::HIPLibrary.raw();
  // Every HIP runtime on Linux reaches AMD GPUs through the amdgpu kernel
  // driver's /dev/kfd. Without it there is no device to find, and loading
  // the runtime and calling hipInit only costs every process that
  // initializes the offload runtime 25-30 ms (Debian's HIP 5.2 on a machine
  // without an AMD GPU). OFFLOAD_HIP_LIBRARY loads a runtime regardless.
  if (!Override && !sys::fs::exists("/dev/kfd")) {
    Status.Message = "no AMD GPU kernel driver (/dev/kfd does not exist), so "
                     "the HIP runtime was not loaded (OFFLOAD_HIP_LIBRARY "
                     "loads one anyway)";
    return Status;
  }
  std::vector<std::string> Candidates =
      Override ? std::vector<std::string>{*Override} : getHIPCandidates();
  std::string Why;
  Library = DynamicLibrary::open(Candidates, Why);
  if (!Library) {
    Status.Message =
        Override
            ? "OFFLOAD_HIP_LIBRARY=" + *Override + " cannot be loaded: " + Why
            : "libamdhip64.so (or .so.7, .so.6, .so.5) not found in "
              "$LD_LIBRARY_PATH, " +
                  toolkit::getROCmSearchText("/lib") +
                  " or the system library directories: " +
                  StringRef(Why).split("; ").first.str();
    return Status;
  }
  const std::string &Path = Library->getPath();
  Sym = HIPSymbols();
  std::string Missing;
#define HIP_SYMBOL OFFLOAD_VENDOR_RESOLVE
#include "HIPSymbols.def"
  // Host functions: hipLaunchHostFunc is newer than HIP 5.2, which has
  // hipStreamAddCallback only.
  if (!Sym.hipLaunchHostFunc && !Sym.hipStreamAddCallback)
    Missing += std::string(Missing.empty() ? "" : ", ") +
               "hipLaunchHostFunc (or hipStreamAddCallback)";
  if (!Missing.empty()) {
    Status.Message = Path + " is not a usable HIP runtime: it lacks " + Missing;
    Library.reset();
    return Status;
  }
  // The version needs no device (nor hipInit), so the status says which
  // runtime found none.
  if (Sym.hipRuntimeGetVersion(&RuntimeVersion) != hipSuccess)
    RuntimeVersion = 0;
  std::string Runtime = getVersion() + " runtime at " + Path;
  hipError_t R = Sym.hipInit(0);
  // Without a GPU (no /dev/kfd) HIP 5.2 answers hipErrorInvalidDevice, later
  // versions hipErrorNoDevice.
  if (R == hipErrorNoDevice || R == hipErrorInvalidDevice) {
    Status.Message =
        Runtime + ": hipInit: " + describe(R).first + " (no usable GPU)";
    return Status;
  }
  if (Error E = check(R, "hipInit")) {
    Status.Message = toString(std::move(E)) + " (" + Runtime + ")";
    return Status;
  }
  if (!Sym.hipLaunchHostFunc)
    trace::printLine(Runtime + ": the driver's host callbacks are "
                               "hipStreamAddCallback (no hipLaunchHostFunc)");
  int Count = 0;
  R = Sym.hipGetDeviceCount(&Count);
  if (R == hipErrorNoDevice)
    Count = 0;
  else if (Error E = check(R, "hipGetDeviceCount")) {
    Status.Message = toString(std::move(E)) + " (" + Runtime + ")";
    return Status;
  }
  Status.NumDevices = std::max(Count, 0);
  Status.Message = Runtime;
  if (!Count)
    Status.Message += ": hipGetDeviceCount found no device";
  return Status;
}

Expected<void *> HIPDriver::retainContext(int Ordinal) {
  // HIP has a current device per thread, no contexts to hold: the ordinal
  // plus one stands for the device (never null).
  return reinterpret_cast<void *>(static_cast<uintptr_t>(Ordinal) + 1);
}

Error HIPDriver::releaseContext(int Ordinal, void *Context) {
  return Error::success();
}

Error HIPDriver::makeCurrent(int Ordinal, void *Context) {
  int Current = -1;
  if (Sym.hipGetDevice(&Current) == hipSuccess && Current == Ordinal)
    return Error::success();
  return check(Sym.hipSetDevice(Ordinal), "hipSetDevice");
}

/// Finds the "gfx..." architecture name in the bytes of a hipDeviceProp_t
/// (its offset differs between HIP 5 and 6).
static std::string findArchName(const char *Props, size_t Size) {
  for (size_t I = 256; I + 8 < Size; ++I) {
    if (Props[I - 1] != '\0' || std::strncmp(Props + I, "gfx", 3) != 0)
      continue;
    size_t Length = strnlen(Props + I, Size - I);
    if (Length >= Size - I || Length > 64)
      continue;
    return std::string(Props + I, Length);
  }
  return "";
}

Expected<DeviceInfo> HIPDriver::queryDeviceInfo(int Ordinal) {
  auto Attribute = [&](int Attr) { return getAttribute(Attr, Ordinal); };
  DeviceInfo Info;
  char Name[256] = {0};
  if (Error E = check(Sym.hipDeviceGetName(Name, sizeof(Name) - 1, Ordinal),
                      "hipDeviceGetName"))
    return std::move(E);
  Info.ProductName = Name;
  Info.Name = Name;
  if (Sym.hipGetDeviceProperties) {
    std::vector<char> Props(16384, '\0');
    if (Sym.hipGetDeviceProperties(Props.data(), Ordinal) == hipSuccess) {
      std::string Arch = findArchName(Props.data(), Props.size());
      if (!Arch.empty())
        Info.Name = Info.Architecture = Arch;
    }
  }
  Info.Vendor = getVendorName().str();
  Info.VendorId = 0x1002;
  Info.DriverVersion = getVersion();
  hipUUID UUID;
  if (Sym.hipDeviceGetUuid &&
      Sym.hipDeviceGetUuid(&UUID, Ordinal) == hipSuccess)
    Info.UID = "GPU-" + toHex(StringRef(UUID.bytes, 16), /*LowerCase=*/true);
  else
    Info.UID = formatv("hip-{0}", Ordinal).str();

  static const GPUAttributes::Codes Codes = {
      hipDeviceAttributeMaxThreadsPerBlock,
      hipDeviceAttributeMaxBlockDimX,
      hipDeviceAttributeMaxBlockDimY,
      hipDeviceAttributeMaxBlockDimZ,
      hipDeviceAttributeMaxGridDimX,
      hipDeviceAttributeMaxGridDimY,
      hipDeviceAttributeMaxGridDimZ,
      hipDeviceAttributeMultiprocessorCount,
      hipDeviceAttributeClockRate,
      hipDeviceAttributeMemoryClockRate,
      hipDeviceAttributeWarpSize,
      hipDeviceAttributeMaxSharedMemoryPerBlock};
  Expected<GPUAttributes> A = GPUAttributes::read(Codes, Attribute);
  if (!A)
    return A.takeError();
  // Every AMD GPU HIP supports has half-precision arithmetic.
  setGPUDeviceInfo(Info, *A, /*HasHalf=*/true);
  // Cooperative grids: hipModuleLaunchCooperativeKernel (HIP 5.5 and newer)
  // where the device supports them.
  if (Error E = queryMemoryAndCooperativeInfo(Info, Ordinal))
    return std::move(E);
  return Info;
}

bool HIPDriver::supportsStreamWaitValue(int Ordinal) {
  if (!Sym.hipStreamWaitValue32)
    return false;
  int Value = 0;
  return Sym.hipDeviceGetAttribute(&Value,
                                   hipDeviceAttributeCanUseStreamWaitValue,
                                   Ordinal) == hipSuccess &&
         Value;
}

PointerKind HIPDriver::classify(const void *Ptr) {
  // hipPointerAttribute_t starts with the memory type in both HIP 5 (host 0,
  // device 1, ...; unknown memory is an error) and HIP 6 (unregistered 0,
  // host 1, device 2, ...).
  alignas(8) char Attributes[256] = {0};
  if (Sym.hipPointerGetAttributes(Attributes, Ptr) != hipSuccess)
    return PointerKind::Pageable;
  int Type;
  std::memcpy(&Type, Attributes, sizeof(Type));
  if (RuntimeVersion >= 60000000 && Type == 0)
    return PointerKind::Pageable;
  return PointerKind::DeviceAccessible;
}

bool HIPDriver::isManaged(const void *Ptr) {
  alignas(8) char Attributes[256] = {0};
  if (Sym.hipPointerGetAttributes(Attributes, Ptr) != hipSuccess)
    return false;
  int Managed;
  std::memcpy(&Managed, Attributes + hipPointerAttributeIsManagedOffset,
              sizeof(Managed));
  return Managed != 0;
}

Error HIPDriver::prefetch(int Ordinal, const void *Ptr, size_t Size,
                          bool ToDevice, void *Stream) {
  // A hint: nothing to do for a runtime without hipMemPrefetchAsync.
  if (!Sym.hipMemPrefetchAsync)
    return Error::success();
  return check(Sym.hipMemPrefetchAsync(Ptr, Size,
                                       ToDevice ? Ordinal : hipCpuDeviceId,
                                       static_cast<hipStream_t>(Stream)),
               "hipMemPrefetchAsync");
}

Error HIPDriver::memcpyAsync(void *Dst, const void *Src, size_t Size,
                             void *Stream) {
  return check(Sym.hipMemcpyAsync(Dst, Src, Size, hipMemcpyDefault,
                                  static_cast<hipStream_t>(Stream)),
               "hipMemcpyAsync");
}

Error HIPDriver::streamWaitValue32(void *Stream, uint32_t *Address,
                                   uint32_t Value) {
  return check(Sym.hipStreamWaitValue32(static_cast<hipStream_t>(Stream),
                                        Address, Value, hipStreamWaitValueGte,
                                        0xffffffffu),
               "hipStreamWaitValue32");
}

namespace {
/// A host function run through hipStreamAddCallback, whose callbacks take the
/// stream and its status too.
struct StreamCallback {
  Driver::HostFn Fn;
  void *UserData;
  static void run(hipStream_t, hipError_t, void *Data) {
    std::unique_ptr<StreamCallback> C(static_cast<StreamCallback *>(Data));
    C->Fn(C->UserData);
  }
};
} // namespace

Error HIPDriver::launchHostFunction(void *Stream, HostFn Fn, void *UserData) {
  auto *S = static_cast<hipStream_t>(Stream);
  if (Sym.hipLaunchHostFunc)
    return VendorDriver::launchHostFunction(Stream, Fn, UserData);
  // HIP 5.2: a stream callback (flags must be 0), in stream order as well.
  auto *C = new StreamCallback{Fn, UserData};
  if (Error E = check(Sym.hipStreamAddCallback(S, StreamCallback::run, C, 0),
                      "hipStreamAddCallback")) {
    delete C;
    return E;
  }
  return Error::success();
}

bool HIPDriver::isValidBinary(StringRef Image) const {
  // An AMDGPU code object (64-bit ELF, EM_AMDGPU) or a clang offload bundle
  // (plain or compressed).
  ImageKind Kind = getImageKind(Image);
  return Kind == ImageKind::OffloadBundle ||
         (Kind == ImageKind::ELF && isELF64For(Image, ELF::EM_AMDGPU));
}

Expected<void *> HIPDriver::loadModule(StringRef Image) {
  if (!isValidBinary(Image))
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the image is not an AMDGPU code object (HSACO) or "
                       "an offload bundle ({0} bytes)",
                       Image.size());
  hipModule_t Module = nullptr;
  hipError_t R = Sym.hipModuleLoadData(&Module, Image.data());
  if (R == hipSuccess) {
    std::lock_guard<std::mutex> Lock(ImagesMutex);
    Images[Module] = Image.str();
    return Module;
  }
  offload_errc_t Code = getErrorCode(R);
  return check(R, "hipModuleLoadData",
               Code == OFFLOAD_ERRC_OUT_OF_RESOURCES
                   ? Code
                   : OFFLOAD_ERRC_INVALID_BINARY);
}

Error HIPDriver::unloadModule(void *Module) {
  {
    std::lock_guard<std::mutex> Lock(ImagesMutex);
    Images.erase(Module);
  }
  return check(Sym.hipModuleUnload(static_cast<hipModule_t>(Module)),
               "hipModuleUnload");
}

/// An unsigned integer of the metadata, which msgpack may encode as signed.
static std::optional<uint64_t> getUnsigned(const msgpack::DocNode &Node) {
  if (Node.getKind() == msgpack::Type::UInt)
    return Node.getUInt();
  if (Node.getKind() == msgpack::Type::Int && Node.getInt() >= 0)
    return static_cast<uint64_t>(Node.getInt());
  return std::nullopt;
}

/// The explicit parameters of kernel \p Name in the AMDGPU code object
/// \p Image: the `.args` of its entry in the `amdhsa.kernels` list of the
/// NT_AMDGPU_METADATA note (msgpack; code object v3 and later, as described
/// in LLVM's AMDGPUUsage "Code Object V3 Metadata"), without the hidden
/// arguments (`.value_kind` `hidden_*`) that the HIP runtime appends itself.
/// INVALID_BINARY when the metadata is malformed, UNSUPPORTED when the image
/// has none (an offload bundle, code object v2).
static Expected<std::vector<Driver::ParameterSlot>>
readKernelArguments(StringRef Image, StringRef Name) {
  if (!Image.starts_with("\x7f"
                         "ELF"))
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "the parameter layout of kernel '{0}' is read from the "
                       "code object's metadata; an offload bundle has none "
                       "(load the code object itself)",
                       Name);
  Expected<object::ELF64LEFile> File = object::ELF64LEFile::create(Image);
  if (!File)
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the code object is not a valid ELF file: {0}",
                       toString(File.takeError()));
  Expected<object::ELF64LEFile::Elf_Shdr_Range> Sections = File->sections();
  if (!Sections)
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the code object's sections cannot be read: {0}",
                       toString(Sections.takeError()));
  auto Malformed = [&](StringRef What) {
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the amdhsa.kernels metadata of the code object is "
                       "malformed: {0}",
                       What);
  };
  for (const object::ELF64LEFile::Elf_Shdr &Section : *Sections) {
    if (Section.sh_type != ELF::SHT_NOTE)
      continue;
    Error NoteError = Error::success();
    for (const object::ELF64LEFile::Elf_Note Note :
         File->notes(Section, NoteError)) {
      if (Note.getName() != "AMDGPU" ||
          Note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      msgpack::Document Document;
      if (!Document.readFromBlob(Note.getDescAsStringRef(Section.sh_addralign),
                                 /*Multi=*/false))
        return Malformed("not msgpack");
      msgpack::DocNode &Root = Document.getRoot();
      if (Root.getKind() != msgpack::Type::Map)
        return Malformed("the root is not a map");
      auto Kernels = Root.getMap().find(Document.getNode("amdhsa.kernels"));
      if (Kernels == Root.getMap().end() ||
          Kernels->second.getKind() != msgpack::Type::Array)
        return Malformed("no amdhsa.kernels list");
      for (msgpack::DocNode &Kernel : Kernels->second.getArray()) {
        if (Kernel.getKind() != msgpack::Type::Map)
          return Malformed("a kernel entry is not a map");
        msgpack::MapDocNode &Fields = Kernel.getMap();
        auto KernelName = Fields.find(Document.getNode(".name"));
        if (KernelName == Fields.end() ||
            KernelName->second.getKind() != msgpack::Type::String)
          return Malformed("a kernel has no .name");
        if (KernelName->second.getString() != Name)
          continue;
        std::vector<Driver::ParameterSlot> Slots;
        auto Args = Fields.find(Document.getNode(".args"));
        if (Args == Fields.end())
          return Slots; // No parameters.
        if (Args->second.getKind() != msgpack::Type::Array)
          return Malformed(".args is not a list");
        for (msgpack::DocNode &Arg : Args->second.getArray()) {
          if (Arg.getKind() != msgpack::Type::Map)
            return Malformed("an argument is not a map");
          msgpack::MapDocNode &ArgFields = Arg.getMap();
          auto Kind = ArgFields.find(Document.getNode(".value_kind"));
          if (Kind != ArgFields.end() &&
              Kind->second.getKind() == msgpack::Type::String &&
              Kind->second.getString().starts_with("hidden_"))
            continue;
          auto Offset = ArgFields.find(Document.getNode(".offset"));
          auto Size = ArgFields.find(Document.getNode(".size"));
          std::optional<uint64_t> OffsetValue, SizeValue;
          if (Offset != ArgFields.end())
            OffsetValue = getUnsigned(Offset->second);
          if (Size != ArgFields.end())
            SizeValue = getUnsigned(Size->second);
          if (!OffsetValue || !SizeValue || *SizeValue == 0 ||
              *OffsetValue > (1u << 20) || *SizeValue > (1u << 20))
            return Malformed("an argument of kernel '" + Name.str() +
                             "' has no plausible .offset and .size");
          Slots.push_back({*OffsetValue, *SizeValue});
        }
        return Slots;
      }
      return createError(OFFLOAD_ERRC_NOT_FOUND,
                         "kernel '{0}' is not in the code object's "
                         "amdhsa.kernels metadata",
                         Name);
    }
    if (NoteError)
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "the code object's notes cannot be read: {0}",
                         toString(std::move(NoteError)));
  }
  return createError(OFFLOAD_ERRC_UNSUPPORTED,
                     "the code object has no AMDGPU metadata note (code "
                     "object v3 or later has one): the parameter layout of "
                     "kernel '{0}' is unknown",
                     Name);
}

Expected<std::vector<Driver::ParameterSlot>>
HIPDriver::getParameterLayout(void *Module, void *, StringRef Name) {
  std::string Image;
  {
    std::lock_guard<std::mutex> Lock(ImagesMutex);
    auto It = Images.find(Module);
    if (It == Images.end())
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "no code object is known for the module of kernel "
                         "'{0}'",
                         Name);
    Image = It->second;
  }
  return readKernelArguments(Image, Name);
}

std::optional<Expected<uint64_t>>
HIPDriver::getOptimalBlockSize(void *Function, size_t SharedMemoryPerThread) {
  // HIP's occupancy query takes dynamic shared memory per block, not per
  // thread: only the case without it is answered here.
  if (!Sym.hipModuleOccupancyMaxPotentialBlockSize || SharedMemoryPerThread)
    return std::nullopt;
  int Grid = 0, Block = 0;
  if (Error E =
          check(Sym.hipModuleOccupancyMaxPotentialBlockSize(
                    &Grid, &Block, static_cast<hipFunction_t>(Function), 0, 0),
                "hipModuleOccupancyMaxPotentialBlockSize"))
    return Expected<uint64_t>(std::move(E));
  if (Block <= 0)
    return std::nullopt;
  return Expected<uint64_t>(static_cast<uint64_t>(Block));
}

/// The HIP plugin, registered in ../Plugins.def.
std::unique_ptr<Plugin> offload::createPlugin_hip() {
  return std::make_unique<GPUPlugin>(std::make_unique<HIPDriver>());
}
