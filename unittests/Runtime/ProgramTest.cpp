//===- ProgramTest.cpp - Programs, symbols, offloadGetKernelFromImage -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <thread>

using namespace offload_test;

namespace {

//===----------------------------------------------------------------------===//
// offloadIsValidBinary, offloadCreateProgram, offloadDestroyProgram
//===----------------------------------------------------------------------===//

using ProgramTest = OffloadTest;

TEST_F(ProgramTest, IsValidBinary) {
  const std::string &Object = getTestKernels();
  bool Valid = false;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Host, Object.data(), Object.size(), &Valid));
  EXPECT_TRUE(Valid);

  std::string Garbage(256, 'x');
  ASSERT_SUCCESS(
      offloadIsValidBinary(Host, Garbage.data(), Garbage.size(), &Valid));
  EXPECT_FALSE(Valid);
  // An ELF header only.
  ASSERT_SUCCESS(offloadIsValidBinary(Host, Object.data(), 40, &Valid));
  EXPECT_FALSE(Valid);
  ASSERT_SUCCESS(offloadIsValidBinary(Host, Object.data(), 0, &Valid));
  EXPECT_FALSE(Valid);
}

TEST_F(ProgramTest, IsValidBinaryInvalidArguments) {
  bool Valid;
  char Data[4] = {};
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadIsValidBinary(nullptr, Data, 4, &Valid));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadIsValidBinary(Host, nullptr, 4, &Valid));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadIsValidBinary(Host, Data, 4, nullptr));
}

TEST_F(ProgramTest, CreateAndDestroy) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  ASSERT_NE(Program, nullptr);
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PROGRAM, "not a live program",
                   offloadDestroyProgram(Program));
}

TEST_F(ProgramTest, TwoProgramsFromOneObject) {
  // Each program has its own JITDylib: the same names load twice.
  const std::string &Object = getTestKernels();
  offload_program_handle_t P1 = nullptr, P2 = nullptr;
  ASSERT_SUCCESS(offloadCreateProgram(Host, Object.data(), Object.size(), &P1));
  ASSERT_SUCCESS(offloadCreateProgram(Host, Object.data(), Object.size(), &P2));
  offload_symbol_handle_t K1 = nullptr, K2 = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(P1, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K1));
  ASSERT_SUCCESS(
      offloadGetSymbol(P2, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K2));
  EXPECT_NE(K1, K2);
  ASSERT_SUCCESS(offloadDestroyProgram(P1));
  // P2 still works after P1 is gone.
  std::vector<float> X = {1, 2, 3}, Y = {10, 20, 30};
  SaxpyArgs Args{2.0f, X.data(), Y.data(), 3};
  auto L = launch1D(1, 4);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Host, K2, &Args, sizeof(Args), &L));
  EXPECT_EQ(Y, (std::vector<float>{12, 24, 36}));
  ASSERT_SUCCESS(offloadDestroyProgram(P2));
}

TEST_F(ProgramTest, CreateFromGarbage) {
  std::string Garbage(512, '\x42');
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "not an ELF",
      offloadCreateProgram(Host, Garbage.data(), Garbage.size(), &Program));
}

TEST_F(ProgramTest, CreateFromTruncatedObject) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  for (size_t Size : {size_t(4), size_t(64), Object.size() / 2}) {
    offload_result_t R =
        offloadCreateProgram(Host, Object.data(), Size, &Program);
    ASSERT_NE(R, OFFLOAD_SUCCESS) << "size " << Size;
    EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY) << describe(R);
  }
}

TEST_F(ProgramTest, CreateForAnotherArchitecture) {
  std::string Object = getTestKernels();
  // e_machine (offset 18) = EM_AARCH64.
  Object[18] = char(183);
  Object[19] = 0;
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "aarch64",
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  bool Valid = true;
  ASSERT_SUCCESS(
      offloadIsValidBinary(Host, Object.data(), Object.size(), &Valid));
  EXPECT_FALSE(Valid);
}

TEST_F(ProgramTest, CreateWithUnresolvedSymbol) {
  const std::string &Object = getUnresolvedObject();
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "__offload_test_missing_function",
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
}

TEST_F(ProgramTest, CreateInvalidArguments) {
  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE,
      offloadCreateProgram(nullptr, Object.data(), Object.size(), &Program));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "ProgData is null",
      offloadCreateProgram(Host, nullptr, Object.size(), &Program));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "ProgDataSize is zero",
                   offloadCreateProgram(Host, Object.data(), 0, &Program));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Program is null",
      offloadCreateProgram(Host, Object.data(), Object.size(), nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadDestroyProgram(nullptr));
}

//===----------------------------------------------------------------------===//
// offloadGetSymbol
//===----------------------------------------------------------------------===//

using SymbolTest = OffloadProgramTest;

TEST_F(SymbolTest, KernelIsCached) {
  offload_symbol_handle_t K1 = nullptr, K2 = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K1));
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K2));
  EXPECT_NE(K1, nullptr);
  EXPECT_EQ(K1, K2);
  offload_symbol_handle_t Other = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "reverse", OFFLOAD_SYMBOL_KIND_KERNEL, &Other));
  EXPECT_NE(K1, Other);
}

