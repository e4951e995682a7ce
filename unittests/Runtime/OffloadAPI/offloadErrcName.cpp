//===- offloadErrcName.cpp - Conformance tests of offloadErrcName ---------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "../Common.h"

namespace {

TEST(offloadErrcNameTest, SuccessEveryCode) {
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_SUCCESS), "OFFLOAD_ERRC_SUCCESS");
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_INVALID_SIZE),
               "OFFLOAD_ERRC_INVALID_SIZE");
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_SYMBOL_KIND),
               "OFFLOAD_ERRC_SYMBOL_KIND");
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_INVALID_SYMBOL),
               "OFFLOAD_ERRC_INVALID_SYMBOL");
  EXPECT_STREQ(offloadErrcName(OFFLOAD_ERRC_NOT_READY),
               "OFFLOAD_ERRC_NOT_READY");
  for (int Code = OFFLOAD_ERRC_SUCCESS; Code <= OFFLOAD_ERRC_NOT_READY; ++Code)
    EXPECT_EQ(std::string(offloadErrcName(static_cast<offload_errc_t>(Code)))
                  .rfind("OFFLOAD_ERRC_", 0),
              0u)
        << Code;
}

TEST(offloadErrcNameTest, ErrorInvalidCode) {
  EXPECT_STREQ(offloadErrcName(static_cast<offload_errc_t>(1000)),
               "OFFLOAD_ERRC_<invalid>");
  EXPECT_STREQ(offloadErrcName(static_cast<offload_errc_t>(-1)),
               "OFFLOAD_ERRC_<invalid>");
}

} // namespace
