//===- FakeCUDA.cpp - A fake libcuda for the CUDA plugin's tests ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// A test double of the CUDA driver (libcuda.so.1), loaded by the CUDA plugin
// through OFFLOAD_CUDA_LIBRARY. It exports the entry points the plugin
// resolves, under the same (versioned) names, and behaves like the driver
// where the plugin depends on it:
//  - "device" memory is host memory; cuPointerGetAttributes knows every
//    allocation and registration, and reports type 0 for other memory;
//  - every stream is a thread running its work in order; events complete
//    when the stream reaches them; cuStreamWaitValue32_v2 polls host memory;
//  - host functions (cuLaunchHostFunc) run one at a time on a single
//    callback thread, as the real driver does, and may not call the API
//    (CUDA_ERROR_NOT_PERMITTED);
//  - an asynchronous copy from or to pageable memory first waits for its
//    stream, in the caller (the real driver stages it that way);
//  - calls that need a context fail with CUDA_ERROR_INVALID_CONTEXT when the
//    calling thread has none current;
//  - modules are PTX text: `.entry NAME` declares a kernel (implemented
//    below by name), `.global .align A .u32 NAME[N] = V;` a global; or an
//    ELF object (a cubin, or for the HIP fake an HSACO), whose kernels are
//    the `.text.NAME` sections (cubin) or the `NAME.kd` symbols (HSACO) and
//    which has no globals;
//  - every launch is recorded: fakeCudaGetLastLaunch returns the kernel's
//    name, the grid, the block and the argument buffer of the last one.
//  - cooperative launches (cuLaunchCooperativeKernel, attribute 95): one
//    pointer per parameter of a PTX entry, packed by its `.param` list;
//    cuOccupancyMaxActiveBlocksPerMultiprocessor answers 2048 threads per
//    multiprocessor, and a larger grid than all 132 of them run is
//    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
//
// Built twice: libfakecuda.so plays CUDA 13.0; with FAKE_CUDA_12_2 defined,
// libfakecuda122.so plays CUDA 12.2, which has no cuFuncGetParamInfo.
//
// Settings, read by each cuInit: FAKE_CUDA_INIT_RESULT (cuInit's result, e.g.
// 34 to play the toolkit's stub), FAKE_CUDA_DEVICE_COUNT (default 1),
// FAKE_CUDA_DEVICE_NAME, FAKE_CUDA_COMPUTE_CAPABILITIES (one per device,
// comma-separated, the last repeated: "90,80"; default 90). fakeCudaCounter
// (name) reads call counters, for tests that check how the plugin used the
// driver.
//
//===----------------------------------------------------------------------===//

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

using CUresult = int;
using CUdeviceptr = unsigned long long;
constexpr CUresult Success = 0, InvalidValue = 1, OutOfMemory = 2,
                   NotInitialized = 3, InvalidContext = 201, InvalidImage = 200,
                   NotFound = 500, NotReady = 600, IllegalAddress = 700,
                   AlreadyRegistered = 712, NotRegistered = 713,
                   NotPermitted = 800, InvalidHandle = 400;

//===----------------------------------------------------------------------===//
// Global state
//===----------------------------------------------------------------------===//

struct Context {
  int Ordinal;
};

struct Allocation {
  size_t Size;
  int Type; ///< CU_MEMORYTYPE_*: 1 host, 2 device
  bool Owned;
  /// cuMemAllocManaged's (CU_POINTER_ATTRIBUTE_IS_MANAGED).
  bool Managed = false;
};

/// Where the last cuMemPrefetchAsync_v2 moved memory to, for
/// fakeCudaGetLastPrefetch (StateMutex held): CUmemLocationType and id.
int LastPrefetchType = 0, LastPrefetchId = 0;
size_t LastPrefetchSize = 0;

std::mutex StateMutex;
bool Initialized = false;
int DeviceCount = 1;
std::string DeviceName = "Fake CUDA Device";
/// Compute capability (major * 10 + minor) of each device.
int ComputeCapabilities[8] = {90, 90, 90, 90, 90, 90, 90, 90};
Context Contexts[8];
int PrimaryRefs[8];
std::map<uintptr_t, Allocation> Allocations;
std::map<std::string, long> Counters;
thread_local Context *Current = nullptr;
thread_local bool InCallback = false;

void count(const char *Name) {
  std::lock_guard<std::mutex> Lock(StateMutex);
  ++Counters[Name];
}

/// The allocation containing \p Ptr, if any (StateMutex held).
const Allocation *findAllocation(uintptr_t Ptr) {
  auto It = Allocations.upper_bound(Ptr);
  if (It == Allocations.begin())
    return nullptr;
  --It;
  return Ptr - It->first < It->second.Size ? &It->second : nullptr;
}

bool isPageable(const void *Ptr) {
  std::lock_guard<std::mutex> Lock(StateMutex);
  return !findAllocation(reinterpret_cast<uintptr_t>(Ptr));
}

/// The usual preamble: initialized, not in a host function, a context.
CUresult enter(const char *Name, bool NeedsContext = true) {
  count(Name);
  if (InCallback)
    return NotPermitted;
  if (!Initialized)
    return NotInitialized;
  if (NeedsContext && !Current)
    return InvalidContext;
  return Success;
}

//===----------------------------------------------------------------------===//
// The callback thread
//===----------------------------------------------------------------------===//

class CallbackThread {
public:
  /// Runs \p Fn on the callback thread; returns once it did.
  void run(std::function<void()> Fn) {
    std::unique_lock<std::mutex> Lock(Mutex);
    if (!Thread.joinable())
      Thread = std::thread([this] { loop(); });
    uint64_t Ticket = ++Submitted;
    Work.push_back(std::move(Fn));
    CV.notify_all();
    CV.wait(Lock, [&] { return Done >= Ticket; });
  }

private:
  void loop() {
    std::unique_lock<std::mutex> Lock(Mutex);
    while (true) {
      CV.wait(Lock, [&] { return !Work.empty(); });
      std::function<void()> Fn = std::move(Work.front());
      Work.pop_front();
      Lock.unlock();
      InCallback = true;
      Fn();
      InCallback = false;
      Lock.lock();
      ++Done;
      CV.notify_all();
    }
  }

