//===- Config.cpp - The JIT's settings from the environment ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "MPICache.h"

#include "OffloadSupport/CheckTools.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdlib>
#include <string_view>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

Config Config::fromEnvironment() {
  Config C;
  auto Env = [](const char *Name) -> StringRef {
    const char *Value = std::getenv(Name);
    return Value ? StringRef(Value).trim() : StringRef();
  };
  // A flag: unset or empty is Default; 1/true/on/yes and 0/false/off/no.
  auto Flag = [&](const char *Name, bool Default) {
    StringRef V = Env(Name);
    if (V.empty())
      return Default;
    for (StringRef Yes : {"1", "true", "on", "yes"})
      if (V.equals_insensitive(Yes))
        return true;
    for (StringRef No : {"0", "false", "off", "no"})
      if (V.equals_insensitive(No))
        return false;
    if (C.Problem.empty())
      C.Problem = (Twine(Name) + "=" + V +
                   ": expected 1 or 0 (also true/false, on/off, yes/no)")
                      .str();
    return Default;
  };
  C.Enabled = Flag("OFFLOAD_JIT", true);
  C.Async = Flag("OFFLOAD_JIT_ASYNC", false);
  C.FoldGrid = Flag("OFFLOAD_JIT_FOLD_GRID", false);
  C.Trace = Flag("OFFLOAD_TRACE", false);
  C.ThreadLoops = Flag("OFFLOAD_HOST_THREAD_LOOPS", true);
  if (StringRef V = Env("OFFLOAD_CHECK"); !V.empty()) {
    std::string Bad;
    if (std::optional<uint32_t> Tools = ::offload::parseCheckTools(
            std::string_view(V.data(), V.size()), &Bad))
      C.CheckTools = *Tools;
    else if (C.Problem.empty())
      C.Problem =
          ("OFFLOAD_CHECK=" + V + ": '" + Bad +
           "' is not a checking tool: expected " + ::offload::CheckToolsSyntax)
              .str();
  }
  (void)Flag("OFFLOAD_JIT_STATS", false);
  (void)Flag("OFFLOAD_JIT_CACHE_MPI", false);
  if (std::string MPIProblem = checkMPICacheSettings();
      !MPIProblem.empty() && C.Problem.empty())
    C.Problem = MPIProblem;
  C.Auto = Flag("OFFLOAD_JIT_AUTO", false);
  C.AutoSettings.Trace = C.Trace;
  // A positive integer: unset or empty leaves \p Value as it is.
  auto Positive = [&](const char *Name, unsigned &Value) {
    unsigned Parsed;
    if (StringRef V = Env(Name); !V.empty()) {
      if (!V.getAsInteger(10, Parsed) && Parsed > 0)
        Value = Parsed;
      else if (C.Problem.empty())
        C.Problem =
            (Twine(Name) + "=" + V + ": expected a positive integer").str();
    }
  };
  Positive("OFFLOAD_JIT_THREADS", C.Threads);
  Positive("OFFLOAD_JIT_AUTO_THRESHOLD", C.AutoSettings.Threshold);
  Positive("OFFLOAD_JIT_AUTO_MAX_VARIANTS", C.AutoSettings.MaxVariants);
  C.Measure.Enabled = Flag("OFFLOAD_JIT_MEASURE", false);
  C.Measure.Trace = C.Trace;
  Positive("OFFLOAD_JIT_MEASURE_LAUNCHES", C.Measure.Launches);
  if (StringRef V = Env("OFFLOAD_JIT_MEASURE_SCALE"); !V.empty()) {
    if ((V.getAsDouble(C.Measure.Scale) || !(C.Measure.Scale > 0)) &&
        C.Problem.empty())
      C.Problem =
          ("OFFLOAD_JIT_MEASURE_SCALE=" + V + ": expected a positive number")
              .str();
  }
  if (StringRef V = Env("OFFLOAD_CACHE_MAX_BYTES"); !V.empty()) {
    uint64_t Bytes;
    if (V.getAsInteger(10, Bytes) && C.Problem.empty())
      C.Problem =
          ("OFFLOAD_CACHE_MAX_BYTES=" + V + ": expected a number of bytes")
              .str();
  }
  C.DumpDir = Env("OFFLOAD_JIT_DUMP").str();
  if (Env("OFFLOAD_JIT_COST_MODEL") == "0") { // the fixed bound of before
    C.Specialization.costModel = false;
    C.Specialization.unrollMaxTripCount = 16;
  }
  return C;
}
