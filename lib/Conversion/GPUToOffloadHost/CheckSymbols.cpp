//===- CheckSymbols.cpp - The checking tools' symbols of a module ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// HostModuleSymbols (GPUToOffloadHost.h): the string constants and runtime
// declarations that offload-check-memory-accesses, -initialization and
// -races add for each instrumented access, in constant time per access.
//
//===----------------------------------------------------------------------===//

#include "OffloadDialect/Conversion/GPUToOffloadHost/GPUToOffloadHost.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::offload;

/// The key of \p text under \p prefix in HostModuleSymbols::strings.
static std::string getStringKey(StringRef prefix, StringRef text) {
  std::string key = prefix.str();
  key.push_back('\0');
  key.append(text);
  return key;
}

HostModuleSymbols::HostModuleSymbols(gpu::GPUModuleOp module)
    : module(module), symbols(module) {
  // The string globals already there ("<prefix>.<n>", constant, private,
  // NUL-terminated), e.g. of another checking pass: shared, not made again.
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    auto value = dyn_cast_or_null<StringAttr>(global.getValueOrNull());
    if (!global.getConstant() ||
        global.getLinkage() != LLVM::Linkage::Internal || !value ||
        !value.getValue().ends_with(StringRef("\0", 1)))
      continue;
    auto [prefix, index] = global.getSymName().rsplit('.');
    if (index.empty() ||
        !llvm::all_of(index, [](char c) { return llvm::isDigit(c); }))
      continue;
    strings.try_emplace(getStringKey(prefix, value.getValue().drop_back()),
                        global.getSymNameAttr());
  }
}

Value HostModuleSymbols::getStringAddress(OpBuilder &b, Location loc,
                                          StringRef prefix, StringRef text) {
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  auto [it, inserted] = strings.try_emplace(getStringKey(prefix, text));
  if (inserted) {
    std::string value = text.str();
    value.push_back('\0');
    // The first free "<prefix>.<n>", from where the last search stopped.
    unsigned &next = nextIndex[prefix];
    std::string name;
    do {
      name = (prefix + "." + Twine(next++)).str();
    } while (symbols.lookup(name));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto global = LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), value.size()),
        /*isConstant=*/true, LLVM::Linkage::Internal, name,
        b.getStringAttr(value));
    it->second = symbols.insert(global);
  }
  return LLVM::AddressOfOp::create(b, loc, ptrType, it->second.getValue());
}

func::FuncOp HostModuleSymbols::getOrDeclareFunc(OpBuilder &b, StringRef name,
                                                 FunctionType type) {
  if (Operation *existing = symbols.lookup(name)) {
    auto fn = dyn_cast<func::FuncOp>(existing);
    if (fn && fn.getFunctionType() == type)
      return fn;
    existing->emitError("the symbol '")
        << name << "' is the host runtime's: expected a func.func of type "
        << type;
    return nullptr;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  symbols.insert(fn);
  return fn;
}
