//===- OffloadModule.cpp - The offload._offload extension module ----------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// nanobind bindings of the runtime C API (OffloadAPI.h) and the JIT C API
// (OffloadJIT.h): devices, memory with NumPy/DLPack interop, queues, events,
// programs created from MLIR and launches with run-time specialization. The
// Python package `offload` (python/offload/__init__.py) re-exports these
// classes and adds the conveniences written in Python.
//
// Launches pack the packed argument buffer of docs/HostTarget.md here, in C++,
// from the kernel's signature (offloadJITGetKernelSignature): memrefs become
// {allocated, aligned, offset, sizes[rank], strides[rank]}, scalars their
// bytes, each at its natural alignment.
//
//===----------------------------------------------------------------------===//

#include "OffloadJIT/OffloadJIT.h"
#include "OffloadRuntime/OffloadAPI.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using namespace nb::literals;

namespace {

//===----------------------------------------------------------------------===//
// Runtime lifetime and errors
//===----------------------------------------------------------------------===//

/// offload.OffloadError, set by the Python package at import (a strong
/// reference, never released).
PyObject *ErrorClass = nullptr;

bool Initialized = false;
bool ShutDown = false;

/// Whether runtime handles are still valid (false after the exit handler).
bool runtimeAlive() { return Initialized && !ShutDown; }

/// Raises offload.OffloadError(code, message) for \p R. Needs the GIL.
[[noreturn]] void raiseError(offload_result_t R) {
  std::string Code = offloadErrcName(R->Code);
  const std::string Prefix = "OFFLOAD_ERRC_";
  if (Code.compare(0, Prefix.size(), Prefix) == 0)
    Code.erase(0, Prefix.size());
  const char *Details = R->Details ? R->Details : "";
  nb::object Message =
      nb::steal(PyUnicode_DecodeUTF8(Details, std::strlen(Details), "replace"));
  if (!Message.is_valid())
    throw nb::python_error();
  PyObject *Class = ErrorClass ? ErrorClass : PyExc_RuntimeError;
  nb::object Error =
      nb::borrow(Class)(nb::str(Code.c_str()), Message, int(R->Code));
  PyErr_SetObject(Class, Error.ptr());
  throw nb::python_error();
}

void check(offload_result_t R) {
  if (R)
    raiseError(R);
}

void ensureInit() {
  if (ShutDown)
    throw std::runtime_error("the offload runtime was shut down");
  if (Initialized)
    return;
  check(offloadInit());
  Initialized = true;
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

enum class ElementClass { SignedInt, UnsignedInt, Float };

/// A NumPy dtype the package supports.
struct DType {
  const char *Name; ///< NumPy's name
  ElementClass Class;
  unsigned Bits;
  size_t itemSize() const { return Bits / 8; }
};

const DType DTypes[] = {
    {"float16", ElementClass::Float, 16},
    {"float32", ElementClass::Float, 32},
    {"float64", ElementClass::Float, 64},
    {"int8", ElementClass::SignedInt, 8},
    {"int16", ElementClass::SignedInt, 16},
    {"int32", ElementClass::SignedInt, 32},
    {"int64", ElementClass::SignedInt, 64},
    {"uint8", ElementClass::UnsignedInt, 8},
    {"uint16", ElementClass::UnsignedInt, 16},
    {"uint32", ElementClass::UnsignedInt, 32},
    {"uint64", ElementClass::UnsignedInt, 64},
};

std::string supportedDTypeNames() {
  std::string Names;
  for (const DType &T : DTypes)
    Names += (Names.empty() ? "" : ", ") + std::string(T.Name);
  return Names;
}

const DType *findDType(const std::string &Name) {
  for (const DType &T : DTypes)
    if (Name == T.Name)
      return &T;
  return nullptr;
}

nb::tuple toTuple(const std::vector<int64_t> &Values) {
  nb::object T = nb::steal(PyTuple_New(Py_ssize_t(Values.size())));
  for (size_t I = 0; I < Values.size(); ++I)
    PyTuple_SET_ITEM(T.ptr(), Py_ssize_t(I), PyLong_FromLongLong(Values[I]));
  return nb::borrow<nb::tuple>(T);
}

nb::module_ &numpy() {
  static nb::module_ *NumPy = new nb::module_(nb::module_::import_("numpy"));
  return *NumPy;
}

/// Resolves anything numpy.dtype() accepts (np.float32, "float32", "f4", a
/// dtype) to a supported DType; TypeError otherwise.
const DType &toDType(nb::handle Object) {
  nb::object Dtype;
  try {
    Dtype = numpy().attr("dtype")(Object);
  } catch (nb::python_error &E) {
    throw nb::type_error(
        ("not a dtype: " + std::string(nb::str(Object).c_str())).c_str());
  }
  std::string Name = nb::cast<std::string>(Dtype.attr("name"));
  if (const DType *T = findDType(Name);
      T && nb::cast<bool>(Dtype.attr("isnative")))
    return *T;
  throw nb::type_error(
      ("unsupported dtype " + Name + "; supported: " + supportedDTypeNames())
          .c_str());
}

nb::dlpack::dtype toDLPack(const DType &T) {
  nb::dlpack::dtype D;
  D.code = uint8_t(
      T.Class == ElementClass::Float       ? nb::dlpack::dtype_code::Float
      : T.Class == ElementClass::SignedInt ? nb::dlpack::dtype_code::Int
                                           : nb::dlpack::dtype_code::UInt);
  D.bits = uint8_t(T.Bits);
  D.lanes = 1;
  return D;
}

const DType *fromDLPack(nb::dlpack::dtype D) {
  if (D.lanes != 1)
    return nullptr;
  for (const DType &T : DTypes) {
    nb::dlpack::dtype E = toDLPack(T);
    if (E.code == D.code && E.bits == D.bits)
      return &T;
  }
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Devices
//===----------------------------------------------------------------------===//

// If-chains rather than switches: the runtime's enums grow.
const char *backendName(offload_platform_backend_t Backend) {
  if (Backend == OFFLOAD_PLATFORM_BACKEND_HOST)
    return "host";
  if (Backend == OFFLOAD_PLATFORM_BACKEND_CUDA)
    return "cuda";
  if (Backend == OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    return "amdgpu";
  return "unknown";
}

const char *deviceTypeName(offload_device_type_t Type) {
  if (Type == OFFLOAD_DEVICE_TYPE_GPU)
    return "gpu";
  if (Type == OFFLOAD_DEVICE_TYPE_CPU)
    return "cpu";
  if (Type == OFFLOAD_DEVICE_TYPE_HOST)
    return "host";
  return "unknown";
}

struct Device {
  offload_device_handle_t Handle = nullptr;
  /// Position in offloadIterateDevices order (the host device is 0).
  uint32_t Index = 0;

  template <typename T> T info(offload_device_info_t Name) const {
    T Value{};
    check(offloadGetDeviceInfo(Handle, Name, sizeof(T), &Value));
    return Value;
  }
  std::string infoString(offload_device_info_t Name) const {
    size_t Size = 0;
    check(offloadGetDeviceInfoSize(Handle, Name, &Size));
    std::string Value(Size, '\0');
    check(offloadGetDeviceInfo(Handle, Name, Size, Value.data()));
    Value.resize(std::strlen(Value.c_str()));
    return Value;
  }
  offload_platform_handle_t platform() const {
    return info<offload_platform_handle_t>(OFFLOAD_DEVICE_INFO_PLATFORM);
  }
  std::string platformString(offload_platform_info_t Name) const {
    offload_platform_handle_t P = platform();
    size_t Size = 0;
    check(offloadGetPlatformInfoSize(P, Name, &Size));
    std::string Value(Size, '\0');
    check(offloadGetPlatformInfo(P, Name, Size, Value.data()));
    Value.resize(std::strlen(Value.c_str()));
    return Value;
  }
  offload_platform_backend_t backend() const {
    offload_platform_backend_t B = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
    check(offloadGetPlatformInfo(platform(), OFFLOAD_PLATFORM_INFO_BACKEND,
                                 sizeof(B), &B));
    return B;
  }
  bool isHost() const { return backend() == OFFLOAD_PLATFORM_BACKEND_HOST; }
};

std::vector<Device> listDevices() {
  ensureInit();
  std::vector<offload_device_handle_t> Handles;
  check(offloadIterateDevices(
      [](offload_device_handle_t D, void *User) {
        static_cast<std::vector<offload_device_handle_t> *>(User)->push_back(D);
        return true;
      },
      &Handles));
  std::vector<Device> Devices;
  for (size_t I = 0; I < Handles.size(); ++I)
    Devices.push_back({Handles[I], uint32_t(I)});
  return Devices;
}

Device hostDevice() {
  static std::optional<Device> Host;
  if (Host && runtimeAlive())
    return *Host;
  ensureInit();
  offload_device_handle_t H = nullptr;
  check(offloadGetHostDevice(&H));
  Host = Device{H, 0};
  for (const Device &D : listDevices())
    if (D.Handle == H)
      Host = D;
  return *Host;
}

std::string formatBytes(uint64_t Bytes) {
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double Value = double(Bytes);
  int Unit = 0;
  while (Value >= 1024 && Unit < 4) {
    Value /= 1024;
    ++Unit;
  }
  char Buffer[32];
  std::snprintf(Buffer, sizeof(Buffer), Unit ? "%.1f %s" : "%.0f %s", Value,
                Units[Unit]);
  return Buffer;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// One offloadMemAlloc allocation, freed when the last owner goes: the Array,
/// NumPy views of it, and queued work that uses it.
struct Allocation {
  void *Ptr = nullptr;
  size_t Bytes = 0;
  /// Memory of another library (offload.from_dlpack): not freed here; the
  /// producer's object, which keeps it alive, is released instead.
  PyObject *ExternalOwner = nullptr;
  ~Allocation() {
    if (ExternalOwner) {
      nb::gil_scoped_acquire Acquire;
      Py_DECREF(ExternalOwner);
      return;
    }
    if (Ptr && runtimeAlive())
      (void)offloadMemFree(Ptr);
  }
};

struct Queue;

const char *allocKindName(offload_alloc_type_t Kind) {
  if (Kind == OFFLOAD_ALLOC_TYPE_HOST)
    return "host";
  if (Kind == OFFLOAD_ALLOC_TYPE_DEVICE)
    return "device";
  if (Kind == OFFLOAD_ALLOC_TYPE_MANAGED)
    return "managed";
  return "unknown";
}

offload_alloc_type_t parseAllocKind(const std::string &Kind) {
  if (Kind == "device")
    return OFFLOAD_ALLOC_TYPE_DEVICE;
  if (Kind == "host")
    return OFFLOAD_ALLOC_TYPE_HOST;
  if (Kind == "managed")
    return OFFLOAD_ALLOC_TYPE_MANAGED;
  throw nb::value_error(
      ("kind must be 'device', 'host' or 'managed', not '" + Kind + "'")
          .c_str());
}

struct Array {
  std::shared_ptr<Allocation> Memory;
  Device Dev;
  std::vector<int64_t> Shape;
  const DType *Type = nullptr;
  offload_alloc_type_t Kind = OFFLOAD_ALLOC_TYPE_DEVICE;
  /// The memory can be read and written by the host CPU in place (host
  /// device, or host/managed allocations).
  bool HostAccessible = false;

  int64_t size() const {
    int64_t N = 1;
    for (int64_t D : Shape)
      N *= D;
    return N;
  }
  size_t nbytes() const { return size_t(size()) * Type->itemSize(); }
  const std::shared_ptr<Allocation> &memory() const {
    if (!Memory)
      throw nb::value_error("the offload.Array was freed");
    return Memory;
  }
  std::vector<int64_t> byteStrides() const {
    std::vector<int64_t> Strides(Shape.size());
    int64_t Stride = int64_t(Type->itemSize());
    for (size_t I = Shape.size(); I-- > 0;) {
      Strides[I] = Stride;
      Stride *= Shape[I];
    }
    return Strides;
  }
};

std::vector<int64_t> toShape(nb::handle Object) {
  std::vector<int64_t> Shape;
  auto Add = [&](nb::handle D) {
    if (!PyIndex_Check(D.ptr()))
      throw nb::type_error("shape must be an int or a sequence of ints");
    int64_t V = nb::cast<int64_t>(nb::int_(D));
    if (V < 0)
      throw nb::value_error("shape dimensions must be >= 0");
    Shape.push_back(V);
  };
  if (PyIndex_Check(Object.ptr())) {
    Add(Object);
    return Shape;
  }
  if (!PySequence_Check(Object.ptr()))
    throw nb::type_error("shape must be an int or a sequence of ints");
  for (nb::handle D : Object)
    Add(D);
  return Shape;
}

Array allocate(const Device &Dev, std::vector<int64_t> Shape, const DType &Type,
               offload_alloc_type_t Kind) {
  ensureInit();
  Array A;
  A.Dev = Dev;
  A.Shape = std::move(Shape);
  A.Type = &Type;
  A.Kind = Kind;
  A.HostAccessible = Dev.isHost() || Kind != OFFLOAD_ALLOC_TYPE_DEVICE;
  auto Memory = std::make_shared<Allocation>();
  // offloadMemAlloc rejects zero bytes: empty arrays get one element.
  Memory->Bytes = std::max(A.nbytes(), Type.itemSize());
  check(offloadMemAlloc(Dev.Handle, Kind, Memory->Bytes, &Memory->Ptr));
  A.Memory = std::move(Memory);
  return A;
}

/// A capsule that owns one reference to \p Memory.
nb::capsule ownerOf(const std::shared_ptr<Allocation> &Memory) {
  return nb::capsule(new std::shared_ptr<Allocation>(Memory),
                     [](void *P) noexcept {
                       delete static_cast<std::shared_ptr<Allocation> *>(P);
                     });
}

/// A framework-less nanobind ndarray viewing \p A's memory in place.
/// \p DeviceType and \p DeviceId: DLPack's (kDLCPU for host-accessible
/// memory).
template <typename... Ts>
nb::ndarray<Ts...> viewOf(const Array &A,
                          int32_t DeviceType = nb::device::cpu::value,
                          int32_t DeviceId = 0) {
  const std::shared_ptr<Allocation> &Memory = A.memory();
  std::vector<size_t> Shape(A.Shape.begin(), A.Shape.end());
  return nb::ndarray<Ts...>(Memory->Ptr, Shape.size(), Shape.data(),
                            ownerOf(Memory), /*strides=*/nullptr,
                            toDLPack(*A.Type), DeviceType, DeviceId);
}

/// The ordinal of \p D among the devices of its platform (CUDA's device
/// number for a CUDA device: the plugin lists them in driver order).
int32_t platformOrdinal(const Device &D) {
  int32_t Ordinal = 0;
  offload_platform_handle_t P = D.platform();
  for (const Device &Other : listDevices()) {
    if (Other.Handle == D.Handle)
      return Ordinal;
    if (Other.platform() == P)
      ++Ordinal;
  }
  return Ordinal;
}

/// The DLPack device of \p A: kDLCPU for host-accessible memory, kDLCUDA or
/// kDLROCM with the device's ordinal for device memory of a GPU.
std::pair<int32_t, int32_t> dlpackDevice(const Array &A) {
  if (A.HostAccessible)
    return {nb::device::cpu::value, 0};
  offload_platform_backend_t B = A.Dev.backend();
  if (B == OFFLOAD_PLATFORM_BACKEND_CUDA)
    return {nb::device::cuda::value, platformOrdinal(A.Dev)};
  if (B == OFFLOAD_PLATFORM_BACKEND_AMDGPU)
    return {nb::device::rocm::value, platformOrdinal(A.Dev)};
  throw nb::buffer_error("DLPack export: memory of an unknown device kind");
}

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

struct Queue;
/// Queues with a live handle, for Device.synchronize(); guarded by the GIL.
std::vector<Queue *> &liveQueues() {
  static auto *Queues = new std::vector<Queue *>();
  return *Queues;
}
void forgetQueue(Queue *Q) {
  std::vector<Queue *> &L = liveQueues();
  L.erase(std::remove(L.begin(), L.end(), Q), L.end());
}

struct Queue {
  offload_queue_handle_t Handle = nullptr;
  Device Dev;
  /// What enqueued work uses, released at the next sync: allocations and
  /// Python objects (NumPy arrays) whose memory a kernel or copy reads.
  std::vector<std::shared_ptr<Allocation>> PendingMemory;
  std::vector<nb::object> PendingObjects;

  Queue() = default;
  Queue(Queue &&Other) noexcept
      : Handle(std::exchange(Other.Handle, nullptr)), Dev(Other.Dev),
        PendingMemory(std::move(Other.PendingMemory)),
        PendingObjects(std::move(Other.PendingObjects)) {
    forgetQueue(&Other);
    if (Handle)
      liveQueues().push_back(this);
  }
  Queue(const Queue &) = delete;
  Queue &operator=(const Queue &) = delete;
  ~Queue() { destroy(); }
  void destroy() {
    forgetQueue(this);
    if (Handle && runtimeAlive()) {
      nb::gil_scoped_release Release;
      (void)offloadDestroyQueue(Handle);
    }
    Handle = nullptr;
  }
  offload_queue_handle_t handle() const {
    if (!Handle)
      throw nb::value_error("the offload.Queue was destroyed");
    return Handle;
  }
  void sync() {
    offload_queue_handle_t H = handle();
    offload_result_t R;
    {
      nb::gil_scoped_release Release;
      R = offloadSyncQueue(H);
    }
    PendingMemory.clear();
    PendingObjects.clear();
    check(R);
  }
};

struct Event {
  offload_event_handle_t Handle = nullptr;
  nb::object QueueRef;
  Event() = default;
  Event(Event &&Other) noexcept
      : Handle(std::exchange(Other.Handle, nullptr)),
        QueueRef(std::move(Other.QueueRef)) {}
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  ~Event() {
    if (Handle && runtimeAlive())
      (void)offloadDestroyEvent(Handle);
  }
  void sync() {
    offload_result_t R;
    {
      nb::gil_scoped_release Release;
      R = offloadSyncEvent(Handle);
    }
    check(R);
  }
};

Queue *toQueue(nb::handle Object) {
  if (Object.is_none())
    return nullptr;
  Queue *Q = nullptr;
  if (!nb::try_cast<Queue *>(Object, Q) || !Q)
    throw nb::type_error("queue must be an offload.Queue or None");
  return Q;
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

using HostArray = nb::ndarray<nb::ro, nb::device::cpu>;

/// The bytes of a NumPy (or any buffer/DLPack CPU) array, which must match
/// \p A's dtype and size and be C-contiguous.
HostArray checkedHostArray(const Array &A, nb::handle Object, bool Writable,
                           const char *What) {
  HostArray Host;
  if (!nb::try_cast<HostArray>(Object, Host, /*convert=*/false))
    throw nb::type_error((std::string(What) +
                          " must be an offload.Array or a NumPy array, not " +
                          nb::type_name(Object.type()).c_str())
                             .c_str());
  if (Writable) {
    nb::ndarray<nb::device::cpu> W;
    if (!nb::try_cast(Object, W, false))
      throw nb::value_error((std::string(What) + " is read-only").c_str());
  }
  const DType *T = fromDLPack(Host.dtype());
  if (T != A.Type)
    throw nb::type_error((std::string(What) + " has another dtype than the " +
                          A.Type->Name + " array")
                             .c_str());
  if (int64_t(Host.size()) != A.size())
    throw nb::value_error((std::string(What) + " has " +
                           std::to_string(Host.size()) +
                           " elements, the array " + std::to_string(A.size()))
                              .c_str());
  int64_t Expected = 1;
  for (size_t I = Host.ndim(); I-- > 0;) {
    if (Host.shape(I) != 1 && Host.stride(I) != Expected)
      throw nb::value_error(
          (std::string(What) +
           " must be C-contiguous (use numpy.ascontiguousarray)")
              .c_str());
    Expected *= int64_t(Host.shape(I));
  }
  return Host;
}

void copyBetween(Queue *Q, void *Dst, offload_device_handle_t DstDev,
                 const void *Src, offload_device_handle_t SrcDev,
                 size_t Bytes) {
  if (!Bytes)
    return;
  offload_queue_handle_t QH = Q ? Q->handle() : nullptr;
  offload_result_t R;
  {
    nb::gil_scoped_release Release;
    R = offloadMemcpy(QH, Dst, DstDev, Src, SrcDev, Bytes);
  }
  check(R);
}

/// Copies \p Src into \p Dst (both Arrays).
void copyArray(Array &Dst, Array &Src, Queue *Q) {
  if (Src.Type != Dst.Type)
    throw nb::type_error((std::string("dtype mismatch: cannot copy ") +
                          Src.Type->Name + " elements into a " +
                          Dst.Type->Name + " array")
                             .c_str());
  if (Src.size() != Dst.size())
    throw nb::value_error("the arrays have different numbers of elements");
  const std::shared_ptr<Allocation> &To = Dst.memory();
  const std::shared_ptr<Allocation> &From = Src.memory();
  copyBetween(Q, To->Ptr, Dst.Dev.Handle, From->Ptr, Src.Dev.Handle,
              Dst.nbytes());
  if (Q) {
    Q->PendingMemory.push_back(To);
    Q->PendingMemory.push_back(From);
  }
}

/// Copies \p Source (Array or NumPy array) into \p A.
void copyInto(Array &A, nb::handle Source, Queue *Q) {
  Array *Other = nullptr;
  if (nb::try_cast<Array *>(Source, Other) && Other)
    return copyArray(A, *Other, Q);
  const std::shared_ptr<Allocation> &Memory = A.memory();
  HostArray Host = checkedHostArray(A, Source, /*Writable=*/false, "source");
  copyBetween(Q, Memory->Ptr, A.Dev.Handle, Host.data(), hostDevice().Handle,
              A.nbytes());
  if (Q) {
    Q->PendingMemory.push_back(Memory);
    Q->PendingObjects.push_back(nb::borrow(Source));
  }
}

/// Copies \p A into \p Target (Array or writable NumPy array).
void copyOut(Array &A, nb::handle Target, Queue *Q) {
  Array *Other = nullptr;
  if (nb::try_cast<Array *>(Target, Other) && Other)
    return copyArray(*Other, A, Q);
  const std::shared_ptr<Allocation> &Memory = A.memory();
  HostArray Host = checkedHostArray(A, Target, /*Writable=*/true, "target");
  copyBetween(Q, const_cast<void *>(Host.data()), hostDevice().Handle,
              Memory->Ptr, A.Dev.Handle, A.nbytes());
  if (Q) {
    Q->PendingMemory.push_back(Memory);
    Q->PendingObjects.push_back(nb::borrow(Target));
  }
}

nb::object toNumPy(Array &A) {
  if (A.HostAccessible)
    return nb::cast(viewOf<nb::numpy>(A));
  nb::object Result = numpy().attr("empty")(toTuple(A.Shape), A.Type->Name);
  copyOut(A, Result, nullptr);
  return Result;
}

//===----------------------------------------------------------------------===//
// Kernel signatures
//===----------------------------------------------------------------------===//

constexpr int64_t Dynamic = INT64_MIN;

/// An MLIR scalar type a kernel argument or memref element can have.
struct ScalarType {
  enum Kind { Signless, Signed, Unsigned, Float, BFloat, Index } K = Signless;
  unsigned Bits = 0;
  /// Bytes in the packed buffer (and in memory): i1 takes one.
  size_t size() const { return K == Index ? 8 : std::max(1u, (Bits + 7) / 8); }
};

std::optional<ScalarType> parseScalar(const std::string &Text) {
  auto Digits = [](const std::string &S, size_t From) -> unsigned {
    if (From >= S.size())
      return 0;
    for (size_t I = From; I < S.size(); ++I)
      if (!std::isdigit(static_cast<unsigned char>(S[I])))
        return 0;
    return unsigned(std::stoul(S.substr(From)));
  };
  ScalarType T;
  if (Text == "index") {
    T.K = ScalarType::Index;
    T.Bits = 64;
    return T;
  }
  if (Text == "bf16") {
    T.K = ScalarType::BFloat;
    T.Bits = 16;
    return T;
  }
  if (Text == "f16" || Text == "f32" || Text == "f64") {
    T.K = ScalarType::Float;
    T.Bits = Digits(Text, 1);
    return T;
  }
  unsigned Bits = 0;
  if (Text.rfind("si", 0) == 0 && (Bits = Digits(Text, 2)))
    T.K = ScalarType::Signed;
  else if (Text.rfind("ui", 0) == 0 && (Bits = Digits(Text, 2)))
    T.K = ScalarType::Unsigned;
  else if (Text.rfind("i", 0) == 0 && (Bits = Digits(Text, 1)))
    T.K = ScalarType::Signless;
  else
    return std::nullopt;
  if (Bits > 64)
    return std::nullopt;
  T.Bits = Bits;
  return T;
}

/// Whether NumPy dtype \p D can be an element of a memref of \p T.
bool elementMatches(const ScalarType &T, const DType &D) {
  switch (T.K) {
  case ScalarType::Float:
    return D.Class == ElementClass::Float && D.Bits == T.Bits;
  case ScalarType::Signless:
    return D.Class != ElementClass::Float && D.Bits == T.Bits;
  case ScalarType::Signed:
    return D.Class == ElementClass::SignedInt && D.Bits == T.Bits;
  case ScalarType::Unsigned:
    return D.Class == ElementClass::UnsignedInt && D.Bits == T.Bits;
  case ScalarType::Index:
    return D.Class == ElementClass::SignedInt && D.Bits == 64;
  case ScalarType::BFloat:
    return false;
  }
  return false;
}

/// The NumPy dtype name(s) for memref elements of \p T.
std::string expectedDTypes(const ScalarType &T) {
  switch (T.K) {
  case ScalarType::Float:
    return "float" + std::to_string(T.Bits);
  case ScalarType::Signless:
    return "int" + std::to_string(T.Bits) + " or uint" + std::to_string(T.Bits);
  case ScalarType::Signed:
    return "int" + std::to_string(T.Bits);
  case ScalarType::Unsigned:
    return "uint" + std::to_string(T.Bits);
  case ScalarType::Index:
    return "int64";
  case ScalarType::BFloat:
    return "bfloat16 (which NumPy lacks)";
  }
  return "?";
}

struct ArgumentInfo {
  std::string Text; ///< the MLIR type, as the JIT printed it
  bool RuntimeConstant = false, Contents = false;
  bool IsMemRef = false;
  bool IsPointer = false;    ///< !llvm.ptr (any address space): an address
  ScalarType Scalar;         ///< the scalar, or the memref's element type
  std::vector<int64_t> Dims; ///< Dynamic for '?'
  /// Layout: identity (contiguous), strided (Strides/Offset, each possibly
  /// Dynamic) or another one the bindings cannot check.
  enum { Identity, Strided, Other } Layout = Identity;
  std::vector<int64_t> Strides;
  int64_t Offset = 0;
  size_t FieldOffset = 0; ///< of its first field in the packed buffer
};

/// Splits \p Text at top-level commas (outside <>, [], (), {}).
std::vector<std::string> splitTopLevel(const std::string &Text) {
  std::vector<std::string> Parts;
  int Depth = 0;
  std::string Current;
  for (char C : Text) {
    if (C == '<' || C == '[' || C == '(' || C == '{')
      ++Depth;
    else if (C == '>' || C == ']' || C == ')' || C == '}')
      --Depth;
    if (C == ',' && Depth == 0) {
      Parts.push_back(Current);
      Current.clear();
      continue;
    }
    Current += C;
  }
  Parts.push_back(Current);
  for (std::string &P : Parts) {
    size_t B = P.find_first_not_of(' '), E = P.find_last_not_of(' ');
    P = B == std::string::npos ? "" : P.substr(B, E - B + 1);
  }
  return Parts;
}

int64_t parseDim(const std::string &S) {
  if (S == "?")
    return Dynamic;
  if (S.empty() ||
      !std::all_of(S.begin(), S.end(), [](char C) { return std::isdigit(C); }))
    throw std::invalid_argument(S);
  return std::stoll(S);
}

/// Parses one line of offloadJITGetKernelSignature.
ArgumentInfo parseArgument(const std::string &Line) {
  ArgumentInfo Info;
  std::string Type = Line;
  const std::string Contents = " runtime_constant contents";
  const std::string Constant = " runtime_constant";
  auto EndsWith = [&](const std::string &Suffix) {
    return Type.size() >= Suffix.size() &&
           Type.compare(Type.size() - Suffix.size(), Suffix.size(), Suffix) ==
               0;
  };
  if (EndsWith(Contents)) {
    Info.RuntimeConstant = Info.Contents = true;
    Type.resize(Type.size() - Contents.size());
  } else if (EndsWith(Constant)) {
    Info.RuntimeConstant = true;
    Type.resize(Type.size() - Constant.size());
  }
  Info.Text = Type;
  auto Unsupported = [&] {
    return nb::type_error(
        ("cannot pass kernel arguments of type " + Type).c_str());
  };
  if (Type.rfind("!llvm.ptr", 0) == 0) {
    Info.IsPointer = true;
    return Info;
  }
  if (Type.rfind("memref<", 0) != 0) {
    std::optional<ScalarType> S = parseScalar(Type);
    if (!S)
      throw Unsupported();
    Info.Scalar = *S;
    return Info;
  }
  Info.IsMemRef = true;
  if (Type.back() != '>')
    throw Unsupported();
  std::vector<std::string> Parts =
      splitTopLevel(Type.substr(7, Type.size() - 8));
  // "4x?xf32": dims, then the element type.
  std::string Shape = Parts[0];
  size_t Start = 0;
  for (;;) {
    size_t X = Shape.find('x', Start);
    if (X == std::string::npos)
      break;
    std::string Dim = Shape.substr(Start, X - Start);
    if (Dim != "?" &&
        (Dim.empty() || !std::all_of(Dim.begin(), Dim.end(),
                                     [](char C) { return std::isdigit(C); })))
      break;
    Info.Dims.push_back(parseDim(Dim));
    Start = X + 1;
  }
  std::optional<ScalarType> Element = parseScalar(Shape.substr(Start));
  if (!Element)
    throw Unsupported();
  Info.Scalar = *Element;
  for (size_t I = 1; I < Parts.size(); ++I) {
    const std::string &P = Parts[I];
    if (P.rfind("strided<", 0) == 0) {
      // strided<[s0, s1], offset: o>
      size_t Open = P.find('['), Close = P.find(']');
      if (Open == std::string::npos || Close == std::string::npos)
        throw Unsupported();
      Info.Layout = ArgumentInfo::Strided;
      std::string List = P.substr(Open + 1, Close - Open - 1);
      if (!List.empty())
        for (const std::string &S : splitTopLevel(List))
          Info.Strides.push_back(parseDim(S));
      size_t Off = P.find("offset:");
      if (Off != std::string::npos) {
        std::string O = P.substr(Off + 7);
        O = O.substr(0, O.find('>'));
        O.erase(std::remove(O.begin(), O.end(), ' '), O.end());
        Info.Offset = parseDim(O);
      }
      if (Info.Strides.size() != Info.Dims.size())
        throw Unsupported();
    } else if (P.rfind("affine_map<", 0) == 0) {
      Info.Layout = ArgumentInfo::Other;
    }
    // Anything else is a memory space: irrelevant to packing.
  }
  return Info;
}

//===----------------------------------------------------------------------===//
// Programs and kernels
//===----------------------------------------------------------------------===//

struct Module {
  offload_jit_program_handle_t Handle = nullptr;
  Device Dev;
  std::string Name; ///< where the MLIR came from, for messages
  Module() = default;
  Module(Module &&Other) noexcept
      : Handle(std::exchange(Other.Handle, nullptr)), Dev(Other.Dev),
        Name(std::move(Other.Name)) {}
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module() {
    if (Handle && runtimeAlive())
      (void)offloadJITDestroyProgram(Handle);
  }
};

struct Kernel {
  nb::object ModuleRef; ///< keeps the program alive
  offload_jit_kernel_handle_t Handle = nullptr;
  Device Dev;
  bool DeviceIsHost = false;
  std::string Name;
  std::vector<ArgumentInfo> Arguments;
  size_t ArgumentsSize = 0;
};

Kernel makeKernel(nb::handle ModuleObject, const std::string &Name) {
  Module &M = nb::cast<Module &>(ModuleObject);
  Kernel K;
  K.ModuleRef = nb::borrow(ModuleObject);
  K.Dev = M.Dev;
  K.DeviceIsHost = M.Dev.isHost();
  K.Name = Name;
  check(offloadJITGetKernel(M.Handle, Name.c_str(), &K.Handle));
  size_t Size = 0;
  check(offloadJITGetKernelSignature(K.Handle, 0, nullptr, &Size));
  std::string Text(Size, '\0');
  check(offloadJITGetKernelSignature(K.Handle, Size, Text.data(), nullptr));
  Text.resize(std::strlen(Text.c_str()));

  // The packed layout (docs/HostTarget.md): each field at its natural
  // alignment, the whole padded to the largest one.
  size_t Offset = 0, MaxAlign = 1;
  auto AddField = [&](size_t FieldSize) {
    Offset = (Offset + FieldSize - 1) / FieldSize * FieldSize;
    size_t At = Offset;
    Offset += FieldSize;
    MaxAlign = std::max(MaxAlign, FieldSize);
    return At;
  };
  size_t Begin = 0;
  while (Begin < Text.size()) {
    size_t End = Text.find('\n', Begin);
    if (End == std::string::npos)
      End = Text.size();
    ArgumentInfo Info = parseArgument(Text.substr(Begin, End - Begin));
    Begin = End + 1;
    if (Info.IsPointer) {
      Info.FieldOffset = AddField(8);
    } else if (Info.IsMemRef) {
      Info.FieldOffset = AddField(8);
      for (size_t I = 1, E = 3 + 2 * Info.Dims.size(); I < E; ++I)
        AddField(8);
    } else {
      size_t S = Info.Scalar.size();
      if (S & (S - 1)) // i24 and friends: round up to a power of two
        S = size_t(1) << (64 - __builtin_clzll(S));
      Info.FieldOffset = AddField(S);
    }
    K.Arguments.push_back(std::move(Info));
  }
  K.ArgumentsSize = (Offset + MaxAlign - 1) / MaxAlign * MaxAlign;
  return K;
}

std::string describeArgument(const Kernel &K, size_t I) {
  return "argument " + std::to_string(I) + " of kernel '" + K.Name + "' (" +
         K.Arguments[I].Text + ")";
}

uint16_t floatToHalf(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  uint32_t Sign = (X >> 16) & 0x8000;
  int32_t Exp = int32_t((X >> 23) & 0xff) - 127 + 15;
  uint32_t Mant = X & 0x7fffff;
  if (((X >> 23) & 0xff) == 0xff) // inf or nan
    return uint16_t(Sign | 0x7c00 | (Mant ? 0x200 : 0));
  if (Exp >= 31)
    return uint16_t(Sign | 0x7c00);
  if (Exp <= 0) {
    if (Exp < -10)
      return uint16_t(Sign);
    Mant |= 0x800000;
    uint32_t Shift = uint32_t(14 - Exp);
    uint32_t Half = Mant >> Shift;
    uint32_t Rest = Mant & ((1u << Shift) - 1), Mid = 1u << (Shift - 1);
    if (Rest > Mid || (Rest == Mid && (Half & 1)))
      ++Half;
    return uint16_t(Sign | Half);
  }
  uint32_t Half = Sign | (uint32_t(Exp) << 10) | (Mant >> 13);
  uint32_t Rest = Mant & 0x1fff;
  if (Rest > 0x1000 || (Rest == 0x1000 && (Half & 1)))
    ++Half; // may carry into the exponent: correct rounding
  return uint16_t(Half);
}

uint16_t floatToBFloat(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  if ((X & 0x7fffffff) > 0x7f800000)
    return uint16_t((X >> 16) | 0x40);
  X += 0x7fff + ((X >> 16) & 1);
  return uint16_t(X >> 16);
}

/// Writes scalar \p Object as \p T at \p Out (checked).
void packScalar(const Kernel &K, size_t I, const ScalarType &T,
                nb::handle Object, char *Out) {
  PyObject *O = Object.ptr();
  bool Plain = PyFloat_CheckExact(O) || PyLong_CheckExact(O);
  if (!Plain && (nb::isinstance<Array>(Object) ||
                 (nb::hasattr(Object, "ndim") &&
                  nb::cast<int>(Object.attr("ndim")) != 0)))
    throw nb::type_error((describeArgument(K, I) + " takes a scalar, not " +
                          nb::type_name(Object.type()).c_str())
                             .c_str());
  if (T.K == ScalarType::Float || T.K == ScalarType::BFloat) {
    double V = PyFloat_AsDouble(O);
    if (V == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      throw nb::type_error((describeArgument(K, I) +
                            " takes a real number, not " +
                            nb::type_name(Object.type()).c_str())
                               .c_str());
    }
    if (T.K == ScalarType::BFloat) {
      uint16_t H = floatToBFloat(float(V));
      std::memcpy(Out, &H, 2);
    } else if (T.Bits == 16) {
      uint16_t H = floatToHalf(float(V));
      std::memcpy(Out, &H, 2);
    } else if (T.Bits == 32) {
      float F = float(V);
      std::memcpy(Out, &F, 4);
    } else {
      std::memcpy(Out, &V, 8);
    }
    return;
  }
  if (!PyIndex_Check(O))
    throw nb::type_error((describeArgument(K, I) + " takes an integer, not " +
                          nb::type_name(Object.type()).c_str())
                             .c_str());
  nb::object Index = nb::steal(PyNumber_Index(O));
  if (!Index.is_valid())
    throw nb::python_error();
  // The value as a signed and as an unsigned 64-bit integer, when it is one.
  int Overflow = 0;
  long long S = PyLong_AsLongLongAndOverflow(Index.ptr(), &Overflow);
  bool FitsS64 = Overflow == 0, FitsU64 = false;
  unsigned long long U = 0;
  if (FitsS64) {
    FitsU64 = S >= 0;
    U = static_cast<unsigned long long>(S);
  } else if (Overflow > 0) {
    U = PyLong_AsUnsignedLongLong(Index.ptr());
    FitsU64 = !PyErr_Occurred();
    PyErr_Clear();
  }
  unsigned Bits = T.Bits;
  bool SignedOk = FitsS64, UnsignedOk = FitsU64;
  if (Bits < 64) {
    long long SMin = -(1LL << (Bits - 1)), SMax = (1LL << (Bits - 1)) - 1;
    SignedOk = FitsS64 && S >= SMin && S <= SMax;
    UnsignedOk = FitsU64 && U <= (1ULL << Bits) - 1;
  }
  bool InRange = T.K == ScalarType::Signed || T.K == ScalarType::Index
                     ? SignedOk
                 : T.K == ScalarType::Unsigned ? UnsignedOk
                                               : SignedOk || UnsignedOk;
  if (!InRange)
    throw nb::value_error((describeArgument(K, I) + ": " +
                           nb::str(Object).c_str() + " is out of range")
                              .c_str());
  if (Bits < 64)
    U &= (1ULL << Bits) - 1;
  std::memcpy(Out, &U, T.size()); // little-endian: the low bytes
}

/// Writes pointer argument \p Object at \p Out: the address of an Array's
/// data (or, on the host device, a NumPy array's), or an int; records what
/// must stay alive.
void packPointer(const Kernel &K, size_t I, nb::handle Object, char *Out,
                 std::vector<std::shared_ptr<Allocation>> &Memory,
                 std::vector<nb::object> &Objects) {
  uint64_t Address = 0;
  Array *A = nullptr;
  if (nb::try_cast<Array *>(Object, A) && A) {
    if (!A->Memory)
      throw nb::value_error(
          (describeArgument(K, I) + ": the offload.Array was freed").c_str());
    if (A->Dev.Handle != K.Dev.Handle)
      throw nb::value_error((describeArgument(K, I) +
                             ": the array lives on another device than the "
                             "kernel's")
                                .c_str());
    Address = reinterpret_cast<uintptr_t>(A->Memory->Ptr);
    Memory.push_back(A->Memory);
  } else if (nb::isinstance<nb::int_>(Object)) {
    Address = nb::cast<uint64_t>(Object);
  } else {
    nb::ndarray<nb::device::cpu> Host;
    if (!K.DeviceIsHost || !nb::try_cast(Object, Host, false))
      throw nb::type_error((describeArgument(K, I) + " takes an offload.Array" +
                            (K.DeviceIsHost ? ", a writable NumPy array" : "") +
                            " or an int address, not " +
                            nb::type_name(Object.type()).c_str())
                               .c_str());
    Address = reinterpret_cast<uintptr_t>(Host.data());
    Objects.push_back(nb::borrow(Object));
  }
  std::memcpy(Out, &Address, sizeof(Address));
}

/// Writes memref argument \p Object (Array or NumPy array) at \p Out, checked
/// against the signature; records what must stay alive.
void packMemRef(const Kernel &K, size_t I, nb::handle Object, char *Out,
                std::vector<std::shared_ptr<Allocation>> &Memory,
                std::vector<nb::object> &Objects) {
  const ArgumentInfo &Info = K.Arguments[I];
  const DType *Type = nullptr;
  char *Data = nullptr;
  std::vector<int64_t> Shape, Strides; // strides in elements
  bool Contiguous = true;
  Array *A = nullptr;
  if (nb::try_cast<Array *>(Object, A) && A) {
    if (!A->Memory)
      throw nb::value_error(
          (describeArgument(K, I) + ": the offload.Array was freed").c_str());
    if (A->Dev.Handle != K.Dev.Handle)
      throw nb::value_error((describeArgument(K, I) +
                             ": the array lives on another device than the "
                             "kernel's")
                                .c_str());
    Type = A->Type;
    Data = static_cast<char *>(A->Memory->Ptr);
    Shape = A->Shape;
    for (int64_t S : A->byteStrides())
      Strides.push_back(S / int64_t(Type->itemSize()));
    Memory.push_back(A->Memory);
  } else {
    nb::ndarray<nb::device::cpu> Host;
    if (!nb::try_cast(Object, Host, false)) {
      nb::ndarray<nb::ro, nb::device::cpu> ReadOnly;
      if (nb::try_cast(Object, ReadOnly, false))
        throw nb::value_error(
            (describeArgument(K, I) + ": the NumPy array is read-only")
                .c_str());
      throw nb::type_error((describeArgument(K, I) + " takes an offload.Array" +
                            (K.DeviceIsHost ? " or a NumPy array" : "") +
                            ", not " + nb::type_name(Object.type()).c_str())
                               .c_str());
    }
    if (!K.DeviceIsHost)
      throw nb::type_error(
          (describeArgument(K, I) +
           " takes an offload.Array on a non-host device: copy the NumPy "
           "array with offload.asarray(x, device=...)")
              .c_str());
    Type = fromDLPack(Host.dtype());
    if (!Type)
      throw nb::type_error(
          (describeArgument(K, I) + " got an array of an unsupported dtype")
              .c_str());
    Data = static_cast<char *>(Host.data());
    for (size_t D = 0; D < Host.ndim(); ++D) {
      Shape.push_back(int64_t(Host.shape(D)));
      Strides.push_back(int64_t(Host.stride(D)));
    }
    if (reinterpret_cast<uintptr_t>(Data) % Type->itemSize())
      throw nb::value_error(
          (describeArgument(K, I) + ": the NumPy array is not aligned")
              .c_str());
    Objects.push_back(nb::borrow(Object));
  }
  if (!elementMatches(Info.Scalar, *Type))
    throw nb::type_error((describeArgument(K, I) + " takes " +
                          expectedDTypes(Info.Scalar) + " elements, not " +
                          Type->Name)
                             .c_str());
  if (Shape.size() != Info.Dims.size())
    throw nb::value_error((describeArgument(K, I) + " takes rank " +
                           std::to_string(Info.Dims.size()) + ", not rank " +
                           std::to_string(Shape.size()))
                              .c_str());
  auto ShapeText = [&] {
    std::string S = "(";
    for (size_t D = 0; D < Shape.size(); ++D)
      S += (D ? ", " : "") + std::to_string(Shape[D]);
    return S + (Shape.size() == 1 ? ",)" : ")");
  };
  for (size_t D = 0; D < Shape.size(); ++D)
    if (Info.Dims[D] != Dynamic && Info.Dims[D] != Shape[D])
      throw nb::value_error((describeArgument(K, I) +
                             " takes a static shape; "
                             "got shape " +
                             ShapeText())
                                .c_str());
  // Strides: canonical (contiguous) ones for the identity layout; those of
  // the array for a strided layout, checked against its static entries.
  int64_t Expected = 1;
  std::vector<int64_t> Canonical(Shape.size());
  for (size_t D = Shape.size(); D-- > 0;) {
    Canonical[D] = Expected;
    if (Shape[D] != 1 && Strides[D] != Expected)
      Contiguous = false;
    Expected *= Shape[D];
  }
  int64_t Offset = 0;
  switch (Info.Layout) {
  case ArgumentInfo::Other:
    throw nb::type_error((describeArgument(K, I) +
                          ": memref layouts other than identity and strided "
                          "are not supported")
                             .c_str());
  case ArgumentInfo::Identity:
    if (!Contiguous)
      throw nb::value_error((describeArgument(K, I) +
                             " takes a C-contiguous array (the memref has the "
                             "identity layout): use numpy.ascontiguousarray")
                                .c_str());
    Strides = Canonical;
    break;
  case ArgumentInfo::Strided:
    for (size_t D = 0; D < Shape.size(); ++D) {
      int64_t S = Info.Strides[D];
      if (S != Dynamic && S != Strides[D] && Shape[D] != 1)
        throw nb::value_error((describeArgument(K, I) +
                               ": the array's strides do not match the "
                               "memref's static strides")
                                  .c_str());
      if (S != Dynamic)
        Strides[D] = S;
    }
    if (Info.Offset != Dynamic)
      Offset = Info.Offset;
    break;
  }
  int64_t Fields[3] = {0, 0, Offset};
  char *Aligned = Data - Offset * int64_t(Type->itemSize());
  std::memcpy(&Fields[0], &Data, 8);
  std::memcpy(&Fields[1], &Aligned, 8);
  std::memcpy(Out, Fields, sizeof(Fields));
  std::memcpy(Out + 24, Shape.data(), 8 * Shape.size());
  std::memcpy(Out + 24 + 8 * Shape.size(), Strides.data(), 8 * Strides.size());
}

/// grid= / block=: an int or a sequence of 1 to 3 ints, each >= 1.
std::vector<uint32_t> toDims(nb::handle Object, const char *What) {
  std::vector<uint32_t> Dims;
  auto Add = [&](nb::handle D) {
    if (!PyIndex_Check(D.ptr()))
      throw nb::type_error(
          (std::string(What) + " must be an int or a tuple of 1 to 3 ints")
              .c_str());
    long long V = nb::cast<long long>(nb::int_(D));
    if (V < 1 || V > UINT32_MAX)
      throw nb::value_error(
          (std::string(What) + " dimensions must be between 1 and 2**32-1")
              .c_str());
    Dims.push_back(uint32_t(V));
  };
  if (PyIndex_Check(Object.ptr()))
    Add(Object);
  else if (PySequence_Check(Object.ptr()))
    for (nb::handle D : Object)
      Add(D);
  else
    throw nb::type_error(
        (std::string(What) + " must be an int or a tuple of 1 to 3 ints")
            .c_str());
  if (Dims.empty() || Dims.size() > 3)
    throw nb::value_error(
        (std::string(What) + " must have 1 to 3 dimensions").c_str());
  return Dims;
}

void launch(Kernel &K, nb::args Args, nb::kwargs Kwargs) {
  if (!runtimeAlive())
    throw std::runtime_error("the offload runtime was shut down");
  nb::handle Grid, Block, SharedMem, QueueObject;
  for (auto [Key, Value] : Kwargs) {
    std::string Name = nb::cast<std::string>(Key);
    if (Name == "grid")
      Grid = Value;
    else if (Name == "block")
      Block = Value;
    else if (Name == "shared_mem")
      SharedMem = Value;
    else if (Name == "queue")
      QueueObject = Value;
    else
      throw nb::type_error(("kernel '" + K.Name +
                            "' got an unexpected keyword argument '" + Name +
                            "'")
                               .c_str());
  }
  if (!Grid.is_valid())
    throw nb::type_error(
        ("kernel '" + K.Name + "' needs grid= (blocks per dimension)").c_str());
  if (Args.size() != K.Arguments.size())
    throw nb::type_error(
        ("kernel '" + K.Name + "' takes " + std::to_string(K.Arguments.size()) +
         " arguments but " + std::to_string(Args.size()) + " were given")
            .c_str());
  std::vector<uint32_t> GridDims = toDims(Grid, "grid");
  std::vector<uint32_t> BlockDims = Block.is_valid() && !Block.is_none()
                                        ? toDims(Block, "block")
                                        : std::vector<uint32_t>{1};
  size_t Shared = 0;
  if (SharedMem.is_valid() && !SharedMem.is_none()) {
    if (!PyIndex_Check(SharedMem.ptr()))
      throw nb::type_error("shared_mem must be an int (bytes)");
    long long V = nb::cast<long long>(nb::int_(SharedMem));
    if (V < 0)
      throw nb::value_error("shared_mem must be >= 0 (bytes)");
    Shared = size_t(V);
  }
  Queue *Q = QueueObject.is_valid() ? toQueue(QueueObject) : nullptr;
  if (Q && Q->Dev.Handle != K.Dev.Handle)
    throw nb::value_error("the queue belongs to another device than the "
                          "kernel's");

  std::vector<uint64_t> Buffer((K.ArgumentsSize + 7) / 8 + 1, 0);
  char *Base = reinterpret_cast<char *>(Buffer.data());
  std::vector<std::shared_ptr<Allocation>> Memory;
  std::vector<nb::object> Objects;
  for (size_t I = 0; I < K.Arguments.size(); ++I) {
    const ArgumentInfo &Info = K.Arguments[I];
    if (Info.IsPointer)
      packPointer(K, I, Args[I], Base + Info.FieldOffset, Memory, Objects);
    else if (Info.IsMemRef)
      packMemRef(K, I, Args[I], Base + Info.FieldOffset, Memory, Objects);
    else
      packScalar(K, I, Info.Scalar, Args[I], Base + Info.FieldOffset);
  }

  offload_kernel_launch_size_args_t Sizes{};
  Sizes.Dimensions = std::max(GridDims.size(), BlockDims.size());
  GridDims.resize(3, 1);
  BlockDims.resize(3, 1);
  Sizes.NumGroups = {GridDims[0], GridDims[1], GridDims[2]};
  Sizes.GroupSize = {BlockDims[0], BlockDims[1], BlockDims[2]};
  Sizes.DynSharedMemory = Shared;
  offload_queue_handle_t QH = Q ? Q->handle() : nullptr;
  offload_result_t R;
  {
    nb::gil_scoped_release Release;
    R = offloadJITLaunchKernel(QH, K.Dev.Handle, K.Handle, Base,
                               K.ArgumentsSize, &Sizes);
  }
  check(R);
  if (Q) {
    Q->PendingMemory.insert(Q->PendingMemory.end(), Memory.begin(),
                            Memory.end());
    Q->PendingObjects.insert(Q->PendingObjects.end(), Objects.begin(),
                             Objects.end());
  }
}

nb::dict jitStats() {
  offload_jit_stats_t S{};
  check(offloadJITGetStats(&S));
  nb::dict D;
  D["launches"] = S.Launches;
  D["compiles"] = S.Compiles;
  D["memory_hits"] = S.MemoryHits;
  D["disk_hits"] = S.DiskHits;
  D["disk_writes"] = S.DiskWrites;
  D["corrupt_entries"] = S.CorruptEntries;
  D["generic_launches"] = S.GenericLaunches;
  D["async_compiles"] = S.AsyncCompiles;
  D["compile_ms"] = S.CompileMilliseconds;
  D["auto_variants"] = S.AutoVariants;
  D["auto_launches"] = S.AutoLaunches;
  D["auto_guard_misses"] = S.AutoGuardMisses;
  D["auto_profile_loads"] = S.AutoProfileLoads;
  D["auto_bound_reached"] = S.AutoBoundReached;
  D["measured_launches"] = S.MeasuredLaunches;
  D["measured_faster"] = S.MeasuredFaster;
  D["measured_slower"] = S.MeasuredSlower;
  D["verdict_loads"] = S.VerdictLoads;
  return D;
}

std::string deviceRepr(const Device &D) {
  std::string Name = D.infoString(OFFLOAD_DEVICE_INFO_NAME);
  return "<offload.Device " + std::to_string(D.Index) + " " +
         backendName(D.backend()) + ": '" + Name + "' (" +
         deviceTypeName(
             D.info<offload_device_type_t>(OFFLOAD_DEVICE_INFO_TYPE)) +
         ", " +
         std::to_string(
             D.info<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS)) +
         " compute units, " +
         formatBytes(D.info<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE)) +
         ")>";
}

} // namespace

NB_MODULE(_offload, m) {
  m.doc() = "Bindings of the offload runtime and JIT C APIs (use the "
            "`offload` package, not this module).";
  nb::set_leak_warnings(false);

  m.def("_set_error_class", [](nb::handle Class) {
    Py_XINCREF(Class.ptr());
    ErrorClass = Class.ptr();
  });
  m.def("_init", &ensureInit,
        "Initializes the runtime (offloadInit) if needed.");
  m.def("_is_initialized", [] { return runtimeAlive(); });
  m.def("_shutdown", [] {
    if (runtimeAlive()) {
      ShutDown = true;
      nb::gil_scoped_release Release;
      (void)offloadJITWaitForCompiles();
      (void)offloadShutDown();
    }
  });
  m.def("_supported_dtypes", [] {
    std::vector<std::string> Names;
    for (const DType &T : DTypes)
      Names.push_back(T.Name);
    return Names;
  });

  //===--------------------------------------------------------------------===//
  // Device
  //===--------------------------------------------------------------------===//
  nb::class_<Device>(m, "Device",
                     "A device of the offload runtime (the host CPU is always "
                     "device 0). Get them with offload.devices(); properties "
                     "are queried from the runtime on access.")
      .def_prop_ro(
          "index", [](const Device &D) { return D.Index; },
          "Position in offload.devices() (the host device is 0).")
      .def_prop_ro(
          "name",
          [](const Device &D) {
            return D.infoString(OFFLOAD_DEVICE_INFO_NAME);
          },
          "Device name (for the host device, the CPU model).")
      .def_prop_ro(
          "vendor",
          [](const Device &D) {
            return D.infoString(OFFLOAD_DEVICE_INFO_VENDOR);
          },
          "Vendor name.")
      .def_prop_ro(
          "driver_version",
          [](const Device &D) {
            return D.infoString(OFFLOAD_DEVICE_INFO_DRIVER_VERSION);
          },
          "Driver version string.")
      .def_prop_ro(
          "type",
          [](const Device &D) {
            return deviceTypeName(
                D.info<offload_device_type_t>(OFFLOAD_DEVICE_INFO_TYPE));
          },
          "'cpu', 'gpu', 'host' or 'unknown'.")
      .def_prop_ro(
          "backend", [](const Device &D) { return backendName(D.backend()); },
          "Platform backend: 'host', 'cuda', 'amdgpu' or 'unknown'.")
      .def_prop_ro("is_host", &Device::isHost,
                   "Whether this is the host device (memory is host memory; "
                   "kernels also take NumPy arrays directly).")
      .def_prop_ro(
          "platform",
          [](const Device &D) {
            nb::dict P;
            P["name"] = D.platformString(OFFLOAD_PLATFORM_INFO_NAME);
            P["vendor"] = D.platformString(OFFLOAD_PLATFORM_INFO_VENDOR_NAME);
            P["version"] = D.platformString(OFFLOAD_PLATFORM_INFO_VERSION);
            P["backend"] = backendName(D.backend());
            return P;
          },
          "The device's platform as a dict: name, vendor, version, "
          "backend.")
      .def_prop_ro(
          "compute_units",
          [](const Device &D) {
            return D.info<uint32_t>(OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS);
          },
          "Number of compute units (CPU cores, GPU SMs/CUs).")
      .def_prop_ro(
          "max_block_size",
          [](const Device &D) {
            return D.info<uint32_t>(OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE);
          },
          "Maximum threads per block (all dimensions together).")
      .def_prop_ro(
          "max_block_dims",
          [](const Device &D) {
            auto V = D.info<offload_dimensions_t>(
                OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION);
            return nb::make_tuple(V.x, V.y, V.z);
          },
          "Maximum threads per block in each dimension, (x, y, z).")
      .def_prop_ro(
          "global_mem_size",
          [](const Device &D) {
            return D.info<uint64_t>(OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE);
          },
          "Global memory size in bytes.")
      .def_prop_ro(
          "shared_mem_size",
          [](const Device &D) {
            return D.info<uint64_t>(
                OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE);
          },
          "Shared (work-group local) memory per block in bytes.")
      .def_prop_ro(
          "subgroup_size",
          [](const Device &D) {
            return D.info<uint32_t>(OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE);
          },
          "Threads per subgroup (warp/wavefront).")
      .def("__repr__", &deviceRepr)
      .def("__eq__",
           [](const Device &A, nb::handle B) {
             Device *Other = nullptr;
             return nb::try_cast<Device *>(B, Other) && Other &&
                    Other->Handle == A.Handle;
           })
      .def("__hash__",
           [](const Device &D) { return std::hash<void *>()(D.Handle); })
      .def(
          "alloc",
          [](const Device &D, nb::handle Shape, nb::handle Dtype,
             const std::string &Kind) {
            return allocate(D, toShape(Shape), toDType(Dtype),
                            parseAllocKind(Kind));
          },
          "shape"_a, "dtype"_a = "float32", "kind"_a = "device",
          "alloc(shape, dtype='float32', kind='device') -> Array\n\n"
          "Allocates an uninitialized array of `shape` (int or tuple of "
          "ints, in elements) and `dtype` (anything numpy.dtype accepts; "
          "supported: float16/32/64, int8/16/32/64, uint8/16/32/64) on this "
          "device. `kind` is 'device' (device memory), 'host' (pinned host "
          "memory the device can access) or 'managed' (unified). Raises "
          "TypeError (dtype), ValueError (shape, kind), OffloadError "
          "(OUT_OF_RESOURCES).")
      .def(
          "queue",
          [](const Device &D) {
            ensureInit();
            Queue Q;
            Q.Dev = D;
            check(offloadCreateQueue(D.Handle, &Q.Handle));
            liveQueues().push_back(&Q);
            return Q;
          },
          "queue() -> Queue\n\nCreates an in-order queue on this device.")
      .def(
          "synchronize",
          [](const Device &D) {
            ensureInit();
            // The Python objects keep the queues alive while the GIL is
            // released in sync().
            std::vector<nb::object> Queues;
            for (Queue *Q : liveQueues())
              if (Q->Dev.Handle == D.Handle)
                if (nb::handle H = nb::find(Q); H.is_valid())
                  Queues.push_back(nb::borrow(H));
            for (nb::object &Q : Queues) {
              Queue &Ref = nb::cast<Queue &>(Q);
              if (Ref.Handle)
                Ref.sync();
            }
          },
          "synchronize()\n\nBlocks until the work of every queue of this "
          "device is done (torch.cuda.synchronize()); copies, fills and "
          "launches without a queue are synchronous already. Raises "
          "OffloadError with the first error of a queue's work (queues "
          "after it are not waited for).");

  //===--------------------------------------------------------------------===//
  // Array
  //===--------------------------------------------------------------------===//
  nb::class_<Array>(
      m, "Array",
      "A C-contiguous n-dimensional array in memory of one device, "
      "allocated with offloadMemAlloc.\n\n"
      "Ownership: the Array owns its allocation. numpy() on host-accessible "
      "memory (the host device, or kind 'host'/'managed') returns a NumPy "
      "view with no copy that keeps the allocation alive; free() or "
      "garbage collection of the Array releases the memory only once every "
      "such view and every queued operation using it are gone. Using a "
      "freed Array raises ValueError.")
      .def_prop_ro(
          "shape", [](const Array &A) { return toTuple(A.Shape); },
          "Shape in elements, a tuple of ints.")
      .def_prop_ro(
          "dtype",
          [](const Array &A) { return numpy().attr("dtype")(A.Type->Name); },
          "Element type, a numpy.dtype.")
      .def_prop_ro(
          "ndim", [](const Array &A) { return A.Shape.size(); },
          "Number of dimensions.")
      .def_prop_ro("size", &Array::size, "Number of elements.")
      .def_prop_ro(
          "itemsize", [](const Array &A) { return A.Type->itemSize(); },
          "Bytes per element.")
      .def_prop_ro("nbytes", &Array::nbytes, "Size in bytes.")
      .def_prop_ro(
          "strides", [](const Array &A) { return toTuple(A.byteStrides()); },
          "Strides in bytes (always C-contiguous).")
      .def_prop_ro(
          "device", [](const Array &A) { return A.Dev; },
          "The Device the memory belongs to.")
      .def_prop_ro(
          "kind", [](const Array &A) { return allocKindName(A.Kind); },
          "'device', 'host' or 'managed'.")
      .def_prop_ro(
          "host_accessible", [](const Array &A) { return A.HostAccessible; },
          "Whether the host can use the memory in place (numpy() "
          "is then a view, not a copy).")
      .def_prop_ro(
          "freed", [](const Array &A) { return !A.Memory; },
          "Whether free() was called.")
      .def_prop_ro(
          "ptr",
          [](const Array &A) {
            return reinterpret_cast<uintptr_t>(A.memory()->Ptr);
          },
          "Device address of the first element, an int.")
      .def("__len__",
           [](const Array &A) {
             if (A.Shape.empty())
               throw nb::type_error("len() of a 0-d array");
             return A.Shape[0];
           })
      .def("numpy", &toNumPy,
           "numpy() -> numpy.ndarray\n\n"
           "The array as NumPy: a writable view with no copy when the memory "
           "is host-accessible (see Array), else a synchronous copy. The "
           "view keeps the memory alive. Raises ValueError if freed.")
      .def(
          "__array__",
          [](Array &A, nb::handle Dtype, nb::handle Copy) {
            nb::object Result = toNumPy(A);
            bool ForceCopy = !Copy.is_none() && nb::cast<bool>(Copy);
            if (!Copy.is_none() && !nb::cast<bool>(Copy) && !A.HostAccessible)
              throw nb::value_error("copy=False needs host-accessible memory");
            if (!Dtype.is_none())
              return Result.attr("astype")(Dtype, "copy"_a = ForceCopy);
            if (ForceCopy && A.HostAccessible)
              return Result.attr("copy")();
            return Result;
          },
          "dtype"_a = nb::none(), "copy"_a = nb::none())
      .def(
          "__dlpack__",
          [](Array &A, nb::kwargs Kwargs) {
            // Host-accessible memory goes through NumPy's exporter, which
            // knows every keyword of the protocol's versions.
            if (A.HostAccessible)
              return toNumPy(A).attr("__dlpack__")(**Kwargs);
            auto [Type, Id] = dlpackDevice(A);
            return nb::cast(viewOf<nb::array_api>(A, Type, Id))
                .attr("__dlpack__")(**Kwargs);
          },
          "__dlpack__(**kwargs)\n\nDLPack export without a copy: "
          "host-accessible memory as kDLCPU, device memory of a CUDA or HIP "
          "device as kDLCUDA / kDLROCM with the device's ordinal. The "
          "capsule keeps the memory alive. Work on queues that writes the "
          "array must be synchronized first (the stream argument is "
          "ignored).")
      .def(
          "__dlpack_device__",
          [](Array &A) {
            auto [Type, Id] = dlpackDevice(A);
            return nb::make_tuple(Type, Id);
          },
          "(device_type, device_id) of DLPack: (1, 0) for host-accessible "
          "memory, (2, N) CUDA, (10, N) ROCm.")
      .def_prop_ro(
          "__cuda_array_interface__",
          [](Array &A) {
            if (A.Dev.backend() != OFFLOAD_PLATFORM_BACKEND_CUDA)
              throw nb::attribute_error(
                  "__cuda_array_interface__: not memory of a CUDA device");
            nb::dict D;
            D["shape"] = toTuple(A.Shape);
            D["typestr"] = numpy().attr("dtype")(A.Type->Name).attr("str");
            D["data"] = nb::make_tuple(
                reinterpret_cast<uintptr_t>(A.memory()->Ptr), false);
            D["strides"] = nb::none(); // C-contiguous
            D["version"] = 3;
            return D;
          },
          "CUDA Array Interface (version 3) of memory of a CUDA device, for "
          "CuPy, Numba, PyTorch: shape, typestr, data (pointer, "
          "read-only=False), strides None (C-contiguous); no stream: "
          "synchronize queued work that writes the array first. "
          "AttributeError on other devices.")
      .def(
          "copy_from",
          [](Array &A, nb::handle Source, nb::handle Q) {
            copyInto(A, Source, toQueue(Q));
          },
          "source"_a, "queue"_a = nb::none(),
          "copy_from(source, queue=None)\n\n"
          "Copies `source` (an Array or a C-contiguous NumPy array with the "
          "same dtype and number of elements) into this array. Synchronous "
          "without a queue; with one, enqueued (the queue keeps both alive "
          "until its next sync()). Raises TypeError (dtype), ValueError "
          "(size, layout, freed).")
      .def(
          "copy_to",
          [](Array &A, nb::handle Target, nb::handle Q) {
            copyOut(A, Target, toQueue(Q));
          },
          "target"_a, "queue"_a = nb::none(),
          "copy_to(target, queue=None)\n\n"
          "Copies this array into `target` (an Array or a writable "
          "C-contiguous NumPy array of the same dtype and size). Same rules "
          "as copy_from.")
      .def(
          "fill",
          [](Array &A, nb::handle Value, nb::handle QObject) {
            const std::shared_ptr<Allocation> &Memory = A.memory();
            Queue *Q = toQueue(QObject);
            if (!A.size())
              return;
            nb::bytes Pattern = nb::borrow<nb::bytes>(
                numpy().attr("array")(Value, A.Type->Name).attr("tobytes")());
            offload_result_t R;
            {
              nb::gil_scoped_release Release;
              R = offloadMemFill(Q ? Q->handle() : nullptr, Memory->Ptr,
                                 A.Type->itemSize(), Pattern.c_str(),
                                 A.nbytes());
            }
            check(R);
            if (Q)
              Q->PendingMemory.push_back(Memory);
          },
          "value"_a, "queue"_a = nb::none(),
          "fill(value, queue=None)\n\nSets every element to `value` (cast to "
          "the dtype as NumPy does).")
      .def(
          "free", [](Array &A) { A.Memory.reset(); },
          "free()\n\nReleases this Array's ownership of the memory (freed "
          "once NumPy views and queued work no longer use it). Later use "
          "raises ValueError. Calling it twice is harmless.")
      .def("__repr__", [](const Array &A) {
        std::string S = "<offload.Array shape=(";
        for (size_t I = 0; I < A.Shape.size(); ++I)
          S += (I ? ", " : "") + std::to_string(A.Shape[I]);
        S += A.Shape.size() == 1 ? ",)" : ")";
        S += " dtype=" + std::string(A.Type->Name) +
             " device=" + std::to_string(A.Dev.Index) + " (" +
             backendName(A.Dev.backend()) + ") kind=" + allocKindName(A.Kind);
        return S + (A.Memory ? ">" : " freed>");
      });

  m.def(
      "_from_dlpack",
      [](nb::handle Producer, nb::ndarray<> X) {
        ensureInit();
        const DType *T = fromDLPack(X.dtype());
        if (!T)
          throw nb::type_error(
              ("unsupported dtype; supported: " + supportedDTypeNames())
                  .c_str());
        // C-contiguous only: an Array has no strides (size-1 dimensions
        // may have any stride).
        int64_t Expected = 1;
        for (size_t I = X.ndim(); I-- > 0;) {
          if (X.shape(I) != 1 && X.stride(I) != Expected)
            throw nb::buffer_error("offload.from_dlpack: the tensor is not "
                                   "C-contiguous");
          Expected *= int64_t(X.shape(I));
        }
        std::optional<Device> Dev;
        offload_platform_backend_t Backend = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
        int Type = X.device_type();
        if (Type == nb::device::cpu::value ||
            Type == nb::device::cuda_host::value ||
            Type == nb::device::rocm_host::value)
          Dev = hostDevice();
        else if (Type == nb::device::cuda::value)
          Backend = OFFLOAD_PLATFORM_BACKEND_CUDA;
        else if (Type == nb::device::rocm::value)
          Backend = OFFLOAD_PLATFORM_BACKEND_AMDGPU;
        else
          throw nb::buffer_error(("offload.from_dlpack: DLPack device type " +
                                  std::to_string(Type) + " is not supported")
                                     .c_str());
        if (!Dev) {
          for (const Device &D : listDevices())
            if (D.backend() == Backend && platformOrdinal(D) == X.device_id())
              Dev = D;
          if (!Dev)
            throw nb::buffer_error(("offload.from_dlpack: no " +
                                    std::string(backendName(Backend)) +
                                    " device " + std::to_string(X.device_id()))
                                       .c_str());
        }
        Array A;
        A.Dev = *Dev;
        for (size_t I = 0; I < X.ndim(); ++I)
          A.Shape.push_back(int64_t(X.shape(I)));
        A.Type = T;
        A.HostAccessible = Dev->isHost();
        A.Kind = A.HostAccessible ? OFFLOAD_ALLOC_TYPE_HOST
                                  : OFFLOAD_ALLOC_TYPE_DEVICE;
        auto Memory = std::make_shared<Allocation>();
        Memory->Ptr = X.data();
        Memory->Bytes = A.nbytes();
        // The imported tensor (which releases the producer's export when
        // it goes) and the producer itself.
        nb::object Keep = nb::make_tuple(nb::borrow(Producer), nb::cast(X));
        Memory->ExternalOwner = Keep.release().ptr();
        A.Memory = std::move(Memory);
        return A;
      },
      "producer"_a, "tensor"_a);

  m.def(
      "_from_numpy",
      [](const Device &D,
         nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu> Host,
         const std::string &Kind) {
        const DType *T = fromDLPack(Host.dtype());
        if (!T)
          throw nb::type_error(
              ("unsupported dtype; supported: " + supportedDTypeNames())
                  .c_str());
        std::vector<int64_t> Shape;
        for (size_t I = 0; I < Host.ndim(); ++I)
          Shape.push_back(int64_t(Host.shape(I)));
        Array A = allocate(D, Shape, *T, parseAllocKind(Kind));
        copyBetween(nullptr, A.Memory->Ptr, D.Handle, Host.data(),
                    hostDevice().Handle, A.nbytes());
        return A;
      },
      "device"_a, "array"_a, "kind"_a = "device");

  //===--------------------------------------------------------------------===//
  // Queue and Event
  //===--------------------------------------------------------------------===//
  nb::class_<Queue>(m, "Queue",
                    "An in-order queue of a device: copies, fills and kernel "
                    "launches given queue=q run in submission order, "
                    "asynchronously. The queue keeps the arrays its pending "
                    "work uses alive until sync(). Usable as a context "
                    "manager (syncs on exit).")
      .def_prop_ro("device", [](const Queue &Q) { return Q.Dev; })
      .def("sync", &Queue::sync,
           "sync()\n\nBlocks until all enqueued work is done; raises "
           "OffloadError with the first error of an enqueued operation.")
      .def(
          "record",
          [](nb::handle Self) {
            Queue &Q = nb::cast<Queue &>(Self);
            Event E;
            E.QueueRef = nb::borrow(Self);
            check(offloadCreateEvent(Q.handle(), &E.Handle));
            return E;
          },
          "record() -> Event\n\nAn event marking the current end of the "
          "queue's work.")
      .def(
          "wait",
          [](Queue &Q, nb::args Events) {
            std::vector<offload_event_handle_t> Handles;
            for (nb::handle E : Events)
              Handles.push_back(nb::cast<Event &>(E).Handle);
            if (Handles.empty())
              return;
            check(
                offloadWaitEvents(Q.handle(), Handles.data(), Handles.size()));
          },
          "wait(*events)\n\nMakes later work on this queue wait until every "
          "event is complete, without blocking the caller.")
      .def("destroy", &Queue::destroy,
           "destroy()\n\nWaits for the queue's work and destroys it (done "
           "automatically when the Queue is garbage collected).")
      .def("__enter__", [](nb::handle Self) { return nb::borrow(Self); })
      .def(
          "__exit__",
          [](Queue &Q, nb::handle, nb::handle, nb::handle) {
            if (Q.Handle)
              Q.sync();
          },
          nb::arg().none(), nb::arg().none(), nb::arg().none())
      .def("__repr__", [](const Queue &Q) {
        return "<offload.Queue on device " + std::to_string(Q.Dev.Index) +
               (Q.Handle ? ">" : " destroyed>");
      });

  nb::class_<Event>(m, "Event", "A point in a queue's work (Queue.record()).")
      .def("sync", &Event::sync,
           "sync()\n\nBlocks until the work before the event is done.")
      .def("synchronize", &Event::sync, "synchronize()\n\nSame as sync().")
      .def(
          "query",
          [](const Event &E) {
            bool Complete = false;
            check(offloadGetEventInfo(E.Handle, OFFLOAD_EVENT_INFO_IS_COMPLETE,
                                      sizeof(Complete), &Complete));
            return Complete;
          },
          "query() -> bool\n\nWhether the work before the event is done.")
      .def(
          "elapsed_time",
          [](const Event &Start, const Event &End) {
            float Ms = 0;
            check(offloadGetEventElapsedTime(Start.Handle, End.Handle, &Ms));
            return Ms;
          },
          "end_event"_a,
          "elapsed_time(end_event) -> float\n\nMilliseconds from this "
          "event's completion to end_event's (torch.cuda.Event."
          "elapsed_time; offloadGetEventElapsedTime): negative if end_event "
          "completed first. Both must be complete (sync() them) and of "
          "queues of one device: else OffloadError 'NOT_READY' or "
          "'INVALID_DEVICE'.")
      .def_prop_ro("queue", [](const Event &E) { return E.QueueRef; })
      .def("__repr__", [](const Event &) { return "<offload.Event>"; });

  //===--------------------------------------------------------------------===//
  // Module and Kernel
  //===--------------------------------------------------------------------===//
  nb::class_<Module>(m, "Module",
                     "A JIT program made from MLIR (offload.compile()); its "
                     "kernels are compiled at their first launch, specialized "
                     "on the values of their runtime constants.")
      .def_prop_ro("device", [](const Module &M) { return M.Dev; })
      .def_prop_ro("name", [](const Module &M) { return M.Name; })
      .def("kernel", &makeKernel, "name"_a,
           "kernel(name) -> Kernel\n\nThe kernel `name` (a gpu.func with the "
           "`kernel` attribute; 'module::name' when several gpu.modules have "
           "one). Raises OffloadError (NOT_FOUND).")
      .def("__repr__", [](const Module &M) {
        return "<offload.Module " + M.Name + " on device " +
               std::to_string(M.Dev.Index) + ">";
      });

  m.def(
      "_create_module",
      [](const Device &D, nb::bytes Source, const std::string &Name,
         const std::string &CheckTools) {
        ensureInit();
        Module M;
        M.Dev = D;
        M.Name = Name;
        const char *Data = Source.c_str();
        size_t Size = Source.size();
        offload_jit_program_options_t Options{};
        Options.Size = sizeof(Options);
        Options.CheckTools = CheckTools.c_str();
        offload_result_t R;
        {
          nb::gil_scoped_release Release;
          R = offloadCreateProgramFromMLIRWithOptions(D.Handle, Data, Size,
                                                      &Options, &M.Handle);
        }
        check(R);
        return M;
      },
      "device"_a, "source"_a, "name"_a, "check"_a = "");

  nb::class_<Kernel>(
      m, "Kernel",
      "A kernel of a Module. Call it to launch:\n\n"
      "    kernel(*args, grid, block=1, shared_mem=0, queue=None)\n\n"
      "`args` match the gpu.func's arguments in order: memref arguments take "
      "an offload.Array of the kernel's device (on the host device also a "
      "NumPy array, used in place) whose dtype matches the element type "
      "(signless iN takes intN or uintN, index int64), whose rank matches "
      "and whose static dimensions agree; identity-layout memrefs need "
      "C-contiguous arrays. Scalar arguments take Python or NumPy numbers "
      "(integers for iN/index, real numbers for fN), range-checked. `grid` "
      "(blocks) and `block` (threads per block) are an int or a tuple of 1 "
      "to 3 ints; `shared_mem` is dynamic shared memory per block in bytes. "
      "Without a queue the launch is complete on return; with one it is "
      "enqueued (the queue keeps the arguments alive until sync()). The "
      "kernel is specialized on its runtime constants' values and on the "
      "block size (offload.set_jit_enabled(False) runs the generic "
      "kernel); arrays marked `contents` are read at the call.\n\n"
      "Raises TypeError (argument count, kind or dtype, unknown keyword), "
      "ValueError (rank, static shape, layout, freed array, wrong device, "
      "out-of-range scalar, bad grid/block), OffloadError (compilation "
      "failure with the compiler's diagnostics, launch errors).")
      .def_prop_ro("name", [](const Kernel &K) { return K.Name; })
      .def_prop_ro("device", [](const Kernel &K) { return K.Dev; })
      .def_prop_ro("module", [](const Kernel &K) { return K.ModuleRef; })
      .def_prop_ro(
          "arg_types",
          [](const Kernel &K) {
            std::vector<std::string> Types;
            for (const ArgumentInfo &A : K.Arguments)
              Types.push_back(A.Text);
            return Types;
          },
          "The MLIR types of the arguments, as strings.")
      .def_prop_ro(
          "runtime_constants",
          [](const Kernel &K) {
            std::vector<size_t> Indices;
            for (size_t I = 0; I < K.Arguments.size(); ++I)
              if (K.Arguments[I].RuntimeConstant)
                Indices.push_back(I);
            return Indices;
          },
          "Indices of the arguments marked offload.runtime_constant.")
      .def_prop_ro(
          "arguments_size", [](const Kernel &K) { return K.ArgumentsSize; },
          "Bytes of the packed argument buffer.")
      .def("__call__", &launch)
      .def("__repr__", [](const Kernel &K) {
        std::string S = "<offload.Kernel " + K.Name + "(";
        for (size_t I = 0; I < K.Arguments.size(); ++I) {
          const ArgumentInfo &A = K.Arguments[I];
          S += (I ? ", " : "") + A.Text;
          if (A.RuntimeConstant)
            S += A.Contents ? " {runtime_constant contents}"
                            : " {runtime_constant}";
        }
        return S + ") on device " + std::to_string(K.Dev.Index) + ">";
      });

  //===--------------------------------------------------------------------===//
  // Module-level functions
  //===--------------------------------------------------------------------===//
  m.def("_devices", &listDevices);
  m.def("_host_device", &hostDevice);
  m.def("jit_stats", &jitStats,
        "jit_stats() -> dict\n\nThis process's JIT counters: launches, "
        "compiles, memory_hits, disk_hits, disk_writes, corrupt_entries, "
        "generic_launches, async_compiles (counts), compile_ms "
        "(milliseconds spent compiling) and, for automatic specialization "
        "(set_jit_auto), auto_variants, auto_launches, auto_guard_misses, "
        "auto_profile_loads, auto_bound_reached and, for measurement "
        "against the generic kernel (OFFLOAD_JIT_MEASURE=1), "
        "measured_launches, measured_faster, measured_slower, verdict_loads "
        "(counts).");
  m.def(
      "reset_jit_stats", [] { check(offloadJITResetStats()); },
      "reset_jit_stats()\n\nSets every JIT counter to zero.");
  m.def(
      "clear_jit_cache", [] { check(offloadJITClearMemoryCache()); },
      "clear_jit_cache()\n\nDrops the in-memory cache of compiled kernels "
      "(the disk cache, OFFLOAD_CACHE_DIR, stays).");
  m.def(
      "set_jit_enabled",
      [](bool Enabled) { check(offloadJITSetEnabled(Enabled)); }, "enabled"_a,
      "set_jit_enabled(enabled)\n\nTurns run-time specialization on (the "
      "default, unless OFFLOAD_JIT=0) or off for later launches; off, "
      "launches run the generic kernel.");
  m.def(
      "set_jit_auto",
      [](bool Enabled) { check(offloadJITSetAutoEnabled(Enabled)); },
      "enabled"_a,
      "set_jit_auto(enabled)\n\nTurns automatic specialization on or off "
      "for later launches (the default comes from OFFLOAD_JIT_AUTO, off "
      "unless set): scalar kernel arguments not marked "
      "offload.runtime_constant that keep their values for "
      "OFFLOAD_JIT_AUTO_THRESHOLD launches are specialized on, guarded by "
      "their values (docs/JIT.md).");
  m.def(
      "wait_for_compiles",
      [] {
        nb::gil_scoped_release Release;
        (void)offloadJITWaitForCompiles();
      },
      "wait_for_compiles()\n\nWaits for background compiles "
      "(OFFLOAD_JIT_ASYNC=1).");
}
