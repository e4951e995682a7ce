//===- CUDADriver.cpp - The CUDA Driver API behind the CUDA plugin --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The CUDA plugin runs kernels on NVIDIA GPUs through the CUDA Driver API:
// gpu::Driver (../common/GPUPlugin.h) over libcuda.so.1, loaded at offloadInit
// (OFFLOAD_CUDA_LIBRARY overrides the path) and resolved through
// CUDASymbols.def. Nothing links against libcuda and no CUDA header is
// needed: the types and constants used are declared in CUDATypes.h. Without
// a usable driver the platform has no devices (OFFLOAD_TRACE=1 says why).
// Every CUresult becomes an llvm::Error whose message has the call,
// cuGetErrorName and cuGetErrorString.
//
//===----------------------------------------------------------------------===//

#include "CUDATypes.h"

#include "../Plugins.h"

#include "../common/DynamicLibrary.h"
#include "../common/GPUPlugin.h"
#include "../common/ImageCheck.h"
#include "../common/VendorDriver.h"
#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <climits>
#include <cstring>
#include <mutex>
#include <unordered_map>

using namespace llvm;
using namespace offload;
using namespace offload::gpu;
using namespace offload::plugin;
using namespace offload::cuda;

namespace {

/// The resolved entry points.
struct CUDASymbols {
#define CUDA_SYMBOL OFFLOAD_VENDOR_SYMBOL
#include "CUDASymbols.def"
};

/// The entry points and constants of the operations the CUDA plugin shares
/// with the HIP plugin (../common/VendorDriver.h).
struct CUDAEntryPoints {
  using Symbols = CUDASymbols;
  static constexpr const char *PlatformName = "cuda", *APIName = "CUDA",
                              *VendorName = "NVIDIA Corporation";
  static constexpr offload_platform_backend_t Backend =
      OFFLOAD_PLATFORM_BACKEND_CUDA;
  static constexpr uintptr_t LaunchParamBufferPointer =
      cuda::LaunchParamBufferPointer;
  static constexpr uintptr_t LaunchParamBufferSize =
      cuda::LaunchParamBufferSize;
  static constexpr uintptr_t LaunchParamEnd = cuda::LaunchParamEnd;
  static constexpr int NotFound = CUDA_ERROR_NOT_FOUND;
  static constexpr unsigned StreamFlags = CU_STREAM_NON_BLOCKING;
  static constexpr unsigned EventFlags = CU_EVENT_DEFAULT;
  static constexpr unsigned EventFlagsNoTiming = CU_EVENT_DISABLE_TIMING;
  static constexpr unsigned HostRegisterFlags = MemHostRegisterPortable;
  static constexpr unsigned ManagedFlags = CU_MEM_ATTACH_GLOBAL;
  static constexpr int FuncSharedSizeAttribute =
      CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES;
  static constexpr int CooperativeLaunchAttribute =
      CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH;
#define CUDA_ENTRY(Op, Member) OFFLOAD_VENDOR_ENTRY(CUDASymbols, Op, Member)
  CUDA_ENTRY(DeviceGetAttribute, cuDeviceGetAttribute)
  CUDA_ENTRY(DeviceTotalMem, cuDeviceTotalMem)
  CUDA_ENTRY(MemAlloc, cuMemAlloc)
  CUDA_ENTRY(MemAllocHost, cuMemAllocHost)
  CUDA_ENTRY(MemAllocManaged, cuMemAllocManaged)
  CUDA_ENTRY(MemFree, cuMemFree)
  CUDA_ENTRY(MemFreeHost, cuMemFreeHost)
  CUDA_ENTRY(HostRegister, cuMemHostRegister)
  CUDA_ENTRY(HostUnregister, cuMemHostUnregister)
  CUDA_ENTRY(MemsetD8Async, cuMemsetD8Async)
  CUDA_ENTRY(MemsetD16Async, cuMemsetD16Async)
  CUDA_ENTRY(MemsetD32Async, cuMemsetD32Async)
  CUDA_ENTRY(StreamCreate, cuStreamCreate)
  CUDA_ENTRY(StreamDestroy, cuStreamDestroy)
  CUDA_ENTRY(StreamSynchronize, cuStreamSynchronize)
  CUDA_ENTRY(StreamQuery, cuStreamQuery)
  CUDA_ENTRY(StreamWaitEvent, cuStreamWaitEvent)
  CUDA_ENTRY(LaunchHostFunc, cuLaunchHostFunc)
  CUDA_ENTRY(EventCreate, cuEventCreate)
  CUDA_ENTRY(EventDestroy, cuEventDestroy)
  CUDA_ENTRY(EventRecord, cuEventRecord)
  CUDA_ENTRY(EventSynchronize, cuEventSynchronize)
  CUDA_ENTRY(EventQuery, cuEventQuery)
  CUDA_ENTRY(EventElapsedTime, cuEventElapsedTime)
  CUDA_ENTRY(ModuleGetFunction, cuModuleGetFunction)
  CUDA_ENTRY(ModuleGetGlobal, cuModuleGetGlobal)
  CUDA_ENTRY(FuncGetAttribute, cuFuncGetAttribute)
  CUDA_ENTRY(LaunchKernel, cuLaunchKernel)
  CUDA_ENTRY(OccupancyMaxActiveBlocksPerMultiprocessor,
             cuOccupancyMaxActiveBlocksPerMultiprocessor)
  CUDA_ENTRY(LaunchCooperativeKernel, cuLaunchCooperativeKernel)
#undef CUDA_ENTRY
};

class CUDADriver final : public VendorDriver<CUDAEntryPoints> {
public:
  CUDADriver() : VendorDriver(CUDA_ERROR_NOT_READY) {}

