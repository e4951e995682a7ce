//===- OffloadAPI.td - The runtime C API, described once ---*- tablegen -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The C API of libOffloadRuntime (classes in APIDefs.td). The public header
// include/OffloadRuntime/OffloadAPI.h, the entry points' validation and
// tracing, the enum tables and the export list are generated from it by
// tools/offload-tblgen (docs/RuntimeAPI.md, "How the API is generated").
//
//===----------------------------------------------------------------------===//

include "APIDefs.td"

def : Preamble<[{The public C API of the offload runtime. It is LLVM's liboffload API
(`offload/liboffload/API/*.td`, release 22, `include/offload/OffloadAPI.h`)
under the `offload` prefix instead of `ol`, so that both libraries can live
in one process: the same objects (platforms, devices, queues, events,
programs, symbols), the same entry points with the same parameters, info
queries with size queries, and the same error model. Every `olX` of
liboffload 22 is `offloadX` here, `olXWithCodeLoc` is `offloadXWithCodeLoc`;
docs/RuntimeAPI.md maps them one by one and lists what this runtime adds
(entry points for compiler-generated code, extra info properties).

Error model
-----------
Every entry point returns an `offload_result_t`: `OFFLOAD_SUCCESS` (NULL) on
success, otherwise a pointer to an `offload_error_struct_t` holding a code
and a message that names the failing argument or the cause. The error lives
until the library is unloaded (it is never destroyed, so calls from static
destructors at exit are safe) and must not be freed. Each entry point
documents its error codes below; any entry point may also return
 - OFFLOAD_ERRC_UNINITIALIZED when called before offloadInit or after the
   last offloadShutDown (offloadInit and offloadErrcName excepted);
 - OFFLOAD_ERRC_INVALID_NULL_HANDLE for a null handle argument that is not
   optional, and OFFLOAD_ERRC_INVALID_{PLATFORM,DEVICE,QUEUE,EVENT,PROGRAM,
   SYMBOL} for a handle that was destroyed or never created (checked against
   tables of live handles, without dereferencing the handle). A handle is
   never reused while the process lives: the handle of a destroyed object
   (also one released by offloadShutDown) never names a later object, so
   it gets INVALID_<KIND> every time;
 - OFFLOAD_ERRC_INVALID_NULL_POINTER for a null pointer argument that is not
   optional;
 - OFFLOAD_ERRC_INVALID_ENUMERATION for an enum argument outside its
   enumerators.
Arguments are checked in declaration order; the first failing check is
reported.

Validation and tracing
----------------------
OFFLOAD_DISABLE_VALIDATION=1 (read by offloadInit when the reference count
goes from 0 to 1) turns off the argument checks that cost a lookup (handle
registries, allocation bounds, launch geometry, argument buffer size); the
caller then promises valid arguments. Checks that keep the runtime itself
free of undefined behaviour (enum ranges, info buffer sizes, a zero fill
pattern size, freeing unknown memory) always apply, and so do those whose
answer would otherwise change with the setting (zero sizes of
offloadMemAlloc, offloadMemFill and offloadMemRegister, a null
offloadMemFree, an empty program image): validation only adds errors for
calls the API calls invalid, it never changes an answer. OFFLOAD_TRACE=1
prints every call to stderr, one line each:
  offloadMemAlloc(Device=0x..., Type=DEVICE, Size=64, AllocationOut=0x...)
      -> OFFLOAD_SUCCESS
(`-> OFFLOAD_ERRC_<CODE>: <message>` on failure, ` @ <function>
(<file>:<line>:<column>)` after the arguments for a WithCodeLoc variant).

Units
-----
Sizes and offsets are in bytes, dimensions in elements (blocks or threads),
clock rates in MHz. Info properties document their type in brackets.

Thread safety
-------------
 - Every entry point may be called concurrently from any number of threads,
   on the same or different handles, except as listed here.
 - offloadInit and offloadShutDown are serialized with each other. The call
   of offloadShutDown that releases the runtime (reference count 1 -> 0)
   must not run concurrently with any other call but offloadInit.
 - A handle must not be destroyed (offloadDestroy*, offloadMemFree) while
   another thread is using it in a call; with validation on, a call that
   starts after the destruction returns INVALID_<KIND>, but a call that is
   already running may use freed memory.
 - Operations enqueued on one queue execute in submission order, also when
   several threads submit to it (each submission is atomic); operations on
   different queues may run concurrently. offloadSyncQueue waits for what
   was submitted before it started.
 - Callbacks (offloadIterateDevices, offloadLaunchHostFunction) run without
   any runtime lock held; a host function may call the API, except
   synchronizing, destroying or waiting on its own queue (a deadlock).

This header has no MLIR or LLVM types: a program that embeds only the
runtime (libOffloadRuntime) pays for no compiler.
}]>;

def : Macro<"OFFLOAD_LIBOFFLOAD_API_VERSION_MAJOR", "0"> { let Desc = "Version of the liboffload API this header follows (OL_VERSION_*)."; }
def : Macro<"OFFLOAD_LIBOFFLOAD_API_VERSION_MINOR", "0"> { let Desc = ""; }
def : Macro<"OFFLOAD_LIBOFFLOAD_API_VERSION_PATCH", "1"> { let Desc = ""; }

def : Section<"Handles, errors and common types">;

def : Handle<"offload_platform_handle_t", "Platform">;
def : Handle<"offload_device_handle_t", "Device">;
def : Handle<"offload_queue_handle_t", "Queue">;
def : Handle<"offload_event_handle_t", "Event">;
def : Handle<"offload_program_handle_t", "Program">;
def : Handle<"offload_symbol_handle_t", "Symbol">;
def offload_errc_t : Enum {
  let Desc = [{Error codes; values 0-24 are liboffload 22's `ol_errc_t`, 25-27 are
ours.}];
  let Prefix = "OFFLOAD_ERRC_";
  let Etors = [
    Etor<"OFFLOAD_ERRC_SUCCESS", 0, "">,
    Etor<"OFFLOAD_ERRC_UNKNOWN", 1, "unknown or internal error">,
    Etor<"OFFLOAD_ERRC_HOST_IO", 2, "I/O error on the host">,
    Etor<"OFFLOAD_ERRC_INVALID_BINARY", 3, "a binary image is malformed">,
    Etor<"OFFLOAD_ERRC_INVALID_NULL_POINTER", 4, "a pointer argument is null">,
    Etor<"OFFLOAD_ERRC_INVALID_ARGUMENT", 5, "an argument is invalid">,
    Etor<"OFFLOAD_ERRC_NOT_FOUND", 6, "object not found">,
    Etor<"OFFLOAD_ERRC_OUT_OF_RESOURCES", 7, "out of memory or resources">,
    Etor<"OFFLOAD_ERRC_INVALID_SIZE", 8, "zero or out-of-bounds size">,
    Etor<"OFFLOAD_ERRC_INVALID_ENUMERATION", 9, "enumerator argument not valid">,
    Etor<"OFFLOAD_ERRC_HOST_TOOL_NOT_FOUND", 10, "a required host tool is missing">,
    Etor<"OFFLOAD_ERRC_INVALID_VALUE", 11, "invalid value">,
    Etor<"OFFLOAD_ERRC_UNIMPLEMENTED", 12, "not implemented by the backend">,
    Etor<"OFFLOAD_ERRC_UNSUPPORTED", 13, "not supported by the backend">,
    Etor<"OFFLOAD_ERRC_ASSEMBLE_FAILURE", 14, "assembler failure">,
    Etor<"OFFLOAD_ERRC_COMPILE_FAILURE", 15, "compiler failure">,
    Etor<"OFFLOAD_ERRC_LINK_FAILURE", 16, "linker failure">,
    Etor<"OFFLOAD_ERRC_BACKEND_FAILURE", 17, "plugin backend failure">,
    Etor<"OFFLOAD_ERRC_UNINITIALIZED", 18, "offloadInit was not called">,
    Etor<"OFFLOAD_ERRC_INVALID_NULL_HANDLE", 19, "a handle argument is null">,
    Etor<"OFFLOAD_ERRC_INVALID_PLATFORM", 20, "invalid platform">,
    Etor<"OFFLOAD_ERRC_INVALID_DEVICE", 21, "invalid device">,
    Etor<"OFFLOAD_ERRC_INVALID_QUEUE", 22, "invalid queue">,
    Etor<"OFFLOAD_ERRC_INVALID_EVENT", 23, "invalid event">,
    Etor<"OFFLOAD_ERRC_SYMBOL_KIND", 24, "symbol of the wrong kind">,
    Etor<"OFFLOAD_ERRC_INVALID_PROGRAM", 25, "invalid program (ours)">,
    Etor<"OFFLOAD_ERRC_INVALID_SYMBOL", 26, "invalid symbol (ours)">,
    Etor<"OFFLOAD_ERRC_NOT_READY", 27, "the work is not complete yet (ours)">,
  ];
}
def offload_error_struct_t : Struct {
  let Desc = [{Details of an error returned by an entry point.}];
  let Members = [
    Member<"offload_errc_t", "Code", "the error code, never OFFLOAD_ERRC_SUCCESS">,
    Member<"const char *", "Details", "a message naming the failing argument or cause">,
  ];
}
def offload_result_t : Typedef<"typedef const offload_error_struct_t *offload_result_t;"> { let Desc = [{Result of every entry point: NULL on success, else the error.}]; }
def : Macro<"OFFLOAD_SUCCESS", "((offload_result_t)NULL)"> { let Desc = ""; }
def offload_dimensions_t : Struct {
  let LoweringName = "Dimensions";
  let Compact = 1;
  let Desc = [{A three-element vector of block or thread counts.}];
  let Members = [
    Member<"uint32_t", "x", "">,
    Member<"uint32_t", "y", "">,
    Member<"uint32_t", "z", "">,
  ];
}
def offload_code_location_t : Struct {
  let Desc = [{Source location of a call, for the WithCodeLoc variants of the entry
points; printed by OFFLOAD_TRACE=1. Every field may be null or zero.}];
  let Members = [
    Member<"const char *", "FunctionName", "calling function">,
    Member<"const char *", "SourceFile", "source file of the call">,
    Member<"uint32_t", "LineNumber", "line of the call">,
    Member<"uint32_t", "ColumnNumber", "column of the call">,
  ];
  // convert-offload-to-llvm passes allocations' source locations.
  let LoweringName = "CodeLocation";
}
def offloadErrcName : Function {
  let ReturnType = "const char *";
  let Desc = [{Returns a static, human-readable name for \p Code ("OFFLOAD_ERRC_...");
"OFFLOAD_ERRC_<invalid>" for a value that is not a code. Never fails,
needs no initialization.}];
  let Params = [
    Param<"offload_errc_t", "Code", "", PARAM_IN>,
  ];
  let Generated = 0;
  let CodeLoc = 0;
}

