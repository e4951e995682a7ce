//===- Arrays.cpp - offload.Array, NumPy and DLPack -----------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// offload.Array: memory of one device with its shape and NumPy dtype, its
// NumPy views and copies, DLPack import and export, the CUDA Array
// Interface.
//
//===----------------------------------------------------------------------===//

#include "Bindings.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

using namespace nb::literals;

namespace offloadpy {

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

static std::string supportedDTypeNames() {
  std::string Names;
  for (const DType &T : DTypes)
    Names += (Names.empty() ? "" : ", ") + std::string(T.Name);
  return Names;
}

static const DType *findDType(const std::string &Name) {
  for (const DType &T : DTypes)
    if (Name == T.Name)
      return &T;
  return nullptr;
}

static nb::tuple toTuple(const std::vector<int64_t> &Values) {
  nb::object T = nb::steal(PyTuple_New(Py_ssize_t(Values.size())));
  for (size_t I = 0; I < Values.size(); ++I)
    PyTuple_SET_ITEM(T.ptr(), Py_ssize_t(I), PyLong_FromLongLong(Values[I]));
  return nb::borrow<nb::tuple>(T);
}

static nb::module_ &numpy() {
  static nb::module_ *NumPy = new nb::module_(nb::module_::import_("numpy"));
  return *NumPy;
}

/// Resolves anything numpy.dtype() accepts (np.float32, "float32", "f4", a

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

static nb::dlpack::dtype toDLPack(const DType &T) {
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

static const char *allocKindName(offload_alloc_type_t Kind) {
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
static nb::capsule ownerOf(const std::shared_ptr<Allocation> &Memory) {
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
static int32_t platformOrdinal(const Device &D) {
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
static std::pair<int32_t, int32_t> dlpackDevice(const Array &A) {
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
// Copies
//===----------------------------------------------------------------------===//

using HostArray = nb::ndarray<nb::ro, nb::device::cpu>;

/// The bytes of a NumPy (or any buffer/DLPack CPU) array, which must match
/// \p A's dtype and size and be C-contiguous.
static HostArray checkedHostArray(const Array &A, nb::handle Object,
                                  bool Writable, const char *What) {
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

static void copyBetween(Queue *Q, void *Dst, offload_device_handle_t DstDev,
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
static void copyArray(Array &Dst, Array &Src, Queue *Q) {
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
static void copyInto(Array &A, nb::handle Source, Queue *Q) {
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
static void copyOut(Array &A, nb::handle Target, Queue *Q) {
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

static nb::object toNumPy(Array &A) {
  if (A.HostAccessible)
    return nb::cast(viewOf<nb::numpy>(A));
  nb::object Result = numpy().attr("empty")(toTuple(A.Shape), A.Type->Name);
  copyOut(A, Result, nullptr);
  return Result;
}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

void bindArrays(nb::module_ &m) {
  m.def("_supported_dtypes", [] {
    std::vector<std::string> Names;
    for (const DType &T : DTypes)
      Names.push_back(T.Name);
    return Names;
  });

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
}

} // namespace offloadpy
