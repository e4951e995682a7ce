//===- HostImageFuzzer.cpp - Fuzzes the host plugin's image loader --------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The input is a host program image (an ELF relocatable object). It goes
// through offloadIsValidBinary and offloadCreateProgram on the host device;
// for a program that loads, every defined global symbol of the image is
// looked up (kernels through their `__offload_kernel.` descriptor symbols,
// everything else as a global variable) and every property of each symbol
// found is read. The documented invariant checked: offloadIsValidBinary is
// true exactly when offloadCreateProgram succeeds.
//
// Out of scope: an image whose code would run. offloadCreateProgram runs
// the image's global constructors (and offloadDestroyProgram its
// destructors); the code of a fuzzed image is arbitrary, so images with
// initializer or finalizer sections only go through offloadIsValidBinary,
// which runs no code. Kernels are not launched. (.eh_frame sections, which
// crashed JITLink, reach the runtime since its loader checks them.)
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/HostKernelABI.h"
#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;

namespace {
offload_device_handle_t HostDevice = nullptr;

[[noreturn]] void fail(const Twine &Message) {
  errs() << "host-image fuzzer: " << Message << '\n';
  std::abort();
}

std::string describe(offload_result_t R) {
  if (!R)
    return "success";
  return std::string(offloadErrcName(R->Code)) + ": " +
         (R->Details ? R->Details : "");
}

/// Whether the image (as LLVM's object reader sees it) has a section whose
/// functions offloadCreateProgram or offloadDestroyProgram would run; true
/// when its sections cannot be read (the loader then refuses it anyway, and
/// nothing of it may run).
bool mayRunCode(StringRef Image) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(
          MemoryBufferRef(Image, "fuzz-image"));
  if (!Obj) {
    consumeError(Obj.takeError());
    return true;
  }
  for (const object::SectionRef &Sec : (*Obj)->sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      return true;
    }
    for (StringRef Prefix :
         {".init_array", ".fini_array", ".ctors", ".dtors", ".preinit_array"})
      if (Name->starts_with(Prefix))
        return true;
  }
  return false;
}

/// Defined global symbols of the image: (name, is a kernel descriptor).
std::vector<std::pair<std::string, bool>> definedSymbols(StringRef Image) {
  std::vector<std::pair<std::string, bool>> Result;
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(
          MemoryBufferRef(Image, "fuzz-image"));
  if (!Obj) {
    consumeError(Obj.takeError());
    return Result;
  }
  StringRef Prefix = OFFLOAD_HOST_KERNEL_SYMBOL_PREFIX;
  for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<StringRef> Name = Sym.getName();
    if (!Flags || !Name) {
      consumeError(Flags.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if ((*Flags & object::SymbolRef::SF_Undefined) ||
        !(*Flags & object::SymbolRef::SF_Global) || Name->empty() ||
        Name->contains('\0'))
      continue;
    if (Name->starts_with(Prefix))
      Result.push_back({Name->drop_front(Prefix.size()).str(), true});
    else
      Result.push_back({Name->str(), false});
  }
  return Result;
}

void querySymbol(offload_symbol_handle_t Symbol) {
  for (int Prop = OFFLOAD_SYMBOL_INFO_KIND;
       Prop <= OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES; ++Prop) {
    auto Info = static_cast<offload_symbol_info_t>(Prop);
    size_t Size = 0;
    if (offloadGetSymbolInfoSize(Symbol, Info, &Size))
      continue;
    if (Size == 0)
      continue;
    if (Size > (1 << 20))
      fail("property " + Twine(Prop) + " claims " + Twine(Size) + " bytes");
    std::vector<char> Value(Size);
    if (offload_result_t R =
            offloadGetSymbolInfo(Symbol, Info, Size, Value.data()))
      fail("property " + Twine(Prop) +
           " has a size but cannot be read: " + describe(R));
  }
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (offload_result_t R = offloadInit())
    fail("offloadInit: " + describe(R));
  if (offload_result_t R = offloadGetHostDevice(&HostDevice))
    fail("offloadGetHostDevice: " + describe(R));
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return -1; // INVALID_SIZE, not interesting
  StringRef Image(reinterpret_cast<const char *>(Data), Size);
  bool Valid = false;
  if (offload_result_t R =
          offloadIsValidBinary(HostDevice, Image.data(), Size, &Valid))
    fail("offloadIsValidBinary failed: " + describe(R));
  if (mayRunCode(Image))
    return 0;

  offload_program_handle_t Program = nullptr;
  offload_result_t Created =
      offloadCreateProgram(HostDevice, Image.data(), Size, &Program);
  if (Valid != (Created == OFFLOAD_SUCCESS))
    fail(Twine("offloadIsValidBinary says ") + (Valid ? "valid" : "invalid") +
         " but offloadCreateProgram returned " + describe(Created));
  if (Created) {
    if (Created->Code != OFFLOAD_ERRC_INVALID_BINARY)
      fail("offloadCreateProgram: unexpected " + describe(Created));
    return 0;
  }

  for (const auto &[Name, IsKernel] : definedSymbols(Image)) {
    offload_symbol_handle_t Symbol = nullptr;
    offload_result_t R =
        offloadGetSymbol(Program, Name.c_str(),
                         IsKernel ? OFFLOAD_SYMBOL_KIND_KERNEL
                                  : OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE,
                         &Symbol);
    if (R) {
      if (R->Code != OFFLOAD_ERRC_INVALID_BINARY &&
          R->Code != OFFLOAD_ERRC_NOT_FOUND)
        fail("offloadGetSymbol('" + Name + "'): unexpected " + describe(R));
      continue;
    }
    querySymbol(Symbol);
    // Looked up again: the same handle.
    offload_symbol_handle_t Again = nullptr;
    if (offloadGetSymbol(Program, Name.c_str(),
                         IsKernel ? OFFLOAD_SYMBOL_KIND_KERNEL
                                  : OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE,
                         &Again) ||
        Again != Symbol)
      fail("a second lookup of '" + Name + "' differs");
  }
  if (offload_result_t R = offloadDestroyProgram(Program))
    fail("offloadDestroyProgram: " + describe(R));
  return 0;
}