def : Section<"Initialization">;

def offloadInit : Function {
  let LoweringUses = 1;
  let Desc = [{Initializes the library and its plugins. Reference counted: each
successful call must be matched by one offloadShutDown; only the first
(count 0 -> 1) does work and reads OFFLOAD_TRACE, OFFLOAD_DISABLE_VALIDATION
and the plugins' settings from the environment. Plugins whose vendor
library is missing contribute no devices; that is not an error.}];
  let NoRuntime = 1;
  let Params = [
  ];
  let Errors = [{BACKEND_FAILURE (a plugin failed to initialize; the count stays 0).}];
}
def offloadShutDown : Function {
  let Desc = [{Decrements the reference count; at zero, waits for every queue and then
releases every queue, event, program and allocation. Calls other than
offloadInit made afterwards return UNINITIALIZED, also for handles of the
released runtime when a new one was initialized since (they are unknown to
it).}];
  let NoRuntime = 1;
  let Params = [
  ];
  let Errors = [{UNINITIALIZED (count already 0).}];
}

def : Section<"Platforms">;

def offload_platform_backend_t : Enum {
  let Desc = [{The native backend of a platform. The values differ from liboffload's
(HOST is 3 here, LEVEL_ZERO 4): compiler-generated code passes them.}];
  let Prefix = "OFFLOAD_PLATFORM_BACKEND_";
  let Etors = [
    Etor<"OFFLOAD_PLATFORM_BACKEND_UNKNOWN", 0, "not recognized; for offloadGetDevice: any">,
    Etor<"OFFLOAD_PLATFORM_BACKEND_CUDA", 1, "CUDA">,
    Etor<"OFFLOAD_PLATFORM_BACKEND_AMDGPU", 2, "AMDGPU (HIP)">,
    Etor<"OFFLOAD_PLATFORM_BACKEND_HOST", 3, "the host CPU">,
    Etor<"OFFLOAD_PLATFORM_BACKEND_LEVEL_ZERO", 4, "Level Zero (no plugin yet)">,
  ];
}
def offload_init_args_t : Struct {
  let Desc = [{Arguments of offloadInitWithArgs (liboffload 23's `ol_init_args_t`).
Initialize it with OFFLOAD_INIT_ARGS_INIT, then set what differs.}];
  let Members = [
    Member<"size_t", "Size", "sizeof(offload_init_args_t) of the caller's header (at least this one's)">,
    Member<"uint32_t", "NumPlatforms", "entries of Platforms; 0: every platform">,
    Member<"const offload_platform_backend_t *", "Platforms", "the backends whose plugins are initialized (the host platform always is); may be null when NumPlatforms is 0">,
  ];
}
def : Macro<"OFFLOAD_INIT_ARGS_INIT", "{sizeof(offload_init_args_t), 0, NULL}"> { let Desc = "The default arguments of offloadInitWithArgs: every platform."; }
def offloadInitWithArgs : Function {
  let Desc = [{offloadInit with arguments (liboffload 23's `olInit(const ol_init_args_t *)`;
offloadInit() is offloadInitWithArgs(NULL)). \p InitArgs (optional; null:
the defaults) selects the platforms whose plugins are initialized: with
NumPlatforms > 0 only the host platform and those whose backend is listed
(a backend listed twice counts once); the others are not created, so
offloadIteratePlatforms and offloadIterateDevices do not report them.
Reference counted like offloadInit: only the call that takes the count
from 0 to 1 reads the arguments; later ones only count (their arguments
are checked, not applied).}];
  let NoRuntime = 1;
  let Params = [
    Param<"const offload_init_args_t *", "InitArgs", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
  ];
  let Errors = [{INVALID_SIZE (InitArgs->Size smaller than
sizeof(offload_init_args_t)), INVALID_NULL_POINTER (InitArgs->Platforms
null with NumPlatforms > 0), INVALID_ENUMERATION (an entry of Platforms
that is not a backend; the message names it, "Platforms[i]"),
BACKEND_FAILURE (as offloadInit).}];
}
def offload_platform_info_t : Enum {
  let Desc = [{Platform properties.}];
  let Prefix = "OFFLOAD_PLATFORM_INFO_";
  let Etors = [
    Etor<"OFFLOAD_PLATFORM_INFO_NAME", 0, "[char[]] platform name">,
    Etor<"OFFLOAD_PLATFORM_INFO_VENDOR_NAME", 1, "[char[]] vendor of the platform">,
    Etor<"OFFLOAD_PLATFORM_INFO_VERSION", 2, "[char[]] platform version">,
    Etor<"OFFLOAD_PLATFORM_INFO_BACKEND", 3, "[offload_platform_backend_t]">,
    Etor<"OFFLOAD_PLATFORM_INFO_STATUS", 4, "[char[]] (ours) \"N device(s)\", or why the platform has none (its vendor library is missing, is the toolkit's stub, or sees no device).">,
  ];
}
def offloadGetPlatformInfo : InfoQuery<"getPlatformInfo"> {
  let Desc = [{Writes property \p PropName of \p Platform into \p PropValue, a buffer of
\p PropSize bytes (strings are NUL-terminated; query the size with
offloadGetPlatformInfoSize).}];
  let Params = [
    Param<"offload_platform_handle_t", "Platform", "", PARAM_IN>,
    Param<"offload_platform_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t", "PropSize", "", !or(PARAM_IN, PARAM_NONZERO)>,
    Param<"void *", "PropValue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_PLATFORM,
INVALID_ENUMERATION (PropName), INVALID_NULL_POINTER (PropValue),
INVALID_SIZE (PropSize zero or smaller than the property).}];
}
def offloadGetPlatformInfoSize : InfoQuery<"getPlatformInfo"> {
  let Desc = [{Writes into \p PropSizeRet the size in bytes of property \p PropName of
\p Platform (for strings, including the NUL).}];
  let Params = [
    Param<"offload_platform_handle_t", "Platform", "", PARAM_IN>,
    Param<"offload_platform_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t *", "PropSizeRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE,
INVALID_PLATFORM, INVALID_ENUMERATION, INVALID_NULL_POINTER (PropSizeRet).}];
}

def : Section<"Devices">;

