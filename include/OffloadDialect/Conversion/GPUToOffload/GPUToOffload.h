//===- GPUToOffload.h - Host-side gpu ops to offload ops --------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reusable pieces of `convert-gpu-to-offload`: the type conversion of async
// tokens, the legality of host-side gpu ops and the rewrite patterns.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOAD_GPUTOOFFLOAD_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOAD_GPUTOOFFLOAD_H

#include "OffloadDialect/IR/OffloadDialect.h"

namespace mlir {
class ConversionTarget;
class RewritePatternSet;
class TypeConverter;

namespace offload {

/// Adds the conversion `!gpu.async.token` -> `!offload.queue` to
/// \p converter. The converter must already convert every other type to
/// itself (e.g. through an identity `addConversion([](Type t) { return t; })`
/// registered first).
void populateGPUToOffloadTypeConversions(TypeConverter &converter);

/// Marks the offload dialect legal and the host-side gpu ops handled by
/// populateGPUToOffloadConversionPatterns (plus `gpu.launch`, which must be
/// outlined first) illegal outside of `gpu.module`s.
void configureGPUToOffloadLegality(ConversionTarget &target);

/// Adds the patterns rewriting host-side gpu ops (`gpu.launch_func`,
/// `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy`, `gpu.memset`,
/// `gpu.host_register`, `gpu.host_unregister`, `gpu.wait`) into offload ops.
/// Ops that need a device use one `offload.get_device platform deviceIndex`
/// created at the start of the entry block of their enclosing function.
/// Async tokens are converted with \p converter (see
/// populateGPUToOffloadTypeConversions).
void populateGPUToOffloadConversionPatterns(const TypeConverter &converter,
                                            RewritePatternSet &patterns,
                                            Platform platform,
                                            unsigned deviceIndex);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOAD_GPUTOOFFLOAD_H