  std::mutex Mutex;
  std::condition_variable CV;
  std::deque<std::function<void()>> Work;
  uint64_t Submitted = 0, Done = 0;
  std::thread Thread;
};

CallbackThread &getCallbackThread() {
  // Never destroyed: the thread runs until the process exits.
  static CallbackThread *T = new CallbackThread();
  return *T;
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

/// One recording of an event.
struct Record {
  std::mutex Mutex;
  std::condition_variable CV;
  bool Complete = false;
  CUresult Error = Success;
  /// When the stream reached the recording (cuEventElapsedTime).
  std::chrono::steady_clock::time_point CompletedAt;
  void complete(CUresult E) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Complete = true;
    Error = E;
    CompletedAt = std::chrono::steady_clock::now();
    CV.notify_all();
  }
  CUresult wait() {
    std::unique_lock<std::mutex> Lock(Mutex);
    CV.wait(Lock, [&] { return Complete; });
    return Error;
  }
};

struct Event {
  /// cuEventCreate's flags (CU_EVENT_DISABLE_TIMING = 2).
  unsigned Flags = 0;
  std::mutex Mutex;
  /// The latest recording; null if never recorded (then complete).
  std::shared_ptr<Record> Last;
};

class Stream {
public:
  Stream() : Worker([this] { loop(); }) {}
  ~Stream() {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      Stopping = true;
    }
    CV.notify_all();
    Worker.join();
  }

  /// Appends \p Op; it returns an error code that becomes sticky.
  void enqueue(std::function<CUresult()> Op) {
    std::lock_guard<std::mutex> Lock(Mutex);
    Ops.push_back(std::move(Op));
    ++Submitted;
    CV.notify_all();
  }

  CUresult synchronize() {
    std::unique_lock<std::mutex> Lock(Mutex);
    uint64_t Target = Submitted;
    CV.wait(Lock, [&] { return Completed >= Target; });
    return Sticky;
  }

  bool idle() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Completed == Submitted;
  }

  CUresult getError() {
    std::lock_guard<std::mutex> Lock(Mutex);
    return Sticky;
  }

  Context *Ctx = nullptr;

private:
  void loop() {
    std::unique_lock<std::mutex> Lock(Mutex);
    while (true) {
      CV.wait(Lock, [&] { return Stopping || !Ops.empty(); });
      if (Ops.empty())
        return;
      std::function<CUresult()> Op = std::move(Ops.front());
      Ops.pop_front();
      Lock.unlock();
      CUresult R = Op();
      Lock.lock();
      if (R != Success && Sticky == Success)
        Sticky = R;
      ++Completed;
      CV.notify_all();
    }
  }

  std::mutex Mutex;
  std::condition_variable CV;
  std::deque<std::function<CUresult()>> Ops;
  uint64_t Submitted = 0, Completed = 0;
  bool Stopping = false;
  CUresult Sticky = Success;
  std::thread Worker;
};

std::set<Stream *> LiveStreams;

bool isStream(void *S) {
  std::lock_guard<std::mutex> Lock(StateMutex);
  return LiveStreams.count(static_cast<Stream *>(S));
}

/// Runs \p Op on \p S, or now for the null stream.
CUresult submit(void *S, std::function<CUresult()> Op) {
  if (!S)
    return Op();
  if (!isStream(S))
    return InvalidHandle;
  static_cast<Stream *>(S)->enqueue(std::move(Op));
  return Success;
}

//===----------------------------------------------------------------------===//
// Modules
//===----------------------------------------------------------------------===//

struct Function {
  std::string Name;
  int MaxDynamicShared = 48 * 1024;
  /// Offset and size of each parameter, as cuFuncGetParamInfo reports them.
  std::vector<std::pair<size_t, size_t>> Params;
  /// Params is known (a PTX entry's list); the fake does not read the
  /// parameter metadata of ELF objects (.nv.info), and cuFuncGetParamInfo
  /// of their kernels answers CUDA_ERROR_NOT_SUPPORTED.
  bool ParamsKnown = false;
};

/// Lays out the `.param` list of an entry (the text between its
/// parentheses) as the driver does: each parameter at the next multiple of
/// its alignment (`.param .align A` or its type's size).
std::vector<std::pair<size_t, size_t>> layOutParams(const std::string &List) {
  std::vector<std::pair<size_t, size_t>> Params;
  size_t End = 0, From = 0;
  while (From < List.size()) {
    size_t Comma = List.find(',', From);
    std::string Decl = List.substr(From, Comma - From);
    From = Comma == std::string::npos ? List.size() : Comma + 1;
    std::vector<std::string> Tokens;
    for (size_t P = 0;
         (P = Decl.find_first_not_of(" \t\n", P)) != std::string::npos;) {
      size_t Q = Decl.find_first_of(" \t\n", P);
      Tokens.push_back(Decl.substr(P, Q - P));
      P = Q;
    }
    if (Tokens.size() < 3 || Tokens[0] != ".param")
      continue;
    size_t Align = 0, I = 1;
    if (Tokens[1] == ".align") {
      Align = std::strtoull(Tokens[2].c_str(), nullptr, 10);
      I = 3;
    }
    const std::string &Type = Tokens[I];
    size_t Bits = std::strtoull(Type.c_str() + 2, nullptr, 10);
    size_t Element = Bits / 8, Count = 1;
    size_t Bracket = Tokens.back().find('[');
    if (Bracket != std::string::npos)
      Count = std::strtoull(Tokens.back().c_str() + Bracket + 1, nullptr, 10);
    if (!Align)
      Align = Element;
    size_t Offset = (End + Align - 1) / Align * Align;
    Params.push_back({Offset, Element * Count});
    End = Offset + Element * Count;
  }
  return Params;
}

struct Module {
  std::map<std::string, std::unique_ptr<Function>> Functions;
  std::map<std::string, std::pair<void *, size_t>> Globals;
};

std::set<Module *> LiveModules;

constexpr int OptInSharedBytes = 101376;

/// Kernel arguments as the launch passed them.
struct Launch {
  unsigned Grid[3], Block[3], Shared;
  std::vector<uint8_t> Args;
};

/// The last launch, for fakeCudaGetLastLaunch (StateMutex held).
std::string LastLaunchName;
std::unique_ptr<Launch> LastLaunch;

