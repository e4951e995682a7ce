//===- DynamicLibrary.cpp - Vendor libraries loaded at run time -----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "DynamicLibrary.h"

#include <dlfcn.h>
#include <link.h>

using namespace llvm;
using namespace offload::plugin;

std::optional<DynamicLibrary>
DynamicLibrary::open(ArrayRef<std::string> Candidates, std::string &Why) {
  Why.clear();
  for (const std::string &Name : Candidates) {
    std::string Error;
    sys::DynamicLibrary Lib =
        sys::DynamicLibrary::getLibrary(Name.c_str(), &Error);
    if (!Lib.isValid()) {
      if (!Why.empty())
        Why += "; ";
      Why += Error.empty() ? Name + ": cannot be opened" : Error;
      continue;
    }
    DynamicLibrary Result;
    Result.Library = Lib;
    Result.Path = Name;
    // The file the loader chose, for messages ("CUDA 12.4 driver at
    // /usr/lib/x86_64-linux-gnu/libcuda.so.1").
    struct link_map *Map = nullptr;
    if (dlinfo(Lib.getOSSpecificHandle(), RTLD_DI_LINKMAP, &Map) == 0 && Map &&
        Map->l_name && *Map->l_name)
      Result.Path = Map->l_name;
    return Result;
  }
  return std::nullopt;
}

void *DynamicLibrary::getSymbol(const char *Name) const {
  return Library.isValid() ? Library.getAddressOfSymbol(Name) : nullptr;
}

void *DynamicLibrary::resolve(const char *Export, const char *Fallback,
                              bool Required, std::string &Missing) const {
  void *Address = getSymbol(Export);
  if (!Address && Fallback)
    Address = getSymbol(Fallback);
  if (!Address && Required)
    Missing += (Missing.empty() ? "" : ", ") + std::string(Export);
  return Address;
}
