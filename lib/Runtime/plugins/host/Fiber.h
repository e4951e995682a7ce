//===- Fiber.h - Threads of a block as fibers on one OS thread -*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The block executors of the host plugin: a non-cooperative block is one call
// of the kernel's RunBlock; a cooperative block runs every GPU thread as a
// fiber so that __offload_host_barrier and __offload_host_shuffle can switch
// between them. See Fiber.cpp for the scheduling rules.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HOST_FIBER_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HOST_FIBER_H

#include "OffloadRuntime/HostKernelABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <atomic>

namespace offload {
namespace host {

/// What every block of one launch shares.
struct BlockLaunch {
  const offload_host_kernel_descriptor_t *Desc;
  const void *Args;
  /// The kernel's name, for messages.
  llvm::StringRef Name;
  /// Stack size of one fiber, bytes.
  size_t FiberStackSize;
};

/// Runs the block described by \p Ctx of a non-cooperative kernel.
llvm::Error runNonCooperativeBlock(const BlockLaunch &Launch,
                                   offload_host_kernel_context_t &Ctx);

/// Runs blocks [\p Begin, \p End) (linear ids, x fastest) of a
/// non-cooperative kernel with \p Ctx (its grid and block sizes set); stops
/// early once \p Stop is set (another block failed).
llvm::Error runNonCooperativeBlocks(const BlockLaunch &Launch,
                                    offload_host_kernel_context_t &Ctx,
                                    uint64_t Begin, uint64_t End,
                                    const std::atomic<bool> &Stop);

/// Sets the block id of \p Ctx from the linear id \p Linear (x fastest).
void setBlockId(offload_host_kernel_context_t &Ctx, uint64_t Linear);

/// Runs the block described by \p Ctx of a cooperative kernel, one fiber per
/// thread, on the calling OS thread. Returns an error if the threads deadlock.
llvm::Error runCooperativeBlock(const BlockLaunch &Launch,
                                offload_host_kernel_context_t &Ctx);

} // namespace host
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HOST_FIBER_H
