//===- ModuleAPI.cpp - JIT programs from an mlir::ModuleOp ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// include/OffloadJIT/MLIRModule.h: the checks, the preparation of the
// caller's context and the module's key; the engine (Engine.h) keeps the clone
// and compiles its kernels in that context.
//
//===----------------------------------------------------------------------===//

#include "OffloadJIT/MLIRModule.h"

#include "ModuleProgram.h"

#include "OffloadDialect/IR/OffloadDialect.h"
#include "OffloadDialect/InitAll.h"
#include "OffloadSupport/CheckTools.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <map>

using namespace mlir;

std::mutex &offloadjit::getExternalContextMutex(MLIRContext *Context) {
  // One mutex per context address, kept for the process (a context made
  // later at the same address shares it, which is only stricter).
  static std::mutex MapMutex;
  static std::map<MLIRContext *, std::unique_ptr<std::mutex>> Mutexes;
  std::lock_guard<std::mutex> Lock(MapMutex);
  std::unique_ptr<std::mutex> &Slot = Mutexes[Context];
  if (!Slot)
    Slot = std::make_unique<std::mutex>();
  return *Slot;
}

void mlir::offload::jit::registerDialects(DialectRegistry &Registry) {
  registerAllDialects(Registry);
  registerAllExtensions(Registry);
  registerAllToLLVMIRTranslations(Registry);
  mlir::offload::registerAllOffload(Registry);
}

/// The registry of registerDialects, made once.
static const DialectRegistry &getJITRegistry() {
  static const DialectRegistry *Registry = [] {
    auto *R = new DialectRegistry();
    mlir::offload::jit::registerDialects(*R);
    return R;
  }();
  return *Registry;
}

/// Whether the "offload" dialect \p Context has loaded or registered is not
/// the one this library uses: its TypeID differs (another dialect of that
/// name, or a copy of the dialect's libraries whose symbols this library's
/// do not resolve to, as in a library loaded with RTLD_LOCAL).
static bool hasForeignOffloadDialect(MLIRContext *Context) {
  Dialect *Loaded = Context->getLoadedDialect(
      mlir::offload::OffloadDialect::getDialectNamespace());
  if (!Loaded) {
    if (!llvm::is_contained(
            Context->getDialectRegistry().getDialectNames(),
            mlir::offload::OffloadDialect::getDialectNamespace()))
      return false;
    Loaded = Context->getOrLoadDialect(
        mlir::offload::OffloadDialect::getDialectNamespace());
    if (!Loaded)
      return false;
  }
  return Loaded->getTypeID() != TypeID::get<mlir::offload::OffloadDialect>();
}

offload_result_t mlir::offload::jit::createProgram(
    offload_device_handle_t Device, ModuleOp Module,
    offload_jit_program_handle_t *Program, const ProgramOptions &Options) {
  using offloadjit::makeJITError;
  if (!Device)
    return makeJITError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null");
  if (!Module)
    return makeJITError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Module is null");
  if (!Program)
    return makeJITError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Program is null");
  uint32_t Tools = 0;
  if (!Options.checkTools.empty()) {
    std::string Bad;
    std::optional<uint32_t> Parsed =
        ::offload::parseCheckTools(Options.checkTools, &Bad);
    if (!Parsed)
      return makeJITError(OFFLOAD_ERRC_INVALID_VALUE,
                          "Options.checkTools is '" + Options.checkTools +
                              "': '" + Bad +
                              "' is not a checking tool: expected " +
                              ::offload::CheckToolsSyntax);
    Tools = *Parsed;
  }

  MLIRContext *Context = Module->getContext();
  // No compile of this context's programs runs meanwhile.
  std::unique_lock<std::mutex> Lock(
      offloadjit::getExternalContextMutex(Context));
  if (hasForeignOffloadDialect(Context))
    return makeJITError(
        OFFLOAD_ERRC_INVALID_ARGUMENT,
        "the module's context has an 'offload' dialect that is not the one "
        "libOffloadJIT.so uses (another TypeID: another dialect of that name, "
        "or a copy loaded apart from libOffloadJIT.so): register the "
        "context's dialects with mlir::offload::jit::registerDialects");
  // What the specialization and the lowerings need, loaded now rather than
  // while a compile runs (when the caller may be using the context).
  Context->appendDialectRegistry(getJITRegistry());
  Context->loadAllAvailableDialects();

  std::string Diagnostics;
  {
    llvm::raw_string_ostream OS(Diagnostics);
    ScopedDiagnosticHandler Handler(Context, [&](Diagnostic &D) {
      OS << D.getLocation() << ": " << D << "\n";
      return success();
    });
    if (failed(verify(Module)))
      return makeJITError(OFFLOAD_ERRC_INVALID_BINARY,
                          "the MLIR module does not verify: " + Diagnostics);
  }
  if (Module.getOps<gpu::GPUModuleOp>().empty())
    return makeJITError(OFFLOAD_ERRC_INVALID_BINARY,
                        "the MLIR module holds no gpu.module");

  OwningOpRef<ModuleOp> Clone = Module.clone();
  // The module part of the keys: the clone's bytecode, hashed (the generic
  // text form if the bytecode writer refuses the module).
  std::string Bytes;
  {
    llvm::raw_string_ostream OS(Bytes);
    if (failed(writeBytecodeToFile(*Clone, OS))) {
      Bytes.clear();
      Clone->print(OS, OpPrintingFlags().printGenericOpForm());
    }
  }
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()));
  std::string ModuleHash = "module:" + llvm::utohexstr(Hash.high64, true, 16) +
                           llvm::utohexstr(Hash.low64, true, 16);
  // The engine takes the lock itself when it releases a clone.
  Lock.unlock();
  return offloadjit::createProgramFromModule(
      Device, std::move(Clone), std::move(ModuleHash), Tools, Program);
}
