//===- OffloadAPI.h - The offload runtime C API -----------------*- C -*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// The public C API of the offload runtime. It has the shape of LLVM's
// liboffload (`offload/liboffload/API/*.td`, release 22): the same objects
// (platforms, devices, queues, events, programs, symbols), entry points, info
// queries and error model, under the `offload` prefix so that both libraries
// can live in one process.
//
// Error model: every entry point returns an `offload_result_t`, which is
// `OFFLOAD_SUCCESS` (NULL) on success and otherwise points to an
// `offload_error_struct_t` holding a code and a human-readable message. The
// pointed-to error lives until the library is unloaded; it must not be freed.
//
// Units: sizes are in bytes, dimensions in elements (blocks or threads).
//
// Thread safety: every entry point may be called concurrently from any number
// of threads. Operations enqueued on one queue execute in submission order;
// operations on different queues may run concurrently.
//
// This header has no MLIR or LLVM types: a program that embeds only the
// runtime (libOffloadRuntime) pays for no compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_OFFLOADAPI_H
#define OFFLOADRUNTIME_OFFLOADAPI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define OFFLOAD_API __attribute__((visibility("default")))
#else
#define OFFLOAD_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Handles and errors
//===----------------------------------------------------------------------===//

typedef struct offload_platform_impl_t *offload_platform_handle_t;
typedef struct offload_device_impl_t *offload_device_handle_t;
typedef struct offload_queue_impl_t *offload_queue_handle_t;
typedef struct offload_event_impl_t *offload_event_handle_t;
typedef struct offload_program_impl_t *offload_program_handle_t;
typedef struct offload_symbol_impl_t *offload_symbol_handle_t;

/// Error codes; the list and meaning follow liboffload's `ol_errc_t`.
typedef enum offload_errc_t {
  OFFLOAD_ERRC_SUCCESS = 0,
  OFFLOAD_ERRC_UNKNOWN = 1,              ///< unknown or internal error
  OFFLOAD_ERRC_HOST_IO = 2,              ///< I/O error on the host
  OFFLOAD_ERRC_INVALID_BINARY = 3,       ///< a binary image is malformed
  OFFLOAD_ERRC_INVALID_NULL_POINTER = 4, ///< a pointer argument is null
  OFFLOAD_ERRC_INVALID_ARGUMENT = 5,     ///< an argument is invalid
  OFFLOAD_ERRC_NOT_FOUND = 6,            ///< object not found in a binary
  OFFLOAD_ERRC_OUT_OF_RESOURCES = 7,     ///< out of memory or resources
  OFFLOAD_ERRC_INVALID_SIZE = 8,         ///< zero or out-of-bounds size
  OFFLOAD_ERRC_INVALID_ENUMERATION = 9,  ///< enumerator argument not valid
  OFFLOAD_ERRC_HOST_TOOL_NOT_FOUND = 10, ///< a required host tool is missing
  OFFLOAD_ERRC_INVALID_VALUE = 11,       ///< invalid value
  OFFLOAD_ERRC_UNIMPLEMENTED = 12,       ///< not implemented by the backend
  OFFLOAD_ERRC_UNSUPPORTED = 13,         ///< not supported by the backend
  OFFLOAD_ERRC_ASSEMBLE_FAILURE = 14,    ///< assembler failure
  OFFLOAD_ERRC_COMPILE_FAILURE = 15,     ///< compiler failure
  OFFLOAD_ERRC_LINK_FAILURE = 16,        ///< linker failure
  OFFLOAD_ERRC_BACKEND_FAILURE = 17,     ///< plugin backend failure
  OFFLOAD_ERRC_UNINITIALIZED = 18,       ///< offloadInit was not called
  OFFLOAD_ERRC_INVALID_NULL_HANDLE = 19, ///< a handle argument is null
  OFFLOAD_ERRC_INVALID_PLATFORM = 20,    ///< invalid platform
  OFFLOAD_ERRC_INVALID_DEVICE = 21,      ///< invalid device
  OFFLOAD_ERRC_INVALID_QUEUE = 22,       ///< invalid queue
  OFFLOAD_ERRC_INVALID_EVENT = 23,       ///< invalid event
  OFFLOAD_ERRC_SYMBOL_KIND = 24,         ///< symbol of the wrong kind
  OFFLOAD_ERRC_INVALID_PROGRAM = 25,     ///< invalid program
  OFFLOAD_ERRC_INVALID_SYMBOL = 26,      ///< invalid symbol
} offload_errc_t;

