//===- JIT.cpp - Run-time kernel specialization ---------------------------===//
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
//===----------------------------------------------------------------------===//

#include "OffloadJIT/OffloadJIT.h"
#include "OffloadJIT/MLIRModule.h"

#include "DeviceCompiler.h"
#include "DiskCache.h"
#include "Key.h"
#include "MPICache.h"
#include "ModuleProgram.h"

#include "OffloadDialect/Conversion/Passes.h"
#include "OffloadDialect/Conversion/Pipelines/Pipelines.h"
#include "OffloadDialect/InitAll.h"
#include "OffloadDialect/Support/ParserCrash.h"
#include "OffloadDialect/Transforms/Specialize.h"
#include "OffloadRuntime/HostKernelABI.h"
#include "OffloadSupport/CheckTools.h"

#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ThreadPool.h"

#include <cstddef>
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/TargetParser/Host.h"

#include <atomic>
#include <link.h>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <ctime>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>

using namespace mlir;
using mlir::offload::KernelSpecialization;
using mlir::offload::SpecializationOptions;
using namespace offloadjit;

#define OFFLOAD_JIT_STRINGIFY_IMPL(X) #X
#define OFFLOAD_JIT_STRINGIFY(X) OFFLOAD_JIT_STRINGIFY_IMPL(X)

/// The GNU build ID (NT_GNU_BUILD_ID) of the loaded object that holds this
/// function, as hex; "" when it has none. The compiler's passes are linked
/// into that object, so any rebuild of them changes it, also between commits
/// and with uncommitted changes (which OFFLOAD_COMPILER_REVISION, fixed when
/// CMake configures, does not see).
static std::string getOwnBuildId() {
  struct Search {
    uintptr_t Address;
    std::string Id;
  } S{reinterpret_cast<uintptr_t>(&getOwnBuildId), {}};
  dl_iterate_phdr(
      [](struct dl_phdr_info *Info, size_t, void *Data) -> int {
        auto &S = *static_cast<Search *>(Data);
        bool Contains = false;
        for (unsigned I = 0; I < Info->dlpi_phnum && !Contains; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          uintptr_t Start = Info->dlpi_addr + P.p_vaddr;
          Contains = P.p_type == PT_LOAD && S.Address >= Start &&
                     S.Address < Start + P.p_memsz;
        }
        if (!Contains)
          return 0;
        for (unsigned I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Info->dlpi_phdr[I];
          if (P.p_type != PT_NOTE)
            continue;
          const char *Note =
              reinterpret_cast<const char *>(Info->dlpi_addr + P.p_vaddr);
          const char *End = Note + P.p_memsz;
          while (Note + sizeof(ElfW(Nhdr)) <= End) {
            const auto *Header = reinterpret_cast<const ElfW(Nhdr) *>(Note);
            const char *Name = Note + sizeof(ElfW(Nhdr));
            const char *Desc = Name + llvm::alignTo(Header->n_namesz, 4);
            if (Header->n_type == NT_GNU_BUILD_ID && Header->n_namesz == 4 &&
                std::memcmp(Name, "GNU", 4) == 0 &&
                Desc + Header->n_descsz <= End) {
              S.Id = llvm::toHex(
                  llvm::StringRef(Desc, Header->n_descsz), /*LowerCase=*/true);
              return 1;
            }
            Note = Desc + llvm::alignTo(Header->n_descsz, 4);
          }
        }
        return 1;
      },
      &S);
  return S.Id;
}

