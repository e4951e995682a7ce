//===- offloadCreateProgram.cpp - Conformance tests -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

using offloadCreateProgramTest = OffloadBinaryTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadCreateProgramTest);

TEST_P(offloadCreateProgramTest, Success) {
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
  ASSERT_NE(Program, nullptr);
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

TEST_P(offloadCreateProgramTest, SuccessDataIsCopied) {
  std::string Copy = Object;
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Copy.data(), Copy.size(), &Program));
  std::fill(Copy.begin(), Copy.end(), '\0');
  offload_symbol_handle_t Kernel = nullptr;
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel));
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

TEST_P(offloadCreateProgramTest, SuccessTwoProgramsFromOneObject) {
  // Each program has its own JITDylib: the same names load twice.
  offload_program_handle_t P1 = nullptr, P2 = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &P1));
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &P2));
  EXPECT_NE(P1, P2);
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
      offloadLaunchKernel(nullptr, Device, K2, &Args, sizeof(Args), &L));
  EXPECT_EQ(Y, (std::vector<float>{12, 24, 36}));
  ASSERT_SUCCESS(offloadDestroyProgram(P2));
}

/// The address of global \p Name of \p Program.
void *getGlobalAddress(offload_program_handle_t Program, const char *Name) {
  offload_symbol_handle_t Global = nullptr;
  offload_result_t R = offloadGetSymbol(
      Program, Name, OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &Global);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  void *Address = nullptr;
  if (Global)
    R = offloadGetSymbolInfo(Global,
                             OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS,
                             sizeof(Address), &Address);
  EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
  return Address;
}

TEST_P(offloadCreateProgramTest, SuccessRunsGlobalConstructorsInPriorityOrder) {
  // Both section flavours: .init_array.N (clang's) and .ctors.N (LLVM's
  // default, what the #offload.host target emits).
  for (bool UseInitArray : {true, false}) {
    SCOPED_TRACE(UseInitArray ? ".init_array" : ".ctors");
    const std::string &Object = getInitFiniObject(UseInitArray);
    offload_program_handle_t Program = nullptr;
    ASSERT_SUCCESS(
        offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
    int32_t Log[8] = {}, Count = 0;
    ASSERT_SUCCESS(
        offloadMemcpy(nullptr, &Count, Host,
                      getGlobalAddress(Program, "offload_test_ctor_count"),
                      Device, sizeof(Count)));
    ASSERT_SUCCESS(offloadMemcpy(
        nullptr, Log, Host, getGlobalAddress(Program, "offload_test_ctor_log"),
        Device, sizeof(Log)));
    EXPECT_EQ(Count, 3);
    EXPECT_EQ(std::vector<int32_t>(Log, Log + 4),
              (std::vector<int32_t>{1, 2, 3, 0}));
    ASSERT_SUCCESS(offloadDestroyProgram(Program));
  }
}

TEST_P(offloadCreateProgramTest, InvalidBinaryGarbage) {
  std::string Garbage(512, '\x42');
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, "not an ELF object",
      offloadCreateProgram(Device, Garbage.data(), Garbage.size(), &Program));
}

TEST_P(offloadCreateProgramTest, InvalidBinaryTruncated) {
  offload_program_handle_t Program = nullptr;
  for (size_t Size : {size_t(4), size_t(64), Object.size() / 2}) {
    offload_result_t R =
        offloadCreateProgram(Device, Object.data(), Size, &Program);
    ASSERT_NE(R, OFFLOAD_SUCCESS) << "size " << Size;
    EXPECT_EQ(R->Code, OFFLOAD_ERRC_INVALID_BINARY) << describe(R);
    EXPECT_NE(std::string(R->Details).find("the binary"), std::string::npos)
        << describe(R);
  }
}

TEST_P(offloadCreateProgramTest, InvalidBinaryOtherArchitecture) {
  std::string Copy = Object;
  // e_machine (offset 18) = EM_AARCH64, or EM_X86_64 on AArch64.
  bool IsArm = Copy[18] == char(183);
  Copy[18] = IsArm ? char(62) : char(183);
  Copy[19] = 0;
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_BINARY, IsArm ? "x86_64" : "aarch64",
      offloadCreateProgram(Device, Copy.data(), Copy.size(), &Program));
}

TEST_P(offloadCreateProgramTest, InvalidBinaryUnresolvedSymbol) {
  const std::string &Unresolved = getUnresolvedObject();
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_BINARY,
                   "__offload_test_missing_function",
                   offloadCreateProgram(Device, Unresolved.data(),
                                        Unresolved.size(), &Program));
}

TEST_P(offloadCreateProgramTest, InvalidNullDevice) {
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null",
      offloadCreateProgram(nullptr, Object.data(), Object.size(), &Program));
}

TEST_P(offloadCreateProgramTest, InvalidDevice) {
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_DEVICE, "not a live device",
      offloadCreateProgram(garbageHandle<offload_device_handle_t>(),
                           Object.data(), Object.size(), &Program));
}

TEST_P(offloadCreateProgramTest, InvalidNullProgData) {
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "ProgData is null",
      offloadCreateProgram(Device, nullptr, Object.size(), &Program));
}

TEST_P(offloadCreateProgramTest, InvalidBinaryEmpty) {
  // liboffload's answer (issue 19 item 7): an empty image is no binary.
  offload_program_handle_t Program = nullptr;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_BINARY,
                   "ProgDataSize is zero: an empty image is not a binary",
                   offloadCreateProgram(Device, Object.data(), 0, &Program));
}

TEST_P(offloadCreateProgramTest, InvalidNullProgram) {
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_POINTER, "Program is null",
      offloadCreateProgram(Device, Object.data(), Object.size(), nullptr));
}

} // namespace
