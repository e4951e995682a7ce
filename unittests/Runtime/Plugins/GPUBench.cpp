//===- GPUBench.cpp - Runtime overhead against the CUDA driver ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload-gpu-bench: compares, in one process and on one CUDA device, the
// runtime's offloadLaunchKernel and offloadMemcpy with the CUDA driver's
// cuLaunchKernel and cuMemcpyAsync called directly (the driver is dlopen'd
// here too, from OFFLOAD_CUDA_LIBRARY or libcuda.so.1, and shares the
// runtime's primary context):
//  - launch: time per asynchronous launch of an empty kernel (N launches on
//    a queue / stream, then one synchronization), and per synchronous launch
//    (launch + wait);
//  - copy: bandwidth of synchronous host-to-device, device-to-host and
//    device-to-device copies, pinned and pageable host memory, by size.
// Each figure is the median of --repeat runs. Output: a table, then one JSON
// object per line ("bench": ...) for scripts.
//
//   offload-gpu-bench [--launches N] [--repeat R] [--max-size BYTES] [--quick]
//
// Exit status: 0 on success, 1 on an error, 77 when there is no CUDA device.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <functional>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;
using Handle = void *;

struct Driver {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDeviceGet)(int *, int);
  CUresult (*cuDevicePrimaryCtxRetain)(Handle *, int);
  CUresult (*cuDevicePrimaryCtxRelease)(int);
  CUresult (*cuCtxSetCurrent)(Handle);
  CUresult (*cuStreamCreate)(Handle *, unsigned);
  CUresult (*cuStreamDestroy)(Handle);
  CUresult (*cuStreamSynchronize)(Handle);
  CUresult (*cuModuleLoadDataEx)(Handle *, const void *, unsigned, int *,
                                 void **);
  CUresult (*cuModuleUnload)(Handle);
  CUresult (*cuModuleGetFunction)(Handle *, Handle, const char *);
  CUresult (*cuLaunchKernel)(Handle, unsigned, unsigned, unsigned, unsigned,
                             unsigned, unsigned, unsigned, Handle, void **,
                             void **);
  CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemAllocHost)(void **, size_t);
  CUresult (*cuMemFreeHost)(void *);
  CUresult (*cuMemcpyAsync)(CUdeviceptr, CUdeviceptr, size_t, Handle);
};

const char *NoopPTX = R"ptx(
.version 7.0
.target sm_75
.address_size 64
.visible .entry noop(.param .u64 noop_p)
{
  ret;
}
)ptx";

[[noreturn]] void fail(const std::string &What) {
  std::fprintf(stderr, "offload-gpu-bench: %s\n", What.c_str());
  std::exit(1);
}

void check(offload_result_t R, const char *What) {
  if (R)
    fail(std::string(What) + ": " + offloadErrcName(R->Code) + ": " +
         (R->Details ? R->Details : ""));
}

void check(CUresult R, const char *What) {
  if (R)
    fail(std::string(What) + " failed: CUresult " + std::to_string(R));
}

template <typename T> void load(void *Lib, T &Fn, const char *Name) {
  Fn = reinterpret_cast<T>(dlsym(Lib, Name));
  if (!Fn)
    fail(std::string("the CUDA driver lacks ") + Name);
}

double seconds(const std::function<void()> &Fn) {
  auto Start = std::chrono::steady_clock::now();
  Fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
      .count();
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  return V[V.size() / 2];
}

/// The median over \p Repeat runs of \p Fn, after one warm-up run.
double measure(int Repeat, const std::function<void()> &Fn) {
  Fn();
  std::vector<double> Times;
  for (int I = 0; I < Repeat; ++I)
    Times.push_back(seconds(Fn));
  return median(Times);
}

struct Row {
  std::string Bench, Case;
  double Ours, Direct;
  const char *Unit;
};
std::vector<Row> Rows;

void report(const std::string &Bench, const std::string &Case, double Ours,
            double Direct, const char *Unit) {
  Rows.push_back({Bench, Case, Ours, Direct, Unit});
  std::printf("%-8s %-28s offload %10.3f %-5s cuda %10.3f %-5s ratio %.2f\n",
              Bench.c_str(), Case.c_str(), Ours, Unit, Direct, Unit,
              Direct ? Ours / Direct : 0.0);
  std::fflush(stdout);
}

} // namespace

