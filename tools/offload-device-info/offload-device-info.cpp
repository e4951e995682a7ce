//===- offload-device-info.cpp - List offload platforms and devices -------===//
//
// Part of the offload project, under the Apache License v2.0 with LLVM
// Exceptions.
//
//===----------------------------------------------------------------------===//
//
// Prints every platform and device the offload runtime finds, with every
// property of offloadGetPlatformInfo and offloadGetDeviceInfo, in the format
// of LLVM's llvm-offload-device-info. Uses only the runtime's public C API.
//
// Exit status: 0 on success (also when only the host device is present), 1
// if a runtime call fails, 2 on a usage error.
//
//===----------------------------------------------------------------------===//

#include "OffloadRuntime/OffloadAPI.h"
#include "OffloadVersion.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

/// How a property's value is printed.
enum class Kind {
  String,
  U32,
  U64,
  Bytes,
  MHz,
  Hex,
  Dimensions,
  FPFlags,
  DeviceType,
  Backend,
};

struct Property {
  int Prop;
  const char *Label;
  Kind How;
};

// In offload_device_info_t order; the platform is printed from its own
// properties.
const Property DeviceProperties[] = {
    {OFFLOAD_DEVICE_INFO_NAME, "Name", Kind::String},
    {OFFLOAD_DEVICE_INFO_PRODUCT_NAME, "Product Name", Kind::String},
    {OFFLOAD_DEVICE_INFO_UID, "UID", Kind::String},
    {OFFLOAD_DEVICE_INFO_TYPE, "Type", Kind::DeviceType},
    {OFFLOAD_DEVICE_INFO_VENDOR, "Vendor", Kind::String},
    {OFFLOAD_DEVICE_INFO_DRIVER_VERSION, "Driver Version", Kind::String},
    {OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE, "Max Work Group Size", Kind::U32},
    {OFFLOAD_DEVICE_INFO_MAX_WORK_GROUP_SIZE_PER_DIMENSION,
     "Max Work Group Size Per Dimension", Kind::Dimensions},
    {OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE, "Max Work Size", Kind::U32},
    {OFFLOAD_DEVICE_INFO_MAX_WORK_SIZE_PER_DIMENSION,
     "Max Work Size Per Dimension", Kind::Dimensions},
    {OFFLOAD_DEVICE_INFO_VENDOR_ID, "Vendor ID", Kind::Hex},
    {OFFLOAD_DEVICE_INFO_NUM_COMPUTE_UNITS, "Num Compute Units", Kind::U32},
    {OFFLOAD_DEVICE_INFO_MAX_CLOCK_FREQUENCY, "Max Clock Frequency", Kind::MHz},
    {OFFLOAD_DEVICE_INFO_MEMORY_CLOCK_RATE, "Memory Clock Rate", Kind::MHz},
    {OFFLOAD_DEVICE_INFO_ADDRESS_BITS, "Address Bits", Kind::U32},
    {OFFLOAD_DEVICE_INFO_MAX_MEM_ALLOC_SIZE, "Max Mem Allocation Size",
     Kind::Bytes},
    {OFFLOAD_DEVICE_INFO_GLOBAL_MEM_SIZE, "Global Mem Size", Kind::Bytes},
    {OFFLOAD_DEVICE_INFO_WORK_GROUP_LOCAL_MEM_SIZE,
     "Work Group Shared Mem Size", Kind::Bytes},
    {OFFLOAD_DEVICE_INFO_SINGLE_FP_CONFIG,
     "Single Precision Floating Point Capability", Kind::FPFlags},
    {OFFLOAD_DEVICE_INFO_DOUBLE_FP_CONFIG,
     "Double Precision Floating Point Capability", Kind::FPFlags},
    {OFFLOAD_DEVICE_INFO_HALF_FP_CONFIG,
     "Half Precision Floating Point Capability", Kind::FPFlags},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_CHAR,
     "Native Vector Width For Char", Kind::U32},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_SHORT,
     "Native Vector Width For Short", Kind::U32},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_INT, "Native Vector Width For Int",
     Kind::U32},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_LONG,
     "Native Vector Width For Long", Kind::U32},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_FLOAT,
     "Native Vector Width For Float", Kind::U32},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_DOUBLE,
     "Native Vector Width For Double", Kind::U32},
    {OFFLOAD_DEVICE_INFO_NATIVE_VECTOR_WIDTH_HALF,
     "Native Vector Width For Half", Kind::U32},
    {OFFLOAD_DEVICE_INFO_SUBGROUP_SIZE, "Subgroup Size", Kind::U32},
    {OFFLOAD_DEVICE_INFO_ARCHITECTURE, "Architecture", Kind::String},
};

