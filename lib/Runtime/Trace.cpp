//===- Trace.cpp - Entry point wrapper: tracing and errors ----------------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//

#include "Trace.h"

#include "llvm/Support/Format.h"

#include <iterator>
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
/// Prints \p Names[Value] (an enum's enumerators without prefix, in value
/// order), or "<invalid N>".
template <size_t N>
void printEnum(raw_ostream &OS, const char *const (&Names)[N], int Value) {
  if (Value >= 0 && size_t(Value) < N)
    OS << Names[Value];
  else
    OS << "<invalid " << Value << '>';
}
} // namespace

void trace::printArg(raw_ostream &OS, RawEnum<offload_alloc_type_t> Value) {
  static const char *const Names[] = {"HOST", "DEVICE", "MANAGED"};
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS,
                     RawEnum<offload_platform_backend_t> Value) {
  static const char *const Names[] = {"UNKNOWN", "CUDA", "AMDGPU", "HOST",
                                      "LEVEL_ZERO"};
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_platform_info_t> Value) {
  static const char *const Names[] = {"NAME", "VENDOR_NAME", "VERSION",
                                      "BACKEND"};
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_device_info_t> Value) {
  static const char *const Names[] = {
      "TYPE",
      "PLATFORM",
      "NAME",
      "PRODUCT_NAME",
      "UID",
      "VENDOR",
      "DRIVER_VERSION",
      "MAX_WORK_GROUP_SIZE",
      "MAX_WORK_GROUP_SIZE_PER_DIMENSION",
      "MAX_WORK_SIZE",
      "MAX_WORK_SIZE_PER_DIMENSION",
      "VENDOR_ID",
      "NUM_COMPUTE_UNITS",
      "MAX_CLOCK_FREQUENCY",
      "MEMORY_CLOCK_RATE",
      "ADDRESS_BITS",
      "MAX_MEM_ALLOC_SIZE",
      "GLOBAL_MEM_SIZE",
      "WORK_GROUP_LOCAL_MEM_SIZE",
      "SINGLE_FP_CONFIG",
      "DOUBLE_FP_CONFIG",
      "HALF_FP_CONFIG",
      "NATIVE_VECTOR_WIDTH_CHAR",
      "NATIVE_VECTOR_WIDTH_SHORT",
      "NATIVE_VECTOR_WIDTH_INT",
      "NATIVE_VECTOR_WIDTH_LONG",
      "NATIVE_VECTOR_WIDTH_FLOAT",
      "NATIVE_VECTOR_WIDTH_DOUBLE",
      "NATIVE_VECTOR_WIDTH_HALF",
      "SUBGROUP_SIZE",
      "ARCHITECTURE",
  };
  static_assert(std::size(Names) == OFFLOAD_DEVICE_INFO_ARCHITECTURE + 1,
                "one name per device property");
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_symbol_kind_t> Value) {
  static const char *const Names[] = {"KERNEL", "GLOBAL_VARIABLE"};
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_symbol_info_t> Value) {
  static const char *const Names[] = {"KIND",
                                      "GLOBAL_VARIABLE_ADDRESS",
                                      "GLOBAL_VARIABLE_SIZE",
                                      "NAME",
                                      "PACKED_ARGUMENTS_SIZE",
                                      "NUM_ARGUMENTS",
                                      "ARGUMENT_OFFSETS",
                                      "ARGUMENT_SIZES"};
  static_assert(std::size(Names) == OFFLOAD_SYMBOL_INFO_ARGUMENT_SIZES + 1,
                "one name per symbol property");
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_mem_info_t> Value) {
  static const char *const Names[] = {"DEVICE", "BASE", "SIZE", "TYPE"};
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_queue_info_t> Value) {
  static const char *const Names[] = {"DEVICE", "EMPTY"};
  printEnum(OS, Names, Value.Value);
}

void trace::printArg(raw_ostream &OS, RawEnum<offload_event_info_t> Value) {
  static const char *const Names[] = {"QUEUE", "IS_COMPLETE"};
  printEnum(OS, Names, Value.Value);
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

/// Serializes the lines of concurrent calls.
static std::mutex &getOutputMutex() {
  // Never destroyed: calls from static destructors at exit may trace.
  static std::mutex *Mutex = new std::mutex();
  return *Mutex;
}

void trace::printLine(const Twine &Line) {
  if (!isTraceEnabled())
    return;
  std::string Text = ("offload: " + Line + "\n").str();
  std::lock_guard<std::mutex> Lock(getOutputMutex());
  errs() << Text;
  errs().flush();
}

void trace::printCall(StringRef Function, StringRef Args,
                      const offload_code_location_t *Location,
                      offload_result_t Result) {
  std::string Line;
  raw_string_ostream OS(Line);
  OS << Function << '(' << Args << ')';
  if (Location) {
    OS << " @ " << (Location->FunctionName ? Location->FunctionName : "?")
       << " (" << (Location->SourceFile ? Location->SourceFile : "?") << ':'
       << Location->LineNumber << ':' << Location->ColumnNumber << ')';
  }
  OS << " -> ";
  if (Result == OFFLOAD_SUCCESS)
    OS << "OFFLOAD_SUCCESS";
  else
    OS << offloadErrcName(Result->Code) << ": " << Result->Details;
  OS << '\n';
  // One write per line so that concurrent calls do not interleave.
  std::lock_guard<std::mutex> Lock(getOutputMutex());
  errs() << Line;
  errs().flush();
}
