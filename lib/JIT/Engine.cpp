//===- Engine.cpp - The JIT engine ----------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The engine's construction, its pool of compile contexts, the keys, the
// in-memory, disk and MPI caches, and the launch path (Engine.h has the
// overview).
//
//===----------------------------------------------------------------------===//

#include "Engine.h"

#include "Compiler.h"
#include "Key.h"
#include "MPICache.h"

#include "OffloadJIT/MLIRModule.h"

#include "OffloadDialect/InitAll.h"
#include "OffloadSupport/CheckTools.h"
#include "OffloadSupport/Environment.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Threading.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <cstring>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

/// OFFLOAD_JIT_STATS=1: one line of counters on stderr when the process ends.
static void printStatsAtExit() {
  offload_jit_stats_t S;
  if (offloadJITGetStats(&S))
    return;
  llvm::errs() << "offload-jit stats: launches=" << S.Launches
               << " compiles=" << S.Compiles << " memory-hits=" << S.MemoryHits
               << " disk-hits=" << S.DiskHits << " disk-writes=" << S.DiskWrites
               << " corrupt-entries=" << S.CorruptEntries
               << " generic-launches=" << S.GenericLaunches
               << " async-compiles=" << S.AsyncCompiles
               << " auto-variants=" << S.AutoVariants
               << " auto-launches=" << S.AutoLaunches
               << " auto-guard-misses=" << S.AutoGuardMisses
               << " auto-profile-loads=" << S.AutoProfileLoads
               << " measured-faster=" << S.MeasuredFaster
               << " measured-slower=" << S.MeasuredSlower
               << " compile-ms=" << llvm::format("%.1f", S.CompileMilliseconds)
               << "\n";
  MPICache::get().printStats(llvm::errs());
}

Engine::Engine()
    : Options(Config::fromEnvironment()), Enabled(Options.Enabled),
      AutoEnabled(Options.Auto) {
  // The caches hold runtime programs: keep the runtime alive (one reference,
  // never released) so that they stay valid across the application's
  // offloadInit/offloadShutDown pairs.
  (void)offloadInit();
  mlir::offload::jit::registerDialects(Registry);
  Context = makeContext();
  CompileContexts.resize(std::max(1u, Options.Threads));

  // The target part of every key: what the host target compiles for.
  llvm::StringMap<bool> Features = llvm::sys::getHostCPUFeatures();
  std::string FeatureList;
  for (const auto &Feature : Features)
    FeatureList += (Feature.second ? "+" : "-") + Feature.first().str() + ",";
  TargetKey = "host;" + llvm::sys::getProcessTriple() + ";" +
              llvm::sys::getHostCPUName().str() + ";" +
              llvm::utohexstr(llvm::xxh3_64bits(FeatureList));

  if (std::optional<std::string> Dir = DiskCache::getDefaultDirectory()) {
    Disk.emplace(*Dir, DiskCache::getDefaultMaxBytes());
    // Writes collect them too, but a process whose lookups all hit writes
    // nothing.
    Disk->removeStaleTemporaries();
  }
  Timeline = offloadTraceEnabled();
  Profiling = offloadProfileEnabled();
  if (::offload::env::JITStats.getFlag(false))
    std::atexit(printStatsAtExit);
}

/// Loads the dialects of \p Ctx's pass managers: what PassManager::run would
/// load at its first run, loaded before specialization so that it sees the
/// same dialects (and canonicalization patterns) at every compile, as
/// `offload-specialize` does in offload-opt's pipeline.
static void loadDependentDialects(MLIRContext &Ctx, const PassManager &PM) {
  DialectRegistry Dependent;
  PM.getDependentDialects(Dependent);
  Ctx.appendDialectRegistry(Dependent);
  for (StringRef Name : Dependent.getDialectNames())
    Ctx.getOrLoadDialect(Name);
}

std::unique_ptr<MLIRContext> Engine::makeContext() const {
  // Each context is used by one thread at a time: no locks, no thread pool.
  auto New =
      std::make_unique<MLIRContext>(Registry, MLIRContext::Threading::DISABLED);
  // Not every dialect of the registry (loadAllAvailableDialects: about
  // 22 M instructions per context, more than a small kernel's compile):
  // what specialization creates (the `offload-specialize` pass's dependent
  // dialects); the parser loads a module's own dialects, the host pipeline
  // its passes' (getHostPipeline), a GPU pipeline's PassManager::run its
  // own.
  New->loadDialect<mlir::offload::OffloadDialect, gpu::GPUDialect,
                   arith::ArithDialect, memref::MemRefDialect,
                   scf::SCFDialect>();
  return New;
}