const Property PlatformProperties[] = {
    {OFFLOAD_PLATFORM_INFO_NAME, "Platform Name", Kind::String},
    {OFFLOAD_PLATFORM_INFO_VENDOR_NAME, "Platform Vendor Name", Kind::String},
    {OFFLOAD_PLATFORM_INFO_VERSION, "Platform Version", Kind::String},
    {OFFLOAD_PLATFORM_INFO_BACKEND, "Platform Backend", Kind::Backend},
};

/// Prints the error of a failed call and reports whether \p Result failed.
bool failed(offload_result_t Result, const char *What) {
  if (Result == OFFLOAD_SUCCESS)
    return false;
  std::fprintf(stderr, "offload-device-info: %s: %s: %s\n", What,
               offloadErrcName(Result->Code),
               Result->Details ? Result->Details : "");
  return true;
}

const char *deviceTypeName(uint32_t Type) {
  switch (Type) {
  case OFFLOAD_DEVICE_TYPE_DEFAULT:
    return "DEFAULT";
  case OFFLOAD_DEVICE_TYPE_ALL:
    return "ALL";
  case OFFLOAD_DEVICE_TYPE_GPU:
    return "GPU";
  case OFFLOAD_DEVICE_TYPE_CPU:
    return "CPU";
  case OFFLOAD_DEVICE_TYPE_HOST:
    return "HOST";
  }
  return "UNKNOWN";
}

const char *backendName(uint32_t Backend) {
  switch (Backend) {
  case OFFLOAD_PLATFORM_BACKEND_UNKNOWN:
    return "UNKNOWN";
  case OFFLOAD_PLATFORM_BACKEND_CUDA:
    return "CUDA";
  case OFFLOAD_PLATFORM_BACKEND_AMDGPU:
    return "AMDGPU";
  case OFFLOAD_PLATFORM_BACKEND_HOST:
    return "HOST";
  case OFFLOAD_PLATFORM_BACKEND_LEVEL_ZERO:
    return "LEVEL_ZERO";
  }
  return "UNKNOWN";
}

std::string fpFlagNames(uint32_t Flags) {
  static const struct {
    uint32_t Bit;
    const char *Name;
  } Names[] = {
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_CORRECTLY_ROUNDED_DIVIDE_SQRT,
       "CORRECTLY_ROUNDED_DIVIDE_SQRT"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_NEAREST, "ROUND_TO_NEAREST"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_ZERO, "ROUND_TO_ZERO"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_ROUND_TO_INF, "ROUND_TO_INF"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_INF_NAN, "INF_NAN"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_DENORM, "DENORM"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_FMA, "FMA"},
      {OFFLOAD_DEVICE_FP_CAPABILITY_FLAG_SOFT_FLOAT, "SOFT_FLOAT"},
  };
  std::string Result = "{ ";
  for (const auto &N : Names)
    if (Flags & N.Bit)
      Result += std::string(N.Name) + " ";
  return Result + "}";
}

