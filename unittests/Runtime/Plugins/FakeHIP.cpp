//===- FakeHIP.cpp - A fake HIP runtime for the HIP plugin's tests --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A test double of libamdhip64, loaded by the HIP plugin through
// OFFLOAD_HIP_LIBRARY: the HIP entry points the plugin resolves, with HIP's
// signatures and constants (hipDeviceAttribute_t numbers, HIP_LAUNCH_PARAM_END
// = 3, a current device per thread instead of contexts), on top of the fake
// CUDA driver (FakeCUDA.cpp, compiled in). Code objects are a 64-byte ELF
// header for EM_AMDGPU followed by the fake's PTX-like text, or real AMDGPU
// code objects (ELF with section headers), whose kernels are their `NAME.kd`
// symbols. FAKE_HIP_ARCHS sets the architecture of each device
// (comma-separated, the last repeated; default "gfx90a:sramecc+:xnack-").
//
// Built twice: libfakehip.so plays HIP 6.2; with FAKE_HIP_5_2 defined,
// libfakehip52.so plays HIP 5.2 (Debian 12's libamdhip64-5): no
// hipLaunchHostFunc (host functions only through hipStreamAddCallback), no
// hipGetDevicePropertiesR0600, and HIP 5's hipPointerGetAttributes (an error
// for memory HIP does not know; host 0, device 1).
//
//===----------------------------------------------------------------------===//

#include "FakeCUDA.cpp"

namespace {

using hipError_t = int;
thread_local int HipDevice = 0;

/// HIP has no contexts: the calling thread's device stands for one.
void bindDevice() {
  if (!Current)
    Current = &Contexts[HipDevice];
}

/// CUDA's error codes are HIP's for everything the fake returns.
hipError_t fromCUDA(CUresult R) { return R; }

} // namespace

#define HIP_API extern "C" __attribute__((visibility("default")))

HIP_API hipError_t hipInit(unsigned Flags) { return fromCUDA(cuInit(Flags)); }

HIP_API hipError_t hipRuntimeGetVersion(int *V) {
#ifdef FAKE_HIP_5_2
  *V = 50221153; // HIP 5.2.21153, as Debian's libamdhip64.so.5
#else
  *V = 60200000; // HIP 6.2.0
#endif
  return 0;
}

HIP_API const char *hipGetErrorName(hipError_t E) {
  switch (E) {
  case 0:
    return "hipSuccess";
  case 1:
    return "hipErrorInvalidValue";
  case 2:
    return "hipErrorOutOfMemory";
  case 200:
    return "hipErrorInvalidImage";
  case 500:
    return "hipErrorNotFound";
  case 600:
    return "hipErrorNotReady";
  case 700:
    return "hipErrorIllegalAddress";
  default:
    return "hipErrorUnknown";
  }
}

HIP_API const char *hipGetErrorString(hipError_t E) {
  return E == 700 ? "an illegal memory access was encountered"
                  : "fake HIP error";
}

HIP_API hipError_t hipGetDeviceCount(int *N) {
  return fromCUDA(cuDeviceGetCount(N));
}

HIP_API hipError_t hipGetDevice(int *D) {
  *D = HipDevice;
  return 0;
}

HIP_API hipError_t hipSetDevice(int D) {
  if (D < 0 || D >= DeviceCount)
    return 101;
  HipDevice = D;
  Current = &Contexts[D];
  return 0;
}

HIP_API hipError_t hipDeviceGetName(char *Name, int Length, int D) {
  return fromCUDA(cuDeviceGetName(Name, Length, D));
}

HIP_API hipError_t hipDeviceGetAttribute(int *V, int Attr, int D) {
  // hipDeviceAttribute_t -> CUdevice_attribute.
  static const std::map<int, int> ToCUDA = {
      {56, 1}, {26, 2},  {27, 3}, {28, 4},  {29, 5}, {30, 6},
      {31, 7}, {63, 16}, {5, 13}, {60, 36}, {74, 8}, {23, 75}};
  if (Attr == 87) { // warp size: a wavefront
    *V = 64;
    return 0;
  }
  if (Attr == 10013) { // hipDeviceAttributeCanUseStreamWaitValue
    *V = 1;
    return 0;
  }
  auto It = ToCUDA.find(Attr);
  if (It == ToCUDA.end()) {
    *V = 0;
    return 0;
  }
  return fromCUDA(cuDeviceGetAttribute(V, It->second, D));
}

