//===- offload-tblgen.cpp - Generators of the runtime C API ---------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Reads the description of the runtime C API (include/OffloadRuntime/API/
// OffloadAPI.td, classes in APIDefs.td) and writes one of its products, after
// liboffload's offload-tblgen (`offload/tools/offload-tblgen` in LLVM):
//
//   -gen-api-header      the public header, OffloadAPI.h
//   -gen-entry-points    the C entry points (plain and WithCodeLoc): argument
//                        validation, tracing, then offloadX_impl; and the
//                        offloadX_impl of the info queries, over their getters
//   -gen-impl-decls      declarations of the offloadX_impl functions and of
//                        the info queries' getters
//   -gen-enum-info       EnumInfo<E> for every enum: names, values, range
//   -gen-printers        trace printers of the structs
//   -gen-exports         the linker version script of libOffloadRuntime.so
//   -gen-runtime-functions  the lowering's table of runtime functions
//   -gen-docs-tables     the Markdown tables of docs/RuntimeAPI.md
//   -gen-liboffload22    liboffload 22's ol* entry points over the runtime's
//                        (from Liboffload22.td, for lib/Liboffload22)
//
// and, from the description of the JIT's C API (include/OffloadJIT/API/
// OffloadJITAPI.td, which includes OffloadAPI.td for the runtime's types;
// only the records of the root file are the JIT's):
//
//   -gen-jit-header        the public header, OffloadJIT.h
//   -gen-jit-entry-points  the C entry points: validation, tracing, then
//                          offloadjit::impl::offloadX_impl
//   -gen-jit-impl-decls    declarations of those offloadX_impl functions
//   -gen-jit-exports       the C symbols libOffloadJIT.so exports, one a line
//   -gen-jit-docs          docs/JITAPIReference.md
//
// (-gen-enum-info and -gen-printers also read it: every enum and struct the
// JIT's entry points validate and trace, the runtime's included.)
//
// Errors in the description (an unknown type, a validation rule whose error
// code the function's Errors do not name) are reported at the record.
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Error.h"
#include "llvm/TableGen/Main.h"
#include "llvm/TableGen/Record.h"

#include <string>
#include <vector>

using namespace llvm;

namespace {

enum Action {
  GenAPIHeader,
  GenEntryPoints,
  GenImplDecls,
  GenEnumInfo,
  GenPrinters,
  GenExports,
  GenRuntimeFunctions,
  GenDocsTables,
  GenLiboffload22,
  GenJITHeader,
  GenJITEntryPoints,
  GenJITImplDecls,
  GenJITExports,
  GenJITDocs,
};

cl::opt<Action> TheAction(
    cl::desc("What to generate:"),
    cl::values(
        clEnumValN(GenAPIHeader, "gen-api-header", "the public header"),
        clEnumValN(GenEntryPoints, "gen-entry-points",
                   "entry points with validation and tracing"),
        clEnumValN(GenImplDecls, "gen-impl-decls",
                   "declarations of the implementations"),
        clEnumValN(GenEnumInfo, "gen-enum-info", "enum tables"),
        clEnumValN(GenPrinters, "gen-printers", "trace printers of structs"),
        clEnumValN(GenExports, "gen-exports", "the export list"),
        clEnumValN(GenRuntimeFunctions, "gen-runtime-functions",
                   "the lowering's runtime-function table"),
        clEnumValN(GenDocsTables, "gen-docs-tables",
                   "the Markdown tables of docs/RuntimeAPI.md"),
        clEnumValN(GenLiboffload22, "gen-liboffload22",
                   "liboffload 22's entry points over the runtime's "
                   "(Liboffload22.td)"),
        clEnumValN(GenJITHeader, "gen-jit-header",
                   "the JIT's public header (OffloadJITAPI.td)"),
        clEnumValN(GenJITEntryPoints, "gen-jit-entry-points",
                   "the JIT's entry points with validation and "
                   "tracing"),
        clEnumValN(GenJITImplDecls, "gen-jit-impl-decls",
                   "declarations of the JIT's implementations"),
        clEnumValN(GenJITExports, "gen-jit-exports",
                   "the JIT's exported C symbols"),
        clEnumValN(GenJITDocs, "gen-jit-docs", "docs/JITAPIReference.md")));

// Parameter flags (APIDefs.td).
constexpr int64_t ParamIn = 0x1, ParamOut = 0x2, ParamOptional = 0x4,
                  ParamNonZero = 0x8, ParamAlways = 0x10,
                  ParamImplChecked = 0x20, ParamReservedZero = 0x40;

constexpr size_t LineWidth = 80;

/// How a parameter is validated and traced.
enum class ParamKind { Handle, Enum, Pointer, Value };

/// The definitions of \p Class, in the order the description defines them.
std::vector<const Record *> definitionsInOrder(const RecordKeeper &Records,
                                               StringRef Class) {
  std::vector<const Record *> Defs(
      Records.getAllDerivedDefinitions(Class).begin(),
      Records.getAllDerivedDefinitions(Class).end());
  llvm::sort(Defs, [](const Record *A, const Record *B) {
    return A->getID() < B->getID();
  });
  return Defs;
}

/// The description, indexed.
struct API {
  std::vector<const Record *> Objects; ///< in definition order
  StringMap<const Record *> Handles, Enums, Structs, Typedefs;
  std::vector<const Record *> Functions;
  std::vector<const Record *> Exports;

  explicit API(const RecordKeeper &Records) {
    Objects = definitionsInOrder(Records, "APIObject");
    Exports = definitionsInOrder(Records, "Export");
    for (const Record *R : Objects) {
      if (R->isSubClassOf("Handle"))
        Handles[R->getValueAsString("Name")] = R;
      else if (R->isSubClassOf("Enum"))
        Enums[R->getName()] = R;
      else if (R->isSubClassOf("Struct"))
        Structs[R->getName()] = R;
      else if (R->isSubClassOf("Typedef"))
        Typedefs[R->getName()] = R;
      else if (R->isSubClassOf("Function"))
        Functions.push_back(R);
    }
  }

  bool isCallback(StringRef Type) const {
    auto It = Typedefs.find(Type);
    return It != Typedefs.end() &&
           It->second->getValueAsString("Text").contains("(*");
  }