/// Prints "Label: value" for a property whose bytes are \p Value.
void printValue(const Property &P, const std::vector<char> &Value) {
  auto As = [&](auto Zero) {
    decltype(Zero) V = Zero;
    std::memcpy(&V, Value.data(), std::min(sizeof(V), Value.size()));
    return V;
  };
  std::printf("%s: ", P.Label);
  switch (P.How) {
  case Kind::String:
    std::printf("%s\n", Value.empty() ? "" : Value.data());
    break;
  case Kind::U32:
    std::printf("%" PRIu32 "\n", As(uint32_t(0)));
    break;
  case Kind::U64:
    std::printf("%" PRIu64 "\n", As(uint64_t(0)));
    break;
  case Kind::Bytes:
    std::printf("%" PRIu64 " B\n", As(uint64_t(0)));
    break;
  case Kind::MHz:
    std::printf("%" PRIu32 " MHz\n", As(uint32_t(0)));
    break;
  case Kind::Hex:
    std::printf("0x%" PRIx32 "\n", As(uint32_t(0)));
    break;
  case Kind::Dimensions: {
    offload_dimensions_t D = As(offload_dimensions_t{0, 0, 0});
    std::printf("{x: %" PRIu32 ", y: %" PRIu32 ", z: %" PRIu32 "}\n", D.x, D.y,
                D.z);
    break;
  }
  case Kind::FPFlags: {
    uint32_t Flags = As(uint32_t(0));
    std::printf("%" PRIu32 " %s\n", Flags, fpFlagNames(Flags).c_str());
    break;
  }
  case Kind::DeviceType:
    std::printf("%s\n", deviceTypeName(As(uint32_t(0))));
    break;
  case Kind::Backend:
    std::printf("%s\n", backendName(As(uint32_t(0))));
    break;
  }
}

/// \p Text as a JSON string literal.
std::string jsonString(const char *Text) {
  std::string Out = "\"";
  for (const char *C = Text; *C; ++C) {
    unsigned char U = static_cast<unsigned char>(*C);
    if (U == '"' || U == '\\') {
      Out += '\\';
      Out += char(U);
    } else if (U < 0x20) {
      char Escaped[8];
      std::snprintf(Escaped, sizeof(Escaped), "\\u%04x", U);
      Out += Escaped;
    } else {
      Out += char(U);
    }
  }
  return Out + "\"";
}

/// A property's value as JSON (numbers as numbers, in bytes and MHz).
std::string jsonValue(const Property &P, const std::vector<char> &Value) {
  auto As = [&](auto Zero) {
    decltype(Zero) V = Zero;
    std::memcpy(&V, Value.data(), std::min(sizeof(V), Value.size()));
    return V;
  };
  char Buffer[128];
  switch (P.How) {
  case Kind::String:
    return jsonString(Value.empty() ? "" : Value.data());
  case Kind::U32:
  case Kind::MHz:
  case Kind::Hex:
    std::snprintf(Buffer, sizeof(Buffer), "%" PRIu32, As(uint32_t(0)));
    return Buffer;
  case Kind::U64:
  case Kind::Bytes:
    std::snprintf(Buffer, sizeof(Buffer), "%" PRIu64, As(uint64_t(0)));
    return Buffer;
  case Kind::Dimensions: {
    offload_dimensions_t D = As(offload_dimensions_t{0, 0, 0});
    std::snprintf(Buffer, sizeof(Buffer),
                  "{\"x\": %" PRIu32 ", \"y\": %" PRIu32 ", \"z\": %" PRIu32
                  "}",
                  D.x, D.y, D.z);
    return Buffer;
  }
  case Kind::FPFlags: {
    std::string Names = fpFlagNames(As(uint32_t(0)));
    // "{ A B }" -> ["A", "B"]
    std::string Out = "[";
    size_t Pos = 2;
    while (Pos < Names.size()) {
      size_t End = Names.find(' ', Pos);
      if (End == std::string::npos || End == Pos)
        break;
      if (Out.size() > 1)
        Out += ", ";
      Out += jsonString(Names.substr(Pos, End - Pos).c_str());
      Pos = End + 1;
    }
    return Out + "]";
  }
  case Kind::DeviceType:
    return jsonString(deviceTypeName(As(uint32_t(0))));
  case Kind::Backend:
    return jsonString(backendName(As(uint32_t(0))));
  }
  return "null";
}

