//===- offload-opt.cpp - The offload optimizer driver ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// mlir-opt with the offload dialect, its passes and pipelines, the
// `#offload.host` target, and every upstream dialect, pass, extension and
// LLVM IR translation (gpu-module-to-binary needs the translations).
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "OffloadVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

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

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "offload optimizer driver\n", registry));
}
