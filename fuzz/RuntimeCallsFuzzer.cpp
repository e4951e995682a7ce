//===- RuntimeCallsFuzzer.cpp - Fuzzes sequences of runtime API calls -----===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The input is a program: each byte picks a runtime call (allocate, free,
// copy, fill, queues, events, programs, symbols, launches, host functions,
// info queries) and the bytes after it its arguments. Handles are chosen
// among the live ones, those already destroyed and null, so stale and null
// handles reach every entry point. Invariants checked: a call on a live
// handle with arguments the API documents as valid succeeds; a call on a
// destroyed or null handle, or with an argument the API documents as an
// error, fails (and changes nothing); host functions run exactly once each.
// At the end of each input everything still live is released.
//
// The API cannot detect what is the caller's undefined behaviour, so the
// fuzzer never does it: raw pointers are inside live allocations of
// offloadMemAlloc (an offset past the end of one would be host memory to the
// runtime) or inside a static host buffer, with host-buffer ranges in
// bounds; copies never overlap; memory is freed and programs destroyed only
// after every queue is synchronized; kernels are launched only with
// arguments pointing to enough memory for the geometry asked for. A stale
// handle whose address a live object of the same kind reuses is not used.
//
//===----------------------------------------------------------------------===//

#include "KernelBuilder.h"

#include "OffloadRuntime/OffloadAPI.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using llvm::Twine;

namespace {
offload_device_handle_t Host = nullptr;
alignas(64) char HostBuffer[8192];
constexpr size_t MaxOps = 200;
std::atomic<uint64_t> HostCalls{0};

[[noreturn]] void fail(const Twine &Message) {
  llvm::errs() << "runtime-calls fuzzer: invariant broken: " << Message << '\n';
  std::abort();
}

std::string describe(offload_result_t R) {
  if (!R)
    return "success";
  return std::string(offloadErrcName(R->Code)) + ": " +
         (R->Details ? R->Details : "");
}

void expectSuccess(offload_result_t R, const char *Call) {
  if (R)
    fail(Twine(Call) + " should succeed, returned " + describe(R));
}
void expectError(offload_result_t R, const char *Call) {
  if (!R)
    fail(Twine(Call) + " should fail but succeeded");
}

/// \p Value as an enum argument, also outside the enumerators (a C caller
/// may pass any int; the runtime reads enum arguments without an enum-typed
/// load). The conversion itself is not an enum-typed load either, so UBSan's
/// enum check does not stop the fuzzer before the runtime sees the value.
template <typename E> __attribute__((no_sanitize("enum"))) E asEnum(int Value) {
  static_assert(sizeof(E) == sizeof(int), "C enums are ints");
  E Result;
  std::memcpy(&Result, &Value, sizeof(Result));
  return Result;
}

/// The bytes of the input, read front to back; zeros once used up.
struct Reader {
  const uint8_t *P;
  size_t N;
  bool empty() const { return N == 0; }
  uint8_t byte() {
    if (!N)
      return 0;
    --N;
    return *P++;
  }
  uint16_t u16() { return uint16_t(byte()) | uint16_t(byte()) << 8; }
};

template <typename H> struct Handle {
  H Value;
  bool Live;
};

struct Allocation {
  char *Ptr;
  size_t Size;
  bool Live;
};

/// The test kernels the fuzzer launches, with the memory they need.
enum class KernelKind { Saxpy, Ids, CountBlocks, ReadGlobal, Other };
struct KernelName {
  const char *Name;
  KernelKind Kind;
  offload_symbol_kind_t SymbolKind;
};
constexpr KernelName Names[] = {
    {"saxpy", KernelKind::Saxpy, OFFLOAD_SYMBOL_KIND_KERNEL},
    {"ids", KernelKind::Ids, OFFLOAD_SYMBOL_KIND_KERNEL},
    {"count_blocks", KernelKind::CountBlocks, OFFLOAD_SYMBOL_KIND_KERNEL},
    {"read_global", KernelKind::ReadGlobal, OFFLOAD_SYMBOL_KIND_KERNEL},
    {"offload_test_global", KernelKind::Other,
     OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE},
    {"bad_version", KernelKind::Other, OFFLOAD_SYMBOL_KIND_KERNEL},
    {"no_such_kernel", KernelKind::Other, OFFLOAD_SYMBOL_KIND_KERNEL},
};

struct SymbolEntry {
  offload_symbol_handle_t Value;
  size_t Program;
  KernelKind Kind;
  bool IsKernel;
  bool Live;
};

void countHostCall(void *) { ++HostCalls; }

class Session {
public:
  explicit Session(Reader In) : In(In) {}
  void run();

private:
  Reader In;
  std::vector<Allocation> Allocs;
  std::vector<Handle<offload_queue_handle_t>> Queues;
  std::vector<Handle<offload_event_handle_t>> Events;
  std::vector<Handle<offload_program_handle_t>> Programs;
  std::vector<SymbolEntry> Symbols;
  uint64_t HostCallsExpected = 0;

