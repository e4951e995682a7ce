//===- GPUPlugin.cpp - Plugins of stream-based GPU APIs -------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "GPUPlugin.h"

#include "../../Config.h"
#include "OffloadSupport/Environment.h"
#include "OffloadSupport/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace llvm;
using namespace offload;
using namespace offload::gpu;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Driver::~Driver() = default;

Error APIDriver::check(int R, StringRef Call, offload_errc_t Code) const {
  if (R == 0)
    return Error::success();
  auto [Name, Description] = describe(R);
  if (Code == OFFLOAD_ERRC_SUCCESS)
    Code = getErrorCode(R);
  if (Description.empty() || Description == Name)
    return createError(Code, "{0} failed: {1}", Call, Name);
  return createError(Code, "{0} failed: {1} ({2})", Call, Name, Description);
}

Expected<bool> APIDriver::checkQuery(int R, StringRef Call) const {
  if (R == NotReady)
    return false;
  if (Error E = check(R, Call))
    return std::move(E);
  return true;
}

Error APIDriver::checkComplete(int R, StringRef Call) const {
  if (R == NotReady)
    return createError(OFFLOAD_ERRC_NOT_READY,
                       "{0}: an event is not complete yet", Call);
  return check(R, Call);
}

Expected<GPUAttributes>
GPUAttributes::read(const Codes &C, function_ref<Expected<uint32_t>(int)> Get) {
  uint32_t Values[12];
  for (int I = 0; I < 12; ++I) {
    Expected<uint32_t> V = Get(C[I]);
    if (!V)
      return V.takeError();
    Values[I] = *V;
  }
  GPUAttributes A;
  A.MaxThreadsPerBlock = Values[0];
  for (int D = 0; D < 3; ++D) {
    A.MaxBlockDim[D] = Values[1 + D];
    A.MaxGridDim[D] = Values[4 + D];
  }
  A.Multiprocessors = Values[7];
  A.ClockRate = Values[8];
  A.MemoryClockRate = Values[9];
  A.WarpSize = Values[10];
  A.SharedBytesPerBlock = Values[11];
  return A;
}

void gpu::setGPUDeviceInfo(DeviceInfo &Info, const GPUAttributes &A,
                           bool HasHalf) {
  auto Saturate = [](uint64_t V) {
    return static_cast<uint32_t>(std::min<uint64_t>(V, UINT32_MAX));
  };
  Info.Type = OFFLOAD_DEVICE_TYPE_GPU;
  Info.MaxWorkGroupSize = A.MaxThreadsPerBlock;
  Info.MaxWorkGroupSizePerDimension = {A.MaxBlockDim[0], A.MaxBlockDim[1],
                                       A.MaxBlockDim[2]};
  Info.MaxWorkSizePerDimension = {
      Saturate(uint64_t(A.MaxGridDim[0]) * A.MaxBlockDim[0]),
      Saturate(uint64_t(A.MaxGridDim[1]) * A.MaxBlockDim[1]),
      Saturate(uint64_t(A.MaxGridDim[2]) * A.MaxBlockDim[2])};
  // The grid's blocks times the threads of the largest block; the product
  // of four 32-bit values may wrap 64 bits, so saturate in two steps.
  Info.MaxWorkSize = Saturate(
      std::min<uint64_t>(uint64_t(A.MaxGridDim[0]) * A.MaxGridDim[1],
                         UINT32_MAX) *
      std::min<uint64_t>(uint64_t(A.MaxGridDim[2]) * A.MaxThreadsPerBlock,
                         UINT32_MAX));
  Info.NumComputeUnits = A.Multiprocessors;
  // Attributes in kHz; the API in MHz.
  Info.MaxClockFrequency = A.ClockRate / 1000;
  Info.MemoryClockRate = A.MemoryClockRate / 1000;
  Info.SubgroupSize = A.WarpSize;
  Info.WorkGroupLocalMemSize = A.SharedBytesPerBlock;
  Info.AddressBits = 64;
  // IEEE 754 arithmetic with every rounding mode, denormals and FMA for
  // single and double precision; half precision rounds to nearest.
  offload_device_fp_capability_flags_t Full =
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM |
      OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA;
  Info.SingleFPConfig = Full;
  Info.DoubleFPConfig = Full;
  Info.HalfFPConfig = HasHalf
                          ? OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST |
                                OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_INF_NAN |
                                OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM |
                                OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA
                          : 0;
  // Scalar threads (SIMT); half2 arithmetic pairs halves.
  Info.NativeVectorWidthChar = 1;
  Info.NativeVectorWidthShort = 1;
  Info.NativeVectorWidthInt = 1;
  Info.NativeVectorWidthLong = 1;
  Info.NativeVectorWidthFloat = 1;
  Info.NativeVectorWidthDouble = 1;
  Info.NativeVectorWidthHalf = HasHalf ? 2 : 0;
}