/// Loads a \p T at \p Offset of the argument buffer.
template <typename T> T arg(const Launch &L, size_t Offset) {
  T V{};
  if (Offset + sizeof(T) <= L.Args.size())
    std::memcpy(&V, L.Args.data() + Offset, sizeof(T));
  return V;
}

/// The kernels the fake can run, by name.
CUresult runKernel(const std::string &Name, const Launch &L) {
  uint64_t Threads = uint64_t(L.Grid[0]) * L.Grid[1] * L.Grid[2] * L.Block[0] *
                     L.Block[1] * L.Block[2];
  if (Name == "add_one") {
    // (int32_t *Data, int64_t N): Data[i] += 1 for every thread i < N.
    auto *Data = arg<int32_t *>(L, 0);
    int64_t N = arg<int64_t>(L, 8);
    for (uint64_t I = 0; I < Threads && int64_t(I) < N; ++I)
      Data[I] += 1;
    return Success;
  }
  if (Name == "saxpy") {
    // (float A, float *X, float *Y, int64_t N): Y = A * X + Y.
    float A = arg<float>(L, 0);
    auto *X = arg<float *>(L, 8);
    auto *Y = arg<float *>(L, 16);
    int64_t N = arg<int64_t>(L, 24);
    for (uint64_t I = 0; I < Threads && int64_t(I) < N; ++I)
      Y[I] = A * X[I] + Y[I];
    return Success;
  }
  if (Name == "report_launch") {
    // (uint32_t *Out): the grid, the block, the dynamic shared memory and
    // the argument buffer size.
    auto *Out = arg<uint32_t *>(L, 0);
    for (int I = 0; I < 3; ++I) {
      Out[I] = L.Grid[I];
      Out[3 + I] = L.Block[I];
    }
    Out[6] = L.Shared;
    Out[7] = static_cast<uint32_t>(L.Args.size());
    return Success;
  }
  if (Name == "fill_i32") {
    // (memref<?xi32> as gpu-to-llvm lowers it: allocated and aligned
    // pointers, offset, size, stride; int32_t V): element i = V + i.
    auto *Aligned = arg<int32_t *>(L, 8);
    int64_t Offset = arg<int64_t>(L, 16), Size = arg<int64_t>(L, 24),
            Stride = arg<int64_t>(L, 32);
    int32_t V = arg<int32_t>(L, 40);
    for (int64_t I = 0; I < Size; ++I)
      Aligned[Offset + I * Stride] = V + static_cast<int32_t>(I);
    return Success;
  }
  if (Name == "store_n") {
    // (uint32_t *Out, uint32_t N): *Out = N.
    auto *Out = arg<uint32_t *>(L, 0);
    *Out = arg<uint32_t>(L, 8);
    return Success;
  }
  if (Name == "fault")
    return IllegalAddress;
  return Success;
}

/// Reads the kernels of an ELF object: the `.text.NAME` sections of a cubin,
/// the `NAME.kd` symbols of an AMDGPU code object. False if \p Image is not
/// a 64-bit little-endian ELF file.
bool parseELF(const unsigned char *Image, Module &M) {
  auto Read = [&](size_t Offset, auto &Value) {
    std::memcpy(&Value, Image + Offset, sizeof(Value));
  };
  if (std::memcmp(Image,
                  "\x7f"
                  "ELF",
                  4) != 0 ||
      Image[4] != 2 || Image[5] != 1)
    return false;
  uint64_t SectionOffset;
  uint16_t SectionSize, SectionCount, NamesIndex;
  Read(0x28, SectionOffset);
  Read(0x3a, SectionSize);
  Read(0x3c, SectionCount);
  Read(0x3e, NamesIndex);
  // A header alone (no section headers) is a truncated object.
  if (SectionOffset == 0 || SectionCount == 0 || SectionSize != 64)
    return false;
  struct Section {
    uint32_t Name, Type;
    uint64_t Offset, Size, Link, EntrySize;
  };
  std::vector<Section> Sections(SectionCount);
  for (uint16_t I = 0; I < SectionCount; ++I) {
    size_t Base = SectionOffset + size_t(I) * SectionSize;
    uint32_t Link;
    Read(Base, Sections[I].Name);
    Read(Base + 4, Sections[I].Type);
    Read(Base + 0x18, Sections[I].Offset);
    Read(Base + 0x20, Sections[I].Size);
    Read(Base + 0x28, Link);
    Sections[I].Link = Link;
    Read(Base + 0x38, Sections[I].EntrySize);
  }
  auto AddKernel = [&](std::string Name) {
    auto F = std::make_unique<Function>();
    F->Name = Name;
    M.Functions[Name] = std::move(F);
  };
  if (NamesIndex < SectionCount) {
    const char *Names =
        reinterpret_cast<const char *>(Image + Sections[NamesIndex].Offset);
    for (const Section &S : Sections)
      if (std::strncmp(Names + S.Name, ".text.", 6) == 0)
        AddKernel(Names + S.Name + 6);
  }
  for (const Section &S : Sections) {
    if (S.Type != 2 /*SHT_SYMTAB*/ || S.EntrySize < 24 ||
        S.Link >= SectionCount)
      continue;
    const char *Strings =
        reinterpret_cast<const char *>(Image + Sections[S.Link].Offset);
    for (uint64_t I = 0; I < S.Size / S.EntrySize; ++I) {
      uint32_t NameOffset;
      Read(S.Offset + I * S.EntrySize, NameOffset);
      std::string Name = Strings + NameOffset;
      if (Name.size() > 3 && Name.compare(Name.size() - 3, 3, ".kd") == 0)
        AddKernel(Name.substr(0, Name.size() - 3));
    }
  }
  return true;
}

