//===- ChromeTrace.cpp - OFFLOAD_TRACE_FILE timelines ---------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "ChromeTrace.h"

#include "OffloadRuntime/OffloadAPI.h"
#include "OffloadSupport/Environment.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace offload;

static void writeTraceAtExit() {
  if (ChromeTrace *Trace = ChromeTrace::get())
    Trace->write();
}

ChromeTrace *ChromeTrace::create() {
  std::string Path = env::TraceFile.getText();
  if (Path.empty())
    return nullptr;
  std::atexit(writeTraceAtExit);
  return new ChromeTrace(Path); // lives until exit
}

ChromeTrace::ChromeTrace(std::string Path)
    : Path(std::move(Path)), Origin(std::chrono::steady_clock::now()) {
  TrackNames.push_back("synchronous calls");
}

uint64_t ChromeTrace::now() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now() - Origin)
      .count();
}

uint64_t ChromeTrace::micros(std::chrono::steady_clock::time_point Time) const {
  return std::chrono::duration_cast<std::chrono::microseconds>(Time - Origin)
      .count();
}

uint64_t ChromeTrace::getTrack(const void *Queue) {
  if (!Queue)
    return 0;
  std::lock_guard<std::mutex> Lock(Mutex);
  auto [It, Inserted] = QueueTracks.try_emplace(Queue, TrackNames.size());
  if (Inserted)
    TrackNames.push_back("queue " + std::to_string(QueueTracks.size()));
  return It->second;
}

uint64_t ChromeTrace::getNamedTrack(llvm::StringRef Name) {
  std::lock_guard<std::mutex> Lock(Mutex);
  for (size_t I = 0; I < TrackNames.size(); ++I)
    if (TrackNames[I] == Name)
      return I;
  TrackNames.push_back(Name.str());
  return TrackNames.size() - 1;
}

void ChromeTrace::record(llvm::StringRef Name, llvm::StringRef Category,
                         uint64_t Track, uint64_t StartMicros,
                         uint64_t DurationMicros, std::string Details) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Events.push_back({Name.str(), Category.str(), std::move(Details), Track,
                    StartMicros, DurationMicros});
}

void ChromeTrace::write() {
  std::lock_guard<std::mutex> Lock(Mutex);
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC) {
    llvm::errs() << "offload: cannot write OFFLOAD_TRACE_FILE " << Path << ": "
                 << EC.message() << "\n";
    return;
  }
  int64_t Pid = llvm::sys::Process::getProcessId();
  llvm::json::OStream J(OS, /*IndentSize=*/1);
  J.object([&] {
    J.attribute("displayTimeUnit", "ms");
    J.attributeArray("traceEvents", [&] {
      J.object([&] {
        J.attribute("name", "process_name");
        J.attribute("ph", "M");
        J.attribute("pid", Pid);
        J.attributeObject("args", [&] { J.attribute("name", "offload"); });
      });
      for (size_t Track = 0; Track < TrackNames.size(); ++Track)
        J.object([&] {
          J.attribute("name", "thread_name");
          J.attribute("ph", "M");
          J.attribute("pid", Pid);
          J.attribute("tid", int64_t(Track));
          J.attributeObject("args",
                            [&] { J.attribute("name", TrackNames[Track]); });
        });
      for (const EventRecord &E : Events)
        J.object([&] {
          J.attribute("name", E.Name);
          J.attribute("cat", E.Category);
          J.attribute("ph", "X");
          J.attribute("pid", Pid);
          J.attribute("tid", int64_t(E.Track));
          J.attribute("ts", int64_t(E.Start));
          J.attribute("dur", int64_t(E.Duration));
          if (!E.Details.empty())
            J.attributeObject("args",
                              [&] { J.attribute("detail", E.Details); });
        });
    });
  });
  OS << "\n";
}

//===----------------------------------------------------------------------===//
// C API for the other offload libraries (the JIT)
//===----------------------------------------------------------------------===//

bool offloadTraceEnabled(void) { return ChromeTrace::get() != nullptr; }

uint64_t offloadTraceNow(void) {
  ChromeTrace *Trace = ChromeTrace::get();
  return Trace ? Trace->now() : 0;
}

void offloadTraceRecord(const char *Name, const char *Category,
                        const char *Track, uint64_t StartMicros,
                        uint64_t DurationMicros, const char *Details) {
  ChromeTrace *Trace = ChromeTrace::get();
  if (!Trace || !Name)
    return;
  uint64_t Id = Track ? Trace->getNamedTrack(Track) : 0;
  Trace->record(Name, Category ? Category : "", Id, StartMicros, DurationMicros,
                Details ? Details : "");
}
