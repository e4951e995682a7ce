//===- HostPlugin.h - The host plugin ---------------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The host plugin runs kernels compiled for the `#offload.host` target on the
// CPU the program runs on. See HostKernelABI.h for the execution model.
//
//  - HostPlugin.cpp: the platform, the device and its memory;
//  - HostDeviceInfo.cpp: the device's properties, read from the system;
//  - HostQueue.cpp: in-order asynchronous queues and events;
//  - HostProgram.cpp: loading ELF objects with ORC, symbol lookup;
//  - HostPool.cpp: the threads that run the blocks of launches;
//  - HostLaunch.cpp: running the blocks of a grid on them;
//  - Fiber.cpp: running the threads of a cooperative block as fibers.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTPLUGIN_H
#define OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTPLUGIN_H

#include "../../Plugin.h"

#include "OffloadRuntime/HostKernelABI.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <shared_mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace offload {
namespace host {

class HostPlugin;
class InitializerCollector;

/// Settings of the host plugin, read from the environment at init.
struct HostConfig {
  /// Threads that run the blocks of a launch: the launching thread and
  /// NumThreads - 1 pool workers (OFFLOAD_HOST_THREADS, 1 to
  /// kMaxHostThreads, default: the hardware threads).
  unsigned NumThreads = 0;
  /// How long an idle pool worker or queue thread, or a thread waiting for
  /// one, spins before it sleeps, in microseconds (OFFLOAD_HOST_SPIN_US,
  /// default 200; 0: sleep at once).
  uint64_t SpinMicros = 200;
  /// The longest a queued operation waits for the queue's idle thread to
  /// notice it when nobody woke that thread, in microseconds
  /// (OFFLOAD_HOST_QUEUE_POLL_US, default 1000; 0: every submission to a
  /// sleeping queue thread wakes it). See HostQueue.
  uint64_t QueuePollMicros = 1000;
  /// Stack size of a fiber (OFFLOAD_HOST_FIBER_STACK_SIZE, default 64 KiB).
  size_t FiberStackSize = 64 * 1024;
  /// Shared memory per block the device reports (WORK_GROUP_LOCAL_MEM_SIZE).
  uint64_t SharedMemoryPerBlock = 64 * 1024;
};

/// Reads the properties of the host device from the system. Defined in
/// HostDeviceInfo.cpp.
DeviceInfo queryHostDeviceInfo(const HostConfig &Config);

//===----------------------------------------------------------------------===//
// Threads
//===----------------------------------------------------------------------===//

/// Waits until \p Done returns true: spins (pauses, then yields the CPU) for
/// at most \p BudgetMicros microseconds. Returns Done()'s last answer.
bool spinUntil(llvm::function_ref<bool()> Done, uint64_t BudgetMicros);

/// Sleeps until \p Word may no longer hold \p Seen (a futex wait: returns at
/// once if it does not; may also return spuriously).
void waitOnWord(std::atomic<uint32_t> &Word, uint32_t Seen);
/// Wakes up to \p Count threads sleeping in waitOnWord(\p Word); a system
/// call, so callers make it only when they know of a sleeper.
void wakeWord(std::atomic<uint32_t> &Word, int Count);

/// A lock for the few stores of a queue's or the pool's bookkeeping: a
/// thread that finds it taken pauses, then yields the CPU, but never sleeps
/// in the kernel. A thread that was just woken thus never queues behind
/// the lock (which would cost the holder a second wake when it unlocks:
/// about 10 us on a virtual machine, HostPool.cpp). A BasicLockable.
class SpinLock {
public:
  void lock() {
    if (!Taken.exchange(true, std::memory_order_acquire))
      return;
    lockSlow();
  }
  bool try_lock() {
    return !Taken.load(std::memory_order_relaxed) &&
           !Taken.exchange(true, std::memory_order_acquire);
  }
  void unlock() { Taken.store(false, std::memory_order_release); }

private:
  void lockSlow();
  std::atomic<bool> Taken{false};
};

/// The worker threads that run the blocks of launches, with the launching
/// threads (HostPool.cpp). Several launches may run at once; workers take
/// chunks of the oldest first.
class BlockPool {
public:
  /// A launch's work: items [0, NumItems) (blocks), handed out in chunks by
  /// guided self-scheduling: each take is 1/(2 x threads) of what is left,
  /// at least MinChunk items (fewer only at the end). Calls
  /// Run(Context, Begin, End) for each chunk, concurrently, in any order.
  /// Lives on the launcher's stack.
  struct Job {
    void (*Run)(void *Context, uint64_t Begin, uint64_t End) = nullptr;
    void *Context = nullptr;
    uint64_t NumItems = 0;
    uint64_t MinChunk = 1;

