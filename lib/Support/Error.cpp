//===- Error.cpp - Errors of the offload runtime --------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "OffloadSupport/Error.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <mutex>

using namespace llvm;
using namespace offload;

char OffloadError::ID = 0;

void OffloadError::log(raw_ostream &OS) const {
  OS << offloadErrcName(Code) << ": " << Message;
}

std::error_code OffloadError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Error offload::wrapError(Error E, offload_errc_t Code, const Twine &Context) {
  std::string Message = toString(std::move(E));
  if (Context.isTriviallyEmpty())
    return createError(Code, Message);
  return createError(Code, Context + ": " + Message);
}

namespace {
/// Storage of the errors returned to callers. Identical errors (same code and
/// message) share one entry, so a program that keeps failing the same way does
/// not grow memory without bound.
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
  // Errors handed out must outlive every caller, including ones that keep a
  // result across offloadShutDown and static destructors that call the API
  // at exit, after the library's own static objects are gone: the store is
  // never destroyed.
  static ErrorStore *Store = new ErrorStore();
  return *Store;
}
} // namespace

offload_result_t offload::toFailureResult(Error E) {
  offload_errc_t Code = OFFLOAD_ERRC_UNKNOWN;
  std::string Message;
  handleAllErrors(
      std::move(E),
      [&](const OffloadError &OE) {
        Code = OE.getCode();
        Message = OE.getMessage();
      },
      [&](const ErrorInfoBase &EIB) { Message = EIB.message(); });
  if (Code == OFFLOAD_ERRC_SUCCESS)
    Code = OFFLOAD_ERRC_UNKNOWN;
  return getErrorStore().get(Code, Message);
}
