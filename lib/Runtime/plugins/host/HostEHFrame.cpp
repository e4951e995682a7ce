//===- HostEHFrame.cpp - Checks of .eh_frame sections ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The format is the LSB's "Exception Frames" (DWARF call frame information
// with the GNU augmentations). Only what JITLink's reader and libgcc's
// unwinder both handle is accepted: 32-bit record lengths, CIE version 1,
// absolute or PC-relative pointers of 4 or 8 bytes. What JITLink relies on
// when it parses the section (EHFrameSupport.cpp): every record inside the
// section, an augmentation of at most one of each field (its field list has
// room for three), encodings its readers have a case for, CIE pointers that
// name a CIE it has parsed, pointer fields with at most one relocation.
//
//===----------------------------------------------------------------------===//

#include "HostEHFrame.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/Support/LEB128.h"

using namespace llvm;
using namespace offload::host;

namespace {
/// Reads fields of one record, never past its end.
class RecordReader {
public:
  RecordReader(StringRef Section, uint64_t Begin, uint64_t End,
               bool IsLittleEndian)
      : Section(Section), Offset(Begin), End(End),
        IsLittleEndian(IsLittleEndian) {}

  uint64_t getOffset() const { return Offset; }
  uint64_t getEnd() const { return End; }
  bool atEnd() const { return Offset == End; }

  /// Reads an unsigned integer of \p Bytes (at most 8) bytes.
  bool readUnsigned(unsigned Bytes, uint64_t &Value) {
    if (Bytes > End - Offset)
      return false;
    Value = 0;
    for (unsigned I = 0; I < Bytes; ++I) {
      uint64_t Byte = uint8_t(Section[Offset + I]);
      Value |= IsLittleEndian ? Byte << (8 * I) : Byte << (8 * (Bytes - 1 - I));
    }
    Offset += Bytes;
    return true;
  }
  bool readByte(uint8_t &Value) {
    uint64_t V;
    if (!readUnsigned(1, V))
      return false;
    Value = uint8_t(V);
    return true;
  }
  bool readULEB(uint64_t &Value) {
    const char *Error = nullptr;
    unsigned Size = 0;
    Value = decodeULEB128(at(Offset), &Size, at(End), &Error);
    Offset += Size;
    return !Error;
  }
  bool readSLEB(int64_t &Value) {
    const char *Error = nullptr;
    unsigned Size = 0;
    Value = decodeSLEB128(at(Offset), &Size, at(End), &Error);
    Offset += Size;
    return !Error;
  }
  bool skip(uint64_t Bytes) {
    if (Bytes > End - Offset)
      return false;
    Offset += Bytes;
    return true;
  }

private:
  const uint8_t *at(uint64_t At) const {
    return reinterpret_cast<const uint8_t *>(Section.data()) + At;
  }

  StringRef Section;
  uint64_t Offset, End;
  bool IsLittleEndian;
};

/// What an FDE needs of its CIE.
struct CIEInfo {
  bool HasAugmentationData = false;
  bool HasLSDA = false;
  uint8_t LSDAEncoding = dwarf::DW_EH_PE_omit;
  uint8_t AddressEncoding = dwarf::DW_EH_PE_absptr;
  /// remember_state entries the CIE's initial instructions leave.
  unsigned StateDepth = 0;
};

/// The checker of one section.
class EHFrameChecker {
public:
  EHFrameChecker(StringRef Section, bool IsLittleEndian, unsigned PointerSize,
                 ArrayRef<EHFrameRelocation> Relocations)
      : Section(Section), IsLittleEndian(IsLittleEndian),
        PointerSize(PointerSize) {
    for (const EHFrameRelocation &R : Relocations)
      Relocs[R.Offset].push_back(&R);
  }

  Error check();

private:
  Error invalid(uint64_t Record, const Twine &Message) const {
    return createStringError("record at offset " + Twine(Record) + ": " +
                             Message);
  }
  Error checkCIE(uint64_t Record, RecordReader &R);
  Error checkFDE(uint64_t Record, uint64_t CIEPointerField, uint32_t CIEDelta,
                 RecordReader &R);
  /// Checks a pointer field of \p Encoding at the reader's position (read
  /// past on success) and returns its relocation; a pointer field is always
  /// relocated in a relocatable object.
  Expected<const EHFrameRelocation *> checkPointer(uint64_t Record,
                                                   RecordReader &R,
                                                   uint8_t Encoding,
                                                   StringRef Field);
  /// Checks the call frame instructions from the reader's position to the
  /// end of the record; \p Depth is the remember_state depth on entry and
  /// on return.
  Error checkInstructions(uint64_t Record, RecordReader &R, unsigned &Depth);
  unsigned getEncodedSize(uint8_t Encoding) const;

