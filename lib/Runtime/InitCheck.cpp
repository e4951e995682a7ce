//===- InitCheck.cpp - initcheck: the shadow of device allocations --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "InitCheck.h"
#include "Check.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>
#include <map>
#include <mutex>

using namespace offload;
using namespace offload::initcheck;

std::atomic<bool> initcheck::detail::Tracking{false};

namespace {
/// The tracked allocations by start address; never destroyed (kernels may
/// still run at exit).
struct Registry {
  std::mutex Mutex;
  std::map<uintptr_t, std::shared_ptr<Allocation>> Allocations;
  /// Bumped by every change of Allocations: the per-thread caches compare.
  std::atomic<uint64_t> Generation{1};
};

Registry &getRegistry() {
  static Registry *R = new Registry();
  return *R;
}

/// What an OS thread last found, as of one generation of the registry: the
/// last few allocations (a kernel's accesses alternate between its buffers),
/// and a range of addresses in none.
struct LookupCache {
  static constexpr unsigned Ways = 4;
  uint64_t Generation = 0;
  std::shared_ptr<Allocation> Hits[Ways];
  unsigned Next = 0; // the way the next miss replaces
  uintptr_t MissBegin = 0, MissEnd = 0;
};
thread_local LookupCache Cache;

/// The allocation containing \p Address, with the registry locked; fills
/// \p MissBegin and \p MissEnd with the gap around it when none.
std::shared_ptr<Allocation> lookupLocked(Registry &R, uintptr_t Address,
                                         uintptr_t &MissBegin,
                                         uintptr_t &MissEnd) {
  auto Next = R.Allocations.upper_bound(Address);
  MissEnd = Next == R.Allocations.end() ? UINTPTR_MAX : Next->first;
  MissBegin = 0;
  if (Next == R.Allocations.begin())
    return nullptr;
  const std::shared_ptr<Allocation> &A = std::prev(Next)->second;
  if (Address - A->Base < A->Size)
    return A;
  MissBegin = A->Base + A->Size;
  return nullptr;
}

std::shared_ptr<Allocation> lookup(uintptr_t Address) {
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  uintptr_t Begin, End;
  return lookupLocked(R, Address, Begin, End);
}
} // namespace

void initcheck::startTracking() {
  detail::Tracking.store(true, std::memory_order_relaxed);
}

void Allocation::markWritten(size_t Offset, size_t Bytes) {
  if (Unwritten.load(std::memory_order_relaxed) <= 0)
    return;
  int64_t Newly = 0;
  for (size_t I = Offset, E = Offset + Bytes; I < E; ++I)
    if (!Shadow[I].load(std::memory_order_relaxed) &&
        !Shadow[I].exchange(1, std::memory_order_relaxed))
      ++Newly;
  if (Newly)
    Unwritten.fetch_sub(Newly, std::memory_order_relaxed);
}

int64_t Allocation::findUnwritten(size_t Offset, size_t Bytes) {
  if (Unwritten.load(std::memory_order_relaxed) <= 0)
    return -1;
  size_t I = Offset, E = Offset + Bytes;
  while (I < E && Shadow[I].load(std::memory_order_relaxed))
    ++I;
  if (I == E || Kind == OFFLOAD_ALLOC_TYPE_DEVICE)
    return I == E ? -1 : int64_t(I);
  // Host code may have written host and managed memory directly: the bytes
  // no copy, fill or kernel wrote in the 64-byte blocks of the access must
  // all still hold the fill (a host write of bytes, 1/256 of them 0xA5,
  // leaves none of its blocks so). A block where one does not is written
  // by the host: marked written, so that later reads of it find their
  // bytes written at the first look.
  const uint8_t *Memory = reinterpret_cast<const uint8_t *>(Base);
  // Other threads of the launch may write these bytes while this one looks
  // (histogram's blocks adding into one array): a byte written meanwhile no
  // longer tells anything, so only a byte still unwritten after the scan is
  // reported, only when some unwritten byte of the blocks was seen, and a
  // byte that differs from the fill makes its block the host's only when its
  // shadow still says unwritten after (a kernel store marks the shadow
  // first).
  bool SawUnwritten = false, HostWritten = false;
  for (size_t Block = Offset / FillBlock * FillBlock; Block < Offset + Bytes;
       Block += FillBlock) {
    size_t BlockEnd = std::min(Size, Block + FillBlock);
    bool Host = false;
    for (size_t J = Block; J < BlockEnd && !Host; ++J) {
      if (Shadow[J].load(std::memory_order_relaxed))
        continue;
      if (Memory[J] == FillByte)
        SawUnwritten = true;
      else
        Host = !Shadow[J].load(std::memory_order_acquire);
    }
    if (Host) {
      markWritten(Block, BlockEnd - Block);
      HostWritten = true;
    }
  }
  if (HostWritten || !SawUnwritten)
    return -1;
  for (I = Offset; I < E; ++I)
    if (!Shadow[I].load(std::memory_order_relaxed))
      return int64_t(I);
  return -1;
}

