//===- offloadGetSymbol.cpp - Conformance tests of offloadGetSymbol -------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

#include <thread>

using namespace offload_test;

namespace {

using offloadGetSymbolTest = OffloadProgramTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetSymbolTest);

TEST_P(offloadGetSymbolTest, SuccessKernel) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  EXPECT_NE(K, nullptr);
}

TEST_P(offloadGetSymbolTest, SuccessKernelIsCached) {
  offload_symbol_handle_t K1 = nullptr, K2 = nullptr, Other = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K1));
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K2));
  EXPECT_EQ(K1, K2);
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "reverse", OFFLOAD_SYMBOL_KIND_KERNEL, &Other));
  EXPECT_NE(K1, Other);
}

TEST_P(offloadGetSymbolTest, SuccessConcurrentLookups) {
  std::vector<offload_symbol_handle_t> Symbols(8, nullptr);
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < Symbols.size(); ++I)
    Threads.emplace_back([&, I] {
      EXPECT_SUCCESS(offloadGetSymbol(Program, "expf",
                                      OFFLOAD_SYMBOL_KIND_KERNEL, &Symbols[I]));
    });
  for (std::thread &T : Threads)
    T.join();
  for (offload_symbol_handle_t S : Symbols)
    EXPECT_EQ(S, Symbols[0]);
}

TEST_P(offloadGetSymbolTest, SuccessGlobalVariable) {
  offload_symbol_handle_t G = nullptr;
  ASSERT_SUCCESS(offloadGetSymbol(Program, "offload_test_global",
                                  OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
  EXPECT_NE(G, nullptr);
}

TEST_P(offloadGetSymbolTest, ErrorMissingKernel) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "kernel 'no_such_kernel' not found",
                   offloadGetSymbol(Program, "no_such_kernel",
                                    OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  // The message lists the kernels the program has.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "saxpy",
                   offloadGetSymbol(Program, "no_such_kernel",
                                    OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, ErrorMissingGlobalVariable) {
  offload_symbol_handle_t G = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND,
                   "global variable 'missing_global' not found",
                   offloadGetSymbol(Program, "missing_global",
                                    OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
  // A process symbol is not a symbol of the program.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "global variable 'printf'",
                   offloadGetSymbol(Program, "printf",
                                    OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
}

TEST_P(offloadGetSymbolTest, ErrorKernelIsNotAGlobal) {
  offload_symbol_handle_t G = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "global variable 'saxpy'",
                   offloadGetSymbol(Program, "saxpy",
                                    OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
}

TEST_P(offloadGetSymbolTest, ErrorWrongAbiVersion) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "uses host kernel ABI version 99",
      offloadGetSymbol(Program, "bad_version", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, ErrorBadArgumentLayout) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY,
      "argument 0 of kernel 'bad_layout' (8 bytes at offset 4) "
      "lies outside its 8-byte argument buffer",
      offloadGetSymbol(Program, "bad_layout", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, ErrorImplausibleArgumentsSize) {
  // A descriptor's ArgumentsSize is what launches copy and what
  // PACKED_ARGUMENTS_SIZE reports: sizes no kernel has are refused at lookup
  // (issue 20 item 4).
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY,
      "kernel 'huge_args' declares a 18446744073709551615-byte argument "
      "buffer, more than the 1048576 bytes a host kernel may have",
      offloadGetSymbol(Program, "huge_args", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY,
      "kernel 'padded_args' declares a 4096-byte argument buffer, but its 1 "
      "arguments end at byte 8 (at most 16 bytes with the struct's padding)",
      offloadGetSymbol(Program, "padded_args", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, InvalidNullProgram) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Program is null",
      offloadGetSymbol(nullptr, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, InvalidProgram) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PROGRAM, "not a live program",
                   offloadGetSymbol(garbageHandle<offload_program_handle_t>(),
                                    "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, InvalidNullName) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Name is null",
      offloadGetSymbol(Program, nullptr, OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_P(offloadGetSymbolTest, InvalidNullSymbol) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Symbol is null",
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, nullptr));
}

TEST_P(offloadGetSymbolTest, InvalidEnumerationKind) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "Kind (5) is not a valid enumerator",
                   offloadGetSymbol(Program, "saxpy",
                                    static_cast<offload_symbol_kind_t>(5), &K));
}

} // namespace