/// Parses the PTX subset described in the file header.
bool parsePTX(const char *Text, Module &M) {
  std::string S(Text);
  if (S.find(".version") == std::string::npos ||
      S.find(".target") == std::string::npos)
    return false;
  size_t Pos = 0;
  auto Identifier = [&](size_t From) {
    size_t B = S.find_first_not_of(" \t", From);
    size_t E = S.find_first_of(" \t\n([;=", B);
    return S.substr(B, E - B);
  };
  while ((Pos = S.find(".entry", Pos)) != std::string::npos) {
    std::string Name = Identifier(Pos + 6);
    auto F = std::make_unique<Function>();
    F->Name = Name;
    size_t NameBegin = S.find_first_not_of(" \t", Pos + 6);
    size_t Open = S.find_first_not_of(" \t\n", NameBegin + Name.size());
    if (Open != std::string::npos && S[Open] == '(') {
      size_t Close = S.find(')', Open);
      F->Params = layOutParams(S.substr(Open + 1, Close - Open - 1));
      F->ParamsKnown = true;
    }
    M.Functions[Name] = std::move(F);
    Pos += 6;
  }
  Pos = 0;
  while ((Pos = S.find(".global", Pos)) != std::string::npos) {
    size_t End = S.find(';', Pos);
    std::string Decl = S.substr(Pos, End - Pos);
    Pos = End;
    size_t Elem = Decl.find(".u64") != std::string::npos ||
                          Decl.find(".f64") != std::string::npos ||
                          Decl.find(".b64") != std::string::npos
                      ? 8
                      : 4;
    // The name is the last identifier before '[', '=' or the end.
    size_t NameEnd = Decl.find_first_of("[=");
    std::string Head = Decl.substr(0, NameEnd);
    while (!Head.empty() && (Head.back() == ' ' || Head.back() == '\t'))
      Head.pop_back();
    std::string Name = Head.substr(Head.find_last_of(" \t") + 1);
    size_t Count = 1;
    if (NameEnd != std::string::npos && Decl[NameEnd] == '[')
      Count = std::strtoull(Decl.c_str() + NameEnd + 1, nullptr, 10);
    // The scan also matches instructions (ld.global, st.global) and
    // declarations seen before: the first match of a name keeps its storage
    // (a second one leaked it, which LeakSanitizer reports).
    if (M.Globals.count(Name))
      continue;
    size_t Size = Elem * Count;
    void *Storage = std::calloc(1, Size);
    size_t Eq = Decl.find('=');
    if (Eq != std::string::npos) {
      long long V = std::strtoll(Decl.c_str() + Eq + 1, nullptr, 0);
      std::memcpy(Storage, &V, Elem == 8 ? 8 : 4);
    }
    M.Globals[Name] = {Storage, Size};
    std::lock_guard<std::mutex> Lock(StateMutex);
    Allocations[reinterpret_cast<uintptr_t>(Storage)] = {Size, 2, false};
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

FAKE_API long fakeCudaCounter(const char *Name) {
  std::lock_guard<std::mutex> Lock(StateMutex);
  auto It = Counters.find(Name);
  return It == Counters.end() ? 0 : It->second;
}

/// Copies the last launch: the kernel's name (NUL-terminated, truncated to
/// \p NameSize), the grid and block sizes, and the argument buffer (up to
/// \p ArgsCapacity bytes; *ArgsSize is its full size). Returns 0 without a
/// launch so far.
FAKE_API int fakeCudaGetLastLaunch(char *Name, size_t NameSize,
                                   unsigned Grid[3], unsigned Block[3],
                                   void *Args, size_t ArgsCapacity,
                                   size_t *ArgsSize) {
  std::lock_guard<std::mutex> Lock(StateMutex);
  if (!LastLaunch)
    return 0;
  std::strncpy(Name, LastLaunchName.c_str(), NameSize);
  Name[NameSize - 1] = '\0';
  std::memcpy(Grid, LastLaunch->Grid, sizeof(LastLaunch->Grid));
  std::memcpy(Block, LastLaunch->Block, sizeof(LastLaunch->Block));
  *ArgsSize = LastLaunch->Args.size();
  std::memcpy(Args, LastLaunch->Args.data(),
              std::min(ArgsCapacity, LastLaunch->Args.size()));
  return 1;
}

FAKE_API CUresult cuInit(unsigned Flags) {
  count("cuInit");
  if (const char *R = std::getenv("FAKE_CUDA_INIT_RESULT"))
    if (int Code = std::atoi(R))
      return Code;
  std::lock_guard<std::mutex> Lock(StateMutex);
  DeviceCount = 1;
  if (const char *N = std::getenv("FAKE_CUDA_DEVICE_COUNT"))
    DeviceCount = std::max(0, std::min(8, std::atoi(N)));
  DeviceName = "Fake CUDA Device";
  if (const char *N = std::getenv("FAKE_CUDA_DEVICE_NAME"))
    DeviceName = N;
  const char *CC = std::getenv("FAKE_CUDA_COMPUTE_CAPABILITIES");
  for (int I = 0, Value = 90; I < 8; ++I) {
    if (CC && *CC) {
      char *End = nullptr;
      Value = static_cast<int>(std::strtol(CC, &End, 10));
      CC = *End == ',' ? End + 1 : End;
    }
    ComputeCapabilities[I] = Value;
  }
  for (int I = 0; I < 8; ++I)
    Contexts[I].Ordinal = I;
  Initialized = true;
  return Success;
}

FAKE_API CUresult cuDriverGetVersion(int *V) {
#ifdef FAKE_CUDA_12_2
  *V = 12020;
#else
  *V = 13000;
#endif
  return Success;
}

FAKE_API CUresult cuGetErrorName(CUresult R, const char **Name) {
  static const std::map<int, const char *> Names = {
      {Success, "CUDA_SUCCESS"},
      {InvalidValue, "CUDA_ERROR_INVALID_VALUE"},
      {OutOfMemory, "CUDA_ERROR_OUT_OF_MEMORY"},
      {NotInitialized, "CUDA_ERROR_NOT_INITIALIZED"},
      {34, "CUDA_ERROR_STUB_LIBRARY"},
      {100, "CUDA_ERROR_NO_DEVICE"},
      {InvalidImage, "CUDA_ERROR_INVALID_IMAGE"},
      {InvalidContext, "CUDA_ERROR_INVALID_CONTEXT"},
      {InvalidHandle, "CUDA_ERROR_INVALID_HANDLE"},
      {NotFound, "CUDA_ERROR_NOT_FOUND"},
      {NotReady, "CUDA_ERROR_NOT_READY"},
      {IllegalAddress, "CUDA_ERROR_ILLEGAL_ADDRESS"},
      {AlreadyRegistered, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
      {NotRegistered, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
      {NotPermitted, "CUDA_ERROR_NOT_PERMITTED"},
      {801, "CUDA_ERROR_NOT_SUPPORTED"}};
  auto It = Names.find(R);
  if (It == Names.end()) {
    *Name = nullptr;
    return InvalidValue;
  }
  *Name = It->second;
  return Success;
}

FAKE_API CUresult cuGetErrorString(CUresult R, const char **Text) {
  *Text = R == IllegalAddress ? "an illegal memory access was encountered"
          : R == OutOfMemory  ? "out of memory"
          : R == 34           ? "CUDA driver is a stub library"
                              : "fake CUDA error";
  return Success;
}

FAKE_API CUresult cuDeviceGetCount(int *N) {
  if (CUresult R = enter("cuDeviceGetCount", false))
    return R;
  *N = DeviceCount;
  return Success;
}

FAKE_API CUresult cuDeviceGet(int *D, int Ordinal) {
  if (CUresult R = enter("cuDeviceGet", false))
    return R;
  if (Ordinal < 0 || Ordinal >= DeviceCount)
    return 101;
  *D = Ordinal;
  return Success;
}

FAKE_API CUresult cuDeviceGetName(char *Name, int Length, int D) {
  if (CUresult R = enter("cuDeviceGetName", false))
    return R;
  std::string N = DeviceName + (D ? " " + std::to_string(D) : "");
  std::strncpy(Name, N.c_str(), Length);
  Name[Length - 1] = '\0';
  return Success;
}

FAKE_API CUresult cuDeviceGetAttribute(int *V, int Attr, int D) {
  if (CUresult R = enter("cuDeviceGetAttribute", false))
    return R;
  static const std::map<int, int> Values = {
      {1, 1024},     {2, 1024},       {3, 1024},
      {4, 64},       {5, 2147483647}, {6, 65535},
      {7, 65535},    {8, 49152},      {10, 32},
      {13, 1755000}, {16, 132},       {19, 1},
      {36, 2619000}, {41, 1},         {83, 1},
      {92, 1},       {95, 1},         {97, OptInSharedBytes}};
  if (D < 0 || D >= DeviceCount)
    return 101;
  if (Attr == 75 || Attr == 76) { // COMPUTE_CAPABILITY_MAJOR, _MINOR
    *V = Attr == 75 ? ComputeCapabilities[D] / 10 : ComputeCapabilities[D] % 10;
    return Success;
  }
  auto It = Values.find(Attr);
  *V = It == Values.end() ? 0 : It->second;
  return Success;
}

FAKE_API CUresult cuDeviceTotalMem_v2(size_t *Bytes, int D) {
  if (CUresult R = enter("cuDeviceTotalMem_v2", false))
    return R;
  *Bytes = size_t(1) << 30;
  return Success;
}

FAKE_API CUresult cuDeviceGetUuid_v2(char *UUID, int D) {
  if (CUresult R = enter("cuDeviceGetUuid_v2", false))
    return R;
  for (int I = 0; I < 16; ++I)
    UUID[I] = static_cast<char>(0x10 * D + I);
  return Success;
}

FAKE_API CUresult cuDevicePrimaryCtxRetain(void **Ctx, int D) {
  if (CUresult R = enter("cuDevicePrimaryCtxRetain", false))
    return R;
  std::lock_guard<std::mutex> Lock(StateMutex);
  ++PrimaryRefs[D];
  *Ctx = &Contexts[D];
  return Success;
}

FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(int D) {
  if (CUresult R = enter("cuDevicePrimaryCtxRelease_v2", false))
    return R;
  std::lock_guard<std::mutex> Lock(StateMutex);
  if (PrimaryRefs[D] <= 0)
    return InvalidContext;
  --PrimaryRefs[D];
  return Success;
}

FAKE_API CUresult cuCtxGetCurrent(void **Ctx) {
  if (CUresult R = enter("cuCtxGetCurrent", false))
    return R;
  *Ctx = Current;
  return Success;
}

FAKE_API CUresult cuCtxSetCurrent(void *Ctx) {
  if (CUresult R = enter("cuCtxSetCurrent", false))
    return R;
  Current = static_cast<Context *>(Ctx);
  return Success;
}

static CUresult allocate(void **Ptr, size_t Size, int Type) {
  void *P = std::aligned_alloc(256, (Size + 255) / 256 * 256);
  if (!P)
    return OutOfMemory;
  std::lock_guard<std::mutex> Lock(StateMutex);
  Allocations[reinterpret_cast<uintptr_t>(P)] = {Size, Type, true};
  *Ptr = P;
  return Success;
}

static CUresult release(void *Ptr) {
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    auto It = Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
    if (It == Allocations.end() || !It->second.Owned)
      return InvalidValue;
    Allocations.erase(It);
  }
  std::free(Ptr);
  return Success;
}

FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *Ptr, size_t Size) {
  if (CUresult R = enter("cuMemAlloc_v2"))
    return R;
  if (Size > (size_t(1) << 30))
    return OutOfMemory;
  void *P = nullptr;
  CUresult R = allocate(&P, Size, 2);
  *Ptr = reinterpret_cast<uintptr_t>(P);
  return R;
}

FAKE_API CUresult cuMemFree_v2(CUdeviceptr Ptr) {
  if (CUresult R = enter("cuMemFree_v2"))
    return R;
  return release(reinterpret_cast<void *>(Ptr));
}

FAKE_API CUresult cuMemAllocHost_v2(void **Ptr, size_t Size) {
  if (CUresult R = enter("cuMemAllocHost_v2"))
    return R;
  return allocate(Ptr, Size, 1);
}

FAKE_API CUresult cuMemFreeHost(void *Ptr) {
  if (CUresult R = enter("cuMemFreeHost"))
    return R;
  return release(Ptr);
}

FAKE_API CUresult cuMemAllocManaged(CUdeviceptr *Ptr, size_t Size,
                                    unsigned Flags) {
  if (CUresult R = enter("cuMemAllocManaged"))
    return R;
  void *P = nullptr;
  CUresult R = allocate(&P, Size, 2);
  *Ptr = reinterpret_cast<uintptr_t>(P);
  if (R == Success) {
    std::lock_guard<std::mutex> Lock(StateMutex);
    Allocations[*Ptr].Managed = true;
  }
  return R;
}

FAKE_API CUresult cuMemHostRegister_v2(void *Ptr, size_t Size, unsigned Flags) {
  if (CUresult R = enter("cuMemHostRegister_v2"))
    return R;
  std::lock_guard<std::mutex> Lock(StateMutex);
  if (findAllocation(reinterpret_cast<uintptr_t>(Ptr)))
    return AlreadyRegistered;
  Allocations[reinterpret_cast<uintptr_t>(Ptr)] = {Size, 1, false};
  return Success;
}

FAKE_API CUresult cuMemHostUnregister(void *Ptr) {
  if (CUresult R = enter("cuMemHostUnregister"))
    return R;
  std::lock_guard<std::mutex> Lock(StateMutex);
  auto It = Allocations.find(reinterpret_cast<uintptr_t>(Ptr));
  if (It == Allocations.end() || It->second.Owned)
    return NotRegistered;
  Allocations.erase(It);
  return Success;
}

FAKE_API CUresult cuPointerGetAttributes(unsigned N, int *Attrs, void **Data,
                                         CUdeviceptr Ptr) {
  if (CUresult R = enter("cuPointerGetAttributes", false))
    return R;
  std::lock_guard<std::mutex> Lock(StateMutex);
  const Allocation *A = findAllocation(Ptr);
  for (unsigned I = 0; I < N; ++I) {
    if (Attrs[I] == 2) // CU_POINTER_ATTRIBUTE_MEMORY_TYPE
      *static_cast<unsigned *>(Data[I]) = A ? A->Type : 0;
    else if (Attrs[I] == 8) // CU_POINTER_ATTRIBUTE_IS_MANAGED
      *static_cast<unsigned *>(Data[I]) = A && A->Managed;
    else
      return InvalidValue;
  }
  return Success;
}

/// CUDA 12.2's prefetch: managed memory only (CUDA_ERROR_INVALID_VALUE for
/// other memory, as the driver answers), inside one allocation, to a device
/// (type 1) or the host (type 2). Nothing moves: it is recorded for
/// fakeCudaGetLastPrefetch.
struct FakeMemLocation {
  int Type;
  int Id;
};
FAKE_API CUresult cuMemPrefetchAsync_v2(CUdeviceptr Ptr, size_t Size,
                                        FakeMemLocation To, unsigned Flags,
                                        void *S) {
  if (CUresult R = enter("cuMemPrefetchAsync_v2"))
    return R;
  if ((S && !isStream(S)) || Flags)
    return InvalidValue;
  std::lock_guard<std::mutex> Lock(StateMutex);
  const Allocation *A = findAllocation(Ptr);
  auto It = Allocations.upper_bound(Ptr);
  if (!A || !A->Managed || It == Allocations.begin() ||
      Ptr + Size > std::prev(It)->first + A->Size)
    return InvalidValue;
  if ((To.Type != 1 || To.Id < 0 || To.Id >= DeviceCount) && To.Type != 2)
    return InvalidValue;
  LastPrefetchType = To.Type;
  LastPrefetchId = To.Id;
  LastPrefetchSize = Size;
  return Success;
}

/// The location and size of the last cuMemPrefetchAsync_v2; 0 if none.
FAKE_API int fakeCudaGetLastPrefetch(int *Type, int *Id, size_t *Size) {
  std::lock_guard<std::mutex> Lock(StateMutex);
  *Type = LastPrefetchType;
  *Id = LastPrefetchId;
  *Size = LastPrefetchSize;
  return LastPrefetchType != 0;
}

FAKE_API CUresult cuMemcpyAsync(CUdeviceptr Dst, CUdeviceptr Src, size_t Size,
                                void *S) {
  if (CUresult R = enter("cuMemcpyAsync"))
    return R;
  auto *D = reinterpret_cast<void *>(Dst);
  auto *From = reinterpret_cast<const void *>(Src);
  if (isPageable(D) || isPageable(From)) {
    // Staged through pinned memory: waits for the stream first.
    count("cuMemcpyAsync(pageable)");
    if (S) {
      if (!isStream(S))
        return InvalidHandle;
      if (CUresult R = static_cast<Stream *>(S)->synchronize())
        return R;
    }
    std::memmove(D, From, Size);
    return Success;
  }
  return submit(S, [=] {
    std::memmove(D, From, Size);
    return Success;
  });
}

template <typename T>
static CUresult memsetAsync(const char *Name, CUdeviceptr Dst, T Value,
                            size_t Count, size_t Pitch, size_t Height,
                            void *S) {
  if (CUresult R = enter(Name))
    return R;
  auto *D = reinterpret_cast<uint8_t *>(Dst);
  if (isPageable(D))
    return InvalidValue;
  return submit(S, [=] {
    for (size_t Row = 0; Row < Height; ++Row)
      for (size_t I = 0; I < Count; ++I)
        std::memcpy(D + Row * Pitch + I * sizeof(T), &Value, sizeof(T));
    return Success;
  });
}

FAKE_API CUresult cuMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N,
                                  void *S) {
  return memsetAsync("cuMemsetD8Async", D, V, N, 0, 1, S);
}
FAKE_API CUresult cuMemsetD16Async(CUdeviceptr D, unsigned short V, size_t N,
                                   void *S) {
  return memsetAsync("cuMemsetD16Async", D, V, N, 0, 1, S);
}
FAKE_API CUresult cuMemsetD32Async(CUdeviceptr D, unsigned V, size_t N,
                                   void *S) {
  return memsetAsync("cuMemsetD32Async", D, V, N, 0, 1, S);
}
FAKE_API CUresult cuMemsetD2D32Async(CUdeviceptr D, size_t Pitch, unsigned V,
                                     size_t Width, size_t Height, void *S) {
  return memsetAsync("cuMemsetD2D32Async", D, V, Width, Pitch, Height, S);
}

FAKE_API CUresult cuStreamCreate(void **S, unsigned Flags) {
  if (CUresult R = enter("cuStreamCreate"))
    return R;
  auto *New = new Stream();
  New->Ctx = Current;
  std::lock_guard<std::mutex> Lock(StateMutex);
  LiveStreams.insert(New);
  *S = New;
  return Success;
}

FAKE_API CUresult cuStreamDestroy_v2(void *S) {
  if (CUresult R = enter("cuStreamDestroy_v2"))
    return R;
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    if (!LiveStreams.erase(static_cast<Stream *>(S)))
      return InvalidHandle;
  }
  delete static_cast<Stream *>(S);
  return Success;
}

