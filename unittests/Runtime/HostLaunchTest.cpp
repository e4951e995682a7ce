//===- HostLaunchTest.cpp - How the host device runs launches -------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The launch path of the host device (lib/Runtime/plugins/host): blocks run
// on the block pool's workers and the launching thread, a synchronization
// runs pending queue work on the synchronizing thread, and the hot path
// allocates nothing. Each block must run exactly once, whoever runs it.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <thread>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define OFFLOAD_TEST_SANITIZED 1
#endif
#endif

//===----------------------------------------------------------------------===//
// Counting heap allocations (C++ operator new), process-wide
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_TEST_SANITIZED
static std::atomic<uint64_t> NumAllocations{0};

void *operator new(size_t Size) {
  NumAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void *P = std::malloc(Size ? Size : 1))
    return P;
  std::abort();
}
void *operator new[](size_t Size) { return operator new(Size); }
void *operator new(size_t Size, std::align_val_t Align) {
  NumAllocations.fetch_add(1, std::memory_order_relaxed);
  size_t A = size_t(Align);
  if (void *P = std::aligned_alloc(A, (Size + A - 1) / A * A))
    return P;
  std::abort();
}
void *operator new[](size_t Size, std::align_val_t Align) {
  return operator new(Size, Align);
}
void operator delete(void *P) noexcept { std::free(P); }
void operator delete[](void *P) noexcept { std::free(P); }
void operator delete(void *P, size_t) noexcept { std::free(P); }
void operator delete[](void *P, size_t) noexcept { std::free(P); }
void operator delete(void *P, std::align_val_t) noexcept { std::free(P); }
void operator delete[](void *P, std::align_val_t) noexcept { std::free(P); }
void operator delete(void *P, size_t, std::align_val_t) noexcept {
  std::free(P);
}
void operator delete[](void *P, size_t, std::align_val_t) noexcept {
  std::free(P);
}
#endif

using namespace offload_test;

namespace {

class HostLaunchTest : public OffloadProgramTest {
protected:
  /// Restarts the runtime with environment variable \p Name set to \p Value
  /// (read at initialization); the variable keeps its value until the test
  /// ends.
  void restartWith(const char *Name, const char *Value) {
    ASSERT_SUCCESS(offloadDestroyProgram(Program));
    Program = nullptr;
    ASSERT_SUCCESS(offloadDestroyQueue(Queue));
    Queue = nullptr;
    ASSERT_SUCCESS(offloadShutDown());
    Initialized = false;
    Env.emplace(Name, Value);
    SetUp();
  }

