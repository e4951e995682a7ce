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

char JITError::ID = 0;

void JITError::log(raw_ostream &OS) const {
  OS << offloadErrcName(Code) << ": " << Message;
}

Error offloadjit::wrapError(Error E, offload_errc_t Code,
                            const Twine &Context) {
  std::string Message = toString(std::move(E));
  if (Context.isTriviallyEmpty())
    return createError(Code, Message);
  return createError(Code, Context + ": " + Message);
}

namespace {
/// The errors handed to callers. Identical errors (same code and message)
/// share one entry, so a program that keeps failing the same way does not
/// grow memory without bound.
class ErrorStore {
public:
  offload_result_t get(offload_errc_t Code, StringRef Message) {
    std::string Key = (Twine(static_cast<int>(Code)) + ":" + Message).str();
    std::lock_guard<std::mutex> Lock(Mutex);
    std::unique_ptr<Entry> &Slot = Errors[Key];
    if (!Slot) {
      Slot = std::make_unique<Entry>();
      Slot->Details = Message.str();
      Slot->Error.Code = Code;
      Slot->Error.Details = Slot->Details.c_str();
    }
    return &Slot->Error;
  }

private:
  struct Entry {
    offload_error_struct_t Error;
    std::string Details;
  };
  std::mutex Mutex;
  StringMap<std::unique_ptr<Entry>> Errors;
};

ErrorStore &getErrorStore() {
  // Never destroyed: results outlive every caller, also calls at exit.
  static ErrorStore *Store = new ErrorStore();
  return *Store;
}
} // namespace

offload_result_t offloadjit::toFailureResult(Error E) {
  offload_errc_t Code = OFFLOAD_ERRC_UNKNOWN;
  std::string Message;
  handleAllErrors(
      std::move(E),
      [&](const JITError &JE) {
        Code = JE.getCode();
        Message = JE.getMessage();
      },
      [&](const ErrorInfoBase &EIB) { Message = EIB.message(); });
  if (Code == OFFLOAD_ERRC_SUCCESS)
    Code = OFFLOAD_ERRC_UNKNOWN;
  return getErrorStore().get(Code, Message);
}

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