/// The compiler that produces the cached code: LLVM's version, this
/// project's revision (set by CMake), the build ID of the library the
/// compiler is linked into, and the host kernel ABI's version, so that
/// objects of another compiler or ABI are never loaded from the disk cache.
static const std::string &getCompilerVersion() {
  static const std::string Version =
      "llvm-" LLVM_VERSION_STRING ";offload-" OFFLOAD_COMPILER_REVISION
      ";build-" +
      getOwnBuildId() +
      ";host-abi-" OFFLOAD_JIT_STRINGIFY(OFFLOAD_HOST_KERNEL_ABI_VERSION);
  return Version;
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/// Errors live until the process exits, like the runtime's.
static offload_result_t makeError(offload_errc_t Code, std::string Message) {
  static std::mutex Mutex;
  static std::deque<std::string> Messages;
  static std::deque<offload_error_struct_t> Errors;
  std::lock_guard<std::mutex> Lock(Mutex);
  Messages.push_back(std::move(Message));
  Errors.push_back({Code, Messages.back().c_str()});
  return &Errors.back();
}

offload_result_t offloadjit::makeJITError(offload_errc_t Code,
                                          std::string Message) {
  return makeError(Code, std::move(Message));
}

//===----------------------------------------------------------------------===//
// Kernel argument layout
//===----------------------------------------------------------------------===//

namespace {
/// One field of the packed argument buffer.
struct Field {
  uint64_t Offset = 0, Size = 0;
};

/// What the JIT knows about one kernel argument.
struct Argument {
  Type ArgType;
  unsigned FirstField = 0;
  /// Marked by offload.runtime_constant (and how).
  bool RuntimeConstant = false;
  bool Contents = false;
};

/// The raw launch-time value of one runtime constant (the scalar's bytes or
/// the array's elements), and everything else the key depends on.
struct LaunchRequest {
  std::vector<std::pair<unsigned, std::vector<char>>> Values;
  std::array<int32_t, 3> Block{1, 1, 1};
  std::optional<std::array<int32_t, 3>> Grid;
  bool Specialize = false;
};
} // namespace

/// Size (and alignment) in bytes of one lowered field, as LLVM lays out a
/// struct of them on the host: the layout convert-offload-to-llvm packs.
static uint64_t getFieldSize(Type Ty) {
  if (isa<IndexType>(Ty))
    return 8;
  if (auto Int = dyn_cast<IntegerType>(Ty))
    return llvm::PowerOf2Ceil(std::max<uint64_t>(1, (Int.getWidth() + 7) / 8));
  if (auto Float = dyn_cast<FloatType>(Ty))
    return llvm::PowerOf2Ceil((Float.getWidth() + 7) / 8);
  return 8; // pointers
}

namespace {
/// Where the elements of a `contents` memref argument lie: its descriptor
/// (allocated, aligned, offset, sizes, strides) read from the packed
/// argument buffer. The elements span the footprint [Begin, Begin + Bytes)
/// of device memory; element I (row-major) is at Begin + Positions[I] *
/// ElementSize.
struct ContentsView {
  const char *Begin = nullptr;
  uint64_t Bytes = 0, ElementSize = 0;
  bool Contiguous = true;
  std::vector<int64_t> Positions; // only when not contiguous
};
} // namespace

/// Reads the descriptor of memref argument \p Fields (3 + 2 * rank fields
/// of \p Base) of static shape \p Type. Fails with a message when its sizes
/// are not the type's or its footprint does not fit in memory.
static llvm::Expected<ContentsView>
getContentsView(MemRefType Type, llvm::ArrayRef<Field> Fields,
                const char *Base) {
  auto Read = [&](unsigned I) {
    int64_t V = 0;
    std::memcpy(&V, Base + Fields[I].Offset, sizeof(V));
    return V;
  };
  ContentsView View;
  View.ElementSize = getFieldSize(Type.getElementType());
  if (Type.getNumElements() == 0)
    return View;
  int64_t Rank = Type.getRank(), Offset = Read(2);
  const char *Aligned = nullptr;
  std::memcpy(&Aligned, Base + Fields[1].Offset, sizeof(Aligned));
  // The lowest and highest element positions, relative to Offset.
  int64_t Low = 0, High = 0, Expected = 1;
  bool Contiguous = true;
  for (int64_t D = Rank - 1; D >= 0; --D) {
    int64_t Size = Read(3 + D), Stride = Read(3 + Rank + D);
    if (Size != Type.getDimSize(D))
      return llvm::createStringError(
          "dimension " + std::to_string(D) + " of the memref is " +
          std::to_string(Size) + " at launch but " +
          std::to_string(Type.getDimSize(D)) + " in the kernel's type");
    int64_t Extent;
    if (__builtin_mul_overflow(Size - 1, Stride, &Extent) ||
        __builtin_add_overflow(Extent < 0 ? Low : High, Extent,
                               Extent < 0 ? &Low : &High))
      return llvm::createStringError("the memref's strides overflow");
    Contiguous &= Size == 1 || Stride == Expected;
    Expected *= Size;
  }
  uint64_t Span;
  if (__builtin_add_overflow(uint64_t(High - Low), uint64_t(1), &Span) ||
      __builtin_mul_overflow(Span, View.ElementSize, &View.Bytes) ||
      View.Bytes > (uint64_t(1) << 32))
    return llvm::createStringError("the memref spans more than 4 GiB");
  View.Begin = Aligned + (Offset + Low) * int64_t(View.ElementSize);
  View.Contiguous = Contiguous;
  if (!Contiguous) {
    View.Positions.resize(Type.getNumElements());
    for (int64_t I = 0, E = View.Positions.size(); I < E; ++I) {
      int64_t Position = -Low, Rest = I;
      for (int64_t D = Rank - 1; D >= 0; --D) {
        Position += (Rest % Type.getDimSize(D)) * Read(3 + Rank + D);
        Rest /= Type.getDimSize(D);
      }
      View.Positions[I] = Position;
    }
  }
  return View;
}

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

struct offload_jit_program_impl_t
    : std::enable_shared_from_this<offload_jit_program_impl_t> {
  offload_device_handle_t Device = nullptr;
  /// Device is the host device: launch values are read in place.
  bool DeviceIsHost = false;
  /// CUDA and HIP devices: what the JIT compiles for.
  std::optional<DeviceTarget> GPUTarget;
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
  OwningOpRef<ModuleOp> Module;
  /// The caller's context of a program made from a module (Module lives
  /// there, and its compiles run there under getExternalContextMutex); null
  /// for programs made from bytes.
  MLIRContext *External = nullptr;
  std::mutex KernelsMutex;
  llvm::StringMap<std::unique_ptr<offload_jit_kernel_impl_t>> Kernels;
  /// The module parsed in each compile context that compiled one of its
  /// kernels (by context index): touched only by the thread holding that
  /// context; the map itself under ParsedMutex.
  std::mutex ParsedMutex;
  std::map<unsigned, OwningOpRef<ModuleOp>> Parsed;
  /// Releases the modules, each under its context.
  ~offload_jit_program_impl_t();
};

struct offload_jit_kernel_impl_t {
  offload_jit_program_impl_t *Program = nullptr;
  /// xxh3-128 of everything constant in this kernel's keys (module, kernel,
  /// target, compiler, options): the start of every in-memory lookup.
  llvm::XXH128_hash_t Prefix{};
  std::string ModuleName, KernelName;
  std::vector<Argument> Arguments;
  std::vector<Field> Fields;
  uint64_t ArgumentsSize = 0;
  bool HasRuntimeConstants = false;
  /// Some runtime constant is a `contents` memref: its launch values are in
  /// memory that earlier work on the launch's queue may still write.
  bool HasContents = false;
  /// What offloadJITGetKernelSignature returns: one line per argument.
  std::string Signature;
};

namespace {
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
  std::string DumpDir;
  SpecializationOptions Specialization;

  /// The first setting whose value means nothing ("OFFLOAD_JIT=banana:
  /// expected ..."); every JIT call then fails with it.
  std::string Problem;

  static Config fromEnvironment() {
    Config C;
    auto Env = [](const char *Name) -> StringRef {
      const char *Value = std::getenv(Name);
      return Value ? StringRef(Value).trim() : StringRef();
    };
    // A flag: unset or empty is Default; 1/true/on/yes and 0/false/off/no.
    auto Flag = [&](const char *Name, bool Default) {
      StringRef V = Env(Name);
      if (V.empty())
        return Default;
      for (StringRef Yes : {"1", "true", "on", "yes"})
        if (V.equals_insensitive(Yes))
          return true;
      for (StringRef No : {"0", "false", "off", "no"})
        if (V.equals_insensitive(No))
          return false;
      if (C.Problem.empty())
        C.Problem = (Twine(Name) + "=" + V +
                     ": expected 1 or 0 (also true/false, on/off, yes/no)")
                        .str();
      return Default;
    };
    C.Enabled = Flag("OFFLOAD_JIT", true);
    C.Async = Flag("OFFLOAD_JIT_ASYNC", false);
    C.FoldGrid = Flag("OFFLOAD_JIT_FOLD_GRID", false);
    C.Trace = Flag("OFFLOAD_TRACE", false);
    C.ThreadLoops = Flag("OFFLOAD_HOST_THREAD_LOOPS", true);
    if (StringRef V = Env("OFFLOAD_CHECK"); !V.empty()) {
      std::string Bad;
      if (std::optional<uint32_t> Tools = ::offload::parseCheckTools(
              std::string_view(V.data(), V.size()), &Bad))
        C.CheckTools = *Tools;
      else if (C.Problem.empty())
        C.Problem = ("OFFLOAD_CHECK=" + V + ": '" + Bad +
                     "' is not a checking tool: expected " +
                     ::offload::CheckToolsSyntax)
                        .str();
    }
    (void)Flag("OFFLOAD_JIT_STATS", false);
    (void)Flag("OFFLOAD_JIT_CACHE_MPI", false);
    if (std::string MPIProblem = checkMPICacheSettings();
        !MPIProblem.empty() && C.Problem.empty())
      C.Problem = MPIProblem;
    unsigned Threads;
    if (StringRef V = Env("OFFLOAD_JIT_THREADS"); !V.empty()) {
      if (!V.getAsInteger(10, Threads) && Threads > 0)
        C.Threads = Threads;
      else if (C.Problem.empty())
        C.Problem =
            ("OFFLOAD_JIT_THREADS=" + V + ": expected a positive integer")
                .str();
    }
    if (StringRef V = Env("OFFLOAD_CACHE_MAX_BYTES"); !V.empty()) {
      uint64_t Bytes;
      if (V.getAsInteger(10, Bytes) && C.Problem.empty())
        C.Problem =
            ("OFFLOAD_CACHE_MAX_BYTES=" + V + ": expected a number of bytes")
                .str();
    }
    C.DumpDir = Env("OFFLOAD_JIT_DUMP").str();
    if (Env("OFFLOAD_JIT_COST_MODEL") == "0") { // the fixed bound of before
      C.Specialization.costModel = false;
      C.Specialization.unrollMaxTripCount = 16;
    }
    return C;
  }
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
  offload_result_t createProgramFromModule(offload_device_handle_t Device,
                                           OwningOpRef<ModuleOp> Clone,
                                           std::string ModuleHash,
                                           uint32_t CheckTools,
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
  offload_result_t resolve(offload_queue_handle_t Queue,
                           offload_device_handle_t Device,
                           offload_jit_kernel_handle_t Kernel, const void *Args,
                           size_t ArgsSize,
                           const offload_kernel_launch_size_args_t *Sizes,
                           offload_symbol_handle_t &Symbol);

  Stats Counters;
  void setEnabled(bool Enabled) { this->Enabled = Enabled; }
  void clearMemoryCache() {
    std::lock_guard<std::mutex> Lock(CacheMutex);
    std::unique_lock<std::shared_mutex> FastLock(FastMutex);
    Cache.clear();
    Fast.clear();
  }
  void waitForCompiles() {
    std::lock_guard<std::mutex> Lock(PoolMutex);
    if (Pool)
      Pool->wait();
  }

private:
  Engine();
  void trace(const llvm::Twine &Message) {
    if (Options.Trace)
      llvm::errs() << "offload-jit: " << Message << "\n";
  }
  bool isLive(offload_jit_kernel_handle_t Kernel) {
    std::shared_lock<std::shared_mutex> Lock(LiveKernelsMutex);
    return LiveKernels.count(Kernel);
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
    return {Key, Kernel.ModuleName + "::" + Kernel.KernelName, Kernel.Program->TargetKey};
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
  std::unique_ptr<MLIRContext> Context;

  /// Compiles run on a pool of contexts (OFFLOAD_JIT_THREADS of them,
  /// created on first use), one thread per context at a time, so misses of
  /// different keys compile in parallel.
  struct CompileContext {
    std::unique_ptr<MLIRContext> Context;
    bool Busy = false;
  };
  DialectRegistry Registry;
  std::mutex CompileContextsMutex;
  std::condition_variable CompileContextFree;
  std::vector<CompileContext> CompileContexts;
  std::unique_ptr<MLIRContext> makeContext() const;
  /// Waits for a free compile context, preferring one where \p Program is
  /// parsed (or context \p Only); returns its index and the context.
  std::pair<unsigned, MLIRContext *>
  acquireCompileContext(offload_jit_program_impl_t *Program,
                        std::optional<unsigned> Only = std::nullopt);
  void releaseCompileContext(unsigned Index);

public:
  /// The program destructor's work: its modules, each under its context.
  void releaseModules(offload_jit_program_impl_t &Program);

private:
  std::mutex ProgramsMutex;
  std::map<offload_jit_program_impl_t *,
           std::shared_ptr<offload_jit_program_impl_t>>
      Programs;
  std::shared_mutex LiveKernelsMutex;
  std::set<offload_jit_kernel_impl_t *> LiveKernels;
  std::map<std::pair<offload_device_handle_t, const void *>,
           offload_jit_program_impl_t *>
      ImagePrograms;

  std::mutex CacheMutex;
  llvm::StringMap<std::shared_ptr<CacheEntry>> Cache;
  /// The launch fast path: xxh3-128 of (kernel prefix, device, launch values
  /// and sizes) -> entry, read under a shared lock. Filled from Cache.
  std::shared_mutex FastMutex;
  std::map<std::pair<uint64_t, uint64_t>, std::shared_ptr<CacheEntry>> Fast;
  std::optional<DiskCache> Disk;

  std::mutex PoolMutex;
  std::unique_ptr<llvm::StdThreadPool> Pool;
};
} // namespace

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
               << " compile-ms=" << llvm::format("%.1f", S.CompileMilliseconds)
               << "\n";
  MPICache::get().printStats(llvm::errs());
}

Engine::Engine()
    : Options(Config::fromEnvironment()), Enabled(Options.Enabled) {
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
  if (const char *Print = std::getenv("OFFLOAD_JIT_STATS"); Print &&
      StringRef(Print) == "1")
    std::atexit(printStatsAtExit);
}

std::unique_ptr<MLIRContext> Engine::makeContext() const {
  auto New = std::make_unique<MLIRContext>(Registry);
  New->loadAllAvailableDialects();
  // Each context is used by one thread at a time: no locks needed inside.
  New->disableMultithreading();
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
// Programs and kernels
//===----------------------------------------------------------------------===//

/// The platform backend of \p Device.
static offload_result_t getBackend(offload_device_handle_t Device,
                                   offload_platform_backend_t &Backend) {
  offload_platform_handle_t Platform = nullptr;
  if (offload_result_t R = offloadGetDeviceInfo(
          Device, OFFLOAD_DEVICE_INFO_PLATFORM, sizeof(Platform), &Platform))
    return R;
  return offloadGetPlatformInfo(Platform, OFFLOAD_PLATFORM_INFO_BACKEND,
                                sizeof(Backend), &Backend);
}

offload_result_t
Engine::makeProgram(offload_device_handle_t Device, uint32_t CheckTools,
                    std::shared_ptr<offload_jit_program_impl_t> &Program) {
  if (!Options.Problem.empty())
    return makeError(OFFLOAD_ERRC_INVALID_VALUE, Options.Problem);
  offload_platform_backend_t Backend;
  if (offload_result_t R = getBackend(Device, Backend))
    return R;
  Program = std::make_shared<offload_jit_program_impl_t>();
  Program->Device = Device;
  Program->DeviceIsHost = Backend == OFFLOAD_PLATFORM_BACKEND_HOST;
  Program->CheckTools = CheckTools;
  Program->TargetKey = TargetKey;
  if (!Program->DeviceIsHost) {
    llvm::Expected<DeviceTarget> Target = getDeviceTarget(Device, Backend);
    if (!Target)
      return makeError(OFFLOAD_ERRC_UNSUPPORTED,
                       llvm::toString(Target.takeError()));
    Program->GPUTarget = std::move(*Target);
    Program->TargetKey = Program->GPUTarget->Key;
  }
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::createProgramFromModule(
    offload_device_handle_t Device, OwningOpRef<ModuleOp> Clone,
    std::string ModuleHash, uint32_t CheckTools,
    offload_jit_program_handle_t *Out) {
  std::shared_ptr<offload_jit_program_impl_t> Program;
  if (offload_result_t R = makeProgram(Device, CheckTools, Program)) {
    std::lock_guard<std::mutex> Lock(
        getExternalContextMutex(Clone->getContext()));
    Clone = nullptr;
    return R;
  }
  Program->External = Clone->getContext();
  Program->ModuleHash = std::move(ModuleHash);
  Program->Module = std::move(Clone);
  std::lock_guard<std::mutex> Lock(ProgramsMutex);
  offload_jit_program_impl_t *Handle = Program.get();
  Programs[Handle] = std::move(Program);
  *Out = Handle;
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::createProgram(offload_device_handle_t Device,
                                       const void *Module, size_t Size,
                                       offload_jit_program_handle_t *Out,
                                       uint32_t CheckTools) {
  if (!Device)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null");
  if (!Module)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Module is null");
  if (!Out)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Program is null");
  if (Size == 0)
    return makeError(OFFLOAD_ERRC_INVALID_SIZE, "Size is zero");
  std::shared_ptr<offload_jit_program_impl_t> Program;
  if (offload_result_t R = makeProgram(Device, CheckTools, Program))
    return R;
  Program->Bytes.assign(static_cast<const char *>(Module), Size);
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Program->Bytes.data()), Size));
  Program->ModuleHash =
      llvm::utohexstr(Hash.high64, true, 16) + llvm::utohexstr(Hash.low64, true, 16);
  // Inputs that crash upstream MLIR's parser or verifier are refused before
  // the engine's context sees them (ParserCrash.h).
  if (std::optional<std::string> Crash = mlir::offload::findParserCrash(
          llvm::MemoryBufferRef(Program->Bytes, "jit-module"), Registry))
    return makeError(OFFLOAD_ERRC_INVALID_BINARY,
                     "cannot parse the MLIR module: " + *Crash);
  {
    std::lock_guard<std::mutex> Lock(MlirMutex);
    std::string Diagnostics;
    llvm::raw_string_ostream OS(Diagnostics);
    ScopedDiagnosticHandler Handler(Context.get(), [&](Diagnostic &D) {
      OS << D.getLocation() << ": " << D << "\n";
      return success();
    });
    llvm::SourceMgr SourceMgr;
    SourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(Program->Bytes, "jit-module",
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    Program->Module = parseSourceFile<ModuleOp>(SourceMgr, Context.get());
    if (!Program->Module)
      return makeError(OFFLOAD_ERRC_INVALID_BINARY,
                       "cannot parse the MLIR module: " + Diagnostics);
    if (Program->Module->getOps<gpu::GPUModuleOp>().empty())
      return makeError(OFFLOAD_ERRC_INVALID_BINARY,
                       "the MLIR module holds no gpu.module");
  }
  std::lock_guard<std::mutex> Lock(ProgramsMutex);
  offload_jit_program_impl_t *Handle = Program.get();
  Programs[Handle] = std::move(Program);
  *Out = Handle;
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::destroyProgram(offload_jit_program_handle_t Program) {
  if (!Program)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Program is null");
  std::shared_ptr<offload_jit_program_impl_t> Owned;
  {
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    auto It = Programs.find(Program);
    if (It == Programs.end())
      return makeError(OFFLOAD_ERRC_INVALID_PROGRAM,
                       "Program is not a live JIT program");
    Owned = std::move(It->second);
    Programs.erase(It);
    std::unique_lock<std::shared_mutex> LiveLock(LiveKernelsMutex);
    for (auto &Entry : Program->Kernels)
      LiveKernels.erase(Entry.second.get());
    for (auto It = ImagePrograms.begin(); It != ImagePrograms.end();)
      It = It->second == Program ? ImagePrograms.erase(It) : std::next(It);
  }
  // A program made from a caller's module must be gone when this returns
  // (the caller may destroy its context next): its background compiles end
  // first.
  if (Owned->External)
    waitForCompiles();
  // Background compiles hold their own reference; the last one releases the
  // MLIR objects, each under its context (~offload_jit_program_impl_t).
  Owned.reset();
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::getKernel(offload_jit_program_handle_t Program,
                                   const char *Name,
                                   offload_jit_kernel_handle_t *Out) {
  if (!Program)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Program is null");
  if (!Name)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Name is null");
  if (!Out)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Kernel is null");
  {
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    if (!Programs.count(Program))
      return makeError(OFFLOAD_ERRC_INVALID_PROGRAM,
                       "Program is not a live JIT program");
  }
  std::lock_guard<std::mutex> KernelsLock(Program->KernelsMutex);
  if (auto It = Program->Kernels.find(Name); It != Program->Kernels.end()) {
    *Out = It->second.get();
    return OFFLOAD_SUCCESS;
  }

  auto Kernel = std::make_unique<offload_jit_kernel_impl_t>();
  Kernel->Program = Program;
  {
    std::lock_guard<std::mutex> Lock(MlirMutex);
    StringRef Requested(Name), ModulePart;
    if (Requested.contains("::"))
      std::tie(ModulePart, Requested) = Requested.split("::");
    gpu::GPUFuncOp Found;
    for (gpu::GPUModuleOp Module : Program->Module->getOps<gpu::GPUModuleOp>()) {
      if (!ModulePart.empty() && Module.getName() != ModulePart)
        continue;
      if (auto Func = Module.lookupSymbol<gpu::GPUFuncOp>(Requested);
          Func && Func.isKernel()) {
        Found = Func;
        Kernel->ModuleName = Module.getName().str();
        break;
      }
    }
    if (!Found)
      return makeError(OFFLOAD_ERRC_NOT_FOUND,
                       "no kernel named '" + std::string(Name) +
                           "' in the JIT program");
    Kernel->KernelName = Found.getName().str();

    // The packed layout: every lowered field at its natural alignment.
    auto AddField = [&](Type Ty) {
      uint64_t Size = getFieldSize(Ty);
      Kernel->ArgumentsSize = llvm::alignTo(Kernel->ArgumentsSize, Size);
      Kernel->Fields.push_back({Kernel->ArgumentsSize, Size});
      Kernel->ArgumentsSize += Size;
    };
    uint64_t MaxAlign = 1;
    // The kernel's arguments: the entry block's leading arguments (workgroup
    // and private attributions follow them and are not passed).
    for (BlockArgument Arg :
         Found.getArguments().take_front(Found.getNumArguments())) {
      Argument Info;
      Info.ArgType = Arg.getType();
      Info.FirstField = Kernel->Fields.size();
      if (auto MemRef = dyn_cast<MemRefType>(Arg.getType())) {
        Type Ptr = IntegerType::get(Context.get(), 64); // 8-byte fields
        for (int64_t I = 0, E = 3 + 2 * MemRef.getRank(); I < E; ++I)
          AddField(Ptr);
        MaxAlign = 8;
      } else if (Arg.getType().isIntOrIndexOrFloat()) {
        AddField(Arg.getType());
        MaxAlign = std::max(MaxAlign, getFieldSize(Arg.getType()));
      } else if (isa<LLVM::LLVMPointerType>(Arg.getType())) {
        // A pointer of any address space (FlyDSL's !llvm.ptr<1> arguments).
        AddField(Arg.getType());
        MaxAlign = 8;
      } else {
        return makeError(OFFLOAD_ERRC_UNSUPPORTED,
                         "kernel '" + Kernel->KernelName +
                             "' has an argument the JIT cannot pass");
      }
      for (Operation *User : Arg.getUsers())
        if (auto Mark = dyn_cast<mlir::offload::RuntimeConstantOp>(User)) {
          Info.RuntimeConstant = true;
          Info.Contents = Mark.getContents();
          Kernel->HasRuntimeConstants = true;
          Kernel->HasContents |= Info.Contents;
        }
      llvm::raw_string_ostream Line(Kernel->Signature);
      Line << Info.ArgType;
      if (Info.RuntimeConstant)
        Line << (Info.Contents ? " runtime_constant contents"
                               : " runtime_constant");
      Line << "\n";
      Kernel->Arguments.push_back(Info);
    }
    Kernel->ArgumentsSize = llvm::alignTo(Kernel->ArgumentsSize, MaxAlign);
  }
  // The constant part of every key of this kernel.
  std::string Prefix = Program->ModuleHash + ";" + Kernel->ModuleName +
                       "::" + Kernel->KernelName + ";" + Program->TargetKey +
                       ";" + getCompilerVersion() + ";" + getOptionsKey(*Program);
  Kernel->Prefix = llvm::xxh3_128bits(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Prefix.data()), Prefix.size()));
  offload_jit_kernel_impl_t *Handle = Kernel.get();
  Program->Kernels[Name] = std::move(Kernel);
  std::unique_lock<std::shared_mutex> Lock(LiveKernelsMutex);
  LiveKernels.insert(Handle);
  *Out = Handle;
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::getSignature(offload_jit_kernel_handle_t Kernel,
                                      size_t Size, char *Signature,
                                      size_t *SizeRet) {
  if (!Kernel)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Kernel is null");
  if (!isLive(Kernel))
    return makeError(OFFLOAD_ERRC_INVALID_SYMBOL,
                     "Kernel is not a live JIT kernel");
  size_t Needed = Kernel->Signature.size() + 1;
  if (SizeRet)
    *SizeRet = Needed;
  if (!Signature) {
    if (!SizeRet)
      return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                       "Signature and SizeRet are both null");
    return OFFLOAD_SUCCESS;
  }
  if (Size < Needed)
    return makeError(OFFLOAD_ERRC_INVALID_SIZE,
                     "Size is " + std::to_string(Size) +
                         " bytes but the signature takes " +
                         std::to_string(Needed));
  std::memcpy(Signature, Kernel->Signature.c_str(), Needed);
  return OFFLOAD_SUCCESS;
}

offload_result_t Engine::getKernelFromImage(offload_device_handle_t Device,
                                            const void *Image, size_t Size,
                                            const char *Name,
                                            offload_jit_kernel_handle_t *Out) {
  if (!Image)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Image is null");
  offload_jit_program_impl_t *Program = nullptr;
  {
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    auto It = ImagePrograms.find({Device, Image});
    if (It != ImagePrograms.end())
      Program = It->second;
  }
  if (!Program) {
    if (offload_result_t R = createProgram(Device, Image, Size, &Program))
      return R;
    std::lock_guard<std::mutex> Lock(ProgramsMutex);
    auto [It, Inserted] = ImagePrograms.insert({{Device, Image}, Program});
    if (!Inserted) {
      // Another thread won the race: keep its program.
      offload_jit_program_impl_t *Mine = Program;
      Program = It->second;
      Programs.erase(Mine);
    }
  }
  return getKernel(Program, Name, Out);
}

//===----------------------------------------------------------------------===//
// Keys, compilation, caches
//===----------------------------------------------------------------------===//

std::string
Engine::getOptionsKey(const offload_jit_program_impl_t &Program) const {
  return Options.Specialization.getKey() +
         ";thread-loops=" + (Options.ThreadLoops ? "1" : "0") +
         ";check=" +
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

/// Builds the attribute of one runtime constant's launch value, for an
/// argument of type \p Ty (of the context that compiles).
static Attribute getValueAttribute(const Argument &Arg, Type Ty,
                                   llvm::ArrayRef<char> Bytes) {
  if (Arg.Contents) {
    auto MemRef = cast<MemRefType>(Ty);
    auto Tensor =
        RankedTensorType::get(MemRef.getShape(), MemRef.getElementType());
    return DenseElementsAttr::getFromRawBuffer(Tensor, Bytes);
  }
  uint64_t Raw = 0;
  std::memcpy(&Raw, Bytes.data(), std::min<size_t>(Bytes.size(), 8));
  if (isa<IndexType>(Ty))
    return IntegerAttr::get(Ty, static_cast<int64_t>(Raw));
  if (auto Int = dyn_cast<IntegerType>(Ty))
    return IntegerAttr::get(Ty, llvm::APInt(Int.getWidth(), Raw));
  auto Float = cast<FloatType>(Ty);
  return FloatAttr::get(
      Ty, llvm::APFloat(Float.getFloatSemantics(),
                        llvm::APInt(Float.getWidth(), Raw)));
}

llvm::Expected<std::vector<char>>
Engine::compile(offload_jit_program_impl_t &Program,
                offload_jit_kernel_impl_t &Kernel, const LaunchRequest &Request,
                uint64_t &Micros, std::string &Phases) {
  // A program made from a caller's module compiles in the caller's context
  // (MLIRModule.h), one compile at a time; the others on the engine's pool.
  std::unique_lock<std::mutex> ExternalLock;
  unsigned ContextIndex = 0;
  MLIRContext *Ctx = Program.External;
  if (Ctx)
    ExternalLock = std::unique_lock<std::mutex>(getExternalContextMutex(Ctx));
  else
    std::tie(ContextIndex, Ctx) = acquireCompileContext(&Program);
  llvm::scope_exit Release([&, Index = ContextIndex] {
    if (!Program.External)
      releaseCompileContext(Index);
  });
  using Clock = std::chrono::steady_clock;
  // The calling thread's CPU time in microseconds: on a loaded machine wall
  // time includes waiting for a core, CPU time is the compile's own cost.
  auto ThreadMicros = [] {
    timespec T;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
    return static_cast<uint64_t>(T.tv_sec) * 1000000 + T.tv_nsec / 1000;
  };
  auto Start = Clock::now();
  uint64_t CpuStart = ThreadMicros();
  // Where the time goes, phase by phase: the end of each phase reached, in
  // wall and thread CPU time.
  struct PhaseMark {
    const char *Phase;
    Clock::time_point At;
    uint64_t Cpu;
  };
  SmallVector<PhaseMark, 8> Marks;
  auto Mark = [&](const char *Phase) {
    Marks.push_back({Phase, Clock::now(), ThreadMicros()});
  };
  llvm::scope_exit Stop([&] {
    auto End = Clock::now();
    uint64_t CpuEnd = ThreadMicros();
    Micros =
        std::chrono::duration_cast<std::chrono::microseconds>(End - Start)
            .count();
    llvm::raw_string_ostream OS(Phases);
    auto Previous = Start;
    for (const PhaseMark &M : Marks) {
      OS << (Previous == Start ? "" : ", ") << M.Phase << " "
         << std::chrono::duration_cast<std::chrono::microseconds>(M.At -
                                                                   Previous)
                .count();
      Previous = M.At;
    }
    if (!Marks.empty())
      OS << " us";
    OS << "; thread CPU " << CpuEnd - CpuStart << " us";
    uint64_t PreviousCpu = CpuStart;
    for (const PhaseMark &M : Marks) {
      OS << (PreviousCpu == CpuStart ? " (" : ", ") << M.Phase << " "
         << M.Cpu - PreviousCpu;
      PreviousCpu = M.Cpu;
    }
    if (!Marks.empty())
      OS << ")";
  });
  std::string Diagnostics;
  llvm::raw_string_ostream OS(Diagnostics);
  ScopedDiagnosticHandler Handler(Ctx, [&](Diagnostic &D) {
    OS << D << "\n";
    return success();
  });
  auto Fail = [&](const llvm::Twine &What) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   What + ": " + Diagnostics);
  };

  // The module in this context: parsed on its first compile here.
  ModuleOp Source = Program.External ? *Program.Module : ModuleOp();
  if (!Source) {
    std::lock_guard<std::mutex> Lock(Program.ParsedMutex);
    if (auto It = Program.Parsed.find(ContextIndex); It != Program.Parsed.end())
      Source = *It->second;
  }
  if (!Source) {
    llvm::SourceMgr SourceMgr;
    SourceMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(Program.Bytes, "jit-module",
                                         /*RequiresNullTerminator=*/false),
        llvm::SMLoc());
    OwningOpRef<ModuleOp> Parsed = parseSourceFile<ModuleOp>(SourceMgr, Ctx);
    if (!Parsed)
      return Fail("cannot parse the module again");
    Source = *Parsed;
    std::lock_guard<std::mutex> Lock(Program.ParsedMutex);
    Program.Parsed[ContextIndex] = std::move(Parsed);
  }
  OwningOpRef<ModuleOp> Module = Source.clone();
  Mark("parse");
  auto GpuModule = Module->lookupSymbol<gpu::GPUModuleOp>(Kernel.ModuleName);
  gpu::GPUFuncOp Target =
      GpuModule ? GpuModule.lookupSymbol<gpu::GPUFuncOp>(Kernel.KernelName)
                : gpu::GPUFuncOp();
  if (!Target)
    return Fail("kernel disappeared from its module");

  if (Request.Specialize) {
    KernelSpecialization Spec;
    Spec.argumentValues.resize(Kernel.Arguments.size());
    for (const auto &[Index, Bytes] : Request.Values)
      Spec.argumentValues[Index] = getValueAttribute(
          Kernel.Arguments[Index], Target.getArgumentTypes()[Index], Bytes);
    Spec.blockSize = Request.Block;
    Spec.gridSize = Request.Grid;
    if (mlir::offload::isUseful(Target, Spec)) {
      FailureOr<gpu::GPUFuncOp> Specialized =
          mlir::offload::getOrCreateSpecialization(Target, Spec,
                                                   Options.Specialization);
      if (failed(Specialized))
        return Fail("specialization failed");
      Target = *Specialized;
    }
  }
  // Compile only the launched kernel, and nothing outside its gpu.module
  // (host functions may launch kernels erased here).
  for (gpu::GPUFuncOp Func :
       llvm::make_early_inc_range(GpuModule.getOps<gpu::GPUFuncOp>()))
    if (Func != Target && Func.isKernel())
      Func.erase();
  for (Operation &Op :
       llvm::make_early_inc_range(Module->getBody()->getOperations()))
    if (&Op != GpuModule.getOperation())
      Op.erase();
  std::string TargetName = Target.getName().str();
  Mark("specialize");

  if (!Options.DumpDir.empty()) {
    llvm::sys::fs::create_directories(Options.DumpDir);
    llvm::SmallString<256> Path(Options.DumpDir);
    llvm::sys::path::append(Path, TargetName + ".mlir");
    std::error_code EC;
    llvm::raw_fd_ostream Dump(Path, EC);
    if (!EC)
      GpuModule.print(Dump);
  }

  // Payload: the kernel's name, NUL, then the object.
  auto MakePayload = [&](llvm::ArrayRef<char> Object) {
    std::vector<char> Payload(TargetName.begin(), TargetName.end());
    Payload.push_back('\0');
    Payload.insert(Payload.end(), Object.begin(), Object.end());
    return Payload;
  };
  if (Program.GPUTarget) {
    llvm::SmallString<256> DumpPrefix;
    if (!Options.DumpDir.empty())
      llvm::sys::path::append(DumpPrefix, Options.DumpDir,
                              TargetName + "." +
                                  Program.GPUTarget->Config.chip);
    llvm::Expected<SmallVector<char, 0>> Object =
        compileForDevice(*Module, GpuModule, *Program.GPUTarget, DumpPrefix);
    if (!Object)
      return Fail(llvm::toString(Object.takeError()));
    return MakePayload(*Object);
  }

  // The module's own host target (its optimization level, CPU, features:
  // part of the module's content, so of the key), else the host at -O3.
  auto HostTarget =
      mlir::offload::HostTargetAttr::get(Ctx, /*O=*/3, "", "", "");
  if (ArrayAttr Targets = GpuModule.getTargetsAttr())
    for (Attribute Attr : Targets)
      if (auto Host = dyn_cast<mlir::offload::HostTargetAttr>(Attr)) {
        HostTarget = Host;
        break;
      }
  GpuModule.setTargetsAttr(ArrayAttr::get(Ctx, {HostTarget}));
  PassManager PM(Ctx);
  mlir::offload::HostKernelPipelineOptions KernelOptions;
  KernelOptions.checkTools = Options.CheckTools | Program.CheckTools;
  KernelOptions.threadLoops = Options.ThreadLoops;
  mlir::offload::buildHostKernelPipeline(PM, KernelOptions);
  if (failed(PM.run(*Module)))
    return Fail("lowering for the host failed");
  Mark("lower");
  auto Interface = cast<gpu::TargetAttrInterface>(HostTarget);
  auto Translated = [&](llvm::Module &) { Mark("translate"); };
  auto Optimized = [&](llvm::Module &) { Mark("optimize"); };
  gpu::TargetOptions SerializeOptions(
      /*toolkitPath=*/{}, /*librariesToLink=*/{}, /*cmdOptions=*/{},
      /*elfSection=*/{}, gpu::TargetOptions::getDefaultCompilationTarget(),
      /*getSymbolTableCallback=*/{}, Translated, /*linkedLlvmIRCallback=*/{},
      Optimized);
  std::optional<SmallVector<char, 0>> Object =
      Interface.serializeToObject(GpuModule, SerializeOptions);
  if (!Object)
    return Fail("code generation failed");
  Mark("codegen");
  return MakePayload(*Object);
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
      if (llvm::Error E = Disk->write(getIdentity(Key, Kernel), *Payload))
        trace("cannot write the disk cache: " + llvm::toString(std::move(E)));
      else
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
  if (offload_result_t R =
          resolve(Queue, Device, Kernel, Args, ArgsSize, Sizes, Symbol))
    return R;
  ++Counters.Launches;
  return offloadLaunchKernel(Queue, Device, Symbol, Args, ArgsSize, Sizes);
}

