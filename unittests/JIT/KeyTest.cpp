//===- KeyTest.cpp - Every key component changes the key ------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Key.h"

#include "gtest/gtest.h"

using offloadjit::computeKey;
using offloadjit::KeyInputs;

static KeyInputs base() {
  KeyInputs In;
  In.ModuleHash = "0123456789abcdef0123456789abcdef";
  In.Kernel = "kernels::scale";
  In.Target = "host;x86_64-pc-linux-gnu;znver3;abcdef";
  In.CompilerVersion = "llvm-22.1.8";
  In.Options = "unroll=16";
  In.Specialized = true;
  In.Values = {{1, {0, 0, 0x20, 0x40}}};
  In.Block = {64, 1, 1};
  return In;
}

TEST(KeyTest, EqualInputsGiveEqualKeys) {
  EXPECT_EQ(computeKey(base()), computeKey(base()));
  EXPECT_EQ(computeKey(base()).size(), 32u);
}

// One test per component: changing it alone changes the key.
#define KEY_COMPONENT_TEST(Name, Change)                                       \
  TEST(KeyTest, Name) {                                                        \
    KeyInputs In = base();                                                     \
    Change;                                                                    \
    EXPECT_NE(computeKey(In), computeKey(base()));                             \
  }

KEY_COMPONENT_TEST(ModuleContent, In.ModuleHash[0] = '1')
KEY_COMPONENT_TEST(KernelIdentity, In.Kernel = "kernels::poly")
KEY_COMPONENT_TEST(TargetTriple,
                   In.Target = "host;aarch64-unknown-linux-gnu;znver3;abcdef")
KEY_COMPONENT_TEST(TargetChip,
                   In.Target = "host;x86_64-pc-linux-gnu;skylake;abcdef")
KEY_COMPONENT_TEST(TargetFeatures,
                   In.Target = "host;x86_64-pc-linux-gnu;znver3;abcdee")
KEY_COMPONENT_TEST(CompilerVersion, In.CompilerVersion = "llvm-22.1.9")
KEY_COMPONENT_TEST(SpecializationOptions, In.Options = "unroll=8")
KEY_COMPONENT_TEST(ScalarValue, In.Values[0].second[3] = 0x41)
KEY_COMPONENT_TEST(ValueArgumentIndex, In.Values[0].first = 2)
KEY_COMPONENT_TEST(ArrayContents, In.Values[0].second.push_back(0))
KEY_COMPONENT_TEST(BlockSize, In.Block[1] = 2)
KEY_COMPONENT_TEST(GridSizeWhenFolded,
                   (In.Grid = std::array<int32_t, 3>{8, 1, 1}))
KEY_COMPONENT_TEST(GenericVersusSpecialized, In.Specialized = false)

TEST(KeyTest, GenericKeyIgnoresLaunchValues) {
  KeyInputs A = base(), B = base();
  A.Specialized = B.Specialized = false;
  B.Values.clear();
  B.Block = {128, 1, 1};
  EXPECT_EQ(computeKey(A), computeKey(B));
}

TEST(KeyTest, PartsCannotShiftIntoEachOther) {
  KeyInputs A = base(), B = base();
  A.Kernel = "ab";
  A.Options = "c";
  B.Kernel = "a";
  B.Options = "bc";
  EXPECT_NE(computeKey(A), computeKey(B));
}
