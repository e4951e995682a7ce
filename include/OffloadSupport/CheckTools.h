//===- CheckTools.h - The tools of --check / OFFLOAD_CHECK ------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The checking tools of the host device, named as compute-sanitizer names
// its tools (`--tool memcheck|racecheck|synccheck|initcheck`, and memcheck's
// `--leak-check full`), and the one parser of their list that offload-run's
// `--check=`, `OFFLOAD_CHECK=`, the pipeline's `check` option, the JIT's
// program options and Python's `check=` share:
//
//   memcheck,race,sync,init,leak   any of these, comma-separated
//   all                            every tool
//   1, true, on, yes               memcheck (what `--check` alone means)
//   0, false, off, no, empty       none
//
// Each tool also answers to compute-sanitizer's name (racecheck, synccheck,
// initcheck, leakcheck). Header-only, standard library only: the runtime,
// the JIT, the tools and the Python module include it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADSUPPORT_CHECKTOOLS_H
#define OFFLOADSUPPORT_CHECKTOOLS_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace offload {

/// One checking tool: a bit of a tool set.
enum CheckTool : uint32_t {
  /// Bounds checks of every memref access (offload-check-memory-accesses).
  CheckMemcheck = 1u << 0,
  /// Hazards between threads of a block within one barrier interval
  /// (offload-check-races).
  CheckRacecheck = 1u << 1,
  /// Barriers some threads of a block reach and others do not.
  CheckSynccheck = 1u << 2,
  /// Allocations, queues, events and programs alive at offloadShutDown.
  CheckLeakcheck = 1u << 3,
  /// Reads of offloadMemAlloc memory never written by a copy, a fill or a
  /// kernel (offload-check-initialization).
  CheckInitcheck = 1u << 4,
  CheckAll = (1u << 5) - 1,
};

namespace detail {
struct CheckToolName {
  const char *Short;
  const char *Long;
  CheckTool Tool;
};
inline constexpr CheckToolName CheckToolNames[] = {
    {"memcheck", "memcheck", CheckMemcheck},
    {"race", "racecheck", CheckRacecheck},
    {"sync", "synccheck", CheckSynccheck},
    {"init", "initcheck", CheckInitcheck},
    {"leak", "leakcheck", CheckLeakcheck},
};

inline bool equalsInsensitive(std::string_view A, std::string_view B) {
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I) {
    char X = A[I], Y = B[I];
    if (X >= 'A' && X <= 'Z')
      X = char(X - 'A' + 'a');
    if (Y >= 'A' && Y <= 'Z')
      Y = char(Y - 'A' + 'a');
    if (X != Y)
      return false;
  }
  return true;
}

inline std::string_view trim(std::string_view S) {
  while (!S.empty() && (S.front() == ' ' || S.front() == '\t'))
    S.remove_prefix(1);
  while (!S.empty() && (S.back() == ' ' || S.back() == '\t' ||
                        S.back() == '\n' || S.back() == '\r'))
    S.remove_suffix(1);
  return S;
}
} // namespace detail

/// The expected syntax, for messages.
inline constexpr const char *CheckToolsSyntax =
    "a comma-separated list of memcheck, race, sync, init, leak, or all "
    "(also 1/0, true/false, on/off, yes/no: memcheck or nothing)";

/// Parses \p Text (see the file comment); nullopt for anything else, with
/// the offending word in \p BadWord when given.
inline std::optional<uint32_t> parseCheckTools(std::string_view Text,
                                               std::string *BadWord = nullptr) {
  using namespace detail;
  Text = trim(Text);
  if (Text.empty())
    return 0u;
  for (std::string_view Yes : {"1", "true", "on", "yes"})
    if (equalsInsensitive(Text, Yes))
      return uint32_t(CheckMemcheck);
  for (std::string_view No : {"0", "false", "off", "no", "none"})
    if (equalsInsensitive(Text, No))
      return 0u;
  uint32_t Tools = 0;
  while (true) {
    size_t Comma = Text.find(',');
    std::string_view Word = trim(Text.substr(0, Comma));
    bool Known = false;
    if (equalsInsensitive(Word, "all")) {
      Tools |= CheckAll;
      Known = true;
    }
    for (const CheckToolName &N : CheckToolNames)
      if (equalsInsensitive(Word, N.Short) || equalsInsensitive(Word, N.Long)) {
        Tools |= N.Tool;
        Known = true;
      }
    if (!Known) {
      if (BadWord)
        *BadWord = std::string(Word);
      return std::nullopt;
    }
    if (Comma == std::string_view::npos)
      return Tools;
    Text.remove_prefix(Comma + 1);
  }
}

/// \p Tools as parseCheckTools reads it back: "memcheck,race", "all", or ""
/// for none.
inline std::string formatCheckTools(uint32_t Tools) {
  Tools &= CheckAll;
  if (Tools == CheckAll)
    return "all";
  std::string Result;
  for (const detail::CheckToolName &N : detail::CheckToolNames) {
    if (!(Tools & N.Tool))
      continue;
    if (!Result.empty())
      Result += ',';
    Result += N.Short;
  }
  return Result;
}

} // namespace offload

#endif // OFFLOADSUPPORT_CHECKTOOLS_H