  StringRef Section;
  bool IsLittleEndian;
  unsigned PointerSize;
  DenseMap<uint64_t, SmallVector<const EHFrameRelocation *, 1>> Relocs;
  /// Offsets of the pointer fields the records have, which their relocations
  /// apply to.
  DenseMap<uint64_t, uint64_t> PointerFields;
  DenseMap<uint64_t, CIEInfo> CIEs;
};
} // namespace

/// Bytes of a pointer encoded as \p Encoding, or 0 when JITLink or the
/// unwinder cannot read it: JITLink has no case for LEB128 or 2-byte values
/// (and llvm_unreachable for unknown formats), nor for text-, data- or
/// function-relative or aligned pointers.
unsigned EHFrameChecker::getEncodedSize(uint8_t Encoding) const {
  if (Encoding == dwarf::DW_EH_PE_omit)
    return 0;
  uint8_t Application = Encoding & 0x70;
  if (Application != dwarf::DW_EH_PE_absptr &&
      Application != dwarf::DW_EH_PE_pcrel)
    return 0;
  switch (Encoding & 0x0f) {
  case dwarf::DW_EH_PE_absptr:
    return PointerSize;
  case dwarf::DW_EH_PE_udata4:
  case dwarf::DW_EH_PE_sdata4:
    return 4;
  case dwarf::DW_EH_PE_udata8:
  case dwarf::DW_EH_PE_sdata8:
    return 8;
  default:
    return 0;
  }
}

Expected<const EHFrameRelocation *>
EHFrameChecker::checkPointer(uint64_t Record, RecordReader &R, uint8_t Encoding,
                             StringRef Field) {
  unsigned Size = getEncodedSize(Encoding);
  uint64_t At = R.getOffset();
  if (!R.skip(Size))
    return invalid(Record, Field + " pointer runs past the record's end");
  auto It = Relocs.find(At);
  if (It == Relocs.end())
    return invalid(Record, Field + " pointer (offset " + Twine(At) +
                               ") has no relocation");
  if (It->second.size() != 1)
    return invalid(Record, Field + " pointer (offset " + Twine(At) + ") has " +
                               Twine(It->second.size()) + " relocations");
  const EHFrameRelocation &Reloc = *It->second.front();
  if (Reloc.Width != Size)
    return invalid(Record, Field + " pointer (offset " + Twine(At) + ") is " +
                               Twine(Size) + " bytes, its relocation writes " +
                               Twine(Reloc.Width));
  PointerFields[At] = Size;
  return &Reloc;
}

Error EHFrameChecker::checkCIE(uint64_t Record, RecordReader &R) {
  CIEInfo Info;
  uint8_t Version;
  if (!R.readByte(Version))
    return invalid(Record, "CIE without a version");
  if (Version != 1)
    return invalid(Record, "CIE version " + Twine(Version) +
                               " (only version 1 is supported)");

  // The augmentation string: ("eh")? ("z" [LPR]*)?, each letter at most
  // once.
  SmallVector<char, 4> Fields;
  bool HasEH = false;
  for (unsigned Position = 0;; ++Position) {
    uint8_t C;
    if (!R.readByte(C))
      return invalid(Record, "CIE augmentation string is not terminated");
    if (C == 0)
      break;
    if (C == 'e' && Position == 0) {
      uint8_t H;
      if (!R.readByte(H) || H != 'h')
        return invalid(Record, "CIE augmentation string has 'e' without 'h'");
      HasEH = true;
      continue;
    }
    if (C == 'z' && !Info.HasAugmentationData &&
        Position == (HasEH ? 1u : 0u)) {
      Info.HasAugmentationData = true;
      continue;
    }
    if ((C == 'L' || C == 'P' || C == 'R') && Info.HasAugmentationData &&
        !llvm::is_contained(Fields, char(C))) {
      Fields.push_back(char(C));
      continue;
    }
    return invalid(Record, "CIE augmentation string has an unsupported or "
                           "repeated character (0x" +
                               utohexstr(C) + ")");
  }
  if (HasEH && !R.skip(PointerSize))
    return invalid(Record, "CIE's EH data runs past the record's end");
  uint64_t CodeAlignment, ReturnRegister;
  int64_t DataAlignment;
  if (!R.readULEB(CodeAlignment) || !R.readSLEB(DataAlignment) ||
      !R.readUnsigned(1, ReturnRegister))
    return invalid(Record, "CIE's alignment factors or return address "
                           "register run past the record's end");

  if (Info.HasAugmentationData) {
    uint64_t Length;
    if (!R.readULEB(Length) || Length > R.getEnd() - R.getOffset())
      return invalid(Record,
                     "CIE's augmentation data runs past the record's end");
    uint64_t DataEnd = R.getOffset() + Length;
    RecordReader Data(Section, R.getOffset(), DataEnd, IsLittleEndian);
    for (char Field : Fields) {
      uint8_t Encoding;
      if (!Data.readByte(Encoding))
        return invalid(Record, "CIE's augmentation data is shorter than its "
                               "fields");
      // libgcc dereferences indirect pointers when it searches FDEs (PC
      // begin) and when a C++ frame unwinds (LSDA); only personality
      // pointers are indirect.
      bool Indirect = Encoding & dwarf::DW_EH_PE_indirect;
      if (!getEncodedSize(Encoding & ~dwarf::DW_EH_PE_indirect) ||
          (Indirect && Field != 'P'))
        return invalid(Record, "CIE has an unsupported pointer encoding 0x" +
                                   utohexstr(Encoding) + " for its " +
                                   (Field == 'L'   ? "LSDA"
                                    : Field == 'P' ? "personality"
                                                   : "FDE addresses"));
      if (Field == 'L') {
        Info.HasLSDA = true;
        Info.LSDAEncoding = Encoding;
      } else if (Field == 'R') {
        Info.AddressEncoding = Encoding;
      } else {
        Expected<const EHFrameRelocation *> Personality = checkPointer(
            Record, Data, Encoding & ~dwarf::DW_EH_PE_indirect, "personality");
        if (!Personality)
          return Personality.takeError();
      }
    }
    R.skip(Length);
  }
  if (Error E = checkInstructions(Record, R, Info.StateDepth))
    return E;
  CIEs[Record] = Info;
  return Error::success();
}