HIP_API hipError_t hipDeviceTotalMem(size_t *Bytes, int D) {
  return fromCUDA(cuDeviceTotalMem_v2(Bytes, D));
}

HIP_API hipError_t hipDeviceGetUuid(char *UUID, int D) {
  return fromCUDA(cuDeviceGetUuid_v2(UUID, D));
}

#ifdef FAKE_HIP_5_2
HIP_API hipError_t hipGetDeviceProperties(void *Props, int D) {
  // HIP 5's struct: the name first, the architecture at another offset.
  auto *P = static_cast<char *>(Props);
  std::memset(P, 0, 1200);
  cuDeviceGetName(P, 256, D);
  std::strcpy(P + 396, "gfx90a:sramecc+:xnack-");
  return 0;
}
#else
HIP_API hipError_t hipGetDevicePropertiesR0600(void *Props, int D) {
  // The name first, the architecture somewhere after it.
  auto *P = static_cast<char *>(Props);
  std::memset(P, 0, 1500);
  cuDeviceGetName(P, 256, D);
  std::string Arch = "gfx90a:sramecc+:xnack-";
  if (const char *Archs = std::getenv("FAKE_HIP_ARCHS"); Archs && *Archs) {
    std::string List = Archs;
    for (int I = 0;; ++I) {
      size_t Comma = List.find(',');
      Arch = List.substr(0, Comma);
      if (I == D || Comma == std::string::npos)
        break;
      List = List.substr(Comma + 1);
    }
  }
  std::strncpy(P + 1160, Arch.c_str(), 64);
  return 0;
}
#endif

HIP_API hipError_t hipMalloc(void **Ptr, size_t Size) {
  bindDevice();
  return fromCUDA(cuMemAlloc_v2(reinterpret_cast<CUdeviceptr *>(Ptr), Size));
}

HIP_API hipError_t hipFree(void *Ptr) {
  bindDevice();
  return fromCUDA(cuMemFree_v2(reinterpret_cast<uintptr_t>(Ptr)));
}

HIP_API hipError_t hipHostMalloc(void **Ptr, size_t Size, unsigned Flags) {
  bindDevice();
  return fromCUDA(cuMemAllocHost_v2(Ptr, Size));
}

HIP_API hipError_t hipHostFree(void *Ptr) {
  bindDevice();
  return fromCUDA(cuMemFreeHost(Ptr));
}

HIP_API hipError_t hipMallocManaged(void **Ptr, size_t Size, unsigned Flags) {
  bindDevice();
  return fromCUDA(
      cuMemAllocManaged(reinterpret_cast<CUdeviceptr *>(Ptr), Size, Flags));
}

HIP_API hipError_t hipHostRegister(void *Ptr, size_t Size, unsigned Flags) {
  bindDevice();
  return fromCUDA(cuMemHostRegister_v2(Ptr, Size, Flags));
}

HIP_API hipError_t hipHostUnregister(void *Ptr) {
  bindDevice();
  return fromCUDA(cuMemHostUnregister(Ptr));
}

HIP_API hipError_t hipPointerGetAttributes(void *Attributes, const void *Ptr) {
  // HIP 6: hipMemoryTypeUnregistered (0) for memory HIP does not know.
  unsigned Type = 0;
  int Attr = 2;
  void *Data[] = {&Type};
  if (CUresult R = cuPointerGetAttributes(1, &Attr, Data,
                                          reinterpret_cast<uintptr_t>(Ptr)))
    return R;
#ifdef FAKE_HIP_5_2
  // HIP 5: memory HIP does not know is an error; host 0, device 1.
  if (Type == 0)
    return 1; // hipErrorInvalidValue
  int HipType = static_cast<int>(Type) - 1;
#else
  int HipType = static_cast<int>(Type); // host 1, device 2, as in HIP 6
#endif
  std::memcpy(Attributes, &HipType, sizeof(HipType));
  // isManaged, after the type, the device and two pointers (HIP 5 and 6).
  unsigned Managed = 0;
  Attr = 8; // CU_POINTER_ATTRIBUTE_IS_MANAGED
  Data[0] = &Managed;
  if (CUresult R = cuPointerGetAttributes(1, &Attr, Data,
                                          reinterpret_cast<uintptr_t>(Ptr)))
    return R;
  int IsManaged = Managed != 0;
  std::memcpy(static_cast<char *>(Attributes) + 24, &IsManaged,
              sizeof(IsManaged));
  return 0;
}