/// Details of an error returned by an entry point.
typedef struct offload_error_struct_t {
  offload_errc_t Code; ///< the error code, never OFFLOAD_ERRC_SUCCESS
  const char *Details; ///< a message naming the failing argument or cause
} offload_error_struct_t;

/// Result of every entry point: NULL on success, else the error.
typedef const offload_error_struct_t *offload_result_t;
#define OFFLOAD_SUCCESS ((offload_result_t)NULL)

/// A three-element vector of block or thread counts.
typedef struct offload_dimensions_t {
  uint32_t x, y, z;
} offload_dimensions_t;

/// Returns a static, human-readable name for \p Code ("OFFLOAD_ERRC_...").
OFFLOAD_API const char *offloadErrcName(offload_errc_t Code);

//===----------------------------------------------------------------------===//
// Initialization
//===----------------------------------------------------------------------===//

/// Initializes the library and its plugins. Reference counted: each call must
/// be matched by one offloadShutDown. Plugins whose vendor library is missing
/// contribute no devices; that is not an error.
OFFLOAD_API offload_result_t offloadInit(void);

/// Decrements the reference count; at zero, releases every queue, event,
/// program and allocation. Calls other than offloadInit made afterwards return
/// OFFLOAD_ERRC_UNINITIALIZED.
OFFLOAD_API offload_result_t offloadShutDown(void);

//===----------------------------------------------------------------------===//
// Platforms and devices
//===----------------------------------------------------------------------===//

typedef enum offload_platform_backend_t {
  OFFLOAD_PLATFORM_BACKEND_UNKNOWN = 0,
  OFFLOAD_PLATFORM_BACKEND_CUDA = 1,
  OFFLOAD_PLATFORM_BACKEND_AMDGPU = 2,
  OFFLOAD_PLATFORM_BACKEND_HOST = 3,
} offload_platform_backend_t;

typedef enum offload_platform_info_t {
  OFFLOAD_PLATFORM_INFO_NAME = 0,    ///< char[]
  OFFLOAD_PLATFORM_INFO_VENDOR_NAME, ///< char[]
  OFFLOAD_PLATFORM_INFO_VERSION,     ///< char[]
  OFFLOAD_PLATFORM_INFO_BACKEND,     ///< offload_platform_backend_t
} offload_platform_info_t;

typedef enum offload_device_type_t {
  OFFLOAD_DEVICE_TYPE_DEFAULT = 0,
  OFFLOAD_DEVICE_TYPE_ALL = 1,
  OFFLOAD_DEVICE_TYPE_GPU = 2,
  OFFLOAD_DEVICE_TYPE_CPU = 3,
  OFFLOAD_DEVICE_TYPE_HOST = 4,
} offload_device_type_t;

typedef enum offload_device_info_t {
  OFFLOAD_DEVICE_INFO_TYPE = 0,          ///< offload_device_type_t
  OFFLOAD_DEVICE_INFO_PLATFORM,          ///< offload_platform_handle_t
  OFFLOAD_DEVICE_INFO_NAME,              ///< char[]
  OFFLOAD_DEVICE_INFO_VENDOR,            ///< char[]
  OFFLOAD_DEVICE_INFO_DRIVER_VERSION,    ///< char[]
  OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE, ///< uint32_t, threads per block
  OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION, ///< offload_dimensions_t
  OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS, ///< uint32_t
  OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE,   ///< uint64_t, bytes
  OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE, ///< uint64_t, bytes
  OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE,     ///< uint32_t, threads per warp
} offload_device_info_t;