  private:
    friend class BlockPool;
    std::atomic<uint64_t> NextItem{0};
    /// 2 x the threads that may take chunks (workers and the launcher).
    uint64_t Divisor = 2;
    /// Workers working on the job; changed under the pool's lock.
    std::atomic<unsigned> Users{0};
    bool LauncherWaits = false;
    Job *Prev = nullptr, *Next = nullptr;
  };

  BlockPool(unsigned NumWorkers, uint64_t SpinMicros);
  ~BlockPool();
  BlockPool(const BlockPool &) = delete;
  BlockPool &operator=(const BlockPool &) = delete;

  unsigned getNumWorkers() const { return unsigned(Workers.size()); }

  /// Runs every item of \p J on the workers and the calling thread; returns
  /// once all ran.
  void run(Job &J);

private:
  void workerMain();
  /// The oldest job with items left; the lock is held.
  Job *findWork();
  static void runChunks(Job &J);

  uint64_t SpinMicros;
  SpinLock Lock;
  /// Jobs being run, oldest first.
  Job *Head = nullptr, *Tail = nullptr;
  /// Changes (under the lock) whenever a job is published; sleeping workers
  /// wait on it (waitOnWord).
  std::atomic<uint32_t> Epoch{0};
  /// Changes (under the lock) when the last worker leaves a job whose
  /// launcher sleeps; launchers wait on it.
  std::atomic<uint32_t> JobDone{0};
  unsigned Sleepers = 0;
  bool Stopping = false;
  std::vector<std::thread> Workers;
};

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

class HostQueue;

/// What an event knows of its queue: the queue while it exists (null once
/// its destructor started; the destructor takes Mutex exclusively, a thread
/// that runs the queue's tasks for an event holds it shared).
struct HostQueueLink {
  std::shared_mutex Mutex;
  HostQueue *Queue = nullptr;
};

/// An event: set once the queue reaches the point where it was recorded,
/// which is its time stamp (steady clock).
class HostEvent final : public Event {
public:
  /// \p Complete: the queue is idle, the event completes now.
  explicit HostEvent(bool Complete = false) : Complete(Complete) {
    if (Complete)
      CompletedAt = std::chrono::steady_clock::now();
  }
  /// An event that completes when \p Link's queue has completed \p Position
  /// operations.
  HostEvent(std::shared_ptr<HostQueueLink> Link, uint64_t Position)
      : Link(std::move(Link)), Position(Position), Complete(false) {}
  /// Blocks until the event is complete. While no other thread runs the
  /// queue's operations, the calling thread runs them itself, up to the
  /// event (as HostQueue::synchronize does).
  llvm::Error synchronize() override;
  bool isComplete() const override;
  llvm::Expected<float> elapsedMillisSince(Event &Start) override;
  void signal();

private:
  std::shared_ptr<HostQueueLink> Link;
  uint64_t Position = 0;
  mutable std::mutex Mutex;
  std::condition_variable CV;
  bool Complete;
  std::chrono::steady_clock::time_point CompletedAt;
};

/// A queued operation: a move-only callable returning llvm::Error, stored in
/// place when it fits InlineSize bytes (launches with their argument copy,
/// copies, fills), else on the heap.
class QueueTask {
public:
  static constexpr size_t InlineSize = 448;
  static constexpr size_t StorageAlign = 64;