Error EHFrameChecker::checkFDE(uint64_t Record, uint64_t CIEPointerField,
                               uint32_t CIEDelta, RecordReader &R) {
  // The CIE pointer is the distance back from its own field to the CIE.
  if (Relocs.count(CIEPointerField))
    return invalid(Record, "FDE's CIE pointer has a relocation");
  auto CIE = CIEDelta <= CIEPointerField ? CIEs.find(CIEPointerField - CIEDelta)
                                         : CIEs.end();
  if (CIE == CIEs.end())
    return invalid(Record, "FDE's CIE pointer (0x" + utohexstr(CIEDelta) +
                               ") does not point to a CIE before it");
  const CIEInfo &Info = CIE->second;

  Expected<const EHFrameRelocation *> Begin =
      checkPointer(Record, R, Info.AddressEncoding, "FDE's PC begin");
  if (!Begin)
    return Begin.takeError();
  const EHFrameRelocation &Reloc = **Begin;
  if (!Reloc.Defined || !Reloc.IsCode)
    return invalid(Record, "FDE's PC begin does not point into a code section "
                           "of the object");
  uint64_t Range;
  if (!R.readUnsigned(getEncodedSize(Info.AddressEncoding), Range))
    return invalid(Record, "FDE's PC range runs past the record's end");
  if (Reloc.TargetOffset && (*Reloc.TargetOffset > Reloc.SectionSize ||
                             Range > Reloc.SectionSize - *Reloc.TargetOffset))
    return invalid(Record, "FDE covers " + Twine(Range) + " bytes at offset " +
                               Twine(*Reloc.TargetOffset) + " of its " +
                               Twine(Reloc.SectionSize) + "-byte section");

  if (Info.HasAugmentationData) {
    uint64_t Length;
    if (!R.readULEB(Length) || Length > R.getEnd() - R.getOffset())
      return invalid(Record,
                     "FDE's augmentation data runs past the record's end");
    RecordReader Data(Section, R.getOffset(), R.getOffset() + Length,
                      IsLittleEndian);
    if (Info.HasLSDA) {
      Expected<const EHFrameRelocation *> LSDA =
          checkPointer(Record, Data, Info.LSDAEncoding, "FDE's LSDA");
      if (!LSDA)
        return LSDA.takeError();
      if (!(*LSDA)->Defined)
        return invalid(Record, "FDE's LSDA is not defined in the object");
    }
    R.skip(Length);
  }
  unsigned Depth = Info.StateDepth;
  return checkInstructions(Record, R, Depth);
}

