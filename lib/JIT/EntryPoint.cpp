//===- EntryPoint.cpp - The JIT's entry points: errors, checks, trace -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "EntryPoint.h"

#include "OffloadSupport/Environment.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <memory>
#include <mutex>

using namespace llvm;
using namespace offloadjit;

const EntrySettings &offloadjit::getEntrySettings() {
  static const EntrySettings Settings{
      !::offload::env::DisableValidation.getFlag(false),
      ::offload::env::Trace.getFlag(false)};
  return Settings;
}

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
void trace::printArg(raw_ostream &OS, bool Value) {
  OS << (Value ? "true" : "false");
}
void trace::printArg(raw_ostream &OS, double Value) { OS << Value; }

namespace offloadjit {
namespace trace {
#include "OffloadJITPrinters.inc"
} // namespace trace
} // namespace offloadjit

void trace::printCall(StringRef Function, StringRef Args,
                      offload_result_t Result) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << Function << '(' << Args << ") -> ";
  if (Result == OFFLOAD_SUCCESS)
    OS << "OFFLOAD_SUCCESS";
  else
    OS << offloadErrcName(Result->Code) << ": " << Result->Details;
  OS << '\n';
  // One write per line, so that concurrent calls (and the runtime's own
  // trace lines) do not interleave within a line.
  static std::mutex *Mutex = new std::mutex();
  std::lock_guard<std::mutex> Lock(*Mutex);
  errs() << Line;
  errs().flush();
}
