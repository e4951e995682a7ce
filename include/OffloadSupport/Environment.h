//===- Environment.h - Typed environment settings ---------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The project's environment settings in one place: each is declared once in
// Environment.def with its kind of value and range, and read through one
// parser per kind, so that every component accepts the same spellings and
// rejects the same values with the same message ("OFFLOAD_HOST_THREADS=abc:
// expected a positive integer up to 1024"). liboffload's EnvironmentVar.h
// (offload/include/Shared/EnvironmentVar.h in llvm-project) is the model: a
// setting is a typed object that knows its name and how to read itself.
//
//   #include "OffloadSupport/Environment.h"
//   unsigned N = env::HostThreads.getUnsigned(/*Default=*/Hardware);
//   if (std::string Problem = env::checkComponent("host"); !Problem.empty())
//     ... report Problem ...
//
// A value that means nothing reads as the default; checkComponent and
// Variable::check report it, so a component checks once at start-up and
// reads freely afterwards. Values are read from the process environment at
// each call (tests set them with setenv). Header-only, standard library
// only: the runtime, its plugins, the JIT, MGPU and the tools include it.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADSUPPORT_ENVIRONMENT_H
#define OFFLOADSUPPORT_ENVIRONMENT_H

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace offload::env {

/// The kind of value a setting takes (Environment.def says which spellings).
enum class Kind : unsigned char { Flag, Unsigned, Number, Text };

/// One environment setting, as declared in Environment.def.
struct Variable {
  /// The variable's name, e.g. "OFFLOAD_HOST_THREADS".
  const char *Name;
  Kind ValueKind;
  /// Unsigned: the inclusive range. Number: Min 1 means "greater than 0",
  /// Min 0 "at least 0". Unused otherwise.
  uint64_t Min, Max;
  /// The unit of a number ("bytes", "seconds"), for messages; may be empty.
  const char *Unit;
  /// The component that reads it: runtime, host, gpu, jit or mgpu.
  const char *Component;
  /// One line of documentation.
  const char *Summary;

  /// The value with surrounding blanks removed; nullopt when the variable is
  /// unset or blank (which every kind reads as "use the default").
  std::optional<std::string> raw() const {
    const char *Value = std::getenv(Name);
    if (!Value)
      return std::nullopt;
    std::string_view V(Value);
    size_t Begin = V.find_first_not_of(" \t\n\r");
    if (Begin == std::string_view::npos)
      return std::nullopt;
    size_t End = V.find_last_not_of(" \t\n\r");
    return std::string(V.substr(Begin, End - Begin + 1));
  }

  /// A flag: 1/true/on/yes or 0/false/off/no (any case). \p Default when
  /// unset or when the value means nothing (check() reports that).
  bool getFlag(bool Default) const {
    std::optional<bool> V = parseFlag();
    return V ? *V : Default;
  }

  /// An unsigned integer in [Min, Max]; \p Default when unset or invalid.
  uint64_t getUnsigned(uint64_t Default) const {
    std::optional<uint64_t> V = parseUnsigned();
    return V ? *V : Default;
  }

  /// A number (Number kind); \p Default when unset or invalid.
  double getNumber(double Default) const {
    std::optional<double> V = parseNumber();
    return V ? *V : Default;
  }

  /// The text, or \p Default when unset or blank.
  std::string getText(std::string_view Default = {}) const {
    std::optional<std::string> V = raw();
    return V ? *V : std::string(Default);
  }

  /// Whether the variable is set to something other than blanks.
  bool isSet() const { return raw().has_value(); }

  /// Empty when the variable is unset or valid for its kind; else the
  /// message "NAME=VALUE: expected ...". Text settings with their own
  /// syntax are checked where they are parsed.
  std::string check() const {
    std::optional<std::string> V = raw();
    if (!V)
      return {};
    bool Valid = true;
    switch (ValueKind) {
    case Kind::Flag:
      Valid = parseFlag().has_value();
      break;
    case Kind::Unsigned:
      Valid = parseUnsigned().has_value();
      break;
    case Kind::Number:
      Valid = parseNumber().has_value();
      break;
    case Kind::Text:
      break;
    }
    if (Valid)
      return {};
    return std::string(Name) + "=" + *V + ": expected " + expected();
  }

  /// What a valid value is, as a message fragment.
  std::string expected() const {
    switch (ValueKind) {
    case Kind::Flag:
      return "1 or 0 (also true/false, on/off, yes/no)";
    case Kind::Unsigned: {
      std::string S = Min ? "a positive integer" : "a non-negative integer";
      if (Min > 1)
        S = "an integer of at least " + std::to_string(Min);
      if (Max != UINT64_MAX)
        S += " up to " + std::to_string(Max);
      if (*Unit)
        S += std::string(" (") + Unit + ")";
      return S;
    }
    case Kind::Number:
      return std::string(Min ? "a positive number" : "a number") +
             (*Unit ? std::string(" of ") + Unit : std::string());
    case Kind::Text:
      return "a string";
    }
    return {};
  }

  std::optional<bool> parseFlag() const {
    std::optional<std::string> V = raw();
    if (!V)
      return std::nullopt;
    for (const char *Yes : {"1", "true", "on", "yes"})
      if (equalsLower(*V, Yes))
        return true;
    for (const char *No : {"0", "false", "off", "no"})
      if (equalsLower(*V, No))
        return false;
    return std::nullopt;
  }

  std::optional<uint64_t> parseUnsigned() const {
    std::optional<std::string> V = raw();
    if (!V || (*V)[0] == '-' || (*V)[0] == '+')
      return std::nullopt;
    errno = 0;
    char *End = nullptr;
    unsigned long long Parsed = std::strtoull(V->c_str(), &End, 0);
    if (errno == ERANGE || *End != '\0' || Parsed < Min || Parsed > Max)
      return std::nullopt;
    return uint64_t(Parsed);
  }

  std::optional<double> parseNumber() const {
    std::optional<std::string> V = raw();
    if (!V)
      return std::nullopt;
    errno = 0;
    char *End = nullptr;
    double Parsed = std::strtod(V->c_str(), &End);
    // !(x >= 0) also rejects NaN.
    if (errno == ERANGE || *End != '\0' || !(Parsed >= 0) ||
        (Min && !(Parsed > 0)) || Parsed == HUGE_VAL)
      return std::nullopt;
    return Parsed;
  }

private:
  static bool equalsLower(std::string_view A, std::string_view B) {
    if (A.size() != B.size())
      return false;
    for (size_t I = 0; I < A.size(); ++I) {
      char C = A[I];
      if (C >= 'A' && C <= 'Z')
        C = char(C - 'A' + 'a');
      if (C != B[I])
        return false;
    }
    return true;
  }
};

// One constant per setting: env::HostThreads, env::Trace, ...
#define OFFLOAD_ENV(Id, NameStr, KindName, MinV, MaxV, UnitStr, ComponentStr,  \
                    SummaryStr)                                                \
  inline constexpr Variable Id{NameStr, Kind::KindName, MinV,      MaxV,       \
                               UnitStr, ComponentStr,   SummaryStr};
#include "OffloadSupport/Environment.def"

/// Every setting, in Environment.def's order.
inline constexpr const Variable *AllVariables[] = {
#define OFFLOAD_ENV(Id, NameStr, KindName, MinV, MaxV, UnitStr, ComponentStr,  \
                    SummaryStr)                                                \
  &Id,
#include "OffloadSupport/Environment.def"
};

/// The setting named \p Name, or null.
inline const Variable *lookup(std::string_view Name) {
  for (const Variable *V : AllVariables)
    if (Name == V->Name)
      return V;
  return nullptr;
}

/// The first problem (Variable::check) among the settings of \p Component,
/// in Environment.def's order; empty when all are unset or valid.
inline std::string checkComponent(std::string_view Component) {
  for (const Variable *V : AllVariables)
    if (Component == V->Component)
      if (std::string Problem = V->check(); !Problem.empty())
        return Problem;
  return {};
}

} // namespace offload::env

#endif // OFFLOADSUPPORT_ENVIRONMENT_H
