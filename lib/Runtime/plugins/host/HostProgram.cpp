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
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
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
    LinkReportScope Reports;
    Expected<orc::ExecutorAddr> Addr =
        JIT->lookupLinkerMangled(*JD, *LinkTrigger);
    if (!Addr) {
      std::string Context = "cannot link the binary";
      if (!Reports.get().empty())
        Context += ": " + Reports.get();
      return wrapError(Addr.takeError(), OFFLOAD_ERRC_INVALID_BINARY, Context);
    }
  }
  return std::move(Result);
}

HostProgram::~HostProgram() {
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