  ParamKind classify(const Record *P) const {
    StringRef Type = P->getValueAsString("Type");
    if (Handles.count(Type))
      return ParamKind::Handle;
    if (Enums.count(Type))
      return ParamKind::Enum;
    if (Type.ends_with("*") || isCallback(Type))
      return ParamKind::Pointer;
    return ParamKind::Value;
  }
};

//===----------------------------------------------------------------------===//
// Text helpers
//===----------------------------------------------------------------------===//

/// "Type Name", without a space after a trailing `*`.
std::string declare(StringRef Type, StringRef Name) {
  if (Type.ends_with("*"))
    return (Type + Name).str();
  return (Type + " " + Name).str();
}

/// Reflows \p Text into `<Indent>/// ` lines of at most LineWidth columns;
/// blank lines separate paragraphs.
void emitDoc(raw_ostream &OS, StringRef Text, StringRef Indent = "") {
  Text = Text.trim();
  if (Text.empty())
    return;
  SmallVector<StringRef> Paragraphs;
  Text.split(Paragraphs, "\n\n");
  bool First = true;
  for (StringRef Para : Paragraphs) {
    if (!First)
      OS << Indent << "///\n";
    First = false;
    SmallVector<StringRef> Split;
    SplitString(Para, Split);
    // Doxygen's "\p Name" stays on one line.
    std::vector<std::string> Words;
    for (StringRef W : Split) {
      if (!Words.empty() && (Words.back() == "\\p" || Words.back() == "\\c"))
        Words.back() += " " + W.str();
      else
        Words.push_back(W.str());
    }
    std::string Line;
    size_t Width = LineWidth - Indent.size() - 4;
    for (const std::string &W : Words) {
      if (!Line.empty() && Line.size() + 1 + W.size() > Width) {
        OS << Indent << "/// " << Line << "\n";
        Line.clear();
      }
      if (!Line.empty())
        Line += ' ';
      Line += W;
    }
    if (!Line.empty())
      OS << Indent << "/// " << Line << "\n";
  }
}

/// "<Head>(<Args>)<Tail>", on one line when it fits, otherwise broken after
/// the parenthesis with the arguments packed into 4-space indented lines.
std::string wrapCall(StringRef Head, ArrayRef<std::string> Args,
                     StringRef Tail) {
  std::string One = (Head + "(" + join(Args, ", ") + ")" + Tail).str();
  if (One.size() <= LineWidth)
    return One;
  std::string Out = (Head + "(").str();
  std::string Line = "   ";
  for (size_t I = 0; I < Args.size(); ++I) {
    std::string Piece = Args[I] + (I + 1 < Args.size() ? "," : "");
    if (I + 1 == Args.size())
      Piece += (")" + Tail).str();
    if (Line.size() + 1 + Piece.size() > LineWidth && Line != "   ") {
      Out += "\n" + Line;
      Line = "   ";
    }
    Line += " " + Piece;
  }
  Out += "\n" + Line;
  return Out;
}

std::vector<std::string> paramDecls(const Record *F) {
  std::vector<std::string> Decls;
  for (const Record *P : F->getValueAsListOfDefs("Params"))
    Decls.push_back(
        declare(P->getValueAsString("Type"), P->getValueAsString("Name")));
  return Decls;
}

std::vector<std::string> paramNames(const Record *F) {
  std::vector<std::string> Names;
  for (const Record *P : F->getValueAsListOfDefs("Params"))
    Names.push_back(P->getValueAsString("Name").str());
  return Names;
}

StringRef shortName(const Record *Enum, const Record *Etor) {
  StringRef Name = Etor->getValueAsString("Name");
  Name.consume_front(Enum->getValueAsString("Prefix"));
  return Name;
}

void emitBanner(raw_ostream &OS, StringRef Title) {
  OS << "//===" << std::string(LineWidth - 10, '-') << "===//\n";
  OS << "// " << Title << "\n";
  OS << "//===" << std::string(LineWidth - 10, '-') << "===//\n";
}

void emitGeneratedNote(raw_ostream &OS, StringRef What) {
  OS << "// Generated by offload-tblgen " << What
     << " from include/OffloadRuntime/API/OffloadAPI.td: do not edit.\n";
}

//===----------------------------------------------------------------------===//
// -gen-api-header
//===----------------------------------------------------------------------===//

void emitEnum(raw_ostream &OS, const Record *R) {
  emitDoc(OS, R->getValueAsString("Desc"));
  StringRef Name = R->getName();
  OS << "typedef enum " << Name << " {\n";
  for (const Record *E : R->getValueAsListOfDefs("Etors")) {
    std::string Line = formatv("  {0} = {1},", E->getValueAsString("Name"),
                               E->getValueAsInt("Value"));
    StringRef Desc = E->getValueAsString("Desc");
    if (!Desc.empty() && Line.size() + 5 + Desc.size() <= LineWidth) {
      OS << Line << " ///< " << Desc << "\n";
      continue;
    }
    emitDoc(OS, Desc, "  ");
    OS << Line << "\n";
  }
  OS << "} " << Name << ";\n";
}

void emitStruct(raw_ostream &OS, const Record *R) {
  emitDoc(OS, R->getValueAsString("Desc"));
  StringRef Name = R->getName();
  OS << "typedef struct " << Name << " {\n";
  for (const Record *M : R->getValueAsListOfDefs("Members")) {
    std::string Line =
        "  " +
        declare(M->getValueAsString("Type"), M->getValueAsString("Name")) + ";";
    StringRef Desc = M->getValueAsString("Desc");
    if (Desc.empty()) {
      OS << Line << "\n";
    } else if (Line.size() + 5 + Desc.size() <= LineWidth) {
      OS << Line << " ///< " << Desc << "\n";
    } else {
      emitDoc(OS, Desc, "  ");
      OS << Line << "\n";
    }
  }
  OS << "} " << Name << ";\n";
}

void emitFunctionDecl(raw_ostream &OS, const Record *F) {
  std::string Doc = F->getValueAsString("Desc").str();
  StringRef Errors = F->getValueAsString("Errors");
  if (!Errors.empty())
    Doc += " Errors: " + Errors.str();
  emitDoc(OS, Doc);
  std::string Head =
      ("OFFLOAD_API " + F->getValueAsString("ReturnType") +
       (F->getValueAsString("ReturnType").ends_with("*") ? "" : " ") +
       F->getName())
          .str();
  std::vector<std::string> Params = paramDecls(F);
  OS << wrapCall(Head,
                 Params.empty() ? std::vector<std::string>{"void"} : Params,
                 ";")
     << "\n";
  if (F->getValueAsBit("CodeLoc")) {
    Params.push_back("offload_code_location_t *CodeLocation");
    OS << wrapCall(Head + "WithCodeLoc", Params, ";") << "\n";
  }
}

/// The text of the Preamble records among \p Objects, as `//` lines of the
/// header's file comment.
void emitPreambles(raw_ostream &OS, ArrayRef<const Record *> Objects) {
  for (const Record *R : Objects)
    if (R->isSubClassOf("Preamble")) {
      OS << "//\n";
      SmallVector<StringRef> Lines;
      R->getValueAsString("Text").trim('\n').split(Lines, '\n');
      for (StringRef L : Lines)
        OS << (L.empty() ? "//" : "// " + L.rtrim().str()) << "\n";
      OS << "//\n";
    }
}

/// The body of a public header: every object but the preambles, in
/// definition order (sections, handles, enums, structs, typedefs, macros,
/// functions).
void emitDeclarations(raw_ostream &OS, ArrayRef<const Record *> Objects) {
  const Record *Prev = nullptr;
  for (const Record *R : Objects) {
    if (R->isSubClassOf("Preamble"))
      continue;
    // Runs of undocumented handles or macros stay together.
    bool Terse = (R->isSubClassOf("Handle") || R->isSubClassOf("Macro")) &&
                 R->getValueAsString("Desc").empty();
    if (!(Terse && Prev && Prev->getType() == R->getType()))
      OS << "\n";
    Prev = R;
    if (R->isSubClassOf("Section")) {
      emitBanner(OS, R->getValueAsString("Title"));
    } else if (R->isSubClassOf("Handle")) {
      emitDoc(OS, R->getValueAsString("Desc"));
      StringRef Name = R->getValueAsString("Name");
      std::string Impl = Name.str();
      if (StringRef(Impl).ends_with("_handle_t"))
        Impl = Impl.substr(0, Impl.size() - strlen("_handle_t")) + "_impl_t";
      OS << "typedef struct " << Impl << " *" << Name << ";\n";
    } else if (R->isSubClassOf("Enum")) {
      emitEnum(OS, R);
    } else if (R->isSubClassOf("Struct")) {
      emitStruct(OS, R);
    } else if (R->isSubClassOf("Typedef")) {
      emitDoc(OS, R->getValueAsString("Desc"));
      OS << R->getValueAsString("Text") << "\n";
    } else if (R->isSubClassOf("Macro")) {
      emitDoc(OS, R->getValueAsString("Desc"));
      OS << "#define " << R->getValueAsString("Name") << " "
         << R->getValueAsString("Value") << "\n";
    } else if (R->isSubClassOf("Function")) {
      emitFunctionDecl(OS, R);
    }
  }
}

bool emitAPIHeader(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  OS << "//===- OffloadAPI.h - The offload runtime C API "
        "-----------------*- C -*-===//\n"
        "//\n"
        "// Part of the offload project, under the Apache License v2.0 with "
        "LLVM\n"
        "// Exceptions.\n"
        "//\n";
  emitGeneratedNote(OS, "-gen-api-header");
  OS << "//\n"
        "//===--------------------------------------------------------------"
        "--------===//\n";
  emitPreambles(OS, A.Objects);
  OS << "//===--------------------------------------------------------------"
        "--------===//\n\n"
        "#ifndef OFFLOADRUNTIME_OFFLOADAPI_H\n"
        "#define OFFLOADRUNTIME_OFFLOADAPI_H\n\n"
        "#include <stdbool.h>\n"
        "#include <stddef.h>\n"
        "#include <stdint.h>\n\n"
        "#if defined(__GNUC__)\n"
        "#define OFFLOAD_API __attribute__((visibility(\"default\")))\n"
        "#else\n"
        "#define OFFLOAD_API\n"
        "#endif\n\n"
        "#ifdef __cplusplus\n"
        "extern \"C\" {\n"
        "#endif\n";
  emitDeclarations(OS, A.Objects);
  OS << "\n#ifdef __cplusplus\n"
        "} // extern \"C\"\n"
        "#endif\n\n"
        "#endif // OFFLOADRUNTIME_OFFLOADAPI_H\n";
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-entry-points and -gen-impl-decls
//===----------------------------------------------------------------------===//

/// The error codes the generated validation of \p P can return (runtime's
/// and JIT's), with \p LiveCode the code of the live-handle check of a
/// handle parameter (empty: none).
std::vector<std::string> checkCodes(const API &A, const Record *P,
                                    StringRef LiveCode) {
  int64_t Flags = P->getValueAsInt("Flags");
  std::vector<std::string> Codes;
  if (Flags & ParamImplChecked)
    return Codes;
  switch (A.classify(P)) {
  case ParamKind::Handle:
    if (!(Flags & ParamOptional))
      Codes.push_back("INVALID_NULL_HANDLE");
    if (!LiveCode.empty())
      Codes.push_back(LiveCode.str());
    break;
  case ParamKind::Enum:
    Codes.push_back("INVALID_ENUMERATION");
    break;
  case ParamKind::Pointer:
    if (!(Flags & ParamOptional))
      Codes.push_back("INVALID_NULL_POINTER");
    break;
  case ParamKind::Value:
    break;
  }
  if (Flags & ParamNonZero)
    Codes.push_back("INVALID_SIZE");
  if (Flags & ParamReservedZero)
    Codes.push_back("INVALID_ARGUMENT");
  return Codes;
}

/// The error codes the generated validation of \p P can return: a handle's
/// live check is INVALID_<KIND>.
std::vector<std::string> validationCodes(const API &A, const Record *P) {
  std::string LiveCode;
  if (A.classify(P) == ParamKind::Handle)
    LiveCode = "INVALID_" + A.Handles.lookup(P->getValueAsString("Type"))
                                ->getValueAsString("Kind")
                                .upper();
  return checkCodes(A, P, LiveCode);
}

/// Checks \p F's description: known parameter types, flags that fit the
/// type, and Errors that name every code the validation returns.
void verifyFunction(const API &A, const Record *F) {
  StringRef Errors = F->getValueAsString("Errors");
  for (const Record *P : F->getValueAsListOfDefs("Params")) {
    int64_t Flags = P->getValueAsInt("Flags");
    ParamKind K = A.classify(P);
    if (!(Flags & (ParamIn | ParamOut)))
      PrintFatalError(F->getLoc(), "parameter '" + P->getValueAsString("Name") +
                                       "' is neither PARAM_IN nor PARAM_OUT");
    if ((Flags & ParamOptional) && K != ParamKind::Handle &&
        K != ParamKind::Pointer)
      PrintFatalError(F->getLoc(), "parameter '" + P->getValueAsString("Name") +
                                       "': only handles and pointers can be "
                                       "PARAM_OPTIONAL");
    if ((Flags & (ParamNonZero | ParamReservedZero)) && K != ParamKind::Value)
      PrintFatalError(F->getLoc(), "parameter '" + P->getValueAsString("Name") +
                                       "': PARAM_NONZERO and "
                                       "PARAM_RESERVED_ZERO apply to integers");
    if (!F->getValueAsBit("Generated"))
      continue;
    for (const std::string &Code : validationCodes(A, P))
      if (!Errors.contains(Code))
        PrintFatalError(F->getLoc(), "the validation of parameter '" +
                                         P->getValueAsString("Name") +
                                         "' returns " + Code +
                                         ", which Errors does not name");
  }
}

/// The implementation's parameter list (enums typed, after validation).
std::vector<std::string> implParams(const Record *F) {
  std::vector<std::string> Params;
  if (!F->getValueAsBit("NoRuntime"))
    Params.push_back("Runtime &RT");
  for (std::string &D : paramDecls(F))
    Params.push_back(std::move(D));
  return Params;
}

/// An info query (InfoQuery in APIDefs.td): the getter both of its
/// functions call, the function writing the property (`..., size_t
/// PropSize, void *PropValue`) and the one writing its size (`..., size_t
/// *PropSizeRet`).
struct InfoQueryPair {
  StringRef Getter;
  const Record *Value = nullptr, *Size = nullptr;

  /// The parameters the getter takes from the functions: all but the sink
  /// (the same in both, checked by infoQueries).
  std::vector<const Record *> objectParams() const {
    std::vector<const Record *> Params = Value->getValueAsListOfDefs("Params");
    Params.resize(Params.size() - 2);
    return Params;
  }
};

/// Whether the parameters of \p F from \p From on are exactly \p Sink
/// (type and name).
bool endsWith(const Record *F, size_t From,
              ArrayRef<std::pair<StringRef, StringRef>> Sink) {
  std::vector<const Record *> Params = F->getValueAsListOfDefs("Params");
  if (From + Sink.size() != Params.size())
    return false;
  for (size_t I = 0; I < Sink.size(); ++I)
    if (Params[From + I]->getValueAsString("Type") != Sink[I].first ||
        Params[From + I]->getValueAsString("Name") != Sink[I].second)
      return false;
  return true;
}

/// The info queries of \p A, in the order their getters first appear,
/// after checking that each getter has one function of each shape, with the
/// same parameters before the sink, the last of them an enum (PropName).
std::vector<InfoQueryPair> infoQueries(const API &A) {
  std::vector<InfoQueryPair> Pairs;
  StringMap<size_t> Index;
  for (const Record *F : A.Functions) {
    if (!F->isSubClassOf("InfoQuery"))
      continue;
    if (!F->getValueAsBit("Generated") || F->getValueAsBit("NoRuntime") ||
        F->getValueAsBit("FastPath"))
      PrintFatalError(F->getLoc(), "an InfoQuery is Generated, with the "
                                   "runtime and without a FastPath");
    StringRef Getter = F->getValueAsString("InfoGetter");
    auto [It, New] = Index.try_emplace(Getter, Pairs.size());
    if (New)
      Pairs.push_back({Getter});
    InfoQueryPair &P = Pairs[It->second];
    size_t N = F->getValueAsListOfDefs("Params").size();
    bool IsValue =
        N >= 2 &&
        endsWith(F, N - 2, {{"size_t", "PropSize"}, {"void *", "PropValue"}});
    bool IsSize = N >= 1 && endsWith(F, N - 1, {{"size_t *", "PropSizeRet"}});
    if (!IsValue && !IsSize)
      PrintFatalError(F->getLoc(), "an InfoQuery ends in (size_t PropSize, "
                                   "void *PropValue) or (size_t "
                                   "*PropSizeRet)");
    const Record *&Slot = IsValue ? P.Value : P.Size;
    if (Slot)
      PrintFatalError(F->getLoc(), "getter '" + Getter +
                                       "' already has a function of this "
                                       "shape: " +
                                       Slot->getName());
    Slot = F;
  }
  for (const InfoQueryPair &P : Pairs) {
    const Record *Any = P.Value ? P.Value : P.Size;
    if (!P.Value || !P.Size)
      PrintFatalError(Any->getLoc(),
                      "getter '" + P.Getter +
                          "' needs both functions: the property (PropSize, "
                          "PropValue) and its size (PropSizeRet)");
    std::vector<const Record *> Object = P.objectParams();
    std::vector<const Record *> SizeParams =
        P.Size->getValueAsListOfDefs("Params");
    bool Same = SizeParams.size() == Object.size() + 1;
    for (size_t I = 0; Same && I < Object.size(); ++I)
      Same = Object[I]->getValueAsString("Type") ==
                 SizeParams[I]->getValueAsString("Type") &&
             Object[I]->getValueAsString("Name") ==
                 SizeParams[I]->getValueAsString("Name");
    if (!Same)
      PrintFatalError(P.Size->getLoc(),
                      P.Size->getName() + " and " + P.Value->getName() +
                          " differ before the size parameters");
    if (Object.empty() || A.classify(Object.back()) != ParamKind::Enum)
      PrintFatalError(P.Value->getLoc(), "an InfoQuery names the property "
                                         "with an enum before its sink");
  }
  return Pairs;
}

/// The getter's parameter list: the runtime, the object and the property,
/// the sink.
std::vector<std::string> getterParams(const InfoQueryPair &P) {
  std::vector<std::string> Params{"Runtime &RT"};
  for (const Record *Param : P.objectParams())
    Params.push_back(declare(Param->getValueAsString("Type"),
                             Param->getValueAsString("Name")));
  Params.push_back("const InfoOut &Out");
  return Params;
}

/// The two `_impl` functions of each info query: the getter with the sink of
/// each.
void emitInfoQueryImpls(raw_ostream &OS, const API &A) {
  std::vector<InfoQueryPair> Pairs = infoQueries(A);
  if (Pairs.empty())
    return;
  OS << "\n";
  emitBanner(OS, "Info queries");
  OS << "// Both functions of an info query run its getter (written by hand "
        "in\n// lib/Runtime/OffloadAPI.cpp), with the sink that writes the "
        "property into\n// the caller's buffer or its size.\n\n"
        "namespace offload {\nnamespace impl {\n";
  for (const InfoQueryPair &P : Pairs) {
    std::vector<std::string> Object{"RT"};
    for (const Record *Param : P.objectParams())
      Object.push_back(Param->getValueAsString("Name").str());
    for (auto [F, Sink] : {std::pair(P.Value, "InfoOut::value(PropSize, "
                                              "PropValue)"),
                           std::pair(P.Size, "InfoOut::size(PropSizeRet)")}) {
      std::vector<std::string> Args = Object;
      Args.push_back(Sink);
      OS << "\n"
         << wrapCall(("llvm::Error " + F->getName() + "_impl").str(),
                     implParams(F), " {")
         << "\n"
         << wrapCall(("  return " + P.Getter).str(), Args, ";") << "\n}\n";
    }
  }
  OS << "\n} // namespace impl\n} // namespace offload\n";
}

bool emitImplDecls(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  emitGeneratedNote(OS, "-gen-impl-decls");
  OS << "// The implementation of every generated entry point, called with\n"
        "// validated arguments (lib/Runtime/OffloadAPI.cpp; those of the "
        "info queries\n// are generated, OffloadAPIEntryPoints.inc), and the "
        "getters of the info\n// queries.\n\n"
        "namespace offload {\nnamespace impl {\n";
  for (const Record *F : A.Functions) {
    verifyFunction(A, F);
    if (!F->getValueAsBit("Generated"))
      continue;
    OS << wrapCall(("llvm::Error " + F->getName() + "_impl").str(),
                   implParams(F), ";")
       << "\n";
    if (F->getValueAsBit("FastPath"))
      OS << wrapCall(("bool " + F->getName() + "_fastpath").str(),
                     paramDecls(F), ";")
         << "\n";
  }
  std::vector<InfoQueryPair> Pairs = infoQueries(A);
  if (!Pairs.empty()) {
    OS << "\n// The getters of the info queries (InfoQuery): each answers "
          "both functions of\n// its query, writing the property or its "
          "size through \\p Out.\nstruct InfoOut;\n";
    for (const InfoQueryPair &P : Pairs)
      OS << wrapCall(("llvm::Error " + P.Getter).str(), getterParams(P), ";")
         << "\n";
    OS << "\n";
  }
  OS << "} // namespace impl\n} // namespace offload\n";
  return false;
}

/// The null check of a pointer parameter in a generated entry point, empty
/// for an optional one (PARAM_ALWAYS: also without validation).
std::string nullCheck(StringRef PName, int64_t Flags) {
  if (Flags & ParamOptional)
    return "";
  return formatv("{0}({1}, \"{1}\")",
                 Flags & ParamAlways ? "requireNotNull" : "checkNotNull",
                 PName);
}

/// The checks of parameter \p PName in a generated entry point (runtime's
/// and JIT's): \p Check (its handle, enum or null check; empty for none),
/// then the PARAM_NONZERO and PARAM_RESERVED_ZERO rules of \p Flags.
void emitParamChecks(raw_ostream &OS, StringRef PName, int64_t Flags,
                     StringRef Check) {
  if (!Check.empty())
    OS << "        if (llvm::Error E = " << Check << ")\n          return E;\n";
  if (Flags & ParamNonZero)
    OS << formatv("        if (llvm::Error E = {0}({1}, \"{1}\"))\n"
                  "          return E;\n",
                  Flags & ParamAlways ? "requireNotZero" : "checkNotZero",
                  PName);
  if (Flags & ParamReservedZero)
    OS << formatv("        if (llvm::Error E = checkReservedZero({0}, "
                  "\"{0}\"))\n          return E;\n",
                  PName);
}

void emitEntryPoint(raw_ostream &OS, const API &A, const Record *F) {
  StringRef Name = F->getName();
  std::vector<const Record *> Params = F->getValueAsListOfDefs("Params");
  bool NoRuntime = F->getValueAsBit("NoRuntime");
  bool FastPath = F->getValueAsBit("FastPath");

  // The shared body: enum arguments arrive as RawEnum (a C caller may pass
  // any value; an enum object outside its range is undefined behaviour in
  // C++).
  std::vector<std::string> EntryParams;
  for (const Record *P : Params) {
    StringRef Type = P->getValueAsString("Type"),
              PName = P->getValueAsString("Name");
    if (A.classify(P) == ParamKind::Enum)
      EntryParams.push_back(("RawEnum<" + Type + "> " + PName).str());
    else
      EntryParams.push_back(declare(Type, PName));
  }
  EntryParams.push_back("const offload_code_location_t *CodeLocation");
  OS << "\n// " << Name << "\n";
  OS << wrapCall(((FastPath ? "LLVM_ATTRIBUTE_NOINLINE " : "") +
                  Twine("static offload_result_t ") + Name + "_entry")
                     .str(),
                 EntryParams, " {")
     << "\n";
  OS << "  return runEntryPoint(\n      \"" << Name << "\", CodeLocation,\n";
  OS << (NoRuntime ? "      [&]() -> llvm::Error {\n"
                   : "      [&](Runtime &RT) -> llvm::Error {\n");
  std::vector<std::string> ImplArgs;
  if (!NoRuntime)
    ImplArgs.push_back("RT");
  for (const Record *P : Params) {
    StringRef PName = P->getValueAsString("Name");
    int64_t Flags = P->getValueAsInt("Flags");
    ParamKind K = A.classify(P);
    ImplArgs.push_back(
        (K == ParamKind::Enum ? PName + ".get()" : Twine(PName)).str());
    if (Flags & ParamImplChecked)
      continue;
    std::string Check;
    switch (K) {
    case ParamKind::Handle: {
      StringRef Kind = A.Handles.lookup(P->getValueAsString("Type"))
                           ->getValueAsString("Kind");
      Check = formatv("RT.check{0}({1}, \"{1}\")", Kind, PName);
      if (Flags & ParamOptional)
        Check = formatv("{0} ? {1} : llvm::Error::success()", PName, Check);
      break;
    }
    case ParamKind::Enum:
      Check = formatv("checkEnum({0}, \"{0}\")", PName);
      break;
    case ParamKind::Pointer:
      Check = nullCheck(PName, Flags);
      break;
    case ParamKind::Value:
      break;
    }
    emitParamChecks(OS, PName, Flags, Check);
  }
  OS << "        return impl::" << Name << "_impl(" << join(ImplArgs, ", ")
     << ");\n      }";
  for (const Record *P : Params) {
    StringRef PName = P->getValueAsString("Name");
    OS << ",\n      \"" << PName << "\", ";
    if (A.isCallback(P->getValueAsString("Type")))
      OS << "reinterpret_cast<const void *>(" << PName << ")";
    else
      OS << PName;
  }
  OS << ");\n}\n";

  // The C entry points.
  std::vector<std::string> Args;
  for (const Record *P : Params) {
    StringRef PName = P->getValueAsString("Name");
    Args.push_back(A.classify(P) == ParamKind::Enum
                       ? ("rawEnum(" + PName + ")").str()
                       : PName.str());
  }
  std::string Fast;
  if (FastPath)
    Fast = "  if (impl::" + Name.str() + "_fastpath(" +
           join(paramNames(F), ", ") + "))\n    return OFFLOAD_SUCCESS;\n";
  std::vector<std::string> Decls = paramDecls(F);
  auto Emit = [&](StringRef Suffix, StringRef Loc) {
    OS << wrapCall(("offload_result_t " + Name + Suffix).str(),
                   Decls.empty() && Suffix.empty()
                       ? std::vector<std::string>{"void"}
                       : Decls,
                   " {")
       << "\n"
       << Fast;
    std::vector<std::string> CallArgs = Args;
    CallArgs.push_back(Loc.str());
    OS << wrapCall(("  return " + Name + "_entry").str(), CallArgs, ";")
       << "\n}\n";
  };
  Emit("", "nullptr");
  if (F->getValueAsBit("CodeLoc")) {
    Decls.push_back("offload_code_location_t *CodeLocation");
    Emit("WithCodeLoc", "CodeLocation");
  }
}

bool emitEntryPoints(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  emitGeneratedNote(OS, "-gen-entry-points");
  OS << "// Each entry point checks its arguments as the description says\n"
        "// (handles, pointers, enum ranges, size rules, in declaration "
        "order),\n"
        "// runs offload::impl::<name>_impl and traces the call "
        "(runEntryPoint,\n"
        "// Trace.h). Included by lib/Runtime/OffloadAPI.cpp.\n";
  for (const Record *F : A.Functions)
    verifyFunction(A, F);
  emitInfoQueryImpls(OS, A);
  OS << "\n";
  emitBanner(OS, "Entry points");
  for (const Record *F : A.Functions)
    if (F->getValueAsBit("Generated"))
      emitEntryPoint(OS, A, F);
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-enum-info
//===----------------------------------------------------------------------===//

bool emitEnumInfo(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  emitGeneratedNote(OS, "-gen-enum-info");
  OS << "// EnumInfo<E> of every enum of the C API (primary template in\n"
        "// include/OffloadSupport/EntryPoint.h): its enumerators' values and "
        "names (without\n"
        "// and with prefix), for validation, tracing and offloadErrcName.\n"
        "// OFFLOAD_API_ENUMS(X) calls X(E) for every enum.\n\n";
  OS << "#define OFFLOAD_API_ENUMS(X)";
  for (const Record *R : A.Objects)
    if (R->isSubClassOf("Enum"))
      OS << " \\\n  X(" << R->getName() << ")";
  OS << "\n";
  for (const Record *R : A.Objects) {
    if (!R->isSubClassOf("Enum"))
      continue;
    std::vector<const Record *> Etors = R->getValueAsListOfDefs("Etors");
    if (Etors.empty())
      PrintFatalError(R->getLoc(), "enum without enumerators");
    OS << "\ntemplate <> struct EnumInfo<" << R->getName() << "> {\n";
    OS << "  static constexpr const char *TypeName = \"" << R->getName()
       << "\";\n";
    OS << "  static constexpr const char *Prefix = \""
       << R->getValueAsString("Prefix") << "\";\n";
    OS << "  static constexpr bool IsBitField = "
       << (R->getValueAsBit("IsBitField") ? "true" : "false") << ";\n";
    OS << "  static constexpr size_t NumEtors = " << Etors.size() << ";\n";
    OS << "  static constexpr int Values[] = {";
    ListSeparator LS(", ");
    for (const Record *E : Etors)
      OS << LS << E->getValueAsInt("Value");
    OS << "};\n";
    OS << "  /// The enumerator's name without prefix; null if \\p V is "
          "none.\n";
    OS << "  static const char *getName(int V) {\n    switch (V) {\n";
    for (const Record *E : Etors)
      OS << "    case " << E->getValueAsInt("Value") << ":\n      return \""
         << shortName(R, E) << "\";\n";
    OS << "    }\n    return nullptr;\n  }\n";
    OS << "  /// The enumerator's full name; null if \\p V is none.\n";
    OS << "  static const char *getFullName(int V) {\n    switch (V) {\n";
    for (const Record *E : Etors)
      OS << "    case " << E->getValueAsInt("Value") << ":\n      return \""
         << E->getValueAsString("Name") << "\";\n";
    OS << "    }\n    return nullptr;\n  }\n";
    OS << "  static bool isValid(int V) { return getName(V) != nullptr; }\n";
    OS << "};\n";
    // The header's values are the description's.
    for (const Record *E : Etors)
      OS << "static_assert(" << E->getValueAsString("Name")
         << " == " << E->getValueAsInt("Value") << ");\n";
  }
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-printers
//===----------------------------------------------------------------------===//

bool emitPrinters(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  emitGeneratedNote(OS, "-gen-printers");
  OS << "// Trace printers of the structs of the C API: {Member=value, ...}\n"
        "// ({v,v,v} for compact ones); a null pointer prints as 0x0. "
        "Declared\n"
        "// with OFFLOAD_API_PRINTERS_DECL, defined otherwise (in namespace\n"
        "// offload::trace).\n\n";
  OS << "#ifdef OFFLOAD_API_PRINTERS_DECL\n";
  for (const Record *R : A.Objects)
    if (R->isSubClassOf("Struct"))
      OS << "void printArg(llvm::raw_ostream &OS, const " << R->getName()
         << " &Value);\n"
         << "void printArg(llvm::raw_ostream &OS, const " << R->getName()
         << " *Value);\n";
  OS << "#else\n";
  for (const Record *R : A.Objects) {
    if (!R->isSubClassOf("Struct"))
      continue;
    bool Compact = R->getValueAsBit("Compact");
    OS << "void printArg(llvm::raw_ostream &OS, const " << R->getName()
       << " &Value) {\n  OS << '{';\n";
    bool First = true;
    for (const Record *M : R->getValueAsListOfDefs("Members")) {
      StringRef MName = M->getValueAsString("Name"),
                MType = M->getValueAsString("Type");
      std::string Sep = First ? "" : (Compact ? "," : ", ");
      First = false;
      std::string Label = Compact ? "" : (MName + "=").str();
      if (!Sep.empty() || !Label.empty())
        OS << "  OS << \"" << Sep << Label << "\";\n";
      if (A.Enums.count(MType))
        OS << "  printArg(OS, rawEnum(Value." << MName << "));\n";
      else
        OS << "  printArg(OS, Value." << MName << ");\n";
    }
    OS << "  OS << '}';\n}\n";
    OS << "void printArg(llvm::raw_ostream &OS, const " << R->getName()
       << " *Value) {\n"
          "  if (!Value) {\n    OS << \"0x0\";\n    return;\n  }\n"
          "  printArg(OS, *Value);\n}\n";
  }
  OS << "#endif\n";
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-exports
//===----------------------------------------------------------------------===//

bool emitExports(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  OS << "/* Symbols exported by libOffloadRuntime.so: the C API and the "
        "functions\n"
        "   that compiled host kernels call back into. Everything else stays "
        "local.\n"
        "   Generated by offload-tblgen -gen-exports from\n"
        "   include/OffloadRuntime/API/OffloadAPI.td: do not edit. */\n"
        "{\n  global:\n";
  for (const Record *F : A.Functions) {
    OS << "    " << F->getName() << ";\n";
    if (F->getValueAsBit("CodeLoc"))
      OS << "    " << F->getName() << "WithCodeLoc;\n";
  }
  for (const Record *E : A.Exports)
    OS << "    " << E->getValueAsString("Name") << ";\n";
  OS << "  local:\n    *;\n};\n";
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-runtime-functions
//===----------------------------------------------------------------------===//

/// The C type class of the lowering (CType in OffloadToLLVM.cpp) for \p Type.
std::string lowerType(const API &A, const Record *Where, StringRef Type) {
  if (Type == "void")
    return "Void";
  // Handles of other headers (the JIT's) end in _handle_t too.
  if (Type.ends_with("*") || Type.ends_with("_handle_t") ||
      A.isCallback(Type) || Type == "offload_result_t")
    return "Ptr";
  if (A.Enums.count(Type))
    return "Enum";
  if (Type == "size_t")
    return "Size";
  if (Type == "uint32_t" || Type == "int32_t")
    return "U32";
  if (Type == "int64_t" || Type == "uint64_t")
    return "I64";
  auto S = A.Structs.find(Type);
  if (S != A.Structs.end() &&
      !S->second->getValueAsString("LoweringName").empty())
    return S->second->getValueAsString("LoweringName").str();
  auto It = A.Typedefs.find(Type);
  if (It != A.Typedefs.end() &&
      It->second->getValueAsString("Text").starts_with("typedef uint32_t"))
    return "U32";
  PrintFatalError(Where->getLoc(),
                  "no lowering type for '" + Type + "' (runtime function)");
}

bool emitRuntimeFunctions(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  emitGeneratedNote(OS, "-gen-runtime-functions");
  OS << "// What convert-offload-to-llvm knows of the C API "
        "(OffloadToLLVM.cpp):\n"
        "//  - OFFLOAD_RUNTIME_FUNCTION_NAMES: the RuntimeFunction "
        "enumerators, one\n"
        "//    per function marked LoweringUses (and per RuntimeFunction "
        "record, the\n"
        "//    JIT's), named without the `offload` prefix;\n"
        "//  - OFFLOAD_RUNTIME_FUNCTION_DECLS: their RuntimeFunctionDecl, in "
        "the same\n"
        "//    order;\n"
        "//  - OFFLOAD_RUNTIME_STRUCTS: for every struct with a LoweringName "
        "N, the\n"
        "//    enum class NField of its members and kNFields, their CType.\n";
  std::vector<const Record *> Uses;
  for (const Record *F : A.Functions)
    if (F->getValueAsBit("LoweringUses"))
      Uses.push_back(F);
  llvm::append_range(Uses, definitionsInOrder(Records, "RuntimeFunction"));
  // Functions whose WithCodeLoc variant the lowering calls too (with the
  // op's source location): `<Name>WithCodeLoc`, the location last.
  auto WithCodeLoc = [](const Record *F) {
    return F->getValue("LoweringUsesCodeLoc") &&
           F->getValueAsBit("LoweringUsesCodeLoc");
  };
  OS << "#ifdef OFFLOAD_RUNTIME_FUNCTION_NAMES\n";
  for (const Record *F : Uses) {
    StringRef Name = F->getName();
    if (!Name.consume_front("offload"))
      PrintFatalError(F->getLoc(), "a runtime function is named offload*");
    OS << Name << ",\n";
    if (WithCodeLoc(F))
      OS << Name << "WithCodeLoc,\n";
  }
  OS << "#undef OFFLOAD_RUNTIME_FUNCTION_NAMES\n#endif\n\n";
  OS << "#ifdef OFFLOAD_RUNTIME_FUNCTION_DECLS\n";
  for (const Record *F : Uses) {
    std::vector<std::string> Types;
    for (const Record *P : F->getValueAsListOfDefs("Params"))
      Types.push_back("CType::" + lowerType(A, F, P->getValueAsString("Type")));
    std::string Return = lowerType(A, F, F->getValueAsString("ReturnType"));
    OS << "{\"" << F->getName() << "\", CType::" << Return << ", "
       << Types.size() << ", {" << join(Types, ", ") << "}},\n";
    if (WithCodeLoc(F)) {
      Types.push_back("CType::Ptr");
      OS << "{\"" << F->getName() << "WithCodeLoc\", CType::" << Return << ", "
         << Types.size() << ", {" << join(Types, ", ") << "}},\n";
    }
  }
  OS << "#undef OFFLOAD_RUNTIME_FUNCTION_DECLS\n#endif\n\n";
  OS << "#ifdef OFFLOAD_RUNTIME_STRUCTS\n";
  for (const Record *R : A.Objects) {
    if (!R->isSubClassOf("Struct"))
      continue;
    StringRef LName = R->getValueAsString("LoweringName");
    if (LName.empty())
      continue;
    std::vector<std::string> Names, Types;
    for (const Record *M : R->getValueAsListOfDefs("Members")) {
      Names.push_back(M->getValueAsString("Name").str());
      Types.push_back("CType::" + lowerType(A, R, M->getValueAsString("Type")));
    }
    OS << "/// The members of " << R->getName() << ".\n";
    OS << "enum class " << LName << "Field : int64_t {" << join(Names, ", ")
       << "};\n";
    OS << "static constexpr CType k" << LName << "Fields[] = {"
       << join(Types, ", ") << "};\n";
  }
  OS << "#undef OFFLOAD_RUNTIME_STRUCTS\n#endif\n";
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-docs-tables
//===----------------------------------------------------------------------===//

bool emitDocsTables(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  OS << "# The runtime C API: enumerators and entry points\n\n"
        "<!-- Generated by offload-tblgen -gen-docs-tables from "
        "include/OffloadRuntime/API/OffloadAPI.td: do not edit "
        "(ninja offload-api-update-header). -->\n\n"
        "Every enumerator and entry point of "
        "`include/OffloadRuntime/OffloadAPI.h`, as the\n"
        "description says (docs/RuntimeAPI.md: how they map to liboffload "
        "22, and how\nthe API is generated).\n";
  for (const Record *R : A.Objects) {
    if (!R->isSubClassOf("Enum"))
      continue;
    OS << "\n## `" << R->getName() << "`\n\n| Enumerator | Value | "
       << "Description |\n|---|---|---|\n";
    for (const Record *E : R->getValueAsListOfDefs("Etors")) {
      std::string Desc = E->getValueAsString("Desc").str();
      for (size_t Pos = 0; (Pos = Desc.find('|', Pos)) != std::string::npos;
           Pos += 2)
        Desc.replace(Pos, 1, "\\|");
      OS << "| `" << shortName(R, E) << "` | " << E->getValueAsInt("Value")
         << " | " << Desc << " |\n";
    }
  }
  size_t WithCodeLoc = llvm::count_if(
      A.Functions, [](const Record *F) { return F->getValueAsBit("CodeLoc"); });
  OS << "\n## Entry points\n\n"
     << A.Functions.size() << " functions, " << WithCodeLoc
     << " of them with a `WithCodeLoc` variant: "
     << A.Functions.size() + WithCodeLoc
     << " exported functions.\n\n| Function | WithCodeLoc | Parameters |\n"
        "|---|---|---|\n";
  for (const Record *F : A.Functions) {
    std::vector<std::string> Ps;
    for (const Record *P : F->getValueAsListOfDefs("Params"))
      Ps.push_back("`" + P->getValueAsString("Name").str() + "`");
    OS << "| `" << F->getName() << "` | "
       << (F->getValueAsBit("CodeLoc") ? "yes" : "no") << " | "
       << join(Ps, ", ") << " |\n";
  }
  return false;
}

//===----------------------------------------------------------------------===//
// -gen-liboffload22
//===----------------------------------------------------------------------===//

/// liboffload 22's spelling of a type of ours: `offload_` becomes `ol_`.
std::string toLiboffload22Type(StringRef Type) {
  std::string Out = Type.str();
  for (size_t Pos = 0; (Pos = Out.find("offload_", Pos)) != std::string::npos;
       Pos += 3)
    Out.replace(Pos, 8, "ol_");
  return Out;
}

/// `OFFLOAD_X` as liboffload 22 spells it: `OL_X`.
std::string toLiboffload22Name(StringRef Name) {
  if (!Name.consume_front("OFFLOAD_"))
    return Name.str();
  return ("OL_" + Name).str();
}

/// How an argument of 22's type becomes ours in the call of the runtime.
std::string fromLiboffload22Arg(const API &A, const Record *P) {
  StringRef Type = P->getValueAsString("Type");
  StringRef Name = P->getValueAsString("Name");
  if (!Type.contains("offload_"))
    return Name.str();
  switch (A.classify(P)) {
  case ParamKind::Handle:
  case ParamKind::Pointer:
    // Callbacks of the same type on both sides pass unchanged (a callback
    // that differs does not compile: it needs an Impl).
    if (A.isCallback(Type))
      return Name.str();
    return ("reinterpret_cast<" + Type + ">(" + Name + ")").str();
  case ParamKind::Enum:
  case ParamKind::Value:
    return ("static_cast<" + Type + ">(" + Name + ")").str();
  }
  return Name.str();
}

bool emitLiboffload22(raw_ostream &OS, const RecordKeeper &Records) {
  API A(Records);
  auto InOrder = [&](StringRef Class) {
    return definitionsInOrder(Records, Class);
  };
  OS << "// Generated by offload-tblgen -gen-liboffload22 from "
        "include/OffloadRuntime/API/Liboffload22.td: do not edit.\n"
        "// Included by lib/Liboffload22/Liboffload22.cpp after "
        "<offload/OffloadAPI.h>, the runtime's header and the\n"
        "// hand-written helpers result(), loc() and OL22_CHECK_ENUM.\n\n";

  emitBanner(OS, "One layout on both sides");
  for (const Record *R : InOrder("Liboffload22Struct")) {
    const Record *S = R->getValueAsDef("S");
    std::string Ours = S->getName().str();
    std::string Theirs = toLiboffload22Type(Ours);
    OS << "static_assert(sizeof(" << Theirs << ") == sizeof(" << Ours
       << "), \"liboffload 22's " << Theirs << " differs\");\n";
    for (const Record *M : S->getValueAsListOfDefs("Members")) {
      StringRef F = M->getValueAsString("Name");
      OS << "static_assert(offsetof(" << Theirs << ", " << F << ") == offsetof("
         << Ours << ", " << F << ") &&\n              sizeof(((" << Theirs
         << " *)nullptr)->" << F << ") == sizeof(((" << Ours << " *)nullptr)->"
         << F << "),\n              \"liboffload 22's " << Theirs << "::" << F
         << " differs\");\n";
    }
  }

  OS << "\n";
  emitBanner(OS, "One value on both sides below 22's *_LAST");
  StringMap<const Record *> Enums22;
  for (const Record *R : InOrder("Liboffload22Enum")) {
    const Record *E = R->getValueAsDef("E");
    Enums22[E->getName()] = R;
    int64_t Last = R->getValueAsInt("Last");
    std::vector<StringRef> Different = R->getValueAsListOfStrings("Different");
    std::string LastName =
        toLiboffload22Name(E->getValueAsString("Prefix")) + "LAST";
    OS << "static_assert(static_cast<int>(" << LastName << ") == " << Last
       << ", \"liboffload 22's " << LastName << " is not " << Last
       << " (Liboffload22.td)\");\n";
    for (const Record *Etor : E->getValueAsListOfDefs("Etors")) {
      StringRef Name = Etor->getValueAsString("Name");
      if (Etor->getValueAsInt("Value") >= Last || is_contained(Different, Name))
        continue;
      std::string Theirs = toLiboffload22Name(Name);
      OS << "static_assert(static_cast<int>(" << Theirs
         << ") == static_cast<int>(" << Name << "), \"" << Theirs
         << " differs from " << Name << "\");\n";
    }
  }

  OS << "\n";
  emitBanner(OS, "Error codes 22 does not have");
  OS << "/// liboffload 22's code for \\p Code: the same value below "
        "OL_ERRC_LAST, else the\n/// code Liboffload22.td names, else "
        "OL_ERRC_UNKNOWN.\n"
        "[[maybe_unused]] static ol_errc_t toLiboffload22Errc(offload_errc_t "
        "Code) {\n"
        "  if (static_cast<int>(Code) < static_cast<int>(OL_ERRC_LAST))\n"
        "    return static_cast<ol_errc_t>(Code);\n"
        "  switch (Code) {\n";
  for (const Record *R : InOrder("Liboffload22Errc"))
    OS << "  case " << R->getValueAsString("Ours") << ":\n    return "
       << R->getValueAsString("Theirs") << ";\n";
  OS << "  default:\n    return OL_ERRC_UNKNOWN;\n  }\n}\n\n";

  emitBanner(OS, "Entry points");
  OS << "extern \"C\" {\n";
  for (const Record *R : InOrder("Liboffload22")) {
    const Record *F = R->getValueAsDef("Fn");
    StringRef Ours = F->getName();
    if (!Ours.starts_with("offload") || !F->getValueAsBit("CodeLoc"))
      PrintFatalError(R->getLoc(), "liboffload 22's entry points map onto "
                                   "offload* functions with a WithCodeLoc "
                                   "variant");
    std::string Theirs = ("ol" + Ours.drop_front(strlen("offload"))).str();
    std::vector<const Record *> Params = F->getValueAsListOfDefs("Params");
    std::vector<std::string> Decls, Names, Args;
    for (const Record *P : Params) {
      Decls.push_back(declare(toLiboffload22Type(P->getValueAsString("Type")),
                              P->getValueAsString("Name")));
      Names.push_back(P->getValueAsString("Name").str());
      Args.push_back(fromLiboffload22Arg(A, P));
    }
    std::vector<std::string> DeclsLoc = Decls, NamesLoc = Names;
    DeclsLoc.push_back("ol_code_location_t *CodeLocation");
    NamesLoc.push_back("CodeLocation");
    std::vector<std::string> NamesNull = Names;
    NamesNull.push_back("nullptr");
    OS << "\n"
       << wrapCall("ol_result_t " + Theirs, Decls, " {") << "\n  "
       << wrapCall("return " + Theirs + "WithCodeLoc", NamesNull, ";")
       << "\n}\n"
       << wrapCall("ol_result_t " + Theirs + "WithCodeLoc", DeclsLoc, " {")
       << "\n";
    if (StringRef Impl = R->getValueAsString("Impl"); !Impl.empty()) {
      OS << "  " << wrapCall("return " + Impl.str(), NamesLoc, ";") << "\n}\n";
      continue;
    }
    for (const Record *P : Params) {
      auto It = Enums22.find(P->getValueAsString("Type"));
      if (A.classify(P) != ParamKind::Enum)
        continue;
      if (It == Enums22.end())
        PrintFatalError(R->getLoc(), "parameter " +
                                         P->getValueAsString("Name") +
                                         ": its enum has no Liboffload22Enum");
      const Record *E = It->second->getValueAsDef("E");
      OS << "  OL22_CHECK_ENUM(" << P->getValueAsString("Name") << ", "
         << toLiboffload22Name(E->getValueAsString("Prefix")) << "LAST);\n";
    }
    Args.push_back("loc(CodeLocation)");
    OS << "  return "
       << wrapCall("result(" + Ours.str() + "WithCodeLoc", Args, ");").substr(0)
       << "\n}\n";
  }
  OS << "\n} // extern \"C\"\n";
  return false;
}

//===----------------------------------------------------------------------===//
// The JIT's C API (OffloadJITAPI.td): -gen-jit-*
//===----------------------------------------------------------------------===//

/// Whether \p R is defined in the root file offload-tblgen reads, not in a
/// file it includes: the JIT's records, not the runtime's.
bool isInRootFile(const Record *R) {
  ArrayRef<SMLoc> Locs = R->getLoc();
  return !Locs.empty() &&
         SrcMgr.FindBufferContainingLoc(Locs.front()) == SrcMgr.getMainFileID();
}

/// The JIT's part of the description: its records in definition order.
struct JITAPI {
  API A;
  std::vector<const Record *> Objects, Functions;

  explicit JITAPI(const RecordKeeper &Records) : A(Records) {
    for (const Record *R : A.Objects)
      if (isInRootFile(R)) {
        Objects.push_back(R);
        if (R->isSubClassOf("Function"))
          Functions.push_back(R);
      }
    if (Functions.empty())
      PrintFatalError("the root file describes no function: the -gen-jit-* "
                      "actions read include/OffloadJIT/API/OffloadJITAPI.td");
  }

  /// The JIT's handle record of parameter \p P, or null for a runtime
  /// handle (or no handle).
  const Record *jitHandle(const Record *P) const {
    const Record *H = A.Handles.lookup(P->getValueAsString("Type"));
    return H && H->isSubClassOf("JITHandle") ? H : nullptr;
  }
};

void emitJITGeneratedNote(raw_ostream &OS, StringRef What) {
  OS << "// Generated by offload-tblgen " << What
     << " from include/OffloadJIT/API/OffloadJITAPI.td: do not edit.\n";
}

/// The codes the generated validation of JIT parameter \p P can return: the
/// engine checks the JIT's handles (their InvalidCode), the runtime's are
/// checked for null only.
std::vector<std::string> jitValidationCodes(const JITAPI &J, const Record *P) {
  std::string LiveCode;
  if (const Record *H = J.jitHandle(P))
    LiveCode = H->getValueAsString("InvalidCode").str();
  return checkCodes(J.A, P, LiveCode);
}

/// verifyFunction for the JIT's functions (their handles are checked by
/// the engine, the runtime's for null only).
void verifyJITFunction(const JITAPI &J, const Record *F) {
  if (F->getValueAsBit("CodeLoc"))
    PrintFatalError(F->getLoc(), "the JIT's functions have no WithCodeLoc "
                                 "variant: let CodeLoc = 0");
  if (F->getValueAsString("ReturnType") != "offload_result_t" ||
      !F->getValueAsBit("Generated"))
    PrintFatalError(F->getLoc(), "the JIT's functions are generated and "
                                 "return offload_result_t");
  StringRef Errors = F->getValueAsString("Errors");
  for (const Record *P : F->getValueAsListOfDefs("Params")) {
    int64_t Flags = P->getValueAsInt("Flags");
    ParamKind K = J.A.classify(P);
    StringRef Name = P->getValueAsString("Name");
    if (!(Flags & (ParamIn | ParamOut)))
      PrintFatalError(F->getLoc(), "parameter '" + Name +
                                       "' is neither PARAM_IN nor PARAM_OUT");
    if ((Flags & ParamOptional) && K != ParamKind::Handle &&
        K != ParamKind::Pointer)
      PrintFatalError(F->getLoc(), "parameter '" + Name +
                                       "': only handles and pointers can be "
                                       "PARAM_OPTIONAL");
    if ((Flags & (ParamNonZero | ParamReservedZero)) && K != ParamKind::Value)
      PrintFatalError(F->getLoc(), "parameter '" + Name +
                                       "': PARAM_NONZERO and "
                                       "PARAM_RESERVED_ZERO apply to integers");
    for (const std::string &Code : jitValidationCodes(J, P))
      if (!Errors.contains(Code))
        PrintFatalError(F->getLoc(), "the validation of parameter '" + Name +
                                         "' returns " + Code +
                                         ", which Errors does not name");
  }
}

bool emitJITHeader(raw_ostream &OS, const RecordKeeper &Records) {
  JITAPI J(Records);
  OS << "//===- OffloadJIT.h - The offload JIT C API "
        "---------------------*- C -*-===//\n"
        "//\n"
        "// Part of the offload project, under the Apache License v2.0 with "
        "LLVM\n"
        "// Exceptions.\n"
        "//\n";
  emitJITGeneratedNote(OS, "-gen-jit-header");
  OS << "//\n"
        "//===--------------------------------------------------------------"
        "--------===//\n";
  emitPreambles(OS, J.Objects);
  OS << "//===--------------------------------------------------------------"
        "--------===//\n\n"
        "#ifndef OFFLOADJIT_OFFLOADJIT_H\n"
        "#define OFFLOADJIT_OFFLOADJIT_H\n\n"
        "#include \"OffloadRuntime/OffloadAPI.h\"\n\n"
        "#ifdef __cplusplus\n"
        "extern \"C\" {\n"
        "#endif\n";
  for (const Record *F : J.Objects)
    if (F->isSubClassOf("Function"))
      verifyJITFunction(J, F);
  emitDeclarations(OS, J.Objects);
  OS << "\n#ifdef __cplusplus\n"
        "} // extern \"C\"\n"
        "#endif\n\n"
        "#endif // OFFLOADJIT_OFFLOADJIT_H\n";
  return false;
}

bool emitJITImplDecls(raw_ostream &OS, const RecordKeeper &Records) {
  JITAPI J(Records);
  emitJITGeneratedNote(OS, "-gen-jit-impl-decls");
  OS << "// The implementation of every entry point of the JIT, called with\n"
        "// validated arguments (lib/JIT/CAPI.cpp).\n\n"
        "namespace offloadjit {\nnamespace impl {\n";
  for (const Record *F : J.Functions) {
    verifyJITFunction(J, F);
    std::vector<std::string> Params = paramDecls(F);
    OS << wrapCall(("llvm::Error " + F->getName() + "_impl").str(), Params, ";")
       << "\n";
  }
  OS << "} // namespace impl\n} // namespace offloadjit\n";
  return false;
}

void emitJITEntryPoint(raw_ostream &OS, const JITAPI &J, const Record *F) {
  StringRef Name = F->getName();
  std::vector<const Record *> Params = F->getValueAsListOfDefs("Params");
  std::vector<std::string> Decls = paramDecls(F);
  OS << "\n"
     << wrapCall(("offload_result_t " + Name).str(),
                 Decls.empty() ? std::vector<std::string>{"void"} : Decls, " {")
     << "\n";
  OS << "  return runEntryPoint(\n      \"" << Name << "\",\n"
     << "      [&]() -> llvm::Error {\n";
  std::vector<std::string> ImplArgs;
  for (const Record *P : Params) {
    StringRef PName = P->getValueAsString("Name");
    int64_t Flags = P->getValueAsInt("Flags");
    ParamKind K = J.A.classify(P);
    ImplArgs.push_back(PName.str());
    if (Flags & ParamImplChecked)
      continue;
    std::string Check;
    switch (K) {
    case ParamKind::Handle:
      // The engine checks the JIT's handles (null and live); the runtime's
      // are checked for null here and for being live by the runtime calls
      // the implementation makes with them.
      if (J.jitHandle(P))
        Check = formatv("checkHandle({0}, \"{0}\")", PName);
      else if (!(Flags & ParamOptional))
        Check = formatv("checkNotNullHandle({0}, \"{0}\")", PName);
      if (J.jitHandle(P) && (Flags & ParamOptional))
        Check = formatv("{0} ? {1} : llvm::Error::success()", PName, Check);
      break;
    case ParamKind::Enum:
      Check = formatv("checkEnum(rawEnum({0}), \"{0}\")", PName);
      break;
    case ParamKind::Pointer:
      Check = nullCheck(PName, Flags);
      break;
    case ParamKind::Value:
      break;
    }
    emitParamChecks(OS, PName, Flags, Check);
  }
  OS << "        return offloadjit::impl::" << Name << "_impl("
     << join(ImplArgs, ", ") << ");\n      }";
  for (const Record *P : Params) {
    StringRef PName = P->getValueAsString("Name");
    OS << ",\n      \"" << PName << "\", ";
    if (J.A.classify(P) == ParamKind::Enum)
      OS << "rawEnum(" << PName << ")";
    else if (J.A.isCallback(P->getValueAsString("Type")))
      OS << "reinterpret_cast<const void *>(" << PName << ")";
    else
      OS << PName;
  }
  OS << ");\n}\n";
}

bool emitJITEntryPoints(raw_ostream &OS, const RecordKeeper &Records) {
  JITAPI J(Records);
  emitJITGeneratedNote(OS, "-gen-jit-entry-points");
  OS << "// Each entry point of the JIT checks its arguments as the "
        "description says\n"
        "// (handles, pointers, enum ranges, size rules, in declaration "
        "order), runs\n"
        "// offloadjit::impl::<name>_impl and traces the call "
        "(runEntryPoint,\n"
        "// lib/JIT/EntryPoint.h). Included by lib/JIT/CAPI.cpp.\n";
  for (const Record *F : J.Functions) {
    verifyJITFunction(J, F);
    emitJITEntryPoint(OS, J, F);
  }
  return false;
}

bool emitJITExports(raw_ostream &OS, const RecordKeeper &Records) {
  JITAPI J(Records);
  OS << "# The C symbols libOffloadJIT.so exports (the entry points of "
        "OffloadJIT.h),\n"
        "# one a line. Generated by offload-tblgen -gen-jit-exports from\n"
        "# include/OffloadJIT/API/OffloadJITAPI.td: do not edit.\n";
  for (const Record *F : J.Functions)
    OS << F->getName() << "\n";
  return false;
}

/// \p Text on one line, the Markdown table separator escaped and Doxygen's
/// "\p Name" as `Name`.
std::string markdownCell(StringRef Text) {
  std::string Out;
  SmallVector<StringRef> Words;
  SplitString(Text, Words);
  bool Code = false;
  for (StringRef W : Words) {
    if (!Out.empty() && !Code)
      Out += ' ';
    if (W.ends_with("\\p") || W.ends_with("\\c")) {
      Out += W.drop_back(2); // "(\p Size" is "(`Size`"
      Code = true;
      continue;
    }
    std::string Word;
    for (char C : W) {
      if (C == '|')
        Word += '\\';
      Word += C;
    }
    if (Code) {
      // Trailing punctuation stays outside the code span.
      size_t End = Word.size();
      while (End > 0 && !isAlnum(Word[End - 1]) && Word[End - 1] != '_')
        --End;
      Word = "`" + Word.substr(0, End) + "`" + Word.substr(End);
      Code = false;
    }
    Out += Word;
  }
  return Out;
}

bool emitJITDocs(raw_ostream &OS, const RecordKeeper &Records) {
  JITAPI J(Records);
  OS << "# The JIT's C API: entry points and types\n\n"
        "<!-- Generated by offload-tblgen -gen-jit-docs from "
        "include/OffloadJIT/API/OffloadJITAPI.td: do not edit "
        "(ninja offload-jit-api-update-header). -->\n\n"
        "Every type and entry point of `include/OffloadJIT/OffloadJIT.h`, "
        "as the\ndescription says (docs/JIT.md: what the JIT does; "
        "docs/RuntimeAPI.md: how\nthe API is generated). Each entry point "
        "checks its arguments in the order\nlisted; \"checked\" says what "
        "the generated validation returns for a bad\nargument (with "
        "`OFFLOAD_DISABLE_VALIDATION=1` only the checks marked always\n"
        "apply).\n";
  for (const Record *R : J.Objects) {
    if (R->isSubClassOf("Section")) {
      OS << "\n## " << R->getValueAsString("Title") << "\n";
    } else if (R->isSubClassOf("Handle")) {
      OS << "\n### `" << R->getValueAsString("Name")
         << "`\n\nA handle; a destroyed or never created one is `"
         << R->getValueAsString("InvalidCode") << "`.\n";
    } else if (R->isSubClassOf("Struct")) {
      OS << "\n### `" << R->getName() << "`\n\n"
         << markdownCell(R->getValueAsString("Desc"))
         << "\n\n| Member | Type | Description |\n|---|---|---|\n";
      for (const Record *M : R->getValueAsListOfDefs("Members"))
        OS << "| `" << M->getValueAsString("Name") << "` | `"
           << M->getValueAsString("Type") << "` | "
           << markdownCell(M->getValueAsString("Desc")) << " |\n";
    } else if (R->isSubClassOf("Function")) {
      std::vector<std::string> Decls = paramDecls(R);
      OS << "\n### `" << R->getName() << "`\n\n```c\n"
         << wrapCall(("offload_result_t " + R->getName()).str(),
                     Decls.empty() ? std::vector<std::string>{"void"} : Decls,
                     ";")
         << "\n```\n\n"
         << markdownCell(R->getValueAsString("Desc")) << "\n";
      std::vector<const Record *> Params = R->getValueAsListOfDefs("Params");
      if (!Params.empty()) {
        OS << "\n| Parameter | Direction | Checked |\n|---|---|---|\n";
        for (const Record *P : Params) {
          int64_t Flags = P->getValueAsInt("Flags");
          std::string Dir = (Flags & ParamIn) && (Flags & ParamOut) ? "in, out"
                            : (Flags & ParamOut)                    ? "out"
                                                                    : "in";
          if (Flags & ParamOptional)
            Dir += ", optional";
          std::vector<std::string> Codes = jitValidationCodes(J, P);
          std::string Checked = Codes.empty()
                                    ? std::string("by the implementation")
                                    : "`" + join(Codes, "`, `") + "`";
          if (!Codes.empty() && (Flags & ParamAlways))
            Checked += " (always)";
          OS << "| `" << P->getValueAsString("Name") << "` | " << Dir << " | "
             << Checked << " |\n";
        }
      }
      OS << "\nErrors: " << markdownCell(R->getValueAsString("Errors")) << "\n";
    }
  }
  return false;
}

bool dispatch(raw_ostream &OS, const RecordKeeper &Records) {
  switch (TheAction) {
  case GenAPIHeader:
    return emitAPIHeader(OS, Records);
  case GenEntryPoints:
    return emitEntryPoints(OS, Records);
  case GenImplDecls:
    return emitImplDecls(OS, Records);
  case GenEnumInfo:
    return emitEnumInfo(OS, Records);
  case GenPrinters:
    return emitPrinters(OS, Records);
  case GenExports:
    return emitExports(OS, Records);
  case GenRuntimeFunctions:
    return emitRuntimeFunctions(OS, Records);
  case GenDocsTables:
    return emitDocsTables(OS, Records);
  case GenLiboffload22:
    return emitLiboffload22(OS, Records);
  case GenJITHeader:
    return emitJITHeader(OS, Records);
  case GenJITEntryPoints:
    return emitJITEntryPoints(OS, Records);
  case GenJITImplDecls:
    return emitJITImplDecls(OS, Records);
  case GenJITExports:
    return emitJITExports(OS, Records);
  case GenJITDocs:
    return emitJITDocs(OS, Records);
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv);
  return TableGenMain(argv[0], &dispatch);
}
