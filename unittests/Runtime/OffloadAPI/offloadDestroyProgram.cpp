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

TEST_P(offloadDestroyProgramTest, SuccessRunsGlobalDestructorsInPriorityOrder) {
  for (bool UseInitArray : {true, false}) {
    SCOPED_TRACE(UseInitArray ? ".fini_array" : ".dtors");
    const std::string &Object = getInitFiniObject(UseInitArray);
    offload_program_handle_t Program = nullptr;
    ASSERT_SUCCESS(
        offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
    // The destructors write to memory that outlives the program.
    int32_t Sink[8] = {};
    int32_t *SinkPtr = Sink;
    ASSERT_SUCCESS(offloadMemcpy(
        nullptr, getGlobalAddress(Program, "offload_test_dtor_sink"), Device,
        &SinkPtr, Host, sizeof(SinkPtr)));
    EXPECT_EQ(Sink[0], 0) << "destructors ran before the program was destroyed";
    ASSERT_SUCCESS(offloadDestroyProgram(Program));
    EXPECT_EQ(std::vector<int32_t>(Sink, Sink + 5),
              (std::vector<int32_t>{3, 3, 2, 1, 0}));
  }
}

TEST_P(offloadDestroyProgramTest, SuccessShutDownRunsGlobalDestructors) {
  const std::string &Object = getInitFiniObject(true);
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Device, Object.data(), Object.size(), &Program));
  int32_t Sink[8] = {};
  int32_t *SinkPtr = Sink;
  ASSERT_SUCCESS(offloadMemcpy(
      nullptr, getGlobalAddress(Program, "offload_test_dtor_sink"), Device,
      &SinkPtr, Host, sizeof(SinkPtr)));
  // The last offloadShutDown releases the program.
  ASSERT_SUCCESS(offloadShutDown());
  Initialized = false;
  EXPECT_EQ(std::vector<int32_t>(Sink, Sink + 4),
            (std::vector<int32_t>{3, 3, 2, 1}));
}

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