  std::optional<ScopedEnv> Env;
};
OFFLOAD_INSTANTIATE_DEVICE_TEST(HostLaunchTest);

/// Launches \p Kernel (count_blocks or count_blocks_cooperative, adding
/// \p PerThread per thread) \p Times on \p Q (or synchronously) over \p Blocks
/// blocks of \p Threads and checks that every block ran exactly \p Times.
void checkEveryBlockOnce(offload_device_handle_t Device,
                         offload_queue_handle_t Q,
                         offload_symbol_handle_t Kernel, uint32_t Blocks,
                         uint32_t Threads, int Times, int64_t PerThread = 1) {
  std::vector<int64_t> Counts(Blocks, 0);
  int64_t *CountsPtr = Counts.data();
  auto L = launch1D(Blocks, Threads);
  for (int I = 0; I < Times; ++I)
    ASSERT_SUCCESS(offloadLaunchKernel(Q, Device, Kernel, &CountsPtr,
                                       sizeof(CountsPtr), &L));
  if (Q)
    ASSERT_SUCCESS(offloadSyncQueue(Q));
  for (uint32_t B = 0; B < Blocks; ++B)
    ASSERT_EQ(Counts[B], int64_t(Times) * Threads * PerThread)
        << "block " << B << " of " << Blocks << " x " << Threads;
}

TEST_P(HostLaunchTest, EveryBlockRunsOnceWhoeverRunsIt) {
  // 1 thread: the launching thread alone; 2 and 3: with pool workers; 8:
  // more threads than this machine may have cores.
  for (const char *NumThreads : {"1", "2", "3", "8"}) {
    RETURN_ON_FATAL_FAILURE(restartWith("OFFLOAD_HOST_THREADS", NumThreads));
    SCOPED_TRACE(std::string("OFFLOAD_HOST_THREADS=") + NumThreads);
    for (uint32_t Blocks : {1u, 2u, 7u, 64u, 1000u})
      for (uint32_t Threads : {1u, 32u, 256u}) {
        RETURN_ON_FATAL_FAILURE(checkEveryBlockOnce(
            Device, nullptr, getKernel("count_blocks"), Blocks, Threads, 2));
        RETURN_ON_FATAL_FAILURE(checkEveryBlockOnce(
            Device, Queue, getKernel("count_blocks"), Blocks, Threads, 2));
        RETURN_ON_FATAL_FAILURE(checkEveryBlockOnce(
            Device, Queue, getKernel("count_blocks_cooperative"), Blocks,
            Threads, 1, /*PerThread=*/2));
      }
  }
}

TEST_P(HostLaunchTest, ConcurrentLaunchersShareThePool) {
  // Launching threads run their own grids' blocks and the workers help any
  // of them; each grid still runs every block once.
  offload_symbol_handle_t Plain = getKernel("count_blocks");
  offload_symbol_handle_t Coop = getKernel("count_blocks_cooperative");
  std::vector<std::thread> Launchers;
  for (int T = 0; T < 6; ++T)
    Launchers.emplace_back([&, T] {
      offload_queue_handle_t Q = nullptr;
      if (T % 2)
        ASSERT_SUCCESS(offloadCreateQueue(Device, &Q));
      for (int I = 0; I < 20; ++I) {
        checkEveryBlockOnce(Device, Q, Plain, 50 + T * 13, 64, 3);
        checkEveryBlockOnce(Device, Q, Coop, 9 + T, 96, 1, 2);
      }
      if (Q)
        ASSERT_SUCCESS(offloadDestroyQueue(Q));
    });
  for (std::thread &T : Launchers)
    T.join();
}

TEST_P(HostLaunchTest, DeadlockOnTheLaunchingThread) {
  // Without pool workers, blocks (and their fibers) run on the launching
  // thread: a deadlock there leaves it able to run later blocks.
  RETURN_ON_FATAL_FAILURE(restartWith("OFFLOAD_HOST_THREADS", "1"));
  auto L = launch1D(5, 64);
  ASSERT_ERROR_MSG(OFFLOAD_ERRC_UNKNOWN, "different barriers",
                   offloadLaunchKernel(nullptr, Device, getKernel("deadlock"),
                                       nullptr, 0, &L));
  checkEveryBlockOnce(Device, nullptr, getKernel("count_blocks_cooperative"), 5,
                      64, 2, 2);
}

/// Appends its tag to the order vector it points to.
struct OrderTag {
  std::vector<int> *Order;
  int Tag;
};

TEST_P(HostLaunchTest, SynchronizeRunsPendingWorkInOrder) {
  // Whether the queue's thread or the synchronizing one runs them, queued
  // operations run one at a time in submission order.
  std::vector<int> Order;
  std::vector<OrderTag> Tags;
  for (int I = 0; I < 64; ++I)
    Tags.push_back({&Order, I});
  auto Record = [](void *P) {
    auto *T = static_cast<OrderTag *>(P);
    T->Order->push_back(T->Tag);
  };
  std::vector<int64_t> Counts(8, 0);
  int64_t *CountsPtr = Counts.data();
  auto L = launch1D(8, 32);
  for (int Round = 0; Round < 4; ++Round) {
    for (int I = 0; I < 16; ++I) {
      ASSERT_SUCCESS(
          offloadLaunchHostFunction(Queue, Record, &Tags[Round * 16 + I]));
      ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device,
                                         getKernel("count_blocks"), &CountsPtr,
                                         sizeof(CountsPtr), &L));
    }
    ASSERT_SUCCESS(offloadSyncQueue(Queue));
    ASSERT_EQ(Order.size(), size_t(16 * (Round + 1)));
  }
  for (int I = 0; I < 64; ++I)
    EXPECT_EQ(Order[I], I);
  for (int64_t C : Counts)
    EXPECT_EQ(C, 64 * 32);
}

TEST_P(HostLaunchTest, SleepingQueueThreadStillRunsWork) {
  // With no spinning, the queue's thread sleeps between operations: work
  // that nobody synchronizes must still run (an event completes).
  RETURN_ON_FATAL_FAILURE(restartWith("OFFLOAD_HOST_SPIN_US", "0"));
  for (int I = 0; I < 20; ++I) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    std::vector<int64_t> Counts(4, 0);
    int64_t *CountsPtr = Counts.data();
    auto L = launch1D(4, 16);
    ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, getKernel("count_blocks"),
                                       &CountsPtr, sizeof(CountsPtr), &L));
    offload_event_handle_t Event = nullptr;
    ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
    ASSERT_SUCCESS(offloadSyncEvent(Event));
    ASSERT_SUCCESS(offloadDestroyEvent(Event));
    for (int64_t C : Counts)
      ASSERT_EQ(C, 16);
  }
}

/// Launches count_blocks on \p Q after \p IdleMicros without work and waits,
/// calling nothing of the runtime, until the kernel's stores are visible
/// (giving up after a minute, which only turns a hang into a failure).
void checkStartsWithoutFurtherCalls(offload_device_handle_t Device,
                                    offload_queue_handle_t Q,
                                    offload_symbol_handle_t Kernel,
                                    uint64_t IdleMicros) {
  std::this_thread::sleep_for(std::chrono::microseconds(IdleMicros));
  std::vector<int64_t> Counts(4, 0);
  int64_t *CountsPtr = Counts.data();
  auto L = launch1D(4, 16);
  ASSERT_SUCCESS(offloadLaunchKernel(Q, Device, Kernel, &CountsPtr,
                                     sizeof(CountsPtr), &L));
  auto GiveUp = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  auto Done = [&] {
    for (int64_t &C : Counts)
      if (__atomic_load_n(&C, __ATOMIC_ACQUIRE) != 16)
        return false;
    return true;
  };
  while (!Done() && std::chrono::steady_clock::now() < GiveUp)
    std::this_thread::yield();
  EXPECT_TRUE(Done()) << "a launch after " << IdleMicros
                      << " us of idleness did not run without a further "
                         "runtime call";
  ASSERT_SUCCESS(offloadSyncQueue(Q));
}