  QueueTask() = default;
  template <typename CallableT, typename = std::enable_if_t<!std::is_same_v<
                                    std::decay_t<CallableT>, QueueTask>>>
  QueueTask(CallableT &&Callable) {
    using T = std::decay_t<CallableT>;
    if constexpr (sizeof(T) <= InlineSize && alignof(T) <= StorageAlign) {
      new (Storage) T(std::forward<CallableT>(Callable));
      Ops = &InlineOps<T>;
    } else {
      *reinterpret_cast<T **>(Storage) =
          new T(std::forward<CallableT>(Callable));
      Ops = &HeapOps<T>;
    }
  }
  QueueTask(QueueTask &&Other) { *this = std::move(Other); }
  QueueTask &operator=(QueueTask &&Other) {
    if (this == &Other)
      return *this;
    reset();
    if (Other.Ops) {
      Other.Ops->Move(Storage, Other.Storage);
      Ops = Other.Ops;
      Other.Ops = nullptr;
    }
    return *this;
  }
  QueueTask(const QueueTask &) = delete;
  QueueTask &operator=(const QueueTask &) = delete;
  ~QueueTask() { reset(); }

  explicit operator bool() const { return Ops; }
  llvm::Error operator()() { return Ops->Invoke(Storage); }
  /// Destroys the callable (and what it captured).
  void reset() {
    if (Ops)
      Ops->Destroy(Storage);
    Ops = nullptr;
  }

private:
  struct Operations {
    llvm::Error (*Invoke)(void *);
    /// Move-constructs into the first storage and destroys the second's.
    void (*Move)(void *, void *);
    void (*Destroy)(void *);
  };
  template <typename T>
  static constexpr Operations InlineOps = {
      [](void *S) -> llvm::Error { return (*static_cast<T *>(S))(); },
      [](void *D, void *S) {
        new (D) T(std::move(*static_cast<T *>(S)));
        static_cast<T *>(S)->~T();
      },
      [](void *S) { static_cast<T *>(S)->~T(); }};
  template <typename T>
  static constexpr Operations HeapOps = {
      [](void *S) -> llvm::Error { return (**static_cast<T **>(S))(); },
      [](void *D, void *S) { *static_cast<T **>(D) = *static_cast<T **>(S); },
      [](void *S) { delete *static_cast<T **>(S); }};

  const Operations *Ops = nullptr;
  alignas(StorageAlign) unsigned char Storage[InlineSize];
};

/// A FIFO of tasks in a ring that only grows: steady use allocates nothing.
class TaskRing {
public:
  bool empty() const { return Count == 0; }
  void push(QueueTask Task);
  /// Moves the oldest task into \p Out.
  void pop(QueueTask &Out);

private:
  std::unique_ptr<QueueTask[]> Slots;
  size_t Capacity = 0, Head = 0, Count = 0;
};

/// An in-order queue. Operations run one at a time, in submission order, on
/// the queue's own thread, so that they do not block the submitter and a
/// queue waiting on an event of another queue blocks only itself; or on a
/// thread that synchronizes the queue (or one of its events) while its
/// thread is not running one (a launch followed by a synchronization then
/// runs on the caller without any hand-off). The queue's thread spins for
/// HostConfig::SpinMicros after its last operation, then dozes: it looks
/// for work every PollMicros without being woken, so a submission costs no
/// system call, for DozeMillis (HostQueue.cpp); then it sleeps until a
/// submission wakes it (one FUTEX_WAKE). Every operation thus starts at most
/// PollMicros after its submission (plus the operating system's scheduling
/// delay), whether or not the program calls the runtime again.
class HostQueue final : public Queue {
public:
  HostQueue(Device &D, uint64_t SpinMicros, uint64_t PollMicros);
  ~HostQueue() override;

  llvm::Error synchronize() override;
  llvm::Error
  waitEvents(llvm::ArrayRef<std::shared_ptr<Event>> Events) override;
  llvm::Error enqueueHostFunction(offload_host_function_cb_t Callback,
                                  void *UserData) override;
  llvm::Expected<std::shared_ptr<Event>> recordEvent() override;
  llvm::Expected<bool> isEmpty() override;

