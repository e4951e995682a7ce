//===- offload-host-runtime-bench.cpp - Costs of the host device runtime --===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Google Benchmark suite of what the host device's runtime costs on top of
// the work itself, each next to a native baseline in the same binary (see
// bench/README.md; bench/run-host-runtime-bench.sh prints ours / native):
//
//   BM_FiberBarrier/threads:T
//       one block of T threads of a cooperative kernel running 256 barriers
//       in a loop (the fiber fallback); counter ns_per_thread_barrier.
//   BM_Launch/<sync|queued>_<1x1|64x256>
//       a launch of an empty kernel (its block loop optimized away), either
//       synchronous or on a queue followed by offloadSyncQueue, on a grid of
//       1 block of 1 thread or 64 blocks of 256 threads.
//   BM_Launch/queued_1x1_after_idle, /sync_1x1_after_idle
//       the queued 1x1 launch and sync after 2 ms without work, when the
//       queue's thread dozes (only the launch and sync are timed); the
//       baseline: a synchronous 1x1 launch after 2 ms without work (the
//       cost of cold caches, with no queue).
//   BM_Launch/queued_1x1_after_long_idle
//       the same after 150 ms, when the queue's thread sleeps past its doze
//       and the launch wakes it.
//   BM_LaunchStart/<awake|asleep>
//       enqueue to kernel start without a sync: the time from calling
//       offloadLaunchKernel (1x1, on the queue) until the enqueuing thread
//       sees the flag the kernel's first store sets; after 5 ms without work
//       (asleep: the queue's thread dozes and finds the launch at its next
//       look, OFFLOAD_HOST_QUEUE_POLL_US), or right after the previous
//       launch (awake: the same-run baseline, the queue's thread still
//       spins). Counter ns: the mean of the timed iterations.
//   BM_Native/omp_parallel_for_64
//       the baseline of a 64-block launch: an OpenMP parallel for of 64
//       empty iterations.
//   BM_Memcpy1KiB/<offload|offload_unknown|memcpy>
//       a synchronous host-to-host offloadMemcpy of 1 KiB, with validation,
//       between two offloadMemAlloc allocations (offload) or two buffers the
//       runtime does not know (offload_unknown), and memcpy() between the
//       same buffers (memcpy, memcpy_unknown).
//
// Every benchmark reports its time per iteration in real time and the
// counter ns (the same value), so that a script can divide the pairs.
// Kernels are built at start-up from LLVM IR (unittests' KernelBuilder), so
// that the fiber kernel stays a fiber kernel whatever the compiler learns.
//
//===----------------------------------------------------------------------===//

#include "OpenMPBaseline.h"

#include "KernelBuilder.h"

#include "OffloadRuntime/OffloadAPI.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

using namespace offload_test;
using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void fail(const char *What, offload_result_t R) {
  std::fprintf(stderr, "offload-host-runtime-bench: %s: %s: %s\n", What,
               offloadErrcName(R->Code), R->Details);
  std::exit(1);
}

void check(offload_result_t R, const char *What) {
  if (R)
    fail(What, R);
}

offload_device_handle_t Host = nullptr;
offload_queue_handle_t Queue = nullptr;
offload_symbol_handle_t EmptyKernel = nullptr;
offload_symbol_handle_t BarrierKernel = nullptr;
offload_symbol_handle_t FlagKernel = nullptr;

/// Barriers per thread in one launch of the barrier kernel.
constexpr int64_t BarriersPerLaunch = 256;

