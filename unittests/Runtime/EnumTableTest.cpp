//===- EnumTableTest.cpp - Every enumerator through printer and validator -===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The enum tables generated from include/OffloadRuntime/API/OffloadAPI.td
// (OffloadAPIEnums.inc: values and names; their static_asserts tie them to
// the header's values), and every enumerator of every enum parameter of the
// C API walked through an entry point with OFFLOAD_TRACE=1: the validator
// accepts it, the trace line names it, and the first value past the last
// enumerator is refused and traced as "<invalid N>". The enumerators come
// from the description, so an enumerator added there is tested here without
// editing this file.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <set>
#include <string>

namespace apitest {
template <typename E> struct EnumInfo;
#include "OffloadAPIEnums.inc"
} // namespace apitest

using namespace offload_test;
using ::testing::internal::CaptureStderr;
using ::testing::internal::GetCapturedStderr;

namespace {

template <typename E> using Info = apitest::EnumInfo<E>;

/// The checks of one table: unique values, a short and a full name for each
/// (full = prefix + short), and no name for the values around them that are
/// not enumerators.
template <typename E> void checkTable() {
  SCOPED_TRACE(Info<E>::TypeName);
  std::set<int> Values(std::begin(Info<E>::Values), std::end(Info<E>::Values));
  EXPECT_EQ(Values.size(), Info<E>::NumEtors) << "duplicate values";
  std::set<std::string> Names;
  for (int V : Values) {
    const char *Short = Info<E>::getName(V);
    const char *Full = Info<E>::getFullName(V);
    ASSERT_NE(Short, nullptr) << V;
    ASSERT_NE(Full, nullptr) << V;
    EXPECT_EQ(std::string(Info<E>::Prefix) + Short, Full);
    EXPECT_TRUE(Info<E>::isValid(V));
    EXPECT_TRUE(Names.insert(Short).second) << "duplicate name " << Short;
    for (int Near : {V - 1, V + 1})
      if (!Values.count(Near)) {
        EXPECT_FALSE(Info<E>::isValid(Near)) << Near;
        EXPECT_EQ(Info<E>::getName(Near), nullptr) << Near;
      }
  }
}

TEST(EnumTableTest, EveryEnumHasConsistentTables) {
#define CHECK_TABLE(E) checkTable<E>();
  OFFLOAD_API_ENUMS(CHECK_TABLE)
#undef CHECK_TABLE
}

TEST(EnumTableTest, ErrcNamesComeFromTheTable) {
  for (int V : Info<offload_errc_t>::Values)
    EXPECT_STREQ(offloadErrcName(static_cast<offload_errc_t>(V)),
                 Info<offload_errc_t>::getFullName(V));
  int PastLast = *std::max_element(std::begin(Info<offload_errc_t>::Values),
                                   std::end(Info<offload_errc_t>::Values)) +
                 1;
  EXPECT_STREQ(offloadErrcName(static_cast<offload_errc_t>(PastLast)),
               "OFFLOAD_ERRC_<invalid>");
}

/// OFFLOAD_TRACE=1, read when the runtime initializes.
class EnumTraceTest : public OffloadTest {
protected:
  void SetUp() override {
    Env.emplace("OFFLOAD_TRACE", "1");
    OffloadTest::SetUp();
  }
  void TearDown() override {
    OffloadTest::TearDown();
    Env.reset();
  }

  /// Calls \p Call (offload_result_t(E)) with every enumerator of E and with
  /// the first value past the last: the enumerators pass validation (any
  /// result but INVALID_ENUMERATION) and are traced as `<Param>=<NAME>`, the
  /// value past the last fails with INVALID_ENUMERATION, traced as
  /// `<Param>=<invalid N>`.
  template <typename E, typename CallFn>
  void walk(const std::string &Param, CallFn Call) {
    SCOPED_TRACE(Info<E>::TypeName);
    for (int V : Info<E>::Values) {
      CaptureStderr();
      offload_result_t Result = Call(static_cast<E>(V));
      std::string Trace = GetCapturedStderr();
      EXPECT_TRUE(Result == OFFLOAD_SUCCESS ||
                  Result->Code != OFFLOAD_ERRC_INVALID_ENUMERATION)
          << Info<E>::getFullName(V) << ": " << describe(Result);
      std::string Printed = Param + "=" + Info<E>::getName(V);
      EXPECT_TRUE(Trace.find(Printed + ",") != std::string::npos ||
                  Trace.find(Printed + ")") != std::string::npos)
          << Printed << " not in: " << Trace;
    }
    int PastLast = *std::max_element(std::begin(Info<E>::Values),
                                     std::end(Info<E>::Values)) +
                   1;
    CaptureStderr();
    offload_result_t Result = Call(static_cast<E>(PastLast));
    std::string Trace = GetCapturedStderr();
    ASSERT_NE(Result, OFFLOAD_SUCCESS);
    EXPECT_EQ(Result->Code, OFFLOAD_ERRC_INVALID_ENUMERATION)
        << describe(Result);
    std::string Printed = Param + "=<invalid " + std::to_string(PastLast) + ">";
    EXPECT_NE(Trace.find(Printed), std::string::npos)
        << Printed << " not in: " << Trace;
  }