/// JSON output (--json): one object, written as the properties are read.
bool JSON = false;
bool FirstJSONField = true;

/// Reads and prints one property with \p GetSize and \p Get.
template <typename HandleT, typename EnumT, typename GetSizeFn, typename GetFn>
bool printProperty(HandleT Handle, const Property &P, GetSizeFn GetSize,
                   GetFn Get) {
  auto Prop = static_cast<EnumT>(P.Prop);
  size_t Size = 0;
  if (failed(GetSize(Handle, Prop, &Size), P.Label))
    return false;
  std::vector<char> Value(Size);
  if (Size && failed(Get(Handle, Prop, Size, Value.data()), P.Label))
    return false;
  if (JSON) {
    std::printf("%s\n        %s: %s", FirstJSONField ? "" : ",",
                jsonString(P.Label).c_str(), jsonValue(P, Value).c_str());
    FirstJSONField = false;
  } else {
    printValue(P, Value);
  }
  return true;
}

bool printDevice(offload_device_handle_t Device) {
  offload_platform_handle_t Platform = nullptr;
  if (failed(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_PLATFORM,
                                  sizeof(Platform), &Platform),
             "Platform"))
    return false;
  size_t NameSize = 0;
  if (failed(
          offloadGetDeviceInfoSize(Device, OFFLOAD_DEVICE_INFO_NAME, &NameSize),
          "Name"))
    return false;
  std::vector<char> Name(NameSize + 1, '\0');
  if (failed(offloadGetDeviceInfo(Device, OFFLOAD_DEVICE_INFO_NAME, NameSize,
                                  Name.data()),
             "Name"))
    return false;
  if (!JSON)
    std::printf("[%s]\n", Name.data());
  FirstJSONField = true;
  for (const Property &P : PlatformProperties)
    if (!printProperty<offload_platform_handle_t, offload_platform_info_t>(
            Platform, P, offloadGetPlatformInfoSize, offloadGetPlatformInfo))
      return false;
  for (const Property &P : DeviceProperties)
    if (!printProperty<offload_device_handle_t, offload_device_info_t>(
            Device, P, offloadGetDeviceInfoSize, offloadGetDeviceInfo))
      return false;
  return true;
}

void printHelp(const char *Argv0) {
  std::printf("USAGE: %s [--json] [--platform=host|cuda|hip] [--device=N] "
              "[--help] [--version]\n\n"
              "Lists the platforms and devices of the offload runtime with "
              "every property.\n\n"
              "  --json           one JSON object: the platforms (name, "
              "backend, number of\n"
              "                   devices, status) and each device's "
              "properties\n"
              "  --platform=NAME  only the devices of that platform\n"
              "  --device=N       only the N-th device listed (after "
              "--platform)\n",
              Argv0);
}

/// The backend a --platform= name selects, or UNKNOWN.
offload_platform_backend_t parsePlatform(const char *Name) {
  if (!std::strcmp(Name, "host"))
    return OFFLOAD_PLATFORM_BACKEND_HOST;
  if (!std::strcmp(Name, "cuda"))
    return OFFLOAD_PLATFORM_BACKEND_CUDA;
  if (!std::strcmp(Name, "hip") || !std::strcmp(Name, "amdgpu"))
    return OFFLOAD_PLATFORM_BACKEND_AMDGPU;
  return OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
}

} // namespace

