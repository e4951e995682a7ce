//===- Compiler.h - The compiler of JIT specializations ---------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// What identifies the compiler that Compiler.cpp runs (Engine::compile: a
// program and its launch values in, a specialized kernel's object out), as
// every cache key holds it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_COMPILER_H
#define OFFLOAD_LIB_JIT_COMPILER_H

#include <string>

namespace offloadjit {

/// The compiler that produces the cached code: LLVM's version, this
/// project's revision (set by CMake), the build ID of the library the
/// compiler is linked into, and the host kernel ABI's version, so that
/// objects of another compiler or ABI are never loaded from the disk cache.
const std::string &getCompilerVersion();

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_COMPILER_H