//===----------------------------------------------------------------------===//
// Events
//===----------------------------------------------------------------------===//

GPUEvent::~GPUEvent() {
  Dev.getGPUPlugin().removeEvent(this);
  if (Error E = Dev.makeCurrent()) {
    consumeError(std::move(E));
    return;
  }
  consumeError(Dev.getDriver().destroyEvent(Native));
}

Error GPUEvent::synchronize() {
  if (Error E = Dev.makeCurrent())
    return E;
  return Dev.getDriver().synchronizeEvent(Native);
}

bool GPUEvent::isComplete() const {
  if (KnownComplete.load(std::memory_order_acquire))
    return true;
  if (Error E = Dev.makeCurrent()) {
    consumeError(std::move(E));
    return false;
  }
  Expected<bool> Done = Dev.getDriver().queryEvent(Native);
  if (!Done) {
    // A failed query (a faulted context) cannot become complete; the error
    // is reported by the queue or by synchronize.
    consumeError(Done.takeError());
    return false;
  }
  if (*Done)
    KnownComplete.store(true, std::memory_order_release);
  return *Done;
}

Expected<float> GPUEvent::elapsedMillisSince(Event &Start) {
  // The runtime checked that both events are of this device, so Start is a
  // GPUEvent too.
  auto &S = static_cast<GPUEvent &>(Start);
  if (Error E = Dev.makeCurrent())
    return std::move(E);
  Driver &Drv = Dev.getDriver();
  // An event recorded on an idle queue counts as complete before the driver
  // processed the record: wait for both native events (at most a moment).
  if (Error E = Drv.synchronizeEvent(S.Native))
    return std::move(E);
  if (Error E = Drv.synchronizeEvent(Native))
    return std::move(E);
  return Drv.eventElapsedTime(S.Native, Native);
}

//===----------------------------------------------------------------------===//
// Queues
//===----------------------------------------------------------------------===//

GPUQueue::GPUQueue(GPUDevice &D, void *Stream)
    : Queue(D), Dev(D), Stream(Stream) {}

GPUQueue::~GPUQueue() {
  Driver &Drv = Dev.getDriver();
  if (Error E = Dev.makeCurrent()) {
    consumeError(std::move(E));
    return;
  }
  consumeError(Drv.synchronizeStream(Stream));
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    Stopping = true;
  }
  WorkAvailable.notify_all();
  if (Worker.joinable())
    Worker.join();
  if (Error E = Dev.makeCurrent()) {
    consumeError(std::move(E));
    return;
  }
  if (Flag)
    consumeError(Drv.free(Flag, OFFLOAD_ALLOC_TYPE_HOST));
  consumeError(Drv.destroyStream(Stream));
  if (FirstError)
    consumeError(std::move(*FirstError));
}

void GPUQueue::recordError(Error E) {
  if (!E)
    return;
  std::lock_guard<std::mutex> Lock(ErrorMutex);
  if (FirstError)
    consumeError(std::move(E));
  else
    FirstError.emplace(std::move(E));
}

Error GPUQueue::takeError() {
  std::lock_guard<std::mutex> Lock(ErrorMutex);
  if (!FirstError)
    return Error::success();
  Error E = std::move(*FirstError);
  FirstError.reset();
  return E;
}

Error GPUQueue::synchronize() {
  if (Error E = Dev.makeCurrent())
    return E;
  Error StreamError = Dev.getDriver().synchronizeStream(Stream);
  // Host work reports first: it ran (and failed) before the stream finished.
  if (Error HostError = takeError()) {
    consumeError(std::move(StreamError));
    return HostError;
  }
  return StreamError;
}

Expected<bool> GPUQueue::isEmpty() {
  if (Error E = Dev.makeCurrent())
    return std::move(E);
  return Dev.getDriver().queryStream(Stream);
}

Expected<std::shared_ptr<Event>> GPUQueue::recordEvent() {
  if (Error E = Dev.makeCurrent())
    return std::move(E);
  Driver &Drv = Dev.getDriver();
  Expected<void *> Native = Drv.createEvent(/*Timing=*/true);
  if (!Native)
    return Native.takeError();
  // An event of an idle queue is complete at once (the native one completes
  // when the driver gets to it).
  Expected<bool> Idle = Drv.queryStream(Stream);
  if (!Idle) {
    consumeError(Idle.takeError());
    Idle = false;
  }
  if (Error E = Drv.recordEvent(*Native, Stream)) {
    consumeError(Drv.destroyEvent(*Native));
    return std::move(E);
  }
  auto Ev = std::make_shared<GPUEvent>(Dev, *Native, *Idle);
  Dev.getGPUPlugin().addEvent(Ev.get());
  return Ev;
}

