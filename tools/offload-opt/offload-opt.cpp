//===- offload-opt.cpp - The offload optimizer driver ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the offload dialect, its passes and pipelines, the
// `#offload.host` target, and every upstream dialect, pass, extension and
// LLVM IR translation (gpu-module-to-binary needs the translations). An
// input that crashes upstream MLIR's parser or verifier is a one-line error
// (exit status 1), not a crash.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Support/ParserCrash.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "OffloadVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>

/// Exits with a one-line error if an input chunk (split as --split-input-file
/// says) crashes upstream MLIR's parser or verifier (ParserCrash.h), before
/// MlirOptMain parses it for real.
static void refuseParserCrashes(const llvm::MemoryBuffer &input,
                                mlir::DialectRegistry &registry,
                                const mlir::MlirOptMainConfig &config) {
  std::optional<std::string> crash;
  (void)mlir::splitAndProcessBuffer(
      llvm::MemoryBuffer::getMemBuffer(input.getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false),
      [&](std::unique_ptr<llvm::MemoryBuffer> chunk, llvm::raw_ostream &) {
        if (!crash)
          crash = mlir::offload::findParserCrash(
              chunk->getMemBufferRef(), registry,
              config.shouldVerifyOnParsing(),
              config.shouldAllowUnregisteredDialects());
        return mlir::success();
      },
      llvm::nulls(), config.inputSplitMarker(), config.outputSplitMarker());
  if (!crash)
    return;
  llvm::errs() << "offload-opt: error: " << input.getBufferIdentifier() << ": "
               << *crash << "\n";
  std::exit(1);
}

int main(int argc, char **argv) {
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "offload-opt " OFFLOAD_VERSION_LINE "\n";
  });
  mlir::registerAllPasses();
  mlir::offload::registerAllOffloadPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::offload::registerAllOffload(registry);

  // What MlirOptMain(argc, argv, ...) does, with a check of the input for
  // crashes of the parser between reading it and processing it.
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "offload optimizer driver\n", registry);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  llvm::InitLLVM initLLVM(argc, argv);
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  refuseParserCrashes(*file, registry, config);
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}
