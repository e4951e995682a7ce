//===- LeakCheckTest.cpp - leakcheck at offloadShutDown -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A program for test/Runtime/leakcheck.test: with OFFLOAD_CHECK=leak, it
// creates a queue, an event, an allocation and a program (with code
// locations), destroys some of them, then shuts the runtime down; the
// runtime reports what is still alive. "--clean" destroys everything first
// (no report), "--exit" leaves the runtime initialized at exit.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"

#include <cstdio>
#include <cstring>

static int fail(const char *What, offload_result_t R) {
  std::fprintf(stderr, "leakcheck-test: %s: %s: %s\n", What,
               R ? offloadErrcName(R->Code) : "success",
               R && R->Details ? R->Details : "");
  return 1;
}

int main(int argc, char **argv) {
  bool Clean = argc > 1 && std::strcmp(argv[1], "--clean") == 0;
  bool AtExit = argc > 1 && std::strcmp(argv[1], "--exit") == 0;
  offload_code_location_t QueueLoc = {"make_queue", "leaky.c", 12, 3};
  offload_code_location_t AllocLoc = {"make_buffer", "leaky.c", 20, 5};
  offload_code_location_t EventLoc = {"make_event", "leaky.c", 31, 7};
  if (offload_result_t R = offloadInit())
    return fail("offloadInit", R);
  offload_device_handle_t Device;
  if (offload_result_t R = offloadGetHostDevice(&Device))
    return fail("offloadGetHostDevice", R);
  offload_queue_handle_t Queue, Freed;
  if (offload_result_t R =
          offloadCreateQueueWithCodeLoc(Device, &Queue, &QueueLoc))
    return fail("offloadCreateQueue", R);
  if (offload_result_t R = offloadCreateQueue(Device, &Freed))
    return fail("offloadCreateQueue", R);
  void *Buffer;
  if (offload_result_t R = offloadMemAllocWithCodeLoc(
          Device, OFFLOAD_ALLOC_TYPE_DEVICE, 256, &Buffer, &AllocLoc))
    return fail("offloadMemAlloc", R);
  offload_event_handle_t Event;
  if (offload_result_t R =
          offloadCreateEventWithCodeLoc(Queue, &Event, &EventLoc))
    return fail("offloadCreateEvent", R);
  // Destroyed: never reported.
  if (offload_result_t R = offloadDestroyQueue(Freed))
    return fail("offloadDestroyQueue", R);
  if (Clean) {
    if (offload_result_t R = offloadDestroyEvent(Event))
      return fail("offloadDestroyEvent", R);
    if (offload_result_t R = offloadMemFree(Buffer))
      return fail("offloadMemFree", R);
    if (offload_result_t R = offloadDestroyQueue(Queue))
      return fail("offloadDestroyQueue", R);
  }
  if (AtExit)
    return 0;
  offload_result_t R = offloadShutDown();
  std::printf("offloadShutDown: %s: %s\n",
              R ? offloadErrcName(R->Code) : "OFFLOAD_SUCCESS",
              R && R->Details ? R->Details : "");
  return 0;
}
