//===- InitCheck.h - initcheck: the shadow of device allocations -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// compute-sanitizer's initcheck for the host device: a shadow byte per byte
// of every offloadMemAlloc allocation of the host device, 1 once the byte
// was written by a copy (offloadMemcpy*: the source's shadow when the source
// is such an allocation too, else written), a fill (offloadMemFill) or a
// kernel store (__offload_host_check_init, from offload-check-initialization),
// and a report of every kernel read of a byte still 0 (HostInitCheck.cpp).
//
// Tracking starts when the runtime initializes with OFFLOAD_CHECK naming
// init (offload-run --check=init sets it), or else when the first kernel
// instrumented for initcheck runs (Python's check="init", the JIT's program
// options): allocations made before are not tracked, never reported. Copies
// and fills on a queue set the shadow when the queue reaches them.
//
// Host and managed allocations may also be written by host code directly,
// which the runtime cannot see: they are filled with the byte 0xA5 when
// allocated, and a read of their unwritten bytes is only reported when every
// unwritten byte of the 64-byte blocks it touches still holds it.
//
// With tracking off, the entry points test one flag.
//
// The shadow itself (Allocation, findAllocation, tracking on and off), which
// the host plugin's kernel callbacks use too, is declared in the leaf header
// CheckServices.h; this header adds what only the core's entry points call.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_INITCHECK_H
#define OFFLOADRUNTIME_LIB_INITCHECK_H

#include "CheckServices.h"

#include "OffloadRuntime/OffloadAPI.h"

#include <cstddef>

namespace offload::initcheck {

/// Records \p Ptr, \p Size bytes of memory \p Kind of the host device, made
/// at the code location of the running entry point (tracking on).
void recordAllocation(void *Ptr, size_t Size, offload_alloc_type_t Kind);
/// Forgets the allocation at \p Ptr.
void recordFree(void *Ptr);
/// Whether \p Ptr lies in a tracked allocation.
bool isTracked(const void *Ptr);
/// A copy (from \p Src, or a fill when null) wrote [Dst, Dst + Size).
void recordWrite(void *Dst, const void *Src, size_t Size);

} // namespace offload::initcheck

#endif // OFFLOADRUNTIME_LIB_INITCHECK_H
