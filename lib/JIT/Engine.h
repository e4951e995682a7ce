//===- Engine.h - The JIT engine (private) ----------------------*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The JIT engine behind OffloadJIT.h. At each launch of a JIT kernel:
//
//  1. read the values of its runtime constants from the packed argument
//     buffer (scalars by value, `contents` memrefs by their elements) and take
//     the block size (and the grid size with OFFLOAD_JIT_FOLD_GRID=1);
//  2. form the key: xxh3-128 of every input that can change the generated
//     code and nothing else (module content, kernel, target triple, chip and
//     features, LLVM version, specialization options, the values, the sizes);
//  3. look the key up in memory; on a miss, in the disk cache; on a miss,
//     compile: clone the module, offload-specialize the kernel with the
//     values, lower it for the device (convert-gpu-to-offload-host and
//     #offload.host; for CUDA and HIP devices DeviceCompiler.h: PTX, cubin,
//     HSACO), store it on disk;
//  4. load it with offloadCreateProgram / offloadGetSymbol (once per device)
//     and launch it with offloadLaunchKernel.
//
// In-memory entries are created under a lock and compiled outside it by the
// first thread that asks; others wait on the entry, so a specialization is
// compiled once however many threads launch it at the same time. Compiles
// run on a pool of MLIR contexts (OFFLOAD_JIT_THREADS), each used by one
// thread at a time, so misses of different keys compile in parallel; kernel
// lookups use a main context of their own.
//
// The engine's files: Engine.cpp (construction, compile contexts, caches,
// launch), Programs.cpp (program and kernel handles), Compiler.cpp (a
// specialization from a program and launch values), KernelArguments.cpp
// (the packed argument buffer), Config.cpp (the environment) and CAPI.cpp
// (the C API of OffloadJIT.h, and its errors).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_LIB_JIT_ENGINE_H
#define OFFLOAD_LIB_JIT_ENGINE_H

#include "OffloadJIT/OffloadJIT.h"

#include "AutoSpecialize.h"
#include "DeviceCompiler.h"
#include "DiskCache.h"
#include "KernelArguments.h"
#include "ModuleProgram.h"
#include "NeverSlower.h"

#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/Transforms/Specialize.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <array>
#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

namespace offloadjit {

/// Makes the error value of the C API (the store: CAPI.cpp).
inline offload_result_t makeError(offload_errc_t Code, std::string Message) {
  return makeJITError(Code, std::move(Message));
}

/// The raw launch-time value of one runtime constant (the scalar's bytes or
/// the array's elements), and everything else the key depends on.
struct LaunchRequest {
  std::vector<std::pair<unsigned, std::vector<char>>> Values;
  std::array<int32_t, 3> Block{1, 1, 1};
  std::optional<std::array<int32_t, 3>> Grid;
  bool Specialize = false;
};

} // namespace offloadjit

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

struct offload_jit_program_impl_t
    : std::enable_shared_from_this<offload_jit_program_impl_t> {
  offload_device_handle_t Device = nullptr;
  /// Device is the host device: launch values are read in place.
  bool DeviceIsHost = false;
  /// CUDA and HIP devices: what the JIT compiles for.
  std::optional<offloadjit::DeviceTarget> GPUTarget;
  /// The target part of this program's keys (Engine::TargetKey on the host).
  std::string TargetKey;
  std::string Bytes;
  /// xxh3-128 of Bytes, hex: the module part of every key.
  std::string ModuleHash;
  /// offload_jit_program_options_t::Check and CheckTools (CheckTool bits).
  uint32_t CheckTools = 0;
  /// Parsed in the engine's main context (kernel lookups, signatures); for a
  /// program made from a caller's module (MLIRModule.h), the clone of it in
  /// the caller's context.
  mlir::OwningOpRef<mlir::ModuleOp> Module;
  /// The caller's context of a program made from a module (Module lives
  /// there, and its compiles run there under getExternalContextMutex); null
  /// for programs made from bytes.
  mlir::MLIRContext *External = nullptr;
  std::mutex KernelsMutex;
  llvm::StringMap<std::unique_ptr<offload_jit_kernel_impl_t>> Kernels;
  /// The module parsed in each compile context that compiled one of its
  /// kernels (by context index): touched only by the thread holding that
  /// context; the map itself under ParsedMutex.
  std::mutex ParsedMutex;
  std::map<unsigned, mlir::OwningOpRef<mlir::ModuleOp>> Parsed;
  /// Releases the modules, each under its context.
  ~offload_jit_program_impl_t();
};

