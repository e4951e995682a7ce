//===- Launch.cpp - Kernel launches ---------------------------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Kernel.__call__: the Python arguments checked against the kernel's
// signature and packed into its argument buffer (memrefs as {allocated,
// aligned, offset, sizes[rank], strides[rank]}, scalars as their bytes, each
// at its natural alignment: OffloadSupport/KernelArguments.h), then
// offloadJITLaunchKernel.
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

using namespace nb::literals;

namespace offloadpy {

/// Whether NumPy dtype \p D can be an element of a memref of \p T.
static bool elementMatches(const ScalarType &T, const DType &D) {
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
static std::string expectedDTypes(const ScalarType &T) {
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

static std::string describeArgument(const Kernel &K, size_t I) {
  return "argument " + std::to_string(I) + " of kernel '" + K.Name + "' (" +
         K.Arguments[I].Text + ")";
}

static uint16_t floatToHalf(float F) {
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

static uint16_t floatToBFloat(float F) {
  uint32_t X;
  std::memcpy(&X, &F, 4);
  if ((X & 0x7fffffff) > 0x7f800000)
    return uint16_t((X >> 16) | 0x40);
  X += 0x7fff + ((X >> 16) & 1);
  return uint16_t(X >> 16);
}

/// Writes scalar \p Object as \p T at \p Out (checked).
static void packScalar(const Kernel &K, size_t I, const ScalarType &T,
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
static void packPointer(const Kernel &K, size_t I, nb::handle Object, char *Out,
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
static void packMemRef(const Kernel &K, size_t I, nb::handle Object, char *Out,
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
  char *Aligned = Data - Offset * int64_t(Type->itemSize());
  offload::kernelargs::writeMemRefDescriptor(
      Out, Data, Aligned, Offset, Shape.data(), Strides.data(), Shape.size());
}

/// grid= / block=: an int or a sequence of 1 to 3 ints, each >= 1.
static std::vector<uint32_t> toDims(nb::handle Object, const char *What) {
  std::vector<uint32_t> Dims;
  auto Add = [&](nb::handle D) {
    if (!PyIndex_Check(D.ptr()))
      throw nb::type_error(
          (std::string(What) + " must be an int or a tuple of 1 to 3 ints")
              .c_str());
    long long V = nb::cast<long long>(nb::int_(D));
    if (!offload::kernelargs::isValidLaunchSize(V))
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

} // namespace offloadpy
