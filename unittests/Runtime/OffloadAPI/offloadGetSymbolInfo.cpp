//===- offloadGetSymbolInfo.cpp - Conformance tests -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

using namespace offload_test;

namespace {

class offloadGetSymbolInfoTest : public OffloadProgramTest {
protected:
  template <typename T>
  T get(offload_symbol_handle_t S, offload_symbol_info_t Prop) {
    return getInfoAs<T>(S, Prop, offloadGetSymbolInfoSize,
                        offloadGetSymbolInfo);
  }
  std::vector<uint64_t> getArray(offload_symbol_handle_t S,
                                 offload_symbol_info_t Prop) {
    size_t Size = 0;
    offload_result_t R = offloadGetSymbolInfoSize(S, Prop, &Size);
    EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    std::vector<uint64_t> Values(Size / sizeof(uint64_t));
    if (Size) {
      R = offloadGetSymbolInfo(S, Prop, Size, Values.data());
      EXPECT_EQ(R, OFFLOAD_SUCCESS) << describe(R);
    }
    return Values;
  }
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(offloadGetSymbolInfoTest);

TEST_P(offloadGetSymbolInfoTest, SuccessKind) {
  EXPECT_EQ(
      get<offload_symbol_kind_t>(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_KIND),
      OFFLOAD_SYMBOL_KIND_KERNEL);
  EXPECT_EQ(get<offload_symbol_kind_t>(getGlobal("offload_test_global"),
                                       OFFLOAD_SYMBOL_INFO_KIND),
            OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE);
}

TEST_P(offloadGetSymbolInfoTest, SuccessGlobalVariableAddress) {
  auto *Address = get<int32_t *>(getGlobal("offload_test_global"),
                                 OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS);
  ASSERT_NE(Address, nullptr);
  // The address is device memory: read and write it with offloadMemcpy, and
  // the kernel sees the new value.
  int32_t Value = 0;
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, &Value, Host, Address, Device, sizeof(Value)));
  EXPECT_EQ(Value, 42);
  Value = 1234;
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Address, Device, &Value, Host, sizeof(Value)));
  int32_t Out = 0;
  int32_t *OutPtr = &Out;
  auto L = launch1D(1, 1);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("read_global"),
                                     &OutPtr, sizeof(OutPtr), &L));
  EXPECT_EQ(Out, 1234);
}

TEST_P(offloadGetSymbolInfoTest, SuccessGlobalVariableSize) {
  EXPECT_EQ(get<size_t>(getGlobal("offload_test_global"),
                        OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE),
            sizeof(int32_t));
  EXPECT_EQ(get<size_t>(getGlobal("offload_test_array"),
                        OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE),
            16 * sizeof(int32_t));
}

TEST_P(offloadGetSymbolInfoTest, SuccessGlobalArrayThroughItsAddress) {
  offload_symbol_handle_t Array = getGlobal("offload_test_array");
  auto *Address =
      get<int32_t *>(Array, OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS);
  size_t Size = get<size_t>(Array, OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE);
  std::vector<int32_t> Values(Size / sizeof(int32_t));
  ASSERT_SUCCESS(
      offloadMemcpy(nullptr, Values.data(), Host, Address, Device, Size));
  for (size_t I = 0; I < Values.size(); ++I)
    EXPECT_EQ(Values[I], int32_t(I));
  int32_t Pattern = -1;
  ASSERT_SUCCESS(
      offloadMemFill(nullptr, Address, sizeof(Pattern), &Pattern, Size));
  std::vector<int32_t> Out(Values.size(), 0);
  struct {
    int32_t *Out;
    int64_t N;
  } Args{Out.data(), int64_t(Out.size())};
  auto L = launch1D(1, 32);
  ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, getKernel("read_array"),
                                     &Args, sizeof(Args), &L));
  for (int32_t V : Out)
    EXPECT_EQ(V, -1);
}

TEST_P(offloadGetSymbolInfoTest, SuccessName) {
  EXPECT_EQ(getInfoString(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_NAME,
                          offloadGetSymbolInfoSize, offloadGetSymbolInfo),
            "saxpy");
  EXPECT_EQ(getInfoString(getGlobal("offload_test_global"),
                          OFFLOAD_SYMBOL_INFO_NAME, offloadGetSymbolInfoSize,
                          offloadGetSymbolInfo),
            "offload_test_global");
}

TEST_P(offloadGetSymbolInfoTest, SuccessPackedArgumentsSize) {
  EXPECT_EQ(get<uint64_t>(getKernel("saxpy"),
                          OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE),
            sizeof(SaxpyArgs));
  EXPECT_EQ(get<uint64_t>(getKernel("deadlock"),
                          OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE),
            0u);
}

TEST_P(offloadGetSymbolInfoTest, SuccessNumArguments) {
  EXPECT_EQ(
      get<uint64_t>(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS), 4u);
  // A kernel without arguments has a known, empty layout.
  EXPECT_EQ(
      get<uint64_t>(getKernel("deadlock"), OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS),
      0u);
}

TEST_P(offloadGetSymbolInfoTest, SuccessArgumentOffsets) {
  EXPECT_EQ(
      getArray(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS),
      (std::vector<uint64_t>{offsetof(SaxpyArgs, A), offsetof(SaxpyArgs, X),
                             offsetof(SaxpyArgs, Y), offsetof(SaxpyArgs, N)}));
  EXPECT_TRUE(
      getArray(getKernel("deadlock"), OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS)
          .empty());
}

TEST_P(offloadGetSymbolInfoTest, SuccessArgumentSizes) {
  EXPECT_EQ(getArray(getKernel("saxpy"), OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES),
            (std::vector<uint64_t>{4, 8, 8, 8}));
}