  /// Appends \p Task; its error, if any, is reported by the next
  /// synchronize.
  void enqueue(QueueTask Task);
  /// Returns once \p Target operations have completed, running pending ones
  /// on the calling thread while no other thread runs one (HostEvent).
  void runUntil(uint64_t Target);

private:
  void workerMain();
  /// Whether the next task may start: none runs and one is pending.
  bool canStart() const { return !Executing && !Pending.empty(); }
  /// Runs the oldest task on the calling thread; \p Lock (of Mutex) is held
  /// and canStart().
  void runOne(std::unique_lock<SpinLock> &Lock);
  /// Runs or waits for tasks until \p Target have completed; \p Lock (of
  /// Mutex) is held.
  void waitUntil(uint64_t Target, std::unique_lock<SpinLock> &Lock);
  /// Pushes \p Task; Mutex is held. Returns whether to wake the worker
  /// (wakeWord(WorkerWake) once Mutex is released).
  bool push(QueueTask Task);
  /// Sleeps on \p Word until it differs from \p Seen: releases \p Lock
  /// meanwhile.
  static void sleepOn(std::atomic<uint32_t> &Word, uint32_t Seen,
                      std::unique_lock<SpinLock> &Lock);

  uint64_t SpinMicros;
  uint64_t PollMicros;
  SpinLock Mutex;
  /// The queue's thread sleeps on it (waitOnWord) for canStart() or Stopping;
  /// changed under Mutex by whoever clears WorkerSleeping.
  std::atomic<uint32_t> WorkerWake{0};
  /// Synchronizing threads sleep on it for completions or canStart();
  /// changed under Mutex when SyncWaiters is not 0.
  std::atomic<uint32_t> SyncWake{0};
  TaskRing Pending;
  /// Counts of tasks (changed under Mutex; read without it while spinning).
  std::atomic<uint64_t> Submitted{0};
  std::atomic<uint64_t> Completed{0};
  /// Changes (under Mutex) whenever canStart() may have become true.
  std::atomic<uint64_t> Version{0};
  /// Whether a thread runs one of the queue's tasks now.
  bool Executing = false;
  /// Whether the queue's thread waits in the kernel (then it changes only
  /// under Mutex); when it also dozes, it looks for work by itself every
  /// PollMicros and nobody wakes it for new work.
  bool WorkerSleeping = false;
  bool WorkerDozing = false;
  unsigned SyncWaiters = 0;
  bool Stopping = false;
  /// First error since the last synchronize.
  std::optional<llvm::Error> FirstError;
  /// Shared with the queue's events.
  std::shared_ptr<HostQueueLink> Link;
  std::thread Worker;
};

//===----------------------------------------------------------------------===//
// Programs and kernels
//===----------------------------------------------------------------------===//

/// What the link of a program's object tells the loader (HostProgram.cpp
/// collects it while JITLink links the object).
struct LinkInfo {
  /// The global constructors and destructors, in the order they run (from
  /// the .init_array/.ctors and .fini_array/.dtors sections).
  std::vector<void (*)()> Constructors;
  std::vector<void (*)()> Destructors;
  /// The program's memory that lives as long as it does: one range per
  /// block of its sections, sorted by address.
  struct Range {
    uintptr_t Begin, End;
    bool Executable;
  };
  std::vector<Range> Memory;
};

/// An ELF object loaded into its own JITDylib.
class HostProgram final : public Program {
public:
  HostProgram(Device &D, llvm::orc::LLJIT &JIT, llvm::orc::JITDylib &JD,
              std::vector<std::string> KernelNames,
              llvm::StringMap<uint64_t> SymbolSizes)
      : Program(D), JIT(JIT), JD(JD), KernelNames(std::move(KernelNames)),
        SymbolSizes(std::move(SymbolSizes)) {}
  /// Runs the program's global destructors (if its constructors ran), then
  /// removes its JITDylib, freeing its code and data.
  ~HostProgram() override;

  llvm::Expected<std::unique_ptr<Symbol>>
  getSymbol(llvm::StringRef Name, offload_symbol_kind_t Kind) override;