FAKE_API CUresult cuStreamSynchronize(void *S) {
  if (CUresult R = enter("cuStreamSynchronize"))
    return R;
  if (!isStream(S))
    return InvalidHandle;
  return static_cast<Stream *>(S)->synchronize();
}

FAKE_API CUresult cuStreamQuery(void *S) {
  if (CUresult R = enter("cuStreamQuery"))
    return R;
  if (!isStream(S))
    return InvalidHandle;
  auto *St = static_cast<Stream *>(S);
  if (CUresult R = St->getError())
    return R;
  return St->idle() ? Success : NotReady;
}

FAKE_API CUresult cuEventCreate(void **E, unsigned Flags) {
  if (CUresult R = enter("cuEventCreate"))
    return R;
  auto *Ev = new Event();
  Ev->Flags = Flags;
  *E = Ev;
  return Success;
}

FAKE_API CUresult cuEventDestroy_v2(void *E) {
  if (CUresult R = enter("cuEventDestroy_v2"))
    return R;
  // Recordings stay alive in the streams that wait on them.
  delete static_cast<Event *>(E);
  return Success;
}

FAKE_API CUresult cuEventRecord(void *E, void *S) {
  if (CUresult R = enter("cuEventRecord"))
    return R;
  auto Rec = std::make_shared<Record>();
  {
    auto *Ev = static_cast<Event *>(E);
    std::lock_guard<std::mutex> Lock(Ev->Mutex);
    Ev->Last = Rec;
  }
  return submit(S, [Rec] {
    Rec->complete(Success);
    return Success;
  });
}