std::pair<unsigned, MLIRContext *>
Engine::acquireCompileContext(offload_jit_program_impl_t *Program,
                              std::optional<unsigned> Only) {
  std::unique_lock<std::mutex> Lock(CompileContextsMutex);
  std::optional<unsigned> Chosen;
  CompileContextFree.wait(Lock, [&] {
    if (Only) {
      if (!CompileContexts[*Only].Busy)
        Chosen = *Only;
      return Chosen.has_value();
    }
    std::lock_guard<std::mutex> ParsedLock(Program->ParsedMutex);
    for (unsigned I = 0, E = CompileContexts.size(); I < E; ++I) {
      if (CompileContexts[I].Busy)
        continue;
      if (!Chosen || Program->Parsed.count(I))
        Chosen = I;
      if (Program->Parsed.count(I))
        break;
    }
    return Chosen.has_value();
  });
  CompileContext &Slot = CompileContexts[*Chosen];
  Slot.Busy = true;
  if (!Slot.Context)
    Slot.Context = makeContext();
  return {*Chosen, Slot.Context.get()};
}

PassManager &
Engine::getHostPipeline(MLIRContext *Ctx, unsigned Index, bool External,
                        const mlir::offload::HostKernelPipelineOptions &Options,
                        std::unique_ptr<PassManager> &ExternalPipeline) {
  auto Build = [&] {
    auto PM = std::make_unique<PassManager>(Ctx);
    // The module was verified when its program was created, and each
    // compile's clone is changed only by specialization and these passes.
    PM->enableVerifier(false);
    mlir::offload::buildHostKernelPipeline(*PM, Options);
    loadDependentDialects(*Ctx, *PM);
    return PM;
  };
  // A caller's context may be destroyed and another one made at its
  // address: no pass manager outlives the compile there.
  if (External) {
    ExternalPipeline = Build();
    return *ExternalPipeline;
  }
  // Context Index is held by this thread (Busy): no lock needed.
  std::unique_ptr<PassManager> &PM =
      CompileContexts[Index]
          .HostPipelines[{Options.checkTools, Options.threadLoops}];
  if (!PM)
    PM = Build();
  return *PM;
}

void Engine::releaseCompileContext(unsigned Index) {
  {
    std::lock_guard<std::mutex> Lock(CompileContextsMutex);
    CompileContexts[Index].Busy = false;
  }
  CompileContextFree.notify_all();
}

void Engine::releaseModules(offload_jit_program_impl_t &Program) {
  std::map<unsigned, OwningOpRef<ModuleOp>> Parsed;
  {
    std::lock_guard<std::mutex> Lock(Program.ParsedMutex);
    Parsed.swap(Program.Parsed);
  }
  for (auto &[Index, Module] : Parsed) {
    acquireCompileContext(&Program, Index);
    Module = nullptr;
    releaseCompileContext(Index);
  }
  std::lock_guard<std::mutex> Lock(MlirMutex);
  if (Program.External) {
    std::lock_guard<std::mutex> ContextLock(
        getExternalContextMutex(Program.External));
    Program.Module = nullptr;
    return;
  }
  Program.Module = nullptr;
}

offload_jit_program_impl_t::~offload_jit_program_impl_t() {
  Engine::get().releaseModules(*this);
}

//===----------------------------------------------------------------------===//
// Keys, caches
//===----------------------------------------------------------------------===//

std::string
Engine::getOptionsKey(const offload_jit_program_impl_t &Program) const {
  return Options.Specialization.getKey() +
         ";thread-loops=" + (Options.ThreadLoops ? "1" : "0") + ";check=" +
         ::offload::formatCheckTools(Options.CheckTools | Program.CheckTools);
}

