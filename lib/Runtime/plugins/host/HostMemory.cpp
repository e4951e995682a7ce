//===- HostMemory.cpp - Host allocations that never reuse an address ------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "HostMemory.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

#include <sys/mman.h>
#include <unistd.h>

using namespace offload::host;

HostMemory &HostMemory::get() {
  static HostMemory *Memory = new HostMemory();
  return *Memory;
}

HostMemory::HostMemory() : PageSize(size_t(sysconf(_SC_PAGESIZE))) {}

bool HostMemory::reserve(size_t Size) {
  // Large regions make few mappings; a limited address space (RLIMIT_AS)
  // gets smaller ones.
  const size_t Candidates[] = {size_t(64) << 30, size_t(1) << 30,
                               llvm::alignTo(Size, size_t(2) << 20)};
  for (size_t Length : Candidates) {
    if (Length < Size || Length < PageSize)
      continue;
    void *Region = mmap(nullptr, Length, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (Region == MAP_FAILED)
      continue;
    // The rest of the previous region is never used: its addresses stay
    // reserved (and untouched, so they cost no memory).
    leaveCurrentPage();
    CurrentPage = 0;
    Next = reinterpret_cast<uintptr_t>(Region);
    End = Next + Length;
    return true;
  }
  return false;
}

void HostMemory::leaveCurrentPage() {
  if (!CurrentPage)
    return;
  auto It = SmallPages.find(CurrentPage);
  if (It != SmallPages.end() && It->second == 0) {
    discard(CurrentPage, CurrentPage + PageSize);
    SmallPages.erase(It);
  }
}

void HostMemory::discard(uintptr_t Begin, uintptr_t End) {
  // The addresses stay mapped (and never handed out again); their memory
  // goes back to the system.
  madvise(reinterpret_cast<void *>(Begin), End - Begin, MADV_DONTNEED);
}

void *HostMemory::allocate(size_t Size, size_t Alignment) {
  std::lock_guard<std::mutex> Lock(Mutex);
  bool Small = isSmall(Size);
  // A large allocation has pages of its own, a small one lies in one page.
  auto Place = [&](uintptr_t &Begin, uintptr_t &Stop) {
    if (Small) {
      Begin = llvm::alignTo(Next, Alignment);
      if (Begin / PageSize != (Begin + Size - 1) / PageSize)
        Begin = llvm::alignTo(Begin, PageSize);
      Stop = Begin + Size;
    } else {
      Begin = llvm::alignTo(Next, std::max(PageSize, Alignment));
      Stop = llvm::alignTo(Begin + Size, PageSize);
    }
    return Next && Begin >= Next && Stop > Begin && Stop <= End;
  };
  uintptr_t Begin, Stop;
  // A new region leaves room for the alignment of a large allocation.
  size_t Room = Small ? Size : llvm::SaturatingAdd(Size, Alignment);
  if (!Place(Begin, Stop) && (!reserve(Room) || !Place(Begin, Stop)))
    return nullptr;
  Next = Stop;
  if (Small) {
    uintptr_t Page = Begin & ~uintptr_t(PageSize - 1);
    if (Page != CurrentPage) {
      leaveCurrentPage();
      CurrentPage = Page;
    }
    ++SmallPages[Page];
  } else {
    leaveCurrentPage();
    CurrentPage = 0;
  }
  return reinterpret_cast<void *>(Begin);
}

void HostMemory::release(void *Ptr, size_t Size) {
  uintptr_t Begin = reinterpret_cast<uintptr_t>(Ptr);
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!isSmall(Size))
    return discard(Begin, llvm::alignTo(Begin + Size, PageSize));
  uintptr_t Page = Begin & ~uintptr_t(PageSize - 1);
  auto It = SmallPages.find(Page);
  if (It == SmallPages.end() || It->second == 0 || --It->second != 0 ||
      Page == CurrentPage)
    return;
  discard(Page, Page + PageSize);
  SmallPages.erase(It);
}