Error GPUQueue::waitEvents(ArrayRef<std::shared_ptr<Event>> Events) {
  if (Error E = Dev.makeCurrent())
    return E;
  for (const std::shared_ptr<Event> &Ev : Events) {
    if (Dev.getGPUPlugin().ownsEvent(Ev.get())) {
      // The stream waits on the device, also for an event of another device
      // of the platform.
      auto *GE = static_cast<GPUEvent *>(Ev.get());
      if (Error E = Dev.getDriver().streamWaitEvent(Stream, GE->getNative()))
        return E;
      continue;
    }
    // An event of another platform: the host thread waits for it. The op
    // keeps the event alive.
    if (Error E = enqueueHostOp([Ev] { return Ev->synchronize(); }))
      return E;
  }
  return Error::success();
}

Error GPUQueue::enqueueHostFunction(offload_host_function_cb_t Callback,
                                    void *UserData) {
  return enqueueHostOp([Callback, UserData] {
    Callback(UserData);
    return Error::success();
  });
}

namespace {
/// A host op handed to the driver's callback thread (fallback mode).
struct FallbackOp {
  GPUQueue::HostOp Op;
  GPUQueue *Queue;
};
} // namespace

void GPUQueue::runFallbackOp(void *Data) {
  std::unique_ptr<FallbackOp> F(static_cast<FallbackOp *>(Data));
  F->Queue->recordError(F->Op());
}

Error GPUQueue::enqueueHostOp(HostOp Op) {
  if (Error E = Dev.makeCurrent())
    return E;
  Driver &Drv = Dev.getDriver();
  if (Dev.hasStreamWaitValue()) {
    std::optional<HostOp> Rejected;
    if (Error E = enqueueOnHostThread(std::move(Op), Rejected))
      return E;
    if (!Rejected)
      return Error::success();
    // The stream could not wait on host memory: the driver's callbacks.
    Op = std::move(*Rejected);
  }
  auto *F = new FallbackOp{std::move(Op), this};
  if (Error E = Drv.launchHostFunction(Stream, runFallbackOp, F)) {
    delete F;
    return E;
  }
  return Error::success();
}

Error GPUQueue::enqueueOnHostThread(HostOp Op,
                                    std::optional<HostOp> &Rejected) {
  Driver &Drv = Dev.getDriver();
  // One submission at a time, so that sequence numbers follow stream order.
  std::lock_guard<std::mutex> Lock(Mutex);
  if (!Flag) {
    Expected<void *> Word =
        Drv.allocate(sizeof(uint32_t), OFFLOAD_ALLOC_TYPE_HOST);
    if (!Word)
      return Word.takeError();
    Flag = static_cast<uint32_t *>(*Word);
    __atomic_store_n(Flag, 0u, __ATOMIC_RELEASE);
    Worker = std::thread([this] { runWorker(); });
  }
  Expected<void *> Ev = Drv.createEvent();
  if (!Ev)
    return Ev.takeError();
  if (Error E = Drv.recordEvent(*Ev, Stream)) {
    consumeError(Drv.destroyEvent(*Ev));
    return E;
  }
  uint32_t Sequence = NextSequence + 1;
  if (Error E = Drv.streamWaitValue32(Stream, Flag, Sequence)) {
    // The event marks nothing the thread will wait for; the op goes back.
    consumeError(Drv.destroyEvent(*Ev));
    Dev.disableStreamWaitValue(std::move(E));
    Rejected.emplace(std::move(Op));
    return Error::success();
  }
  NextSequence = Sequence;
  Pending.push_back({std::move(Op), *Ev, Sequence});
  WorkAvailable.notify_one();
  return Error::success();
}