  std::string getVersion() const override {
    return formatv("CUDA {0}.{1}", DriverVersion / 1000,
                   (DriverVersion % 1000) / 10)
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
                        void *Stream) override;

  Error streamWaitValue32(void *Stream, uint32_t *Address,
                          uint32_t Value) override;
  Error prefetch(int Ordinal, const void *Ptr, size_t Size, bool ToDevice,
                 void *Stream) override;
  bool isManaged(const void *Ptr) override;

  bool isValidBinary(StringRef Image) const override;
  Expected<void *> loadModule(StringRef Image) override;
  Error unloadModule(void *Module) override;
  Expected<std::vector<ParameterSlot>>
  getParameterLayout(void *Module, void *Function, StringRef Name) override;
  Error setMaxDynamicSharedBytes(void *Function, uint64_t Bytes) override;
  std::optional<Expected<uint64_t>>
  getOptimalBlockSize(void *Function, size_t SharedMemoryPerThread) override;

private:
  std::pair<std::string, std::string> describe(int R) const override;
  offload_errc_t getErrorCode(int R) const override;

  std::optional<DynamicLibrary> Library;
  int DriverVersion = 0;
  std::vector<CUdevice> Devices;

  /// The text of modules loaded from PTX, for their parameter layouts when
  /// the driver has no cuFuncGetParamInfo.
  std::mutex PTXMutex;
  std::unordered_map<void *, std::string> PTXModules;
};

} // namespace

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

std::pair<std::string, std::string> CUDADriver::describe(int R) const {
  const char *Name = nullptr, *Description = nullptr;
  if (Sym.cuGetErrorName)
    Sym.cuGetErrorName(R, &Name);
  if (Sym.cuGetErrorString)
    Sym.cuGetErrorString(R, &Description);
  return {Name ? std::string(Name) : formatv("CUresult {0}", R).str(),
          Description ? std::string(Description) : std::string()};
}

/// The offload code of a failed CUDA call.
offload_errc_t CUDADriver::getErrorCode(int R) const {
  switch (R) {
  case CUDA_ERROR_OUT_OF_MEMORY:
  case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
    return OFFLOAD_ERRC_OUT_OF_RESOURCES;
  case CUDA_ERROR_INVALID_IMAGE:
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
    return OFFLOAD_ERRC_INVALID_BINARY;
  case CUDA_ERROR_NOT_FOUND:
    return OFFLOAD_ERRC_NOT_FOUND;
  case CUDA_ERROR_NOT_SUPPORTED:
    return OFFLOAD_ERRC_UNSUPPORTED;
  case CUDA_ERROR_INVALID_VALUE:
  case CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
  case CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED:
    return OFFLOAD_ERRC_INVALID_ARGUMENT;
  default:
    return OFFLOAD_ERRC_BACKEND_FAILURE;
  }
}