std::string Engine::getKey(offload_jit_kernel_impl_t &Kernel,
                           const LaunchRequest &Request) {
  KeyInputs Inputs;
  Inputs.ModuleHash = Kernel.Program->ModuleHash;
  Inputs.Kernel = Kernel.ModuleName + "::" + Kernel.KernelName;
  Inputs.Target = Kernel.Program->TargetKey;
  Inputs.CompilerVersion = getCompilerVersion();
  Inputs.Options = getOptionsKey(*Kernel.Program);
  Inputs.Specialized = Request.Specialize;
  if (Request.Specialize) {
    Inputs.Values = Request.Values;
    Inputs.Block = Request.Block;
    Inputs.Grid = Request.Grid;
  }
  return computeKey(Inputs);
}

std::optional<std::vector<char>>
Engine::readFromDisk(const std::string &Key,
                     const offload_jit_kernel_impl_t &Kernel) {
  if (!Disk)
    return std::nullopt;
  std::string Problem;
  std::optional<std::vector<char>> Payload =
      Disk->read(getIdentity(Key, Kernel), Problem);
  if (!Problem.empty()) {
    ++Counters.CorruptEntries;
    trace(Problem + "; deleted and rebuilt");
  }
  if (Payload) {
    ++Counters.DiskHits;
    profile(Kernel, OFFLOAD_PROFILE_JIT_DISK_HIT);
    trace("disk hit " + Kernel.KernelName + " key=" + Key);
  }
  return Payload;
}

void Engine::finishEntry(CacheEntry &Entry, offload_device_handle_t Device,
                         const std::optional<std::vector<char>> &Payload,
                         offload_result_t Error, bool FromDisk) {
  if (Payload) {
    const char *Name = Payload->data();
    size_t NameLength = strnlen(Name, Payload->size());
    const char *Object = Name + NameLength + 1;
    size_t ObjectSize = Payload->size() - NameLength - 1;
    Error = offloadCreateProgram(Device, Object, ObjectSize, &Entry.Program);
    if (!Error)
      Error = offloadGetSymbol(Entry.Program, Name, OFFLOAD_SYMBOL_KIND_KERNEL,
                               &Entry.Symbol);
  }
  std::lock_guard<std::mutex> Lock(Entry.Mutex);
  Entry.Error = Error;
  Entry.FromDisk = FromDisk;
  Entry.Done.store(true, std::memory_order_release);
  Entry.Ready.notify_all();
}

void Engine::compileEntry(CacheEntry &Entry, const std::string &Key,
                          offload_device_handle_t Device,
                          std::shared_ptr<offload_jit_program_impl_t> Program,
                          offload_jit_kernel_impl_t &Kernel,
                          const LaunchRequest &Request, bool DiskChecked) {
  std::optional<std::vector<char>> Payload;
  if (!DiskChecked)
    Payload = readFromDisk(Key, Kernel);
  // OFFLOAD_JIT_CACHE_MPI=1: another rank owns this key and writes it to the
  // shared disk cache (MPICache.h).
  if (!Payload && Disk && MPICache::get().waitsFor(Key))
    Payload =
        MPICache::get().wait(Key, [&] { return readFromDisk(Key, Kernel); });
  if (Payload)
    return finishEntry(Entry, Device, Payload, OFFLOAD_SUCCESS,
                       /*FromDisk=*/true);

  uint64_t TraceStart = Timeline ? offloadTraceNow() : 0;
  uint64_t Micros = 0;
  std::string Phases;
  llvm::Expected<std::vector<char>> Compiled =
      compile(*Program, Kernel, Request, Micros, Phases);
  Counters.CompileMicroseconds += Micros;
  ++Counters.Compiles;
  profile(Kernel, OFFLOAD_PROFILE_JIT_COMPILE, Micros * 1000);
  if (Timeline)
    offloadTraceRecord(("compile " + Kernel.KernelName).c_str(), "jit",
                       "jit compiles", TraceStart,
                       offloadTraceNow() - TraceStart, ("key " + Key).c_str());
  offload_result_t Error = OFFLOAD_SUCCESS;
  if (!Compiled) {
    Error = makeError(OFFLOAD_ERRC_COMPILE_FAILURE,
                      "cannot compile kernel '" + Kernel.KernelName +
                          "': " + llvm::toString(Compiled.takeError()));
  } else {
    Payload = std::move(*Compiled);
    trace("compiled " + Kernel.KernelName + " key=" + Key + " in " +
          llvm::Twine(Micros) + " us (" + Phases + ")");
    // A slow compile is worth a word even without tracing.
    if (!Options.Trace && Micros > 1000000)
      llvm::errs() << "offload-jit: compiling kernel '" << Kernel.KernelName
                   << "' took " << llvm::format("%.1f", Micros / 1e6)
                   << " s (the disk cache keeps it for later runs; "
                      "OFFLOAD_JIT_ASYNC=1 runs the generic kernel while a "
                      "specialization compiles)\n";
    if (Disk) {
      if (llvm::Error E = Disk->write(getIdentity(Key, Kernel), *Payload)) {
        std::string Message = llvm::toString(std::move(E));
        trace("cannot write the disk cache: " + Message);
        // The user gets the compile but not the cache they expect: say so
        // once per process, tracing or not (the launch goes on).
        static std::once_flag Warned;
        std::call_once(Warned, [&] {
          llvm::errs() << "offload-jit: warning: the disk cache is not "
                          "written ("
                       << Message
                       << "); kernels are compiled again in each process "
                          "(OFFLOAD_CACHE_DIR= turns the disk cache off)\n";
        });
      } else
        ++Counters.DiskWrites;
    }
  }
  finishEntry(Entry, Device, Payload, Error, /*FromDisk=*/false);
}