  /// Takes what the link found; with \p RunConstructors, runs the global
  /// constructors, and the destructor then runs the destructors.
  void setLinkInfo(LinkInfo Info, bool RunConstructors);

private:
  /// The range of the program's memory containing [Ptr, Ptr + Size), if
  /// any (executable memory only with \p Executable).
  const LinkInfo::Range *findMemory(const void *Ptr, uint64_t Size,
                                    bool Executable = false) const;
  /// Checks the descriptor of kernel \p Name at \p Address, whose ELF
  /// symbol is \p SymbolSize bytes, before anything reads it.
  llvm::Error checkDescriptor(llvm::StringRef Name, const void *Address,
                              uint64_t SymbolSize) const;

  LinkInfo Link;
  /// Whether the constructors ran (and the destructors will).
  bool ConstructorsRan = false;
  llvm::orc::LLJIT &JIT;
  llvm::orc::JITDylib &JD;
  /// Names of the kernels the object defines, for error messages.
  std::vector<std::string> KernelNames;
  /// Sizes in bytes of the object's defined global symbols (ELF st_size).
  llvm::StringMap<uint64_t> SymbolSizes;
};

/// A symbol of a host program: a kernel descriptor or a global variable.
class HostSymbol final : public Symbol {
public:
  HostSymbol(Program &P, std::string Name, offload_symbol_kind_t Kind,
             void *Address, uint64_t Size)
      : Symbol(P, std::move(Name), Kind), Address(Address), Size(Size) {}

  void *getAddress() const { return Address; }
  /// The kernel descriptor (KERNEL symbols only).
  const offload_host_kernel_descriptor_t *getDescriptor() const {
    return static_cast<const offload_host_kernel_descriptor_t *>(Address);
  }
  std::optional<uint64_t> getArgumentsSize() const override;
  std::optional<ArgumentLayout> getArgumentLayout() const override;
  uint64_t getStaticSharedBytes() const override;
  void *getGlobalAddress() const override { return Address; }
  uint64_t getGlobalSize() const override { return Size; }

  /// With OFFLOAD_TRACE=1, says once why a cooperative kernel runs on
  /// fibers.
  void traceFibers();

private:
  /// Whether traceFibers printed its line.
  std::atomic<bool> FibersTraced{false};
  /// The descriptor of a kernel, the variable of a global.
  void *Address;
  /// Size in bytes of the ELF symbol.
  uint64_t Size;
};

//===----------------------------------------------------------------------===//
// Device and plugin
//===----------------------------------------------------------------------===//

class HostDevice final : public Device {
public:
  HostDevice(HostPlugin &P);
  ~HostDevice() override;

  const DeviceInfo &getInfo() const override { return Info; }

  llvm::Expected<void *> allocate(size_t Size,
                                  offload_alloc_type_t Kind) override;
  llvm::Error free(void *Ptr, offload_alloc_type_t Kind) override;
  /// Alignments up to kMaxAlignment (HostMemory places them).
  llvm::Expected<void *> allocateAligned(size_t Size, offload_alloc_type_t Kind,
                                         size_t Alignment) override;
  static constexpr size_t kMaxAlignment = size_t(1) << 30;
  llvm::Error memcpy(Queue *Q, void *Dst, const void *Src,
                     size_t Size) override;
  llvm::Error fill(Queue *Q, void *Ptr, llvm::ArrayRef<uint8_t> Pattern,
                   size_t Size) override;
  llvm::Expected<void *> registerHostMemory(void *HostPtr,
                                            size_t Size) override;
  llvm::Error unregisterHostMemory(void *HostPtr) override;

  llvm::Expected<std::unique_ptr<Queue>> createQueue() override;

  bool isValidBinary(llvm::StringRef Image) const override;
  llvm::Expected<std::unique_ptr<Program>>
  loadProgram(llvm::StringRef Image) override;

  llvm::Error
  launchKernel(Queue *Q, Symbol &Kernel, llvm::ArrayRef<uint8_t> Args,
               const offload_kernel_launch_size_args_t &Size) override;
  /// A cooperative grid: one thread per block, all at once
  /// (HostLaunch.cpp).
  llvm::Expected<uint32_t> getMaxCooperativeGroupCount(
      Symbol &Kernel, const offload_kernel_launch_size_args_t &Size) override;
  llvm::Error launchCooperativeKernel(
      Queue *Q, Symbol &Kernel, llvm::ArrayRef<uint8_t> Args,
      const offload_kernel_launch_size_args_t &Size) override;