/// Builds and loads the benchmark kernels:
///  - empty (no arguments): does nothing;
///  - barrier_loop (cooperative) {int64 n}: n barriers in a loop;
///  - set_flag {int64 *flag}: *flag = 1 (a release store).
void loadKernels() {
  HostModuleBuilder MB("offload_host_runtime_bench");
  MB.addKernel("empty", 0, {}, [](ThreadEnv &) {});
  MB.addKernel("set_flag", 8, {}, [](ThreadEnv &E) {
    llvm::StoreInst *S = E.B.CreateStore(E.c64(1), E.arg(E.ptr(), 0));
    S->setAtomic(llvm::AtomicOrdering::Release);
    S->setAlignment(llvm::Align(8));
  });
  HostModuleBuilder::KernelOptions Coop;
  Coop.Cooperative = true;
  MB.addKernel("barrier_loop", 8, Coop, [](ThreadEnv &E) {
    E.loop(E.arg(E.i64(), 0), [&](llvm::Value *) { E.barrier(0); });
  });
  std::string Object = MB.emitObject(/*Optimize=*/true);
  offload_program_handle_t Program = nullptr;
  check(offloadCreateProgram(Host, Object.data(), Object.size(), &Program),
        "offloadCreateProgram");
  check(offloadGetSymbol(Program, "empty", OFFLOAD_SYMBOL_KIND_KERNEL,
                         &EmptyKernel),
        "offloadGetSymbol(empty)");
  check(offloadGetSymbol(Program, "barrier_loop", OFFLOAD_SYMBOL_KIND_KERNEL,
                         &BarrierKernel),
        "offloadGetSymbol(barrier_loop)");
  check(offloadGetSymbol(Program, "set_flag", OFFLOAD_SYMBOL_KIND_KERNEL,
                         &FlagKernel),
        "offloadGetSymbol(set_flag)");
}

offload_kernel_launch_size_args_t grid(uint32_t Blocks, uint32_t Threads) {
  offload_kernel_launch_size_args_t L;
  L.Dimensions = 1;
  L.NumGroups = {Blocks, 1, 1};
  L.GroupSize = {Threads, 1, 1};
  L.DynSharedMemory = 0;
  return L;
}

/// Reports the mean time per iteration of \p State as counter "ns".
void reportNs(benchmark::State &State, Clock::duration Elapsed) {
  double Ns = std::chrono::duration<double, std::nano>(Elapsed).count();
  State.counters["ns"] = Ns / double(State.iterations());
}

/// CPU time of the calling thread, in nanoseconds: unlike wall-clock time,
/// it leaves out the time other processes of a loaded machine run instead.
double threadCpuNs() {
  timespec T;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
  return double(T.tv_sec) * 1e9 + double(T.tv_nsec);
}

//===----------------------------------------------------------------------===//
// Benchmarks
//===----------------------------------------------------------------------===//

void fiberBarrier(benchmark::State &State) {
  uint32_t Threads = uint32_t(State.range(0));
  offload_kernel_launch_size_args_t L = grid(1, Threads);
  int64_t N = BarriersPerLaunch;
  double CpuStart = threadCpuNs();
  Clock::time_point Start = Clock::now();
  for (auto _ : State)
    check(offloadLaunchKernel(nullptr, Host, BarrierKernel, &N, sizeof(N), &L),
          "launch of barrier_loop");
  Clock::duration Elapsed = Clock::now() - Start;
  double CpuNs = threadCpuNs() - CpuStart;
  reportNs(State, Elapsed);
  double Ns = std::chrono::duration<double, std::nano>(Elapsed).count();
  double Barriers = double(State.iterations()) * Threads * BarriersPerLaunch;
  State.counters["ns_per_thread_barrier"] = Ns / Barriers;
  State.counters["cpu_ns_per_thread_barrier"] = CpuNs / Barriers;
}

void launch(benchmark::State &State, bool Queued, uint32_t Blocks,
            uint32_t Threads) {
  offload_kernel_launch_size_args_t L = grid(Blocks, Threads);
  Clock::time_point Start = Clock::now();
  if (Queued) {
    for (auto _ : State) {
      check(offloadLaunchKernel(Queue, Host, EmptyKernel, nullptr, 0, &L),
            "queued launch");
      check(offloadSyncQueue(Queue), "offloadSyncQueue");
    }
  } else {
    for (auto _ : State)
      check(offloadLaunchKernel(nullptr, Host, EmptyKernel, nullptr, 0, &L),
            "launch");
  }
  reportNs(State, Clock::now() - Start);
}

