//===- APIDefs.td - Classes of the runtime API description -*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The classes OffloadAPI.td describes the C API of libOffloadRuntime with,
// after liboffload's `offload/liboffload/API/APIDefs.td` (LLVM 22): handles,
// enums with their enumerators, structs, typedefs, macros and functions with
// their parameters, documentation, error codes and validation rules.
// tools/offload-tblgen generates from it the public header
// (include/OffloadRuntime/OffloadAPI.h), the entry points with validation and
// tracing, the implementations of the info queries (over hand-written
// getters), the enum tables (names for tracing and offloadErrcName, ranges for
// validation), the struct printers and the export list (docs/RuntimeAPI.md,
// "How the API is generated").
//
// Records are emitted in the order they are defined.
//
//===----------------------------------------------------------------------===//

/// Anything that is emitted into the header, in definition order.
class APIObject {
  string Desc = "";
}

/// The file comment of the header (its text, without comment markers).
class Preamble<string text> : APIObject {
  string Text = text;
}

/// A section banner of the header.
class Section<string title> : APIObject {
  string Title = title;
}

/// An opaque handle type `<name>` (typedef of a pointer to an incomplete
/// `<prefix>_impl_t`). A non-optional handle parameter is checked by
/// Runtime::check<Kind>: INVALID_NULL_HANDLE when null, INVALID_<KIND> when
/// not a live handle (with validation only).
class Handle<string name, string kind> : APIObject {
  string Name = name;
  string Kind = kind;
}

/// An enumerator: its full name, value and one-line description.
class Etor<string name, int value, string desc> {
  string Name = name;
  int Value = value;
  string Desc = desc;
}

/// An enum; the record's name is the C type. An enum parameter is checked
/// always (also with OFFLOAD_DISABLE_VALIDATION=1): INVALID_ENUMERATION for a
/// value that is not one of Etors. Trace lines print enumerators without
/// Prefix.
class Enum : APIObject {
  string Prefix = "";
  list<Etor> Etors = [];
  /// The enumerators are bits of a flag set (not a parameter type).
  bit IsBitField = 0;
}

/// A struct member.
class Member<string type, string name, string desc> {
  string Type = type;
  string Name = name;
  string Desc = desc;
}

/// A struct; the record's name is the C type. Trace lines print a struct
/// argument as {Name=value, ...}, or {v,v,v} when Compact.
class Struct : APIObject {
  list<Member> Members = [];
  bit Compact = 0;
  /// convert-offload-to-llvm builds it: the name of its CType and of the
  /// enum of its members there (-gen-runtime-functions).
  string LoweringName = "";
}

/// A typedef, spelled out in C.
class Typedef<string text> : APIObject {
  string Text = text;
}

/// A macro.
class Macro<string name, string value> : APIObject {
  string Name = name;
  string Value = value;
}

// Parameter flags. IN/OUT say which way data goes through a pointer;
// OPTIONAL marks a handle or pointer that may be null (no null check;
// a non-null handle is still checked). The validation rules:
//  - NONZERO: INVALID_SIZE "<Name> is zero" when the value is 0;
//  - RESERVED_ZERO: INVALID_ARGUMENT when the value is not 0 (reserved
//    flags);
//  - ALWAYS: the parameter's null or NONZERO check applies also with
//    OFFLOAD_DISABLE_VALIDATION=1 (an answer the API documents, not only an
//    error for an invalid call);
//  - IMPL_CHECKED: the generated code checks nothing; the implementation
//    checks what Desc and Errors say (a rule that depends on another
//    parameter).
// Handle parameters (a Handle's type), pointers (a type ending in `*`, or a
// callback typedef) and enum parameters are checked according to their type,
// in declaration order, before the implementation runs.
defvar PARAM_IN = 0x1;
defvar PARAM_OUT = 0x2;
defvar PARAM_IN_OUT = 0x3;
defvar PARAM_OPTIONAL = 0x4;
defvar PARAM_NONZERO = 0x8;
defvar PARAM_ALWAYS = 0x10;
defvar PARAM_IMPL_CHECKED = 0x20;
defvar PARAM_RESERVED_ZERO = 0x40;

class Param<string type, string name, string desc, int flags = PARAM_IN> {
  string Type = type;
  string Name = name;
  string Desc = desc;
  int Flags = flags;
}

/// A C entry point; the record's name is the function's.
class Function : APIObject {
  string ReturnType = "offload_result_t";
  list<Param> Params = [];
  /// The error codes it returns and when, as prose ("Errors: ..." in the
  /// header). The generator checks that every code its validation can return
  /// is named here.
  string Errors = "";
  /// Also an `<name>WithCodeLoc` variant taking a trailing
  /// `offload_code_location_t *CodeLocation`.
  bit CodeLoc = 1;
  /// The entry point is generated: it validates the parameters, runs
  /// `offload::impl::<name>_impl(Runtime &, params...)` (lib/Runtime/
  /// OffloadAPI.cpp; generated too for an InfoQuery) and traces the call.
  /// Otherwise it is written by hand (functions that return no
  /// offload_result_t, or are built on the API).
  bit Generated = 1;
  /// The implementation needs no initialized runtime (`<name>_impl(params)`).
  bit NoRuntime = 0;
  /// Before the entry point, `<name>_fastpath(params)` may answer the call
  /// without validation, tracing or the error plumbing (returns true when it
  /// did); the entry point itself is out of line.
  bit FastPath = 0;
  /// convert-offload-to-llvm declares and calls it (the lowering's table
  /// of runtime functions, -gen-runtime-functions).
  bit LoweringUses = 0;
  /// With LoweringUses: the lowering also calls `<name>WithCodeLoc`, passing
  /// the op's source location (allocations, so that the checking tools name
  /// where a buffer was allocated).
  bit LoweringUsesCodeLoc = 0;
}

/// An info query: `offloadGet<Kind>Info(<object>..., PropName, size_t
/// PropSize, void *PropValue)` (the property into a buffer) or
/// `offloadGet<Kind>InfoSize(<object>..., PropName, size_t *PropSizeRet)`
/// (its size). Both functions of a query name one getter; the generator
/// checks that there is exactly one of each shape with the same leading
/// parameters, declares the getter (-gen-impl-decls)
///   llvm::Error <getter>(Runtime &RT, <object>..., PropName,
///                        const InfoOut &Out);
/// and defines both `_impl` functions (-gen-entry-points): they call it with
/// `InfoOut::value(PropSize, PropValue)` or `InfoOut::size(PropSizeRet)`.
/// lib/Runtime/OffloadAPI.cpp writes the getter (one per kind) and InfoOut,
/// the sink that writes the property's bytes or their size.
class InfoQuery<string getter> : Function {
  string InfoGetter = getter;
}

/// A function of another header (the JIT's) that the lowering calls.
class RuntimeFunction {
  string ReturnType = "offload_result_t";
  list<Param> Params = [];
}

/// A symbol libOffloadRuntime.so exports besides the functions: the
/// callbacks of compiled host kernels (HostKernelABI.h).
class Export<string name> {
  string Name = name;
}