def offload_device_type_t : Enum {
  let Desc = [{Device types.}];
  let Prefix = "OFFLOAD_DEVICE_TYPE_";
  let Etors = [
    Etor<"OFFLOAD_DEVICE_TYPE_DEFAULT", 0, "the runtime's preferred type">,
    Etor<"OFFLOAD_DEVICE_TYPE_ALL", 1, "all types">,
    Etor<"OFFLOAD_DEVICE_TYPE_GPU", 2, "a GPU">,
    Etor<"OFFLOAD_DEVICE_TYPE_CPU", 3, "a CPU">,
    Etor<"OFFLOAD_DEVICE_TYPE_HOST", 4, "the host device">,
  ];
}
def offload_device_fp_capability_flag_t : Enum {
  let Desc = [{Floating-point capability bits (OFFLOAD_DEVICE_INFO_*_FP_CONFIG).}];
  let Prefix = "OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_";
  let IsBitField = 1;
  let Etors = [
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT", 1, "correctly rounded divide and sqrt">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST", 2, "round to nearest">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO", 4, "round to zero">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF", 8, "round to +-inf">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_INF_NAN", 16, "INF and NaN">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM", 32, "denormals">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA", 64, "fused mul-add">,
    Etor<"OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT", 128, "basic operations implemented in software (or through another precision)">,
  ];
}
def offload_device_fp_capability_flags_t : Typedef<"typedef uint32_t offload_device_fp_capability_flags_t;"> { let Desc = [{A set of offload_device_fp_capability_flag_t bits.}]; }
def offload_device_info_t : Enum {
  let Desc = [{Device properties. Values 0-28 are liboffload 22's `ol_device_info_t`;
29 and 30 are ours, 31 is liboffload 23's.}];
  let Prefix = "OFFLOAD_DEVICE_INFO_";
  let Etors = [
    Etor<"OFFLOAD_DEVICE_INFO_TYPE", 0, "[offload_device_type_t]">,
    Etor<"OFFLOAD_DEVICE_INFO_PLATFORM", 1, "[offload_platform_handle_t]">,
    Etor<"OFFLOAD_DEVICE_INFO_NAME", 2, "[char[]] device name (host: the CPU model, e.g. \"AMD EPYC 7763\")">,
    Etor<"OFFLOAD_DEVICE_INFO_PRODUCT_NAME", 3, "[char[]] user-facing marketing name">,
    Etor<"OFFLOAD_DEVICE_INFO_UID", 4, "[char[]] identifier unique to the device (host: \"host-\" + machine id)">,
    Etor<"OFFLOAD_DEVICE_INFO_VENDOR", 5, "[char[]] vendor (host: the CPUID vendor, e.g. \"GenuineIntel\")">,
    Etor<"OFFLOAD_DEVICE_INFO_DRIVER_VERSION", 6, "[char[]] driver version (host: the LLVM version the runtime uses)">,
    Etor<"OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE", 7, "[uint32_t] maximum threads per block">,
    Etor<"OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION", 8, "[offload_dimensions_t] maximum threads per block in each dimension">,
    Etor<"OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE", 9, "[uint32_t] maximum threads of a launch (saturated at UINT32_MAX, which then bounds nothing; host: 2^31 - 1)">,
    Etor<"OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION", 10, "[offload_dimensions_t] maximum threads of a launch in each dimension (NumGroups * GroupSize; saturated as MAX_WORK_SIZE; host: 2^31 - 1)">,
    Etor<"OFFLOAD_DEVICE_INFO_VENDOR_ID", 11, "[uint32_t] PCI-SIG vendor id (host: 0x8086 Intel, 0x1022 AMD, ...; 0 if the CPU vendor has none)">,
    Etor<"OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS", 12, "[uint32_t] parallel compute units (host: hardware threads)">,
    Etor<"OFFLOAD_DEVICE_INFO_MAX_CLOCK_FREQUENCY", 13, "[uint32_t] maximum clock frequency in MHz (host: cpufreq's maximum, else the fastest \"cpu MHz\" of /proc/cpuinfo; 0 if unknown)">,
    Etor<"OFFLOAD_DEVICE_INFO_MEMORY_CLOCK_RATE", 14, "[uint32_t] memory clock rate in MHz (host: the configured speed of the fastest memory module in the SMBIOS tables, as the firmware states it, i.e. MT/s for DDR memory; read from /sys/firmware/dmi/tables/DMI where readable (root), else from udev's database (/run/udev/data/+dmi:id, readable by anyone, where systemd 248 or later recorded the tables); 0 when neither is there, e.g. in containers and on machines without SMBIOS)">,
    Etor<"OFFLOAD_DEVICE_INFO_ADDRESS_BITS", 15, "[uint32_t] bits of a device address">,
    Etor<"OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE", 16, "[uint64_t] largest single allocation in bytes (host: physical memory, or the process's address-space or data limit if lower); offloadMemAlloc refuses larger sizes">,
    Etor<"OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE", 17, "[uint64_t] global memory in bytes (host: physical memory)">,
    Etor<"OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE", 18, "[uint64_t] shared (workgroup) memory per block in bytes">,
    Etor<"OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG", 19, "[offload_device_fp_capability_flags_t] single precision capabilities">,
    Etor<"OFFLOAD_DEVICE_INFO_DOUBLE_FP_CONFIG", 20, "[offload_device_fp_capability_flags_t] double precision capabilities">,
    Etor<"OFFLOAD_DEVICE_INFO_HALF_FP_CONFIG", 21, "[offload_device_fp_capability_flags_t] half precision capabilities">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR", 22, "[uint32_t] native vector width, in elements, for char (host: from the widest vector registers the CPU has for the type)">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT", 23, "[uint32_t] short">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT", 24, "[uint32_t] int">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG", 25, "[uint32_t] long">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT", 26, "[uint32_t] float">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE", 27, "[uint32_t] double">,
    Etor<"OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF", 28, "[uint32_t] half; 0 without native half-precision arithmetic">,
    Etor<"OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE", 29, "[uint32_t] threads per subgroup (warp) (ours)">,
    Etor<"OFFLOAD_DEVICE_INFO_ARCHITECTURE", 30, "[char[]] the processor code is compiled for (ours): CUDA `sm_XY` from the compute capability, HIP the target id the runtime reports (`gfx90a:sramecc+:xnack-`), host LLVM's name of the host CPU (`znver3`)">,
    Etor<"OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT", 31, "[bool] whether the device launches cooperative grids (OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE; liboffload 23): every block of the grid runs at once, so blocks may wait for each other. Host: true (each block of a cooperative grid gets a thread of its own); CUDA: the driver's CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH (launches with cuLaunchCooperativeKernel; the kernel's parameter layout must be known); HIP: false for now (the plugin does not call hipLaunchCooperativeKernel yet)">,
  ];
}
def offload_device_iterate_cb_t : Typedef<"typedef bool (*offload_device_iterate_cb_t)(offload_device_handle_t Device, void *UserData);"> { let Desc = [{Called once per device by offloadIterateDevices; return false to stop.}]; }
def offloadIterateDevices : Function {
  let Desc = [{Calls \p Callback (with \p UserData, which may be null) for every device of
every platform, the host device first, until it returns false. Device
handles live until the runtime is released.}];
  let Params = [
    Param<"offload_device_iterate_cb_t", "Callback", "", PARAM_IN>,
    Param<"void *", "UserData", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
  ];
  let Errors = [{INVALID_NULL_POINTER
(Callback).}];
}
def offload_platform_iterate_cb_t : Typedef<"typedef bool (*offload_platform_iterate_cb_t)(offload_platform_handle_t Platform, void *UserData);"> { let Desc = [{Called once per platform by offloadIteratePlatforms; return false to stop.}]; }
def offloadIteratePlatforms : Function {
  let Desc = [{(Ours, not in liboffload 22.) Calls \p Callback for every platform the
runtime knows, including those without devices (host first, then CUDA and
HIP), so that tools can say why a platform has none
(OFFLOAD_PLATFORM_INFO_STATUS).}];
  let Params = [
    Param<"offload_platform_iterate_cb_t", "Callback", "", PARAM_IN>,
    Param<"void *", "UserData", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
  ];
  let Errors = [{UNINITIALIZED,
INVALID_NULL_POINTER if \p Callback is NULL.}];
  let CodeLoc = 0;
}
def offloadGetDeviceInfo : InfoQuery<"getDeviceInfo"> {
  let Desc = [{Writes property \p PropName of \p Device into \p PropValue, a buffer of
\p PropSize bytes.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_device_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t", "PropSize", "", !or(PARAM_IN, PARAM_NONZERO)>,
    Param<"void *", "PropValue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE,
INVALID_ENUMERATION (PropName), INVALID_NULL_POINTER (PropValue),
INVALID_SIZE (PropSize zero or smaller than the property; query it with
offloadGetDeviceInfoSize).}];
}
def offloadGetDeviceInfoSize : InfoQuery<"getDeviceInfo"> {
  let Desc = [{Writes into \p PropSizeRet the size in bytes of property \p PropName of
\p Device.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_device_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t *", "PropSizeRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE,
INVALID_ENUMERATION, INVALID_NULL_POINTER (PropSizeRet).}];
}
def offloadGetDevice : Function {
  let LoweringUses = 1;
  let Desc = [{(Ours.) Writes the \p Index-th device (0-based, in iteration order) whose
platform backend is \p Backend (OFFLOAD_PLATFORM_BACKEND_UNKNOWN: any) to
\p Device.}];
  let Params = [
    Param<"offload_platform_backend_t", "Backend", "", PARAM_IN>,
    Param<"uint32_t", "Index", "", PARAM_IN>,
    Param<"offload_device_handle_t *", "Device", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_POINTER (Device), INVALID_ENUMERATION
(Backend), NOT_FOUND (no such device; the message says how many match).}];
  let CodeLoc = 0;
}
def offloadGetHostDevice : Function {
  let Desc = [{(Ours.) Writes the host device, the CPU the program runs on, to \p Device.
It is always present and is the first device.}];
  let Params = [
    Param<"offload_device_handle_t *", "Device", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_POINTER.}];
  let CodeLoc = 0;
}