int main(int Argc, char **Argv) {
  offload_platform_backend_t OnlyBackend = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
  long OnlyDevice = -1;
  for (int I = 1; I < Argc; ++I) {
    if (!std::strcmp(Argv[I], "--json")) {
      JSON = true;
      continue;
    }
    if (!std::strncmp(Argv[I], "--platform=", 11)) {
      OnlyBackend = parsePlatform(Argv[I] + 11);
      if (OnlyBackend == OFFLOAD_PLATFORM_BACKEND_UNKNOWN) {
        std::fprintf(stderr,
                     "offload-device-info: unknown platform '%s' (expected "
                     "host, cuda or hip)\n",
                     Argv[I] + 11);
        return 2;
      }
      continue;
    }
    if (!std::strncmp(Argv[I], "--device=", 9)) {
      char *End = nullptr;
      OnlyDevice = std::strtol(Argv[I] + 9, &End, 10);
      if (!*(Argv[I] + 9) || *End || OnlyDevice < 0) {
        std::fprintf(stderr,
                     "offload-device-info: --device= takes a device index "
                     "(0, 1, ...), not '%s'\n",
                     Argv[I] + 9);
        return 2;
      }
      continue;
    }
    if (!std::strcmp(Argv[I], "--help") || !std::strcmp(Argv[I], "-h")) {
      printHelp(Argv[0]);
      return 0;
    }
    if (!std::strcmp(Argv[I], "--version")) {
      std::printf("offload-device-info " OFFLOAD_VERSION_LINE "\n");
      return 0;
    }
    std::fprintf(stderr, "offload-device-info: unknown argument '%s'\n",
                 Argv[I]);
    printHelp(Argv[0]);
    return 2;
  }

  if (failed(offloadInit(), "offloadInit"))
    return 1;
  std::vector<offload_device_handle_t> Devices;
  if (failed(offloadIterateDevices(
                 [](offload_device_handle_t D, void *Data) {
                   static_cast<std::vector<offload_device_handle_t> *>(Data)
                       ->push_back(D);
                   return true;
                 },
                 &Devices),
             "offloadIterateDevices")) {
    offloadShutDown();
    return 1;
  }
  // --platform= and --device= select the devices listed.
  if (OnlyBackend != OFFLOAD_PLATFORM_BACKEND_UNKNOWN)
    Devices.erase(
        std::remove_if(Devices.begin(), Devices.end(),
                       [&](offload_device_handle_t D) {
                         offload_platform_handle_t P = nullptr;
                         offload_platform_backend_t B =
                             OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
                         offloadGetDeviceInfo(D, OFFLOAD_DEVICE_INFO_PLATFORM,
                                              sizeof(P), &P);
                         offloadGetPlatformInfo(
                             P, OFFLOAD_PLATFORM_INFO_BACKEND, sizeof(B), &B);
                         return B != OnlyBackend;
                       }),
        Devices.end());
  if (OnlyDevice >= 0) {
    if (size_t(OnlyDevice) >= Devices.size()) {
      std::fprintf(stderr,
                   "offload-device-info: no device %ld: %zu device(s) "
                   "listed\n",
                   OnlyDevice, Devices.size());
      offloadShutDown();
      return 1;
    }
    Devices = {Devices[OnlyDevice]};
  }
  std::vector<offload_platform_handle_t> Platforms;
  for (offload_device_handle_t D : Devices) {
    offload_platform_handle_t P = nullptr;
    if (offloadGetDeviceInfo(D, OFFLOAD_DEVICE_INFO_PLATFORM, sizeof(P), &P) ==
            OFFLOAD_SUCCESS &&
        std::find(Platforms.begin(), Platforms.end(), P) == Platforms.end())
      Platforms.push_back(P);
  }

  std::vector<offload_platform_handle_t> AllPlatforms;
  offloadIteratePlatforms(
      [](offload_platform_handle_t P, void *Data) {
        static_cast<std::vector<offload_platform_handle_t> *>(Data)->push_back(
            P);
        return true;
      },
      &AllPlatforms);
  if (JSON) {
    std::printf("{\n  \"api_version\": \"%d.%d.%d\",\n  \"platforms\": [",
                OFFLOAD_LIBOFFLOAD_API_VERSION_MAJOR,
                OFFLOAD_LIBOFFLOAD_API_VERSION_MINOR,
                OFFLOAD_LIBOFFLOAD_API_VERSION_PATCH);
    for (size_t I = 0; I < AllPlatforms.size(); ++I) {
      char Name[256] = "", Status[1024] = "";
      offload_platform_backend_t B = OFFLOAD_PLATFORM_BACKEND_UNKNOWN;
      offloadGetPlatformInfo(AllPlatforms[I], OFFLOAD_PLATFORM_INFO_NAME,
                             sizeof(Name), Name);
      offloadGetPlatformInfo(AllPlatforms[I], OFFLOAD_PLATFORM_INFO_STATUS,
                             sizeof(Status), Status);
      offloadGetPlatformInfo(AllPlatforms[I], OFFLOAD_PLATFORM_INFO_BACKEND,
                             sizeof(B), &B);
      size_t Count = 0;
      std::pair<offload_platform_handle_t, size_t *> CountArgs{AllPlatforms[I],
                                                               &Count};
      offloadIterateDevices(
          [](offload_device_handle_t D, void *Data) {
            auto *Args =
                static_cast<std::pair<offload_platform_handle_t, size_t *> *>(
                    Data);
            offload_platform_handle_t P = nullptr;
            offloadGetDeviceInfo(D, OFFLOAD_DEVICE_INFO_PLATFORM, sizeof(P),
                                 &P);
            *Args->second += P == Args->first;
            return true;
          },
          &CountArgs);
      std::printf("%s\n    {\"name\": %s, \"backend\": %s, \"num_devices\": "
                  "%zu, \"status\": %s}",
                  I ? "," : "", jsonString(Name).c_str(),
                  jsonString(backendName(B)).c_str(), Count,
                  jsonString(Status).c_str());
    }
    std::printf("\n  ],\n  \"devices\": [");
    bool Ok = true;
    for (size_t I = 0; I < Devices.size(); ++I) {
      std::printf("%s\n    {\n      \"properties\": {", I ? "," : "");
      Ok &= printDevice(Devices[I]);
      std::printf("\n      }\n    }");
    }
    std::printf("\n  ]\n}\n");
    bool ShutDownOk = !failed(offloadShutDown(), "offloadShutDown");
    return Ok && ShutDownOk ? 0 : 1;
  }
  std::printf("Offload runtime (liboffload API %d.%d.%d)\n",
              OFFLOAD_LIBOFFLOAD_API_VERSION_MAJOR,
              OFFLOAD_LIBOFFLOAD_API_VERSION_MINOR,
              OFFLOAD_LIBOFFLOAD_API_VERSION_PATCH);
  // Platforms without devices, and why (a missing or stub vendor library).
  std::printf("Num Platforms: %zu (%zu with devices)\n", AllPlatforms.size(),
              Platforms.size());
  std::printf("Num Devices: %zu\n", Devices.size());
  for (offload_platform_handle_t P : AllPlatforms) {
    if (std::find(Platforms.begin(), Platforms.end(), P) != Platforms.end())
      continue;
    char Name[256] = "", Status[1024] = "";
    offloadGetPlatformInfo(P, OFFLOAD_PLATFORM_INFO_NAME, sizeof(Name), Name);
    offloadGetPlatformInfo(P, OFFLOAD_PLATFORM_INFO_STATUS, sizeof(Status),
                           Status);
    std::printf("Platform %s: no devices (%s)\n", Name, Status);
  }
  bool Ok = true;
  for (offload_device_handle_t D : Devices) {
    std::printf("\n");
    Ok &= printDevice(D);
  }
  bool ShutDownOk = !failed(offloadShutDown(), "offloadShutDown");
  return Ok && ShutDownOk ? 0 : 1;
}