/// A launch after \p IdleMicros without work: queued and followed by a sync
/// (\p Queued; the queue's thread then dozes or, after 100 ms, sleeps), or
/// synchronous (the same-run baseline: what a launch costs after the caches
/// went cold, without any queue). Only the launch and sync are timed.
void launchAfterIdle(benchmark::State &State, bool Queued,
                     uint64_t IdleMicros) {
  offload_kernel_launch_size_args_t L = grid(1, 1);
  Clock::duration Total{};
  for (auto _ : State) {
    std::this_thread::sleep_for(std::chrono::microseconds(IdleMicros));
    Clock::time_point Start = Clock::now();
    if (Queued) {
      check(offloadLaunchKernel(Queue, Host, EmptyKernel, nullptr, 0, &L),
            "queued launch");
      check(offloadSyncQueue(Queue), "offloadSyncQueue");
    } else {
      check(offloadLaunchKernel(nullptr, Host, EmptyKernel, nullptr, 0, &L),
            "launch");
    }
    Clock::duration Elapsed = Clock::now() - Start;
    Total += Elapsed;
    State.SetIterationTime(std::chrono::duration<double>(Elapsed).count());
  }
  reportNs(State, Total);
}

/// Enqueue to kernel start, without a sync (see the file comment): \p Asleep
/// waits 5 ms before each launch, else 0.
void launchStart(benchmark::State &State, bool Asleep) {
  offload_kernel_launch_size_args_t L = grid(1, 1);
  alignas(64) std::atomic<int64_t> Flag{0};
  std::atomic<int64_t> *FlagPtr = &Flag;
  Clock::duration Total{};
  for (auto _ : State) {
    Flag.store(0, std::memory_order_relaxed);
    if (Asleep)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    Clock::time_point Start = Clock::now();
    check(offloadLaunchKernel(Queue, Host, FlagKernel, &FlagPtr,
                              sizeof(FlagPtr), &L),
          "queued launch of set_flag");
    while (!Flag.load(std::memory_order_acquire))
      ;
    Clock::duration Elapsed = Clock::now() - Start;
    check(offloadSyncQueue(Queue), "offloadSyncQueue");
    Total += Elapsed;
    State.SetIterationTime(std::chrono::duration<double>(Elapsed).count());
  }
  reportNs(State, Total);
}

void ompParallelFor64(benchmark::State &State) {
  Clock::time_point Start = Clock::now();
  for (auto _ : State)
    offload_bench::ompParallelFor(64);
  reportNs(State, Clock::now() - Start);
  State.counters["threads"] = offload_bench::ompMaxThreads();
}

/// 1 KiB buffers: two allocations of the runtime and two it does not know.
struct CopyBuffers {
  void *Src = nullptr, *Dst = nullptr;
  std::vector<char> UnknownSrc = std::vector<char>(1024, 1);
  std::vector<char> UnknownDst = std::vector<char>(1024, 0);
};
CopyBuffers *Buffers = nullptr;

void memcpyOffload(benchmark::State &State, bool Known) {
  void *Dst = Known ? Buffers->Dst : Buffers->UnknownDst.data();
  const void *Src = Known ? Buffers->Src : Buffers->UnknownSrc.data();
  Clock::time_point Start = Clock::now();
  for (auto _ : State) {
    check(offloadMemcpy(nullptr, Dst, Host, Src, Host, 1024), "offloadMemcpy");
    benchmark::ClobberMemory();
  }
  reportNs(State, Clock::now() - Start);
}

void memcpyNative(benchmark::State &State, bool Known) {
  void *Dst = Known ? Buffers->Dst : Buffers->UnknownDst.data();
  const void *Src = Known ? Buffers->Src : Buffers->UnknownSrc.data();
  Clock::time_point Start = Clock::now();
  for (auto _ : State) {
    benchmark::DoNotOptimize(Dst);
    benchmark::DoNotOptimize(Src);
    std::memcpy(Dst, Src, 1024);
    benchmark::ClobberMemory();
  }
  reportNs(State, Clock::now() - Start);
}

} // namespace

