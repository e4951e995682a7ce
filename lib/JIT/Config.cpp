//===- Config.cpp - The JIT's settings from the environment ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "OffloadSupport/CheckTools.h"
#include "OffloadSupport/Environment.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <string_view>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

Config Config::fromEnvironment() {
  namespace env = ::offload::env;
  Config C;
  // The first setting whose value means nothing: the JIT's own settings in
  // Environment.def's order, then the runtime's two it reads.
  C.Problem = env::checkComponent("jit");
  if (C.Problem.empty())
    C.Problem = env::Trace.check();
  C.Enabled = env::JIT.getFlag(true);
  C.Async = env::JITAsync.getFlag(false);
  C.FoldGrid = env::JITFoldGrid.getFlag(false);
  C.Trace = env::Trace.getFlag(false);
  C.ThreadLoops = env::HostThreadLoops.getFlag(true);
  if (std::optional<std::string> V = env::Check.raw()) {
    std::string Bad;
    if (std::optional<uint32_t> Tools = ::offload::parseCheckTools(*V, &Bad))
      C.CheckTools = *Tools;
    else if (C.Problem.empty())
      C.Problem = "OFFLOAD_CHECK=" + *V + ": '" + Bad +
                  "' is not a checking tool: expected " +
                  ::offload::CheckToolsSyntax;
  }
  C.Auto = env::JITAuto.getFlag(false);
  C.AutoSettings.Trace = C.Trace;
  C.Threads = unsigned(env::JITThreads.getUnsigned(C.Threads));
  C.AutoSettings.Threshold =
      unsigned(env::JITAutoThreshold.getUnsigned(C.AutoSettings.Threshold));
  C.AutoSettings.MaxVariants =
      unsigned(env::JITAutoMaxVariants.getUnsigned(C.AutoSettings.MaxVariants));
  C.Measure.Enabled = env::JITMeasure.getFlag(false);
  C.Measure.Trace = C.Trace;
  C.Measure.Launches =
      unsigned(env::JITMeasureLaunches.getUnsigned(C.Measure.Launches));
  C.Measure.Scale = env::JITMeasureScale.getNumber(C.Measure.Scale);
  C.DumpDir = env::JITDump.getText();
  if (!env::JITCostModel.getFlag(true)) { // the fixed bound of before
    C.Specialization.costModel = false;
    C.Specialization.unrollMaxTripCount = 16;
  }
  return C;
}