offload_result_t Engine::resolve(offload_queue_handle_t Queue,
                                 offload_device_handle_t Device,
                                 offload_jit_kernel_handle_t Kernel,
                                 const void *Args, size_t ArgsSize,
                                 const offload_kernel_launch_size_args_t *Sizes,
                                 offload_symbol_handle_t &Symbol) {
  if (!Kernel)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Kernel is null");
  if (!Device)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_HANDLE, "Device is null");
  if (!Sizes)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER,
                     "LaunchSizeArgs is null");
  if (!isLive(Kernel))
    return makeError(OFFLOAD_ERRC_INVALID_SYMBOL,
                     "Kernel is not a live JIT kernel");
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
  if (Specialize && FastPath) {
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
      const Field &Last =
          Kernel->Fields[Arg.FirstField + 2 + 2 * MemRef.getRank()];
      Append(Base + Kernel->Fields[Arg.FirstField + 2].Offset,
             Last.Offset + Last.Size -
                 Kernel->Fields[Arg.FirstField + 2].Offset);
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
  uint64_t LookupStart = Timeline ? offloadTraceNow() : 0;
  auto TraceLookup = [&](const char *Outcome) {
    if (Timeline)
      offloadTraceRecord(("jit lookup " + Kernel->KernelName).c_str(), "jit",
                         "jit lookups", LookupStart,
                         offloadTraceNow() - LookupStart, Outcome);
  };
  llvm::XXH128_hash_t Hash = llvm::xxh3_128bits(Bytes);
  std::pair<uint64_t, uint64_t> FastKey{Hash.high64, Hash.low64};
  if (FastPath) {
    std::shared_lock<std::shared_mutex> Lock(FastMutex);
    auto It = Fast.find(FastKey);
    if (It != Fast.end() &&
        It->second->Done.load(std::memory_order_acquire) &&
        !It->second->Error) {
      ++Counters.MemoryHits;
      profile(*Kernel, OFFLOAD_PROFILE_JIT_MEMORY_HIT);
      if (!Specialize)
        ++Counters.GenericLaunches;
      Symbol = It->second->Symbol;
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
  Symbol = Entry->Symbol;
  // Remember it for the fast path, unless it is the generic stand-in of an
  // asynchronous compile still running.
  if (FastPath && !GenericStandIn) {
    std::unique_lock<std::shared_mutex> Lock(FastMutex);
    Fast[FastKey] = Entry;
  }
  TraceLookup(GenericStandIn    ? "miss: generic kernel while compiling"
              : Entry->FromDisk ? "miss: found on disk"
                                : "miss: compiled");
  return OFFLOAD_SUCCESS;
}

//===----------------------------------------------------------------------===//
// C API
//===----------------------------------------------------------------------===//

offload_result_t offloadjit::createProgramFromModule(
    offload_device_handle_t Device, OwningOpRef<ModuleOp> Clone,
    std::string ModuleHash, uint32_t CheckTools,
    offload_jit_program_handle_t *Out) {
  return Engine::get().createProgramFromModule(
      Device, std::move(Clone), std::move(ModuleHash), CheckTools, Out);
}

offload_result_t
offloadCreateProgramFromMLIR(offload_device_handle_t Device, const void *Module,
                             size_t Size,
                             offload_jit_program_handle_t *Program) {
  return Engine::get().createProgram(Device, Module, Size, Program);
}

offload_result_t offloadCreateProgramFromMLIRWithOptions(
    offload_device_handle_t Device, const void *Module, size_t Size,
    const offload_jit_program_options_t *Options,
    offload_jit_program_handle_t *Program) {
  // Options of the size before CheckTools was added are accepted.
  constexpr size_t SizeWithoutTools =
      offsetof(offload_jit_program_options_t, CheckTools);
  if (Options && Options->Size != sizeof(offload_jit_program_options_t) &&
      Options->Size != SizeWithoutTools)
    return makeError(OFFLOAD_ERRC_INVALID_SIZE,
                     "Options->Size is " + std::to_string(Options->Size) +
                         "; this library knows options of " +
                         std::to_string(sizeof(offload_jit_program_options_t)) +
                         " or " + std::to_string(SizeWithoutTools) + " bytes");
  uint32_t Tools = 0;
  if (Options && Options->Check)
    Tools |= ::offload::CheckMemcheck;
  if (Options && Options->Size > SizeWithoutTools && Options->CheckTools) {
    std::string Bad;
    std::optional<uint32_t> Parsed =
        ::offload::parseCheckTools(Options->CheckTools, &Bad);
    if (!Parsed)
      return makeError(OFFLOAD_ERRC_INVALID_VALUE,
                       "Options->CheckTools is '" +
                           std::string(Options->CheckTools) + "': '" + Bad +
                           "' is not a checking tool: expected " +
                           ::offload::CheckToolsSyntax);
    Tools |= *Parsed;
  }
  return Engine::get().createProgram(Device, Module, Size, Program, Tools);
}

offload_result_t offloadJITDestroyProgram(offload_jit_program_handle_t Program) {
  return Engine::get().destroyProgram(Program);
}

offload_result_t offloadJITGetKernel(offload_jit_program_handle_t Program,
                                     const char *Name,
                                     offload_jit_kernel_handle_t *Kernel) {
  return Engine::get().getKernel(Program, Name, Kernel);
}

offload_result_t offloadJITGetKernelFromImage(
    offload_device_handle_t Device, const void *Image, size_t ImageSize,
    const char *KernelName, offload_jit_kernel_handle_t *Kernel) {
  return Engine::get().getKernelFromImage(Device, Image, ImageSize, KernelName,
                                          Kernel);
}

offload_result_t
offloadJITLaunchKernel(offload_queue_handle_t Queue,
                       offload_device_handle_t Device,
                       offload_jit_kernel_handle_t Kernel,
                       const void *ArgumentsData, size_t ArgumentsSize,
                       const offload_kernel_launch_size_args_t *LaunchSizeArgs) {
  return Engine::get().launch(Queue, Device, Kernel, ArgumentsData,
                              ArgumentsSize, LaunchSizeArgs);
}

offload_result_t offloadJITGetSpecializedKernel(
    offload_device_handle_t Device, offload_jit_kernel_handle_t Kernel,
    const void *ArgumentsData, size_t ArgumentsSize,
    const offload_kernel_launch_size_args_t *LaunchSizeArgs,
    offload_symbol_handle_t *Symbol) {
  if (!Symbol)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Symbol is null");
  return Engine::get().resolve(/*Queue=*/nullptr, Device, Kernel, ArgumentsData,
                               ArgumentsSize, LaunchSizeArgs, *Symbol);
}

offload_result_t
offloadJITGetKernelSignature(offload_jit_kernel_handle_t Kernel, size_t Size,
                             char *Signature, size_t *SizeRet) {
  return Engine::get().getSignature(Kernel, Size, Signature, SizeRet);
}

offload_result_t offloadJITGetStats(offload_jit_stats_t *Stats) {
  if (!Stats)
    return makeError(OFFLOAD_ERRC_INVALID_NULL_POINTER, "Stats is null");
  auto &C = Engine::get().Counters;
  Stats->Launches = C.Launches;
  Stats->Compiles = C.Compiles;
  Stats->MemoryHits = C.MemoryHits;
  Stats->DiskHits = C.DiskHits;
  Stats->DiskWrites = C.DiskWrites;
  Stats->CorruptEntries = C.CorruptEntries;
  Stats->GenericLaunches = C.GenericLaunches;
  Stats->AsyncCompiles = C.AsyncCompiles;
  Stats->CompileMilliseconds = C.CompileMicroseconds / 1000.0;
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITSetEnabled(bool Enabled) {
  Engine::get().setEnabled(Enabled);
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITResetStats(void) {
  auto &C = Engine::get().Counters;
  for (std::atomic<uint64_t> *Counter :
       {&C.Launches, &C.Compiles, &C.MemoryHits, &C.DiskHits, &C.DiskWrites,
        &C.CorruptEntries, &C.GenericLaunches, &C.AsyncCompiles,
        &C.CompileMicroseconds})
    *Counter = 0;
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITClearMemoryCache(void) {
  Engine::get().clearMemoryCache();
  return OFFLOAD_SUCCESS;
}

offload_result_t offloadJITWaitForCompiles(void) {
  Engine::get().waitForCompiles();
  return OFFLOAD_SUCCESS;
}