struct offload_jit_kernel_impl_t {
  offload_jit_program_impl_t *Program = nullptr;
  /// xxh3-128 of everything constant in this kernel's keys (module, kernel,
  /// target, compiler, options): the start of every in-memory lookup.
  llvm::XXH128_hash_t Prefix{};
  std::string ModuleName, KernelName;
  std::vector<offloadjit::Argument> Arguments;
  std::vector<offloadjit::Field> Fields;
  uint64_t ArgumentsSize = 0;
  bool HasRuntimeConstants = false;
  /// Some runtime constant is a `contents` memref: its launch values are in
  /// memory that earlier work on the launch's queue may still write.
  bool HasContents = false;
  /// Where the runtime-constant scalars lie in the packed argument buffer
  /// (offset, size; adjacent fields merged): what the launch fast path
  /// hashes when no runtime constant is a `contents` memref.
  llvm::SmallVector<std::pair<uint32_t, uint32_t>, 4> ScalarKeyRanges;
  /// What offloadJITGetKernelSignature returns: one line per argument.
  std::string Signature;
  /// Automatic specialization of its unmarked scalar arguments
  /// (AutoSpecialize.h); null when it has none.
  std::unique_ptr<offloadjit::AutoProfile> Auto;
};

namespace offloadjit {

/// A compiled kernel loaded on a device, or the error that prevented it.
struct CacheEntry {
  std::mutex Mutex;
  std::condition_variable Ready;
  /// Set (release) once Program/Symbol/Error/FromDisk are final.
  std::atomic<bool> Done{false};
  offload_program_handle_t Program = nullptr;
  offload_symbol_handle_t Symbol = nullptr;
  offload_result_t Error = OFFLOAD_SUCCESS;
  /// Read from the disk cache rather than compiled.
  bool FromDisk = false;
  /// A specialization (not the generic kernel), its key, and its
  /// measurement against the generic kernel (OFFLOAD_JIT_MEASURE).
  bool Specialized = false;
  std::string Key;
  offloadjit::SpecializationTrial Trial;
  /// The last reference goes when the entry has left the caches
  /// (offloadJITClearMemoryCache) and no compile or launch lookup holds it:
  /// its program is released. The engine holds a reference to the runtime,
  /// so the program belongs to the live runtime session.
  ~CacheEntry() {
    if (Program)
      (void)offloadDestroyProgram(Program);
  }
};

struct Stats {
  std::atomic<uint64_t> Launches{0}, Compiles{0}, MemoryHits{0}, DiskHits{0},
      DiskWrites{0}, CorruptEntries{0}, GenericLaunches{0}, AsyncCompiles{0},
      CompileMicroseconds{0};
  /// Launches that hit the memory cache on resolve's fast path: each counts
  /// as a launch and a memory hit, in one atomic increment instead of two
  /// (offloadJITGetStats adds it to both).
  std::atomic<uint64_t> HitLaunches{0};
  uint64_t launches() const { return Launches + HitLaunches; }
  uint64_t memoryHits() const { return MemoryHits + HitLaunches; }
};

/// Options read once from the environment.
struct Config {
  bool Enabled = true, Async = false, FoldGrid = false, Trace = false;
  /// Host kernels run their threads as loops split at barriers
  /// (offload-host-thread-loops); OFFLOAD_HOST_THREAD_LOOPS=0 runs every
  /// kernel that synchronizes threads on fibers instead.
  bool ThreadLoops = true;
  /// OFFLOAD_CHECK=<tools>: the checking tools of every host kernel
  /// (CheckTool bits; OFFLOAD_CHECK=1 is memcheck).
  uint32_t CheckTools = 0;
  unsigned Threads = 2;
  /// OFFLOAD_JIT_AUTO, OFFLOAD_JIT_AUTO_THRESHOLD,
  /// OFFLOAD_JIT_AUTO_MAX_VARIANTS (AutoSpecialize.h).
  bool Auto = false;
  offloadjit::AutoOptions AutoSettings;
  /// OFFLOAD_JIT_MEASURE, OFFLOAD_JIT_MEASURE_LAUNCHES,
  /// OFFLOAD_JIT_MEASURE_SCALE (NeverSlower.h).
  offloadjit::MeasureOptions Measure;
  std::string DumpDir;
  mlir::offload::SpecializationOptions Specialization;