  /// Picks an index of \p V or V.size() (null) from the next byte.
  template <typename T> size_t pick(const std::vector<T> &V) {
    return In.byte() % (V.size() + 1);
  }
  /// Whether a stale handle's address is in use again by a live one.
  template <typename T> static bool reused(const std::vector<T> &V, size_t I) {
    for (size_t J = 0; J < V.size(); ++J)
      if (J != I && V[J].Live && V[J].Value == V[I].Value)
        return true;
    return false;
  }
  /// A queue argument: (handle, expected valid, usable at all).
  bool pickQueue(offload_queue_handle_t &Q, bool &Live, bool AllowNull) {
    size_t I = pick(Queues);
    if (I == Queues.size()) {
      Q = nullptr;
      Live = AllowNull;
      return true;
    }
    if (!Queues[I].Live && reused(Queues, I))
      return false;
    Q = Queues[I].Value;
    Live = Queues[I].Live;
    return true;
  }
  void syncAll() {
    for (auto &Q : Queues)
      if (Q.Live)
        (void)offloadSyncQueue(Q.Value);
  }
  /// A pointer for a range of \p Size bytes (reduced to fit when it is in
  /// the host buffer): inside a live allocation (\p Which its index) or the
  /// host buffer (Which SIZE_MAX), at \p Offset. False for a null pointer.
  bool pickMemory(char *&Ptr, size_t &Size, size_t &Which, size_t &Offset) {
    uint8_t Choice = In.byte();
    std::vector<size_t> Live;
    for (size_t I = 0; I < Allocs.size(); ++I)
      if (Allocs[I].Live)
        Live.push_back(I);
    if (Choice % 4 == 3 || Live.empty()) {
      Offset = In.u16() % sizeof(HostBuffer);
      Size = std::min(Size, sizeof(HostBuffer) - Offset);
      Ptr = HostBuffer + Offset;
      Which = SIZE_MAX;
      return Choice % 16 != 15;
    }
    Which = Live[Choice % Live.size()];
    const Allocation &A = Allocs[Which];
    Offset = In.u16() % A.Size;
    Ptr = A.Ptr + Offset;
    return true;
  }
  /// Whether \p Size bytes at \p Offset of \p Which (pickMemory) fit.
  bool fits(size_t Which, size_t Offset, size_t Size) const {
    return Which == SIZE_MAX || Size <= Allocs[Which].Size - Offset;
  }