//===----------------------------------------------------------------------===//
// Initialization and devices
//===----------------------------------------------------------------------===//

DriverStatus CUDADriver::initialize() {
  DriverStatus Status;
  Devices.clear();
  bool Override = env::CUDALibrary.isSet();
  std::string LibraryName = env::CUDALibrary.getText("libcuda.so.1");
  if (!Library || Library->getPath() != LibraryName) {
    std::string Why;
    std::string Candidates[] = {LibraryName};
    Library = DynamicLibrary::open(Candidates, Why);
    if (!Library) {
      Status.Message = (Override ? "OFFLOAD_CUDA_LIBRARY=" + LibraryName +
                                       " cannot be loaded: " + Why
                                 : LibraryName + " not found: " + Why);
      return Status;
    }
  }
  const std::string &Path = Library->getPath();

  Sym = CUDASymbols();
  std::string Missing;
#define CUDA_SYMBOL OFFLOAD_VENDOR_RESOLVE
#include "CUDASymbols.def"
  if (!Missing.empty()) {
    Status.Message = Path + " is not a usable CUDA driver: it lacks " + Missing;
    Library.reset();
    return Status;
  }

  CUresult R = Sym.cuInit(0);
  if (R == CUDA_ERROR_STUB_LIBRARY) {
    Status.Message =
        Path + " is the CUDA toolkit's stub library (cuInit: "
               "CUDA_ERROR_STUB_LIBRARY); the NVIDIA driver's libcuda.so.1 "
               "must come first in the library path";
    return Status;
  }
  if (R == CUDA_ERROR_NO_DEVICE) {
    Status.Message = "cuInit: CUDA_ERROR_NO_DEVICE (" + Path + ")";
    return Status;
  }
  if (R != CUDA_SUCCESS) {
    auto [Name, Description] = describe(R);
    Status.Message = "cuInit failed: " + Name +
                     (Description.empty() ? "" : " (" + Description + ")") +
                     " (" + Path + ")";
    return Status;
  }
  if (Sym.cuDriverGetVersion(&DriverVersion) != CUDA_SUCCESS)
    DriverVersion = 0;
  int Count = 0;
  if (Error E = check(Sym.cuDeviceGetCount(&Count), "cuDeviceGetCount")) {
    Status.Message = toString(std::move(E)) + " (" + Path + ")";
    return Status;
  }
  for (int I = 0; I < Count; ++I) {
    CUdevice D = 0;
    if (Error E = check(Sym.cuDeviceGet(&D, I), "cuDeviceGet")) {
      Status.Message = toString(std::move(E)) + " (" + Path + ")";
      Devices.clear();
      return Status;
    }
    Devices.push_back(D);
  }
  Status.NumDevices = Devices.size();
  Status.Message = getVersion() + " driver at " + Path;
  if (!Count)
    Status.Message += ": cuDeviceGetCount found no device";
  return Status;
}

Expected<void *> CUDADriver::retainContext(int Ordinal) {
  CUcontext Context = nullptr;
  if (Error E = check(Sym.cuDevicePrimaryCtxRetain(&Context, Devices[Ordinal]),
                      "cuDevicePrimaryCtxRetain"))
    return std::move(E);
  return Context;
}

Error CUDADriver::releaseContext(int Ordinal, void *Context) {
  return check(Sym.cuDevicePrimaryCtxRelease(Devices[Ordinal]),
               "cuDevicePrimaryCtxRelease_v2");
}

Error CUDADriver::makeCurrent(int Ordinal, void *Context) {
  CUcontext Current = nullptr;
  if (Sym.cuCtxGetCurrent(&Current) == CUDA_SUCCESS && Current == Context)
    return Error::success();
  return check(Sym.cuCtxSetCurrent(static_cast<CUcontext>(Context)),
               "cuCtxSetCurrent");
}

/// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it.
static std::string formatUUID(const CUuuid &U) {
  std::string Hex;
  for (int I = 0; I < 16; ++I) {
    if (I == 4 || I == 6 || I == 8 || I == 10)
      Hex += '-';
    Hex += formatv("{0:x-2}", static_cast<unsigned char>(U.bytes[I])).str();
  }
  return "GPU-" + Hex;
}

