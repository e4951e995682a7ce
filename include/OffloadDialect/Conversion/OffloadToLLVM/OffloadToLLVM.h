//===- OffloadToLLVM.h - Offload ops to runtime calls -----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reusable pieces of `convert-offload-to-llvm`, for pipelines that lower the
// offload dialect together with other dialects in one conversion.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADDIALECT_CONVERSION_OFFLOADTOLLVM_OFFLOADTOLLVM_H
#define OFFLOADDIALECT_CONVERSION_OFFLOADTOLLVM_OFFLOADTOLLVM_H

namespace mlir {
class ConversionTarget;
class LLVMTypeConverter;
class RewritePatternSet;

namespace offload {

/// Adds the conversions `!offload.device`, `!offload.queue` and
/// `!offload.event` -> `!llvm.ptr` to \p converter.
void populateOffloadToLLVMTypeConversions(LLVMTypeConverter &converter);

/// Marks the host-side offload ops and `gpu.binary` illegal;
/// `offload.runtime_constant` (device code) stays legal.
void configureOffloadToLLVMLegality(ConversionTarget &target);

/// Adds the patterns lowering host-side offload ops to calls into the
/// runtime C API (`include/OffloadRuntime/OffloadAPI.h`) and `gpu.binary` ops
/// to `__offload_image.<name>` constant globals. Each runtime call is
/// followed by `offloadAbortOnError(result, "<context>")`. Launches must refer
/// to a `gpu.binary`. Needs the type conversions of
/// populateOffloadToLLVMTypeConversions in \p converter.
void populateOffloadToLLVMConversionPatterns(LLVMTypeConverter &converter,
                                             RewritePatternSet &patterns);

} // namespace offload
} // namespace mlir

#endif // OFFLOADDIALECT_CONVERSION_OFFLOADTOLLVM_OFFLOADTOLLVM_H
