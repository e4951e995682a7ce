//===- HostProgram.cpp - Loading host programs with ORC -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A host program is an ELF relocatable object. The plugin owns one LLJIT and
// gives every program a JITDylib of its own, so programs may define the same
// names and can be unloaded one by one. Each program JITDylib links against
//  1. "offload.host.runtime": absolute definitions of the functions kernels
//     call back into (__offload_host_barrier, __offload_host_shuffle), plus a
//     generator resolving everything else (printf, libm, memcpy, ...) from the
//     current process;
//  2. LLJIT's default link order (its process-symbols JITDylib).
// The object is linked eagerly, when the program is created, so that a
// malformed object or an unresolved symbol is reported by
// offloadCreateProgram (INVALID_BINARY with ORC's message) rather than by the
// first symbol lookup. Before JITLink sees it, the object's structure is
// checked (validateELFObject): JITLink trusts section headers, symbol and
// relocation tables. While it is linked, an ObjectLinkingLayer plugin
// (InitializerCollector) records the program's memory and its global
// constructors and destructors, which run at load and unload. Kernel
// descriptors are checked against that memory before the runtime follows
// their pointers. offloadIsValidBinary makes the same checks and a trial
// link that runs none of the program's code.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "HostEHFrame.h"

#include "../../Runtime.h"
#include "OffloadSupport/Error.h"

#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <mutex>

using namespace llvm;
using namespace offload;
using namespace offload::host;

static constexpr StringLiteral KernelPrefix = OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX;

//===----------------------------------------------------------------------===//
// Object checks
//===----------------------------------------------------------------------===//

static Error validateHostObject(const object::ObjectFile &Obj);

/// Parses \p Buffer as an object file for the host and checks its
/// structure (validateELFObject).
static Expected<std::unique_ptr<object::ObjectFile>>
parseHostObject(MemoryBufferRef Buffer) {
  StringRef Image = Buffer.getBuffer();
  if (!Image.starts_with("\x7f"
                         "ELF"))
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the binary is not an ELF object (bad magic)");
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Buffer);
  if (!Obj)
    return wrapError(Obj.takeError(), OFFLOAD_ERRC_INVALID_BINARY,
                     "cannot parse the binary");
  if (!(*Obj)->isELF() || !(*Obj)->isRelocatableObject())
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the binary is not an ELF relocatable object");
  Triple::ArchType HostArch = Triple(sys::getProcessTriple()).getArch();
  Triple::ArchType ObjArch = (*Obj)->getArch();
  if (ObjArch != HostArch)
    return createError(
        OFFLOAD_ERRC_INVALID_BINARY, "the binary is for {0}, the host is {1}",
        Triple::getArchTypeName(ObjArch), Triple::getArchTypeName(HostArch));
  if (Error E = validateHostObject(**Obj))
    return std::move(E);
  return Obj;
}

/// Bytes a relocation of \p Type writes on \p Machine (conservatively 8 for
/// types not listed).
static uint64_t getRelocationWidth(uint16_t Machine, uint32_t Type) {
  if (Machine == ELF::EM_X86_64) {
    switch (Type) {
    case ELF::R_X86_64_NONE:
      return 0;
    case ELF::R_X86_64_8:
    case ELF::R_X86_64_PC8:
      return 1;
    case ELF::R_X86_64_16:
    case ELF::R_X86_64_PC16:
      return 2;
    case ELF::R_X86_64_64:
    case ELF::R_X86_64_PC64:
    case ELF::R_X86_64_GOT64:
    case ELF::R_X86_64_GOTOFF64:
    case ELF::R_X86_64_GOTPC64:
    case ELF::R_X86_64_GOTPCREL64:
    case ELF::R_X86_64_GOTPLT64:
    case ELF::R_X86_64_PLTOFF64:
    case ELF::R_X86_64_SIZE64:
    case ELF::R_X86_64_DTPMOD64:
    case ELF::R_X86_64_DTPOFF64:
    case ELF::R_X86_64_TPOFF64:
      return 8;
    default:
      return 4;
    }
  }
  if (Machine == ELF::EM_AARCH64) {
    switch (Type) {
    case ELF::R_AARCH64_NONE:
    case 256: // R_AARCH64_NONE of the ABI's first draft
      return 0;
    case ELF::R_AARCH64_ABS16:
    case ELF::R_AARCH64_PREL16:
      return 2;
    case ELF::R_AARCH64_ABS64:
    case ELF::R_AARCH64_PREL64:
      return 8;
    default:
      return 4;
    }
  }
  return 8;
}

/// Limits on what a section asks the JIT to allocate: alignments above a
/// large page and zero-filled sections above 1 GiB are corrupt headers, not
/// kernels.
static constexpr uint64_t MaxSectionAlignment = 64 * 1024;
static constexpr uint64_t MaxZeroFillBytes = uint64_t(1) << 30;