Expected<DeviceInfo> CUDADriver::queryDeviceInfo(int Ordinal) {
  CUdevice D = Devices[Ordinal];
  auto Attribute = [&](int Attr) { return getAttribute(Attr, D); };
  DeviceInfo Info;
  char Name[256] = {0};
  if (Error E = check(Sym.cuDeviceGetName(Name, sizeof(Name) - 1, D),
                      "cuDeviceGetName"))
    return std::move(E);
  Info.Name = Name;
  Info.ProductName = Name;
  Info.Vendor = getVendorName().str();
  Info.VendorId = 0x10de;
  Info.DriverVersion = getVersion();
  CUuuid UUID;
  if (Sym.cuDeviceGetUuid && Sym.cuDeviceGetUuid(&UUID, D) == CUDA_SUCCESS)
    Info.UID = formatUUID(UUID);
  else
    Info.UID = formatv("cuda-{0}", Ordinal).str();

  static const GPUAttributes::Codes Codes = {
      CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
      CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
      CU_DEVICE_ATTRIBUTE_CLOCK_RATE,
      CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
      CU_DEVICE_ATTRIBUTE_WARP_SIZE,
      CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK};
  Expected<GPUAttributes> A = GPUAttributes::read(Codes, Attribute);
  if (!A)
    return A.takeError();
  Expected<uint32_t> Major =
      Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  if (!Major)
    return Major.takeError();
  Expected<uint32_t> Minor =
      Attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  if (!Minor)
    return Minor.takeError();
  // Half precision arithmetic from compute capability 5.3.
  uint32_t CC = *Major * 10 + *Minor;
  setGPUDeviceInfo(Info, *A, /*HasHalf=*/CC >= 53);
  Info.Architecture = formatv("sm_{0}", CC).str();
  // Kernels may use the opt-in maximum: launches above the default 48 KiB
  // set the kernel's attribute first.
  int OptIn = 0;
  if (Sym.cuDeviceGetAttribute(
          &OptIn, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, D) ==
          CUDA_SUCCESS &&
      OptIn > 0)
    Info.WorkGroupLocalMemSize =
        std::max<uint64_t>(Info.WorkGroupLocalMemSize, uint32_t(OptIn));
  if (Error E = queryMemoryAndCooperativeInfo(Info, D))
    return std::move(E);
  return Info;
}

bool CUDADriver::supportsStreamWaitValue(int Ordinal) {
  if (!Sym.cuStreamWaitValue32)
    return false;
  // Stream memory operations are always on since CUDA 12; before, only where
  // the device says so.
  if (DriverVersion >= 12000)
    return true;
  int MemOps = 0;
  return Sym.cuDeviceGetAttribute(&MemOps,
                                  CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1,
                                  Devices[Ordinal]) == CUDA_SUCCESS &&
         MemOps;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static CUdeviceptr toDevicePtr(const void *Ptr) {
  return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(Ptr));
}

PointerKind CUDADriver::classify(const void *Ptr) {
  // cuPointerGetAttributes, unlike cuPointerGetAttribute, succeeds for memory
  // the driver does not know and reports memory type 0.
  unsigned MemoryType = 0;
  int Attribute = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
  void *Data[] = {&MemoryType};
  if (Sym.cuPointerGetAttributes(1, &Attribute, Data, toDevicePtr(Ptr)) !=
          CUDA_SUCCESS ||
      MemoryType == 0)
    return PointerKind::Pageable;
  return PointerKind::DeviceAccessible;
}

bool CUDADriver::isManaged(const void *Ptr) {
  // As in classify: memory the driver does not know reads as not managed.
  unsigned Managed = 0;
  int Attribute = CU_POINTER_ATTRIBUTE_IS_MANAGED;
  void *Data[] = {&Managed};
  return Sym.cuPointerGetAttributes(1, &Attribute, Data, toDevicePtr(Ptr)) ==
             CUDA_SUCCESS &&
         Managed;
}