  std::optional<ScopedEnv> Env;
};

TEST_F(EnumTraceTest, EveryEnumParameter) {
  size_t Size = 0;
  walk<offload_device_info_t>("PropName", [&](offload_device_info_t V) {
    return offloadGetDeviceInfoSize(Host, V, &Size);
  });

  offload_platform_handle_t Platform = nullptr;
  ASSERT_SUCCESS(offloadGetDeviceInfo(Host, OFFLOAD_DEVICE_INFO_PLATFORM,
                                      sizeof(Platform), &Platform));
  walk<offload_platform_info_t>("PropName", [&](offload_platform_info_t V) {
    return offloadGetPlatformInfoSize(Platform, V, &Size);
  });

  offload_device_handle_t Device = nullptr;
  walk<offload_platform_backend_t>("Backend",
                                   [&](offload_platform_backend_t V) {
                                     return offloadGetDevice(V, 0, &Device);
                                   });

  walk<offload_alloc_type_t>("Type", [&](offload_alloc_type_t V) {
    void *Ptr = nullptr;
    offload_result_t R = offloadMemAlloc(Host, V, 64, &Ptr);
    if (R == OFFLOAD_SUCCESS)
      EXPECT_SUCCESS(offloadMemFree(Ptr));
    return R;
  });

  void *Ptr = nullptr;
  ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 64, &Ptr));
  walk<offload_mem_info_t>("PropName", [&](offload_mem_info_t V) {
    return offloadGetMemInfoSize(Ptr, V, &Size);
  });
  ASSERT_SUCCESS(offloadMemFree(Ptr));

  offload_queue_handle_t Queue = nullptr;
  ASSERT_SUCCESS(offloadCreateQueue(Host, &Queue));
  walk<offload_queue_info_t>("PropName", [&](offload_queue_info_t V) {
    return offloadGetQueueInfoSize(Queue, V, &Size);
  });
  offload_event_handle_t Event = nullptr;
  ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
  walk<offload_event_info_t>("PropName", [&](offload_event_info_t V) {
    return offloadGetEventInfoSize(Event, V, &Size);
  });
  ASSERT_SUCCESS(offloadDestroyEvent(Event));
  ASSERT_SUCCESS(offloadDestroyQueue(Queue));

  const std::string &Object = getTestKernels();
  offload_program_handle_t Program = nullptr;
  ASSERT_SUCCESS(
      offloadCreateProgram(Host, Object.data(), Object.size(), &Program));
  offload_symbol_handle_t Kernel = nullptr;
  walk<offload_symbol_kind_t>("Kind", [&](offload_symbol_kind_t V) {
    return offloadGetSymbol(Program, "saxpy", V, &Kernel);
  });
  ASSERT_SUCCESS(
      offloadGetSymbol(Program, "saxpy", OFFLOAD_SYMBOL_KIND_KERNEL, &Kernel));
  walk<offload_symbol_info_t>("PropName", [&](offload_symbol_info_t V) {
    return offloadGetSymbolInfoSize(Kernel, V, &Size);
  });
  ASSERT_SUCCESS(offloadDestroyProgram(Program));
}

/// The property that `offload-device-info` printed as `PropName=<invalid 4>`
/// before the printers were generated.
TEST_F(EnumTraceTest, PlatformStatusIsNamed) {
  offload_platform_handle_t Platform = nullptr;
  ASSERT_SUCCESS(offloadGetDeviceInfo(Host, OFFLOAD_DEVICE_INFO_PLATFORM,
                                      sizeof(Platform), &Platform));
  size_t Size = 0;
  CaptureStderr();
  ASSERT_SUCCESS(offloadGetPlatformInfoSize(
      Platform, OFFLOAD_PLATFORM_INFO_STATUS, &Size));
  std::string Trace = GetCapturedStderr();
  EXPECT_NE(Trace.find("PropName=STATUS,"), std::string::npos) << Trace;
  EXPECT_EQ(Trace.find("<invalid"), std::string::npos) << Trace;
}

} // namespace
