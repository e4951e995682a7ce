//===- CorruptImageTest.cpp - Loading corrupted host images ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Deterministic bit flips and truncations of the real test-kernel object:
// offloadIsValidBinary, offloadCreateProgram and offloadGetSymbol of every
// kernel must neither crash nor hang, must fail only with INVALID_BINARY or
// NOT_FOUND, and must agree: an image offloadIsValidBinary accepts loads.
// Flips are aimed at what the loader trusts (headers, section headers,
// symbol, string and relocation tables) as often as at random bytes.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <cstring>
#include <random>

using namespace offload_test;
using namespace llvm;

namespace {

/// Byte ranges [Begin, End) of an image worth corrupting.
struct Region {
  uint64_t Begin, End;
};

/// The ELF header, the section header table and the symbol, string and
/// relocation tables of \p Image.
std::vector<Region> getStructuralRegions(const std::string &Image) {
  std::vector<Region> Regions = {{0, 64}};
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Image, "image", false);
  Expected<object::ELF64LEObjectFile> Obj =
      object::ELF64LEObjectFile::create(Buffer->getMemBufferRef());
  if (!Obj) {
    consumeError(Obj.takeError());
    return Regions;
  }
  const object::ELF64LEFile &EF = Obj->getELFFile();
  const auto &Header = EF.getHeader();
  Regions.push_back(
      {Header.e_shoff, Header.e_shoff + uint64_t(Header.e_shnum) * 64});
  Expected<object::ELF64LEFile::Elf_Shdr_Range> Sections = EF.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return Regions;
  }
  for (const auto &Sec : *Sections)
    if (Sec.sh_type == ELF::SHT_SYMTAB || Sec.sh_type == ELF::SHT_STRTAB ||
        Sec.sh_type == ELF::SHT_RELA || Sec.sh_type == ELF::SHT_REL ||
        Sec.sh_type == ELF::SHT_GROUP)
      Regions.push_back({Sec.sh_offset, Sec.sh_offset + Sec.sh_size});
  return Regions;
}

/// Whether \p R is a failure a corrupt image may cause.
bool isExpectedFailure(offload_result_t R) {
  return R->Code == OFFLOAD_ERRC_INVALID_BINARY ||
         R->Code == OFFLOAD_ERRC_NOT_FOUND;
}