  void opAlloc();
  void opFree();
  void opMemcpy();
  void opFill();
  void opCreateQueue();
  void opDestroyQueue();
  void opSyncQueue();
  void opCreateEvent();
  void opSyncEvent();
  void opDestroyEvent();
  void opWaitEvents();
  void opInfo();
  void opCreateProgram();
  void opDestroyProgram();
  void opGetSymbol();
  void opLaunch();
  void opHostFunction();
  void opMemInfo();
  void cleanUp();
};

void Session::opAlloc() {
  uint8_t Type = In.byte() % 4;
  size_t Size = In.u16() % 8192;
  if (std::count_if(Allocs.begin(), Allocs.end(),
                    [](const Allocation &A) { return A.Live; }) >= 32)
    return;
  void *Ptr = nullptr;
  offload_result_t R =
      offloadMemAlloc(Host, asEnum<offload_alloc_type_t>(Type), Size, &Ptr);
  if (Type == 3 || Size == 0)
    return expectError(R, "offloadMemAlloc (bad type or size)");
  expectSuccess(R, "offloadMemAlloc");
  if (reinterpret_cast<uintptr_t>(Ptr) % 64)
    fail("offloadMemAlloc returned a pointer aligned to less than 64 bytes");
  std::memset(Ptr, 0x5a, Size);
  Allocs.push_back({static_cast<char *>(Ptr), Size, true});
}

void Session::opFree() {
  size_t I = pick(Allocs);
  uint8_t Mode = In.byte();
  if (I == Allocs.size())
    return expectError(offloadMemFree(nullptr), "offloadMemFree(null)");
  Allocation &A = Allocs[I];
  if (!A.Live) {
    for (const Allocation &B : Allocs)
      if (B.Live && A.Ptr >= B.Ptr && A.Ptr < B.Ptr + B.Size)
        return; // the address is in use again
    return expectError(offloadMemFree(A.Ptr), "offloadMemFree(freed)");
  }
  if (Mode % 4 == 0 && A.Size > 1)
    return expectError(offloadMemFree(A.Ptr + 1 + Mode % (A.Size - 1)),
                       "offloadMemFree(inside an allocation)");
  syncAll();
  expectSuccess(offloadMemFree(A.Ptr), "offloadMemFree");
  A.Live = false;
}

void Session::opMemcpy() {
  offload_queue_handle_t Q;
  bool QueueOk;
  if (!pickQueue(Q, QueueOk, /*AllowNull=*/true))
    return;
  size_t Size = In.u16() % 9000;
  char *Dst, *Src;
  size_t DstWhich, SrcWhich, DstOff, SrcOff;
  bool DstOk = pickMemory(Dst, Size, DstWhich, DstOff);
  bool SrcOk = pickMemory(Src, Size, SrcWhich, SrcOff);
  // Copies of overlapping ranges are the caller's undefined behaviour.
  if (DstWhich == SrcWhich &&
      std::max(DstOff, SrcOff) < std::min(DstOff, SrcOff) + Size)
    return;
  offload_result_t R = offloadMemcpy(Q, DstOk ? Dst : nullptr, Host,
                                     SrcOk ? Src : nullptr, Host, Size);
  bool InBounds = fits(DstWhich, DstOff, Size) && fits(SrcWhich, SrcOff, Size);
  if (!QueueOk || (Size && (!DstOk || !SrcOk || !InBounds)))
    return expectError(R, "offloadMemcpy (invalid)");
  if (DstOk && SrcOk)
    expectSuccess(R, "offloadMemcpy");
}

void Session::opFill() {
  offload_queue_handle_t Q;
  bool QueueOk;
  if (!pickQueue(Q, QueueOk, /*AllowNull=*/true))
    return;
  static constexpr size_t PatternSizes[] = {0, 1, 2, 4, 8, 16, 3, 128};
  size_t PatternSize = PatternSizes[In.byte() % 8];
  uint8_t Pattern[128];
  for (size_t I = 0; I < sizeof(Pattern); ++I)
    Pattern[I] = uint8_t(I * 7 + PatternSize);
  size_t Size = In.u16() % 9000;
  char *Ptr;
  size_t Which, Offset;
  bool PtrOk = pickMemory(Ptr, Size, Which, Offset);
  offload_result_t R =
      offloadMemFill(Q, PtrOk ? Ptr : nullptr, PatternSize, Pattern, Size);
  bool Valid = QueueOk && PtrOk && PatternSize && Size &&
               Size % PatternSize == 0 && fits(Which, Offset, Size);
  if (Valid)
    return expectSuccess(R, "offloadMemFill");
  expectError(R, "offloadMemFill (invalid)");
}

void Session::opCreateQueue() {
  if (std::count_if(Queues.begin(), Queues.end(),
                    [](const auto &Q) { return Q.Live; }) >= 8)
    return;
  offload_queue_handle_t Q = nullptr;
  expectSuccess(offloadCreateQueue(Host, &Q), "offloadCreateQueue");
  Queues.push_back({Q, true});
}

void Session::opDestroyQueue() {
  offload_queue_handle_t Q;
  bool Live;
  size_t I = Queues.size();
  if (!pickQueue(Q, Live, /*AllowNull=*/false))
    return;
  for (size_t J = 0; J < Queues.size(); ++J)
    if (Queues[J].Value == Q && Queues[J].Live)
      I = J;
  offload_result_t R = offloadDestroyQueue(Q);
  if (!Live)
    return expectError(R, "offloadDestroyQueue (stale or null)");
  // Destroyed even when its work failed (and the fuzzer's work does not).
  expectSuccess(R, "offloadDestroyQueue");
  Queues[I].Live = false;
}

void Session::opSyncQueue() {
  offload_queue_handle_t Q;
  bool Live;
  if (!pickQueue(Q, Live, /*AllowNull=*/false))
    return;
  offload_result_t R = offloadSyncQueue(Q);
  if (!Live)
    return expectError(R, "offloadSyncQueue (stale or null)");
  expectSuccess(R, "offloadSyncQueue");
}

void Session::opCreateEvent() {
  offload_queue_handle_t Q;
  bool Live;
  if (!pickQueue(Q, Live, /*AllowNull=*/false))
    return;
  offload_event_handle_t E = nullptr;
  offload_result_t R = offloadCreateEvent(Q, &E);
  if (!Live)
    return expectError(R, "offloadCreateEvent (stale or null queue)");
  expectSuccess(R, "offloadCreateEvent");
  Events.push_back({E, true});
}

void Session::opSyncEvent() {
  size_t I = pick(Events);
  if (I == Events.size())
    return expectError(offloadSyncEvent(nullptr), "offloadSyncEvent(null)");
  if (!Events[I].Live && reused(Events, I))
    return;
  offload_result_t R = offloadSyncEvent(Events[I].Value);
  if (!Events[I].Live)
    return expectError(R, "offloadSyncEvent (stale)");
  expectSuccess(R, "offloadSyncEvent");
  // Time it against another event (every event is of the host device): a
  // complete live one succeeds, a stale or null one fails.
  size_t J = pick(Events);
  float Ms = 0;
  if (J == Events.size())
    return expectError(
        offloadGetEventElapsedTime(Events[I].Value, nullptr, &Ms),
        "offloadGetEventElapsedTime(null)");
  if (!Events[J].Live && reused(Events, J))
    return;
  if (!Events[J].Live)
    return expectError(
        offloadGetEventElapsedTime(Events[I].Value, Events[J].Value, &Ms),
        "offloadGetEventElapsedTime (stale)");
  expectSuccess(offloadSyncEvent(Events[J].Value), "offloadSyncEvent");
  expectSuccess(
      offloadGetEventElapsedTime(Events[I].Value, Events[J].Value, &Ms),
      "offloadGetEventElapsedTime");
}

void Session::opDestroyEvent() {
  size_t I = pick(Events);
  if (I == Events.size())
    return expectError(offloadDestroyEvent(nullptr),
                       "offloadDestroyEvent(null)");
  if (!Events[I].Live && reused(Events, I))
    return;
  offload_result_t R = offloadDestroyEvent(Events[I].Value);
  if (!Events[I].Live)
    return expectError(R, "offloadDestroyEvent (stale)");
  expectSuccess(R, "offloadDestroyEvent");
  Events[I].Live = false;
}

void Session::opWaitEvents() {
  offload_queue_handle_t Q;
  bool Valid;
  if (!pickQueue(Q, Valid, /*AllowNull=*/false))
    return;
  size_t N = In.byte() % 4;
  offload_event_handle_t List[4];
  for (size_t K = 0; K < N; ++K) {
    size_t I = pick(Events);
    if (I == Events.size()) {
      List[K] = nullptr;
      Valid = false;
      continue;
    }
    if (!Events[I].Live && reused(Events, I))
      return;
    List[K] = Events[I].Value;
    Valid &= Events[I].Live;
  }
  offload_result_t R = offloadWaitEvents(Q, N ? List : nullptr, N);
  if (Valid)
    expectSuccess(R, "offloadWaitEvents");
  else
    expectError(R, "offloadWaitEvents (stale or null handles)");
}

void Session::opInfo() {
  uint8_t What = In.byte();
  int Prop = In.byte() % 4; // 2 and 3 are not properties of queues or events
  size_t Size = In.byte() % 17;
  alignas(8) char Value[16];
  if (What % 2 == 0) {
    offload_queue_handle_t Q;
    bool Live;
    if (!pickQueue(Q, Live, /*AllowNull=*/false))
      return;
    size_t Needed = 0;
    offload_result_t RS =
        offloadGetQueueInfoSize(Q, asEnum<offload_queue_info_t>(Prop), &Needed);
    offload_result_t R = offloadGetQueueInfo(
        Q, asEnum<offload_queue_info_t>(Prop), Size, Size ? Value : nullptr);
    if (!Live || Prop > 1) {
      expectError(RS, "offloadGetQueueInfoSize (invalid)");
      return expectError(R, "offloadGetQueueInfo (invalid)");
    }
    expectSuccess(RS, "offloadGetQueueInfoSize");
    if (Size < Needed)
      return expectError(R, "offloadGetQueueInfo (small buffer)");
    return expectSuccess(R, "offloadGetQueueInfo");
  }
  size_t I = pick(Events);
  offload_event_handle_t E = nullptr;
  bool Live = false;
  if (I < Events.size()) {
    if (!Events[I].Live && reused(Events, I))
      return;
    E = Events[I].Value;
    Live = Events[I].Live;
  }
  size_t Needed = 0;
  offload_result_t RS =
      offloadGetEventInfoSize(E, asEnum<offload_event_info_t>(Prop), &Needed);
  offload_result_t R = offloadGetEventInfo(
      E, asEnum<offload_event_info_t>(Prop), Size, Size ? Value : nullptr);
  if (!Live || Prop > 1) {
    expectError(RS, "offloadGetEventInfoSize (invalid)");
    return expectError(R, "offloadGetEventInfo (invalid)");
  }
  expectSuccess(RS, "offloadGetEventInfoSize");
  if (Size < Needed)
    return expectError(R, "offloadGetEventInfo (small buffer)");
  expectSuccess(R, "offloadGetEventInfo");
}

void Session::opCreateProgram() {
  const std::string &Image = offload_test::getTestKernels();
  uint8_t Mode = In.byte();
  if (std::count_if(Programs.begin(), Programs.end(),
                    [](const auto &P) { return P.Live; }) >= 3)
    return;
  offload_program_handle_t P = nullptr;
  if (Mode % 4 == 3) {
    // A truncated image: refused.
    size_t Size = In.u16() % Image.size();
    offload_result_t R = offloadCreateProgram(Host, Image.data(), Size, &P);
    return expectError(R, "offloadCreateProgram (truncated image)");
  }
  expectSuccess(offloadCreateProgram(Host, Image.data(), Image.size(), &P),
                "offloadCreateProgram");
  Programs.push_back({P, true});
}

void Session::opDestroyProgram() {
  size_t I = pick(Programs);
  if (I == Programs.size())
    return expectError(offloadDestroyProgram(nullptr),
                       "offloadDestroyProgram(null)");
  if (!Programs[I].Live && reused(Programs, I))
    return;
  if (!Programs[I].Live)
    return expectError(offloadDestroyProgram(Programs[I].Value),
                       "offloadDestroyProgram (stale)");
  // Its kernels must not be running.
  syncAll();
  expectSuccess(offloadDestroyProgram(Programs[I].Value),
                "offloadDestroyProgram");
  Programs[I].Live = false;
  for (SymbolEntry &S : Symbols)
    if (S.Program == I)
      S.Live = false;
}

void Session::opGetSymbol() {
  size_t I = pick(Programs);
  const KernelName &K = Names[In.byte() % std::size(Names)];
  uint8_t KindByte = In.byte();
  int Kind = KindByte % 8 == 7 ? 2 : int(K.SymbolKind);
  offload_program_handle_t P = nullptr;
  bool Live = false;
  if (I < Programs.size()) {
    if (!Programs[I].Live && reused(Programs, I))
      return;
    P = Programs[I].Value;
    Live = Programs[I].Live;
  }
  offload_symbol_handle_t S = nullptr;
  offload_result_t R =
      offloadGetSymbol(P, K.Name, asEnum<offload_symbol_kind_t>(Kind), &S);
  bool Exists = std::strcmp(K.Name, "no_such_kernel") != 0 &&
                std::strcmp(K.Name, "bad_version") != 0;
  if (!Live || Kind == 2 || !Exists)
    return expectError(R, "offloadGetSymbol (invalid)");
  expectSuccess(R, "offloadGetSymbol");
  Symbols.push_back(
      {S, I, K.Kind, K.SymbolKind == OFFLOAD_SYMBOL_KIND_KERNEL, true});
}

void Session::opLaunch() {
  size_t SI = pick(Symbols);
  offload_queue_handle_t Q;
  bool QueueOk;
  if (!pickQueue(Q, QueueOk, /*AllowNull=*/true))
    return;
  offload_kernel_launch_size_args_t L{};
  uint8_t G = In.byte();
  L.Dimensions = 1 + In.byte() % 4; // 4: invalid
  auto Dim = [&](uint8_t B) -> uint32_t {
    if (B == 0xff)
      return 0; // invalid
    if (B == 0xfe)
      return 1u << 20; // too many threads per block (and blocks: valid)
    return 1 + B % 4;
  };
  L.NumGroups = {Dim(In.byte()), Dim(G & 1 ? In.byte() : 0),
                 Dim(G & 2 ? In.byte() : 0)};
  L.GroupSize = {Dim(In.byte()), Dim(G & 4 ? In.byte() : 0),
                 Dim(G & 8 ? In.byte() : 0)};
  L.DynSharedMemory = G & 16 ? In.u16() : 0;
  bool WrongSize = (G & 96) == 96;

  offload_symbol_handle_t S = nullptr;
  bool SymbolOk = false;
  KernelKind Kind = KernelKind::Other;
  if (SI < Symbols.size()) {
    if (!Symbols[SI].Live && reused(Symbols, SI))
      return;
    S = Symbols[SI].Value;
    SymbolOk = Symbols[SI].Live && Symbols[SI].IsKernel;
    Kind = Symbols[SI].Kind;
  }
  // Memory for the geometry, counted as if every dimension were used.
  auto AtLeast1 = [](uint32_t D) { return uint64_t(std::max<uint32_t>(D, 1)); };
  uint64_t Blocks = AtLeast1(L.NumGroups.x) * AtLeast1(L.NumGroups.y) *
                    AtLeast1(L.NumGroups.z);
  uint64_t Threads = Blocks * AtLeast1(L.GroupSize.x) *
                     AtLeast1(L.GroupSize.y) * AtLeast1(L.GroupSize.z);
  // Every size is at least 1, also beyond Dimensions (OffloadAPI.h).
  bool UsedZero = false;
  const uint32_t *NG = &L.NumGroups.x, *GS = &L.GroupSize.x;
  for (size_t D = 0; D < 3; ++D)
    UsedZero |= NG[D] == 0 || GS[D] == 0;
  bool MustFail =
      !QueueOk || !SymbolOk || WrongSize || L.Dimensions > 3 || UsedZero;
  auto Buffer = [&](uint64_t Bytes) -> char * {
    for (const Allocation &A : Allocs)
      if (A.Live && A.Size >= Bytes)
        return A.Ptr;
    return nullptr;
  };
  alignas(8) char Args[32] = {};
  size_t ArgsSize = 8;
  switch (Kind) {
  case KernelKind::Saxpy: {
    int64_t N = In.u16() % 2048;
    char *X = Buffer(N * 4), *Y = nullptr;
    for (const Allocation &A : Allocs)
      if (A.Live && A.Ptr != X && A.Size >= uint64_t(N) * 4)
        Y = A.Ptr;
    if (!X || !Y)
      return;
    float A = 2.0f;
    std::memcpy(Args, &A, 4);
    std::memcpy(Args + 8, &X, 8);
    std::memcpy(Args + 16, &Y, 8);
    std::memcpy(Args + 24, &N, 8);
    ArgsSize = 32;
    break;
  }
  case KernelKind::Ids:
  case KernelKind::CountBlocks:
  case KernelKind::ReadGlobal: {
    uint64_t Bytes = Kind == KernelKind::Ids           ? Threads * 96
                     : Kind == KernelKind::CountBlocks ? Blocks * 8
                                                       : 4;
    char *Out = Buffer(Bytes);
    if (!Out)
      Out = Buffer(0); // too small: the geometry must be refused
    if (!Out)
      return;
    bool Fits = false;
    for (const Allocation &A : Allocs)
      Fits |= A.Live && A.Ptr == Out && A.Size >= Bytes;
    if (!Fits && !MustFail)
      return; // a launch that may run would write past the buffer
    std::memcpy(Args, &Out, 8);
    break;
  }
  case KernelKind::Other:
    break;
  }
  offload_result_t R = offloadLaunchKernel(
      Q, Host, S, Args, WrongSize ? ArgsSize + 8 : ArgsSize, &L);
  if (MustFail)
    return expectError(R, "offloadLaunchKernel (invalid)");
  // Valid geometry of small blocks succeeds.
  if (L.GroupSize.x <= 4 && L.GroupSize.y <= 4 && L.GroupSize.z <= 4 &&
      L.DynSharedMemory == 0 && Q == nullptr)
    expectSuccess(R, "offloadLaunchKernel");
}

void Session::opHostFunction() {
  offload_queue_handle_t Q;
  bool Live;
  if (!pickQueue(Q, Live, /*AllowNull=*/false))
    return;
  offload_result_t R = offloadLaunchHostFunction(Q, countHostCall, nullptr);
  if (!Live)
    return expectError(R, "offloadLaunchHostFunction (stale or null)");
  expectSuccess(R, "offloadLaunchHostFunction");
  ++HostCallsExpected;
}

void Session::opMemInfo() {
  size_t I = pick(Allocs);
  int Prop = In.byte() % 5; // 4: not a property
  size_t Offset = In.u16();
  const void *Ptr = HostBuffer + Offset % sizeof(HostBuffer);
  bool Live = false;
  if (I < Allocs.size()) {
    const Allocation &A = Allocs[I];
    if (!A.Live) {
      for (const Allocation &B : Allocs)
        if (B.Live && A.Ptr + Offset % A.Size >= B.Ptr &&
            A.Ptr + Offset % A.Size < B.Ptr + B.Size)
          return;
    }
    Ptr = A.Ptr + Offset % A.Size;
    Live = A.Live;
  }
  alignas(8) char Value[8];
  offload_result_t R = offloadGetMemInfo(Ptr, asEnum<offload_mem_info_t>(Prop),
                                         sizeof(Value), Value);
  if (!Live || Prop == 4)
    return expectError(R, "offloadGetMemInfo (not an allocation)");
  expectSuccess(R, "offloadGetMemInfo");
  const Allocation &A = Allocs[I];
  if (Prop == OFFLOAD_MEM_INFO_BASE &&
      *reinterpret_cast<char **>(Value) != A.Ptr)
    fail("OFFLOAD_MEM_INFO_BASE is not the allocation's start");
  if (Prop == OFFLOAD_MEM_INFO_SIZE &&
      *reinterpret_cast<size_t *>(Value) != A.Size)
    fail("OFFLOAD_MEM_INFO_SIZE is not the allocation's size");
}

void Session::cleanUp() {
  for (auto &Q : Queues)
    if (Q.Live)
      expectSuccess(offloadDestroyQueue(Q.Value), "offloadDestroyQueue (end)");
  if (HostCalls.load() != HostCallsExpected)
    fail("host functions ran " + Twine(HostCalls.load()) + " times, " +
         Twine(HostCallsExpected) + " were enqueued");
  for (auto &E : Events)
    if (E.Live)
      expectSuccess(offloadDestroyEvent(E.Value), "offloadDestroyEvent (end)");
  for (auto &P : Programs)
    if (P.Live)
      expectSuccess(offloadDestroyProgram(P.Value),
                    "offloadDestroyProgram (end)");
  for (auto &A : Allocs)
    if (A.Live)
      expectSuccess(offloadMemFree(A.Ptr), "offloadMemFree (end)");
}

void Session::run() {
  HostCalls = 0;
  for (size_t Op = 0; Op < MaxOps && !In.empty(); ++Op) {
    switch (In.byte() % 18) {
    case 0:
      opAlloc();
      break;
    case 1:
      opFree();
      break;
    case 2:
      opMemcpy();
      break;
    case 3:
      opFill();
      break;
    case 4:
      opCreateQueue();
      break;
    case 5:
      opDestroyQueue();
      break;
    case 6:
      opSyncQueue();
      break;
    case 7:
      opCreateEvent();
      break;
    case 8:
      opSyncEvent();
      break;
    case 9:
      opDestroyEvent();
      break;
    case 10:
      opWaitEvents();
      break;
    case 11:
      opInfo();
      break;
    case 12:
      opCreateProgram();
      break;
    case 13:
      opDestroyProgram();
      break;
    case 14:
      opGetSymbol();
      break;
    case 15:
      opLaunch();
      break;
    case 16:
      opHostFunction();
      break;
    case 17:
      opMemInfo();
      break;
    }
  }
  cleanUp();
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  if (offload_result_t R = offloadInit())
    fail("offloadInit: " + describe(R));
  if (offload_result_t R = offloadGetHostDevice(&Host))
    fail("offloadGetHostDevice: " + describe(R));
  (void)offload_test::getTestKernels(); // built once, before any input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  Session(Reader{Data, Size}).run();
  return 0;
}
