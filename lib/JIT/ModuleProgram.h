//===- ModuleProgram.h - JIT programs from a caller's module ----*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What ModuleAPI.cpp (include/OffloadJIT/MLIRModule.h) and the engine
// (Engine.h) share: programs whose module lives in the caller's MLIRContext
// instead of the engine's contexts.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_MODULEPROGRAM_H
#define OFFLOAD_LIB_JIT_MODULEPROGRAM_H

#include "OffloadJIT/OffloadJIT.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <mutex>
#include <string>

namespace offloadjit {

/// The lock that serializes the JIT's compiles (and the release of its
/// modules) in the caller's context \p Context.
std::mutex &getExternalContextMutex(mlir::MLIRContext *Context);

/// The engine's part of mlir::offload::jit::createProgram (CAPI.cpp): a
/// program for \p Device around \p Clone (a verified module in a context
/// prepared for the JIT, owned by the program from now on), whose module
/// part of every key is \p ModuleHash. \p CheckTools: CheckTool bits.
offload_result_t
createProgramFromModule(offload_device_handle_t Device,
                        mlir::OwningOpRef<mlir::ModuleOp> Clone,
                        std::string ModuleHash, uint32_t CheckTools,
                        offload_jit_program_handle_t *Out);

/// Makes the error value of the C API (CAPI.cpp).
offload_result_t makeJITError(offload_errc_t Code, std::string Message);

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_MODULEPROGRAM_H