void GPUQueue::runWorker() {
  Driver &Drv = Dev.getDriver();
  while (true) {
    PendingOp Next;
    {
      std::unique_lock<std::mutex> Lock(Mutex);
      WorkAvailable.wait(Lock, [&] { return Stopping || !Pending.empty(); });
      if (Pending.empty())
        return;
      Next = std::move(Pending.front());
      Pending.pop_front();
    }
    Error E = Dev.makeCurrent();
    if (!E) {
      // The work before the op, then the op, even if that work failed: the
      // stream waits for the flag either way.
      E = Drv.synchronizeEvent(Next.Event);
      consumeError(Drv.destroyEvent(Next.Event));
      if (!E)
        E = Next.Op();
    }
    recordError(std::move(E));
    // Destroy the op (and what it captured) before the stream moves on.
    Next.Op = nullptr;
    __atomic_store_n(Flag, Next.Sequence, __ATOMIC_RELEASE);
  }
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

GPUProgram::GPUProgram(GPUDevice &D, void *Module)
    : Program(D), Dev(D), Module(Module) {}

GPUProgram::~GPUProgram() {
  if (Error E = Dev.makeCurrent()) {
    consumeError(std::move(E));
    return;
  }
  consumeError(Dev.getDriver().unloadModule(Module));
}

Expected<std::unique_ptr<Symbol>>
GPUProgram::getSymbol(StringRef Name, offload_symbol_kind_t Kind) {
  if (Error E = Dev.makeCurrent())
    return std::move(E);
  Driver &Drv = Dev.getDriver();
  if (Kind == OFFLOAD_SYMBOL_KIND_KERNEL) {
    Expected<void *> Fn = Drv.getFunction(Module, Name);
    if (!Fn)
      return Fn.takeError();
    auto Kernel = std::make_unique<GPUSymbol>(*this, Name.str(), Kind, *Fn, 0,
                                              Drv.getStaticSharedBytes(*Fn));
    // An unknown layout is no error here: launches with a packed buffer do
    // not need it; the layout queries report why.
    Kernel->setParameterLayout(Drv.getParameterLayout(Module, *Fn, Name));
    return std::move(Kernel);
  }
  Expected<std::pair<void *, uint64_t>> Global = Drv.getGlobal(Module, Name);
  if (!Global)
    return Global.takeError();
  return std::make_unique<GPUSymbol>(*this, Name.str(), Kind, Global->first,
                                     Global->second, 0);
}

void GPUSymbol::setParameterLayout(
    Expected<std::vector<Driver::ParameterSlot>> Layout) {
  LayoutKnown = false;
  Offsets.clear();
  Sizes.clear();
  if (!Layout) {
    // The message alone: the query reports it with its own code.
    LayoutError.clear();
    handleAllErrors(
        Layout.takeError(),
        [&](const OffloadError &E) { LayoutError = E.getMessage(); },
        [&](const ErrorInfoBase &E) { LayoutError = E.message(); });
    return;
  }
  // A struct of the parameters is aligned to its most aligned member; a
  // parameter's alignment is taken as the largest power of two (up to 16)
  // that divides its size, which holds for scalars, pointers and vectors.
  uint64_t End = 0, Align = 1;
  for (const Driver::ParameterSlot &P : *Layout) {
    if (P.Offset < End) {
      LayoutError = formatv("the driver reports parameter {0} of kernel '{1}' "
                            "at offset {2}, inside the previous one",
                            Offsets.size(), getName(), P.Offset)
                        .str();
      Offsets.clear();
      Sizes.clear();
      return;
    }
    Offsets.push_back(P.Offset);
    Sizes.push_back(P.Size);
    End = P.Offset + P.Size;
    if (P.Size)
      Align = std::max<uint64_t>(
          Align, std::min<uint64_t>(16, P.Size & (~P.Size + 1)));
  }
  ParametersEnd = End;
  PaddedSize = alignTo(End, Align);
  LayoutKnown = true;
}

std::optional<uint64_t> GPUSymbol::getArgumentsSize() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL || !LayoutKnown)
    return std::nullopt;
  return PaddedSize;
}

std::optional<uint64_t> GPUSymbol::getMinArgumentsSize() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL || !LayoutKnown)
    return std::nullopt;
  return ParametersEnd;
}

std::optional<Symbol::ArgumentLayout> GPUSymbol::getArgumentLayout() const {
  if (getKind() != OFFLOAD_SYMBOL_KIND_KERNEL || !LayoutKnown)
    return std::nullopt;
  return ArgumentLayout{Offsets, Sizes};
}

