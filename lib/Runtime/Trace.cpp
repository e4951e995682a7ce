//===- Trace.cpp - Entry point wrapper: tracing and errors ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

using namespace llvm;
using namespace offload;

namespace offload {
namespace trace {
#include "OffloadAPIPrinters.inc"
} // namespace trace
} // namespace offload

void trace::printLine(const Twine &Line) {
  if (!isTraceEnabled())
    return;
  writeLine(("offload: " + Line + "\n").str());
}
