//===- Profile.cpp - OFFLOAD_PROFILE summaries ----------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The statistics are those of `nsys stats`' summary reports: the median of an
// even count is the mean of the two middle values, the standard deviation is
// the sample one (n - 1; 0 for a single instance), rows are sorted by total
// time, largest first.
//
//===----------------------------------------------------------------------===//

#include "Profile.h"

#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Error.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

using namespace llvm;
using namespace offload;

//===----------------------------------------------------------------------===//
// Setting
//===----------------------------------------------------------------------===//

Error Profile::checkOutputFolder(StringRef Setting, StringRef Path) {
  StringRef Dir = sys::path::parent_path(Path);
  if (Dir.empty())
    Dir = ".";
  if (!sys::fs::is_directory(Dir))
    return createError(OFFLOAD_ERRC_INVALID_VALUE,
                       "{0}: the folder '{1}' does not exist", Setting, Dir);
  if (sys::fs::access(Dir, sys::fs::AccessMode::Write))
    return createError(OFFLOAD_ERRC_INVALID_VALUE,
                       "{0}: the folder '{1}' is not writable", Setting, Dir);
  return Error::success();
}

Expected<Profile::Setting> Profile::parseSetting(const char *Value) {
  Setting S;
  if (!Value)
    return S;
  StringRef V = StringRef(Value).trim();
  if (V.empty() || V == "0" || V.equals_insensitive("false") ||
      V.equals_insensitive("off") || V.equals_insensitive("no"))
    return S;
  if (V == "1" || V.equals_insensitive("true") || V.equals_insensitive("on") ||
      V.equals_insensitive("yes")) {
    S.Enabled = true;
    return S;
  }
  if (V.consume_front("json:") && !V.trim().empty()) {
    S.Enabled = true;
    S.JSONPath = V.trim().str();
    if (Error E = checkOutputFolder(std::string("OFFLOAD_PROFILE=") + Value,
                                    S.JSONPath))
      return std::move(E);
    return S;
  }
  return createError(OFFLOAD_ERRC_INVALID_VALUE,
                     "OFFLOAD_PROFILE={0}: expected 1 (summaries on stderr), "
                     "json:PATH (summaries written to PATH) or 0",
                     Value);
}

static void reportAtExit() {
  if (Profile *P = Profile::get())
    P->report();
}

Profile *Profile::create() {
  Expected<Setting> S = parseSetting(env::Profile.getText().c_str());
  if (!S) {
    // offloadInit reports it.
    consumeError(S.takeError());
    return nullptr;
  }
  if (!S->Enabled)
    return nullptr;
  std::atexit(reportAtExit);
  return new Profile(std::move(*S)); // lives until exit
}

//===----------------------------------------------------------------------===//
// Recording
//===----------------------------------------------------------------------===//

void Profile::record(Kind K, StringRef Name, uint64_t Bytes, uint64_t Nanos) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Series &S = (K == Kind::Kernel ? Kernels : Memory)[Name];
  S.Nanos.push_back(Nanos);
  if (K == Kind::Memory)
    S.Bytes.push_back(Bytes);
  ++Unreported;
}

void Profile::recordJIT(StringRef Kernel, offload_profile_jit_event_t Event,
                        uint64_t Nanos) {
  std::lock_guard<std::mutex> Lock(Mutex);
  JITSeries &S = JIT[Kernel];
  switch (Event) {
  case OFFLOAD_PROFILE_JIT_COMPILE:
    ++S.Compiles;
    S.CompileNanos.push_back(Nanos);
    break;
  case OFFLOAD_PROFILE_JIT_MEMORY_HIT:
    ++S.MemoryHits;
    break;
  case OFFLOAD_PROFILE_JIT_DISK_HIT:
    ++S.DiskHits;
    break;
  }
  ++Unreported;
}

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

namespace {

struct Stats {
  uint64_t Count = 0, Total = 0, Min = 0, Max = 0;
  double Avg = 0, Med = 0, StdDev = 0;
};

Stats computeStats(std::vector<uint64_t> Values) {
  Stats S;
  S.Count = Values.size();
  if (Values.empty())
    return S;
  llvm::sort(Values);
  for (uint64_t V : Values)
    S.Total += V;
  S.Min = Values.front();
  S.Max = Values.back();
  S.Avg = double(S.Total) / S.Count;
  size_t Mid = Values.size() / 2;
  S.Med = Values.size() % 2 ? double(Values[Mid])
                            : (double(Values[Mid - 1]) + Values[Mid]) / 2;
  if (S.Count > 1) {
    double Sum = 0;
    for (uint64_t V : Values)
      Sum += (V - S.Avg) * (V - S.Avg);
    S.StdDev = std::sqrt(Sum / (S.Count - 1));
  }
  return S;
}

/// A cell: a number (for JSON) and its text.
struct Cell {
  json::Value Value;
  std::string Text;
};

Cell integer(uint64_t V) {
  return {json::Value(int64_t(V)), std::to_string(V)};
}
Cell decimal(double V, int Digits = 1) {
  std::string Text;
  raw_string_ostream(Text) << format("%.*f", Digits, V);
  return {json::Value(V), Text};
}
Cell text(StringRef S) { return {json::Value(S.str()), S.str()}; }

} // namespace

