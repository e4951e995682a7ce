//===- EntryPoint.cpp - What the C entry points are made of ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadSupport/EntryPoint.h"

#include "llvm/Support/Format.h"

#include <mutex>
#include <string>

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
void trace::printArg(raw_ostream &OS, bool Value) {
  OS << (Value ? "true" : "false");
}
void trace::printArg(raw_ostream &OS, double Value) { OS << Value; }

void trace::writeLine(StringRef Line) {
  // Never destroyed: calls from static destructors at exit may trace.
  static std::mutex *Mutex = new std::mutex();
  std::lock_guard<std::mutex> Lock(*Mutex);
  errs() << Line;
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
  writeLine(Line);
}
