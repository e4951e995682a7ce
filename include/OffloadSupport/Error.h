//===- Error.h - Errors of the offload runtime and JIT ----------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Inside the runtime and the JIT every failure is an llvm::Error carrying an
// offload_errc_t; the C entry points convert it once, at the boundary, into an
// offload_result_t whose storage lives until the process exits. The library
// OffloadError (lib/Support/Error.cpp) is linked statically into
// libOffloadRuntime.so and libOffloadJIT.so, each with its own store.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_SUPPORT_ERROR_H
#define OFFLOAD_SUPPORT_ERROR_H

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <string>

namespace offload {

/// An error with an offload error code and a message.
class OffloadError : public llvm::ErrorInfo<OffloadError> {
public:
  static char ID;

  OffloadError(offload_errc_t Code, std::string Message)
      : Code(Code), Message(std::move(Message)) {}

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

  offload_errc_t getCode() const { return Code; }
  const std::string &getMessage() const { return Message; }

private:
  offload_errc_t Code;
  std::string Message;
};

/// Creates an OffloadError with code \p Code and message \p Message.
inline llvm::Error createError(offload_errc_t Code,
                               const llvm::Twine &Message) {
  return llvm::make_error<OffloadError>(Code, Message.str());
}

/// Creates an OffloadError whose message is formatted with llvm::formatv.
template <typename... Ts>
llvm::Error createError(offload_errc_t Code, const char *Fmt, Ts &&...Vals) {
  return llvm::make_error<OffloadError>(
      Code, llvm::formatv(Fmt, std::forward<Ts>(Vals)...).str());
}

/// A pointer as messages print it: "0x" and its hexadecimal digits, as the
/// trace prints arguments ("0x40", not "0x0000000000000040").
inline llvm::FormattedNumber formatPointer(const void *Ptr) {
  return llvm::format_hex(reinterpret_cast<uintptr_t>(Ptr), 0);
}

/// Re-tags \p E with \p Code, prefixing its message with \p Context (if not
/// empty). Used to turn messages of LLVM libraries (ORC, Object) into errors
/// with a meaningful offload code.
llvm::Error wrapError(llvm::Error E, offload_errc_t Code,
                      const llvm::Twine &Context = "");

/// toResult for a failure.
offload_result_t toFailureResult(llvm::Error E);

/// Converts \p E into the result returned by a C entry point. Success becomes
/// OFFLOAD_SUCCESS; an OffloadError keeps its code; any other error becomes
/// OFFLOAD_ERRC_UNKNOWN. The returned storage is never freed.
inline offload_result_t toResult(llvm::Error E) {
  if (!E)
    return OFFLOAD_SUCCESS;
  return toFailureResult(std::move(E));
}

} // namespace offload

#endif // OFFLOAD_SUPPORT_ERROR_H
