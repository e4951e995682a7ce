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
// first symbol lookup.
//
//===----------------------------------------------------------------------===//

#include "HostPlugin.h"

#include "../../Error.h"
#include "../../Runtime.h"

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

#include <mutex>

using namespace llvm;
using namespace offload;
using namespace offload::host;

static constexpr StringLiteral KernelPrefix = OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX;

//===----------------------------------------------------------------------===//
// Object checks
//===----------------------------------------------------------------------===//

/// Parses \p Buffer as an object file for the host.
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
  return Obj;
}

Error offload::host::checkHostObject(StringRef Image) {
  // Copy: the ELF reader wants an aligned buffer, the caller's may not be.
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBufferCopy(Image, "offload-program");
  return parseHostObject(Buffer->getMemBufferRef()).takeError();
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
  void track(orc::JITDylib &JD, StaticInitializers &Out) {
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
    StaticInitializers *Out;
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
  static Error collect(jitlink::LinkGraph &G, StaticInitializers &Out) {
    struct Entry {
      uint32_t Priority;
      /// Position in the order the sections give, to keep it for equal
      /// priorities.
      size_t Index;
      uint64_t Address;
    };
    std::vector<Entry> Ctors, Dtors;
    unsigned PointerSize = G.getPointerSize();
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
      for (uint64_t F : Functions)
        List.push_back({Kind->Priority, List.size(), F});
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
  DenseMap<orc::JITDylib *, StaticInitializers *> Targets;
};

void HostProgram::runConstructors(StaticInitializers Inits) {
  for (void (*Constructor)() : Inits.Constructors)
    Constructor();
  Destructors = std::move(Inits.Destructors);
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
    // The link collects the object's constructors and destructors.
    StaticInitializers Inits;
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
    Result->runConstructors(std::move(Inits));
  }
  return std::move(Result);
}

HostProgram::~HostProgram() {
  for (void (*Destructor)() : Destructors)
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
    for (uint64_t I = 0; I < Desc->NumArguments; ++I)
      if (Desc->ArgumentOffsets[I] > Desc->ArgumentsSize ||
          Desc->ArgumentSizes[I] >
              Desc->ArgumentsSize - Desc->ArgumentOffsets[I])
        return createError(OFFLOAD_ERRC_INVALID_BINARY,
                           "argument {0} of kernel '{1}' ({2} bytes at offset "
                           "{3}) lies outside its {4}-byte argument buffer",
                           I, Name, Desc->ArgumentSizes[I],
                           Desc->ArgumentOffsets[I], Desc->ArgumentsSize);
  }
  return std::make_unique<HostSymbol>(*this, Name.str(), Kind, Address,
                                      SymbolSizes.lookup(SymbolName));
}

std::optional<uint64_t> HostSymbol::getArgumentsSize() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return std::nullopt;
  return getDescriptor()->ArgumentsSize;
}

uint64_t HostSymbol::getStaticSharedBytes() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL)
    return 0;
  // HostLaunch.cpp puts dynamic shared memory after the static part, aligned
  // to 64 bytes.
  return alignTo(getDescriptor()->StaticSharedBytes, 64);
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