int main(int Argc, char **Argv) {
  int Launches = 20000, Repeat = 5;
  size_t MaxSize = size_t(256) << 20;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--launches" && I + 1 < Argc)
      Launches = std::atoi(Argv[++I]);
    else if (A == "--repeat" && I + 1 < Argc)
      Repeat = std::max(1, std::atoi(Argv[++I]));
    else if (A == "--max-size" && I + 1 < Argc)
      MaxSize = std::strtoull(Argv[++I], nullptr, 0);
    else if (A == "--quick") {
      Launches = 200;
      Repeat = 1;
      MaxSize = 1 << 20;
    } else {
      std::fprintf(stderr,
                   "usage: offload-gpu-bench [--launches N] [--repeat R] "
                   "[--max-size BYTES] [--quick]\n");
      return 2;
    }
  }

  check(offloadInit(), "offloadInit");
  offload_device_handle_t Device = nullptr, Host = nullptr;
  if (offloadGetDevice(OFFLOAD_PLATFORM_BACKEND_CUDA, 0, &Device)) {
    std::printf("offload-gpu-bench: no CUDA device (OFFLOAD_TRACE=1 says "
                "why); skipped\n");
    offloadShutDown();
    return 77;
  }
  check(offloadGetHostDevice(&Host), "offloadGetHostDevice");
  char Name[256] = "";
  check(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_NAME, sizeof(Name),
                             Name),
        "offloadGetDeviceInfo");

  // The same driver, called directly, in the runtime's primary context.
  const char *LibName = std::getenv("OFFLOAD_CUDA_LIBRARY");
  void *Lib = dlopen(LibName && *LibName ? LibName : "libcuda.so.1",
                     RTLD_NOW | RTLD_LOCAL);
  if (!Lib)
    fail(std::string("cannot load the CUDA driver: ") + dlerror());
  Driver D;
  load(Lib, D.cuInit, "cuInit");
  load(Lib, D.cuDeviceGet, "cuDeviceGet");
  load(Lib, D.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(Lib, D.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  load(Lib, D.cuCtxSetCurrent, "cuCtxSetCurrent");
  load(Lib, D.cuStreamCreate, "cuStreamCreate");
  load(Lib, D.cuStreamDestroy, "cuStreamDestroy_v2");
  load(Lib, D.cuStreamSynchronize, "cuStreamSynchronize");
  load(Lib, D.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  load(Lib, D.cuModuleUnload, "cuModuleUnload");
  load(Lib, D.cuModuleGetFunction, "cuModuleGetFunction");
  load(Lib, D.cuLaunchKernel, "cuLaunchKernel");
  load(Lib, D.cuMemAlloc, "cuMemAlloc_v2");
  load(Lib, D.cuMemFree, "cuMemFree_v2");
  load(Lib, D.cuMemAllocHost, "cuMemAllocHost_v2");
  load(Lib, D.cuMemFreeHost, "cuMemFreeHost");
  load(Lib, D.cuMemcpyAsync, "cuMemcpyAsync");
  check(D.cuInit(0), "cuInit");
  int Dev = 0;
  Handle Ctx = nullptr, Stream = nullptr, Module = nullptr, Fn = nullptr;
  check(D.cuDeviceGet(&Dev, 0), "cuDeviceGet");
  check(D.cuDevicePrimaryCtxRetain(&Ctx, Dev), "cuDevicePrimaryCtxRetain");
  check(D.cuCtxSetCurrent(Ctx), "cuCtxSetCurrent");
  check(D.cuStreamCreate(&Stream, 1), "cuStreamCreate");
  check(D.cuModuleLoadDataEx(&Module, NoopPTX, 0, nullptr, nullptr),
        "cuModuleLoadDataEx");
  check(D.cuModuleGetFunction(&Fn, Module, "noop"), "cuModuleGetFunction");

  std::printf("offload-gpu-bench on %s: %d launches, median of %d runs\n", Name,
              Launches, Repeat);

  // Launch latency.
  offload_queue_handle_t Queue = nullptr;
  check(offloadCreateQueue(Device, &Queue), "offloadCreateQueue");
  offload_program_handle_t Program = nullptr;
  check(offloadCreateProgram(Device, NoopPTX, std::strlen(NoopPTX), &Program),
        "offloadCreateProgram");
  offload_symbol_handle_t Kernel = nullptr;
  check(offloadGetSymbol(Program, "noop", OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel),
        "offloadGetSymbol");
  void *Arg = nullptr;
  offload_kernel_launch_size_args_t L{1, {1, 1, 1}, {32, 1, 1}, 0};
  size_t ArgSize = sizeof(Arg);
  void *Extra[] = {reinterpret_cast<void *>(1), &Arg,
                   reinterpret_cast<void *>(2), &ArgSize, nullptr};

  double Ours = measure(Repeat, [&] {
    for (int I = 0; I < Launches; ++I)
      check(offloadLaunchKernel(Queue, Device, Kernel, &Arg, sizeof(Arg), &L),
            "offloadLaunchKernel");
    check(offloadSyncQueue(Queue), "offloadSyncQueue");
  });
  double Direct = measure(Repeat, [&] {
    for (int I = 0; I < Launches; ++I)
      check(D.cuLaunchKernel(Fn, 1, 1, 1, 32, 1, 1, 0, Stream, nullptr, Extra),
            "cuLaunchKernel");
    check(D.cuStreamSynchronize(Stream), "cuStreamSynchronize");
  });
  report("launch", "async (per launch)", Ours / Launches * 1e6,
         Direct / Launches * 1e6, "us");
  int SyncLaunches = std::max(1, Launches / 10);
  Ours = measure(Repeat, [&] {
    for (int I = 0; I < SyncLaunches; ++I)
      check(offloadLaunchKernel(nullptr, Device, Kernel, &Arg, sizeof(Arg), &L),
            "offloadLaunchKernel");
  });
  Direct = measure(Repeat, [&] {
    for (int I = 0; I < SyncLaunches; ++I) {
      check(D.cuLaunchKernel(Fn, 1, 1, 1, 32, 1, 1, 0, Stream, nullptr, Extra),
            "cuLaunchKernel");
      check(D.cuStreamSynchronize(Stream), "cuStreamSynchronize");
    }
  });
  report("launch", "sync (launch + wait)", Ours / SyncLaunches * 1e6,
         Direct / SyncLaunches * 1e6, "us");

  // Copy bandwidth.
  void *DevBuf = nullptr, *DevBuf2 = nullptr, *Pinned = nullptr;
  CUdeviceptr CuDev = 0, CuDev2 = 0;
  void *CuPinned = nullptr;
  check(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, MaxSize, &DevBuf),
        "offloadMemAlloc");
  check(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, MaxSize, &DevBuf2),
        "offloadMemAlloc");
  check(offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_HOST, MaxSize, &Pinned),
        "offloadMemAlloc");
  check(D.cuMemAlloc(&CuDev, MaxSize), "cuMemAlloc_v2");
  check(D.cuMemAlloc(&CuDev2, MaxSize), "cuMemAlloc_v2");
  check(D.cuMemAllocHost(&CuPinned, MaxSize), "cuMemAllocHost_v2");
  std::vector<char> Pageable(MaxSize, 1);
  auto Ptr = [](const void *P) {
    return static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(P));
  };
  for (size_t Size = 4096; Size <= MaxSize; Size *= 16) {
    // Enough copies of small sizes for a stable time.
    int Count =
        static_cast<int>(std::max<size_t>(1, (size_t(64) << 20) / Size));
    Count = std::min(Count, 2000);
    struct Case {
      const char *Name;
      void *OurDst;
      offload_device_handle_t OurDstDev;
      const void *OurSrc;
      offload_device_handle_t OurSrcDev;
      CUdeviceptr CuDst, CuSrc;
    } Cases[] = {
        {"H2D pinned", DevBuf, Device, Pinned, Host, CuDev, Ptr(CuPinned)},
        {"D2H pinned", Pinned, Host, DevBuf, Device, Ptr(CuPinned), CuDev},
        {"H2D pageable", DevBuf, Device, Pageable.data(), Host, CuDev,
         Ptr(Pageable.data())},
        {"D2H pageable", Pageable.data(), Host, DevBuf, Device,
         Ptr(Pageable.data()), CuDev},
        {"D2D", DevBuf2, Device, DevBuf, Device, CuDev2, CuDev},
    };
    for (const Case &C : Cases) {
      double O = measure(Repeat, [&] {
        for (int I = 0; I < Count; ++I)
          check(offloadMemcpy(nullptr, C.OurDst, C.OurDstDev, C.OurSrc,
                              C.OurSrcDev, Size),
                "offloadMemcpy");
      });
      double Dr = measure(Repeat, [&] {
        for (int I = 0; I < Count; ++I) {
          check(D.cuMemcpyAsync(C.CuDst, C.CuSrc, Size, Stream),
                "cuMemcpyAsync");
          check(D.cuStreamSynchronize(Stream), "cuStreamSynchronize");
        }
      });
      double Bytes = double(Size) * Count;
      report("copy", std::string(C.Name) + " " + std::to_string(Size) + " B",
             Bytes / O / 1e9, Bytes / Dr / 1e9, "GB/s");
    }
  }

  for (const Row &R : Rows)
    std::printf("{\"bench\": \"%s\", \"case\": \"%s\", \"offload\": %.4f, "
                "\"cuda\": %.4f, \"unit\": \"%s\"}\n",
                R.Bench.c_str(), R.Case.c_str(), R.Ours, R.Direct, R.Unit);

  check(offloadMemFree(DevBuf), "offloadMemFree");
  check(offloadMemFree(DevBuf2), "offloadMemFree");
  check(offloadMemFree(Pinned), "offloadMemFree");
  check(offloadDestroyProgram(Program), "offloadDestroyProgram");
  check(offloadDestroyQueue(Queue), "offloadDestroyQueue");
  D.cuMemFree(CuDev);
  D.cuMemFree(CuDev2);
  D.cuMemFreeHost(CuPinned);
  D.cuModuleUnload(Module);
  D.cuStreamDestroy(Stream);
  D.cuDevicePrimaryCtxRelease(Dev);
  check(offloadShutDown(), "offloadShutDown");
  return 0;
}