std::string GPUSymbol::describeMissingArgumentLayout() const {
  return formatv("the argument layout of kernel '{0}' is unknown: {1}",
                 getName(), LayoutError)
      .str();
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

GPUDevice::GPUDevice(GPUPlugin &P, int Ordinal, void *Context, DeviceInfo Info,
                     bool WaitValue)
    : Device(P), ThePlugin(P), TheDriver(P.getDriver()), Ordinal(Ordinal),
      Context(Context), Info(std::move(Info)), WaitValue(WaitValue) {}

GPUDevice::~GPUDevice() { consumeError(release()); }

void GPUDevice::disableStreamWaitValue(Error Why) {
  if (WaitValue.exchange(false))
    trace::printLine(
        formatv("{0} device {1}: host work falls back to the driver's "
                "host callbacks: {2}",
                TheDriver.getAPIName(), Ordinal, toString(std::move(Why))));
  else
    consumeError(std::move(Why));
}

Error GPUDevice::makeCurrent() const {
  return TheDriver.makeCurrent(Ordinal, Context);
}

Error GPUDevice::release() {
  if (!Context)
    return Error::success();
  Error Result = makeCurrent();
  if (!Result && SyncStream) {
    Result = TheDriver.destroyStream(SyncStream);
    SyncStream = nullptr;
  }
  Result =
      joinErrors(std::move(Result), TheDriver.releaseContext(Ordinal, Context));
  Context = nullptr;
  return Result;
}

Expected<void *> GPUDevice::getSyncStream() {
  std::lock_guard<std::mutex> Lock(SyncStreamMutex);
  if (!SyncStream) {
    Expected<void *> S = TheDriver.createStream();
    if (!S)
      return S.takeError();
    SyncStream = *S;
  }
  return SyncStream;
}

Error GPUDevice::submit(Queue *Q, function_ref<Error(void *Stream)> Submit) {
  if (Q)
    return Submit(static_cast<GPUQueue *>(Q)->getStream());
  Expected<void *> S = getSyncStream();
  if (!S)
    return S.takeError();
  if (Error E = Submit(*S)) {
    // Work submitted before the failure may still run.
    consumeError(TheDriver.synchronizeStream(*S));
    return E;
  }
  return TheDriver.synchronizeStream(*S);
}

Error GPUDevice::runOnHost(Queue *Q, GPUQueue::HostOp Op) {
  if (!Q)
    return Op();
  return static_cast<GPUQueue *>(Q)->enqueueHostOp(std::move(Op));
}

Error GPUDevice::copyNow(void *Dst, const void *Src, size_t Size) {
  if (Error E = makeCurrent())
    return E;
  if (TheDriver.classify(Dst) == PointerKind::Pageable &&
      TheDriver.classify(Src) == PointerKind::Pageable) {
    std::memmove(Dst, Src, Size);
    return Error::success();
  }
  return submit(nullptr, [&](void *S) {
    return TheDriver.memcpyAsync(Dst, Src, Size, S);
  });
}

Expected<void *> GPUDevice::allocate(size_t Size, offload_alloc_type_t Kind) {
  if (Error E = makeCurrent())
    return std::move(E);
  return TheDriver.allocate(Size, Kind);
}

Error GPUDevice::free(void *Ptr, offload_alloc_type_t Kind) {
  if (Error E = makeCurrent())
    return E;
  {
    std::lock_guard<std::mutex> Lock(AlignedMutex);
    auto It = AlignedBases.find(Ptr);
    if (It != AlignedBases.end()) {
      Ptr = It->second;
      AlignedBases.erase(It);
    }
  }
  return TheDriver.free(Ptr, Kind);
}

Expected<void *> GPUDevice::allocateAligned(size_t Size,
                                            offload_alloc_type_t Kind,
                                            size_t Alignment) {
  if (Alignment <= kDriverAlignment)
    return allocate(Size, Kind);
  if (Alignment > kMaxAlignment)
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "Alignment ({0}) is above the {1} bytes {2} "
                       "allocations can be aligned to",
                       Alignment, kMaxAlignment, TheDriver.getAPIName());
  size_t Extra = Alignment - kDriverAlignment;
  if (Size > std::numeric_limits<size_t>::max() - Extra)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "Size ({0}) plus the {1} bytes that align it to {2} "
                       "does not fit in size_t",
                       Size, Extra, Alignment);
  Expected<void *> Base = allocate(Size + Extra, Kind);
  if (!Base)
    return Base.takeError();
  uintptr_t Address = reinterpret_cast<uintptr_t>(*Base);
  uintptr_t Aligned = alignTo(Address, Alignment);
  if (Aligned - Address > Extra) {
    consumeError(free(*Base, Kind));
    return createError(OFFLOAD_ERRC_BACKEND_FAILURE,
                       "{0} returned an allocation ({1}) not aligned to the "
                       "{2} bytes its drivers guarantee",
                       TheDriver.getAPIName(), formatPointer(*Base),
                       kDriverAlignment);
  }
  if (Aligned != Address) {
    std::lock_guard<std::mutex> Lock(AlignedMutex);
    AlignedBases[reinterpret_cast<void *>(Aligned)] = *Base;
  }
  return reinterpret_cast<void *>(Aligned);
}

Error GPUDevice::memcpy(Queue *Q, void *Dst, const void *Src, size_t Size) {
  if (!Q)
    return copyNow(Dst, Src, Size);
  if (Error E = makeCurrent())
    return E;
  bool Pageable = TheDriver.classify(Dst) == PointerKind::Pageable ||
                  TheDriver.classify(Src) == PointerKind::Pageable;
  // An asynchronous copy from or to pageable memory blocks the caller until
  // the stream reaches it (the driver stages it): the host thread does it.
  if (Pageable && WaitValue)
    return runOnHost(
        Q, [this, Dst, Src, Size] { return copyNow(Dst, Src, Size); });
  return TheDriver.memcpyAsync(Dst, Src, Size,
                               static_cast<GPUQueue *>(Q)->getStream());
}

Error GPUDevice::prefetch(Queue &Q, const void *Ptr, size_t Size,
                          bool ToDevice) {
  if (Error E = makeCurrent())
    return E;
  if (!TheDriver.isManaged(Ptr))
    return Error::success();
  return TheDriver.prefetch(Ordinal, Ptr, Size, ToDevice,
                            static_cast<GPUQueue &>(Q).getStream());
}