Error CUDADriver::prefetch(int Ordinal, const void *Ptr, size_t Size,
                           bool ToDevice, void *Stream) {
  // A hint: a driver older than CUDA 12.2 has no cuMemPrefetchAsync_v2.
  if (!Sym.cuMemPrefetchAsync_v2)
    return Error::success();
  CUmemLocation To = {ToDevice ? CU_MEM_LOCATION_TYPE_DEVICE
                               : CU_MEM_LOCATION_TYPE_HOST,
                      ToDevice ? Devices[Ordinal] : 0};
  return check(Sym.cuMemPrefetchAsync_v2(toDevicePtr(Ptr), Size, To, 0,
                                         static_cast<CUstream>(Stream)),
               "cuMemPrefetchAsync_v2");
}

Error CUDADriver::memcpyAsync(void *Dst, const void *Src, size_t Size,
                              void *Stream) {
  return check(Sym.cuMemcpyAsync(toDevicePtr(Dst), toDevicePtr(Src), Size,
                                 static_cast<CUstream>(Stream)),
               "cuMemcpyAsync");
}

Error CUDADriver::memset2D32Async(void *Ptr, size_t Pitch, uint32_t Value,
                                  size_t Height, void *Stream) {
  if (!Sym.cuMemsetD2D32Async)
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "the driver has no cuMemsetD2D32Async");
  return check(Sym.cuMemsetD2D32Async(toDevicePtr(Ptr), Pitch, Value, 1, Height,
                                      static_cast<CUstream>(Stream)),
               "cuMemsetD2D32Async");
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

Error CUDADriver::streamWaitValue32(void *Stream, uint32_t *Address,
                                    uint32_t Value) {
  return check(Sym.cuStreamWaitValue32(static_cast<CUstream>(Stream),
                                       toDevicePtr(Address), Value,
                                       CU_STREAM_WAIT_VALUE_GEQ),
               "cuStreamWaitValue32_v2");
}

//===----------------------------------------------------------------------===//
// Modules and kernels
//===----------------------------------------------------------------------===//

bool CUDADriver::isValidBinary(StringRef Image) const {
  // A cubin (64-bit ELF for EM_CUDA), a fatbin or PTX text.
  switch (getImageKind(Image)) {
  case ImageKind::ELF:
    return isELF64For(Image, ELF::EM_CUDA);
  case ImageKind::CUDAFatbin:
  case ImageKind::PTX:
    return true;
  case ImageKind::OffloadBundle:
  case ImageKind::Unknown:
    return false;
  }
  return false;
}

Expected<void *> CUDADriver::loadModule(StringRef Image) {
  ImageKind Format = getImageKind(Image);
  if (Format != ImageKind::ELF && Format != ImageKind::CUDAFatbin &&
      Format != ImageKind::PTX)
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the image is neither a cubin (ELF), a fatbin nor PTX "
                       "text ({0} bytes)",
                       Image.size());
  // PTX is NUL-terminated text for the driver; our images are not.
  std::string PTX;
  const void *Data = Image.data();
  if (Format == ImageKind::PTX) {
    PTX = Image.str();
    PTX.push_back('\0');
    Data = PTX.data();
  }
  char Log[8192] = {0};
  int Options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Values[] = {Log, reinterpret_cast<void *>(uintptr_t(sizeof(Log) - 1))};
  CUmodule Module = nullptr;
  CUresult R = Sym.cuModuleLoadDataEx(&Module, Data, 2, Options, Values);
  if (R == CUDA_SUCCESS) {
    if (Format == ImageKind::PTX && !Sym.cuFuncGetParamInfo) {
      PTX.pop_back();
      std::lock_guard<std::mutex> Lock(PTXMutex);
      PTXModules[Module] = std::move(PTX);
    }
    return Module;
  }
  auto [Name, Description] = describe(R);
  const char *Kind = Format == ImageKind::PTX   ? "PTX"
                     : Format == ImageKind::ELF ? "cubin"
                                                : "fatbin";
  std::string Message =
      formatv("cuModuleLoadDataEx failed to load the {0} image: {1} ({2})",
              Kind, Name, Description)
          .str();
  StringRef JITLog = StringRef(Log).trim();
  if (!JITLog.empty())
    Message += "; JIT log: " + JITLog.str();
  // Whatever the driver says, the image is what failed, unless memory ran
  // out.
  offload_errc_t Code = getErrorCode(R);
  return createError(Code == OFFLOAD_ERRC_OUT_OF_RESOURCES
                         ? Code
                         : OFFLOAD_ERRC_INVALID_BINARY,
                     Message);
}