/// Called once per device by offloadIterateDevices; return false to stop.
typedef bool (*offload_device_iterate_cb_t)(offload_device_handle_t Device,
                                            void *UserData);

/// Calls \p Callback for every device of every platform, the host device
/// first. Errors: INVALID_NULL_POINTER if \p Callback is NULL.
OFFLOAD_API offload_result_t
offloadIterateDevices(offload_device_iterate_cb_t Callback, void *UserData);

/// Returns the \p Index-th device (0-based) whose platform backend is
/// \p Backend (OFFLOAD_PLATFORM_BACKEND_UNKNOWN means any platform).
/// Errors: NOT_FOUND if there is no such device, INVALID_NULL_POINTER.
OFFLOAD_API offload_result_t offloadGetDevice(offload_platform_backend_t Backend,
                                              uint32_t Index,
                                              offload_device_handle_t *Device);

/// The host device: the CPU the program runs on. Always present.
OFFLOAD_API offload_result_t offloadGetHostDevice(offload_device_handle_t *Device);

/// Writes property \p PropName of \p Device into \p PropValue, which has
/// \p PropSize bytes. Errors: INVALID_NULL_HANDLE, INVALID_ENUMERATION,
/// INVALID_SIZE (PropSize too small; query it with offloadGetDeviceInfoSize).
OFFLOAD_API offload_result_t offloadGetDeviceInfo(offload_device_handle_t Device,
                                                  offload_device_info_t PropName,
                                                  size_t PropSize,
                                                  void *PropValue);
/// Writes into \p PropSizeRet the size in bytes of property \p PropName.
OFFLOAD_API offload_result_t
offloadGetDeviceInfoSize(offload_device_handle_t Device,
                         offload_device_info_t PropName, size_t *PropSizeRet);

/// Platform info queries, same contract as offloadGetDeviceInfo.
OFFLOAD_API offload_result_t
offloadGetPlatformInfo(offload_platform_handle_t Platform,
                       offload_platform_info_t PropName, size_t PropSize,
                       void *PropValue);
OFFLOAD_API offload_result_t
offloadGetPlatformInfoSize(offload_platform_handle_t Platform,
                           offload_platform_info_t PropName,
                           size_t *PropSizeRet);

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

typedef enum offload_alloc_type_t {
  OFFLOAD_ALLOC_TYPE_HOST = 0,    ///< pinned host memory, device accessible
  OFFLOAD_ALLOC_TYPE_DEVICE = 1,  ///< device memory
  OFFLOAD_ALLOC_TYPE_MANAGED = 2, ///< unified memory, host and device
} offload_alloc_type_t;

/// Allocates \p Size bytes (> 0) of kind \p Type for \p Device; the address,
/// aligned to at least 64 bytes, is written to \p AllocationOut.
/// Errors: INVALID_NULL_HANDLE, INVALID_NULL_POINTER, INVALID_SIZE (zero),
/// INVALID_ENUMERATION, OUT_OF_RESOURCES.
OFFLOAD_API offload_result_t offloadMemAlloc(offload_device_handle_t Device,
                                             offload_alloc_type_t Type,
                                             size_t Size, void **AllocationOut);

/// Frees an allocation made by offloadMemAlloc. Errors: INVALID_NULL_POINTER,
/// INVALID_ARGUMENT (not the start of a live allocation, e.g. double free).
OFFLOAD_API offload_result_t offloadMemFree(void *Address);

/// Copies \p Size bytes from \p SrcPtr (memory of \p SrcDevice) to \p DstPtr
/// (memory of \p DstDevice); either device may be the host device. Without a
/// queue the copy is complete on return; with one it is enqueued.
/// Errors: INVALID_NULL_HANDLE, INVALID_NULL_POINTER, INVALID_SIZE.
OFFLOAD_API offload_result_t offloadMemcpy(offload_queue_handle_t Queue,
                                           void *DstPtr,
                                           offload_device_handle_t DstDevice,
                                           const void *SrcPtr,
                                           offload_device_handle_t SrcDevice,
                                           size_t Size);