TEST_P(offloadGetSymbolInfoTest, SuccessPackFromLayout) {
  // What a cuLaunchKernel-style caller (one pointer per argument) does: pack
  // the buffer from the recorded layout, then launch.
  offload_symbol_handle_t Saxpy = getKernel("saxpy");
  std::vector<uint64_t> Offsets =
      getArray(Saxpy, OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS);
  std::vector<uint64_t> Sizes =
      getArray(Saxpy, OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES);
  uint64_t BufferSize =
      get<uint64_t>(Saxpy, OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE);
  std::vector<float> X(64, 2.0f), Y(64, 1.0f);
  float A = 3.0f;
  float *XPtr = X.data(), *YPtr = Y.data();
  int64_t N = 64;
  void *ArgPtrs[] = {&A, &XPtr, &YPtr, &N};
  ASSERT_EQ(Offsets.size(), 4u);
  alignas(16) char Buffer[64] = {};
  ASSERT_LE(BufferSize, sizeof(Buffer));
  for (size_t I = 0; I < Offsets.size(); ++I)
    std::memcpy(Buffer + Offsets[I], ArgPtrs[I], Sizes[I]);
  auto L = launch1D(2, 32);
  ASSERT_SUCCESS(
      offloadLaunchKernel(nullptr, Device, Saxpy, Buffer, BufferSize, &L));
  for (float V : Y)
    ASSERT_EQ(V, 7.0f);
}

TEST_P(offloadGetSymbolInfoTest, ErrorUnsupportedUnknownLayout) {
  // `ids` records its buffer size but not its layout.
  uint64_t Value;
  offload_symbol_handle_t Ids = getKernel("ids");
  EXPECT_EQ(get<uint64_t>(Ids, OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE), 8u);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNSUPPORTED,
                   "PropName (NUM_ARGUMENTS): the binary does not record the "
                   "argument layout of kernel 'ids'",
                   offloadGetSymbolInfo(Ids, OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS,
                                        sizeof(Value), &Value));
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNSUPPORTED, "ARGUMENT_OFFSETS",
                   offloadGetSymbolInfo(Ids,
                                        OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS,
                                        sizeof(Value), &Value));
}

TEST_P(offloadGetSymbolInfoTest, ErrorSymbolKindGlobalPropertyOfKernel) {
  void *Address;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_SYMBOL_KIND,
      "PropName (GLOBAL_VARIABLE_ADDRESS) applies to a global "
      "variable, Symbol ('saxpy') is a kernel",
      offloadGetSymbolInfo(getKernel("saxpy"),
                           OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS,
                           sizeof(Address), &Address));
  size_t Size;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_SYMBOL_KIND, "GLOBAL_VARIABLE_SIZE",
      offloadGetSymbolInfo(getKernel("saxpy"),
                           OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE,
                           sizeof(Size), &Size));
}

TEST_P(offloadGetSymbolInfoTest, ErrorSymbolKindKernelPropertyOfGlobal) {
  uint64_t Value;
  offload_symbol_handle_t G = getGlobal("offload_test_global");
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_SYMBOL_KIND,
                   "PropName (NUM_ARGUMENTS) applies to a kernel, Symbol "
                   "('offload_test_global') is a global variable",
                   offloadGetSymbolInfo(G, OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS,
                                        sizeof(Value), &Value));
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_SYMBOL_KIND, "PACKED_ARGUMENTS_SIZE",
      offloadGetSymbolInfo(G, OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE,
                           sizeof(Value), &Value));
}

TEST_P(offloadGetSymbolInfoTest, InvalidNullSymbol) {
  offload_symbol_kind_t Kind;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Symbol is null",
                   offloadGetSymbolInfo(nullptr, OFFLOAD_SYMBOL_INFO_KIND,
                                        sizeof(Kind), &Kind));
}

TEST_P(offloadGetSymbolInfoTest, InvalidSymbol) {
  offload_symbol_kind_t Kind;
  ASSERT_ERROR_MSG(
      OFFLOAD_ERRC_INVALID_SYMBOL, "not a live symbol",
      offloadGetSymbolInfo(garbageHandle<offload_symbol_handle_t>(),
                           OFFLOAD_SYMBOL_INFO_KIND, sizeof(Kind), &Kind));
}

TEST_P(offloadGetSymbolInfoTest, InvalidEnumeration) {
  uint64_t Value;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_ENUMERATION,
                   "PropName (8) is not a valid enumerator",
                   offloadGetSymbolInfo(getKernel("saxpy"),
                                        static_cast<offload_symbol_info_t>(8),
                                        sizeof(Value), &Value));
}

TEST_P(offloadGetSymbolInfoTest, InvalidNullPropValue) {
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_NULL_POINTER, "PropValue is null",
                   offloadGetSymbolInfo(getKernel("saxpy"),
                                        OFFLOAD_SYMBOL_INFO_KIND, 4, nullptr));
}

TEST_P(offloadGetSymbolInfoTest, InvalidSizeZero) {
  offload_symbol_kind_t Kind;
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE, "PropSize is zero",
                   offloadGetSymbolInfo(getKernel("saxpy"),
                                        OFFLOAD_SYMBOL_INFO_KIND, 0, &Kind));
}

TEST_P(offloadGetSymbolInfoTest, InvalidSizeSmall) {
  uint64_t Offsets[2];
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_INVALID_SIZE,
                   "PropSize (16) is smaller than the property's size (32 "
                   "bytes)",
                   offloadGetSymbolInfo(getKernel("saxpy"),
                                        OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS,
                                        sizeof(Offsets), Offsets));
}

} // namespace
