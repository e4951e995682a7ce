//===- Liboffload22.td - liboffload 22's API on the runtime -*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// How LLVM 22's liboffload API (`<offload/OffloadAPI.h>`, Debian's
// liboffload-22-dev) maps onto the runtime's, for the drop-in library
// libLLVMOffload.so.22.1 (lib/Liboffload22). `offload-tblgen
// -gen-liboffload22` generates from it, compiled against liboffload's own
// header:
//  - static_asserts that the structs both sides share have one layout and
//    that every enumerator below 22's `*_LAST` has the same value on both
//    sides (except the ones listed as Different, translated by hand);
//  - the translation of error codes 22 does not have;
//  - `ol<Name>` and `ol<Name>WithCodeLoc` for each entry point below, with
//    22's types (`offload_` becomes `ol_`): enum arguments checked against
//    22's `*_LAST` as liboffload 22's validation does, handles and shared
//    structs cast, then the runtime's `offload<Name>WithCodeLoc`.
//
// An enumerator or error code the runtime adds after 22's last value needs
// nothing here; an entry point 22 has needs one line.
//
//===----------------------------------------------------------------------===//

include "OffloadAPI.td"

/// An entry point of liboffload 22: `ol` + the runtime function's name
/// without `offload`, with the same parameters in 22's types.
class Liboffload22<Function fn> {
  Function Fn = fn;
  /// Written by hand in Liboffload22.cpp as `<Impl>(22's parameters...,
  /// ol_code_location_t *)` (a callback or an output that needs
  /// translating); otherwise generated.
  string Impl = "";
}

/// An enum of liboffload 22: its `*_LAST` value there. Enumerators below it
/// exist in 22 with the same value (checked), except Different ones;
/// enumerators from it on are the runtime's own, which 22's validation
/// rejects as INVALID_ENUMERATION.
class Liboffload22Enum<Enum e, int last> {
  Enum E = e;
  int Last = last;
  list<string> Different = [];
}

/// A struct both APIs share with one layout (checked member by member).
class Liboffload22Struct<Struct s> {
  Struct S = s;
}

/// An error code 22 does not have, and the one it becomes.
class Liboffload22Errc<string ours, string theirs> {
  string Ours = ours;
  string Theirs = theirs;
}

def : Liboffload22Struct<offload_error_struct_t>;
def : Liboffload22Struct<offload_code_location_t>;
def : Liboffload22Struct<offload_dimensions_t>;
def : Liboffload22Struct<offload_kernel_launch_size_args_t>;

def : Liboffload22Enum<offload_errc_t, 25>;
def : Liboffload22Enum<offload_platform_backend_t, 5> {
  // 22 numbers LEVEL_ZERO 3 and HOST 4 (Liboffload22.cpp, fromBackend).
  let Different = ["OFFLOAD_PLATFORM_BACKEND_HOST",
                   "OFFLOAD_PLATFORM_BACKEND_LEVEL_ZERO"];
}
def : Liboffload22Enum<offload_platform_info_t, 4>;
def : Liboffload22Enum<offload_device_type_t, 5>;
def : Liboffload22Enum<offload_device_fp_capability_flag_t, 256>;
def : Liboffload22Enum<offload_device_info_t, 29>;
def : Liboffload22Enum<offload_alloc_type_t, 3>;
def : Liboffload22Enum<offload_mem_info_t, 4>;
def : Liboffload22Enum<offload_queue_info_t, 2>;
def : Liboffload22Enum<offload_event_info_t, 2>;
def : Liboffload22Enum<offload_symbol_kind_t, 2>;
def : Liboffload22Enum<offload_symbol_info_t, 3>;

def : Liboffload22Errc<"OFFLOAD_ERRC_INVALID_PROGRAM", "OL_ERRC_INVALID_ARGUMENT">;
def : Liboffload22Errc<"OFFLOAD_ERRC_INVALID_SYMBOL", "OL_ERRC_INVALID_ARGUMENT">;
def : Liboffload22Errc<"OFFLOAD_ERRC_NOT_READY", "OL_ERRC_UNKNOWN">;

def : Liboffload22<offloadInit>;
def : Liboffload22<offloadShutDown>;
def : Liboffload22<offloadGetPlatformInfo> { let Impl = "getPlatformInfo"; }
def : Liboffload22<offloadGetPlatformInfoSize>;
def : Liboffload22<offloadIterateDevices> { let Impl = "iterateDevices"; }
def : Liboffload22<offloadGetDeviceInfo>;
def : Liboffload22<offloadGetDeviceInfoSize>;
def : Liboffload22<offloadCalculateOptimalOccupancy>;
def : Liboffload22<offloadMemAlloc>;
def : Liboffload22<offloadMemFree>;
def : Liboffload22<offloadGetMemInfo>;
def : Liboffload22<offloadGetMemInfoSize>;
def : Liboffload22<offloadMemcpy>;
def : Liboffload22<offloadMemFill>;
def : Liboffload22<offloadMemRegister>;
def : Liboffload22<offloadMemUnregister>;
def : Liboffload22<offloadCreateQueue>;
def : Liboffload22<offloadDestroyQueue>;
def : Liboffload22<offloadSyncQueue>;
def : Liboffload22<offloadWaitEvents>;
def : Liboffload22<offloadGetQueueInfo>;
def : Liboffload22<offloadGetQueueInfoSize>;
def : Liboffload22<offloadLaunchHostFunction>;
def : Liboffload22<offloadCreateEvent>;
def : Liboffload22<offloadDestroyEvent>;
def : Liboffload22<offloadSyncEvent>;
def : Liboffload22<offloadGetEventInfo>;
def : Liboffload22<offloadGetEventInfoSize>;
def : Liboffload22<offloadCreateProgram>;
def : Liboffload22<offloadIsValidBinary>;
def : Liboffload22<offloadDestroyProgram>;
def : Liboffload22<offloadGetSymbol>;
def : Liboffload22<offloadGetSymbolInfo>;
def : Liboffload22<offloadGetSymbolInfoSize>;
def : Liboffload22<offloadLaunchKernel>;
