//===- HostEHFrame.h - Checks of .eh_frame sections -------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The host loader checks an image's .eh_frame sections before JITLink reads
// them: JITLink's .eh_frame passes (DWARFRecordSectionSplitter,
// EHFrameEdgeFixer) trust the records' lengths, CIE pointers and pointer
// encodings (a bad encoding reaches an llvm_unreachable, a CIE pointer that
// misses its CIE crashed jitlink::prune in LLVM 22), and the linked section is
// then registered with the process's unwinder (libgcc), which trusts them
// too, and runs the call frame programs when it unwinds through a kernel.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTEHFRAME_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTEHFRAME_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>

namespace offload::host {

/// A relocation that applies to an .eh_frame section.
struct EHFrameRelocation {
  /// Offset of the relocated field in the section.
  uint64_t Offset = 0;
  /// Bytes the relocation writes.
  uint64_t Width = 0;
  /// Whether its symbol is defined in a section of the object, and whether
  /// that section is allocated code.
  bool Defined = false;
  bool IsCode = false;
  /// The size of that section, and the offset in it the relocated pointer
  /// points to (symbol value plus addend; unknown for REL relocations).
  uint64_t SectionSize = 0;
  std::optional<uint64_t> TargetOffset;
};

/// Checks \p Contents, an .eh_frame section of an object with
/// \p PointerSize-byte pointers and the byte order \p IsLittleEndian, with
/// the relocations that apply to it: records (CIEs and FDEs) that tile the
/// section with 32-bit lengths, CIEs of version 1 with augmentations JITLink
/// and the unwinder read ("eh", "z", "L", "P", "R"), pointer encodings both
/// support, FDEs whose CIE pointer names a CIE before them, a relocation at
/// every pointer field (PC begin, personality, LSDA) of the field's width and
/// nowhere else, PC begin in a code section with the range inside it, and
/// call frame programs of known instructions whose operands lie in their
/// record. An error names the offset of the record (or relocation) and
/// what is wrong with it.
llvm::Error checkEHFrame(llvm::StringRef Contents, bool IsLittleEndian,
                         unsigned PointerSize,
                         llvm::ArrayRef<EHFrameRelocation> Relocations);

} // namespace offload::host

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTEHFRAME_H
