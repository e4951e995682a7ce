//===- VendorDriver.h - Driver operations both vendor APIs share -*- C++
//-*-===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Most of gpu::Driver is, for the CUDA Driver API and the HIP runtime alike,
// one call of one entry point with the method's arguments in the same order
// (cuStreamSynchronize(stream) and hipStreamSynchronize(stream),
// cuLaunchKernel and hipModuleLaunchKernel, ...), only the API's own handle
// types standing for the Driver's void *. VendorDriver implements those
// operations once, over a vendor's table of entry points: a struct that
// names, for each operation, the member of the vendor's symbol table
// (<Vendor>Symbols.def) that holds the entry point and its exported name,
// which errors give ("cuStreamDestroy_v2 failed: ..."), plus the few
// constants the calls pass (flags, the NOT_FOUND result). The table is the
// whole of what the two vendors have in common; whatever differs (the
// arguments of memcpy, HIP 5.2's host callbacks, CUDA's strided memset,
// allocation, device properties, images) stays in the vendor's Driver,
// which derives from VendorDriver<its table> and overrides the rest.
//
// A table looks like this (every entry point it names must be in the
// symbol table; optional ones may be null when called only where noted):
//
//   struct CUDAEntryPoints {
//     using Symbols = CUDASymbols;
//     static constexpr const char *PlatformName = "cuda", *APIName = "CUDA",
//                                 *VendorName = "NVIDIA Corporation";
//     static constexpr offload_platform_backend_t Backend = ...;
//     static constexpr uintptr_t LaunchParamBufferPointer = ..., ...;
//     static constexpr int NotFound = CUDA_ERROR_NOT_FOUND;
//     static constexpr unsigned StreamFlags = ..., EventFlags = ...,
//                               EventFlagsNoTiming = ...,
//                               HostRegisterFlags = ...;
//     static constexpr int FuncSharedSizeAttribute = ...;
//     OFFLOAD_VENDOR_ENTRY(CUDASymbols, StreamCreate, cuStreamCreate)
//     ...
//   };
//
//===----------------------------------------------------------------------===//

#ifndef OFFLOADRUNTIME_LIB_PLUGINS_COMMON_VENDORDRIVER_H
#define OFFLOADRUNTIME_LIB_PLUGINS_COMMON_VENDORDRIVER_H

#include "GPUPlugin.h"

#include "OffloadSupport/Error.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace offload {
namespace gpu {

/// An entry point of symbol table \p Syms: the member holding its address
/// (of type \p Fn) and its exported name, which errors give.
template <typename Syms, typename Fn> struct EntryPoint {
  using Function = Fn;
  Fn Syms::*Member;
  const char *Name;
};

/// The X macros of a vendor's symbol table (<Vendor>Symbols.def, one
/// `<VENDOR>_SYMBOL(Member, Export, Fallback, Required, Ret, Params)` per
/// entry point). Defined as OFFLOAD_VENDOR_SYMBOL inside the symbol table's
/// struct, each entry point is a member holding its address and a constant
/// ExportOf_##Member with its exported name:
///
///   struct CUDASymbols {
///   #define CUDA_SYMBOL OFFLOAD_VENDOR_SYMBOL
///   #include "CUDASymbols.def"
///   };
#define OFFLOAD_VENDOR_SYMBOL(Member, Export, Fallback, Required, Ret, Params) \
  Ret(*Member) Params = nullptr;                                               \
  static constexpr const char *ExportOf_##Member = Export;
/// Defined as OFFLOAD_VENDOR_RESOLVE where `Sym` (the table), `Library` (a
/// DynamicLibrary *) and `Missing` (a std::string) are in scope, each entry
/// point is resolved from the library, a missing required one named in
/// Missing (DynamicLibrary::resolve).
#define OFFLOAD_VENDOR_RESOLVE(Member, Export, Fallback, Required, Ret,        \
                               Params)                                         \
  Sym.Member = reinterpret_cast<Ret(*) Params>(                                \
      Library->resolve(Export, Fallback, Required, Missing));