struct offload::ProfileTable {
  std::string Title, Key;
  std::vector<std::string> Headers;
  std::vector<std::vector<Cell>> Rows;
};

namespace {
using Table = ProfileTable;

/// The columns of cuda_gpu_kern_sum (mem_time_sum renames two).
const std::vector<std::string> &timeHeaders() {
  static const std::vector<std::string> Headers = {
      "Time (%)", "Total Time (ns)", "Instances",   "Avg (ns)", "Med (ns)",
      "Min (ns)", "Max (ns)",        "StdDev (ns)", "Name"};
  return Headers;
}

/// The kern_sum / mem_time_sum rows of \p Map: per name, its durations.
void addTimeRows(Table &T, const StringMap<Profile::Series> &Map) {
  std::vector<std::pair<std::string, Stats>> Rows;
  uint64_t GrandTotal = 0;
  for (const auto &Entry : Map) {
    Stats S = computeStats(Entry.second.Nanos);
    GrandTotal += S.Total;
    Rows.emplace_back(Entry.first().str(), S);
  }
  llvm::sort(Rows, [](const auto &A, const auto &B) {
    return A.second.Total != B.second.Total ? A.second.Total > B.second.Total
                                            : A.first < B.first;
  });
  for (const auto &[Name, S] : Rows)
    T.Rows.push_back({decimal(GrandTotal ? 100.0 * S.Total / GrandTotal : 0),
                      integer(S.Total), integer(S.Count), decimal(S.Avg),
                      decimal(S.Med), integer(S.Min), integer(S.Max),
                      decimal(S.StdDev), text(Name)});
}

/// The mem_size_sum rows: sizes in MB (10^6 bytes, nsys's unit), sorted by
/// total size, and the bandwidth, total bytes over total time.
void addSizeRows(Table &T, const StringMap<Profile::Series> &Map) {
  std::vector<std::tuple<std::string, Stats, uint64_t>> Rows;
  for (const auto &Entry : Map)
    Rows.emplace_back(Entry.first().str(), computeStats(Entry.second.Bytes),
                      computeStats(Entry.second.Nanos).Total);
  llvm::sort(Rows, [](const auto &A, const auto &B) {
    const Stats &SA = std::get<1>(A), &SB = std::get<1>(B);
    return SA.Total != SB.Total ? SA.Total > SB.Total
                                : std::get<0>(A) < std::get<0>(B);
  });
  for (const auto &[Name, S, Nanos] : Rows)
    T.Rows.push_back(
        {decimal(S.Total / 1e6, 3), integer(S.Count), decimal(S.Avg / 1e6, 3),
         decimal(S.Med / 1e6, 3), decimal(S.Min / 1e6, 3),
         decimal(S.Max / 1e6, 3), decimal(S.StdDev / 1e6, 3),
         // bytes per nanosecond are GB/s
         decimal(Nanos ? double(S.Total) / Nanos : 0, 3), text(Name)});
}

/// The JIT's rows: per kernel, sorted by compile time.
void addJITRows(Table &T, const StringMap<Profile::JITSeries> &Map) {
  std::vector<std::pair<std::string, const Profile::JITSeries *>> Rows;
  for (const auto &Entry : Map)
    Rows.emplace_back(Entry.first().str(), &Entry.second);
  llvm::sort(Rows, [](const auto &A, const auto &B) {
    uint64_t TA = 0, TB = 0;
    for (uint64_t N : A.second->CompileNanos)
      TA += N;
    for (uint64_t N : B.second->CompileNanos)
      TB += N;
    return TA != TB ? TA > TB : A.first < B.first;
  });
  for (const auto &[Name, S] : Rows) {
    Stats C = computeStats(S->CompileNanos);
    T.Rows.push_back({integer(S->Compiles), integer(S->MemoryHits),
                      integer(S->DiskHits), integer(C.Total), decimal(C.Avg),
                      integer(C.Max), text(Name)});
  }
}

void printTable(raw_ostream &OS, const Table &T) {
  OS << "\n ** " << T.Title << " (" << T.Key << "):\n\n";
  if (T.Rows.empty()) {
    OS << " SKIPPED: no data.\n";
    return;
  }
  std::vector<size_t> Width(T.Headers.size());
  for (size_t C = 0; C < T.Headers.size(); ++C) {
    Width[C] = T.Headers[C].size();
    for (const std::vector<Cell> &Row : T.Rows)
      Width[C] = std::max(Width[C], Row[C].Text.size());
  }
  // Numbers right-aligned, the name (last column) left-aligned, as nsys.
  auto PrintRow = [&](auto &&CellText) {
    for (size_t C = 0; C < T.Headers.size(); ++C) {
      StringRef Text = CellText(C);
      bool Last = C + 1 == T.Headers.size();
      OS << ' ';
      if (Last)
        OS << Text;
      else
        OS.indent(Width[C] - Text.size()) << Text << ' ';
    }
    OS << '\n';
  };
  PrintRow([&](size_t C) { return StringRef(T.Headers[C]); });
  std::vector<std::string> Dashes;
  for (size_t C = 0; C < T.Headers.size(); ++C)
    Dashes.push_back(std::string(
        C + 1 == T.Headers.size() ? T.Headers[C].size() : Width[C], '-'));
  PrintRow([&](size_t C) { return StringRef(Dashes[C]); });
  for (const std::vector<Cell> &Row : T.Rows)
    PrintRow([&](size_t C) { return StringRef(Row[C].Text); });
}

} // namespace

