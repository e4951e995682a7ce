//===- Trace.cpp - Entry point wrapper: tracing and errors ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/Support/Format.h"

#include <mutex>

using namespace llvm;
using namespace offload;

void trace::printArg(raw_ostream &OS, const void *Ptr) {
  OS << format_hex(reinterpret_cast<uintptr_t>(Ptr), 0);
}

void trace::printArg(raw_ostream &OS, const char *Str) {
  if (!Str) {
    OS << "0x0";
    return;
  }
  OS << '"';
  OS.write_escaped(Str);
  OS << '"';
}

void trace::printArg(raw_ostream &OS, size_t Value) { OS << Value; }
void trace::printArg(raw_ostream &OS, uint32_t Value) { OS << Value; }

namespace offload {
namespace trace {
#include "OffloadAPIPrinters.inc"
} // namespace trace
} // namespace offload

/// Serializes the lines of concurrent calls.
static std::mutex &getOutputMutex() {
  // Never destroyed: calls from static destructors at exit may trace.
  static std::mutex *Mutex = new std::mutex();
  return *Mutex;
}

void trace::printLine(const Twine &Line) {
  if (!isTraceEnabled())
    return;
  std::string Text = ("offload: " + Line + "\n").str();
  std::lock_guard<std::mutex> Lock(getOutputMutex());
  errs() << Text;
  errs().flush();
}

void trace::printCall(StringRef Function, StringRef Args,
                      const offload_code_location_t *Location,
                      offload_result_t Result) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << Function << '(' << Args << ')';
  if (Location) {
    OS << " @ " << (Location->FunctionName ? Location->FunctionName : "?")
       << " (" << (Location->SourceFile ? Location->SourceFile : "?") << ':'
       << Location->LineNumber << ':' << Location->ColumnNumber << ')';
  }
  OS << " -> ";
  if (Result == OFFLOAD_SUCCESS)
    OS << "OFFLOAD_SUCCESS";
  else
    OS << offloadErrcName(Result->Code) << ": " << Result->Details;
  OS << '\n';
  // One write per line so that concurrent calls do not interleave.
  std::lock_guard<std::mutex> Lock(getOutputMutex());
  errs() << Line;
  errs().flush();
}