/// Checks what JITLink trusts in a relocatable ELF object: section headers
/// and contents inside the file, sane alignments and sizes, zero-filled
/// sections allocated, string and symbol tables in bounds, symbols inside
/// their sections, relocations inside their target sections with valid
/// (non-null) symbols, group members that exist, .eh_frame records
/// (checkEHFrame). ELFFile's accessors check that tables lie inside the
/// file.
template <typename ELFT>
static Error validateELFObject(const object::ELFFile<ELFT> &EF) {
  using Elf_Shdr = typename ELFT::Shdr;
  auto Invalid = [](const Twine &Message) {
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "malformed ELF object: " + Message);
  };
  auto Wrap = [](Error E, const Twine &Context) {
    return wrapError(std::move(E), OFFLOAD_ERRC_INVALID_BINARY,
                     "malformed ELF object: " + Context);
  };
  Expected<typename ELFT::ShdrRange> SectionsOrErr = EF.sections();
  if (!SectionsOrErr)
    return Wrap(SectionsOrErr.takeError(), "section headers");
  ArrayRef<Elf_Shdr> Sections = *SectionsOrErr;
  uint64_t FileSize = EF.getBufSize();
  uint16_t Machine = EF.getHeader().e_machine;
  const Elf_Shdr *SymTab = nullptr;
  uint64_t ZeroFillBytes = 0;
  // .eh_frame sections (JITLink finds them by name) and the relocations that
  // apply to them, by section index.
  std::map<size_t, std::vector<EHFrameRelocation>> EHFrames;
  auto CheckEHFrames = [&]() -> Error {
    for (auto &[I, Relocations] : EHFrames) {
      Expected<ArrayRef<uint8_t>> Contents = EF.getSectionContents(Sections[I]);
      if (!Contents)
        return Wrap(Contents.takeError(), "section " + Twine(I));
      if (Error E = checkEHFrame(toStringRef(*Contents),
                                 ELFT::Endianness == llvm::endianness::little,
                                 ELFT::Is64Bits ? 8 : 4, Relocations))
        return wrapError(std::move(E), OFFLOAD_ERRC_INVALID_BINARY,
                         "malformed ELF object: section " + Twine(I) +
                             " (.eh_frame)");
    }
    return Error::success();
  };

  // Sections.
  for (size_t I = 0; I < Sections.size(); ++I) {
    const Elf_Shdr &Sec = Sections[I];
    Expected<StringRef> Name = EF.getSectionName(Sec);
    if (!Name)
      return Wrap(Name.takeError(), "name of section " + Twine(I));
    std::string What = ("section " + Twine(I) + " (" + *Name + ")").str();
    if (Sec.sh_type == ELF::SHT_NULL)
      continue;
    if (*Name == ".eh_frame") {
      if (Sec.sh_type == ELF::SHT_NOBITS || !(Sec.sh_flags & ELF::SHF_ALLOC))
        return Invalid(What + " is zero-filled or not allocated");
      EHFrames[I];
    }
    if (Sec.sh_addralign > MaxSectionAlignment ||
        (Sec.sh_addralign && !isPowerOf2_64(Sec.sh_addralign)))
      return Invalid(What + " has alignment " + Twine(Sec.sh_addralign));
    if (Sec.sh_type == ELF::SHT_NOBITS) {
      // JITLink links a section without SHF_ALLOC from its file contents,
      // which a zero-filled one has none of (it copied from null).
      if (!(Sec.sh_flags & ELF::SHF_ALLOC) && Sec.sh_size)
        return Invalid(What + " is zero-filled (" + Twine(Sec.sh_size) +
                       " bytes) but not allocated");
      ZeroFillBytes += std::min<uint64_t>(Sec.sh_size, MaxZeroFillBytes + 1);
      if (ZeroFillBytes > MaxZeroFillBytes)
        return Invalid("zero-filled sections of more than " +
                       Twine(MaxZeroFillBytes) + " bytes");
      continue;
    }
    if (Sec.sh_offset > FileSize || Sec.sh_size > FileSize - Sec.sh_offset)
      return Invalid(What + " (" + Twine(Sec.sh_size) + " bytes at offset " +
                     Twine(Sec.sh_offset) + ") lies outside the " +
                     Twine(FileSize) + "-byte file");
    if (Sec.sh_type == ELF::SHT_SYMTAB) {
      if (SymTab)
        return Invalid("more than one symbol table");
      SymTab = &Sec;
    }
    if (Sec.sh_type == ELF::SHT_SYMTAB_SHNDX)
      return Invalid("extended section indices are not supported");
  }
  if (!SymTab)
    return CheckEHFrames();

  // Symbols.
  Expected<typename ELFT::SymRange> Symbols = EF.symbols(SymTab);
  if (!Symbols)
    return Wrap(Symbols.takeError(), "symbol table");
  Expected<StringRef> StrTab = EF.getStringTableForSymtab(*SymTab);
  if (!StrTab)
    return Wrap(StrTab.takeError(), "string table of the symbols");
  for (size_t I = 0; I < Symbols->size(); ++I) {
    const typename ELFT::Sym &Sym = (*Symbols)[I];
    Expected<StringRef> Name = Sym.getName(*StrTab);
    if (!Name)
      return Wrap(Name.takeError(), "name of symbol " + Twine(I));
    std::string What = ("symbol " + Twine(I) + " (" + *Name + ")").str();
    uint16_t Index = Sym.st_shndx;
    if (Index == ELF::SHN_UNDEF || Index == ELF::SHN_ABS)
      continue;
    if (Index == ELF::SHN_COMMON) {
      if (!isPowerOf2_64(Sym.st_value) || Sym.st_value > MaxSectionAlignment ||
          Sym.st_size > MaxZeroFillBytes)
        return Invalid(What + " is a common symbol of " + Twine(Sym.st_size) +
                       " bytes aligned to " + Twine(Sym.st_value));
      continue;
    }
    if (Index >= Sections.size())
      return Invalid(What + " is in section " + Twine(Index) + " of " +
                     Twine(Sections.size()));
    const Elf_Shdr &Sec = Sections[Index];
    if (Sym.st_value > Sec.sh_size || Sym.st_size > Sec.sh_size - Sym.st_value)
      return Invalid(What + " (" + Twine(Sym.st_size) + " bytes at " +
                     Twine(Sym.st_value) + ") lies outside its " +
                     Twine(Sec.sh_size) + "-byte section " + Twine(Index));
  }

  // Relocations and groups.
  for (size_t I = 0; I < Sections.size(); ++I) {
    const Elf_Shdr &Sec = Sections[I];
    if (Sec.sh_type == ELF::SHT_GROUP) {
      Expected<ArrayRef<typename ELFT::Word>> Members =
          EF.template getSectionContentsAsArray<typename ELFT::Word>(Sec);
      if (!Members)
        return Wrap(Members.takeError(), "group section " + Twine(I));
      for (size_t M = 1; M < Members->size(); ++M)
        if ((*Members)[M] >= Sections.size() || (*Members)[M] == 0)
          return Invalid("group section " + Twine(I) + " names section " +
                         Twine((*Members)[M]));
      continue;
    }
    if (Sec.sh_type != ELF::SHT_RELA && Sec.sh_type != ELF::SHT_REL)
      continue;
    std::string What = ("relocation section " + Twine(I)).str();
    if (Sec.sh_link >= Sections.size() || &Sections[Sec.sh_link] != SymTab)
      return Invalid(What + " does not use the symbol table");
    if (Sec.sh_info == 0 || Sec.sh_info >= Sections.size())
      return Invalid(What + " applies to section " + Twine(Sec.sh_info) +
                     " of " + Twine(Sections.size()));
    const Elf_Shdr &Target = Sections[Sec.sh_info];
    if (Target.sh_type == ELF::SHT_NOBITS)
      return Invalid(What + " applies to a zero-filled section");
    auto EHFrame = EHFrames.find(Sec.sh_info);
    auto Check = [&](uint64_t Offset, uint32_t Type, uint32_t SymIndex,
                     size_t R, std::optional<int64_t> Addend) -> Error {
      uint64_t Width = getRelocationWidth(Machine, Type);
      if (Offset > Target.sh_size || Width > Target.sh_size - Offset)
        return Invalid(What + ": relocation " + Twine(R) + " writes " +
                       Twine(Width) + " bytes at offset " + Twine(Offset) +
                       " of its " + Twine(Target.sh_size) + "-byte section");
      if (SymIndex >= Symbols->size())
        return Invalid(What + ": relocation " + Twine(R) + " uses symbol " +
                       Twine(SymIndex) + " of " + Twine(Symbols->size()));
      // The null symbol (index 0): address 0 where JITLink accepts it, a
      // crash building its error where it does not (seen with LLVM 22).
      if (SymIndex == 0 && Width)
        return Invalid(What + ": relocation " + Twine(R) +
                       " uses the null symbol (index 0)");
      if (EHFrame != EHFrames.end()) {
        EHFrameRelocation Reloc;
        Reloc.Offset = Offset;
        Reloc.Width = Width;
        const typename ELFT::Sym &Sym = (*Symbols)[SymIndex];
        uint16_t Index = Sym.st_shndx;
        if (Index != ELF::SHN_UNDEF && Index < Sections.size()) {
          const Elf_Shdr &In = Sections[Index];
          Reloc.Defined = true;
          Reloc.IsCode = (In.sh_flags & ELF::SHF_ALLOC) &&
                         (In.sh_flags & ELF::SHF_EXECINSTR);
          Reloc.SectionSize = In.sh_size;
          if (Addend)
            Reloc.TargetOffset = Sym.st_value + uint64_t(*Addend);
        }
        EHFrame->second.push_back(Reloc);
      }
      return Error::success();
    };
    if (Sec.sh_type == ELF::SHT_RELA) {
      Expected<typename ELFT::RelaRange> Relas = EF.relas(Sec);
      if (!Relas)
        return Wrap(Relas.takeError(), What);
      for (size_t R = 0; R < Relas->size(); ++R) {
        const typename ELFT::Rela &Rel = (*Relas)[R];
        if (Error E = Check(Rel.r_offset, Rel.getType(false),
                            Rel.getSymbol(false), R, int64_t(Rel.r_addend)))
          return E;
      }
    } else {
      Expected<typename ELFT::RelRange> Rels = EF.rels(Sec);
      if (!Rels)
        return Wrap(Rels.takeError(), What);
      for (size_t R = 0; R < Rels->size(); ++R) {
        const typename ELFT::Rel &Rel = (*Rels)[R];
        if (Error E = Check(Rel.r_offset, Rel.getType(false),
                            Rel.getSymbol(false), R, std::nullopt))
          return E;
      }
    }
  }
  return CheckEHFrames();
}

