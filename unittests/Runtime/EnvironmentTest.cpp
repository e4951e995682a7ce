//===- EnvironmentTest.cpp - The typed environment settings ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// OffloadSupport/Environment.h: one parser per kind of value, the messages
// for values that mean nothing, offloadInit rejecting every invalid setting
// of the runtime and its plugins, and every setting described in the docs.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "OffloadSupport/Environment.h"

#include <fstream>
#include <sstream>

using namespace offload_test;
namespace env = offload::env;

namespace {

// A setting of each kind for the parser tests (a name no code reads).
constexpr env::Variable TestFlag{
    "OFFLOAD_TEST_ENV_FLAG", env::Kind::Flag, 0, 1, "", "test", ""};
constexpr env::Variable TestCount{
    "OFFLOAD_TEST_ENV_COUNT", env::Kind::Unsigned, 1, 64, "", "test", ""};
constexpr env::Variable TestBytes{"OFFLOAD_TEST_ENV_BYTES",
                                  env::Kind::Unsigned,
                                  0,
                                  UINT64_MAX,
                                  "bytes",
                                  "test",
                                  ""};
constexpr env::Variable TestSeconds{
    "OFFLOAD_TEST_ENV_SECONDS", env::Kind::Number, 0, 0, "seconds", "test", ""};
constexpr env::Variable TestScale{
    "OFFLOAD_TEST_ENV_SCALE", env::Kind::Number, 1, 0, "", "test", ""};

TEST(EnvironmentTest, FlagSpellings) {
  {
    unsetenv(TestFlag.Name);
    EXPECT_TRUE(TestFlag.getFlag(true));
    EXPECT_FALSE(TestFlag.getFlag(false));
    EXPECT_EQ(TestFlag.check(), "");
  }
  for (const char *Yes : {"1", "true", "On", " YES "}) {
    ScopedEnv E(TestFlag.Name, Yes);
    EXPECT_TRUE(TestFlag.getFlag(false)) << Yes;
    EXPECT_EQ(TestFlag.check(), "") << Yes;
  }
  for (const char *No : {"0", "FALSE", "off", "no"}) {
    ScopedEnv E(TestFlag.Name, No);
    EXPECT_FALSE(TestFlag.getFlag(true)) << No;
  }
  {
    // Blank is unset.
    ScopedEnv E(TestFlag.Name, "  ");
    EXPECT_TRUE(TestFlag.getFlag(true));
    EXPECT_FALSE(TestFlag.isSet());
  }
  {
    // A value that means nothing reads as the default and is reported.
    ScopedEnv E(TestFlag.Name, "maybe");
    EXPECT_TRUE(TestFlag.getFlag(true));
    EXPECT_FALSE(TestFlag.getFlag(false));
    EXPECT_EQ(TestFlag.check(), "OFFLOAD_TEST_ENV_FLAG=maybe: expected 1 or "
                                "0 (also true/false, on/off, yes/no)");
  }
}

TEST(EnvironmentTest, UnsignedRangeAndBases) {
  struct Case {
    const char *Value;
    uint64_t Expected; // 7 (the default) when invalid
    bool Valid;
  };
  for (Case C :
       {Case{"1", 1, true}, Case{"64", 64, true}, Case{"0x10", 16, true},
        Case{" 12 ", 12, true}, Case{"0", 7, false}, Case{"65", 7, false},
        Case{"-2", 7, false}, Case{"+2", 7, false}, Case{"3x", 7, false},
        Case{"abc", 7, false}, Case{"99999999999999999999999", 7, false}}) {
    ScopedEnv E(TestCount.Name, C.Value);
    EXPECT_EQ(TestCount.getUnsigned(7), C.Expected) << C.Value;
    EXPECT_EQ(TestCount.check().empty(), C.Valid) << C.Value;
  }
  ScopedEnv E(TestCount.Name, "65");
  EXPECT_EQ(TestCount.check(),
            "OFFLOAD_TEST_ENV_COUNT=65: expected a positive integer up to 64");
  ScopedEnv B(TestBytes.Name, "lots");
  EXPECT_EQ(TestBytes.check(),
            "OFFLOAD_TEST_ENV_BYTES=lots: expected a non-negative integer "
            "(bytes)");
  ScopedEnv Max(TestBytes.Name, "18446744073709551615");
  EXPECT_EQ(TestBytes.getUnsigned(0), UINT64_MAX);
}

TEST(EnvironmentTest, Numbers) {
  {
    ScopedEnv E(TestSeconds.Name, "2.5");
    EXPECT_EQ(TestSeconds.getNumber(1), 2.5);
  }
  {
    ScopedEnv E(TestSeconds.Name, "0");
    EXPECT_EQ(TestSeconds.getNumber(1), 0.0);
    EXPECT_EQ(TestSeconds.check(), "");
  }
  for (const char *Bad : {"soon", "-1", "nan", "inf", "1e999", "2s"}) {
    ScopedEnv E(TestSeconds.Name, Bad);
    EXPECT_EQ(TestSeconds.getNumber(1), 1.0) << Bad;
    EXPECT_EQ(TestSeconds.check(), std::string("OFFLOAD_TEST_ENV_SECONDS=") +
                                       Bad + ": expected a number of seconds")
        << Bad;
  }
  ScopedEnv Zero(TestScale.Name, "0");
  EXPECT_EQ(TestScale.getNumber(1), 1.0);
  EXPECT_EQ(TestScale.check(),
            "OFFLOAD_TEST_ENV_SCALE=0: expected a positive number");
}

TEST(EnvironmentTest, EveryVariableHasOneEntry) {
  for (const env::Variable *V : env::AllVariables) {
    SCOPED_TRACE(V->Name);
    EXPECT_EQ(env::lookup(V->Name), V);
    EXPECT_EQ(std::string(V->Name).rfind("OFFLOAD_", 0), 0u);
    EXPECT_NE(std::string(V->Summary), "");
    EXPECT_TRUE(llvm::is_contained({"runtime", "host", "gpu", "jit", "mgpu"},
                                   std::string(V->Component)));
    if (V->ValueKind == env::Kind::Unsigned)
      EXPECT_LE(V->Min, V->Max);
  }
  EXPECT_EQ(env::lookup("OFFLOAD_NO_SUCH_SETTING"), nullptr);
}

/// offloadInit checks every setting of the runtime and its plugins: each
/// flag or number set to nonsense is an INVALID_VALUE naming the variable.
TEST(EnvironmentTest, InitRejectsEveryInvalidRuntimeSetting) {
  offload_device_handle_t Host = nullptr;
  ASSERT_NE(offloadGetHostDevice(&Host), OFFLOAD_SUCCESS)
      << "the runtime must not be initialized when this test starts";
  unsigned Checked = 0;
  for (const env::Variable *V : env::AllVariables) {
    std::string Component = V->Component;
    if (V->ValueKind == env::Kind::Text ||
        !llvm::is_contained({"runtime", "host", "gpu"}, Component))
      continue;
    SCOPED_TRACE(V->Name);
    ScopedEnv E(V->Name, "banana");
    std::string Message =
        std::string(V->Name) + "=banana: expected " + V->expected();
    offload_result_t Result = offloadInit();
    ASSERT_NE(Result, OFFLOAD_SUCCESS);
    EXPECT_EQ(Result->Code, OFFLOAD_ERRC_INVALID_VALUE);
    EXPECT_NE(std::string(Result->Details).find(Message), std::string::npos)
        << Result->Details;
    ++Checked;
  }
  EXPECT_GE(Checked, 6u);
  // And with everything valid again it starts.
  ASSERT_SUCCESS(offloadInit());
  ASSERT_SUCCESS(offloadShutDown());
}

/// docs/ (or README.md) describes every setting.
TEST(EnvironmentTest, DocsDescribeEverySetting) {
  std::string Docs;
  for (const char *File :
       {"README.md", "docs/HostTarget.md", "docs/JIT.md", "docs/RuntimeAPI.md",
        "docs/Profiling.md", "docs/MGPU.md", "docs/GPU.md", "docs/Embedding.md",
        "docs/RuntimeAPIReference.md"}) {
    std::ifstream In(std::string(OFFLOAD_SOURCE_DIR) + "/" + File);
    std::stringstream S;
    S << In.rdbuf();
    Docs += S.str();
  }
  ASSERT_FALSE(Docs.empty()) << "docs not found under " OFFLOAD_SOURCE_DIR;
  for (const env::Variable *V : env::AllVariables)
    EXPECT_NE(Docs.find(std::string("`") + V->Name), std::string::npos)
        << V->Name << " is not described (as `" << V->Name
        << "...`) in README.md or docs/";
}

} // namespace