/// Fills \p Size bytes at \p Ptr with copies of the \p PatternSize -byte
/// pattern at \p PatternPtr. \p Size must be a multiple of \p PatternSize.
/// Synchronous without a queue. Errors: INVALID_NULL_POINTER, INVALID_SIZE.
OFFLOAD_API offload_result_t offloadMemFill(offload_queue_handle_t Queue,
                                            void *Ptr, size_t PatternSize,
                                            const void *PatternPtr,
                                            size_t Size);

/// Makes \p Size bytes of existing host memory at \p HostPtr accessible to
/// \p Device; the device-side address is written to \p DevicePtrOut (for the
/// host device it is \p HostPtr). Errors: INVALID_NULL_HANDLE,
/// INVALID_NULL_POINTER, INVALID_SIZE.
OFFLOAD_API offload_result_t offloadMemRegister(offload_device_handle_t Device,
                                                void *HostPtr, size_t Size,
                                                void **DevicePtrOut);
/// Undoes offloadMemRegister. Registering twice or unregistering unknown
/// memory is not an error for the host device.
OFFLOAD_API offload_result_t offloadMemUnregister(offload_device_handle_t Device,
                                                  void *HostPtr);

//===----------------------------------------------------------------------===//
// Queues and events
//===----------------------------------------------------------------------===//

/// Creates an in-order queue on \p Device. Errors: INVALID_NULL_HANDLE,
/// INVALID_NULL_POINTER.
OFFLOAD_API offload_result_t offloadCreateQueue(offload_device_handle_t Device,
                                                offload_queue_handle_t *Queue);
/// Waits for all work on \p Queue; returns the first error of an enqueued
/// operation, if any. Errors: INVALID_NULL_HANDLE, INVALID_QUEUE.
OFFLOAD_API offload_result_t offloadSyncQueue(offload_queue_handle_t Queue);
/// Makes \p Queue wait, without blocking the caller, until every event in
/// \p Events (\p NumEvents entries) is complete. Errors: INVALID_NULL_HANDLE,
/// INVALID_NULL_POINTER, INVALID_EVENT.
OFFLOAD_API offload_result_t offloadWaitEvents(offload_queue_handle_t Queue,
                                               offload_event_handle_t *Events,
                                               size_t NumEvents);
/// Waits for the queue's work, then destroys it.
OFFLOAD_API offload_result_t offloadDestroyQueue(offload_queue_handle_t Queue);

/// A host function run in order on a queue.
typedef void (*offload_host_function_cb_t)(void *UserData);
OFFLOAD_API offload_result_t
offloadLaunchHostFunction(offload_queue_handle_t Queue,
                          offload_host_function_cb_t Callback, void *UserData);

/// Records an event marking the current end of \p Queue's work.
OFFLOAD_API offload_result_t offloadCreateEvent(offload_queue_handle_t Queue,
                                                offload_event_handle_t *Event);
/// Blocks until \p Event is complete.
OFFLOAD_API offload_result_t offloadSyncEvent(offload_event_handle_t Event);
OFFLOAD_API offload_result_t offloadDestroyEvent(offload_event_handle_t Event);

//===----------------------------------------------------------------------===//
// Programs, symbols and launch
//===----------------------------------------------------------------------===//

/// Loads a device binary for \p Device: for the host device an ELF relocatable
/// object produced by the `#offload.host` target. Errors: INVALID_NULL_HANDLE,
/// INVALID_NULL_POINTER, INVALID_SIZE, INVALID_BINARY (with the loader's
/// message).
OFFLOAD_API offload_result_t offloadCreateProgram(offload_device_handle_t Device,
                                                  const void *ProgData,
                                                  size_t ProgDataSize,
                                                  offload_program_handle_t *Program);
/// Whether \p ProgData is a binary \p Device can load, written to \p IsValid.
OFFLOAD_API offload_result_t offloadIsValidBinary(offload_device_handle_t Device,
                                                  const void *ProgData,
                                                  size_t ProgDataSize,
                                                  bool *IsValid);