Error CUDADriver::unloadModule(void *Module) {
  {
    std::lock_guard<std::mutex> Lock(PTXMutex);
    PTXModules.erase(Module);
  }
  return check(Sym.cuModuleUnload(static_cast<CUmodule>(Module)),
               "cuModuleUnload");
}

/// The size in bytes of PTX fundamental type \p Type (".u64", ".f32",
/// ".b8", ".f16x2", ...), or 0 if it is none.
static uint64_t getPTXTypeSize(StringRef Type) {
  if (!Type.consume_front("."))
    return 0;
  if (Type == "f16x2" || Type == "bf16x2")
    return 4;
  if (Type == "f16" || Type == "bf16")
    return 2;
  if (Type.empty() || !StringRef("busf").contains(Type.front()))
    return 0;
  unsigned Bits = 0;
  if (Type.drop_front().getAsInteger(10, Bits) || Bits % 8 || Bits > 128 ||
      !isPowerOf2_32(Bits))
    return 0;
  return Bits / 8;
}

/// The parameters of kernel \p Name in PTX text \p PTX, laid out as the
/// driver lays them out: each at the next multiple of its alignment (its
/// `.align` or the size of its type), in order.
static Expected<std::vector<Driver::ParameterSlot>>
parsePTXParameters(StringRef PTX, StringRef Name) {
  size_t Pos = 0;
  while ((Pos = PTX.find(".entry", Pos)) != StringRef::npos) {
    StringRef Rest = PTX.substr(Pos + 6);
    Pos += 6;
    if (Rest.empty() || !isSpace(Rest.front()))
      continue;
    Rest = Rest.ltrim();
    if (!Rest.consume_front(Name) ||
        (!Rest.empty() &&
         (isAlnum(Rest.front()) || Rest.front() == '_' || Rest.front() == '$')))
      continue;
    Rest = Rest.ltrim();
    std::vector<Driver::ParameterSlot> Slots;
    if (!Rest.consume_front("("))
      return Slots; // no parameter list
    size_t Close = Rest.find(')');
    if (Close == StringRef::npos)
      break;
    // Drop comments, then one declaration per comma.
    std::string List;
    for (StringRef Line : llvm::split(Rest.take_front(Close), '\n'))
      List += Line.split("//").first.str() + " ";
    uint64_t End = 0;
    for (StringRef Decl : llvm::split(StringRef(List), ',')) {
      SmallVector<StringRef> Tokens;
      Decl.split(Tokens, ' ', -1, /*KeepEmpty=*/false);
      for (StringRef &T : Tokens)
        T = T.trim();
      llvm::erase_if(Tokens, [](StringRef T) { return T.empty(); });
      if (Tokens.empty() && Slots.empty())
        break; // "()"
      auto Bad = [&] {
        return createError(OFFLOAD_ERRC_UNSUPPORTED,
                           "cannot read parameter {0} of kernel '{1}' in the "
                           "PTX: '{2}'",
                           Slots.size(), Name, Decl.trim());
      };
      size_t I = 0;
      if (Tokens.size() < 3 || Tokens[I++] != ".param")
        return Bad();
      uint64_t Align = 0;
      if (Tokens[I] == ".align") {
        if (I + 2 >= Tokens.size() || Tokens[I + 1].getAsInteger(10, Align) ||
            !isPowerOf2_64(Align))
          return Bad();
        I += 2;
      }
      uint64_t Element = getPTXTypeSize(Tokens[I++]);
      if (!Element || I >= Tokens.size())
        return Bad();
      // Attributes of pointer parameters (.ptr, a state space, the pointee's
      // .align N) come before the name.
      StringRef Last = Tokens.back();
      uint64_t Count = 1;
      if (size_t Bracket = Last.find('['); Bracket != StringRef::npos) {
        StringRef Dim = Last.substr(Bracket + 1);
        if (!Dim.consume_back("]") || Dim.trim().getAsInteger(10, Count) ||
            !Count)
          return Bad();
      }
      if (!Align)
        Align = Element;
      uint64_t Offset = alignTo(End, Align);
      Slots.push_back({Offset, Element * Count});
      End = Offset + Element * Count;
    }
    return Slots;
  }
  return createError(OFFLOAD_ERRC_UNSUPPORTED,
                     "kernel '{0}' has no .entry with a parameter list the "
                     "runtime can read in the PTX",
                     Name);
}