  /// The first setting whose value means nothing ("OFFLOAD_JIT=banana:
  /// expected ..."); every JIT call then fails with it.
  std::string Problem;

  /// Reads the OFFLOAD_JIT* (and OFFLOAD_CHECK, OFFLOAD_TRACE, ...) settings
  /// (Config.cpp).
  static Config fromEnvironment();
};

/// The process's JIT.
class Engine {
public:
  static Engine &get() {
    static Engine *Instance = new Engine(); // lives until exit
    return *Instance;
  }

  offload_result_t createProgram(offload_device_handle_t Device,
                                 const void *Module, size_t Size,
                                 offload_jit_program_handle_t *Out,
                                 uint32_t CheckTools = 0);
  offload_result_t destroyProgram(offload_jit_program_handle_t Program);
  /// A program for \p Device without its module (createProgram's checks of
  /// the settings and the device).
  offload_result_t
  makeProgram(offload_device_handle_t Device, uint32_t CheckTools,
              std::shared_ptr<offload_jit_program_impl_t> &Program);
  /// offloadjit::createProgramFromModule (ModuleProgram.h).
  offload_result_t
  createProgramFromModule(offload_device_handle_t Device,
                          mlir::OwningOpRef<mlir::ModuleOp> Clone,
                          std::string ModuleHash, uint32_t CheckTools,
                          offload_jit_program_handle_t *Out);
  offload_result_t getKernel(offload_jit_program_handle_t Program,
                             const char *Name,
                             offload_jit_kernel_handle_t *Out);
  offload_result_t getKernelFromImage(offload_device_handle_t Device,
                                      const void *Image, size_t Size,
                                      const char *Name,
                                      offload_jit_kernel_handle_t *Out);
  offload_result_t launch(offload_queue_handle_t Queue,
                          offload_device_handle_t Device,
                          offload_jit_kernel_handle_t Kernel, const void *Args,
                          size_t ArgsSize,
                          const offload_kernel_launch_size_args_t *Sizes);
  offload_result_t getSignature(offload_jit_kernel_handle_t Kernel, size_t Size,
                                char *Signature, size_t *SizeRet);
  /// The symbol to launch for these arguments (the heart of launch).
  /// \p Queue is the queue the symbol will be launched on (null: none).
  /// \p Resolved, when given, receives the cache entry of the symbol.
  /// \p CountedLaunch, when given (a launch), is set when resolve counted
  /// the launch itself (Stats::HitLaunches).
  offload_result_t
  resolve(offload_queue_handle_t Queue, offload_device_handle_t Device,
          offload_jit_kernel_handle_t Kernel, const void *Args, size_t ArgsSize,
          const offload_kernel_launch_size_args_t *Sizes,
          offload_symbol_handle_t &Symbol, CacheEntry **Resolved = nullptr,
          bool *CountedLaunch = nullptr);

  Stats Counters;
  offloadjit::AutoCounters AutoCounts;
  offloadjit::MeasureCounters MeasureCounts;
  void setEnabled(bool Enabled) { this->Enabled = Enabled; }
  void setAutoEnabled(bool Enabled) { AutoEnabled = Enabled; }
  void clearMemoryCache() {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    std::unique_lock<std::shared_mutex> FastLock(FastMutex);
    // Every thread's last hit (LastHit) refers to an entry of Fast.
    FastGeneration.fetch_add(1, std::memory_order_release);
    Cache.clear();
    Fast.clear();
  }
  void waitForCompiles() {
    std::lock_guard<std::mutex> Lock(PoolMutex);
    if (Pool)
      Pool->wait();
  }

