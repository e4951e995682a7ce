//===- GPUToOffloadHost.h - Lower gpu kernels for the host ------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"

#include <optional>
#include <string>

namespace mlir {
class RewritePatternSet;
namespace offload {

/// The source position of \p loc for messages: the first file location in
/// it, a call site resolved to its callee (an inlined function's own line);
/// std::nullopt when it has none.
std::optional<FileLineColLoc> getSourceLocation(Location loc);

/// getSourceLocation(loc) as "file:line:col" for the checking tools'
/// reports; "<unknown>" when it has none.
std::string describeSourceLocation(Location loc);

/// The address (!llvm.ptr) of a new private NUL-terminated string global of
/// \p module holding \p text, named "<prefix>.<n>".
Value createHostStringAddress(OpBuilder &b, Location loc,
                              gpu::GPUModuleOp module, StringRef prefix,
                              StringRef text);

/// Patterns that rewrite, inside kernels, what the host target implements
/// with barriers and shuffles (gpu.all_reduce, gpu.subgroup_reduce for a
/// subgroup of 32 threads) and other gpu/arith ops into simpler ones
/// (gpu.global_id, arith ceil/floor division).
void populateHostKernelPreparationPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
