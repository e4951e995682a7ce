//===- Bindings.h - What the _offload extension's files share ---*- C++ -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The types and helpers the files of the offload._offload extension share
// (one file per area: Errors.cpp, Devices.cpp, Arrays.cpp, Queues.cpp,
// Kernels.cpp and Launch.cpp, JIT.cpp), and the function of each area that
// adds its classes and functions to the module (OffloadModule.cpp calls them).
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOAD_PYTHON_SRC_BINDINGS_H
#define OFFLOAD_PYTHON_SRC_BINDINGS_H

#include "OffloadJIT/OffloadJIT.h"
#include "OffloadRuntime/OffloadAPI.h"

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace offloadpy {

//===----------------------------------------------------------------------===//
// Runtime lifetime and errors (Errors.cpp)
//===----------------------------------------------------------------------===//

/// Whether runtime handles are still valid (false after the exit handler).
bool runtimeAlive();

/// Raises offload.OffloadError(code, message) for \p R. Needs the GIL.
[[noreturn]] void raiseError(offload_result_t R);

/// raiseError(R) unless \p R is OFFLOAD_SUCCESS.
void check(offload_result_t R);

/// offloadInit on first use; RuntimeError after the runtime was shut down.
void ensureInit();

//===----------------------------------------------------------------------===//
// Element types (Arrays.cpp)
//===----------------------------------------------------------------------===//

enum class ElementClass { SignedInt, UnsignedInt, Float };

/// A NumPy dtype the package supports.
struct DType {
  const char *Name; ///< NumPy's name
  ElementClass Class;
  unsigned Bits;
  size_t itemSize() const { return Bits / 8; }
};

/// Resolves anything numpy.dtype() accepts (np.float32, "float32", "f4", a
/// dtype) to a supported DType; TypeError otherwise.
const DType &toDType(nb::handle Object);

/// The supported DType of DLPack type \p D, or null.
const DType *fromDLPack(nb::dlpack::dtype D);

//===----------------------------------------------------------------------===//
// Devices (Devices.cpp)
//===----------------------------------------------------------------------===//

/// "host", "cuda", "amdgpu" or "unknown".
const char *backendName(offload_platform_backend_t Backend);

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

/// The runtime's devices in offloadIterateDevices order.
std::vector<Device> listDevices();

/// The host device (offloadGetHostDevice).
Device hostDevice();

//===----------------------------------------------------------------------===//
// Memory (Arrays.cpp)
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

/// 'device', 'host' or 'managed' as offload_alloc_type_t; ValueError
/// otherwise.
offload_alloc_type_t parseAllocKind(const std::string &Kind);

/// A shape from an int or a sequence of ints (each >= 0); TypeError or
/// ValueError otherwise.
std::vector<int64_t> toShape(nb::handle Object);

/// An uninitialized Array of \p Shape and \p Type on \p Dev
/// (offloadMemAlloc of \p Kind).
Array allocate(const Device &Dev, std::vector<int64_t> Shape, const DType &Type,
               offload_alloc_type_t Kind);

//===----------------------------------------------------------------------===//
// Queues and events (Queues.cpp)
//===----------------------------------------------------------------------===//

struct Queue;
/// Queues with a live handle, for Device.synchronize(); guarded by the GIL.
std::vector<Queue *> &liveQueues();
/// Removes \p Q from liveQueues().
void forgetQueue(Queue *Q);

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

/// The Queue of a `queue=` argument: null for None; TypeError for anything
/// but an offload.Queue.
Queue *toQueue(nb::handle Object);

//===----------------------------------------------------------------------===//
// The areas' bindings
//===----------------------------------------------------------------------===//

void bindErrors(nb::module_ &m);
void bindDevices(nb::module_ &m);
void bindArrays(nb::module_ &m);
void bindQueues(nb::module_ &m);
void bindKernels(nb::module_ &m);
void bindJIT(nb::module_ &m);

} // namespace offloadpy

#endif // OFFLOAD_PYTHON_SRC_BINDINGS_H
