//===- Trace.cpp - Entry point wrapper: tracing and errors ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/Support/Format.h"

#include <mutex>

using namespace llvm;
using namespace offload;

void trace::printArg(raw_ostream &OS, const void *Ptr) {
  OS << format_hex(reinterpret_cast<uintptr_t>(Ptr), 0);
}

void trace::printArg(raw_ostream &OS, const char *Str) {
  if (!Str) {
    OS << "0x0";
    return;
  }
  OS << '"';
  OS.write_escaped(Str);
  OS << '"';
}

void trace::printArg(raw_ostream &OS, size_t Value) { OS << Value; }
void trace::printArg(raw_ostream &OS, uint32_t Value) { OS << Value; }

namespace {
void printEnum(raw_ostream &OS, const char *Name, int Value) {
  if (Name)
    OS << Name;
  else
    OS << "<invalid " << Value << '>';
}
} // namespace

void trace::printArg(raw_ostream &OS, RawEnum<offload_alloc_type_t> Value) {
  const char *Name = nullptr;
  switch (Value.Value) {
  case OFFLOAD_ALLOC_TYPE_HOST:
    Name = "HOST";
    break;
  case OFFLOAD_ALLOC_TYPE_DEVICE:
    Name = "DEVICE";
    break;
  case OFFLOAD_ALLOC_TYPE_MANAGED:
    Name = "MANAGED";
    break;
  }
  printEnum(OS, Name, Value.Value);
}

void trace::printArg(raw_ostream &OS,
                     RawEnum<offload_platform_backend_t> Value) {
  const char *Name = nullptr;
  switch (Value.Value) {
  case OFFLOAD_PLATFORM_BACKEND_UNKNOWN:
    Name = "UNKNOWN";
    break;
  case OFFLOAD_PLATFORM_BACKEND_CUDA:
    Name = "CUDA";
    break;
  case OFFLOAD_PLATFORM_BACKEND_AMDGPU:
    Name = "AMDGPU";
    break;
  case OFFLOAD_PLATFORM_BACKEND_HOST:
    Name = "HOST";
    break;
  }
  printEnum(OS, Name, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_platform_info_t> Value) {
  const char *Name = nullptr;
  switch (Value.Value) {
  case OFFLOAD_PLATFORM_INFO_NAME:
    Name = "NAME";
    break;
  case OFFLOAD_PLATFORM_INFO_VENDOR_NAME:
    Name = "VENDOR_NAME";
    break;
  case OFFLOAD_PLATFORM_INFO_VERSION:
    Name = "VERSION";
    break;
  case OFFLOAD_PLATFORM_INFO_BACKEND:
    Name = "BACKEND";
    break;
  }
  printEnum(OS, Name, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_device_info_t> Value) {
  const char *Name = nullptr;
  switch (Value.Value) {
  case OFFLOAD_DEVICE_INFO_TYPE:
    Name = "TYPE";
    break;
  case OFFLOAD_DEVICE_INFO_PLATFORM:
    Name = "PLATFORM";
    break;
  case OFFLOAD_DEVICE_INFO_NAME:
    Name = "NAME";
    break;
  case OFFLOAD_DEVICE_INFO_VENDOR:
    Name = "VENDOR";
    break;
  case OFFLOAD_DEVICE_INFO_DRIVER_VERSION:
    Name = "DRIVER_VERSION";
    break;
  case OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE:
    Name = "MAX_WORK_GROUP_SIZE";
    break;
  case OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION:
    Name = "MAX_WORK_GROUP_SIZE_PER_DIMENSION";
    break;
  case OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS:
    Name = "NUM_COMPUTE_UNITS";
    break;
  case OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE:
    Name = "GLOBAL_MEM_SIZE";
    break;
  case OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE:
    Name = "WORK_GROUP_LOCAL_MEM_SIZE";
    break;
  case OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE:
    Name = "SUBGROUP_SIZE";
    break;
  }
  printEnum(OS, Name, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_symbol_kind_t> Value) {
  const char *Name = nullptr;
  switch (Value.Value) {
  case OFFLOAD_SYMBOL_KIND_KERNEL:
    Name = "KERNEL";
    break;
  case OFFLOAD_SYMBOL_KIND_GLOBAL_VARIABLE:
    Name = "GLOBAL_VARIABLE";
    break;
  }
  printEnum(OS, Name, Value.Value);
}

void trace::printArg(raw_ostream &OS,
                     const offload_kernel_launch_size_args_t *Value) {
  if (!Value) {
    OS << "0x0";
    return;
  }
  auto PrintDims = [&](const offload_dimensions_t &D) {
    OS << '{' << D.x << ',' << D.y << ',' << D.z << '}';
  };
  OS << "{Dimensions=" << Value->Dimensions << ", NumGroups=";
  PrintDims(Value->NumGroups);
  OS << ", GroupSize=";
  PrintDims(Value->GroupSize);
  OS << ", DynSharedMemory=" << Value->DynSharedMemory << '}';
}

void trace::printCall(StringRef Function, StringRef Args,
                      offload_result_t Result) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << Function << '(' << Args << ") -> ";
  if (Result == OFFLOAD_SUCCESS)
    OS << "OFFLOAD_SUCCESS";
  else
    OS << offloadErrcName(Result->Code) << ": " << Result->Details;
  OS << '\n';
  // One write per line so that concurrent calls do not interleave.
  static std::mutex Mutex;
  std::lock_guard<std::mutex> Lock(Mutex);
  errs() << Line;
  errs().flush();
}