/// Declares table entry \p Op for member \p Member of symbol table \p Syms
/// (a struct of OFFLOAD_VENDOR_SYMBOLs).
#define OFFLOAD_VENDOR_ENTRY(Syms, Op, Member)                                 \
  static constexpr ::offload::gpu::EntryPoint<Syms, decltype(Syms::Member)>    \
      Op{&Syms::Member, Syms::ExportOf_##Member};

namespace detail {
/// \p Value, an argument of a Driver method, as parameter type \p P of a
/// vendor entry point: a pointer as the API's handle or pointer type (from
/// void *, const or not), a pointer as an integer device address
/// (CUdeviceptr), anything else converted as a value (flags, sizes).
template <typename P, typename A> P toVendor(A Value) {
  if constexpr (std::is_same_v<P, A>)
    return Value;
  else if constexpr (std::is_pointer_v<P> && std::is_pointer_v<A>)
    return static_cast<P>(const_cast<void *>(static_cast<const void *>(Value)));
  else if constexpr (std::is_integral_v<P> && std::is_pointer_v<A>)
    return static_cast<P>(reinterpret_cast<uintptr_t>(Value));
  else
    return static_cast<P>(Value);
}

/// A result of a vendor entry point (a handle, or an integer device address)
/// as the Driver's void *.
template <typename T> void *fromVendor(T Value) {
  if constexpr (std::is_pointer_v<T>)
    return const_cast<void *>(static_cast<const void *>(Value));
  else
    return reinterpret_cast<void *>(static_cast<uintptr_t>(Value));
}

/// The type entry point type \p Fn writes through its first parameter.
template <typename Fn> struct OutParam;
template <typename R, typename Out, typename... P>
struct OutParam<R (*)(Out *, P...)> {
  using type = Out;
};
/// The number of parameters of entry point type \p Fn.
template <typename Fn> struct Arity;
template <typename R, typename... P>
struct Arity<R (*)(P...)> : std::integral_constant<size_t, sizeof...(P)> {};

/// The type table entry \p EP's entry point writes through its first
/// parameter (a CUfunction, a CUdeviceptr, ...).
template <typename EP>
using OutOf = typename OutParam<typename std::decay_t<EP>::Function>::type;
} // namespace detail

/// The Driver operations the vendor APIs share, over \p Table (see the file
/// comment). \p Table::Symbols is the symbol table, filled by the vendor's
/// initialize into Sym.
template <typename Table> class VendorDriver : public APIDriver {
public:
  llvm::StringRef getPlatformName() const override {
    return Table::PlatformName;
  }
  llvm::StringRef getAPIName() const override { return Table::APIName; }
  llvm::StringRef getVendorName() const override { return Table::VendorName; }
  offload_platform_backend_t getBackend() const override {
    return Table::Backend;
  }
  LaunchParamTags getLaunchParamTags() const override {
    return {Table::LaunchParamBufferPointer, Table::LaunchParamBufferSize,
            Table::LaunchParamEnd};
  }

  /// Device, pinned host and managed memory (MemAlloc, MemAllocHost,
  /// MemAllocManaged with ManagedFlags; where MemAllocHost takes flags too,
  /// as hipHostMalloc does and cuMemAllocHost does not, the table's
  /// HostAllocFlags).
  llvm::Expected<void *> allocate(size_t Size,
                                  offload_alloc_type_t Kind) override {
    switch (Kind) {
    case OFFLOAD_ALLOC_TYPE_DEVICE:
      return allocateWith(Table::MemAlloc, Size, "device memory");
    case OFFLOAD_ALLOC_TYPE_HOST:
      if constexpr (detail::Arity<typename std::decay_t<
                        decltype(Table::MemAllocHost)>::Function>::value == 3)
        return allocateWith(Table::MemAllocHost, Size, "pinned host memory",
                            Table::HostAllocFlags);
      else
        return allocateWith(Table::MemAllocHost, Size, "pinned host memory");
    case OFFLOAD_ALLOC_TYPE_MANAGED:
      return allocateWith(Table::MemAllocManaged, Size, "managed memory",
                          Table::ManagedFlags);
    }
    return createError(OFFLOAD_ERRC_INVALID_ENUMERATION,
                       "unknown allocation kind {0}", int(Kind));
  }
  llvm::Error free(void *Ptr, offload_alloc_type_t Kind) override {
    if (Kind == OFFLOAD_ALLOC_TYPE_HOST)
      return call(Table::MemFreeHost, Ptr);
    return call(Table::MemFree, Ptr);
  }
  llvm::Error registerHost(void *Ptr, size_t Size) override {
    return call(Table::HostRegister, Ptr, Size, Table::HostRegisterFlags);
  }
  llvm::Error unregisterHost(void *Ptr) override {
    return call(Table::HostUnregister, Ptr);
  }
  llvm::Error memsetAsync(void *Ptr, uint32_t Value, unsigned ElementSize,
                          size_t Count, void *Stream) override {
    switch (ElementSize) {
    case 1:
      return call(Table::MemsetD8Async, Ptr, Value, Count, Stream);
    case 2:
      return call(Table::MemsetD16Async, Ptr, Value, Count, Stream);
    default:
      return call(Table::MemsetD32Async, Ptr, Value, Count, Stream);
    }
  }

  llvm::Expected<void *> createStream() override {
    return create(Table::StreamCreate, Table::StreamFlags);
  }
  llvm::Error destroyStream(void *Stream) override {
    return call(Table::StreamDestroy, Stream);
  }
  llvm::Error synchronizeStream(void *Stream) override {
    return call(Table::StreamSynchronize, Stream);
  }
  llvm::Expected<bool> queryStream(void *Stream) override {
    return checkQuery(invoke(Table::StreamQuery, Stream),
                      Table::StreamQuery.Name);
  }
  llvm::Expected<void *> createEvent(bool Timing) override {
    return create(Table::EventCreate,
                  Timing ? Table::EventFlags : Table::EventFlagsNoTiming);
  }
  llvm::Error destroyEvent(void *Event) override {
    return call(Table::EventDestroy, Event);
  }
  llvm::Error recordEvent(void *Event, void *Stream) override {
    return call(Table::EventRecord, Event, Stream);
  }
  llvm::Error synchronizeEvent(void *Event) override {
    return call(Table::EventSynchronize, Event);
  }
  llvm::Expected<bool> queryEvent(void *Event) override {
    return checkQuery(invoke(Table::EventQuery, Event), Table::EventQuery.Name);
  }
  llvm::Error streamWaitEvent(void *Stream, void *Event) override {
    return call(Table::StreamWaitEvent, Stream, Event, 0u);
  }
  llvm::Expected<float> eventElapsedTime(void *Start, void *End) override {
    float Ms = 0;
    if (llvm::Error E =
            checkComplete(invoke(Table::EventElapsedTime, &Ms, Start, End),
                          Table::EventElapsedTime.Name))
      return std::move(E);
    return Ms;
  }
  llvm::Error launchHostFunction(void *Stream, HostFn Fn,
                                 void *UserData) override {
    return call(Table::LaunchHostFunc, Stream, Fn, UserData);
  }

  llvm::Expected<void *> getFunction(void *Module,
                                     llvm::StringRef Name) override {
    detail::OutOf<decltype(Table::ModuleGetFunction)> Fn{};
    std::string Text = Name.str();
    int R = invoke(Table::ModuleGetFunction, &Fn, Module, Text.c_str());
    if (R == Table::NotFound)
      return createError(OFFLOAD_ERRC_NOT_FOUND,
                         "kernel '{0}' is not in the program ({1} module)",
                         Name, getAPIName());
    if (llvm::Error E = check(R, Table::ModuleGetFunction.Name))
      return std::move(E);
    return detail::fromVendor(Fn);
  }
  llvm::Expected<std::pair<void *, uint64_t>>
  getGlobal(void *Module, llvm::StringRef Name) override {
    detail::OutOf<decltype(Table::ModuleGetGlobal)> Ptr{};
    size_t Size = 0;
    std::string Text = Name.str();
    int R = invoke(Table::ModuleGetGlobal, &Ptr, &Size, Module, Text.c_str());
    if (R == Table::NotFound)
      return createError(OFFLOAD_ERRC_NOT_FOUND,
                         "global variable '{0}' is not in the program ({1} "
                         "module)",
                         Name, getAPIName());
    if (llvm::Error E = check(R, Table::ModuleGetGlobal.Name))
      return std::move(E);
    return std::make_pair(detail::fromVendor(Ptr), static_cast<uint64_t>(Size));
  }
  /// 0 when the API lacks the (optional) attribute query or it fails.
  uint64_t getStaticSharedBytes(void *Function) override {
    int Bytes = 0;
    if (!(Sym.*Table::FuncGetAttribute.Member) ||
        invoke(Table::FuncGetAttribute, &Bytes, Table::FuncSharedSizeAttribute,
               Function) != 0)
      return 0;
    return static_cast<uint64_t>(std::max(Bytes, 0));
  }

  llvm::Error launchKernel(void *Function, const LaunchDims &D, void *Stream,
                           void **Extra) override {
    return call(Table::LaunchKernel, Function, D.Grid[0], D.Grid[1], D.Grid[2],
                D.Block[0], D.Block[1], D.Block[2], D.SharedBytes, Stream,
                nullptr, Extra);
  }
  /// The cooperative entry points are optional: the vendor's
  /// queryDeviceInfo claims CooperativeLaunchSupport only where they exist.
  llvm::Expected<uint32_t>
  getMaxActiveBlocksPerMultiprocessor(void *Function, uint32_t BlockThreads,
                                      size_t DynShared) override {
    int Blocks = 0;
    if (llvm::Error E = call(
            Table::OccupancyMaxActiveBlocksPerMultiprocessor, &Blocks, Function,
            int(std::min<uint32_t>(BlockThreads, INT_MAX)), DynShared))
      return std::move(E);
    return uint32_t(std::max(Blocks, 0));
  }
  llvm::Error launchCooperativeKernel(void *Function, const LaunchDims &D,
                                      void *Stream, void **Params) override {
    return call(Table::LaunchCooperativeKernel, Function, D.Grid[0], D.Grid[1],
                D.Grid[2], D.Block[0], D.Block[1], D.Block[2], D.SharedBytes,
                Stream, Params);
  }

protected:
  using APIDriver::APIDriver;

  /// The raw result of entry point \p EP called with \p Args (each converted
  /// to its parameter's type, detail::toVendor).
  template <typename Fn, typename... A>
  int invoke(const EntryPoint<typename Table::Symbols, Fn> &EP,
             A... Args) const {
    return invokeFn(Sym.*EP.Member, Args...);
  }
  /// check of invoke: the error names the entry point.
  template <typename Fn, typename... A>
  llvm::Error call(const EntryPoint<typename Table::Symbols, Fn> &EP,
                   A... Args) const {
    return check(invoke(EP, Args...), EP.Name);
  }
  /// What queryDeviceInfo finds the same way for every vendor, for
  /// \p Device (the API's device handle or ordinal): whether it runs
  /// cooperative grids (the optional cooperative entry points exist and its
  /// CooperativeLaunchAttribute says so), and its memory (DeviceTotalMem),
  /// the global memory and the largest allocation.
  llvm::Error queryMemoryAndCooperativeInfo(DeviceInfo &Info, int Device) {
    int Cooperative = 0;
    Info.CooperativeLaunchSupport =
        (Sym.*Table::LaunchCooperativeKernel.Member) &&
        (Sym.*Table::OccupancyMaxActiveBlocksPerMultiprocessor.Member) &&
        invoke(Table::DeviceGetAttribute, &Cooperative,
               Table::CooperativeLaunchAttribute, Device) == 0 &&
        Cooperative;
    size_t Total = 0;
    if (llvm::Error E = call(Table::DeviceTotalMem, &Total, Device))
      return E;
    Info.GlobalMemSize = Total;
    Info.MaxMemAllocSize = Total;
    return llvm::Error::success();
  }
  /// A device attribute (DeviceGetAttribute of \p Attr for \p Device, the
  /// API's device handle or ordinal); negative values read as 0.
  llvm::Expected<uint32_t> getAttribute(int Attr, int Device) const {
    int Value = 0;
    if (llvm::Error E =
            check(invoke(Table::DeviceGetAttribute, &Value, Attr, Device),
                  std::string(Table::DeviceGetAttribute.Name) + "(" +
                      std::to_string(Attr) + ")"))
      return std::move(E);
    return static_cast<uint32_t>(std::max(Value, 0));
  }

  typename Table::Symbols Sym;

private:
  template <typename R, typename... P, typename... A>
  static int invokeFn(R (*Fn)(P...), A... Args) {
    static_assert(sizeof...(P) == sizeof...(A),
                  "an entry point called with the wrong number of arguments");
    return static_cast<int>(Fn(detail::toVendor<P>(Args)...));
  }
  /// \p Size bytes of \p What from \p EP (which writes the pointer through
  /// its first parameter) with \p Flags.
  template <typename Fn, typename... F>
  llvm::Expected<void *>
  allocateWith(const EntryPoint<typename Table::Symbols, Fn> &EP, size_t Size,
               const char *What, F... Flags) {
    typename detail::OutParam<Fn>::type Ptr{};
    if (llvm::Error E = check(invoke(EP, &Ptr, Size, Flags...),
                              "cannot allocate " + std::to_string(Size) +
                                  " bytes of " + What + ": " + EP.Name))
      return std::move(E);
    return detail::fromVendor(Ptr);
  }
  /// A stream or event made by \p EP with \p Flags.
  template <typename Fn>
  llvm::Expected<void *>
  create(const EntryPoint<typename Table::Symbols, Fn> &EP, unsigned Flags) {
    typename detail::OutParam<Fn>::type Handle{};
    if (llvm::Error E = call(EP, &Handle, Flags))
      return std::move(E);
    return detail::fromVendor(Handle);
  }
};

} // namespace gpu
} // namespace offload

#endif // OFFLOADRUNTIME_LIB_PLUGINS_COMMON_VENDORDRIVER_H