TEST(CorruptImageTest, BitFlipsAndTruncationsNeverCrashAndAgree) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host = nullptr;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  const std::string &Original = getTestKernels();
  std::vector<Region> Regions = getStructuralRegions(Original);
  ASSERT_GT(Regions.size(), 3u) << "the test object has no tables";
  const char *Kernels[] = {"saxpy",
                           "ids",
                           "ids_fixed",
                           "alignment",
                           "expf",
                           "read_global",
                           "reverse",
                           "reverse_dynamic",
                           "shuffle",
                           "warp_sum",
                           "early_exit",
                           "deadlock",
                           "duplicated_barrier",
                           "no_reason",
                           "barrier_misuse",
                           "bad_version",
                           "read_array",
                           "count_blocks",
                           "count_blocks_cooperative",
                           "bad_layout"};
  const char *Globals[] = {"offload_test_global", "offload_test_array"};

  std::mt19937_64 Rng(0x0ff10ad);
  constexpr unsigned NumImages = 2000;
  unsigned NumValid = 0, NumLoaded = 0;
  auto Start = std::chrono::steady_clock::now();
  for (unsigned I = 0; I < NumImages; ++I) {
    std::string Image = Original;
    std::string What;
    if (I % 5 == 4) {
      Image.resize(Rng() % Image.size());
      What = "truncated to " + std::to_string(Image.size()) + " bytes";
    } else {
      unsigned Flips = 1 + Rng() % 3;
      What = "bits flipped at";
      for (unsigned F = 0; F < Flips; ++F) {
        uint64_t Offset;
        // Half the flips hit the tables the loader reads.
        if (Rng() % 2) {
          const Region &R = Regions[Rng() % Regions.size()];
          Offset = R.Begin + Rng() % std::max<uint64_t>(1, R.End - R.Begin);
        } else {
          Offset = Rng() % Image.size();
        }
        Offset = std::min<uint64_t>(Offset, Image.size() - 1);
        unsigned Bit = Rng() % 8;
        Image[Offset] = char(Image[Offset] ^ (1 << Bit));
        What += " " + std::to_string(Offset) + ":" + std::to_string(Bit);
      }
    }
    SCOPED_TRACE("image " + std::to_string(I) + ": " + What);

    bool Valid = false;
    ASSERT_SUCCESS(
        offloadIsValidBinary(Host, Image.data(), Image.size(), &Valid));
    NumValid += Valid;
    offload_program_handle_t Program = nullptr;
    offload_result_t R =
        offloadCreateProgram(Host, Image.data(), Image.size(), &Program);
    if (Valid)
      ASSERT_EQ(R, OFFLOAD_SUCCESS)
          << "valid per offloadIsValidBinary, but: " << describe(R);
    if (R) {
      ASSERT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY) << describe(R);
      continue;
    }
    ++NumLoaded;
    for (const char *Name : Kernels) {
      offload_symbol_handle_t Kernel = nullptr;
      offload_result_t S =
          offloadGetSymbol(Program, Name, OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel);
      if (S)
        EXPECT_TRUE(isExpectedFailure(S)) << Name << ": " << describe(S);
    }
    for (const char *Name : Globals) {
      offload_symbol_handle_t Global = nullptr;
      offload_result_t S = offloadGetSymbol(
          Program, Name, OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &Global);
      if (S)
        EXPECT_TRUE(isExpectedFailure(S)) << Name << ": " << describe(S);
    }
    ASSERT_SUCCESS(offloadDestroyProgram(Program));
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  // Both outcomes occur, or the test exercises nothing.
  EXPECT_GT(NumValid, 0u);
  EXPECT_LT(NumLoaded, NumImages);
  RecordProperty("valid", int(NumValid));
  RecordProperty("loaded", int(NumLoaded));
  std::printf("%u corrupted images: %u valid, %u loaded, %.1f s\n", NumImages,
              NumValid, NumLoaded, Seconds);
  EXPECT_LT(Seconds, 20.0);
  ASSERT_SUCCESS(offloadShutDown());
}

// Found by offload-fuzz-host-image: a .bss without SHF_ALLOC passed the
// checks, and JITLink copied its (absent) contents from null: a crash in
// offloadIsValidBinary and offloadCreateProgram instead of INVALID_BINARY.
TEST(CorruptImageTest, ZeroFilledSectionNotAllocatedIsRefused) {
  std::string Image = getInitFiniObject(/*UseInitArray=*/false);
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Image, "image", false);
  Expected<object::ELF64LEObjectFile> Obj =
      object::ELF64LEObjectFile::create(Buffer->getMemBufferRef());
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  const object::ELF64LEFile &EF = Obj->getELFFile();
  auto Sections = cantFail(EF.sections());
  bool Patched = false;
  for (size_t I = 0; I < Sections.size(); ++I) {
    const auto &Sec = Sections[I];
    if (Sec.sh_type != ELF::SHT_NOBITS || !Sec.sh_size)
      continue;
    // sh_flags of section I, in the copy.
    uint64_t FlagsAt = EF.getHeader().e_shoff + I * sizeof(Sec) + 8;
    uint64_t Flags = Sec.sh_flags & ~uint64_t(ELF::SHF_ALLOC);
    std::memcpy(&Image[FlagsAt], &Flags, sizeof(Flags));
    Patched = true;
    break;
  }
  ASSERT_TRUE(Patched) << "the init/fini object has no zero-filled section";

  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  bool Valid = true;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Host, Image.data(), Image.size(), &Valid));
  EXPECT_FALSE(Valid);
  offload_program_handle_t Program = nullptr;
  offload_result_t R =
      offloadCreateProgram(Host, Image.data(), Image.size(), &Program);
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY);
  EXPECT_NE(std::string(R->Details).find("is zero-filled"), std::string::npos)
      << R->Details;
  ASSERT_SUCCESS(offloadShutDown());
}