OFFLOAD_API offload_result_t offloadDestroyProgram(offload_program_handle_t Program);

typedef enum offload_symbol_kind_t {
  OFFLOAD_SYMBOL_KIND_KERNEL = 0,
  OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE = 1,
} offload_symbol_kind_t;

/// Looks up symbol \p Name of kind \p Kind in \p Program. Errors:
/// INVALID_NULL_HANDLE, INVALID_NULL_POINTER, NOT_FOUND.
OFFLOAD_API offload_result_t offloadGetSymbol(offload_program_handle_t Program,
                                              const char *Name,
                                              offload_symbol_kind_t Kind,
                                              offload_symbol_handle_t *Symbol);

/// Launch geometry: a grid of NumGroups blocks of GroupSize threads each.
typedef struct offload_kernel_launch_size_args_t {
  size_t Dimensions;              ///< 1, 2 or 3
  offload_dimensions_t NumGroups; ///< grid size in blocks, each >= 1
  offload_dimensions_t GroupSize; ///< block size in threads, each >= 1
  size_t DynSharedMemory;         ///< dynamic shared memory per block, bytes
} offload_kernel_launch_size_args_t;

/// Launches \p Kernel on \p Device. \p ArgumentsData points to the packed
/// argument buffer (\p ArgumentsSize bytes): the kernel's arguments laid out
/// as a C struct of their lowered types, in order, each at its natural
/// alignment (memrefs expanded to allocated pointer, aligned pointer, offset,
/// sizes[rank], strides[rank]). Without a queue the launch is complete on
/// return. Errors: INVALID_NULL_HANDLE, INVALID_NULL_POINTER, SYMBOL_KIND,
/// INVALID_SIZE (zero dimension, block too large), INVALID_DEVICE (queue of
/// another device).
OFFLOAD_API offload_result_t
offloadLaunchKernel(offload_queue_handle_t Queue, offload_device_handle_t Device,
                    offload_symbol_handle_t Kernel, const void *ArgumentsData,
                    size_t ArgumentsSize,
                    const offload_kernel_launch_size_args_t *LaunchSizeArgs);

//===----------------------------------------------------------------------===//
// Support for compiler-generated code (convert-offload-to-llvm)
//===----------------------------------------------------------------------===//

/// Returns the kernel \p KernelName of the binary image \p Image (\p ImageSize
/// bytes) loaded on \p Device, loading the program on first use. Programs are
/// cached per (device, image address) until offloadShutDown; kernels per
/// (program, name). Errors: as offloadCreateProgram and offloadGetSymbol.
OFFLOAD_API offload_result_t offloadGetKernelFromImage(
    offload_device_handle_t Device, const void *Image, size_t ImageSize,
    const char *KernelName, offload_symbol_handle_t *Kernel);

/// Registers the memory of a memref with \p Device, given its descriptor as
/// laid out by MLIR's LLVM lowering (\p Rank, then a pointer to the ranked
/// descriptor {allocated, aligned, offset, sizes[Rank], strides[Rank]}) and
/// its element size in bytes (the ABI of an unranked memref). Errors: as
/// offloadMemRegister.
OFFLOAD_API offload_result_t offloadMemRegisterMemRef(
    offload_device_handle_t Device, int64_t Rank, void *Descriptor,
    int64_t ElementSize);
/// Undoes offloadMemRegisterMemRef.
OFFLOAD_API offload_result_t offloadMemUnregisterMemRef(
    offload_device_handle_t Device, int64_t Rank, void *Descriptor,
    int64_t ElementSize);

/// If \p Result is an error, prints "offload error: <Context>: <CODE>:
/// <message>" to stderr and exits the process with status 1; otherwise
/// returns. Generated code calls it after every runtime call.
OFFLOAD_API void offloadAbortOnError(offload_result_t Result,
                                     const char *Context);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // OFFLOADRUNTIME_OFFLOADAPI_H