/// validateELFObject for the ELF class and byte order of \p Obj.
static Error validateHostObject(const object::ObjectFile &Obj) {
  if (const auto *O = dyn_cast<object::ELF64LEObjectFile>(&Obj))
    return validateELFObject(O->getELFFile());
  if (const auto *O = dyn_cast<object::ELF64BEObjectFile>(&Obj))
    return validateELFObject(O->getELFFile());
  if (const auto *O = dyn_cast<object::ELF32LEObjectFile>(&Obj))
    return validateELFObject(O->getELFFile());
  if (const auto *O = dyn_cast<object::ELF32BEObjectFile>(&Obj))
    return validateELFObject(O->getELFFile());
  return createError(OFFLOAD_ERRC_INVALID_BINARY,
                     "the binary is not an ELF object");
}

//===----------------------------------------------------------------------===//
// JIT
//===----------------------------------------------------------------------===//

namespace {
/// Messages ORC reported on this thread while a program was being linked.
/// ORC reports link failures (e.g. unresolved symbols) through the session's
/// error reporter and returns only "failed to materialize" to the lookup;
/// materialization runs on the looking-up thread, so the loader collects the
/// reports here and appends them to its error.
thread_local std::string *LinkReports = nullptr;

/// Collects ORC's reports for the scope of one program load.
class LinkReportScope {
public:
  LinkReportScope() { LinkReports = &Reports; }
  ~LinkReportScope() { LinkReports = nullptr; }
  const std::string &get() const { return Reports; }

private:
  std::string Reports;
};
} // namespace

