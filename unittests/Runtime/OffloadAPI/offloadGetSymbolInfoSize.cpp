//===- offloadGetSymbolInfoSize.cpp - Conformance tests -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetSymbolInfoSizeTest : public OffloadProgramTest {
protected:
  size_t sizeOf(offload_symbol_handle_t S, offload_symbol_info_t Prop) {
    size_t Size = 0;
    offload_result_t R = offloadGetSymbolInfoSize(S, Prop, &Size);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    return Size;
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetSymbolInfoSizeTest);

TEST_P(offloadGetSymbolInfoSizeTest, SuccessKind) {
  EXPECT_EQ(sizeOf(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_KIND),
            sizeof(offload_symbol_kind_t));
}

TEST_P(offloadGetSymbolInfoSizeTest, SuccessGlobalVariableAddress) {
  EXPECT_EQ(sizeOf(getGlobal("offload_test_global"),
                   OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS),
            sizeof(void *));
}

TEST_P(offloadGetSymbolInfoSizeTest, SuccessGlobalVariableSize) {
  EXPECT_EQ(sizeOf(getGlobal("offload_test_global"),
                   OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE),
            sizeof(size_t));
}

TEST_P(offloadGetSymbolInfoSizeTest, SuccessName) {
  EXPECT_EQ(sizeOf(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_NAME),
            sizeof("saxpy"));
}

TEST_P(offloadGetSymbolInfoSizeTest, SuccessPackedArgumentsSize) {
  EXPECT_EQ(
      sizeOf(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE),
      sizeof(uint64_t));
}

TEST_P(offloadGetSymbolInfoSizeTest, SuccessNumArguments) {
  EXPECT_EQ(sizeOf(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS),
            sizeof(uint64_t));
}

TEST_P(offloadGetSymbolInfoSizeTest, SuccessArgumentArrays) {
  EXPECT_EQ(sizeOf(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS),
            4 * sizeof(uint64_t));
  EXPECT_EQ(sizeOf(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES),
            4 * sizeof(uint64_t));
  EXPECT_EQ(sizeOf(getKernel("deadlock"), OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES),
            0u);
}

TEST_P(offloadGetSymbolInfoSizeTest, ErrorSymbolKind) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_SYMBOL_KIND,
      "applies to a global variable, Symbol ('saxpy') is a "
      "kernel",
      offloadGetSymbolInfoSize(
          getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE, &Size));
}

TEST_P(offloadGetSymbolInfoSizeTest, ErrorUnsupported) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNSUPPORTED,
                   "does not record the argument layout of kernel 'ids'",
                   offloadGetSymbolInfoSize(getKernel("ids"),
                                            OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES,
                                            &Size));
}

TEST_P(offloadGetSymbolInfoSizeTest, InvalidNullSymbol) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Symbol is null",
      offloadGetSymbolInfoSize(nullptr, OFFLOAD_SYMBOL_INFO_KIND, &Size));
}

TEST_P(offloadGetSymbolInfoSizeTest, InvalidSymbol) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "not a live symbol",
      offloadGetSymbolInfoSize(garbageHandle<offload_symbol_handle_t>(),
                               OFFLOAD_SYMBOL_INFO_KIND, &Size));
}

TEST_P(offloadGetSymbolInfoSizeTest, InvalidEnumeration) {
  size_t Size = 0;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_ENUMERATION,
      "PropName (100) is not a valid enumerator",
      offloadGetSymbolInfoSize(getKernel("saxpy"),
                               static_cast<offload_symbol_info_t>(100), &Size));
}

TEST_P(offloadGetSymbolInfoSizeTest, InvalidNullPropSizeRet) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropSizeRet is null",
                   offloadGetSymbolInfoSize(getKernel("saxpy"),
                                            OFFLOAD_SYMBOL_INFO_KIND, nullptr));
}

} // namespace
