//===- offloadDestroyProgram.cpp - Conformance tests ----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadDestroyProgramTest = OffloadBinaryTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadDestroyProgramTest);

TEST_P(offloadDestroyProgramTest, Success) {
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

TEST_P(offloadDestroyProgramTest, SuccessSymbolsDieWithTheProgram) {
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
  offload_symbol_handle_t K = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_PROGRAM, "not a live program",
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
  SaxpyArgs Args{};
  auto L = launch1D(1, 1);
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "Kernel (0x",
      offloadLaunchKernel(nullptr, Device, K, &Args, sizeof(Args), &L));
}

TEST_P(offloadDestroyProgramTest, InvalidNullProgram) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Program is null",
                   offloadDestroyProgram(nullptr));
}

TEST_P(offloadDestroyProgramTest, InvalidDoubleDestroy) {
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_PROGRAM,
                   "is not a live program: it was destroyed or never created",
                   offloadDestroyProgram(Program));
}

} // namespace