// Found by offload-fuzz-host-image: a relocation against the null symbol
// (index 0) passed the checks. In the fuzzer's image JITLink's graph builder
// then crashed formatting an error about it; in this one it would silently
// resolve the kernel descriptor's pointer to address 0. Either way the
// image is corrupt (the compiler never emits such relocations): refused.
TEST(CorruptImageTest, RelocationAgainstTheNullSymbolIsRefused) {
  std::string Image = getTestKernels();
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Image, "image", false);
  Expected<object::ELF64LEObjectFile> Obj =
      object::ELF64LEObjectFile::create(Buffer->getMemBufferRef());
  ASSERT_TRUE(bool(Obj)) << toString(Obj.takeError());
  const object::ELF64LEFile &EF = Obj->getELFFile();
  bool Patched = false;
  for (const auto &Sec : cantFail(EF.sections())) {
    if (Sec.sh_type != ELF::SHT_RELA || Sec.sh_size < 24 ||
        cantFail(EF.getSectionName(Sec)) != ".rela.data.rel.ro")
      continue;
    // r_info of the first entry (a kernel descriptor's pointer): symbol 0,
    // type R_X86_64_64.
    uint64_t Info = ELF::R_X86_64_64;
    std::memcpy(&Image[Sec.sh_offset + 8], &Info, sizeof(Info));
    Patched = true;
    break;
  }
  ASSERT_TRUE(Patched) << "the test kernels have no relocations";

  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  bool Valid = true;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Host, Image.data(), Image.size(), &Valid));
  EXPECT_FALSE(Valid);
  offload_program_handle_t Program = nullptr;
  offload_result_t R =
      offloadCreateProgram(Host, Image.data(), Image.size(), &Program);
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY);
  EXPECT_NE(std::string(R->Details).find("null symbol"), std::string::npos)
      << R->Details;
  ASSERT_SUCCESS(offloadShutDown());
}

/// The file offset and size of the test kernels' .eh_frame section.
Region getEHFrame(const std::string &Image) {
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Image, "image", false);
  Expected<object::ELF64LEObjectFile> Obj =
      object::ELF64LEObjectFile::create(Buffer->getMemBufferRef());
  if (!Obj) {
    consumeError(Obj.takeError());
    return {0, 0};
  }
  const object::ELF64LEFile &EF = Obj->getELFFile();
  for (const auto &Sec : cantFail(EF.sections()))
    if (cantFail(EF.getSectionName(Sec)) == ".eh_frame")
      return {Sec.sh_offset, Sec.sh_offset + Sec.sh_size};
  return {0, 0};
}

/// Section offsets of the records of the .eh_frame at [Begin, End) of
/// \p Image (32-bit lengths, as LLVM writes them).
std::vector<uint64_t> getEHFrameRecords(const std::string &Image,
                                        Region EHFrame) {
  std::vector<uint64_t> Records;
  for (uint64_t At = 0; At + 8 <= EHFrame.End - EHFrame.Begin;) {
    uint32_t Length;
    std::memcpy(&Length, &Image[EHFrame.Begin + At], 4);
    Records.push_back(At);
    At += 4 + uint64_t(Length);
  }
  return Records;
}

/// \p Image refused by offloadIsValidBinary and by offloadCreateProgram with
/// INVALID_BINARY and a message holding \p Expected.
void expectRefused(offload_device_handle_t Host, const std::string &Image,
                   const std::string &Expected) {
  bool Valid = true;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Host, Image.data(), Image.size(), &Valid));
  EXPECT_FALSE(Valid);
  offload_program_handle_t Program = nullptr;
  offload_result_t R =
      offloadCreateProgram(Host, Image.data(), Image.size(), &Program);
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY);
  EXPECT_NE(std::string(R->Details).find(".eh_frame"), std::string::npos)
      << R->Details;
  EXPECT_NE(std::string(R->Details).find(Expected), std::string::npos)
      << R->Details;
}