def : Section<"Memory">;

def offload_alloc_type_t : Enum {
  let Desc = [{Kinds of allocation.}];
  let Prefix = "OFFLOAD_ALLOC_TYPE_";
  let Etors = [
    Etor<"OFFLOAD_ALLOC_TYPE_HOST", 0, "pinned host memory, device accessible">,
    Etor<"OFFLOAD_ALLOC_TYPE_DEVICE", 1, "device memory">,
    Etor<"OFFLOAD_ALLOC_TYPE_MANAGED", 2, "unified memory, host and device">,
  ];
}
def offload_mem_info_t : Enum {
  let Desc = [{Properties of an allocation of offloadMemAlloc.}];
  let Prefix = "OFFLOAD_MEM_INFO_";
  let Etors = [
    Etor<"OFFLOAD_MEM_INFO_DEVICE", 0, "[offload_device_handle_t] its device">,
    Etor<"OFFLOAD_MEM_INFO_BASE", 1, "[void *] its start address">,
    Etor<"OFFLOAD_MEM_INFO_SIZE", 2, "[size_t] its size in bytes">,
    Etor<"OFFLOAD_MEM_INFO_TYPE", 3, "[offload_alloc_type_t] its kind">,
  ];
}
def offload_memory_register_flags_t : Typedef<"typedef uint32_t offload_memory_register_flags_t;"> { let Desc = [{Flags of offloadMemRegister; reserved, must be 0.}]; }
def offloadMemAlloc : Function {
  let LoweringUses = 1;
  let LoweringUsesCodeLoc = 1;
  let Desc = [{Allocates \p Size bytes (> 0) of kind \p Type for \p Device and writes the
address, aligned to at least 64 bytes, to \p AllocationOut. Allocations of
all devices share one address space. The host device never hands out an
address twice while the process lives, so a freed allocation's address
stays invalid for offloadMemFree and offloadGetMemInfo; a GPU driver may
reuse the addresses of freed allocations.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_alloc_type_t", "Type", "", PARAM_IN>,
    Param<"size_t", "Size", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"void **", "AllocationOut", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE,
INVALID_DEVICE, INVALID_ENUMERATION (Type), INVALID_SIZE (Size zero,
checked even without validation), INVALID_NULL_POINTER (AllocationOut),
OUT_OF_RESOURCES (Size above the
device's OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE, checked even without
validation, or the allocation failed).}];
}
def offloadMemAllocAligned : Function {
  let Desc = [{offloadMemAlloc with an alignment (liboffload 23's `olMemAllocAligned`):
allocates \p Size bytes (> 0) of kind \p Type for \p Device aligned to
\p Alignment bytes, a power of two, and writes the address to
\p AllocationOut. Alignments up to 64 are what offloadMemAlloc gives
anyway; larger ones are supported up to the device's limit: 1 GiB on the
host device (its allocations come from reserved regions of 64 GiB), 2 MiB
on CUDA and HIP devices (whose drivers align to 256 bytes: a larger
alignment over-allocates by up to Alignment - 256 bytes, which the
allocation's OFFLOAD_MEM_INFO_SIZE does not count). Every kind of memory
(HOST, DEVICE, MANAGED) may be aligned. The allocation is freed with
offloadMemFree of the returned address, and is in every other way one of
offloadMemAlloc.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_alloc_type_t", "Type", "", PARAM_IN>,
    Param<"size_t", "Size", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"size_t", "Alignment", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"void **", "AllocationOut", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE,
INVALID_ENUMERATION (Type), INVALID_SIZE (Size zero, checked even without
validation), INVALID_ARGUMENT (Alignment zero or not a power of two,
checked even without validation), INVALID_NULL_POINTER (AllocationOut),
UNSUPPORTED (Alignment above the device's limit), OUT_OF_RESOURCES (as
offloadMemAlloc, also when Size plus the over-allocation does not fit).}];
}
def offload_mem_migration_flag_t : Enum {
  let Desc = [{Where offloadMemPrefetch moves managed memory to.}];
  let Prefix = "OFFLOAD_MEM_MIGRATION_FLAG_";
  let Etors = [
    Etor<"OFFLOAD_MEM_MIGRATION_FLAG_HOST_TO_DEVICE", 0, "to the queue's device">,
    Etor<"OFFLOAD_MEM_MIGRATION_FLAG_DEVICE_TO_HOST", 1, "to the host">,
  ];
}
def offloadMemPrefetch : Function {
  let Desc = [{Enqueues on \p Queue a hint to move the \p NumPtrs ranges \p Ptrs[i]
(\p Sizes[i] bytes each) of managed memory in the direction \p Flags says
(liboffload 23's `olMemPrefetch`). A hint only: the memory's contents and
its addresses do not change, and a range that is not managed memory
(another kind of allocation, memory the runtime does not know) is ignored
without an error, as is a range of 0 bytes. The CUDA and HIP plugins move
managed memory with cuMemPrefetchAsync_v2 and hipMemPrefetchAsync, on the
queue (a driver without them ignores the hint); the host device's managed
memory is host memory, which stays where it is. With validation, a range that
starts inside an allocation of offloadMemAlloc must have Sizes[i] bytes
left in it.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"size_t", "NumPtrs", "", PARAM_IN>,
    Param<"const void *const *", "Ptrs", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"const size_t *", "Sizes", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"offload_mem_migration_flag_t", "Flags", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE,
INVALID_NULL_POINTER (Ptrs or Sizes null with NumPtrs > 0, an entry of Ptrs
null: the message names it, "Ptrs[i]"), INVALID_ENUMERATION (Flags),
INVALID_SIZE (with validation: Sizes[i] past the end of the allocation
Ptrs[i] is in).}];
}
def offloadMemFree : Function {
  let LoweringUses = 1;
  let Desc = [{Frees an allocation made by offloadMemAlloc; \p Address must be its start.
Work still enqueued that uses it must have completed.}];
  let Params = [
    Param<"void *", "Address", "", !or(PARAM_IN, PARAM_ALWAYS)>,
  ];
  let Errors = [{INVALID_NULL_POINTER (Address; checked even without validation),
INVALID_ARGUMENT (not the start of a live
allocation: never allocated, inside one, or already freed; checked even
without validation).}];
}
def offloadGetMemInfo : InfoQuery<"getMemInfo"> {
  let Desc = [{Writes property \p PropName of the allocation containing \p Ptr (any
address inside an allocation of offloadMemAlloc) into \p PropValue, a
buffer of \p PropSize bytes.}];
  let Params = [
    Param<"const void *", "Ptr", "", PARAM_IN>,
    Param<"offload_mem_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t", "PropSize", "", !or(PARAM_IN, PARAM_NONZERO)>,
    Param<"void *", "PropValue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_POINTER (Ptr,
PropValue), INVALID_ENUMERATION (PropName), INVALID_SIZE (PropSize zero or
too small), NOT_FOUND (Ptr is in no live allocation; checked even without
validation).}];
}
def offloadGetMemInfoSize : InfoQuery<"getMemInfo"> {
  let Desc = [{Writes into \p PropSizeRet the size in bytes of property \p PropName of
the allocation containing \p Ptr.}];
  let Params = [
    Param<"const void *", "Ptr", "", PARAM_IN>,
    Param<"offload_mem_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t *", "PropSizeRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_POINTER (Ptr,
PropSizeRet), INVALID_ENUMERATION, NOT_FOUND.}];
}
def offloadMemcpy : Function {
  let LoweringUses = 1;
  let Desc = [{Copies \p Size bytes from \p SrcPtr (memory of \p SrcDevice) to \p DstPtr
(memory of \p DstDevice); host memory belongs to the host device. Without
a queue the copy is complete on return; with \p Queue (optional, a queue
of DstDevice or SrcDevice) it is enqueued and \p SrcPtr is read when it
runs. With validation, a pointer inside an allocation of offloadMemAlloc
must have Size bytes left in it. A copy of zero bytes succeeds and does
nothing (nothing is enqueued).}];
  let FastPath = 1;
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"void *", "DstPtr", "", PARAM_IN>,
    Param<"offload_device_handle_t", "DstDevice", "", PARAM_IN>,
    Param<"const void *", "SrcPtr", "", PARAM_IN>,
    Param<"offload_device_handle_t", "SrcDevice", "", PARAM_IN>,
    Param<"size_t", "Size", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_QUEUE, INVALID_NULL_POINTER
(DstPtr, SrcPtr), INVALID_NULL_HANDLE / INVALID_DEVICE (DstDevice,
SrcDevice), INVALID_SIZE (past the end of an allocation), INVALID_DEVICE
(Queue of a third device; with validation, a pointer inside an allocation
of offloadMemAlloc named memory of another device than the one that made
it: a HOST or MANAGED allocation may be named the host device's, a DEVICE
allocation only its own device's).}];
}
def offloadMemFill : Function {
  let LoweringUses = 1;
  let Desc = [{Fills \p FillSize bytes at \p Ptr with copies of the \p PatternSize-byte
pattern at \p PatternPtr (copied when the call returns). FillSize must be a
multiple of PatternSize. Synchronous without \p Queue (optional); with it,
enqueued (Ptr must then be memory the queue's device can write).}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"void *", "Ptr", "", PARAM_IN>,
    Param<"size_t", "PatternSize", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"const void *", "PatternPtr", "", PARAM_IN>,
    Param<"size_t", "FillSize", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
  ];
  let Errors = [{INVALID_QUEUE, INVALID_NULL_POINTER (Ptr, PatternPtr), INVALID_SIZE
(PatternSize or FillSize zero, both checked even without validation;
FillSize not a multiple of PatternSize,
past the end of an allocation), INVALID_DEVICE (Ptr is an allocation of
another device than Queue's).}];
}
def offloadMemRegister : Function {
  let Desc = [{Registers (page-locks) \p Size bytes of existing host memory at \p Ptr for
\p Device and writes the pointer the device uses for it to \p PinnedPtr
(for the host device, \p Ptr itself). \p Flags is reserved and must be 0.
The runtime records registrations per device, as liboffload's
pinned-allocation map does: a range inside a registered range (the same
range included) is one more use of that registration, with the device's
pointer at the same offset, and needs its own offloadMemUnregister; only a
range that overlaps registered memory without lying inside it is refused.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"void *", "Ptr", "", PARAM_IN>,
    Param<"size_t", "Size", "", !or(PARAM_IN, PARAM_NONZERO, PARAM_ALWAYS)>,
    Param<"offload_memory_register_flags_t", "Flags", "", !or(PARAM_IN, PARAM_RESERVED_ZERO)>,
    Param<"void **", "PinnedPtr", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER (Ptr,
PinnedPtr), INVALID_SIZE (Size zero, checked even without validation;
Ptr + Size wraps around), INVALID_ARGUMENT (Flags not 0, the range
partially overlaps memory registered with the device).}];
}
def offloadMemUnregister : Function {
  let Desc = [{Undoes one offloadMemRegister of a range starting at \p Ptr for
\p Device; the last use of a registration unregisters its memory.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"void *", "Ptr", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER (Ptr),
INVALID_ARGUMENT (no registration with the device starts at Ptr: never
registered, already unregistered as many times as registered, or inside
a range but not the start of one).}];
}

def : Section<"Queues">;

def offload_queue_info_t : Enum {
  let Desc = [{Queue properties.}];
  let Prefix = "OFFLOAD_QUEUE_INFO_";
  let Etors = [
    Etor<"OFFLOAD_QUEUE_INFO_DEVICE", 0, "[offload_device_handle_t] its device">,
    Etor<"OFFLOAD_QUEUE_INFO_EMPTY", 1, "[bool] true if every operation submitted so far has completed">,
  ];
}
def offloadCreateQueue : Function {
  let LoweringUses = 1;
  let Desc = [{Creates an in-order queue on \p Device and writes it to \p Queue.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_queue_handle_t *", "Queue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER (Queue),
OUT_OF_RESOURCES.}];
}
def offloadSyncQueue : Function {
  let LoweringUses = 1;
  let Desc = [{Blocks until every operation submitted to \p Queue before the call has
completed; returns the first error of such an operation since the previous
synchronization, if any (e.g. a failed kernel launch).}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE, and errors of enqueued operations.}];
}
def offloadQueryQueue : Function {
  let Desc = [{Writes to \p IsQueueWorkCompleted (optional) whether every operation
submitted to \p Queue so far has completed, without waiting (liboffload
23's `olQueryQueue`, CUDA's `cuStreamQuery`): the answer of
OFFLOAD_QUEUE_INFO_EMPTY. The work's own errors are reported by the next
offloadSyncQueue or offloadDestroyQueue.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"bool *", "IsQueueWorkCompleted", "", !or(PARAM_OUT, PARAM_OPTIONAL)>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE.}];
}
def offloadWaitEvents : Function {
  let LoweringUses = 1;
  let Desc = [{Makes work submitted to \p Queue after the call wait, without blocking the
caller, until every event of \p Events (\p NumEvents entries; Events may be
null when NumEvents is 0) is complete. Events may come from any queue of
any device and may be destroyed right after the call.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"offload_event_handle_t *", "Events", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"size_t", "NumEvents", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE (Queue, an event), INVALID_QUEUE, INVALID_NULL_POINTER
(Events), INVALID_EVENT (the message names the entry, "Events[i]").}];
}
def offloadDestroyQueue : Function {
  let LoweringUses = 1;
  let Desc = [{Waits for \p Queue's work, then destroys it; its events stay valid. The
queue is destroyed even if its work failed; the failure is returned.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE, errors of enqueued operations.}];
}
def offloadGetQueueInfo : InfoQuery<"getQueueInfo"> {
  let Desc = [{Writes property \p PropName of \p Queue into \p PropValue, a buffer of
\p PropSize bytes.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"offload_queue_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t", "PropSize", "", !or(PARAM_IN, PARAM_NONZERO)>,
    Param<"void *", "PropValue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE,
INVALID_ENUMERATION (PropName), INVALID_NULL_POINTER (PropValue),
INVALID_SIZE (PropSize zero or too small).}];
}
def offloadGetQueueInfoSize : InfoQuery<"getQueueInfo"> {
  let Desc = [{Writes into \p PropSizeRet the size in bytes of property \p PropName of
\p Queue.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"offload_queue_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t *", "PropSizeRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE, INVALID_ENUMERATION,
INVALID_NULL_POINTER (PropSizeRet).}];
}
def offload_host_function_cb_t : Typedef<"typedef void (*offload_host_function_cb_t)(void *UserData);"> { let Desc = [{A host function run in order on a queue.}]; }
def offloadLaunchHostFunction : Function {
  let Desc = [{Enqueues a call of \p Callback(\p UserData) on the host: it runs after all
work submitted to \p Queue before it, and work submitted after it starts
once it returned. It runs on a runtime thread.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"offload_host_function_cb_t", "Callback", "", PARAM_IN>,
    Param<"void *", "UserData", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
  ];
  let Errors = [{INVALID_NULL_HANDLE,
INVALID_QUEUE, INVALID_NULL_POINTER (Callback).}];
}

def : Section<"Events">;

def offload_event_info_t : Enum {
  let Desc = [{Event properties.}];
  let Prefix = "OFFLOAD_EVENT_INFO_";
  let Etors = [
    Etor<"OFFLOAD_EVENT_INFO_QUEUE", 0, "[offload_queue_handle_t] the queue it was created on (possibly destroyed since)">,
    Etor<"OFFLOAD_EVENT_INFO_IS_COMPLETE", 1, "[bool] true once the work before the event has completed">,
  ];
}
def offloadCreateEvent : Function {
  let LoweringUses = 1;
  let Desc = [{Records an event that completes once all work submitted to \p Queue before
the call has completed, and writes it to \p Event.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", PARAM_IN>,
    Param<"offload_event_handle_t *", "Event", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_QUEUE, INVALID_NULL_POINTER (Event).}];
}
def offloadSyncEvent : Function {
  let LoweringUses = 1;
  let Desc = [{Blocks the caller until \p Event is complete.}];
  let Params = [
    Param<"offload_event_handle_t", "Event", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE,
INVALID_EVENT.}];
}
def offloadDestroyEvent : Function {
  let LoweringUses = 1;
  let Desc = [{Destroys \p Event; queues waiting on it keep waiting for its completion.}];
  let Params = [
    Param<"offload_event_handle_t", "Event", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_EVENT.}];
}
def offloadGetEventInfo : InfoQuery<"getEventInfo"> {
  let Desc = [{Writes property \p PropName of \p Event into \p PropValue, a buffer of
\p PropSize bytes.}];
  let Params = [
    Param<"offload_event_handle_t", "Event", "", PARAM_IN>,
    Param<"offload_event_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t", "PropSize", "", !or(PARAM_IN, PARAM_NONZERO)>,
    Param<"void *", "PropValue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_EVENT,
INVALID_ENUMERATION (PropName), INVALID_NULL_POINTER (PropValue),
INVALID_SIZE (PropSize zero or too small).}];
}
def offloadGetEventInfoSize : InfoQuery<"getEventInfo"> {
  let Desc = [{Writes into \p PropSizeRet the size in bytes of property \p PropName of
\p Event.}];
  let Params = [
    Param<"offload_event_handle_t", "Event", "", PARAM_IN>,
    Param<"offload_event_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t *", "PropSizeRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_EVENT, INVALID_ENUMERATION,
INVALID_NULL_POINTER (PropSizeRet).}];
}
def offloadGetEventElapsedTime : Function {
  let Desc = [{Writes into \p ElapsedMs the time in milliseconds between the completion
of \p Start and that of \p End (liboffload 23's `olGetEventElapsedTime`,
CUDA's `cuEventElapsedTime`): negative when \p End completed first.
Resolution: the device's event clock (about 0.5 us on CUDA and HIP, the
host's steady clock on the host device). Both events must come from
queues of the same device and be complete; the call does not wait.}];
  let Params = [
    Param<"offload_event_handle_t", "Start", "", PARAM_IN>,
    Param<"offload_event_handle_t", "End", "", PARAM_IN>,
    Param<"float *", "ElapsedMs", "", !or(PARAM_OUT, PARAM_ALWAYS)>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_EVENT (Start, End),
INVALID_NULL_POINTER (ElapsedMs), INVALID_DEVICE (the events' queues are
on different devices), NOT_READY (an event is not complete yet:
offloadSyncEvent it first).}];
}

def : Section<"Programs">;

def offloadCreateProgram : Function {
  let Desc = [{Loads the device binary \p ProgData (\p ProgDataSize bytes, copied) for
\p Device and writes the program to \p Program. For the host device the
binary is an ELF relocatable object of the `#offload.host` target (see
HostKernelABI.h); its structure is checked (section headers, symbol,
string and relocation tables) and it is linked when loaded, so unresolved
symbols are reported here; then its global constructors run (ascending
priority; offloadDestroyProgram runs its destructors, descending).}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"const void *", "ProgData", "", PARAM_IN>,
    Param<"size_t", "ProgDataSize", "", PARAM_IN>,
    Param<"offload_program_handle_t *", "Program", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER (ProgData,
Program), INVALID_BINARY (ProgDataSize zero, as in liboffload, checked
even without validation; else with the loader's message).}];
}
def offloadIsValidBinary : Function {
  let Desc = [{Writes to \p Valid whether \p ProgData (\p ProgDataSize bytes; false if 0)
is a binary \p Device can load: true exactly when offloadCreateProgram
would succeed. It runs none of the binary's code (the host device links
it on trial and discards it).}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"const void *", "ProgData", "", PARAM_IN>,
    Param<"size_t", "ProgDataSize", "", PARAM_IN>,
    Param<"bool *", "Valid", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_NULL_POINTER (ProgData,
Valid).}];
}
def offloadDestroyProgram : Function {
  let Desc = [{Destroys \p Program and its symbols, unloading its code. Kernels of it must
not be running.}];
  let Params = [
    Param<"offload_program_handle_t", "Program", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_PROGRAM.}];
}

def : Section<"Symbols">;

def offload_symbol_kind_t : Enum {
  let Desc = [{Kinds of symbol.}];
  let Prefix = "OFFLOAD_SYMBOL_KIND_";
  let Etors = [
    Etor<"OFFLOAD_SYMBOL_KIND_KERNEL", 0, "a kernel">,
    Etor<"OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE", 1, "a global variable">,
  ];
}
def offload_symbol_info_t : Enum {
  let Desc = [{Symbol properties. Values 0-2 are liboffload 22's `ol_symbol_info_t`;
later values are ours. A property of the other kind of symbol fails with
SYMBOL_KIND.}];
  let Prefix = "OFFLOAD_SYMBOL_INFO_";
  let Etors = [
    Etor<"OFFLOAD_SYMBOL_INFO_KIND", 0, "[offload_symbol_kind_t] its kind">,
    Etor<"OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_ADDRESS", 1, "[void *] address of a global variable, usable in device code and with offloadMemcpy on its device">,
    Etor<"OFFLOAD_SYMBOL_INFO_GLOBAL_VARIABLE_SIZE", 2, "[size_t] size in bytes of a global variable">,
    Etor<"OFFLOAD_SYMBOL_INFO_NAME", 3, "[char[]] the name it was looked up with">,
    Etor<"OFFLOAD_SYMBOL_INFO_PACKED_ARGUMENTS_SIZE", 4, "[uint64_t] size in bytes of a kernel's packed argument buffer (the ArgumentsSize offloadLaunchKernel expects)">,
    Etor<"OFFLOAD_SYMBOL_INFO_NUM_ARGUMENTS", 5, "[uint64_t] number of lowered arguments of a kernel (a memref counts 3 + 2 * rank); UNSUPPORTED if the binary does not record the layout">,
    Etor<"OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS", 6, "[uint64_t[NUM_ARGUMENTS]] byte offset of each argument in the packed buffer; UNSUPPORTED if the layout is unknown. For a kernel without arguments the size is 0 and there is nothing to read.">,
    Etor<"OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES", 7, "[uint64_t[NUM_ARGUMENTS]] byte size of each argument; UNSUPPORTED if the layout is unknown">,
  ];
}
def offloadGetSymbol : Function {
  let Desc = [{Looks up symbol \p Name of kind \p Kind in \p Program and writes it to
\p Symbol. Symbols are owned by their program: repeated lookups return the
same handle, destroying the program destroys them.}];
  let Params = [
    Param<"offload_program_handle_t", "Program", "", PARAM_IN>,
    Param<"const char *", "Name", "", PARAM_IN>,
    Param<"offload_symbol_kind_t", "Kind", "", PARAM_IN>,
    Param<"offload_symbol_handle_t *", "Symbol", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_PROGRAM, INVALID_NULL_POINTER (Name, Symbol),
INVALID_ENUMERATION (Kind), NOT_FOUND (the message lists the program's
kernels), INVALID_BINARY (a kernel descriptor of another ABI version, or
one whose pointers lead outside the program, whose strings are not
terminated in it, whose static shared memory exceeds the device's, or
whose ArgumentsSize is above OFFLOAD_HOST_KERNEL_MAX_ARGUMENTS_SIZE or
above what its recorded argument layout needs).}];
}
def offloadGetSymbolInfo : InfoQuery<"getSymbolInfo"> {
  let Desc = [{Writes property \p PropName of \p Symbol into \p PropValue, a buffer of
\p PropSize bytes.}];
  let Params = [
    Param<"offload_symbol_handle_t", "Symbol", "", PARAM_IN>,
    Param<"offload_symbol_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t", "PropSize", "", !or(PARAM_IN, PARAM_NONZERO)>,
    Param<"void *", "PropValue", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_SYMBOL,
INVALID_ENUMERATION (PropName), INVALID_NULL_POINTER (PropValue),
INVALID_SIZE (PropSize zero or too small), SYMBOL_KIND (property of the
other kind), UNSUPPORTED (argument layout unknown).}];
}
def offloadGetSymbolInfoSize : InfoQuery<"getSymbolInfo"> {
  let Desc = [{Writes into \p PropSizeRet the size in bytes of property \p PropName of
\p Symbol.}];
  let Params = [
    Param<"offload_symbol_handle_t", "Symbol", "", PARAM_IN>,
    Param<"offload_symbol_info_t", "PropName", "", PARAM_IN>,
    Param<"size_t *", "PropSizeRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_SYMBOL,
INVALID_ENUMERATION, INVALID_NULL_POINTER (PropSizeRet), SYMBOL_KIND,
UNSUPPORTED.}];
}