static void reportSessionError(Error E) {
  std::string Message = toString(std::move(E));
  if (LinkReports) {
    if (!LinkReports->empty())
      *LinkReports += "; ";
    *LinkReports += Message;
    return;
  }
  // Outside a load there is no caller to return the error to.
  if (isTraceEnabled())
    errs() << "offload host plugin: JIT error: " << Message << '\n';
}

//===----------------------------------------------------------------------===//
// Static initializers
//===----------------------------------------------------------------------===//

namespace {
/// What an ELF section of static initializers holds.
struct InitSection {
  bool IsConstructor;
  /// The priority of its functions (65535 for sections without one).
  uint32_t Priority;
  /// Whether the functions of the section run last to first: .ctors and
  /// .fini_array.
  bool Reversed;
};
} // namespace

/// Classifies \p Name: .init_array[.N] and .ctors[.N] hold constructors,
/// .fini_array[.N] and .dtors[.N] destructors. N is the priority for the
/// arrays, 65535 - priority for the legacy .ctors/.dtors.
static std::optional<InitSection> classifyInitSection(StringRef Name) {
  struct Kind {
    StringLiteral Prefix;
    bool IsConstructor, Legacy, Reversed;
  };
  static constexpr Kind Kinds[] = {{".init_array", true, false, false},
                                   {".fini_array", false, false, true},
                                   {".ctors", true, true, true},
                                   {".dtors", false, true, false}};
  for (const Kind &K : Kinds) {
    if (!Name.consume_front(K.Prefix))
      continue;
    uint32_t Number = 65535;
    if (!Name.empty()) {
      if (!Name.consume_front(".") || Name.getAsInteger(10, Number) ||
          Number > 65535)
        return std::nullopt;
      if (K.Legacy)
        Number = 65535 - Number;
    }
    return InitSection{K.IsConstructor, Number, K.Reversed};
  }
  return std::nullopt;
}

/// An ObjectLinkingLayer plugin that keeps the static initializer sections of
/// a program's object alive and, once they are fixed up, reads the addresses
/// of their functions. LLJIT's default platform runs initializers of LLVM IR
/// only, not of objects.
class offload::host::InitializerCollector final
    : public orc::ObjectLinkingLayer::Plugin {
public:
  /// Collects what the links of \p JD find into \p Out until untrack.
  void track(orc::JITDylib &JD, LinkInfo &Out) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Targets[&JD] = &Out;
  }
  void untrack(orc::JITDylib &JD) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Targets.erase(&JD);
  }

  void modifyPassConfig(orc::MaterializationResponsibility &MR,
                        jitlink::LinkGraph &G,
                        jitlink::PassConfiguration &Config) override {
    LinkInfo *Out;
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Out = Targets.lookup(&MR.getTargetJITDylib());
    }
    if (!Out)
      return;
    // Nothing refers to the sections: without a live symbol they and the
    // functions only they reference would be dead-stripped.
    Config.PrePrunePasses.push_back([](jitlink::LinkGraph &G) {
      for (jitlink::Section &Sec : G.sections()) {
        if (!classifyInitSection(Sec.getName()))
          continue;
        SmallVector<jitlink::Block *> Blocks(Sec.blocks());
        for (jitlink::Block *B : Blocks)
          G.addAnonymousSymbol(*B, 0, 0, /*IsCallable=*/false,
                               /*IsLive=*/true);
      }
      return Error::success();
    });
    Config.PostFixupPasses.push_back(
        [Out](jitlink::LinkGraph &G) { return collect(G, *Out); });
  }

  Error notifyFailed(orc::MaterializationResponsibility &MR) override {
    return Error::success();
  }
  Error notifyRemovingResources(orc::JITDylib &JD,
                                orc::ResourceKey K) override {
    return Error::success();
  }
  void notifyTransferringResources(orc::JITDylib &JD, orc::ResourceKey DstKey,
                                   orc::ResourceKey SrcKey) override {}