Expected<std::vector<Driver::ParameterSlot>>
CUDADriver::getParameterLayout(void *Module, void *Function, StringRef Name) {
  if (Sym.cuFuncGetParamInfo) {
    std::vector<ParameterSlot> Slots;
    // CUDA_ERROR_INVALID_VALUE past the last parameter; kernel parameters
    // take at most 32764 bytes, so there are fewer than 32768.
    for (size_t I = 0; I < 32768; ++I) {
      size_t Offset = 0, Size = 0;
      CUresult R = Sym.cuFuncGetParamInfo(static_cast<CUfunction>(Function), I,
                                          &Offset, &Size);
      if (R == CUDA_ERROR_INVALID_VALUE)
        return Slots;
      if (Error E = check(R, "cuFuncGetParamInfo", OFFLOAD_ERRC_UNSUPPORTED))
        return std::move(E);
      Slots.push_back({Offset, Size});
    }
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "cuFuncGetParamInfo reports more than 32768 "
                       "parameters for kernel '{0}'",
                       Name);
  }
  std::string PTX;
  {
    std::lock_guard<std::mutex> Lock(PTXMutex);
    auto It = PTXModules.find(Module);
    if (It != PTXModules.end())
      PTX = It->second;
  }
  if (PTX.empty())
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "the {0} driver has no cuFuncGetParamInfo (CUDA 12.4 "
                       "or newer) and the program is a cubin or fatbin, not "
                       "PTX the runtime could read the parameters from",
                       getVersion());
  return parsePTXParameters(PTX, Name);
}

Error CUDADriver::setMaxDynamicSharedBytes(void *Function, uint64_t Bytes) {
  if (Bytes > INT_MAX)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "{0} bytes of dynamic shared memory", Bytes);
  CUresult R = Sym.cuFuncSetAttribute(
      static_cast<CUfunction>(Function),
      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(Bytes));
  if (R == CUDA_ERROR_INVALID_VALUE)
    return createError(
        OFFLOAD_ERRC_OUT_OF_RESOURCES,
        "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
        "{0}) failed: CUDA_ERROR_INVALID_VALUE (more dynamic shared memory "
        "than the device allows next to the kernel's static shared memory)",
        Bytes);
  return check(R, "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_"
                  "SIZE_BYTES)");
}

/// Dynamic shared memory per thread, for the occupancy callback (which has
/// no user data).
static thread_local size_t OccupancySharedPerThread = 0;

static size_t occupancySharedBytes(int BlockSize) {
  return OccupancySharedPerThread * static_cast<size_t>(BlockSize);
}

std::optional<Expected<uint64_t>>
CUDADriver::getOptimalBlockSize(void *Function, size_t SharedMemoryPerThread) {
  if (!Sym.cuOccupancyMaxPotentialBlockSize)
    return std::nullopt;
  OccupancySharedPerThread = SharedMemoryPerThread;
  int MinGrid = 0, Block = 0;
  CUresult R = Sym.cuOccupancyMaxPotentialBlockSize(
      &MinGrid, &Block, static_cast<CUfunction>(Function),
      SharedMemoryPerThread ? occupancySharedBytes : nullptr, 0, 0);
  if (Error E = check(R, "cuOccupancyMaxPotentialBlockSize"))
    return Expected<uint64_t>(std::move(E));
  if (Block <= 0)
    return Expected<uint64_t>(createError(
        OFFLOAD_ERRC_OUT_OF_RESOURCES,
        "no block size fits {0} bytes of dynamic shared memory per thread",
        SharedMemoryPerThread));
  return Expected<uint64_t>(static_cast<uint64_t>(Block));
}

/// The CUDA plugin, registered in ../Plugins.def.
std::unique_ptr<Plugin> offload::createPlugin_cuda() {
  return std::make_unique<GPUPlugin>(std::make_unique<CUDADriver>());
}
