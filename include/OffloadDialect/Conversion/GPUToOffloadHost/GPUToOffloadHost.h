//===- GPUToOffloadHost.h - Lower gpu kernels for the host ------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
#define OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/SymbolTable.h"

#include "llvm/ADT/StringMap.h"

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
/// \p module holding \p text, named "<prefix>.<n>". Linear in the size of
/// the module (a symbol lookup per name tried): for one string per
/// instrumented op, use HostModuleSymbols.
Value createHostStringAddress(OpBuilder &b, Location loc,
                              gpu::GPUModuleOp module, StringRef prefix,
                              StringRef text);

/// The symbols that the checking tools' instrumentation adds to one
/// gpu.module (string constants for their reports, declarations of runtime
/// calls), found and made in constant time: one SymbolTable built when the
/// object is made (O(module size)), and the string globals by text.
/// Instrumenting n accesses is O(n), where a SymbolTable::lookupSymbolIn per
/// access was O(n * module size) (minutes for the benchmark kernels).
/// Valid while only this object adds or removes symbols of the module.
class HostModuleSymbols {
public:
  explicit HostModuleSymbols(gpu::GPUModuleOp module);

  gpu::GPUModuleOp getModule() const { return module; }

  /// The address (!llvm.ptr) of a private constant NUL-terminated string
  /// global holding \p text, named "<prefix>.<n>": one global per distinct
  /// prefix and text, shared by every use (also by those of an earlier
  /// HostModuleSymbols of the module).
  Value getStringAddress(OpBuilder &b, Location loc, StringRef prefix,
                         StringRef text);

  /// The private declaration `func.func @name(inputs) -> results` of a
  /// runtime call, added at the end of the module when absent. Null, with
  /// an error on the module, when a symbol of that name is not a func.func
  /// of that type (the names are the runtime's).
  func::FuncOp getOrDeclareFunc(OpBuilder &b, StringRef name,
                                FunctionType type);

private:
  gpu::GPUModuleOp module;
  SymbolTable symbols;
  /// prefix, '\0', text -> the global's name.
  llvm::StringMap<StringAttr> strings;
  /// The next <n> to try per prefix.
  llvm::StringMap<unsigned> nextIndex;
};

/// Patterns that rewrite, inside kernels, what the host target implements
/// with barriers and shuffles (gpu.all_reduce, gpu.subgroup_reduce for a
/// subgroup of 32 threads) and other gpu/arith ops into simpler ones
/// (gpu.global_id, arith ceil/floor division).
void populateHostKernelPreparationPatterns(RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_GPUTOOFFLOADHOST_GPUTOOFFLOADHOST_H