// Found by offload-fuzz-host-image (about 1 in 8,000 image mutations): an
// FDE's CIE pointer one byte off its CIE crashed JITLink (jitlink::prune,
// LLVM 22) in offloadIsValidBinary and offloadCreateProgram. One bit of each
// FDE's CIE pointer flipped, each in its own image.
TEST(CorruptImageTest, EHFrameCIEPointerOffByOneIsRefused) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  const std::string &Original = getTestKernels();
  Region EHFrame = getEHFrame(Original);
  ASSERT_GT(EHFrame.End, EHFrame.Begin) << "the test kernels have no .eh_frame";
  std::vector<uint64_t> Records = getEHFrameRecords(Original, EHFrame);
  ASSERT_GT(Records.size(), 2u);
  for (size_t I = 1; I < Records.size(); ++I) {
    SCOPED_TRACE("FDE at offset " + std::to_string(Records[I]));
    std::string Image = Original;
    Image[EHFrame.Begin + Records[I] + 4] ^= 1;
    expectRefused(Host, Image, "does not point to a CIE");
  }
  ASSERT_SUCCESS(offloadShutDown());
}

// Found by offload-fuzz-host-image: the CIE's FDE address encoding 0x1b
// (pcrel sdata4) with bit 2 flipped, 0x1f, has no case in JITLink's pointer
// reader (llvm_unreachable; a wild jump in release builds).
TEST(CorruptImageTest, EHFrameUnknownPointerEncodingIsRefused) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  std::string Image = getTestKernels();
  Region EHFrame = getEHFrame(Image);
  ASSERT_GT(EHFrame.End, EHFrame.Begin) << "the test kernels have no .eh_frame";
  // The first CIE: length, id, version 1, "zR", code and data alignment
  // and return register (one byte each here), augmentation length, then
  // the 'R' encoding.
  const char *CIE = &Image[EHFrame.Begin];
  ASSERT_EQ(std::string(CIE + 9, 3), std::string("zR\0", 3));
  uint64_t EncodingAt = EHFrame.Begin + 16;
  ASSERT_EQ(uint8_t(Image[EncodingAt]), 0x1b);
  Image[EncodingAt] ^= 4;
  expectRefused(Host, Image, "unsupported pointer encoding 0x1F");
  ASSERT_SUCCESS(offloadShutDown());
}

// Every byte of .eh_frame with one bit flipped (bit = offset mod 8): no crash,
// and offloadIsValidBinary agrees with offloadCreateProgram.
TEST(CorruptImageTest, EHFrameBitFlipsNeverCrashAndAgree) {
  ASSERT_SUCCESS(offloadInit());
  offload_device_handle_t Host;
  ASSERT_SUCCESS(offloadGetHostDevice(&Host));
  const std::string &Original = getTestKernels();
  Region EHFrame = getEHFrame(Original);
  ASSERT_GT(EHFrame.End, EHFrame.Begin) << "the test kernels have no .eh_frame";
  unsigned NumValid = 0;
  for (uint64_t At = EHFrame.Begin; At < EHFrame.End; ++At) {
    std::string Image = Original;
    Image[At] ^= char(1 << (At % 8));
    SCOPED_TRACE("bit " + std::to_string(At % 8) + " of byte " +
                 std::to_string(At));
    bool Valid = false;
    ASSERT_SUCCESS(
        offloadIsValidBinary(Host, Image.data(), Image.size(), &Valid));
    offload_program_handle_t Program = nullptr;
    offload_result_t R =
        offloadCreateProgram(Host, Image.data(), Image.size(), &Program);
    ASSERT_EQ(Valid, R == OFFLOAD_SUCCESS) << describe(R);
    if (R) {
      ASSERT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY) << describe(R);
      continue;
    }
    ++NumValid;
    ASSERT_SUCCESS(offloadDestroyProgram(Program));
  }
  // Flips of call frame operands keep the section valid.
  EXPECT_GT(NumValid, 0u);
  RecordProperty("valid", int(NumValid));
  ASSERT_SUCCESS(offloadShutDown());
}

} // namespace
