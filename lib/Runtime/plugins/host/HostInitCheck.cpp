//===- HostInitCheck.cpp - Initcheck of host kernels ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The kernel side of initcheck (lib/Runtime/InitCheck.h): the calls that
// offload-check-initialization puts before a kernel's global memory
// accesses. A read of bytes of a tracked allocation that nothing wrote is
// reported once per launch, location and allocation, in compute-sanitizer's
// shape, and counted in the launch's failures.
//
//===----------------------------------------------------------------------===//

#include "HostFault.h"

#include "../../CheckServices.h"

#include "OffloadRuntime/HostKernelABI.h"

#include "llvm/Support/FormatVariadic.h"

using namespace offload;
using namespace offload::host;

namespace {
const char *describeKind(offload_alloc_type_t Kind) {
  switch (Kind) {
  case OFFLOAD_ALLOC_TYPE_HOST:
    return "host";
  case OFFLOAD_ALLOC_TYPE_DEVICE:
    return "device";
  case OFFLOAD_ALLOC_TYPE_MANAGED:
    return "managed";
  }
  return "device";
}

void reportUninitializedRead(const char *Location, const char *Kernel,
                             uintptr_t Address, int64_t Bytes,
                             const initcheck::Allocation &A, int64_t First,
                             int64_t ThreadX, int64_t ThreadY,
                             int64_t ThreadZ) {
  RunningLaunch Launch = getRunningLaunch();
  if (!Launch.Failures || !Launch.Ctx)
    return;
  std::string Key =
      llvm::formatv("init|{0}|{1}", (const void *)Location, A.Base).str();
  {
    std::lock_guard<std::mutex> Lock(Launch.Failures->ReportedMutex);
    if (!Launch.Failures->Reported.insert(Key).second)
      return;
  }
  Launch.Failures->UninitializedReads.fetch_add(1, std::memory_order_relaxed);
  size_t Offset = Address - A.Base;
  std::string Unwritten =
      size_t(First) == Offset
          ? std::string()
          : llvm::formatv(" (its byte at offset {0} was never written)", First)
                .str();
  const offload_host_kernel_context_t &Ctx = *Launch.Ctx;
  check::report(
      llvm::formatv("Uninitialized __global__ memory read of size {0} bytes\n"
                    "    at {1} in kernel '{2}'\n"
                    "    by thread ({3},{4},{5}) in block ({6},{7},{8})\n"
                    "    Address {9} is at offset {10}{11} of an allocation of "
                    "{12} bytes "
                    "of {13} memory at {14}\n"
                    "    allocated {15}",
                    Bytes, Location,
                    Kernel ? llvm::StringRef(Kernel) : Launch.Name, ThreadX,
                    ThreadY, ThreadZ, Ctx.BlockId[0], Ctx.BlockId[1],
                    Ctx.BlockId[2], reinterpret_cast<const void *>(Address),
                    Offset, Unwritten, A.Size, describeKind(A.Kind),
                    reinterpret_cast<const void *>(A.Base),
                    A.Origin.empty()
                        ? std::string("by a call without a code location (use "
                                      "the WithCodeLoc entry points to see it)")
                        : A.Origin)
          .str());
}
} // namespace

extern "C" void __offload_host_check_init(const char *Location,
                                          const char *Kernel, int64_t Address,
                                          int64_t Bytes, int64_t Flags,
                                          int64_t ThreadX, int64_t ThreadY,
                                          int64_t ThreadZ) {
  // A kernel instrumented without OFFLOAD_CHECK=init (Python's check=, the
  // JIT's options): allocations are tracked from now on.
  if (!initcheck::isTracking())
    initcheck::startTracking();
  if (Bytes <= 0)
    return;
  initcheck::Allocation *A = initcheck::findAllocation(uintptr_t(Address));
  if (!A)
    return;
  size_t Offset = uintptr_t(Address) - A->Base;
  size_t Size = std::min<size_t>(size_t(Bytes), A->Size - Offset);
  if (Flags & OFFLOAD_HOST_CHECK_INIT_READ) {
    int64_t First = A->findUnwritten(Offset, Size);
    if (First >= 0)
      reportUninitializedRead(Location, Kernel, uintptr_t(Address), Bytes, *A,
                              First, ThreadX, ThreadY, ThreadZ);
  }
  if (Flags & OFFLOAD_HOST_CHECK_INIT_WRITE)
    A->markWritten(Offset, Size);
}

extern "C" int32_t __offload_host_check_init_pending(int64_t Address) {
  // Before tracking starts, the accesses' calls start it.
  if (!initcheck::isTracking())
    return 1;
  initcheck::Allocation *A = initcheck::findAllocation(uintptr_t(Address));
  return A && A->hasUnwritten();
}

extern "C" __attribute__((visibility("default"))) void
__offload_host_check_init_start(void) {
  initcheck::startTracking();
}

extern "C" void __offload_host_check_init_write_all(int64_t Address) {
  if (!initcheck::isTracking())
    initcheck::startTracking();
  if (initcheck::Allocation *A = initcheck::findAllocation(uintptr_t(Address)))
    A->markWritten(0, A->Size);
}
