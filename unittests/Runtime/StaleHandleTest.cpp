//===- StaleHandleTest.cpp - Destroyed handles stay invalid ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Issue 20 item 3: a handle of a destroyed object must never name a later
// object. Each test destroys and creates one kind of handle 10,000 times and
// checks, every cycle, that the stale handle of the cycle before is refused
// with its kind's error (and that destroying it leaves the new object alone),
// that no handle value repeats, and at the end that every stale handle is
// still refused. Before the fix, a new event reused the destroyed event's
// handle every time, programs and symbols some of the time.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <unordered_set>

using namespace offload_test;

namespace {

constexpr int Cycles = 10000;

/// A program of one kernel without arguments and one global, to load often.
const std::string &getSmallProgram() {
  static const std::string Object = [] {
    HostModuleBuilder MB("offload_test_small");
    MB.addKernel("k", 0, {}, [](ThreadEnv &) {});
    MB.addGlobalI32("g", 7);
    return MB.emitObject();
  }();
  return Object;
}

/// Records handle values and fails when one repeats.
template <typename HandleT> class Distinct {
public:
  void add(HandleT H) {
    EXPECT_TRUE(Seen.insert(H).second)
        << "handle " << static_cast<const void *>(H) << " was issued twice";
  }
  size_t size() const { return Seen.size(); }

private:
  std::unordered_set<HandleT> Seen;
};

using StaleHandleTest = OffloadQueueTest;
OFFLOAD_INSTANTIATE_DEVICE_TEST(StaleHandleTest);

TEST_P(StaleHandleTest, Queues) {
  Distinct<offload_queue_handle_t> Seen;
  std::vector<offload_queue_handle_t> Stale;
  for (int I = 0; I < Cycles; ++I) {
    offload_queue_handle_t Q = nullptr;
    ASSERT_SUCCESS(offloadCreateQueue(Device, &Q));
    Seen.add(Q);
    if (!Stale.empty()) {
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE, offloadSyncQueue(Stale.back()));
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_QUEUE,
                   offloadDestroyQueue(Stale.back()));
    }
    // The new queue is untouched by the calls on the stale one.
    ASSERT_SUCCESS(offloadSyncQueue(Q));
    ASSERT_SUCCESS(offloadDestroyQueue(Q));
    Stale.push_back(Q);
  }
  offload_device_handle_t D = nullptr;
  for (offload_queue_handle_t Q : Stale)
    ASSERT_ERROR(
        OFFLOAD_ERRC_INVALID_QUEUE,
        offloadGetQueueInfo(Q, OFFLOAD_QUEUE_INFO_DEVICE, sizeof(D), &D));
}

TEST_P(StaleHandleTest, Events) {
  Distinct<offload_event_handle_t> Seen;
  std::vector<offload_event_handle_t> Stale;
  for (int I = 0; I < Cycles; ++I) {
    offload_event_handle_t E = nullptr;
    ASSERT_SUCCESS(offloadCreateEvent(Queue, &E));
    Seen.add(E);
    if (!Stale.empty()) {
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT, offloadSyncEvent(Stale.back()));
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT,
                   offloadDestroyEvent(Stale.back()));
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT,
                   offloadWaitEvents(Queue, &Stale.back(), 1));
    }
    ASSERT_SUCCESS(offloadSyncEvent(E));
    ASSERT_SUCCESS(offloadDestroyEvent(E));
    Stale.push_back(E);
  }
  bool Complete = false;
  for (offload_event_handle_t E : Stale)
    ASSERT_ERROR(OFFLOAD_ERRC_INVALID_EVENT,
                 offloadGetEventInfo(E, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                     sizeof(Complete), &Complete));
}

TEST_P(StaleHandleTest, ProgramsAndSymbols) {
  if (Backend != OFFLOAD_PLATFORM_BACKEND_HOST)
    GTEST_SKIP() << "the test kernels are built for the host device only";
  const std::string &Object = getSmallProgram();
  Distinct<offload_program_handle_t> SeenPrograms;
  Distinct<offload_symbol_handle_t> SeenSymbols;
  std::vector<offload_program_handle_t> StalePrograms;
  std::vector<offload_symbol_handle_t> StaleSymbols;
  auto L = launch1D(1, 1);
  for (int I = 0; I < Cycles; ++I) {
    offload_program_handle_t P = nullptr;
    ASSERT_SUCCESS(
        offloadCreateProgram(Device, Object.data(), Object.size(), &P));
    SeenPrograms.add(P);
    offload_symbol_handle_t K = nullptr, G = nullptr;
    ASSERT_SUCCESS(offloadGetSymbol(P, "k", OFFLOAD_SYMBOL_KIND_KERNEL, &K));
    ASSERT_SUCCESS(
        offloadGetSymbol(P, "g", OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE, &G));
    SeenSymbols.add(K);
    SeenSymbols.add(G);
    if (!StalePrograms.empty()) {
      // Destroying the stale program must not destroy the new one.
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_PROGRAM,
                   offloadDestroyProgram(StalePrograms.back()));
      offload_symbol_handle_t S = nullptr;
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_PROGRAM,
                   offloadGetSymbol(StalePrograms.back(), "k",
                                    OFFLOAD_SYMBOL_KIND_KERNEL, &S));
      for (size_t J = StaleSymbols.size() - 2; J < StaleSymbols.size(); ++J) {
        char Name[8];
        ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SYMBOL,
                     offloadGetSymbolInfo(StaleSymbols[J],
                                          OFFLOAD_SYMBOL_INFO_NAME,
                                          sizeof(Name), Name));
      }
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_SYMBOL,
                   offloadLaunchKernel(nullptr, Device,
                                       StaleSymbols[StaleSymbols.size() - 2],
                                       nullptr, 0, &L));
    }
    ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, K, nullptr, 0, &L));
    ASSERT_SUCCESS(offloadDestroyProgram(P));
    StalePrograms.push_back(P);
    StaleSymbols.push_back(K);
    StaleSymbols.push_back(G);
  }
  for (offload_program_handle_t P : StalePrograms)
    ASSERT_ERROR(OFFLOAD_ERRC_INVALID_PROGRAM, offloadDestroyProgram(P));
  offload_symbol_kind_t Kind;
  for (offload_symbol_handle_t S : StaleSymbols)
    ASSERT_ERROR(
        OFFLOAD_ERRC_INVALID_SYMBOL,
        offloadGetSymbolInfo(S, OFFLOAD_SYMBOL_INFO_KIND, sizeof(Kind), &Kind));
}