void initcheck::recordAllocation(void *Ptr, size_t Size,
                                 offload_alloc_type_t Kind) {
  auto A = std::make_shared<Allocation>();
  A->Base = reinterpret_cast<uintptr_t>(Ptr);
  A->Size = Size;
  A->Kind = Kind;
  if (const offload_code_location_t *L = check::detail::CurrentCodeLocation)
    A->Origin = llvm::formatv("at {0} ({1}:{2}:{3})",
                              L->FunctionName ? L->FunctionName : "<unknown>",
                              L->SourceFile ? L->SourceFile : "<unknown>",
                              L->LineNumber, L->ColumnNumber)
                    .str();
  // std::atomic<uint8_t> is a byte, zero its "not written".
  static_assert(sizeof(std::atomic<uint8_t>) == 1);
  A->Shadow.reset(static_cast<std::atomic<uint8_t> *>(
      std::calloc(std::max<size_t>(Size, 1), 1)));
  if (!A->Shadow)
    return; // Not tracked: no report can be false.
  A->Unwritten.store(int64_t(Size), std::memory_order_relaxed);
  if (Kind != OFFLOAD_ALLOC_TYPE_DEVICE)
    std::memset(Ptr, FillByte, Size);
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  R.Allocations[A->Base] = std::move(A);
  R.Generation.fetch_add(1, std::memory_order_release);
}

void initcheck::recordFree(void *Ptr) {
  Registry &R = getRegistry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  if (R.Allocations.erase(reinterpret_cast<uintptr_t>(Ptr)))
    R.Generation.fetch_add(1, std::memory_order_release);
}

bool initcheck::isTracked(const void *Ptr) {
  return lookup(reinterpret_cast<uintptr_t>(Ptr)) != nullptr;
}

void initcheck::recordWrite(void *Dst, const void *Src, size_t Size) {
  uintptr_t D = reinterpret_cast<uintptr_t>(Dst);
  std::shared_ptr<Allocation> To = lookup(D);
  if (!To)
    return;
  size_t Offset = D - To->Base;
  Size = std::min(Size, To->Size - Offset);
  // A copy from a device allocation carries its shadow (host code may have
  // written host and managed memory: those count as written).
  std::shared_ptr<Allocation> From =
      Src ? lookup(reinterpret_cast<uintptr_t>(Src)) : nullptr;
  if (!From || From->Kind != OFFLOAD_ALLOC_TYPE_DEVICE ||
      From->Unwritten.load(std::memory_order_relaxed) <= 0)
    return To->markWritten(Offset, Size);
  size_t FromOffset = reinterpret_cast<uintptr_t>(Src) - From->Base;
  for (size_t I = 0; I < Size; ++I) {
    bool Written = FromOffset + I >= From->Size ||
                   From->Shadow[FromOffset + I].load(std::memory_order_relaxed);
    if (Written)
      To->markWritten(Offset + I, 1);
  }
}

Allocation *initcheck::findAllocation(uintptr_t Address) {
  Registry &R = getRegistry();
  uint64_t Generation = R.Generation.load(std::memory_order_acquire);
  LookupCache &C = Cache;
  if (C.Generation == Generation) {
    for (const std::shared_ptr<Allocation> &Hit : C.Hits)
      if (Hit && Address - Hit->Base < Hit->Size)
        return Hit.get();
    if (Address >= C.MissBegin && Address < C.MissEnd)
      return nullptr;
  } else {
    for (std::shared_ptr<Allocation> &Hit : C.Hits)
      Hit.reset();
    C.MissBegin = C.MissEnd = 0;
    C.Generation = Generation;
  }
  std::lock_guard<std::mutex> Lock(R.Mutex);
  uintptr_t Begin, End;
  std::shared_ptr<Allocation> A = lookupLocked(R, Address, Begin, End);
  if (!A) {
    C.MissBegin = Begin;
    C.MissEnd = End;
    return nullptr;
  }
  std::shared_ptr<Allocation> &Way = C.Hits[C.Next];
  C.Next = (C.Next + 1) % LookupCache::Ways;
  Way = std::move(A);
  return Way.get();
}