static std::shared_ptr<Record> lastRecord(void *E) {
  auto *Ev = static_cast<Event *>(E);
  std::lock_guard<std::mutex> Lock(Ev->Mutex);
  return Ev->Last;
}

FAKE_API CUresult cuEventSynchronize(void *E) {
  if (CUresult R = enter("cuEventSynchronize"))
    return R;
  std::shared_ptr<Record> Rec = lastRecord(E);
  return Rec ? Rec->wait() : Success;
}

FAKE_API CUresult cuEventQuery(void *E) {
  if (CUresult R = enter("cuEventQuery"))
    return R;
  std::shared_ptr<Record> Rec = lastRecord(E);
  if (!Rec)
    return Success;
  std::lock_guard<std::mutex> Lock(Rec->Mutex);
  return Rec->Complete ? Success : NotReady;
}

/// As the driver: INVALID_HANDLE for an event without timing or never
/// recorded, NOT_READY while a recording has not completed.
FAKE_API CUresult cuEventElapsedTime(float *Ms, void *Start, void *End) {
  if (CUresult R = enter("cuEventElapsedTime"))
    return R;
  if (!Ms)
    return InvalidValue;
  std::chrono::steady_clock::time_point Times[2];
  void *Events[2] = {Start, End};
  for (int I = 0; I < 2; ++I) {
    auto *Ev = static_cast<Event *>(Events[I]);
    if (Ev->Flags & 2)
      return InvalidHandle;
    std::shared_ptr<Record> Rec = lastRecord(Ev);
    if (!Rec)
      return InvalidHandle;
    std::lock_guard<std::mutex> Lock(Rec->Mutex);
    if (!Rec->Complete)
      return NotReady;
    Times[I] = Rec->CompletedAt;
  }
  *Ms = std::chrono::duration<float, std::milli>(Times[1] - Times[0]).count();
  return Success;
}

