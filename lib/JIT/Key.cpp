//===- Key.cpp - Specialization cache keys --------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Key.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace offloadjit;

std::string offloadjit::computeKey(const KeyInputs &Inputs) {
  // Every variable-length part is length-prefixed, so that no two inputs
  // encode to the same bytes.
  std::string Material;
  llvm::raw_string_ostream OS(Material);
  auto Put = [&](llvm::StringRef Part) {
    OS << Part.size() << ':' << Part << ';';
  };
  OS << "offload-jit-key-v1;";
  Put(Inputs.ModuleHash);
  Put(Inputs.Kernel);
  Put(Inputs.Target);
  Put(Inputs.CompilerVersion);
  Put(Inputs.Options);
  if (!Inputs.Specialized) {
    OS << "generic;";
  } else {
    for (const auto &[Index, Bytes] : Inputs.Values) {
      OS << "arg" << Index << '=';
      Put(llvm::StringRef(Bytes.data(), Bytes.size()));
    }
    OS << "block=" << Inputs.Block[0] << ',' << Inputs.Block[1] << ','
       << Inputs.Block[2] << ';';
    if (Inputs.Grid)
      OS << "grid=" << (*Inputs.Grid)[0] << ',' << (*Inputs.Grid)[1] << ','
         << (*Inputs.Grid)[2] << ';';
  }
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Material.data()), Material.size()));
  return llvm::utohexstr(Hash.high64, /*LowerCase=*/true, 16) +
         llvm::utohexstr(Hash.low64, /*LowerCase=*/true, 16);
}
