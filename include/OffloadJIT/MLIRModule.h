//===- MLIRModule.h - JIT programs from an mlir::ModuleOp -------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C++ entry of the JIT for compilers that already hold their kernels as
// an mlir::ModuleOp: a JIT program made from the module itself, without
// printing it and parsing it again, and usable with the whole C API of
// OffloadJIT.h (offloadJITGetKernel, offloadJITLaunchKernel,
// offloadJITGetSpecializedKernel, offloadJITDestroyProgram, the counters and
// caches). docs/Embedding.md, "A JIT program from an mlir::ModuleOp".
//
// Link Offload::JIT (libOffloadJIT.so) and MLIR's and LLVM's shared
// libraries (the MLIR and LLVM CMake targets: libMLIR.so and libLLVM.so,
// which libOffloadJIT.so uses too). Compile with -fno-rtti when MLIR is
// built without RTTI (Debian's is).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADJIT_MLIRMODULE_H
#define OFFLOADJIT_MLIRMODULE_H

#include "OffloadJIT/OffloadJIT.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir {
class DialectRegistry;
namespace offload {
namespace jit {

/// Adds to \p Registry every dialect, extension and translation the JIT
/// compiles with: MLIR's (registerAllDialects, registerAllExtensions,
/// registerAllToLLVMIRTranslations) and the offload dialect with
/// #offload.host, as libOffloadJIT.so holds them. createProgram appends them
/// to the module's context itself; a program may also build its context
/// from this registry. The offload dialect may come from here or from
/// Offload::Dialect linked into the program: in one process they have the
/// same TypeIDs (the program's symbols interpose libOffloadJIT.so's).
/// What createProgram refuses is a context whose "offload" dialect has
/// another TypeID: another dialect of that name, or a copy in a library
/// loaded apart from libOffloadJIT.so (dlopen RTLD_LOCAL).
OFFLOAD_API void registerDialects(DialectRegistry &Registry);

/// Options of a program made by createProgram (as
/// offload_jit_program_options_t for offloadCreateProgramFromMLIRWithOptions).
struct ProgramOptions {
  /// The checking tools of the program's host kernels: a comma-separated
  /// list of memcheck, race, sync, leak, or "all" (docs/HostTarget.md);
  /// empty for none (those of OFFLOAD_CHECK still apply). Part of the key.
  std::string checkTools;
};

/// Creates a JIT program for \p Device from \p Module, a builtin.module
/// holding one or more gpu.modules whose `kernel` gpu.funcs may mark
/// arguments with offload.runtime_constant. Writes the handle to \p Program;
/// release it with offloadJITDestroyProgram.
///
/// Ownership and contexts:
///  - \p Module is cloned: the caller keeps its module and may change or
///    erase it afterwards; the program does not see later changes.
///  - The clone stays in \p Module's MLIRContext, and every specialization of
///    the program is cloned, specialized and lowered in that context (the
///    caller's dialects, attributes and interfaces are all there, and nothing
///    is printed and parsed again). So the context must outlive the
///    program: call offloadJITDestroyProgram before destroying the context
///    (it waits for the program's background compiles). Compiled kernels
///    (runtime programs, symbols from offloadJITGetSpecializedKernel) do not
///    refer to the context and stay valid.
///  - createProgram appends registerDialects' registry to the context and
///    loads every dialect in its registry, so the context needs nothing
///    beyond what the module needed; like any dialect loading, the call must
///    not run while another thread uses the context.
///  - Compiles of programs of one context run one at a time, on the thread
///    that launches (or, with OFFLOAD_JIT_ASYNC=1, on the JIT's threads).
///    Other threads may keep using the context meanwhile only if it is
///    multi-threaded (MLIRContext's default; not after
///    disableMultithreading()). Diagnostics emitted in the context while a
///    compile runs go to the JIT's handler (they become the message of a
///    COMPILE_FAILURE).
///
/// Keys: the module part of the cache key is the xxh3-128 hash of the
/// clone's MLIR bytecode (written to memory to be hashed, never parsed), so
/// the disk cache serves the same module in other processes; a program made
/// from the module's text has other keys.
///
/// Errors (the C API's model: OFFLOAD_SUCCESS is null):
/// INVALID_NULL_HANDLE (\p Device is null), INVALID_NULL_POINTER (\p Module
/// is null or \p Program is null), INVALID_BINARY (the module does not verify,
/// with the verifier's diagnostics, or holds no gpu.module), INVALID_ARGUMENT
/// (the context's "offload" dialect is not the one libOffloadJIT.so uses:
/// see registerDialects), INVALID_VALUE (\p Options.checkTools names no tool),
/// UNSUPPORTED (a device whose platform the JIT cannot target).
OFFLOAD_API offload_result_t createProgram(
    offload_device_handle_t Device, ModuleOp Module,
    offload_jit_program_handle_t *Program, const ProgramOptions &Options = {});

} // namespace jit
} // namespace offload
} // namespace mlir

#endif // OFFLOADJIT_MLIRMODULE_H
