//===- ImageCheck.cpp - What kind of device binary an image is ------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ImageCheck.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"

#include <cstring>

using namespace llvm;
using namespace offload::plugin;

ImageKind offload::plugin::getImageKind(StringRef Image) {
  switch (identify_magic(Image)) {
  case file_magic::elf:
  case file_magic::elf_relocatable:
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
  case file_magic::elf_core:
    return ImageKind::ELF;
  case file_magic::cuda_fatbinary:
    return ImageKind::CUDAFatbin;
  case file_magic::offload_bundle:
  case file_magic::offload_bundle_compressed:
    return ImageKind::OffloadBundle;
  default:
    break;
  }
  StringRef Text = Image;
  if (Text.ends_with(StringRef("\0", 1)))
    Text = Text.drop_back();
  if (!Text.contains('\0') && Text.contains(".version") &&
      Text.contains(".target"))
    return ImageKind::PTX;
  return ImageKind::Unknown;
}

std::optional<uint16_t> offload::plugin::getELF64Machine(StringRef Image) {
  if (Image.size() < sizeof(ELF::Elf64_Ehdr) ||
      !Image.starts_with(ELF::ElfMagic) ||
      Image[ELF::EI_CLASS] != ELF::ELFCLASS64 ||
      Image[ELF::EI_DATA] != ELF::ELFDATA2LSB)
    return std::nullopt;
  uint16_t Machine;
  std::memcpy(&Machine, Image.data() + offsetof(ELF::Elf64_Ehdr, e_machine),
              sizeof(Machine));
  return Machine;
}