private:
  /// Reads the fixed-up function pointers of the initializer sections of
  /// \p G into \p Out, in the order they run: constructors by ascending
  /// priority, destructors by descending priority; within a section, in
  /// order or reversed as ELF's init and fini arrays run them.
  static Error collect(jitlink::LinkGraph &G, LinkInfo &Out) {
    struct Entry {
      uint32_t Priority;
      /// Position in the order the sections give, to keep it for equal
      /// priorities.
      size_t Index;
      uint64_t Address;
    };
    std::vector<Entry> Ctors, Dtors;
    unsigned PointerSize = G.getPointerSize();
    // The memory that lives with the program.
    Out.Memory.clear();
    for (jitlink::Section &Sec : G.sections()) {
      if (Sec.getMemLifetime() != orc::MemLifetime::Standard)
        continue;
      bool Exec = (Sec.getMemProt() & orc::MemProt::Exec) != orc::MemProt::None;
      for (const jitlink::Block *B : Sec.blocks())
        if (B->getSize())
          Out.Memory.push_back(
              {uintptr_t(B->getAddress().getValue()),
               uintptr_t(B->getAddress().getValue()) + uintptr_t(B->getSize()),
               Exec});
    }
    llvm::sort(Out.Memory,
               [](const LinkInfo::Range &A, const LinkInfo::Range &B) {
                 return A.Begin < B.Begin;
               });
    auto IsCode = [&](uint64_t Address) {
      auto It = llvm::upper_bound(
          Out.Memory, uintptr_t(Address),
          [](uintptr_t A, const LinkInfo::Range &R) { return A < R.Begin; });
      return It != Out.Memory.begin() && std::prev(It)->Executable &&
             Address < std::prev(It)->End;
    };
    for (jitlink::Section &Sec : G.sections()) {
      std::optional<InitSection> Kind = classifyInitSection(Sec.getName());
      if (!Kind)
        continue;
      SmallVector<jitlink::Block *> Blocks(Sec.blocks());
      llvm::sort(Blocks, [](const jitlink::Block *A, const jitlink::Block *B) {
        return A->getAddress() < B->getAddress();
      });
      std::vector<uint64_t> Functions;
      for (const jitlink::Block *B : Blocks) {
        if (B->isZeroFill())
          continue;
        ArrayRef<char> Content = B->getContent();
        if (Content.size() % PointerSize)
          return createError(OFFLOAD_ERRC_INVALID_BINARY,
                             "section {0} is {1} bytes, not a whole number "
                             "of pointers",
                             Sec.getName(), Content.size());
        for (size_t I = 0; I < Content.size(); I += PointerSize) {
          uint64_t Address = PointerSize == 8
                                 ? support::endian::read64(Content.data() + I,
                                                           G.getEndianness())
                                 : support::endian::read32(Content.data() + I,
                                                           G.getEndianness());
          // .ctors lists may hold 0 and -1 as terminators.
          if (Address != 0 && Address != ~uint64_t(0) &&
              (PointerSize == 8 || Address != 0xffffffffu))
            Functions.push_back(Address);
        }
      }
      if (Kind->Reversed)
        std::reverse(Functions.begin(), Functions.end());
      std::vector<Entry> &List = Kind->IsConstructor ? Ctors : Dtors;
      for (uint64_t F : Functions) {
        // Never call into data or outside the program.
        if (!IsCode(F))
          return createError(OFFLOAD_ERRC_INVALID_BINARY,
                             "an entry of section {0} ({1}) is not code of "
                             "the program",
                             Sec.getName(),
                             formatPointer(reinterpret_cast<const void *>(F)));
        List.push_back({Kind->Priority, List.size(), F});
      }
    }
    llvm::sort(Ctors, [](const Entry &A, const Entry &B) {
      return std::tie(A.Priority, A.Index) < std::tie(B.Priority, B.Index);
    });
    llvm::sort(Dtors, [](const Entry &A, const Entry &B) {
      return A.Priority != B.Priority ? A.Priority > B.Priority
                                      : A.Index < B.Index;
    });
    for (const Entry &E : Ctors)
      Out.Constructors.push_back(
          orc::ExecutorAddr(E.Address).toPtr<void (*)()>());
    for (const Entry &E : Dtors)
      Out.Destructors.push_back(
          orc::ExecutorAddr(E.Address).toPtr<void (*)()>());
    return Error::success();
  }

  std::mutex Mutex;
  DenseMap<orc::JITDylib *, LinkInfo *> Targets;
};

void HostProgram::setLinkInfo(LinkInfo Info, bool RunConstructors) {
  Link = std::move(Info);
  if (!RunConstructors)
    return;
  ConstructorsRan = true;
  for (void (*Constructor)() : Link.Constructors)
    Constructor();
}

const LinkInfo::Range *HostProgram::findMemory(const void *Ptr, uint64_t Size,
                                               bool Executable) const {
  uintptr_t Address = reinterpret_cast<uintptr_t>(Ptr);
  auto It = llvm::upper_bound(
      Link.Memory, Address,
      [](uintptr_t A, const LinkInfo::Range &R) { return A < R.Begin; });
  if (It == Link.Memory.begin())
    return nullptr;
  const LinkInfo::Range &R = *std::prev(It);
  if (Address >= R.End || Size > R.End - Address ||
      (Executable && !R.Executable))
    return nullptr;
  return &R;
}

static void initializeNativeTargetOnce() {
  static std::once_flag Flag;
  std::call_once(Flag, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
  });
}