std::shared_ptr<CacheEntry>
Engine::getOrCompile(const std::string &Key, offload_device_handle_t Device,
                     offload_jit_kernel_impl_t &Kernel,
                     const LaunchRequest &Request, bool Background,
                     bool *Created) {
  std::string MemoryKey =
      Key + "@" + std::to_string(reinterpret_cast<uintptr_t>(Device));
  std::shared_ptr<CacheEntry> Entry;
  bool Owner = false;
  {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    std::shared_ptr<CacheEntry> &Slot = Cache[MemoryKey];
    if (!Slot) {
      Slot = std::make_shared<CacheEntry>();
      Slot->Specialized = Request.Specialize;
      Slot->Key = Key;
      Owner = true;
    }
    Entry = Slot;
  }
  if (Created)
    *Created = Owner;
  std::shared_ptr<offload_jit_program_impl_t> Program =
      Kernel.Program->shared_from_this();
  if (Owner && Background) {
    // A warm disk cache serves the specialization now; only a compile goes
    // to the background.
    if (std::optional<std::vector<char>> Payload = readFromDisk(Key, Kernel)) {
      finishEntry(*Entry, Device, Payload, OFFLOAD_SUCCESS, /*FromDisk=*/true);
      return Entry;
    }
    ++Counters.AsyncCompiles;
    std::lock_guard<std::mutex> Lock(PoolMutex);
    if (!Pool)
      Pool = std::make_unique<llvm::StdThreadPool>(
          llvm::hardware_concurrency(Options.Threads));
    Pool->async([this, Entry, Key, Device, Program, &Kernel, Request] {
      compileEntry(*Entry, Key, Device, Program, Kernel, Request,
                   /*DiskChecked=*/true);
    });
    return Entry;
  }
  if (Owner) {
    compileEntry(*Entry, Key, Device, Program, Kernel, Request,
                 /*DiskChecked=*/false);
    return Entry;
  }
  if (Background)
    return Entry;
  std::unique_lock<std::mutex> Lock(Entry->Mutex);
  Entry->Ready.wait(Lock, [&] { return Entry->Done.load(); });
  ++Counters.MemoryHits;
  profile(Kernel, OFFLOAD_PROFILE_JIT_MEMORY_HIT);
  return Entry;
}

//===----------------------------------------------------------------------===//
// Launch
//===----------------------------------------------------------------------===//

