//===- KernelNames.h - Names of specialized kernels -------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A specialization of kernel `K` (ahead of time by `offload-specialize`, at
// run time by the JIT) is a clone named `K_spec_<h>`, where <h> is the xxh3-64
// hash of the values it was specialized on in 16 lowercase hex digits
// (getSpecializedName in lib/Dialect/Transforms/Specialize.cpp). The
// runtime's messages about a running kernel name the kernel the program
// wrote and the clone both: `'K' (specialization K_spec_<h>)`.
//
// Header-only and allocation-free: the host plugin's fault handler uses it
// inside a signal handler.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADSUPPORT_KERNELNAMES_H
#define OFFLOADSUPPORT_KERNELNAMES_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace offload {

/// What separates a kernel's name from its specialization's hash.
inline constexpr llvm::StringLiteral SpecializedNameSeparator = "_spec_";
/// The hash's length in hex digits.
inline constexpr size_t SpecializedNameHashDigits = 16;

/// The kernel that \p Name specializes: `K` for `K_spec_<16 hex digits>`, an
/// empty StringRef for a name of any other shape.
inline llvm::StringRef getSpecializedKernelBase(llvm::StringRef Name) {
  size_t Suffix = SpecializedNameSeparator.size() + SpecializedNameHashDigits;
  if (Name.size() <= Suffix)
    return {};
  llvm::StringRef Tail = Name.take_back(Suffix);
  if (!Tail.starts_with(SpecializedNameSeparator))
    return {};
  for (char C : Tail.drop_front(SpecializedNameSeparator.size()))
    if (!llvm::isDigit(C) && !(C >= 'a' && C <= 'f'))
      return {};
  return Name.drop_back(Suffix);
}

/// Calls \p Append with the pieces of \p Name as messages show it:
/// `'K' (specialization K_spec_<h>)` for a specialization, `'K'` otherwise.
template <typename AppendFn>
void appendKernelDisplayName(llvm::StringRef Name, AppendFn &&Append) {
  llvm::StringRef Base = getSpecializedKernelBase(Name);
  Append("'");
  Append(Base.empty() ? Name : Base);
  Append("'");
  if (!Base.empty()) {
    Append(" (specialization ");
    Append(Name);
    Append(")");
  }
}

/// The display name of appendKernelDisplayName as a string.
inline std::string getKernelDisplayName(llvm::StringRef Name) {
  std::string Text;
  appendKernelDisplayName(Name, [&](llvm::StringRef Piece) { Text += Piece; });
  return Text;
}

} // namespace offload

#endif // OFFLOADSUPPORT_KERNELNAMES_H