Expected<orc::LLJIT &> HostPlugin::getJIT() {
  std::lock_guard<std::mutex> Lock(JITMutex);
  if (JIT)
    return *JIT;
  initializeNativeTargetOnce();
  Expected<std::unique_ptr<orc::LLJIT>> J = orc::LLJITBuilder().create();
  if (!J)
    return wrapError(J.takeError(), OFFLOAD_ERRC_BACKEND_FAILURE,
                     "cannot create the JIT");
  orc::ExecutionSession &ES = (*J)->getExecutionSession();
  ES.setErrorReporter(reportSessionError);
  const DataLayout &DL = (*J)->getDataLayout();
  orc::JITDylib &Runtime = ES.createBareJITDylib("offload.host.runtime");

  orc::MangleAndInterner Mangle(ES, DL);
  JITSymbolFlags Flags = JITSymbolFlags::Exported | JITSymbolFlags::Callable;
  orc::SymbolMap RuntimeSymbols;
  RuntimeSymbols[Mangle("__offload_host_barrier")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_barrier), Flags};
  RuntimeSymbols[Mangle("__offload_host_shuffle")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_shuffle), Flags};
  RuntimeSymbols[Mangle("__offload_host_assert_fail")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_assert_fail), Flags};
  RuntimeSymbols[Mangle("__offload_host_bounds_fail")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_bounds_fail), Flags};
  RuntimeSymbols[Mangle("__offload_host_check_access")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_check_access), Flags};
  RuntimeSymbols[Mangle("__offload_host_check_barrier")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_check_barrier), Flags};
  RuntimeSymbols[Mangle("__offload_host_check_init")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_check_init), Flags};
  RuntimeSymbols[Mangle("__offload_host_check_init_pending")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_check_init_pending), Flags};
  RuntimeSymbols[Mangle("__offload_host_check_init_write_all")] = {
      orc::ExecutorAddr::fromPtr(&__offload_host_check_init_write_all), Flags};
  if (Error E = Runtime.define(orc::absoluteSymbols(std::move(RuntimeSymbols))))
    return wrapError(std::move(E), OFFLOAD_ERRC_BACKEND_FAILURE,
                     "cannot define the host runtime symbols");

  auto Process = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      DL.getGlobalPrefix());
  if (!Process)
    return wrapError(Process.takeError(), OFFLOAD_ERRC_BACKEND_FAILURE,
                     "cannot search the process for symbols");
  Runtime.addGenerator(std::move(*Process));

  // Objects are linked by JITLink (LLJIT's default on ELF hosts); its
  // plugins see the link graphs.
  auto *Linker = dyn_cast<orc::ObjectLinkingLayer>(&(*J)->getObjLinkingLayer());
  if (!Linker)
    return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                       "the JIT does not link objects with JITLink: global "
                       "constructors of programs cannot run");
  Initializers = std::make_shared<InitializerCollector>();
  Linker->addPlugin(Initializers);

  JIT = std::move(*J);
  RuntimeDylib = &Runtime;
  return *JIT;
}