int main(int argc, char **argv) {
  // libomp's idle threads spin for 200 ms by default, which would take a
  // core from the benchmarks that follow; a millisecond keeps them spinning
  // between the iterations of the OpenMP benchmark itself.
  setenv("KMP_BLOCKTIME", "1", /*overwrite=*/0);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 2;

  check(offloadInit(), "offloadInit");
  check(offloadGetHostDevice(&Host), "offloadGetHostDevice");
  check(offloadCreateQueue(Host, &Queue), "offloadCreateQueue");
  loadKernels();
  CopyBuffers Copies;
  check(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 1024, &Copies.Src),
        "offloadMemAlloc");
  check(offloadMemAlloc(Host, OFFLOAD_ALLOC_TYPE_HOST, 1024, &Copies.Dst),
        "offloadMemAlloc");
  std::memset(Copies.Src, 1, 1024);
  Buffers = &Copies;

  benchmark::RegisterBenchmark("BM_FiberBarrier", fiberBarrier)
      ->ArgName("threads")
      ->Arg(32)
      ->Arg(256)
      ->Arg(1024)
      ->UseRealTime();
  for (bool Queued : {false, true})
    for (std::pair<uint32_t, uint32_t> Grid :
         {std::pair<uint32_t, uint32_t>{1, 1},
          std::pair<uint32_t, uint32_t>{64, 256}}) {
      uint32_t Blocks = Grid.first, Threads = Grid.second;
      std::string Name = std::string("BM_Launch/") +
                         (Queued ? "queued_" : "sync_") +
                         std::to_string(Blocks) + "x" + std::to_string(Threads);
      benchmark::RegisterBenchmark(Name.c_str(), [=](benchmark::State &S) {
        launch(S, Queued, Blocks, Threads);
      })->UseRealTime();
    }
  benchmark::RegisterBenchmark(
      "BM_Launch/queued_1x1_after_idle",
      [](benchmark::State &S) { launchAfterIdle(S, /*Queued=*/true, 2000); })
      ->UseManualTime()
      ->Iterations(200);
  benchmark::RegisterBenchmark(
      "BM_Launch/sync_1x1_after_idle",
      [](benchmark::State &S) { launchAfterIdle(S, /*Queued=*/false, 2000); })
      ->UseManualTime()
      ->Iterations(200);
  benchmark::RegisterBenchmark(
      "BM_Launch/queued_1x1_after_long_idle",
      [](benchmark::State &S) { launchAfterIdle(S, /*Queued=*/true, 150000); })
      ->UseManualTime()
      ->Iterations(10);
  for (bool Asleep : {false, true})
    benchmark::RegisterBenchmark(
        Asleep ? "BM_LaunchStart/asleep" : "BM_LaunchStart/awake",
        [=](benchmark::State &S) { launchStart(S, Asleep); })
        ->UseManualTime()
        ->Iterations(Asleep ? 100 : 2000);
  benchmark::RegisterBenchmark("BM_Native/omp_parallel_for_64",
                               ompParallelFor64)
      ->UseRealTime();
  benchmark::RegisterBenchmark(
      "BM_Memcpy1KiB/offload",
      [](benchmark::State &S) { memcpyOffload(S, /*Known=*/true); })
      ->UseRealTime();
  benchmark::RegisterBenchmark(
      "BM_Memcpy1KiB/offload_unknown",
      [](benchmark::State &S) { memcpyOffload(S, /*Known=*/false); })
      ->UseRealTime();
  benchmark::RegisterBenchmark("BM_Memcpy1KiB/memcpy", [](benchmark::State &S) {
    memcpyNative(S, /*Known=*/true);
  })->UseRealTime();
  benchmark::RegisterBenchmark(
      "BM_Memcpy1KiB/memcpy_unknown",
      [](benchmark::State &S) { memcpyNative(S, /*Known=*/false); })
      ->UseRealTime();

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();

  check(offloadMemFree(Copies.Src), "offloadMemFree");
  check(offloadMemFree(Copies.Dst), "offloadMemFree");
  check(offloadDestroyQueue(Queue), "offloadDestroyQueue");
  check(offloadShutDown(), "offloadShutDown");
  return 0;
}