TEST_P(StaleHandleTest, Allocations) {
  // The host device never hands out a freed allocation's address again; a
  // GPU driver's allocator may (as cuMemAlloc does): the runtime does not
  // choose those addresses.
  if (!isHost())
    GTEST_SKIP() << "the device's driver chooses its allocations' addresses";
  Distinct<void *> Seen;
  std::vector<void *> Stale;
  for (int I = 0; I < Cycles; ++I) {
    // Small and large, sharing pages and with pages of their own.
    size_t Size = I % 3 == 0 ? 64 : I % 3 == 1 ? 3000 : 20000;
    void *P = nullptr;
    ASSERT_SUCCESS(
        offloadMemAlloc(Device, OFFLOAD_ALLOC_TYPE_DEVICE, Size, &P));
    Seen.add(P);
    static_cast<char *>(P)[Size - 1] = 1;
    size_t Found = 0;
    if (!Stale.empty()) {
      ASSERT_ERROR(OFFLOAD_ERRC_NOT_FOUND,
                   offloadGetMemInfo(Stale.back(), OFFLOAD_MEM_INFO_SIZE,
                                     sizeof(Found), &Found));
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT, offloadMemFree(Stale.back()));
    }
    ASSERT_SUCCESS(
        offloadGetMemInfo(P, OFFLOAD_MEM_INFO_SIZE, sizeof(Found), &Found));
    ASSERT_EQ(Found, Size);
    ASSERT_SUCCESS(offloadMemFree(P));
    Stale.push_back(P);
  }
  for (void *P : Stale)
    ASSERT_ERROR(OFFLOAD_ERRC_INVALID_ARGUMENT, offloadMemFree(P));
}

TEST(StaleHandleRuntimeTest, AllocationsAcrossShutDown) {
  // Not after an offloadShutDown either.
  Distinct<void *> Seen;
  for (int I = 0; I < 100; ++I) {
    ASSERT_SUCCESS(offloadInit());
    offload_device_handle_t Host = nullptr;
    ASSERT_SUCCESS(offloadGetHostDevice(&Host));
    void *P = nullptr, *Kept = nullptr;
    ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 64, &P));
    ASSERT_SUCCESS(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 64, &Kept));
    Seen.add(P);
    Seen.add(Kept);
    ASSERT_SUCCESS(offloadMemFree(P));
    // Kept is released by the shutdown.
    ASSERT_SUCCESS(offloadShutDown());
  }
}

TEST(StaleHandleRuntimeTest, DevicesAndPlatformsAcrossShutDown) {
  // Devices and platforms live from offloadInit to offloadShutDown: those of
  // an earlier runtime never name the next one's.
  Distinct<offload_device_handle_t> SeenDevices;
  Distinct<offload_platform_handle_t> SeenPlatforms;
  offload_device_handle_t StaleDevice = nullptr;
  offload_platform_handle_t StalePlatform = nullptr;
  for (int I = 0; I < Cycles; ++I) {
    ASSERT_SUCCESS(offloadInit());
    offload_device_handle_t D = nullptr;
    offload_platform_handle_t P = nullptr;
    ASSERT_SUCCESS(offloadGetHostDevice(&D));
    ASSERT_SUCCESS(
        offloadGetDeviceInfo(D, OFFLOAD_DEVICE_INFO_PLATFORM, sizeof(P), &P));
    SeenDevices.add(D);
    SeenPlatforms.add(P);
    if (StaleDevice) {
      offload_queue_handle_t Q = nullptr;
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_DEVICE,
                   offloadCreateQueue(StaleDevice, &Q));
      offload_platform_backend_t Backend;
      ASSERT_ERROR(OFFLOAD_ERRC_INVALID_PLATFORM,
                   offloadGetPlatformInfo(StalePlatform,
                                          OFFLOAD_PLATFORM_INFO_BACKEND,
                                          sizeof(Backend), &Backend));
    }
    ASSERT_SUCCESS(offloadShutDown());
    StaleDevice = D;
    StalePlatform = P;
  }
}

} // namespace