std::string HostPlugin::getNextDylibName() {
  std::lock_guard<std::mutex> Lock(JITMutex);
  return "offload.program." + std::to_string(NextDylibId++);
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

Expected<std::unique_ptr<Program>> HostDevice::loadProgram(StringRef Image) {
  Expected<std::unique_ptr<HostProgram>> P =
      loadHostProgram(Image, /*RunConstructors=*/true);
  if (!P)
    return P.takeError();
  return std::move(*P);
}

bool HostDevice::isValidBinary(StringRef Image) const {
  // What offloadCreateProgram checks: the object's structure, then a trial
  // link (unresolved symbols, relocations the linker refuses, initializer
  // entries that are not code) that runs none of its code. Kernel
  // descriptors are checked per kernel, by offloadGetSymbol. The JIT is the
  // device's mutable state, not its identity.
  Expected<std::unique_ptr<HostProgram>> P =
      const_cast<HostDevice *>(this)->loadHostProgram(
          Image, /*RunConstructors=*/false);
  if (!P) {
    consumeError(P.takeError());
    return false;
  }
  return true;
}

Expected<std::unique_ptr<HostProgram>>
HostDevice::loadHostProgram(StringRef Image, bool RunConstructors) {
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBufferCopy(Image, "offload-program");
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      parseHostObject(Buffer->getMemBufferRef());
  if (!Obj)
    return Obj.takeError();

  // The kernels it defines (for messages), and one defined global symbol whose
  // lookup links the whole object.
  std::vector<std::string> KernelNames;
  StringMap<uint64_t> SymbolSizes;
  std::optional<std::string> LinkTrigger;
  for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<StringRef> Name = Sym.getName();
    if (!Flags || !Name) {
      consumeError(Flags.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if ((*Flags & object::SymbolRef::SF_Undefined) ||
        !(*Flags & object::SymbolRef::SF_Global) || Name->empty())
      continue;
    if (!LinkTrigger)
      LinkTrigger = Name->str();
    SymbolSizes[*Name] = object::ELFSymbolRef(Sym).getSize();
    if (Name->starts_with(KernelPrefix))
      KernelNames.push_back(Name->drop_front(KernelPrefix.size()).str());
  }

  Expected<orc::LLJIT &> JIT = ThePlugin.getJIT();
  if (!JIT)
    return JIT.takeError();
  Expected<orc::JITDylib &> JD =
      JIT->createJITDylib(ThePlugin.getNextDylibName());
  if (!JD)
    return wrapError(JD.takeError(), OFFLOAD_ERRC_BACKEND_FAILURE,
                     "cannot create a JITDylib");
  orc::JITDylibSearchOrder LinkOrder;
  LinkOrder.push_back({&ThePlugin.getRuntimeDylib(),
                       orc::JITDylibLookupFlags::MatchExportedSymbolsOnly});
  for (const auto &Link : JIT->defaultLinkOrder())
    LinkOrder.push_back(Link);
  JD->setLinkOrder(std::move(LinkOrder));

  // From here on, the program owns (and on failure removes) the JITDylib.
  auto Result = std::make_unique<HostProgram>(
      *this, *JIT, *JD, std::move(KernelNames), std::move(SymbolSizes));
  if (Error E = JIT->addObjectFile(*JD, std::move(Buffer)))
    return wrapError(std::move(E), OFFLOAD_ERRC_INVALID_BINARY,
                     "cannot load the binary");
  if (LinkTrigger) {
    // The link collects the object's memory, constructors and destructors.
    LinkInfo Inits;
    InitializerCollector &Collector = ThePlugin.getInitializerCollector();
    Collector.track(*JD, Inits);
    LinkReportScope Reports;
    Expected<orc::ExecutorAddr> Addr =
        JIT->lookupLinkerMangled(*JD, *LinkTrigger);
    Collector.untrack(*JD);
    if (!Addr) {
      std::string Context = "cannot link the binary";
      if (!Reports.get().empty())
        Context += ": " + Reports.get();
      return wrapError(Addr.takeError(), OFFLOAD_ERRC_INVALID_BINARY, Context);
    }
    Result->setLinkInfo(std::move(Inits), RunConstructors);
  }
  return std::move(Result);
}

HostProgram::~HostProgram() {
  if (ConstructorsRan)
    for (void (*Destructor)() : Link.Destructors)
      Destructor();
  if (Error E = JIT.getExecutionSession().removeJITDylib(JD))
    consumeError(std::move(E));
}

Expected<std::unique_ptr<Symbol>>
HostProgram::getSymbol(StringRef Name, offload_symbol_kind_t Kind) {
  bool IsKernel = Kind == OFFLOAD_SYMBOL_KIND_KERNEL;
  std::string SymbolName = IsKernel ? (KernelPrefix + Name).str() : Name.str();
  Expected<orc::ExecutorAddr> Addr = JIT.lookup(JD, SymbolName);
  if (!Addr) {
    Error E = Addr.takeError();
    if (!E.isA<orc::SymbolsNotFound>())
      return wrapError(std::move(E), OFFLOAD_ERRC_BACKEND_FAILURE,
                       "cannot look up '" + SymbolName + "'");
    consumeError(std::move(E));
    if (!IsKernel)
      return createError(OFFLOAD_ERRC_NOT_FOUND,
                         "global variable '{0}' not found in the program",
                         Name);
    std::string Known = KernelNames.empty() ? std::string("none")
                                            : join(KernelNames.begin(),
                                                   KernelNames.end(), ", ");
    return createError(OFFLOAD_ERRC_NOT_FOUND,
                       "kernel '{0}' not found in the program (no symbol "
                       "'{1}'; kernels: {2})",
                       Name, SymbolName, Known);
  }

  void *Address = Addr->toPtr<void *>();
  if (IsKernel) {
    if (Error E =
            checkDescriptor(Name, Address, SymbolSizes.lookup(SymbolName)))
      return std::move(E);
    auto *Desc = static_cast<const offload_host_kernel_descriptor_t *>(Address);
    if (Desc->Version != OFFLOAD_HOST_KERNEL_ABI_VERSION)
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "kernel '{0}' uses host kernel ABI version {1}, the "
                         "runtime implements version {2}",
                         Name, Desc->Version, OFFLOAD_HOST_KERNEL_ABI_VERSION);
    uint64_t MaxShared = getDevice().getInfo().WorkGroupLocalMemSize;
    if (Desc->StaticSharedBytes > MaxShared)
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "kernel '{0}' needs {1} bytes of static shared "
                         "memory, more than the device's {2} bytes per block",
                         Name, Desc->StaticSharedBytes, MaxShared);
    bool Cooperative = Desc->Flags & OFFLOAD_HOST_KERNEL_COOPERATIVE;
    if (Cooperative ? !Desc->RunThread : !Desc->RunBlock && !Desc->RunThread)
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "kernel '{0}' has no {1} entry", Name,
                         Cooperative ? "RunThread" : "RunBlock");
    if (Desc->NumArguments && (!Desc->ArgumentOffsets || !Desc->ArgumentSizes))
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "kernel '{0}' has {1} arguments but no argument "
                         "layout",
                         Name, Desc->NumArguments);
    // The launch copies ArgumentsSize bytes (and reports the size as
    // PACKED_ARGUMENTS_SIZE): a size no kernel has is a corrupt descriptor.
    if (Desc->ArgumentsSize > OFFLOAD_HOST_KERNEL_MAX_ARGUMENTS_SIZE)
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "kernel '{0}' declares a {1}-byte argument buffer, "
                         "more than the {2} bytes a host kernel may have "
                         "(OFFLOAD_HOST_KERNEL_MAX_ARGUMENTS_SIZE)",
                         Name, Desc->ArgumentsSize,
                         OFFLOAD_HOST_KERNEL_MAX_ARGUMENTS_SIZE);
    uint64_t End = 0, Widest = 1;
    for (uint64_t I = 0; I < Desc->NumArguments; ++I) {
      if (Desc->ArgumentOffsets[I] > Desc->ArgumentsSize ||
          Desc->ArgumentSizes[I] >
              Desc->ArgumentsSize - Desc->ArgumentOffsets[I])
        return createError(OFFLOAD_ERRC_INVALID_BINARY,
                           "argument {0} of kernel '{1}' ({2} bytes at offset "
                           "{3}) lies outside its {4}-byte argument buffer",
                           I, Name, Desc->ArgumentSizes[I],
                           Desc->ArgumentOffsets[I], Desc->ArgumentsSize);
      End = std::max(End, Desc->ArgumentOffsets[I] + Desc->ArgumentSizes[I]);
      Widest = std::max(Widest, Desc->ArgumentSizes[I]);
    }
    // With a layout, the buffer is a struct of the arguments: its tail
    // padding is less than its alignment, which is at most the widest
    // argument's size rounded up to a power of two (16 at least, for i128).
    uint64_t Padded =
        alignTo(End, std::max<uint64_t>(16, PowerOf2Ceil(Widest)));
    if (Desc->NumArguments && Desc->ArgumentsSize > Padded)
      return createError(OFFLOAD_ERRC_INVALID_BINARY,
                         "kernel '{0}' declares a {1}-byte argument buffer, "
                         "but its {2} arguments end at byte {3} (at most {4} "
                         "bytes with the struct's padding)",
                         Name, Desc->ArgumentsSize, Desc->NumArguments, End,
                         Padded);
  }
  return std::make_unique<HostSymbol>(*this, Name.str(), Kind, Address,
                                      SymbolSizes.lookup(SymbolName));
}