/// To device \p Device, or the host for hipCpuDeviceId (-1).
HIP_API hipError_t hipMemPrefetchAsync(const void *Ptr, size_t Size, int Device,
                                       void *S) {
  count("hipMemPrefetchAsync");
  bindDevice();
  FakeMemLocation To = {Device >= 0 ? 1 : 2, Device >= 0 ? Device : 0};
  return fromCUDA(
      cuMemPrefetchAsync_v2(reinterpret_cast<uintptr_t>(Ptr), Size, To, 0, S));
}

HIP_API hipError_t hipMemcpyAsync(void *Dst, const void *Src, size_t Size,
                                  int Kind, void *S) {
  bindDevice();
  if (Kind != 4) // hipMemcpyDefault
    return 1;
  return fromCUDA(cuMemcpyAsync(reinterpret_cast<uintptr_t>(Dst),
                                reinterpret_cast<uintptr_t>(Src), Size, S));
}

HIP_API hipError_t hipMemsetD8Async(void *D, unsigned char V, size_t N,
                                    void *S) {
  bindDevice();
  return fromCUDA(cuMemsetD8Async(reinterpret_cast<uintptr_t>(D), V, N, S));
}

HIP_API hipError_t hipMemsetD16Async(void *D, unsigned short V, size_t N,
                                     void *S) {
  bindDevice();
  return fromCUDA(cuMemsetD16Async(reinterpret_cast<uintptr_t>(D), V, N, S));
}

HIP_API hipError_t hipMemsetD32Async(void *D, int V, size_t N, void *S) {
  bindDevice();
  return fromCUDA(cuMemsetD32Async(reinterpret_cast<uintptr_t>(D),
                                   static_cast<unsigned>(V), N, S));
}

HIP_API hipError_t hipStreamCreateWithFlags(void **S, unsigned Flags) {
  bindDevice();
  return fromCUDA(cuStreamCreate(S, Flags));
}

HIP_API hipError_t hipStreamDestroy(void *S) {
  bindDevice();
  return fromCUDA(cuStreamDestroy_v2(S));
}

HIP_API hipError_t hipStreamSynchronize(void *S) {
  bindDevice();
  return fromCUDA(cuStreamSynchronize(S));
}

HIP_API hipError_t hipStreamQuery(void *S) {
  bindDevice();
  return fromCUDA(cuStreamQuery(S));
}

HIP_API hipError_t hipStreamWaitEvent(void *S, void *E, unsigned Flags) {
  bindDevice();
  return fromCUDA(cuStreamWaitEvent(S, E, Flags));
}

HIP_API hipError_t hipStreamWaitValue32(void *S, void *Ptr, uint32_t Value,
                                        unsigned Flags, uint32_t Mask) {
  bindDevice();
  if (Mask != 0xffffffffu)
    return 1;
  return fromCUDA(cuStreamWaitValue32_v2(S, reinterpret_cast<uintptr_t>(Ptr),
                                         Value, Flags));
}

#ifndef FAKE_HIP_5_2
HIP_API hipError_t hipLaunchHostFunc(void *S, void (*Fn)(void *), void *Data) {
  bindDevice();
  return fromCUDA(cuLaunchHostFunc(S, Fn, Data));
}
#endif

/// Like hipLaunchHostFunc, on the same single callback thread; the callback
/// also gets the stream and its status, and flags must be 0.
HIP_API hipError_t hipStreamAddCallback(void *S,
                                        void (*Fn)(void *, hipError_t, void *),
                                        void *Data, unsigned Flags) {
  bindDevice();
  if (CUresult R = enter("hipStreamAddCallback"))
    return fromCUDA(R);
  if (!Fn || Flags != 0)
    return 1; // hipErrorInvalidValue
  return fromCUDA(submit(S, [S, Fn, Data] {
    getCallbackThread().run([S, Fn, Data] { Fn(S, 0, Data); });
    return Success;
  }));
}