Error GPUDevice::fill(Queue *Q, void *Ptr, ArrayRef<uint8_t> Pattern,
                      size_t Size) {
  if (Error E = makeCurrent())
    return E;
  size_t P = Pattern.size();
  SmallVector<uint8_t, 16> Copy(Pattern.begin(), Pattern.end());

  // Pageable host memory: the host fills it, in queue order.
  if (TheDriver.classify(Ptr) == PointerKind::Pageable)
    return runOnHost(Q, [Ptr, Size, Copy = std::move(Copy)] {
      fillHostMemory(Ptr, Copy, Size);
      return Error::success();
    });

  uintptr_t Address = reinterpret_cast<uintptr_t>(Ptr);
  bool Uniform = std::all_of(Pattern.begin(), Pattern.end(),
                             [&](uint8_t B) { return B == Pattern[0]; });
  if (Size % P == 0) {
    // One byte repeated, whatever the pattern size.
    if (Uniform)
      return submit(Q, [&](void *S) {
        return TheDriver.memsetAsync(Ptr, Pattern[0], 1, Size, S);
      });
    if ((P == 2 || P == 4) && Address % P == 0) {
      uint32_t Value = 0;
      std::memcpy(&Value, Pattern.data(), P);
      return submit(Q, [&](void *S) {
        return TheDriver.memsetAsync(Ptr, Value, P, Size / P, S);
      });
    }
    // Small multiples of 4 bytes: one strided 32-bit memset per word.
    if (P % 4 == 0 && P <= 32 && Address % 4 == 0) {
      Error E = submit(Q, [&](void *S) -> Error {
        for (size_t Word = 0; Word < P / 4; ++Word) {
          uint32_t Value;
          std::memcpy(&Value, Pattern.data() + 4 * Word, 4);
          if (Error E = TheDriver.memset2D32Async(static_cast<uint8_t *>(Ptr) +
                                                      4 * Word,
                                                  P, Value, Size / P, S))
            return E;
        }
        return Error::success();
      });
      if (!E)
        return Error::success();
      // An API without strided memsets: stage on the host below. Other
      // failures are real.
      Error Rest = handleErrors(std::move(E), [](const OffloadError &OE) {
        return OE.getCode() == OFFLOAD_ERRC_UNSUPPORTED
                   ? Error::success()
                   : createError(OE.getCode(), OE.getMessage());
      });
      if (Rest)
        return Rest;
    }
  }

  // Any other pattern: fill a host buffer and copy it.
  std::vector<uint8_t> Staged(Size);
  fillHostMemory(Staged.data(), Copy, Size);
  if (!Q)
    return copyNow(Ptr, Staged.data(), Size);
  if (!WaitValue)
    // The driver stages pageable memory before the call returns.
    return TheDriver.memcpyAsync(Ptr, Staged.data(), Size,
                                 static_cast<GPUQueue *>(Q)->getStream());
  return runOnHost(Q, [this, Ptr, Staged = std::move(Staged)] {
    return copyNow(Ptr, Staged.data(), Staged.size());
  });
}

Expected<void *> GPUDevice::registerHostMemory(void *HostPtr, size_t Size) {
  if (Error E = makeCurrent())
    return std::move(E);
  if (Error E = ThePlugin.registerHost(*this, HostPtr, Size))
    return std::move(E);
  // Unified addressing: the device uses the host address.
  return HostPtr;
}

Error GPUDevice::unregisterHostMemory(void *HostPtr) {
  if (Error E = makeCurrent())
    return E;
  return ThePlugin.unregisterHost(*this, HostPtr);
}

Expected<std::unique_ptr<Queue>> GPUDevice::createQueue() {
  if (Error E = makeCurrent())
    return std::move(E);
  Expected<void *> S = TheDriver.createStream();
  if (!S)
    return S.takeError();
  return std::make_unique<GPUQueue>(*this, *S);
}

bool GPUDevice::isValidBinary(StringRef Image) const {
  return TheDriver.isValidBinary(Image);
}

Expected<std::unique_ptr<Program>> GPUDevice::loadProgram(StringRef Image) {
  if (Error E = makeCurrent())
    return std::move(E);
  Expected<void *> Module = TheDriver.loadModule(Image);
  if (!Module)
    return Module.takeError();
  return std::make_unique<GPUProgram>(*this, *Module);
}

Expected<LaunchDims>
GPUDevice::prepareLaunch(GPUSymbol &Sym,
                         const offload_kernel_launch_size_args_t &Size) {
  if (Size.DynSharedMemory > UINT_MAX)
    return createError(OFFLOAD_ERRC_OUT_OF_RESOURCES,
                       "kernel '{0}': {1} bytes of dynamic shared memory do "
                       "not fit the 32 bits of the {2} launch",
                       Sym.getName(), Size.DynSharedMemory,
                       TheDriver.getAPIName());
  // Dynamic shared memory above the default needs the kernel's opt-in.
  uint64_t Allowed = Sym.MaxDynamicShared.load(std::memory_order_relaxed);
  if (Size.DynSharedMemory > Allowed) {
    if (Error E = TheDriver.setMaxDynamicSharedBytes(Sym.getFunction(),
                                                     Size.DynSharedMemory))
      return std::move(E);
    Sym.MaxDynamicShared.store(Size.DynSharedMemory, std::memory_order_relaxed);
  }
  return LaunchDims{{Size.NumGroups.x, Size.NumGroups.y, Size.NumGroups.z},
                    {Size.GroupSize.x, Size.GroupSize.y, Size.GroupSize.z},
                    static_cast<unsigned>(Size.DynSharedMemory)};
}