TEST_P(HostLaunchTest, QueuedWorkStartsWithoutFurtherCalls) {
  // Nobody wakes a dozing queue thread for new work (HostQueue.cpp): it must
  // find a launch by itself when the program never calls the runtime again
  // (no synchronization, no event), whether the thread still spins, dozes,
  // or sleeps after its doze (longer than 100 ms idle).
  RETURN_ON_FATAL_FAILURE(restartWith("OFFLOAD_HOST_SPIN_US", "0"));
  offload_symbol_handle_t Kernel = getKernel("count_blocks");
  for (uint64_t Idle : {0, 0, 50, 2000, 5000, 2000, 150000, 0, 3000})
    RETURN_ON_FATAL_FAILURE(
        checkStartsWithoutFurtherCalls(Device, Queue, Kernel, Idle));
}

TEST_P(HostLaunchTest, QueuedWorkStartsWithoutFurtherCallsNoDoze) {
  // The same when submissions wake the sleeping queue thread.
  RETURN_ON_FATAL_FAILURE(restartWith("OFFLOAD_HOST_QUEUE_POLL_US", "0"));
  offload_symbol_handle_t Kernel = getKernel("count_blocks");
  for (uint64_t Idle : {0, 300, 2000, 0})
    RETURN_ON_FATAL_FAILURE(
        checkStartsWithoutFurtherCalls(Device, Queue, Kernel, Idle));
}

TEST_P(HostLaunchTest, EventSynchronizationRunsDozingQueuesWork) {
  // offloadSyncEvent on an event of a queue whose thread dozes (nobody wakes
  // it): the work up to the event is complete when it returns, whichever
  // thread ran it, everything runs in order, and later work still runs.
  RETURN_ON_FATAL_FAILURE(restartWith("OFFLOAD_HOST_SPIN_US", "0"));
  std::vector<int> Order;
  std::vector<OrderTag> Tags;
  for (int I = 0; I < 8; ++I)
    Tags.push_back({&Order, I});
  auto Record = [](void *P) {
    auto *T = static_cast<OrderTag *>(P);
    T->Order->push_back(T->Tag);
  };
  for (int Round = 0; Round < 4; ++Round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    ASSERT_SUCCESS(offloadLaunchHostFunction(Queue, Record, &Tags[2 * Round]));
    offload_event_handle_t Event = nullptr;
    ASSERT_SUCCESS(offloadCreateEvent(Queue, &Event));
    ASSERT_SUCCESS(
        offloadLaunchHostFunction(Queue, Record, &Tags[2 * Round + 1]));
    ASSERT_SUCCESS(offloadSyncEvent(Event));
    ASSERT_GE(Order.size(), size_t(2 * Round + 1));
    ASSERT_SUCCESS(offloadDestroyEvent(Event));
    ASSERT_SUCCESS(offloadSyncQueue(Queue));
  }
  ASSERT_EQ(Order.size(), 8u);
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(Order[I], I);
}

TEST_P(HostLaunchTest, LaunchesDoNotAllocate) {
#ifdef OFFLOAD_TEST_SANITIZED
  GTEST_SKIP() << "the sanitizer runtime owns operator new";
#else
  offload_symbol_handle_t Plain = getKernel("count_blocks");
  offload_symbol_handle_t Coop = getKernel("count_blocks_cooperative");
  std::vector<int64_t> Counts(64, 0);
  int64_t *CountsPtr = Counts.data();
  auto Small = launch1D(1, 1), Grid = launch1D(64, 256);
  auto LaunchAll = [&] {
    for (const auto *L : {&Small, &Grid})
      for (offload_symbol_handle_t K : {Plain, Coop}) {
        ASSERT_SUCCESS(offloadLaunchKernel(nullptr, Device, K, &CountsPtr,
                                           sizeof(CountsPtr), L));
        ASSERT_SUCCESS(offloadLaunchKernel(Queue, Device, K, &CountsPtr,
                                           sizeof(CountsPtr), L));
        ASSERT_SUCCESS(offloadSyncQueue(Queue));
      }
  };
  // Warm up: fiber stacks, shared memory and the queue's ring grow once.
  for (int I = 0; I < 3; ++I)
    RETURN_ON_FATAL_FAILURE(LaunchAll());
  uint64_t Before = NumAllocations.load();
  for (int I = 0; I < 20; ++I)
    RETURN_ON_FATAL_FAILURE(LaunchAll());
  EXPECT_EQ(NumAllocations.load() - Before, 0u);
#endif
}

} // namespace