def : Section<"Kernels">;

def offload_kernel_launch_size_args_t : Struct {
  let LoweringName = "LaunchSizeArgs";
  let Desc = [{Launch geometry: a grid of NumGroups blocks of GroupSize threads each.}];
  let Members = [
    Member<"size_t", "Dimensions", "1, 2 or 3">,
    Member<"offload_dimensions_t", "NumGroups", "grid size in blocks, each >= 1">,
    Member<"offload_dimensions_t", "GroupSize", "block size in threads, each >= 1">,
    Member<"size_t", "DynSharedMemory", "dynamic shared memory per block, bytes">,
  ];
}
def offloadCalculateOptimalOccupancy : Function {
  let Desc = [{Writes to \p GroupSize the block size (threads) with the best occupancy
for \p Kernel on \p Device when each thread needs \p SharedMemory bytes of
dynamic shared memory: the largest block that fits the device's limits and
its shared memory (WORK_GROUP_LOCAL_MEM_SIZE minus the kernel's static
shared memory), a multiple of the subgroup size when at least one
subgroup fits.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_symbol_handle_t", "Kernel", "", PARAM_IN>,
    Param<"size_t", "SharedMemory", "", PARAM_IN>,
    Param<"size_t *", "GroupSize", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE (Device, Kernel),
INVALID_DEVICE, INVALID_SYMBOL, INVALID_NULL_POINTER (GroupSize),
SYMBOL_KIND (not a kernel), INVALID_DEVICE (kernel of another device),
OUT_OF_RESOURCES (not even one thread fits).}];
}
def offloadLaunchKernel : Function {
  let LoweringUses = 1;
  let Desc = [{Launches \p Kernel on \p Device. \p ArgumentsData points to the packed
argument buffer (\p ArgumentsSize bytes; may be null when 0), copied
before the call returns: the kernel's arguments laid out as a C struct of
their lowered types, in order, each at its natural alignment (memrefs
expanded to allocated pointer, aligned pointer, offset, sizes[rank],
strides[rank]; see OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS). Without
\p Queue (optional, a queue of Device) the launch is complete on return
and its errors are returned; with it, the launch is enqueued and its errors
are reported by the queue's next synchronization.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_symbol_handle_t", "Kernel", "", PARAM_IN>,
    Param<"const void *", "ArgumentsData", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"size_t", "ArgumentsSize", "", PARAM_IN>,
    Param<"const offload_kernel_launch_size_args_t *", "LaunchSizeArgs", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_QUEUE,
INVALID_NULL_HANDLE / INVALID_DEVICE (Device), INVALID_NULL_HANDLE /
INVALID_SYMBOL (Kernel), INVALID_NULL_POINTER (LaunchSizeArgs),
INVALID_ARGUMENT (ArgumentsSize > 0 with null ArgumentsData, ArgumentsSize
not the kernel's, Dimensions not 1-3), INVALID_DEVICE (Queue or Kernel of
another device), SYMBOL_KIND (not a kernel), INVALID_SIZE (a zero
dimension; a block larger than MAX_WORK_GROUP_SIZE[_PER_DIMENSION]; a grid
of more threads than MAX_WORK_SIZE[_PER_DIMENSION] unless that is the
saturated UINT32_MAX; on the host, static plus dynamic shared memory above
WORK_GROUP_LOCAL_MEM_SIZE, and a sum that wraps even without validation),
INVALID_BINARY (the kernel's code is unusable, e.g. a barrier in a
non-cooperative kernel). Messages name the kernel, the limit and the
value.}];
}