Error GPUDevice::launchKernel(Queue *Q, Symbol &Kernel, ArrayRef<uint8_t> Args,
                              const offload_kernel_launch_size_args_t &Size) {
  if (Error E = makeCurrent())
    return E;
  auto &Sym = static_cast<GPUSymbol &>(Kernel);
  Expected<LaunchDims> Dims = prepareLaunch(Sym, Size);
  if (!Dims)
    return Dims.takeError();
  // The packed buffer, as the `extra` array of the launch functions names
  // it: {BUFFER_POINTER, data, BUFFER_SIZE, &size, END}.
  Driver::LaunchParamTags Tags = TheDriver.getLaunchParamTags();
  size_t ArgSize = Args.size();
  void *Extra[] = {reinterpret_cast<void *>(Tags.BufferPointer),
                   const_cast<uint8_t *>(Args.data()),
                   reinterpret_cast<void *>(Tags.BufferSize), &ArgSize,
                   reinterpret_cast<void *>(Tags.End)};
  return submit(Q, [&](void *S) {
    return TheDriver.launchKernel(Sym.getFunction(), *Dims, S,
                                  ArgSize ? Extra : nullptr);
  });
}

Expected<uint32_t> Driver::getMaxActiveBlocksPerMultiprocessor(void *, uint32_t,
                                                               size_t) {
  return createError(OFFLOAD_ERRC_UNSUPPORTED,
                     "{0} has no cooperative launches", getAPIName());
}

Error Driver::launchCooperativeKernel(void *, const LaunchDims &, void *,
                                      void **) {
  return createError(OFFLOAD_ERRC_UNSUPPORTED,
                     "{0} has no cooperative launches", getAPIName());
}

Expected<uint32_t> GPUDevice::getMaxCooperativeGroupCount(
    Symbol &Kernel, const offload_kernel_launch_size_args_t &Size) {
  if (!Info.CooperativeLaunchSupport)
    return Device::getMaxCooperativeGroupCount(Kernel, Size);
  if (Error E = makeCurrent())
    return std::move(E);
  auto &Sym = static_cast<GPUSymbol &>(Kernel);
  uint64_t Threads =
      uint64_t(Size.GroupSize.x) * Size.GroupSize.y * Size.GroupSize.z;
  Expected<uint32_t> PerSM = TheDriver.getMaxActiveBlocksPerMultiprocessor(
      Sym.getFunction(), uint32_t(std::min<uint64_t>(Threads, UINT32_MAX)),
      Size.DynSharedMemory);
  if (!PerSM)
    return PerSM.takeError();
  return uint32_t(
      std::min<uint64_t>(uint64_t(*PerSM) * Info.NumComputeUnits, UINT32_MAX));
}

Error GPUDevice::launchCooperativeKernel(
    Queue *Q, Symbol &Kernel, ArrayRef<uint8_t> Args,
    const offload_kernel_launch_size_args_t &Size) {
  if (!Info.CooperativeLaunchSupport)
    return Device::launchCooperativeKernel(Q, Kernel, Args, Size);
  if (Error E = makeCurrent())
    return E;
  auto &Sym = static_cast<GPUSymbol &>(Kernel);
  // A cooperative launch takes a pointer per parameter: into the packed
  // buffer, by the kernel's layout (the driver copies the values at the
  // call).
  std::optional<Symbol::ArgumentLayout> Layout = Sym.getArgumentLayout();
  if (!Layout)
    return createError(OFFLOAD_ERRC_UNSUPPORTED,
                       "cooperative launch of kernel '{0}': {1}", Sym.getName(),
                       Sym.describeMissingArgumentLayout());
  SmallVector<void *, 16> Params;
  for (size_t I = 0; I < Layout->Offsets.size(); ++I) {
    if (Layout->Offsets[I] + Layout->Sizes[I] > Args.size())
      return createError(OFFLOAD_ERRC_INVALID_ARGUMENT,
                         "kernel '{0}': parameter {1} lies past the {2} bytes "
                         "of ArgumentsData",
                         Sym.getName(), I, Args.size());
    Params.push_back(const_cast<uint8_t *>(Args.data()) + Layout->Offsets[I]);
  }
  Expected<LaunchDims> Dims = prepareLaunch(Sym, Size);
  if (!Dims)
    return Dims.takeError();
  return submit(Q, [&](void *S) {
    return TheDriver.launchCooperativeKernel(Sym.getFunction(), *Dims, S,
                                             Params.data());
  });
}

