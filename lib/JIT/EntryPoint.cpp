//===- EntryPoint.cpp - The JIT's entry points: errors, checks, trace -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "EntryPoint.h"

#include "OffloadSupport/Environment.h"

using namespace llvm;
using namespace offloadjit;

const EntrySettings &offloadjit::getEntrySettings() {
  static const EntrySettings Settings{
      !::offload::env::DisableValidation.getFlag(false),
      ::offload::env::Trace.getFlag(false)};
  return Settings;
}

namespace offload {
namespace trace {
#include "OffloadJITPrinters.inc"
} // namespace trace
} // namespace offload