FAKE_API CUresult cuStreamWaitEvent(void *S, void *E, unsigned Flags) {
  if (CUresult R = enter("cuStreamWaitEvent"))
    return R;
  std::shared_ptr<Record> Rec = lastRecord(E);
  if (!Rec)
    return Success;
  return submit(S, [Rec] {
    Rec->wait();
    return Success;
  });
}

FAKE_API CUresult cuStreamWaitValue32_v2(void *S, CUdeviceptr Addr,
                                         unsigned Value, unsigned Flags) {
  if (CUresult R = enter("cuStreamWaitValue32_v2"))
    return R;
  if (std::getenv("FAKE_CUDA_NO_STREAM_WAIT"))
    return 801; // CUDA_ERROR_NOT_SUPPORTED
  if (Flags != 0)
    return InvalidValue;
  auto *Word = reinterpret_cast<uint32_t *>(Addr);
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    if (!findAllocation(Addr))
      return InvalidValue;
  }
  return submit(S, [Word, Value] {
    while (static_cast<int32_t>(__atomic_load_n(Word, __ATOMIC_ACQUIRE) -
                                Value) < 0)
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    return Success;
  });
}

FAKE_API CUresult cuLaunchHostFunc(void *S, void (*Fn)(void *), void *Data) {
  if (CUresult R = enter("cuLaunchHostFunc"))
    return R;
  return submit(S, [Fn, Data] {
    getCallbackThread().run([Fn, Data] { Fn(Data); });
    return Success;
  });
}

FAKE_API CUresult cuModuleLoadDataEx(void **M, const void *Image, unsigned N,
                                     int *Options, void **Values) {
  if (CUresult R = enter("cuModuleLoadDataEx"))
    return R;
  auto Mod = std::make_unique<Module>();
  const char *Text = static_cast<const char *>(Image);
  bool IsELF = std::strncmp(Text,
                            "\x7f"
                            "ELF",
                            4) == 0;
  if (IsELF ? !parseELF(static_cast<const unsigned char *>(Image), *Mod)
            : !parsePTX(Text, *Mod)) {
    // Write the JIT log where the caller asked for it.
    for (unsigned I = 0; I < N; ++I)
      if (Options[I] == 5)
        std::strcpy(static_cast<char *>(Values[I]),
                    "fake ptxas: not a PTX module");
    return InvalidImage;
  }
  std::lock_guard<std::mutex> Lock(StateMutex);
  LiveModules.insert(Mod.get());
  *M = Mod.release();
  return Success;
}

FAKE_API CUresult cuModuleUnload(void *M) {
  if (CUresult R = enter("cuModuleUnload"))
    return R;
  auto *Mod = static_cast<Module *>(M);
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    if (!LiveModules.erase(Mod))
      return InvalidHandle;
    for (auto &[Name, G] : Mod->Globals) {
      Allocations.erase(reinterpret_cast<uintptr_t>(G.first));
      std::free(G.first);
    }
  }
  delete Mod;
  return Success;
}