//===----------------------------------------------------------------------===//
// Reports
//===----------------------------------------------------------------------===//

std::vector<ProfileTable> Profile::makeTables() {
  std::vector<Table> Tables;
  Tables.push_back({"Kernel Summary", "offload_kern_sum", timeHeaders(), {}});
  addTimeRows(Tables.back(), Kernels);

  std::vector<std::string> MemHeaders = timeHeaders();
  MemHeaders[2] = "Count";
  MemHeaders.back() = "Operation";
  Tables.push_back({"Memory Operation Time Summary",
                    "offload_mem_time_sum",
                    MemHeaders,
                    {}});
  addTimeRows(Tables.back(), Memory);

  Tables.push_back(
      {"Memory Operation Size Summary",
       "offload_mem_size_sum",
       {"Total (MB)", "Count", "Avg (MB)", "Med (MB)", "Min (MB)", "Max (MB)",
        "StdDev (MB)", "Bandwidth (GB/s)", "Operation"},
       {}});
  addSizeRows(Tables.back(), Memory);

  Tables.push_back(
      {"JIT Summary",
       "offload_jit_sum",
       {"Compiles", "Memory Hits", "Disk Hits", "Compile Total (ns)",
        "Compile Avg (ns)", "Compile Max (ns)", "Name"},
       {}});
  addJITRows(Tables.back(), JIT);
  return Tables;
}

void Profile::printText(raw_ostream &OS) {
  std::lock_guard<std::mutex> Lock(Mutex);
  OS << "\noffload profile (OFFLOAD_PROFILE=1):\n";
  for (const Table &T : makeTables())
    printTable(OS, T);
  OS << '\n';
}

void Profile::printJSON(raw_ostream &OS) {
  std::lock_guard<std::mutex> Lock(Mutex);
  json::OStream J(OS, /*IndentSize=*/1);
  J.object([&] {
    for (const Table &T : makeTables())
      J.attributeArray(T.Key, [&] {
        for (const std::vector<Cell> &Row : T.Rows)
          J.object([&] {
            for (size_t C = 0; C < Row.size(); ++C)
              J.attribute(T.Headers[C], Row[C].Value);
          });
      });
  });
  OS << '\n';
}

void Profile::report() {
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Unreported == 0)
      return;
    Unreported = 0;
  }
  if (TheSetting.JSONPath.empty()) {
    printText(errs());
    errs().flush();
    return;
  }
  std::error_code EC;
  raw_fd_ostream OS(TheSetting.JSONPath, EC);
  if (EC) {
    errs() << "offload: cannot write OFFLOAD_PROFILE=json:"
           << TheSetting.JSONPath << ": " << EC.message() << "\n";
    return;
  }
  printJSON(OS);
}

//===----------------------------------------------------------------------===//
// C API for the other offload libraries (the JIT)
//===----------------------------------------------------------------------===//

bool offloadProfileEnabled(void) { return Profile::get() != nullptr; }

void offloadProfileRecordJIT(const char *KernelName,
                             offload_profile_jit_event_t Event,
                             uint64_t DurationNanos) {
  Profile *P = Profile::get();
  if (!P || !KernelName)
    return;
  // A C caller may pass any value.
  int Raw = static_cast<int>(Event);
  if (Raw < OFFLOAD_PROFILE_JIT_COMPILE || Raw > OFFLOAD_PROFILE_JIT_DISK_HIT)
    return;
  P->recordJIT(KernelName, Event, DurationNanos);
}