def offload_kernel_launch_prop_type_t : Enum {
  let Desc = [{Kinds of launch property (liboffload 23's `ol_kernel_launch_prop_type_t`).}];
  let Prefix = "OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_";
  let Etors = [
    Etor<"OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_END", 0, "ends a property list (Data unused)">,
    Etor<"OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_IS_COOPERATIVE", 1, "Data: `const bool *`; true: a cooperative launch, every block of the grid runs at once (OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT), at most offloadGetKernelMaxCooperativeGroupCount blocks">,
  ];
}
def offload_kernel_launch_prop_t : Struct {
  let Desc = [{One launch property; a list of them ends with OFFLOAD_KERNEL_LAUNCH_PROP_END.}];
  let Members = [
    Member<"offload_kernel_launch_prop_type_t", "Type", "which property">,
    Member<"const void *", "Data", "its value, of the type Type says">,
  ];
}
def : Macro<"OFFLOAD_KERNEL_LAUNCH_PROP_END", "{OFFLOAD_KERNEL_LAUNCH_PROP_TYPE_END, NULL}"> { let Desc = "The entry that ends a property list."; }
def offloadLaunchKernelWithProperties : Function {
  let Desc = [{offloadLaunchKernel with launch properties (liboffload 23's
`olLaunchKernel` with its `Properties`): \p Properties (optional; null: none)
is a list ended by OFFLOAD_KERNEL_LAUNCH_PROP_END. A property given twice
takes its last value. With IS_COOPERATIVE true, every block of the grid
runs at once, so that blocks may wait for each other (a grid-wide
barrier): the device must support it
(OFFLOAD_DEVICE_INFO_COOPERATIVE_LAUNCH_SUPPORT) and the grid must have at
most offloadGetKernelMaxCooperativeGroupCount blocks, both checked even
without validation (a grid that cannot run at once would hang).}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_symbol_handle_t", "Kernel", "", PARAM_IN>,
    Param<"const void *", "ArgumentsData", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"size_t", "ArgumentsSize", "", PARAM_IN>,
    Param<"const offload_kernel_launch_size_args_t *", "LaunchSizeArgs", "", PARAM_IN>,
    Param<"const offload_kernel_launch_prop_t *", "Properties", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
  ];
  let Errors = [{those of offloadLaunchKernel (INVALID_QUEUE, INVALID_NULL_HANDLE,
INVALID_DEVICE, INVALID_SYMBOL, INVALID_NULL_POINTER, INVALID_ARGUMENT,
SYMBOL_KIND, INVALID_SIZE, INVALID_BINARY), and INVALID_ENUMERATION (a property's Type; the message names it,
"Properties[i]"), INVALID_NULL_POINTER (a property's Data),
UNSUPPORTED (a cooperative launch on a device without
COOPERATIVE_LAUNCH_SUPPORT), INVALID_SIZE (a cooperative grid of more
blocks than offloadGetKernelMaxCooperativeGroupCount allows).}];
}
def offloadLaunchKernelWithArguments : Function {
  let Desc = [{Launches \p Kernel with its arguments given one by one (the form of
liboffload 23's `olLaunchKernel` and of `cuLaunchKernel`'s kernelParams):
\p Arguments[i] points to the value of the i-th lowered argument,
\p ArgumentSizes[i] bytes, for \p NumArguments arguments; each value is
read before the call returns. The runtime packs them into the kernel's
argument buffer by the layout the binary records
(OFFLOAD_SYMBOL_INFO_ARGUMENT_OFFSETS and ARGUMENT_SIZES), so NumArguments
must be the kernel's NUM_ARGUMENTS and every size the recorded one; then it
launches as offloadLaunchKernelWithProperties (\p Properties optional).
Arguments and ArgumentSizes may be null when NumArguments is 0.}];
  let Params = [
    Param<"offload_queue_handle_t", "Queue", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_symbol_handle_t", "Kernel", "", PARAM_IN>,
    Param<"size_t", "NumArguments", "", PARAM_IN>,
    Param<"const void *const *", "Arguments", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"const size_t *", "ArgumentSizes", "", !or(PARAM_IN, PARAM_IMPL_CHECKED)>,
    Param<"const offload_kernel_launch_size_args_t *", "LaunchSizeArgs", "", PARAM_IN>,
    Param<"const offload_kernel_launch_prop_t *", "Properties", "", !or(PARAM_IN, PARAM_OPTIONAL)>,
  ];
  let Errors = [{those of offloadLaunchKernelWithProperties (INVALID_QUEUE,
INVALID_NULL_HANDLE, INVALID_DEVICE, INVALID_SYMBOL, INVALID_SIZE,
INVALID_ENUMERATION, ...) but the ArgumentsSize rule, and INVALID_NULL_POINTER (Arguments or ArgumentSizes
null with NumArguments > 0, an entry of Arguments null: "Arguments[i]"),
SYMBOL_KIND (not a kernel, checked even without validation),
UNSUPPORTED (the binary does not record the kernel's argument layout),
INVALID_ARGUMENT (NumArguments not the kernel's, ArgumentSizes[i] not the
recorded size; checked even without validation: they decide where the
bytes go).}];
}
def offloadGetKernelMaxCooperativeGroupCount : Function {
  let Desc = [{Writes to \p GroupCountRet the most blocks a cooperative launch of
\p Kernel on \p Device may have with the block size and dynamic shared
memory of \p LaunchSizeArgs (its NumGroups is ignored): the blocks that can
run at once (liboffload 23's `olGetKernelMaxCooperativeGroupCount`, CUDA's
occupancy times multiprocessors). Host: the threads that run blocks
(OFFLOAD_HOST_THREADS, default the hardware threads), each block of a
cooperative grid getting one; CUDA:
cuOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessors.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"offload_symbol_handle_t", "Kernel", "", PARAM_IN>,
    Param<"const offload_kernel_launch_size_args_t *", "LaunchSizeArgs", "", PARAM_IN>,
    Param<"uint32_t *", "GroupCountRet", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE (Device, Kernel), INVALID_DEVICE,
INVALID_SYMBOL, INVALID_NULL_POINTER (LaunchSizeArgs, GroupCountRet),
SYMBOL_KIND (not a kernel), INVALID_DEVICE (kernel of another device),
INVALID_SIZE (a zero block dimension, a block above the device's limits),
UNSUPPORTED (the device has no cooperative launches).}];
}

def : Section<"Support for compiler-generated code (convert-offload-to-llvm), ours">;

def offloadGetKernelFromImage : Function {
  let LoweringUses = 1;
  let Desc = [{Returns the kernel \p KernelName of the binary image \p Image (\p ImageSize
bytes) loaded on \p Device, loading the program on first use. Programs are
cached per (device, image address) until offloadShutDown; kernels per
(program, name).}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"const void *", "Image", "", PARAM_IN>,
    Param<"size_t", "ImageSize", "", PARAM_IN>,
    Param<"const char *", "KernelName", "", PARAM_IN>,
    Param<"offload_symbol_handle_t *", "Kernel", "", PARAM_OUT>,
  ];
  let Errors = [{INVALID_NULL_HANDLE, INVALID_DEVICE,
INVALID_NULL_POINTER (Image, KernelName, Kernel), INVALID_BINARY
(ImageSize zero, as for offloadCreateProgram), and those of
offloadCreateProgram and offloadGetSymbol.}];
  let CodeLoc = 0;
}
def : Macro<"OFFLOAD_MEMREF_MAX_RANK", "64"> { let Desc = "The largest rank offloadMemRegisterMemRef accepts."; }
def offloadMemRegisterMemRef : Function {
  let LoweringUses = 1;
  let Desc = [{Registers the memory of a memref with \p Device, given its descriptor as
laid out by MLIR's LLVM lowering (\p Rank, then a pointer to the ranked
descriptor {allocated, aligned, offset, sizes[Rank], strides[Rank]}) and
its element size in bytes (the ABI of an unranked memref). An empty memref
registers nothing.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"int64_t", "Rank", "", PARAM_IN>,
    Param<"void *", "Descriptor", "", PARAM_IN>,
    Param<"int64_t", "ElementSize", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_NULL_POINTER (Descriptor),
INVALID_ARGUMENT (Rank negative or above OFFLOAD_MEMREF_MAX_RANK, a
negative size or stride), INVALID_SIZE (ElementSize not positive, a span
that does not fit in int64_t), and those of offloadMemRegister.}];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadMemUnregisterMemRef : Function {
  let LoweringUses = 1;
  let Desc = [{Undoes offloadMemRegisterMemRef.}];
  let Params = [
    Param<"offload_device_handle_t", "Device", "", PARAM_IN>,
    Param<"int64_t", "Rank", "", PARAM_IN>,
    Param<"void *", "Descriptor", "", PARAM_IN>,
    Param<"int64_t", "ElementSize", "", PARAM_IN>,
  ];
  let Errors = [{as offloadMemRegisterMemRef.}];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadCheckLaunchSizes : Function {
  let LoweringUses = 1;
  let Desc = [{Checks launch sizes computed at run time (blocks per grid and threads per
block, x, y, z) before generated code narrows them to the 32-bit
offload_dimensions_t.}];
  let Params = [
    Param<"int64_t", "GridX", "", PARAM_IN>,
    Param<"int64_t", "GridY", "", PARAM_IN>,
    Param<"int64_t", "GridZ", "", PARAM_IN>,
    Param<"int64_t", "BlockX", "", PARAM_IN>,
    Param<"int64_t", "BlockY", "", PARAM_IN>,
    Param<"int64_t", "BlockZ", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_ARGUMENT, naming the first size that
is below 1 or above UINT32_MAX and its value.}];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadCheckAllocationSize : Function {
  let LoweringUses = 1;
  let Desc = [{Reports the byte count of an allocation that generated code computed as
elements times element size: \p Overflowed nonzero when that product (or
the product of the dimensions) did not fit in 64 bits; \p ElementSize in
bytes.}];
  let Params = [
    Param<"int64_t", "Overflowed", "", PARAM_IN>,
    Param<"int64_t", "ElementSize", "", PARAM_IN>,
  ];
  let Errors = [{INVALID_SIZE when \p Overflowed.}];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadAbortOnError : Function {
  let LoweringUses = 1;
  let ReturnType = "void";
  let Desc = [{If \p Result is an error, prints "offload error: <Context>: <CODE>:
<message>" to stderr and exits the process with status 1; otherwise
returns. Generated code calls it after every runtime call. Called on a
thread other than the main one (an async.execute task), it flushes the
C streams and ends the process with _Exit(1): exit() would wait for that
thread in the async runtime's destructors.}];
  let Params = [
    Param<"offload_result_t", "Result", "", PARAM_IN>,
    Param<"const char *", "Context", "", PARAM_IN>,
  ];
  let Generated = 0;
  let CodeLoc = 0;
}

def : Section<"Timeline tracing (OFFLOAD_TRACE_FILE)">;

def offloadTraceEnabled : Function {
  let ReturnType = "bool";
  let Desc = [{Whether OFFLOAD_TRACE_FILE=path.json is set: the runtime then records its
copies, fills and launches as Chrome trace events, one track per queue,
and writes the file when the last offloadShutDown returns or at exit.}];
  let Params = [
  ];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadTraceNow : Function {
  let ReturnType = "uint64_t";
  let Desc = [{Microseconds on the trace's clock (0 when tracing is off).}];
  let Params = [
  ];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadTraceRecord : Function {
  let ReturnType = "void";
  let Desc = [{Adds an event of \p DurationMicros starting at \p StartMicros (trace
clock) on the track named \p Track (null: synchronous calls), e.g. the
JIT's compiles. \p Details (optional) is shown with the event. Does
nothing when tracing is off.}];
  let Params = [
    Param<"const char *", "Name", "", PARAM_IN>,
    Param<"const char *", "Category", "", PARAM_IN>,
    Param<"const char *", "Track", "", PARAM_IN>,
    Param<"uint64_t", "StartMicros", "", PARAM_IN>,
    Param<"uint64_t", "DurationMicros", "", PARAM_IN>,
    Param<"const char *", "Details", "", PARAM_IN>,
  ];
  let Generated = 0;
  let CodeLoc = 0;
}

def : Section<"Profile summaries (OFFLOAD_PROFILE)">;

def offload_profile_jit_event_t : Enum {
  let Desc = [{What the JIT reports to the profile, per kernel.}];
  let Prefix = "OFFLOAD_PROFILE_JIT_";
  let Etors = [
    Etor<"OFFLOAD_PROFILE_JIT_COMPILE", 0, "a specialization was compiled">,
    Etor<"OFFLOAD_PROFILE_JIT_MEMORY_HIT", 1, "found in the in-memory cache">,
    Etor<"OFFLOAD_PROFILE_JIT_DISK_HIT", 2, "read from the disk cache">,
  ];
}
def offloadProfileEnabled : Function {
  let ReturnType = "bool";
  let Desc = [{Whether OFFLOAD_PROFILE (1 or json:PATH) is set: the runtime then times
its launches, copies and fills and prints (or writes) `nsys stats`-like
summaries at the last offloadShutDown and at exit (docs/Profiling.md).}];
  let Params = [
  ];
  let Generated = 0;
  let CodeLoc = 0;
}
def offloadProfileRecordJIT : Function {
  let ReturnType = "void";
  let Desc = [{Adds a JIT event of kernel \p KernelName to the profile; \p DurationNanos
is the compile time of OFFLOAD_PROFILE_JIT_COMPILE (0 otherwise). Does
nothing when profiling is off or \p KernelName is null.}];
  let Params = [
    Param<"const char *", "KernelName", "", PARAM_IN>,
    Param<"offload_profile_jit_event_t", "Event", "", PARAM_IN>,
    Param<"uint64_t", "DurationNanos", "", PARAM_IN>,
  ];
  let Generated = 0;
  let CodeLoc = 0;
}


// The callbacks of compiled host kernels (HostKernelABI.h), exported beside
// the C API.
def : Export<"__offload_host_barrier">;
def : Export<"__offload_host_shuffle">;
def : Export<"__offload_host_assert_fail">;
def : Export<"__offload_host_bounds_fail">;
def : Export<"__offload_host_check_access">;
def : Export<"__offload_host_check_barrier">;
def : Export<"__offload_host_check_init">;
def : Export<"__offload_host_check_init_pending">;
def : Export<"__offload_host_check_init_write_all">;
def : Export<"__offload_host_check_init_start">;

// The JIT's entry points that convert-offload-to-llvm calls are described
// with the JIT's C API (include/OffloadJIT/API/OffloadJITAPI.td, which
// includes this file), marked LoweringUses: the lowering's table of runtime
// functions is generated from that description.