HIP_API hipError_t hipEventCreateWithFlags(void **E, unsigned Flags) {
  bindDevice();
  return fromCUDA(cuEventCreate(E, Flags));
}

HIP_API hipError_t hipEventDestroy(void *E) {
  bindDevice();
  return fromCUDA(cuEventDestroy_v2(E));
}

HIP_API hipError_t hipEventRecord(void *E, void *S) {
  bindDevice();
  return fromCUDA(cuEventRecord(E, S));
}

HIP_API hipError_t hipEventSynchronize(void *E) {
  bindDevice();
  return fromCUDA(cuEventSynchronize(E));
}

HIP_API hipError_t hipEventElapsedTime(float *Ms, void *Start, void *End) {
  bindDevice();
  return fromCUDA(cuEventElapsedTime(Ms, Start, End));
}

HIP_API hipError_t hipEventQuery(void *E) {
  bindDevice();
  return fromCUDA(cuEventQuery(E));
}

HIP_API hipError_t hipModuleLoadData(void **M, const void *Image) {
  bindDevice();
  const auto *Bytes = static_cast<const unsigned char *>(Image);
  uint16_t Machine;
  std::memcpy(&Machine, Bytes + 18, 2);
  if (std::memcmp(Bytes,
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      Machine != 224)
    return 200;
  uint16_t SectionCount;
  std::memcpy(&SectionCount, Bytes + 0x3c, 2);
  if (SectionCount) {
    // A real code object.
    if (CUresult R = enter("hipModuleLoadData"))
      return fromCUDA(R);
    auto Mod = std::make_unique<Module>();
    if (!parseELF(Bytes, *Mod))
      return 200;
    std::lock_guard<std::mutex> Lock(StateMutex);
    LiveModules.insert(Mod.get());
    *M = Mod.release();
    return 0;
  }
  // The text after the ELF header is the fake's module.
  return fromCUDA(cuModuleLoadDataEx(M, Bytes + 64, 0, nullptr, nullptr));
}

HIP_API hipError_t hipModuleUnload(void *M) {
  bindDevice();
  return fromCUDA(cuModuleUnload(M));
}

HIP_API hipError_t hipModuleGetFunction(void **F, void *M, const char *Name) {
  bindDevice();
  return fromCUDA(cuModuleGetFunction(F, M, Name));
}

HIP_API hipError_t hipModuleGetGlobal(void **Ptr, size_t *Size, void *M,
                                      const char *Name) {
  bindDevice();
  return fromCUDA(cuModuleGetGlobal_v2(reinterpret_cast<CUdeviceptr *>(Ptr),
                                       Size, M, Name));
}

HIP_API hipError_t hipFuncGetAttribute(int *V, int Attr, void *F) {
  bindDevice();
  return fromCUDA(cuFuncGetAttribute(V, Attr, F));
}

HIP_API hipError_t hipModuleLaunchKernel(void *F, unsigned GX, unsigned GY,
                                         unsigned GZ, unsigned BX, unsigned BY,
                                         unsigned BZ, unsigned Shared, void *S,
                                         void **Params, void **Extra) {
  bindDevice();
  // AMD GPUs need no opt-in for their 64 KiB of LDS.
  static_cast<Function *>(F)->MaxDynamicShared = 64 * 1024;
  // HIP_LAUNCH_PARAM_END is 3; CUDA's is 0.
  std::vector<void *> Translated;
  for (void **P = Extra; P; P += 2) {
    if (*P == reinterpret_cast<void *>(3)) {
      Translated.push_back(nullptr);
      break;
    }
    if (*P == nullptr)
      return 1; // CUDA's END: wrong for HIP
    Translated.push_back(P[0]);
    Translated.push_back(P[1]);
  }
  return fromCUDA(cuLaunchKernel(F, GX, GY, GZ, BX, BY, BZ, Shared, S, Params,
                                 Extra ? Translated.data() : nullptr));
}
