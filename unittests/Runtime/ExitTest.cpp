//===- ExitTest.cpp - Runtime calls from static destructors ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A program whose static destructor calls failing entry points while the
// process exits, after the runtime library's own static objects may have
// been destroyed. The object is constructed before main, so it is destroyed
// after everything the runtime creates lazily in main (the error store among
// them). The destructor checks the errors it gets and prints them; ctest
// (OffloadRuntime.exit-time-errors) matches the line, so a destructor that
// did not run fails too. Any mismatch exits with status 1; reading freed
// storage crashes or garbles the code or the message.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

/// Whether main ran to its end.
bool MainOk = false;
/// An error main got: errors live until the library is unloaded, and
/// identical errors share one result.
offload_result_t MainError = nullptr;

constexpr const char *Uninitialized =
    "the runtime is not initialized: call offloadInit first";

/// Checks that \p Result is UNINITIALIZED with the runtime's message.
bool isUninitialized(offload_result_t Result, const char *What) {
  if (Result && Result->Code == OFFLOAD_ERRC_UNINITIALIZED && Result->Details &&
      std::strcmp(Result->Details, Uninitialized) == 0)
    return true;
  std::fprintf(stderr, "exit-time-test: %s: unexpected result %s\n", What,
               Result ? offloadErrcName(Result->Code) : "success");
  return false;
}

struct CallsAtExit {
  ~CallsAtExit() {
    if (!MainOk)
      std::_Exit(1);
    // The same error as in main (the store's entry for it), then others.
    offload_result_t Free = offloadMemFree(reinterpret_cast<void *>(0x40));
    offload_device_handle_t Device = nullptr;
    offload_result_t Get = offloadGetHostDevice(&Device);
    offload_result_t Shut = offloadShutDown();
    bool Ok = isUninitialized(MainError, "the result main kept") &&
              isUninitialized(Free, "offloadMemFree") &&
              isUninitialized(Get, "offloadGetHostDevice") && Shut &&
              Shut->Code == OFFLOAD_ERRC_UNINITIALIZED;
    if (Ok && Free != MainError) {
      std::fprintf(stderr, "exit-time-test: the same error has a new result: "
                           "the error store was rebuilt\n");
      Ok = false;
    }
    if (!Ok)
      std::_Exit(1);
    std::printf("exit-time error: %s: %s\n", offloadErrcName(Free->Code),
                Free->Details);
    std::fflush(stdout);
  }
} TheCallsAtExit;

} // namespace

int main() {
  // Use the runtime as a program would, so that its lazily created state
  // exists (and is destroyed before TheCallsAtExit, if it is destroyed at
  // all), then leave an error in the store.
  if (offloadInit() != OFFLOAD_SUCCESS)
    return 1;
  offload_device_handle_t Host = nullptr;
  void *Ptr = nullptr;
  if (offloadGetHostDevice(&Host) ||
      offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 64, &Ptr) ||
      offloadMemFree(Ptr) || offloadShutDown())
    return 1;
  MainError = offloadMemFree(reinterpret_cast<void *>(0x40));
  if (!isUninitialized(MainError, "offloadMemFree in main"))
    return 1;
  MainOk = true;
  return 0;
}
