//===- MLIRPipelineFuzzer.cpp - Fuzzes parsing and offload-lower-to-host --===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The input is MLIR source text. It is parsed (and verified) with every
// upstream and offload dialect registered; a module that parses goes through
// the offload-lower-to-host pipeline, as offload-run builds it, up to the
// LLVM dialect with the kernels compiled into an embedded host object. The
// result is not run. Diagnostics are expected and ignored; a crash, a
// sanitizer report or an LLVM fatal error is a finding. Inputs that crash
// upstream MLIR's parser or verifier are refused first, as the JIT and the
// tools refuse them.
//
// The first byte of an input of more than one byte chooses the pipeline's
// options (bits 0-1: O, bit 2: thread-loops=false, bit 3: jit), the rest is
// the source; seeds made by scripts/fuzz.sh start with '\x00' + file.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Support/ParserCrash.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

#include <memory>

using namespace mlir;

namespace {
DialectRegistry *Registry = nullptr;
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::InitializeNativeTargetAsmParser();
  registerAllPasses();
  offload::registerAllOffloadPasses();
  Registry = new DialectRegistry();
  registerAllDialects(*Registry);
  registerAllExtensions(*Registry);
  registerAllToLLVMIRTranslations(*Registry);
  offload::registerAllOffload(*Registry);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size < 2)
    return -1;
  uint8_t Options = Data[0];
  llvm::StringRef Source(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  // Inputs that crash Debian's MLIR 22 parser or verifier (outside the
  // project's code) are contained as the JIT and offload-opt contain them:
  // an error, the process goes on (ParserCrash.h). A crash the check cannot
  // recover from is a finding.
  if (mlir::offload::findParserCrash(llvm::MemoryBufferRef(Source, "fuzz.mlir"),
                                     *Registry))
    return -1;

  MLIRContext Context(*Registry, MLIRContext::Threading::DISABLED);
  Context.allowUnregisteredDialects(false);
  // Diagnostics of malformed input are the expected outcome.
  ScopedDiagnosticHandler Quiet(&Context,
                                [](Diagnostic &) { return success(); });
  llvm::SourceMgr SourceMgr;
  SourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(Source, "fuzz.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> Module =
      parseSourceFile<ModuleOp>(SourceMgr, ParserConfig(&Context));
  if (!Module)
    return 0;

  offload::HostPipelineOptions PipelineOptions;
  PipelineOptions.optLevel = Options & 3;
  PipelineOptions.threadLoops = !(Options & 4);
  PipelineOptions.jit = (Options & 8) && PipelineOptions.threadLoops;
  PassManager PM(&Context);
  offload::buildLowerToHostPipeline(PM, PipelineOptions);
  (void)PM.run(*Module);
  return 0;
}