offload_result_t
Engine::launch(offload_queue_handle_t Queue, offload_device_handle_t Device,
               offload_jit_kernel_handle_t Kernel, const void *Args,
               size_t ArgsSize,
               const offload_kernel_launch_size_args_t *Sizes) {
  offload_symbol_handle_t Symbol = nullptr;
  CacheEntry *Entry = nullptr;
  bool Counted = false;
  if (offload_result_t R = resolve(Queue, Device, Kernel, Args, ArgsSize, Sizes,
                                   Symbol, &Entry, &Counted))
    return R;
  if (!Counted)
    ++Counters.Launches;
  // A new specialization is measured against the generic kernel first
  // (NeverSlower.h).
  if (Options.Measure.Enabled && Entry && Entry->Specialized &&
      Entry->Trial.pending())
    return Entry->Trial.launch(
        Queue, Device, Kernel->Program->DeviceIsHost, Entry->Symbol, Args,
        ArgsSize, Sizes,
        [&](offloadjit::GenericKernel &Out) -> offload_result_t {
          LaunchRequest Generic;
          std::shared_ptr<CacheEntry> G =
              getOrCompile(getKey(*Kernel, Generic), Device, *Kernel, Generic,
                           /*Background=*/false);
          if (G->Error)
            return G->Error;
          Out.Symbol = G->Symbol;
          Out.Owner = G;
          return OFFLOAD_SUCCESS;
        },
        Disk ? offloadjit::getVerdictPath(Disk->getDirectory(), Entry->Key)
             : std::string(),
        Kernel->KernelName, Entry->Key, Options.Measure, MeasureCounts);
  return offloadLaunchKernel(Queue, Device, Symbol, Args, ArgsSize, Sizes);
}