  /// Whether \p Kernel is a kernel of a live program (the generated
  /// validation, EntryPoint.h's checkHandle).
  /// Each thread remembers the last kernel it found live, until a program
  /// is destroyed (LiveGeneration): a launch loop checks its kernel without
  /// the lock. As before, a kernel whose program another thread destroys
  /// during the call may be reported live (destroying a program while its
  /// kernels launch is the caller's race).
  bool isLive(offload_jit_kernel_handle_t Kernel) {
    struct LastLive {
      offload_jit_kernel_handle_t Kernel = nullptr;
      uint64_t Generation = 0;
    };
    static thread_local LastLive Last;
    if (Last.Kernel == Kernel &&
        Last.Generation == LiveGeneration.load(std::memory_order_acquire))
      return true;
    std::shared_lock<std::shared_mutex> Lock(LiveKernelsMutex);
    if (!LiveKernels.count(Kernel))
      return false;
    // destroyProgram bumps the generation under the exclusive lock.
    Last = {Kernel, LiveGeneration.load(std::memory_order_relaxed)};
    return true;
  }
  /// Whether \p Program is a live program.
  bool isLive(offload_jit_program_handle_t Program) {
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    return Programs.count(Program);
  }

private:
  Engine();
  void trace(const llvm::Twine &Message) {
    if (Options.Trace)
      llvm::errs() << "offload-jit: " << Message << "\n";
  }
  /// The options that change generated code, as they enter every key.
  std::string getOptionsKey(const offload_jit_program_impl_t &Program) const;
  std::string getKey(offload_jit_kernel_impl_t &Kernel,
                     const LaunchRequest &Request);
  std::shared_ptr<CacheEntry>
  getOrCompile(const std::string &Key, offload_device_handle_t Device,
               offload_jit_kernel_impl_t &Kernel, const LaunchRequest &Request,
               bool Background, bool *Created = nullptr);
  /// Compiles (after a disk lookup unless \p DiskChecked) and loads.
  void compileEntry(CacheEntry &Entry, const std::string &Key,
                    offload_device_handle_t Device,
                    std::shared_ptr<offload_jit_program_impl_t> Program,
                    offload_jit_kernel_impl_t &Kernel,
                    const LaunchRequest &Request, bool DiskChecked);
  /// The disk cache's payload for \p Key, counted and traced.
  std::optional<std::vector<char>>
  readFromDisk(const std::string &Key, const offload_jit_kernel_impl_t &Kernel);
  /// Loads \p Payload (unless \p Error) on \p Device and publishes \p Entry.
  void finishEntry(CacheEntry &Entry, offload_device_handle_t Device,
                   const std::optional<std::vector<char>> &Payload,
                   offload_result_t Error, bool FromDisk);
  offloadjit::EntryIdentity
  getIdentity(const std::string &Key,
              const offload_jit_kernel_impl_t &Kernel) const {
    return {Key, Kernel.ModuleName + "::" + Kernel.KernelName,
            Kernel.Program->TargetKey};
  }
  /// Specializes and lowers; \p Micros is the time spent compiling, not
  /// waiting for a context; \p Phases says where it went (for the trace).
  llvm::Expected<std::vector<char>> compile(offload_jit_program_impl_t &Program,
                                            offload_jit_kernel_impl_t &Kernel,
                                            const LaunchRequest &Request,
                                            uint64_t &Micros,
                                            std::string &Phases);

  Config Options;
  std::atomic<bool> Enabled{true};
  /// Automatic specialization (OFFLOAD_JIT_AUTO, offloadJITSetAutoEnabled).
  std::atomic<bool> AutoEnabled{false};
  /// OFFLOAD_TRACE_FILE is set: cache lookups and compiles go on the
  /// runtime's timeline.
  bool Timeline = false;
  /// OFFLOAD_PROFILE is set: compiles and hits go into its JIT summary.
  bool Profiling = false;
  /// Reports \p Event of \p Kernel to the runtime's profile, if on.
  void profile(const offload_jit_kernel_impl_t &Kernel,
               offload_profile_jit_event_t Event, uint64_t Nanos = 0) const {
    if (Profiling)
      offloadProfileRecordJIT(Kernel.KernelName.c_str(), Event, Nanos);
  }
  std::string TargetKey;