FAKE_API CUresult cuModuleGetFunction(void **F, void *M, const char *Name) {
  if (CUresult R = enter("cuModuleGetFunction"))
    return R;
  auto *Mod = static_cast<Module *>(M);
  auto It = Mod->Functions.find(Name);
  if (It == Mod->Functions.end())
    return NotFound;
  *F = It->second.get();
  return Success;
}

FAKE_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *Ptr, size_t *Size, void *M,
                                       const char *Name) {
  if (CUresult R = enter("cuModuleGetGlobal_v2"))
    return R;
  auto *Mod = static_cast<Module *>(M);
  auto It = Mod->Globals.find(Name);
  if (It == Mod->Globals.end())
    return NotFound;
  *Ptr = reinterpret_cast<uintptr_t>(It->second.first);
  *Size = It->second.second;
  return Success;
}

FAKE_API CUresult cuFuncGetAttribute(int *V, int Attr, void *F) {
  if (CUresult R = enter("cuFuncGetAttribute"))
    return R;
  *V = Attr == 8 ? static_cast<Function *>(F)->MaxDynamicShared : 0;
  return Success;
}

#ifndef FAKE_CUDA_12_2
FAKE_API CUresult cuFuncGetParamInfo(void *F, size_t Index, size_t *Offset,
                                     size_t *Size) {
  if (CUresult R = enter("cuFuncGetParamInfo", false))
    return R;
  auto *Fn = static_cast<Function *>(F);
  if (Fn && !Fn->ParamsKnown)
    return static_cast<CUresult>(801); // CUDA_ERROR_NOT_SUPPORTED
  if (!Fn || Index >= Fn->Params.size())
    return InvalidValue;
  if (Offset)
    *Offset = Fn->Params[Index].first;
  if (Size)
    *Size = Fn->Params[Index].second;
  return Success;
}
#endif

FAKE_API CUresult cuFuncSetAttribute(void *F, int Attr, int V) {
  if (CUresult R = enter("cuFuncSetAttribute"))
    return R;
  if (Attr != 8 || V > OptInSharedBytes)
    return InvalidValue;
  static_cast<Function *>(F)->MaxDynamicShared = V;
  return Success;
}

/// Records \p L as the last launch and runs it on stream \p S.
static CUresult submitLaunch(Function *Fn, void *S, Launch L) {
  std::string Name = Fn->Name;
  {
    std::lock_guard<std::mutex> Lock(StateMutex);
    LastLaunchName = Name;
    LastLaunch = std::make_unique<Launch>(L);
  }
  return submit(S, [Name, L] { return runKernel(Name, L); });
}

FAKE_API CUresult cuLaunchKernel(void *F, unsigned GX, unsigned GY, unsigned GZ,
                                 unsigned BX, unsigned BY, unsigned BZ,
                                 unsigned Shared, void *S, void **Params,
                                 void **Extra) {
  if (CUresult R = enter("cuLaunchKernel"))
    return R;
  auto *Fn = static_cast<Function *>(F);
  if (Params || int(Shared) > Fn->MaxDynamicShared)
    return InvalidValue;
  if (uint64_t(BX) * BY * BZ > 1024)
    return InvalidValue;
  Launch L{{GX, GY, GZ}, {BX, BY, BZ}, Shared, {}};
  const void *Buffer = nullptr;
  size_t Size = 0;
  // BUFFER_POINTER (1), BUFFER_SIZE (2), END (0); the buffer is copied now.
  for (void **P = Extra; P && *P; P += 2) {
    if (*P == reinterpret_cast<void *>(1))
      Buffer = P[1];
    else if (*P == reinterpret_cast<void *>(2))
      Size = *static_cast<size_t *>(P[1]);
    else
      return InvalidValue;
  }
  if (Size)
    L.Args.assign(static_cast<const uint8_t *>(Buffer),
                  static_cast<const uint8_t *>(Buffer) + Size);
  return submitLaunch(Fn, S, std::move(L));
}

/// Blocks per multiprocessor at once: 2048 threads of a multiprocessor (the
/// fake has 132, attribute 16).
static int activeBlocksPerSM(unsigned BlockThreads) {
  return BlockThreads ? int(2048 / std::min(BlockThreads, 1024u)) : 0;
}

FAKE_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks,
                                                              void *F,
                                                              int BlockSize,
                                                              size_t Shared) {
  if (CUresult R = enter("cuOccupancyMaxActiveBlocksPerMultiprocessor"))
    return R;
  if (!Blocks || !F || BlockSize <= 0 || BlockSize > 1024)
    return InvalidValue;
  *Blocks = activeBlocksPerSM(unsigned(BlockSize));
  return Success;
}

/// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE.
constexpr CUresult CooperativeLaunchTooLarge = 720;

/// cuLaunchCooperativeKernel: the parameters one pointer each, laid out by
/// the kernel's parameter list (a PTX entry's); grids above what runs at
/// once are refused, as the driver does.
FAKE_API CUresult cuLaunchCooperativeKernel(void *F, unsigned GX, unsigned GY,
                                            unsigned GZ, unsigned BX,
                                            unsigned BY, unsigned BZ,
                                            unsigned Shared, void *S,
                                            void **Params) {
  if (CUresult R = enter("cuLaunchCooperativeKernel"))
    return R;
  auto *Fn = static_cast<Function *>(F);
  if (!Fn->ParamsKnown || int(Shared) > Fn->MaxDynamicShared)
    return InvalidValue;
  uint64_t Threads = uint64_t(BX) * BY * BZ;
  if (Threads > 1024)
    return InvalidValue;
  if (uint64_t(GX) * GY * GZ >
      uint64_t(activeBlocksPerSM(unsigned(Threads))) * 132)
    return CooperativeLaunchTooLarge;
  Launch L{{GX, GY, GZ}, {BX, BY, BZ}, Shared, {}};
  size_t End = 0;
  for (auto &[Offset, Size] : Fn->Params)
    End = std::max(End, Offset + Size);
  L.Args.assign(End, 0);
  for (size_t I = 0; I < Fn->Params.size(); ++I) {
    if (!Params || !Params[I])
      return InvalidValue;
    std::memcpy(L.Args.data() + Fn->Params[I].first, Params[I],
                Fn->Params[I].second);
  }
  return submitLaunch(Fn, S, std::move(L));
}