Expected<uint64_t>
GPUDevice::getOptimalGroupSize(Symbol &Kernel, size_t SharedMemoryPerThread) {
  if (Error E = makeCurrent())
    return std::move(E);
  auto &Sym = static_cast<GPUSymbol &>(Kernel);
  if (std::optional<Expected<uint64_t>> Size = TheDriver.getOptimalBlockSize(
          Sym.getFunction(), SharedMemoryPerThread))
    return std::move(*Size);
  return Device::getOptimalGroupSize(Kernel, SharedMemoryPerThread);
}

//===----------------------------------------------------------------------===//
// Plugin
//===----------------------------------------------------------------------===//

GPUPlugin::~GPUPlugin() { consumeError(deinit()); }

Error GPUPlugin::registerHost(GPUDevice &D, void *Ptr, size_t Size) {
  std::lock_guard<std::mutex> Lock(RegistrationsMutex);
  auto It = Registrations.find(Ptr);
  if (It != Registrations.end()) {
    ++It->second;
    return Error::success();
  }
  if (Error E = D.getDriver().registerHost(Ptr, Size))
    return E;
  Registrations.emplace(Ptr, 1);
  return Error::success();
}

Error GPUPlugin::unregisterHost(GPUDevice &D, void *Ptr) {
  std::lock_guard<std::mutex> Lock(RegistrationsMutex);
  auto It = Registrations.find(Ptr);
  if (It != Registrations.end() && --It->second > 0)
    return Error::success();
  if (It != Registrations.end())
    Registrations.erase(It);
  // Memory we did not register: the driver reports it.
  return D.getDriver().unregisterHost(Ptr);
}

void GPUPlugin::addEvent(const Event *E) {
  std::lock_guard<std::mutex> Lock(EventsMutex);
  Events.insert(E);
}

void GPUPlugin::removeEvent(const Event *E) {
  std::lock_guard<std::mutex> Lock(EventsMutex);
  Events.erase(E);
}

bool GPUPlugin::ownsEvent(const Event *E) const {
  std::lock_guard<std::mutex> Lock(EventsMutex);
  return Events.count(E);
}

Error GPUPlugin::init() {
  Devices.clear();
  DriverStatus S = TheDriver->initialize();
  Version = S.NumDevices ? TheDriver->getVersion() : "";
  // A debugging aid: OFFLOAD_GPU_STREAM_WAIT=0 runs host work on the
  // driver's callback thread instead of the queues' host threads.
  bool AllowWaitValue = env::GPUStreamWait.getFlag(true);
  std::string Skipped;
  for (unsigned I = 0; I < S.NumDevices; ++I) {
    auto Fail = [&](Error E) {
      Skipped +=
          formatv("; device {0} skipped: {1}", I, toString(std::move(E))).str();
    };
    Expected<void *> Context = TheDriver->retainContext(I);
    if (!Context) {
      Fail(Context.takeError());
      continue;
    }
    if (Error E = TheDriver->makeCurrent(I, *Context)) {
      consumeError(TheDriver->releaseContext(I, *Context));
      Fail(std::move(E));
      continue;
    }
    Expected<DeviceInfo> Info = TheDriver->queryDeviceInfo(I);
    if (!Info) {
      consumeError(TheDriver->releaseContext(I, *Context));
      Fail(Info.takeError());
      continue;
    }
    bool WaitValue = AllowWaitValue && TheDriver->supportsStreamWaitValue(I);
    Devices.push_back(std::make_unique<GPUDevice>(*this, I, *Context,
                                                  std::move(*Info), WaitValue));
  }
  if (Devices.empty() && S.NumDevices)
    Status =
        (TheDriver->getAPIName() + ": no devices (" + S.Message + Skipped + ")")
            .str();
  else if (Devices.empty())
    Status =
        (TheDriver->getAPIName() + ": no devices (" + S.Message + ")").str();
  else
    Status = formatv("{0}: {1} device(s) ({2}{3})", TheDriver->getAPIName(),
                     Devices.size(), S.Message, Skipped)
                 .str();
  trace::printLine(Status);
  return Error::success();
}

Error GPUPlugin::deinit() {
  Error Result = Error::success();
  // Registrations the program did not undo.
  if (!Devices.empty()) {
    std::lock_guard<std::mutex> Lock(RegistrationsMutex);
    if (Error E = Devices.front()->makeCurrent())
      consumeError(std::move(E));
    else
      for (auto &Entry : Registrations)
        consumeError(TheDriver->unregisterHost(Entry.first));
  }
  Registrations.clear();
  for (std::unique_ptr<GPUDevice> &D : Devices)
    Result = joinErrors(std::move(Result), D->release());
  Devices.clear();
  return Result;
}