  std::mutex MlirMutex; // serializes everything that touches the context
  std::unique_ptr<mlir::MLIRContext> Context;

  /// Compiles run on a pool of contexts (OFFLOAD_JIT_THREADS of them,
  /// created on first use), one thread per context at a time, so misses of
  /// different keys compile in parallel.
  struct CompileContext {
    std::unique_ptr<mlir::MLIRContext> Context;
    bool Busy = false;
    /// The host kernel pipelines built in this context, by checking tools
    /// and thread loops (HostKernelPipelineOptions), each built on its first
    /// compile and reused: MLIR initializes the passes of a pass manager
    /// (convert-to-llvm's patterns, ...) on its first run only. Declared
    /// after Context, so destroyed before it.
    std::map<std::pair<uint32_t, bool>, std::unique_ptr<mlir::PassManager>>
        HostPipelines;
  };
  mlir::DialectRegistry Registry;
  std::mutex CompileContextsMutex;
  std::condition_variable CompileContextFree;
  std::vector<CompileContext> CompileContexts;
  std::unique_ptr<mlir::MLIRContext> makeContext() const;
  /// Waits for a free compile context, preferring one where \p Program is
  /// parsed (or context \p Only); returns its index and the context.
  std::pair<unsigned, mlir::MLIRContext *>
  acquireCompileContext(offload_jit_program_impl_t *Program,
                        std::optional<unsigned> Only = std::nullopt);
  void releaseCompileContext(unsigned Index);
  /// The host kernel pipeline for \p Options in \p Ctx, context \p Index
  /// of the pool (held by the caller) or, for \p External, a new one.
  /// Verification between its passes is off: the JIT's input was verified
  /// when its program was created (offload-opt keeps it on).
  mlir::PassManager &
  getHostPipeline(mlir::MLIRContext *Ctx, unsigned Index, bool External,
                  const mlir::offload::HostKernelPipelineOptions &Options,
                  std::unique_ptr<mlir::PassManager> &ExternalPipeline);

public:
  /// The program destructor's work: its modules, each under its context.
  void releaseModules(offload_jit_program_impl_t &Program);

private:
  std::mutex ProgramsMutex;
  std::map<offload_jit_program_impl_t *,
           std::shared_ptr<offload_jit_program_impl_t>>
      Programs;
  std::shared_mutex LiveKernelsMutex;
  llvm::DenseSet<offload_jit_kernel_impl_t *> LiveKernels;
  /// Bumped under LiveKernelsMutex (exclusive) when kernels leave
  /// LiveKernels: forgets every thread's last live kernel (isLive).
  std::atomic<uint64_t> LiveGeneration{1};
  std::map<std::pair<offload_device_handle_t, const void *>,
           offload_jit_program_impl_t *>
      ImagePrograms;

  std::mutex CacheMutex;
  llvm::StringMap<std::shared_ptr<CacheEntry>> Cache;
  /// The launch fast path: xxh3-128 of (kernel prefix, device, launch values
  /// and sizes) -> entry, read under a shared lock. Filled from Cache.
  std::shared_mutex FastMutex;
  llvm::DenseMap<std::pair<uint64_t, uint64_t>, std::shared_ptr<CacheEntry>>
      Fast;
  /// Bumped under FastMutex (exclusive) whenever an entry may leave Fast:
  /// forgets every thread's last hit (resolve's LastHit), which points into
  /// Fast without holding a reference.
  std::atomic<uint64_t> FastGeneration{1};
  std::optional<DiskCache> Disk;

  std::mutex PoolMutex;
  std::unique_ptr<llvm::StdThreadPool> Pool;
};

} // namespace offloadjit

#endif // OFFLOAD_LIB_JIT_ENGINE_H