TEST_F(SymbolTest, MissingKernel) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "kernel 'no_such_kernel'",
                   offloadGetSymbol(Program, "no_such_kernel",
                                    OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  // The message lists the kernels the program has.
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "saxpy",
                   offloadGetSymbol(Program, "no_such_kernel",
                                    OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  // A process symbol is not a symbol of the program.
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetSymbol(Program, "printf",
                                OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &K));
}

TEST_F(SymbolTest, GlobalVariable) {
  offload_symbol_handle_t G = nullptr;
  ASSERT_SUCCESS(offloadGetSymbol(Program, "offload_test_global",
                                  OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
  EXPECT_NE(G, nullptr);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "global variable 'missing_global'",
                   offloadGetSymbol(Program, "missing_global",
                                    OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
  // Kernels are not global variables of their plain name.
  ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
               offloadGetSymbol(Program, "saxpy",
                                OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
}

TEST_F(SymbolTest, WrongAbiVersion) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "version 99",
      offloadGetSymbol(Program, "bad_version", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
}

TEST_F(SymbolTest, InvalidArguments) {
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE,
      offloadGetSymbol(nullptr, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Name is null",
      offloadGetSymbol(Program, nullptr, OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Symbol is null",
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ENUMERATION,
               offloadGetSymbol(Program, "saxpy",
                                static_cast<offload_symbol_kind_t>(5), &K));
}

TEST_F(SymbolTest, SymbolsDieWithTheirProgram) {
  offload_symbol_handle_t K = getKernel("saxpy");
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_PROGRAM,
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  Program = nullptr;
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "not a live symbol",
      offloadLaunchKernel(nullptr, Host, K, &Args, sizeof(Args), &L));
}

//===----------------------------------------------------------------------===//
// offloadGetKernelFromImage
//===----------------------------------------------------------------------===//

using KernelFromImageTest = OffloadTest;

TEST_F(KernelFromImageTest, LoadsOnceAndCaches) {
  const std::string &Object = getTestKernels();
  offload_symbol_handle_t K1 = nullptr, K2 = nullptr, K3 = nullptr;
  ASSERT_SUCCESS(offloadGetKernelFromImage(Host, Object.data(), Object.size(),
                                           "saxpy", &K1));
  ASSERT_SUCCESS(offloadGetKernelFromImage(Host, Object.data(), Object.size(),
                                           "saxpy", &K2));
  ASSERT_SUCCESS(offloadGetKernelFromImage(Host, Object.data(), Object.size(),
                                           "reverse", &K3));
  EXPECT_EQ(K1, K2);
  EXPECT_NE(K1, K3);

  std::vector<float> X(100, 1.0f), Y(100, 2.0f);
  SaxpyArgs Args{3.0f, X.data(), Y.data(), 100};
  auto L = launch1D(4, 32);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Host, K1, &Args, sizeof(Args), &L));
  for (float V : Y)
    ASSERT_EQ(V, 5.0f);
}

TEST_F(KernelFromImageTest, ConcurrentFirstUse) {
  const std::string &Object = getTestKernels();
  std::vector<offload_symbol_handle_t> Kernels(8, nullptr);
  std::vector<std::thread> Threads;
  for (size_t I = 0; I < Kernels.size(); ++I)
    Threads.emplace_back([&, I] {
      EXPECT_SUCCESS(offloadGetKernelFromImage(
          Host, Object.data(), Object.size(), "saxpy", &Kernels[I]));
    });
  for (std::thread &T : Threads)
    T.join();
  for (offload_symbol_handle_t K : Kernels)
    EXPECT_EQ(K, Kernels[0]);
  EXPECT_NE(Kernels[0], nullptr);
}

TEST_F(KernelFromImageTest, Errors) {
  const std::string &Object = getTestKernels();
  offload_symbol_handle_t K = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_NOT_FOUND, "missing_kernel",
                   offloadGetKernelFromImage(Host, Object.data(), Object.size(),
                                             "missing_kernel", &K));
  std::string Garbage(100, 'g');
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_BINARY,
               offloadGetKernelFromImage(Host, Garbage.data(), Garbage.size(),
                                         "saxpy", &K));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_HANDLE,
               offloadGetKernelFromImage(nullptr, Object.data(), Object.size(),
                                         "saxpy", &K));
  ASSERT_ERROR(
      OFFLOAD_ERRC_INVALID_NULL_POINTER,
      offloadGetKernelFromImage(Host, nullptr, Object.size(), "saxpy", &K));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetKernelFromImage(Host, Object.data(), Object.size(),
                                         nullptr, &K));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_NULL_POINTER,
               offloadGetKernelFromImage(Host, Object.data(), Object.size(),
                                         "saxpy", nullptr));
  ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SIZE,
               offloadGetKernelFromImage(Host, Object.data(), 0, "saxpy", &K));
}

} // namespace