Error EHFrameChecker::checkInstructions(uint64_t Record, RecordReader &R,
                                        unsigned &Depth) {
  auto Truncated = [&](uint8_t Op) {
    return invalid(Record, "call frame instruction 0x" + utohexstr(Op) +
                               " at offset " + Twine(R.getOffset()) +
                               " runs past the record's end");
  };
  while (!R.atEnd()) {
    uint8_t Op;
    R.readByte(Op);
    uint64_t U;
    int64_t S;
    // DW_CFA_advance_loc, DW_CFA_offset, DW_CFA_restore: operands in the
    // opcode (and an offset).
    uint8_t Primary = Op & 0xc0;
    if (Primary == dwarf::DW_CFA_advance_loc ||
        Primary == dwarf::DW_CFA_restore)
      continue;
    if (Primary == dwarf::DW_CFA_offset) {
      if (!R.readULEB(U))
        return Truncated(Op);
      continue;
    }
    bool Ok = true;
    switch (Op) {
    case dwarf::DW_CFA_nop:
    case dwarf::DW_CFA_GNU_window_save: // also AArch64's negate_ra_state
      break;
    case dwarf::DW_CFA_remember_state:
      ++Depth;
      break;
    case dwarf::DW_CFA_restore_state:
      // libgcc restores from an empty stack through a null pointer.
      if (Depth == 0)
        return invalid(Record, "DW_CFA_restore_state without a remembered "
                               "state");
      --Depth;
      break;
    case dwarf::DW_CFA_advance_loc1:
      Ok = R.skip(1);
      break;
    case dwarf::DW_CFA_advance_loc2:
      Ok = R.skip(2);
      break;
    case dwarf::DW_CFA_advance_loc4:
      Ok = R.skip(4);
      break;
    case dwarf::DW_CFA_restore_extended:
    case dwarf::DW_CFA_undefined:
    case dwarf::DW_CFA_same_value:
    case dwarf::DW_CFA_def_cfa_register:
    case dwarf::DW_CFA_def_cfa_offset:
    case dwarf::DW_CFA_GNU_args_size:
      Ok = R.readULEB(U);
      break;
    case dwarf::DW_CFA_def_cfa_offset_sf:
      Ok = R.readSLEB(S);
      break;
    case dwarf::DW_CFA_offset_extended:
    case dwarf::DW_CFA_register:
    case dwarf::DW_CFA_def_cfa:
    case dwarf::DW_CFA_val_offset:
      Ok = R.readULEB(U) && R.readULEB(U);
      break;
    case dwarf::DW_CFA_offset_extended_sf:
    case dwarf::DW_CFA_def_cfa_sf:
    case dwarf::DW_CFA_val_offset_sf:
      Ok = R.readULEB(U) && R.readSLEB(S);
      break;
    case dwarf::DW_CFA_def_cfa_expression:
      Ok = R.readULEB(U) && R.skip(U);
      break;
    case dwarf::DW_CFA_expression:
    case dwarf::DW_CFA_val_expression:
      Ok = R.readULEB(U) && R.readULEB(U) && R.skip(U);
      break;
    default:
      // Includes DW_CFA_set_loc: an address that would need a relocation.
      return invalid(Record, "unsupported call frame instruction 0x" +
                                 utohexstr(Op) + " at offset " +
                                 Twine(R.getOffset() - 1));
    }
    if (!Ok)
      return Truncated(Op);
  }
  return Error::success();
}

Error EHFrameChecker::check() {
  uint64_t Offset = 0;
  while (Offset < Section.size()) {
    uint64_t Record = Offset;
    RecordReader Header(Section, Offset, Section.size(), IsLittleEndian);
    uint64_t Length;
    if (!Header.readUnsigned(4, Length))
      return invalid(Record, "the section ends inside a record's length");
    if (Length == 0xffffffff)
      return invalid(Record, "64-bit DWARF records are not supported");
    if (Length == 0)
      return invalid(Record, "a terminator (length 0) inside the section");
    if (Length > Section.size() - Header.getOffset())
      return invalid(Record, "its length (" + Twine(Length) +
                                 " bytes) runs past the section's end");
    uint64_t End = Header.getOffset() + Length;
    RecordReader R(Section, Header.getOffset(), End, IsLittleEndian);
    uint64_t IdField = R.getOffset();
    uint64_t Id;
    if (!R.readUnsigned(4, Id))
      return invalid(Record, "record shorter than its CIE id or pointer");
    if (Error E = Id == 0 ? checkCIE(Record, R)
                          : checkFDE(Record, IdField, uint32_t(Id), R))
      return E;
    Offset = End;
  }
  // Relocations only at the pointer fields the records have.
  for (const auto &[At, List] : Relocs)
    if (!PointerFields.count(At))
      return createStringError("a relocation at offset " + Twine(At) +
                               " is not at a pointer field of a record");
  return Error::success();
}

Error offload::host::checkEHFrame(StringRef Contents, bool IsLittleEndian,
                                  unsigned PointerSize,
                                  ArrayRef<EHFrameRelocation> Relocations) {
  return EHFrameChecker(Contents, IsLittleEndian, PointerSize, Relocations)
      .check();
}
