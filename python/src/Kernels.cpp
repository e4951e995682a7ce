//===- Kernels.cpp - offload.Module and offload.Kernel --------------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// JIT programs made from MLIR and their kernels: each kernel's signature
// (offloadJITGetKernelSignature) parsed into the layout of its packed
// argument buffer (docs/HostTarget.md).
//
//===----------------------------------------------------------------------===//

#include "Kernels.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>

using namespace nb::literals;

namespace offloadpy {

static std::optional<ScalarType> parseScalar(const std::string &Text) {
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

/// Splits \p Text at top-level commas (outside <>, [], (), {}).
static std::vector<std::string> splitTopLevel(const std::string &Text) {
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

static int64_t parseDim(const std::string &S) {
  if (S == "?")
    return Dynamic;
  if (S.empty() ||
      !std::all_of(S.begin(), S.end(), [](char C) { return std::isdigit(C); }))
    throw std::invalid_argument(S);
  return std::stoll(S);
}

/// Parses one line of offloadJITGetKernelSignature.
static ArgumentInfo parseArgument(const std::string &Line) {
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

static Kernel makeKernel(nb::handle ModuleObject, const std::string &Name) {
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

  // The packed layout (OffloadSupport/KernelArguments.h).
  offload::kernelargs::ArgumentLayout Layout;
  size_t Begin = 0;
  while (Begin < Text.size()) {
    size_t End = Text.find('\n', Begin);
    if (End == std::string::npos)
      End = Text.size();
    ArgumentInfo Info = parseArgument(Text.substr(Begin, End - Begin));
    Begin = End + 1;
    unsigned First;
    if (Info.IsPointer)
      First = Layout.addPointer();
    else if (Info.IsMemRef)
      First = Layout.addMemRef(Info.Dims.size());
    else if (Info.Scalar.K == ScalarType::Index)
      First = Layout.addIndex();
    else
      First = Layout.addScalar(Info.Scalar.Bits);
    Info.FieldOffset = Layout.getFields()[First].Offset;
    K.Arguments.push_back(std::move(Info));
  }
  K.ArgumentsSize = Layout.getSize();
  return K;
}

void bindKernels(nb::module_ &m) {
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
}

} // namespace offloadpy