  /// Frees every allocation still live (at plugin deinit).
  void releaseAllocations();

private:
  /// loadProgram; without \p RunConstructors for isValidBinary's trial
  /// load, which runs none of the program's code.
  llvm::Expected<std::unique_ptr<HostProgram>>
  loadHostProgram(llvm::StringRef Image, bool RunConstructors);

  HostPlugin &ThePlugin;
  DeviceInfo Info;

  struct Allocation {
    size_t Size;
    offload_alloc_type_t Kind;
    /// From the C heap, not HostMemory (whose addresses were used up).
    bool FromHeap;
    /// The alignment it was placed at (a multiple of 64).
    size_t Alignment;
  };
  /// launchKernel and launchCooperativeKernel.
  llvm::Error launch(Queue *Q, Symbol &Kernel, llvm::ArrayRef<uint8_t> Args,
                     const offload_kernel_launch_size_args_t &Size,
                     bool Cooperative);
  /// Frees allocation \p Ptr, already taken out of Allocations.
  void release(void *Ptr, const Allocation &A);
  std::mutex AllocationsMutex;
  std::map<void *, Allocation> Allocations;
};

class HostPlugin final : public Plugin {
public:
  HostPlugin();
  ~HostPlugin() override;

  offload_platform_backend_t getBackend() const override {
    return OFFLOAD_PLATFORM_BACKEND_HOST;
  }
  llvm::StringRef getName() const override { return "host"; }
  llvm::StringRef getVendorName() const override { return "offload"; }
  llvm::StringRef getVersion() const override;

  llvm::Error init() override;
  llvm::Error deinit() override;

  size_t getNumDevices() const override { return TheDevice ? 1 : 0; }
  Device &getDevice(size_t Index) override { return *TheDevice; }

  const HostConfig &getConfig() const { return Config; }

  /// The threads that run a launch's blocks: OFFLOAD_HOST_THREADS, else the
  /// hardware threads (at least 1).
  unsigned getNumBlockThreads() const;
  /// The pool running blocks, created on first use.
  BlockPool &getBlockPool();

  /// The JIT holding every program, created on first use, and the JITDylib
  /// that defines the runtime functions kernels call.
  llvm::Expected<llvm::orc::LLJIT &> getJIT();
  llvm::orc::JITDylib &getRuntimeDylib() { return *RuntimeDylib; }
  /// The collector of static initializers of the JIT's links.
  InitializerCollector &getInitializerCollector() { return *Initializers; }
  /// A fresh, unique JITDylib name for a program.
  std::string getNextDylibName();

private:
  HostConfig Config;
  std::unique_ptr<HostDevice> TheDevice;

  std::mutex PoolMutex;
  std::unique_ptr<BlockPool> Pool;
  /// Pool, read without the mutex once it exists.
  std::atomic<BlockPool *> PoolPtr{nullptr};

  std::mutex JITMutex;
  /// Collects the static initializers of the objects being linked (an
  /// ObjectLinkingLayer plugin, HostProgram.cpp).
  std::shared_ptr<InitializerCollector> Initializers;
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  llvm::orc::JITDylib *RuntimeDylib = nullptr;
  uint64_t NextDylibId = 0;
};

/// Runs \p Desc (named \p Name in messages) over the grid \p Size with
/// arguments \p Args on \p Pool and the calling thread; returns once every
/// block ran. \p Cooperative: every block at once instead, one thread each
/// (the calling thread and threads started for the launch), so that blocks
/// may wait for each other. Defined in HostLaunch.cpp.
llvm::Error launchOnHost(BlockPool &Pool, const HostConfig &Config,
                         const offload_host_kernel_descriptor_t &Desc,
                         const void *Args,
                         const offload_kernel_launch_size_args_t &Size,
                         llvm::StringRef Name, bool Cooperative = false);

} // namespace host
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_HOST_HOSTPLUGIN_H