Error HostProgram::checkDescriptor(StringRef Name, const void *Address,
                                   uint64_t SymbolSize) const {
  using Descriptor = offload_host_kernel_descriptor_t;
  auto Invalid = [&](const Twine &Message) {
    return createError(OFFLOAD_ERRC_INVALID_BINARY,
                       "kernel '" + Name + "': " + Message);
  };
  if (SymbolSize < sizeof(Descriptor))
    return Invalid("its descriptor symbol is " + Twine(SymbolSize) +
                   " bytes, the descriptor " + Twine(sizeof(Descriptor)));
  if (reinterpret_cast<uintptr_t>(Address) % alignof(Descriptor) ||
      !findMemory(Address, sizeof(Descriptor)))
    return Invalid("its descriptor is not in the program's memory");
  const auto &Desc = *static_cast<const Descriptor *>(Address);
  // Pointers the runtime follows: into the program, strings terminated
  // there, arrays of NumArguments that fit.
  auto CheckString = [&](const char *Str, StringRef Field) -> Error {
    if (!Str)
      return Error::success();
    const LinkInfo::Range *R = findMemory(Str, 1);
    if (!R)
      return Invalid("descriptor field " + Field +
                     " points outside the program");
    if (!std::memchr(Str, 0, R->End - reinterpret_cast<uintptr_t>(Str)))
      return Invalid("descriptor field " + Field + " is not NUL-terminated");
    return Error::success();
  };
  if (Error E = CheckString(Desc.Name, "Name"))
    return E;
  if (Error E = CheckString(Desc.CooperativeReason, "CooperativeReason"))
    return E;
  auto CheckCode = [&](const void *Fn, StringRef Field) -> Error {
    if (Fn && !findMemory(Fn, 1, /*Executable=*/true))
      return Invalid("descriptor field " + Field +
                     " does not point to code of the program");
    return Error::success();
  };
  if (Error E =
          CheckCode(reinterpret_cast<const void *>(Desc.RunBlock), "RunBlock"))
    return E;
  if (Error E = CheckCode(reinterpret_cast<const void *>(Desc.RunThread),
                          "RunThread"))
    return E;
  auto CheckArray = [&](const uint64_t *Array, StringRef Field) -> Error {
    if (!Desc.NumArguments || !Array)
      return Error::success();
    if (reinterpret_cast<uintptr_t>(Array) % alignof(uint64_t) ||
        Desc.NumArguments > UINT64_MAX / sizeof(uint64_t) ||
        !findMemory(Array, Desc.NumArguments * sizeof(uint64_t)))
      return Invalid("descriptor field " + Field + " (" +
                     Twine(Desc.NumArguments) +
                     " entries) does not lie in the program's memory");
    return Error::success();
  };
  if (Error E = CheckArray(Desc.ArgumentOffsets, "ArgumentOffsets"))
    return E;
  return CheckArray(Desc.ArgumentSizes, "ArgumentSizes");
}

std::optional<uint64_t> HostSymbol::getArgumentsSize() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return std::nullopt;
  return getDescriptor()->ArgumentsSize;
}

uint64_t HostSymbol::getStaticSharedBytes() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return 0;
  // Exactly what the kernel uses, as the launch's limit counts it; the
  // padding before the dynamic part (HostLaunch.cpp) is not the kernel's.
  return getDescriptor()->StaticSharedBytes;
}

std::optional<Symbol::ArgumentLayout> HostSymbol::getArgumentLayout() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return std::nullopt;
  const offload_host_kernel_descriptor_t *Desc = getDescriptor();
  // No recorded arguments: a kernel without arguments, or one whose compiler
  // did not record the layout (HostKernelABI.h: NumArguments 0 is
  // "unknown").
  if (Desc->NumArguments == 0) {
    if (Desc->ArgumentsSize != 0)
      return std::nullopt;
    return ArgumentLayout{};
  }
  return ArgumentLayout{
      ArrayRef<uint64_t>(Desc->ArgumentOffsets, Desc->NumArguments),
      ArrayRef<uint64_t>(Desc->ArgumentSizes, Desc->NumArguments)};
}