offload_result_t Engine::resolve(offload_queue_handle_t Queue,
                                 offload_device_handle_t Device,
                                 offload_jit_kernel_handle_t Kernel,
                                 const void *Args, size_t ArgsSize,
                                 const offload_kernel_launch_size_args_t *Sizes,
                                 offload_symbol_handle_t &Symbol,
                                 CacheEntry **Resolved, bool *CountedLaunch) {
  // The entry point checked the handles and LaunchSizeArgs (generated from
  // OffloadJITAPI.td); what depends on two arguments is checked here.
  if (ArgsSize != Kernel->ArgumentsSize)
    return makeError(OFFLOAD_ERRC_INVALID_SIZE,
                     "ArgumentsSize is " + std::to_string(ArgsSize) +
                         " bytes but kernel '" + Kernel->KernelName +
                         "' takes " + std::to_string(Kernel->ArgumentsSize));
  if (ArgsSize && !Args)
    return makeError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                     "ArgumentsData is null but ArgumentsSize is " +
                         std::to_string(ArgsSize));

  // Fast path: hash what this launch's specialization depends on, as it lies
  // in the argument buffer (and, for contents, in host memory), and look the
  // hash up under a shared lock. Only misses build keys and requests.
  bool Specialize = Enabled;
  // `contents` are the values the kernel sees when it runs, after the work
  // enqueued before it: wait for that work before reading them.
  if (Specialize && Queue && Kernel->HasContents)
    if (offload_result_t R = offloadSyncQueue(Queue))
      return R;
  const char *Base = static_cast<const char *>(Args);
  llvm::SmallVector<uint8_t, 256> Bytes;
  auto Append = [&](const void *Data, size_t Size) {
    const uint8_t *P = static_cast<const uint8_t *>(Data);
    Bytes.append(P, P + Size);
  };
  Append(&Kernel->Prefix, sizeof(Kernel->Prefix));
  Append(&Device, sizeof(Device));
  Bytes.push_back(Specialize);
  bool FastPath = Kernel->Program->DeviceIsHost;
  if (Specialize && FastPath && !Kernel->HasContents) {
    // Scalars only: the byte ranges recorded when the kernel was made.
    for (auto [Offset, Size] : Kernel->ScalarKeyRanges)
      Append(Base + Offset, Size);
    Append(&Sizes->GroupSize, sizeof(Sizes->GroupSize));
    if (Options.FoldGrid)
      Append(&Sizes->NumGroups, sizeof(Sizes->NumGroups));
  } else if (Specialize && FastPath) {
    for (const Argument &Arg : Kernel->Arguments) {
      if (!Arg.RuntimeConstant)
        continue;
      const Field &First = Kernel->Fields[Arg.FirstField];
      if (!Arg.Contents) {
        Append(Base + First.Offset, First.Size);
        continue;
      }
      // The descriptor's offset, sizes and strides, then the footprint's
      // bytes: equal hashes mean equal elements.
      auto MemRef = cast<MemRefType>(Arg.ArgType);
      const Field &Offset =
          Kernel->Fields[Arg.FirstField + ::offload::kernelargs::kOffsetField];
      const Field &Last =
          Kernel->Fields[Arg.FirstField +
                         ::offload::kernelargs::getMemRefFieldCount(
                             MemRef.getRank()) -
                         1];
      Append(Base + Offset.Offset, Last.Offset + Last.Size - Offset.Offset);
      llvm::Expected<ContentsView> View = getContentsView(
          MemRef, llvm::ArrayRef(Kernel->Fields).slice(Arg.FirstField), Base);
      if (!View) {
        llvm::consumeError(View.takeError());
        FastPath = false; // the slow path reports it
        break;
      }
      Append(View->Begin, View->Bytes);
    }
    Append(&Sizes->GroupSize, sizeof(Sizes->GroupSize));
    if (Options.FoldGrid)
      Append(&Sizes->NumGroups, sizeof(Sizes->NumGroups));
  }
  // Automatic specialization: the variant whose values this launch's hold
  // (AutoSpecialize.h) enters the lookup.
  const offloadjit::AutoVariant *AutoVariant =
      Specialize && Kernel->Auto && AutoEnabled.load(std::memory_order_relaxed)
          ? Kernel->Auto->observe(Base)
          : nullptr;
  if (AutoVariant)
    Append(&AutoVariant->Id, sizeof(AutoVariant->Id));
  uint64_t LookupStart = Timeline ? offloadTraceNow() : 0;
  auto TraceLookup = [&](const char *Outcome) {
    if (Timeline)
      offloadTraceRecord(("jit lookup " + Kernel->KernelName).c_str(), "jit",
                         "jit lookups", LookupStart,
                         offloadTraceNow() - LookupStart, Outcome);
  };
  // This thread's last hit: the lookup bytes and the entry Fast maps them
  // to, valid while FastGeneration is unchanged (entries leave Fast only
  // when it changes). A launch loop over the same kernel and values hits
  // here: no hash, no lock. The entry is done and without error.
  struct LastHit {
    uint64_t Generation = 0;
    CacheEntry *Entry = nullptr;
    uint32_t Size = 0;
    uint8_t Bytes[128];
  };
  static thread_local LastHit Last;
  // A launch's hit counts the launch too, in one increment.
  auto Hit = [&](CacheEntry &E) {
    if (CountedLaunch) {
      ++Counters.HitLaunches;
      *CountedLaunch = true;
    } else {
      ++Counters.MemoryHits;
    }
    profile(*Kernel, OFFLOAD_PROFILE_JIT_MEMORY_HIT);
    if (!Specialize)
      ++Counters.GenericLaunches;
    Symbol = E.Trial.choose(E.Symbol);
    if (Resolved)
      *Resolved = &E;
  };
  // Called with FastMutex held (either way), so that the generation is the
  // one in which Fast holds \p E.
  auto Remember = [&](CacheEntry *E) {
    if (Bytes.size() > sizeof(Last.Bytes))
      return;
    Last.Generation = FastGeneration.load(std::memory_order_relaxed);
    Last.Entry = E;
    Last.Size = Bytes.size();
    std::memcpy(Last.Bytes, Bytes.data(), Bytes.size());
  };
  if (FastPath && Last.Size == Bytes.size() && Last.Entry &&
      Last.Generation == FastGeneration.load(std::memory_order_acquire) &&
      std::memcmp(Last.Bytes, Bytes.data(), Bytes.size()) == 0) {
    Hit(*Last.Entry);
    TraceLookup("memory hit");
    return OFFLOAD_SUCCESS;
  }
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(Bytes);
  std::pair<uint64_t, uint64_t> FastKey{Hash.high64, Hash.low64};
  if (FastPath) {
    std::shared_lock<std::shared_mutex> Lock(FastMutex);
    auto It = Fast.find(FastKey);
    if (It != Fast.end() && It->second->Done.load(std::memory_order_acquire) &&
        !It->second->Error) {
      Hit(*It->second);
      Remember(It->second.get());
      Lock.unlock();
      TraceLookup("memory hit");
      return OFFLOAD_SUCCESS;
    }
  }

  LaunchRequest Generic;
  LaunchRequest Request;
  Request.Specialize = Specialize;
  if (Request.Specialize) {
    Request.Block = {int32_t(Sizes->GroupSize.x), int32_t(Sizes->GroupSize.y),
                     int32_t(Sizes->GroupSize.z)};
    if (Options.FoldGrid)
      Request.Grid = {int32_t(Sizes->NumGroups.x), int32_t(Sizes->NumGroups.y),
                      int32_t(Sizes->NumGroups.z)};
    for (auto [Index, Arg] : llvm::enumerate(Kernel->Arguments)) {
      if (!Arg.RuntimeConstant)
        continue;
      const Field &First = Kernel->Fields[Arg.FirstField];
      if (!Arg.Contents) {
        Request.Values.push_back(
            {Index, std::vector<char>(Base + First.Offset,
                                      Base + First.Offset + First.Size)});
        continue;
      }
      // The elements, copied from wherever the memref lives.
      auto MemRef = cast<MemRefType>(Arg.ArgType);
      uint64_t ElementSize = getFieldSize(MemRef.getElementType());
      if (MemRef.getElementType().getIntOrFloatBitWidth() % 8 != 0)
        continue; // not byte-addressable (i1): stays generic
      if (MemRef.getNumElements() == 0)
        continue;
      llvm::Expected<ContentsView> View = getContentsView(
          MemRef, llvm::ArrayRef(Kernel->Fields).slice(Arg.FirstField), Base);
      if (!View)
        return makeError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "argument " + std::to_string(Index) + " of kernel '" +
                             Kernel->KernelName + "' (runtime_constant " +
                             "contents): " + toString(View.takeError()));
      // The footprint, copied from wherever the memref lives, then its
      // elements in row-major order.
      std::vector<char> Footprint(View->Bytes);
      offload_device_handle_t Host = nullptr;
      if (offload_result_t R = offloadGetHostDevice(&Host))
        return R;
      if (offload_result_t R =
              offloadMemcpy(nullptr, Footprint.data(), Host, View->Begin,
                            Device, Footprint.size()))
        return R;
      if (View->Contiguous) {
        Request.Values.push_back({Index, std::move(Footprint)});
        continue;
      }
      std::vector<char> Elements(View->Positions.size() * ElementSize);
      for (auto [I, Position] : llvm::enumerate(View->Positions))
        std::memcpy(Elements.data() + I * ElementSize,
                    Footprint.data() + Position * ElementSize, ElementSize);
      Request.Values.push_back({Index, std::move(Elements)});
    }
    if (AutoVariant)
      Kernel->Auto->appendValues(*AutoVariant, Request.Values);
  }

  std::shared_ptr<CacheEntry> Entry;
  bool GenericStandIn = false;
  if (!Request.Specialize) {
    ++Counters.GenericLaunches;
    Entry = getOrCompile(getKey(*Kernel, Generic), Device, *Kernel, Generic,
                         /*Background=*/false);
  } else if (Options.Async) {
    bool Created = false;
    Entry = getOrCompile(getKey(*Kernel, Request), Device, *Kernel, Request,
                         /*Background=*/true, &Created);
    bool Ready = Entry->Done.load(std::memory_order_acquire) && !Entry->Error;
    if (Ready) {
      if (!Created) { // else just read from disk
        ++Counters.MemoryHits;
        profile(*Kernel, OFFLOAD_PROFILE_JIT_MEMORY_HIT);
      }
    } else {
      ++Counters.GenericLaunches;
      GenericStandIn = true;
      Entry = getOrCompile(getKey(*Kernel, Generic), Device, *Kernel, Generic,
                           /*Background=*/false);
    }
  } else {
    Entry = getOrCompile(getKey(*Kernel, Request), Device, *Kernel, Request,
                         /*Background=*/false);
  }
  if (Entry->Error)
    return Entry->Error;
  Symbol = Entry->Trial.choose(Entry->Symbol);
  if (Resolved)
    *Resolved = Entry.get();
  // Remember it for the fast path, unless it is the generic stand-in of an
  // asynchronous compile still running.
  if (FastPath && !GenericStandIn) {
    std::unique_lock<std::shared_mutex> Lock(FastMutex);
    std::shared_ptr<CacheEntry> &Slot = Fast[FastKey];
    // A replaced entry may be some thread's last hit.
    if (Slot && Slot != Entry)
      FastGeneration.fetch_add(1, std::memory_order_release);
    Slot = Entry;
    if (Entry->Done.load(std::memory_order_acquire))
      Remember(Entry.get());
  }
  TraceLookup(GenericStandIn    ? "miss: generic kernel while compiling"
              : Entry->FromDisk ? "miss: found on disk"
                                : "miss: compiled");
  return OFFLOAD_SUCCESS;
}
