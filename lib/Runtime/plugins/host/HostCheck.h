//===- HostCheck.h - Racecheck and synccheck of host kernels ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The run-time half of offload-check-races (lib/Conversion/GPUToOffloadHost/
// CheckRaces.cpp): the kernel calls __offload_host_check_access before its
// memory accesses and __offload_host_check_barrier before its barriers
// (HostKernelABI.h). The OS thread running a block keeps, for that block:
//
//   - each thread's barrier interval (the number of barriers it passed) and
//     the location of the last one;
//   - per address touched, the last write and two reads of the newest
//     interval: (thread, interval, location).
//
// Threads of one interval run one after the other (thread loops serialize
// them; fibers switch only at barriers and shuffles), so comparing an access
// with the shadow finds every hazard of the interval exactly: a write after
// another thread's write (write-write) or read (read-write), a read after
// another thread's write (write-read). Each is reported once per launch,
// (kind, locations, interval), and fails the launch. Checked writes to
// global memory also go to the launch's GlobalWriteShadow (HostFault.h):
// a write of another block to the same address is a write-write hazard
// between blocks, reported once per address.
//
// synccheck (Fiber.cpp) asks for the barrier locations of a block's threads
// to name the barrier of a divergent-barrier report.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_RUNTIME_PLUGINS_HOST_HOSTCHECK_H
#define OFFLOAD_LIB_RUNTIME_PLUGINS_HOST_HOSTCHECK_H

#include "OffloadRuntime/HostKernelABI.h"

#include <cstddef>
#include <string>

namespace offload::host {

/// Whether the running block's kernel was instrumented for synccheck (it
/// called __offload_host_check_barrier with the sync flag).
bool isSyncChecked();

/// The running block's kernel name as written (a specialization's
/// original), from its instrumentation; null when not instrumented.
const char *getCheckedKernelName();

/// The location of the last barrier that thread \p Linear (x fastest) of the
/// running block reached; null when not instrumented.
const char *getBarrierLocation(size_t Linear);

/// synccheck of the block this thread ran last, when its kernel runs as
/// thread loops: threads that passed fewer barriers than others (they
/// returned early) are reported. Called when a thread's range of blocks
/// ends; a block followed by another on the same thread is checked when the
/// next one starts.
void finishCheckedBlock();

/// Reports a synccheck error (lines without the "=========" prefix) once
/// per launch and \p Key, and counts it in the launch's failures.
void reportSyncError(const char *Key, const std::string &Lines);

} // namespace offload::host

#endif // OFFLOAD_LIB_RUNTIME_PLUGINS_HOST_HOSTCHECK_H
